//! Exact solution of two-player zero-sum games with simultaneous moves,
//! chance, and no other hidden information, straight from the rules files:
//! backward induction over the reachable states with a transposition
//! table; each simultaneous decision is a matrix game solved by linear
//! programming (microlp); an ordered reveal (or any single player's
//! decision) is a max or min node; chance (a shuffle, a roll, `random`,
//! in the setup or after a move) is an expectation over every sequence of
//! draws it can make (`outcomes`), the positions they reach merged.
//!
//! Payoff: +1 when the first player wins, -1 when the second does, 0 for a
//! draw (a draw is worth half a win to each). The value is the first
//! player's expected payoff under optimal play; the win/draw/loss split is
//! the one the computed equilibrium strategies produce.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use dashmap::DashMap;
use microlp::{ComparisonOp, OptimizationDirection, Problem};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use rayon::prelude::*;
use rustc_hash::FxHasher;
use serde::Serialize;

use crate::core::{Choice, Forced, Outcome, State};
use crate::definition::PlayerIx;
use crate::definition::format::Per;
use crate::error::{Error, ErrorKind, Result};
use crate::game::Game;

/// A position's worth: the first player's payoff, and the chances of each
/// result under the equilibrium found.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Worth {
    pub value: f64,
    pub win: f64,
    pub draw: f64,
    pub loss: f64,
}

impl Worth {
    const ZERO: Worth = Worth {
        value: 0.0,
        win: 0.0,
        draw: 0.0,
        loss: 0.0,
    };

    /// An ended game's worth: the first player's payoff (half the margin of
    /// a declared payoff stat: their return in a zero-sum game), and the
    /// result.
    pub(crate) fn at(game: &Game, st: &State) -> Worth {
        let mut w = Worth::of(st.outcome());
        if let Some(r) = st.payoff(game) {
            w.value = (r[0] - r.get(1).copied().unwrap_or(0)) as f64 / 2.0;
        }
        w
    }
    fn of(outcome: Option<Outcome>) -> Worth {
        match outcome {
            Some(Outcome::Win(0)) => Worth {
                value: 1.0,
                win: 1.0,
                draw: 0.0,
                loss: 0.0,
            },
            Some(Outcome::Win(_)) => Worth {
                value: -1.0,
                win: 0.0,
                draw: 0.0,
                loss: 1.0,
            },
            _ => Worth {
                value: 0.0,
                win: 0.0,
                draw: 1.0,
                loss: 0.0,
            },
        }
    }
    pub(crate) fn mix(parts: impl Iterator<Item = (f64, Worth)>) -> Worth {
        let mut w = Worth {
            value: 0.0,
            win: 0.0,
            draw: 0.0,
            loss: 0.0,
        };
        for (p, x) in parts {
            w.value += p * x.value;
            w.win += p * x.win;
            w.draw += p * x.draw;
            w.loss += p * x.loss;
        }
        w
    }
}

/// One player's optimal mixed strategy at the first decision.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Strategy {
    pub player: String,
    /// Choice -> probability.
    pub mix: Vec<(String, f64)>,
}

/// What a solution is of: the game as set up, its two players, and what
/// the value measures. Serialised flat, beside the solution's own fields.
#[derive(Debug, Clone, Serialize)]
pub struct Header {
    pub game: String,
    pub variants: Vec<String>,
    pub params: Vec<(String, crate::definition::format::ParamValue)>,
    pub players: [String; 2],
    /// The stat whose margin `worth.value` measures (half of the first
    /// player's minus the second's), or None for win/draw/loss.
    pub payoff: Option<String>,
}

impl Header {
    pub(crate) fn of(game: &Game) -> Header {
        let def = game.def();
        Header {
            game: def.id.clone(),
            variants: def.applied.clone(),
            params: def.sets.clone(),
            players: [def.players[0].id.clone(), def.players[1].id.clone()],
            payoff: def.payoff.map(|x| def.stats[x].id.clone()),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Solution {
    #[serde(flatten)]
    pub head: Header,
    pub worth: Worth,
    /// The first decision: each decider's optimal strategy.
    pub first_decision: String,
    pub strategies: Vec<Strategy>,
    /// The first decision's payoff matrix: the exact value of each pair
    /// of choices (one column when one player decides).
    pub matrix: Option<Matrix>,
    pub states: usize,
    /// The setups solved (each weighted by its chance): more than one
    /// where the setup draws at random, and then no first decision is
    /// reported (each setup has its own).
    pub setups: usize,
    /// How much the setup decides: the standard deviation of the setups'
    /// values around `worth.value` (0 for one setup).
    pub setup_spread: f64,
    pub seconds: f64,
    pub threads: usize,
}

/// Which opening beats which: `values[i][j]` is the first player's value
/// when `rows[i]` (chosen by `row_player`) meets `cols[j]`.
#[derive(Debug, Clone, Serialize)]
pub struct Matrix {
    pub row_player: String,
    pub rows: Vec<String>,
    /// None when one player decides alone (one column).
    pub col_player: Option<String>,
    pub cols: Vec<String>,
    pub values: Vec<Vec<f64>>,
}

type Table = DashMap<u128, Worth, std::hash::BuildHasherDefault<FxHasher>>;

/// (viewer, what they see) -> the cards they do not see, as hashes
/// (`State::seen_and_unseen`).
type Seen = DashMap<(PlayerIx, u64), u64, std::hash::BuildHasherDefault<FxHasher>>;

/// The end of a refusal for hidden information (which `cfr` handles).
pub const HIDDEN: &str = "exact solving handles no hidden information but the simultaneous choice";

/// How far a solve may go before it stops with a message instead of
/// exhausting the machine.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Positions in the table (each about 130 bytes with its share of the
    /// table's overhead, measured on Experior).
    pub max_states: usize,
    /// Decisions along one line of play (the solver recurses along it).
    pub max_depth: usize,
}

/// The default budgets: 20 million positions is about 2.6 GB.
pub const MAX_STATES: usize = 20_000_000;
pub const MAX_DEPTH: usize = 20_000;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_states: MAX_STATES,
            max_depth: MAX_DEPTH,
        }
    }
}

/// A best response's threads' stack: it recurses along a line, so deep
/// enough for `max_depth` decisions (a level takes under 4 KiB in a
/// release build and more in a debug one; only the part used is ever
/// touched). The solver keeps its line on a stack of its own (`Frame`).
fn stack_bytes(limits: &Limits) -> usize {
    limits.max_depth.saturating_mul(16 << 10).max(8 << 20)
}

/// What a search reports as it goes: positions solved so far.
pub type OnProgress<'a> = &'a (dyn Fn(usize) + Sync);

/// Run `work` on a pool of `jobs` threads, with stacks for `limits` where
/// it recurses along a line (`deep`).
fn in_pool<T: Send>(
    limits: &Limits,
    jobs: usize,
    deep: bool,
    work: impl FnOnce() -> T + Send,
) -> Result<T> {
    let mut pool = rayon::ThreadPoolBuilder::new().num_threads(jobs.max(1));
    if deep {
        pool = pool.stack_size(stack_bytes(limits));
    }
    let pool = pool
        .build()
        .map_err(|e| Error::usage(format!("threads: {e}")))?;
    Ok(pool.install(work))
}

/// The worths of positions where a later game of a match begins, each
/// solved apart in a table of its own; a lock each, so that the thread
/// that meets one first solves it and the others wait for its worth.
type Later = DashMap<
    u128,
    std::sync::Arc<std::sync::Mutex<Option<Worth>>>,
    std::hash::BuildHasherDefault<FxHasher>,
>;

/// What every search thread shares.
#[derive(Clone, Copy)]
struct Shared<'a> {
    game: &'a Game,
    table: &'a Table,
    seen: &'a Seen,
    limits: Limits,
    solved: &'a AtomicUsize,
    progress: OnProgress<'a>,
    /// The game of a match whose positions `table` holds.
    game_no: u32,
    later: &'a Later,
    /// Positions in the tables alive now (what the budget bounds), and
    /// in later games' tables, dropped once their start's worth is known.
    live: &'a AtomicUsize,
    apart: &'a AtomicUsize,
}

/// The counters and memo of one solve, for its `Shared`.
#[derive(Default)]
struct Books {
    seen: Seen,
    solved: AtomicUsize,
    later: Later,
    live: AtomicUsize,
    apart: AtomicUsize,
}

impl Books {
    fn shared<'a>(
        &'a self,
        game: &'a Game,
        table: &'a Table,
        limits: Limits,
        progress: OnProgress<'a>,
        game_no: u32,
    ) -> Shared<'a> {
        Shared {
            game,
            table,
            seen: &self.seen,
            limits,
            solved: &self.solved,
            progress,
            game_no,
            later: &self.later,
            live: &self.live,
            apart: &self.apart,
        }
    }
}

struct Solver<'a> {
    shared: &'a Shared<'a>,
    game: &'a Game,
    table: &'a Table,
    /// Decisions on the line being searched.
    depth: usize,
}

impl<'a> Solver<'a> {
    fn new(shared: &'a Shared<'a>) -> Solver<'a> {
        Solver {
            shared,
            game: shared.game,
            table: shared.table,
            depth: 0,
        }
    }
}

impl Solver<'_> {
    fn refuse(&self, why: String) -> Error {
        cannot(self.game, why)
    }

    /// No choice kept secret, and no two positions that look the same to
    /// a player but hide different cards.
    fn check(&mut self, st: &State) -> Result<()> {
        // Two positions a player cannot tell apart must hide the same cards.
        let def = self.game.def();
        if def.capabilities.hidden_information {
            for viewer in 0..2 {
                let (look, hide) = st.seen_and_unseen(self.game, viewer);
                let known = *self.shared.seen.entry((viewer, look)).or_insert(hide);
                if known != hide {
                    let zones: Vec<&str> = (def.zones.iter())
                        .filter(|z| z.may_hide())
                        .map(|z| z.id.as_str())
                        .collect();
                    return Err(self.refuse(format!(
                        "{} cannot tell apart positions that hide different cards (in {}): {HIDDEN}",
                        def.players[viewer].id,
                        zones.join(", ")
                    )));
                }
            }
        }
        if let Some(d) = st.decision()
            && d.secret
        {
            return Err(self.refuse(format!(
                "its decision `{}` is secret (the choices are never revealed): {HIDDEN}",
                d.name
            )));
        }
        Ok(())
    }

    /// Nothing a player cannot deduce when play begins: the cards they do
    /// not see lie where the rules put them whatever the seed (a fixed
    /// setup), or nowhere else a guess could put them (the other hidden
    /// places hold the same cards).
    fn check_root(&mut self, st: &State) -> Result<()> {
        self.check(st)?;
        let def = self.game.def();
        let hidden = |s: &State| -> Vec<Vec<crate::definition::CardIx>> {
            (0..def.zones.len())
                .filter(|&z| def.zones[z].may_hide())
                .flat_map(|z| def.owners(z).map(move |p| (z, p)))
                .map(|(z, p)| s.zone(self.game, z, p).to_vec())
                .collect()
        };
        let here = hidden(st);
        let fixed =
            (0..16).all(|seed| State::new_quiet(self.game, seed).is_ok_and(|s| hidden(&s) == here));
        if fixed {
            return Ok(());
        }
        for viewer in 0..2 {
            for seed in 0..4 {
                let d = st.resample(self.game, viewer, &mut ChaCha8Rng::seed_from_u64(seed));
                for (z, zone) in def.zones.iter().enumerate() {
                    for p in def.owners(z) {
                        let mut x = st.zone(self.game, z, p).to_vec();
                        let mut y = d.zone(self.game, z, p).to_vec();
                        x.sort_unstable();
                        y.sort_unstable();
                        if x != y {
                            let whose = match zone.per {
                                Per::Player => format!("{}'s", def.players[p].id),
                                _ => "the".into(),
                            };
                            return Err(self.refuse(format!(
                                "{whose} `{}` holds cards {} cannot know: {HIDDEN}",
                                zone.id, def.players[viewer].id
                            )));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// A position's worth, from the table or solved depth first on a
    /// stack of its own (the line of play's length is bound by the depth
    /// budget, not by a thread's stack).
    fn worth(&mut self, st: &State) -> Result<Worth> {
        let key = match self.known(st)? {
            Ok(w) => return Ok(w),
            Err(key) => key,
        };
        let mut stack: Vec<Frame> = vec![self.frame(st.clone(), key)?];
        loop {
            let Some(top) = stack.last_mut() else {
                return Err(self.refuse("the search lost its way".into()));
            };
            // The next outcome of the current child, if any is left.
            if let Some((_, s)) = top.outs.get(top.next) {
                let key = match self.known(s)? {
                    Ok(w) => {
                        top.take(w);
                        continue;
                    }
                    Err(key) => key,
                };
                let s = s.clone();
                let frame = self.frame(s, key)?;
                stack.push(frame);
                continue;
            }
            // The current child is complete: on to the next one.
            if top.child < top.moves.len() {
                let moves = &top.moves[top.child];
                top.outs = outcomes(self.game, &top.st, moves)?;
                top.next = 0;
                top.part = Worth::ZERO;
                top.child += 1;
                continue;
            }
            let Some(done) = stack.pop() else { continue };
            let w = self.close(done)?;
            self.depth -= 1;
            match stack.last_mut() {
                Some(parent) => parent.take(w),
                None => return Ok(w),
            }
        }
    }

    /// An ended or tabled position's worth (or the start of a later game
    /// of a match, solved apart), or else its key.
    fn known(&self, st: &State) -> Result<std::result::Result<Worth, u128>> {
        if st.is_over() {
            return Ok(Ok(Worth::at(self.game, st)));
        }
        if st.game_no() > self.shared.game_no {
            return self.later_game(st).map(Ok);
        }
        let key = st.key(self.game);
        Ok(self.table.get(&key).map(|w| *w).ok_or(key))
    }

    /// The worth of a later game of a match from its start, solved in a
    /// table of its own that is dropped once it is known: the positions
    /// of one game never recur in another (the score differs), so a
    /// match needs a game's table at a time, not all of them at once.
    fn later_game(&self, st: &State) -> Result<Worth> {
        let key = st.key(self.game);
        let cell = self.shared.later.entry(key).or_default().clone();
        let mut slot = cell
            .lock()
            .map_err(|_| self.refuse("a thread of the search failed".into()))?;
        if let Some(w) = *slot {
            return Ok(w);
        }
        // The views of another game differ by its score: its check of
        // what players see is its own too.
        let (table, seen) = (Table::default(), Seen::default());
        let shared = Shared {
            table: &table,
            seen: &seen,
            game_no: st.game_no(),
            ..*self.shared
        };
        let w = Solver::new(&shared).worth(st);
        let n = table.len();
        self.shared.live.fetch_sub(n, Ordering::Relaxed);
        self.shared.apart.fetch_add(n, Ordering::Relaxed);
        let w = w?;
        *slot = Some(w);
        Ok(w)
    }

    /// A position to solve: checked, and its children's moves listed.
    fn frame(&mut self, st: State, key: u128) -> Result<Frame> {
        self.check(&st)?;
        let limits = self.shared.limits;
        // The turn number is part of a position, so a game that need not
        // end shows as a line that does not: a depth budget finds both.
        if self.depth >= limits.max_depth {
            return Err(self.refuse(format!(
                "a line of play runs past {} decisions without ending (does the game always end? a turn limit, `max_turns`, makes sure; a lower one shortens the search)",
                limits.max_depth
            )));
        }
        self.depth += 1;
        let waiting = st.waiting();
        let (shape, moves) = match waiting.as_slice() {
            [a, b] => {
                let (a, b) = (*a, *b);
                let rows = st.legal(a).to_vec();
                let cols = st.legal(b).to_vec();
                let mut moves = Vec::with_capacity(rows.len() * cols.len());
                for r in &rows {
                    for c in &cols {
                        moves.push(vec![(a, r.clone()), (b, c.clone())]);
                    }
                }
                (
                    Shape::Matrix {
                        first: a,
                        rows: rows.len(),
                        cols: cols.len(),
                    },
                    moves,
                )
            }
            [p] => {
                let moves = st.legal(*p).iter().map(|c| vec![(*p, c.clone())]).collect();
                (Shape::Single(*p), moves)
            }
            _ => {
                return Err(self.refuse(format!("a decision of {} players at once", waiting.len())));
            }
        };
        Ok(Frame {
            key,
            st,
            shape,
            children: Vec::with_capacity(moves.len()),
            moves,
            child: 0,
            outs: Vec::new(),
            next: 0,
            part: Worth::ZERO,
        })
    }

    /// A position whose children are all solved: its worth, tabled.
    fn close(&mut self, f: Frame) -> Result<Worth> {
        let children = f.children;
        let w = match f.shape {
            Shape::Matrix { first, rows, cols } => {
                // Rows are the first player's.
                let m: Vec<Vec<Worth>> = if first == 0 {
                    children
                        .chunks(cols.max(1))
                        .map(<[Worth]>::to_vec)
                        .collect()
                } else {
                    (0..cols)
                        .map(|j| (0..rows).map(|i| children[i * cols + j]).collect())
                        .collect()
                };
                mixed(&m)
            }
            Shape::Single(player) => children
                .iter()
                .copied()
                .max_by(|a, b| {
                    let (a, b) = if player == 0 {
                        (a.value, b.value)
                    } else {
                        (b.value, a.value)
                    };
                    a.total_cmp(&b)
                })
                .unwrap_or(Worth::of(None)),
        };
        self.table.insert(f.key, w);
        let limits = self.shared.limits;
        let solved = self.shared.solved.fetch_add(1, Ordering::Relaxed) + 1;
        let live = self.shared.live.fetch_add(1, Ordering::Relaxed) + 1;
        if live > limits.max_states {
            return Err(self.refuse(format!(
                "it needs more than {} positions (about {} MB; raise --max-states, or make the game smaller, e.g. a lower `max_turns`)",
                limits.max_states,
                (limits.max_states.saturating_mul(130) >> 20).max(1)
            )));
        }
        if solved.is_multiple_of(1 << 12) {
            (self.shared.progress)(solved);
        }
        Ok(w)
    }

    /// The worth of making `moves` at `st`: the chance-weighted mix of the
    /// positions they can lead to.
    fn expect(&mut self, st: &State, moves: &[(PlayerIx, Choice)]) -> Result<Worth> {
        let outs = outcomes(self.game, st, moves)?;
        if let [(_, only)] = outs.as_slice() {
            return self.worth(only);
        }
        let mut parts = Vec::with_capacity(outs.len());
        for (p, s) in &outs {
            parts.push((*p, self.worth(s)?));
        }
        Ok(Worth::mix(parts.into_iter()))
    }

    /// The children of a decision, solved.
    fn node(&mut self, st: &State) -> Result<Node> {
        let waiting = st.waiting();
        match waiting.as_slice() {
            [a, b] => {
                let (a, b) = (*a, *b);
                let rows = st.legal(a).to_vec();
                let cols = st.legal(b).to_vec();
                let mut children = Vec::with_capacity(rows.len());
                for r in &rows {
                    let mut line = Vec::with_capacity(cols.len());
                    for c in &cols {
                        line.push(self.expect(st, &[(a, r.clone()), (b, c.clone())])?);
                    }
                    children.push(line);
                }
                // Rows are the first player's.
                if a == 0 {
                    Ok(Node::Matrix {
                        rows,
                        cols,
                        children,
                    })
                } else {
                    let t: Vec<Vec<Worth>> = (0..cols.len())
                        .map(|j| (0..rows.len()).map(|i| children[i][j]).collect())
                        .collect();
                    Ok(Node::Matrix {
                        rows: cols,
                        cols: rows,
                        children: t,
                    })
                }
            }
            [p] => {
                let p = *p;
                let choices = st.legal(p).to_vec();
                let mut children = Vec::with_capacity(choices.len());
                for c in &choices {
                    children.push(self.expect(st, &[(p, c.clone())])?);
                }
                Ok(Node::Single {
                    player: p,
                    choices,
                    children,
                })
            }
            _ => Err(self.refuse(format!("a decision of {} players at once", waiting.len()))),
        }
    }
}

/// What a position on the solver's stack waits for.
enum Shape {
    /// Both choose at once: children row by row, `first`'s choices rows.
    Matrix {
        first: PlayerIx,
        rows: usize,
        cols: usize,
    },
    Single(PlayerIx),
}

/// A position being solved on the stack: its children (`moves`), solved
/// one by one, each the mix of its chance outcomes.
struct Frame {
    st: State,
    key: u128,
    shape: Shape,
    moves: Vec<Vec<(PlayerIx, Choice)>>,
    children: Vec<Worth>,
    /// The next child to open.
    child: usize,
    /// The open child's outcomes, the next to take, their mix so far.
    outs: Vec<(f64, State)>,
    next: usize,
    part: Worth,
}

impl Frame {
    /// The worth of the open child's next outcome; the child is complete
    /// after its last.
    fn take(&mut self, w: Worth) {
        let p = self.outs[self.next].0;
        self.part.value += p * w.value;
        self.part.win += p * w.win;
        self.part.draw += p * w.draw;
        self.part.loss += p * w.loss;
        self.next += 1;
        if self.next == self.outs.len() {
            self.children.push(self.part);
            self.outs.clear();
            self.next = 0;
        }
    }
}

/// A matrix node's worth: the LP's value, with the split the equilibrium
/// strategies give.
fn mixed(children: &[Vec<Worth>]) -> Worth {
    let (x, y, v) = solve_matrix(&values(children));
    let mut w = Worth::mix(children.iter().enumerate().flat_map(|(i, row)| {
        let (x, y) = (&x, &y);
        row.iter().enumerate().map(move |(j, c)| (x[i] * y[j], *c))
    }));
    w.value = v;
    w
}

enum Node {
    Matrix {
        rows: Vec<Choice>,
        cols: Vec<Choice>,
        children: Vec<Vec<Worth>>,
    },
    Single {
        player: PlayerIx,
        choices: Vec<Choice>,
        children: Vec<Worth>,
    },
}

/// The payoff matrix of a simultaneous node: its children's values.
fn values(children: &[Vec<Worth>]) -> Vec<Vec<f64>> {
    children
        .iter()
        .map(|r| r.iter().map(|w| w.value).collect())
        .collect()
}

/// Optimal mixed strategies of a zero-sum matrix game (row player
/// maximises) and its value: a saddle point when there is one, else two
/// LPs (the value is the mean of their optima, equal up to tolerance).
pub fn solve_matrix(m: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>, f64) {
    let (r, c) = (m.len(), m.first().map_or(0, Vec::len));
    let row_min: Vec<f64> = m
        .iter()
        .map(|row| row.iter().copied().fold(f64::INFINITY, f64::min))
        .collect();
    let col_max: Vec<f64> = (0..c)
        .map(|j| (0..r).map(|i| m[i][j]).fold(f64::NEG_INFINITY, f64::max))
        .collect();
    let (bi, maximin) =
        row_min
            .iter()
            .copied()
            .enumerate()
            .fold(
                (0, f64::NEG_INFINITY),
                |a, (i, v)| if v > a.1 { (i, v) } else { a },
            );
    let (bj, minimax) =
        col_max
            .iter()
            .copied()
            .enumerate()
            .fold(
                (0, f64::INFINITY),
                |a, (j, v)| if v < a.1 { (j, v) } else { a },
            );
    if (maximin - minimax).abs() < 1e-12 {
        let mut x = vec![0.0; r];
        let mut y = vec![0.0; c];
        x[bi] = 1.0;
        y[bj] = 1.0;
        return (x, y, maximin);
    }
    let (x, vx) = lp_strategy(m, r, c, false);
    let (y, vy) = lp_strategy(m, r, c, true);
    (x, y, (vx + vy) / 2.0)
}

/// The row player's maximin strategy (or, `column`, the column player's
/// minimax one) and the game's value, by the classic positive form: with
/// every payoff shifted above 0, minimise the sum of u under M^T u >= 1;
/// then the value is 1 / sum(u) and the strategy u times the value.
fn lp_strategy(m: &[Vec<f64>], r: usize, c: usize, column: bool) -> (Vec<f64>, f64) {
    // The column player of M is the row player of -M^T.
    let (n, k) = if column { (c, r) } else { (r, c) };
    let at = |i: usize, j: usize| if column { -m[j][i] } else { m[i][j] };
    let low = (0..n)
        .flat_map(|i| (0..k).map(move |j| (i, j)))
        .map(|(i, j)| at(i, j))
        .fold(f64::INFINITY, f64::min);
    let shift = 1.0 - low;
    let mut p = Problem::new(OptimizationDirection::Minimize);
    let us: Vec<_> = (0..n)
        .map(|_| p.add_var(1.0, (0.0, f64::INFINITY)))
        .collect();
    for j in 0..k {
        let e: Vec<(microlp::Variable, f64)> = us
            .iter()
            .enumerate()
            .map(|(i, &u)| (u, at(i, j) + shift))
            .collect();
        p.add_constraint(e.as_slice(), ComparisonOp::Ge, 1.0);
    }
    match p.solve().ok().and_then(|o| o.into_solution().ok()) {
        Some(s) => {
            let raw: Vec<f64> = us.iter().map(|&u| s.var_value(u).max(0.0)).collect();
            let total: f64 = raw.iter().sum();
            let v = 1.0 / total - shift;
            let x = raw.iter().map(|u| u / total).collect();
            (x, if column { -v } else { v })
        }
        None => (vec![1.0 / n as f64; n], f64::NAN),
    }
}

/// Chance outcomes enumerated at most per move (or setup): every sequence
/// of draws is made from the position before (a shuffle of n cards asks
/// for n-1 draws, so n! sequences).
pub const MAX_OUTCOMES: usize = 200_000;

/// The middle of a refusal for too much chance to list (which sampled
/// setups, `--deals`, or MCCFR handle).
pub const TOO_MUCH_CHANCE: &str = "outcomes at once";

/// Every position `make` can give, with its chance: `make` is run with
/// every sequence of draws its chance can ask for (`Forced`), depth first,
/// and positions reached by several sequences are merged.
fn enumerate(game: &Game, make: impl Fn(Forced) -> Result<State>) -> Result<Vec<(f64, State)>> {
    let mut first = make(Forced::default())?;
    let Some(n) = first.forced().and_then(|f| f.wanted) else {
        first.unforce();
        return Ok(vec![(1.0, first)]);
    };
    let mut out: Vec<(f64, State)> = Vec::new();
    let mut at: rustc_hash::FxHashMap<u128, usize> = rustc_hash::FxHashMap::default();
    let mut made = 1usize;
    let mut stack: Vec<(Vec<u32>, f64)> = (0..n)
        .rev()
        .map(|v| (vec![v], 1.0 / f64::from(n)))
        .collect();
    while let Some((draws, p)) = stack.pop() {
        made += 1;
        if made > MAX_OUTCOMES {
            return Err(cannot(
                game,
                format!(
                    "its chance makes more than {MAX_OUTCOMES} {TOO_MUCH_CHANCE} (a shuffle of n cards makes n! orders, unless a `deal` from it follows): solve a deal of it with --seed, or estimate over sampled deals with --deals N"
                ),
            ));
        }
        let mut s = make(Forced {
            draws: draws.clone(),
            ..Forced::default()
        })?;
        match s.forced().and_then(|f| f.wanted) {
            Some(n) => {
                for v in (0..n).rev() {
                    let mut d = draws.clone();
                    d.push(v);
                    stack.push((d, p / f64::from(n)));
                }
            }
            None => {
                s.unforce();
                merge(game, &mut out, &mut at, p, s);
            }
        }
    }
    Ok(out)
}

/// Add position `st` with chance `p` to `out`, where `at` finds a
/// position already there by its key (its chance then grows).
fn merge(
    game: &Game,
    out: &mut Vec<(f64, State)>,
    at: &mut rustc_hash::FxHashMap<u128, usize>,
    p: f64,
    st: State,
) {
    match at.entry(st.key(game)) {
        std::collections::hash_map::Entry::Occupied(e) => out[*e.get()].0 += p,
        std::collections::hash_map::Entry::Vacant(e) => {
            e.insert(out.len());
            out.push((p, st));
        }
    }
}

/// The positions making `moves` at `st` can lead to, with their chances
/// (one, with chance 1, where no chance happens).
pub(crate) fn outcomes(
    game: &Game,
    st: &State,
    moves: &[(PlayerIx, Choice)],
) -> Result<Vec<(f64, State)>> {
    enumerate(game, |forced| {
        let mut s = st.clone();
        s.force(forced);
        for (p, c) in moves {
            s.apply_unchecked(game, *p, c.clone())?;
        }
        Ok(s)
    })
}

/// The positions a game starts from, with their chances: the setup from
/// `seed`, or (None) every setup its chance can make.
pub fn setups(game: &Game, seed: Option<u64>) -> Result<Vec<(f64, State)>> {
    match seed {
        Some(seed) => Ok(vec![(1.0, State::new_quiet(game, seed)?)]),
        None => enumerate(game, |forced| State::new_forced(game, forced)),
    }
}

/// `deals` setups from seeds `seed`, `seed + 1`, ..., each weighted
/// 1/deals (the same setup met twice counts twice): a sample of a setup
/// whose chance makes too many to list.
pub fn sampled_setups(game: &Game, deals: u64, seed: u64) -> Result<Vec<(f64, State)>> {
    let mut out: Vec<(f64, State)> = Vec::new();
    let mut at: rustc_hash::FxHashMap<u128, usize> = rustc_hash::FxHashMap::default();
    let w = 1.0 / deals.max(1) as f64;
    for k in 0..deals {
        let st = State::new_quiet(game, seed.wrapping_add(k))?;
        merge(game, &mut out, &mut at, w, st);
    }
    Ok(out)
}

/// Whether `solve` can handle a game, from its definition alone: two
/// players. (Hidden cards a player cannot deduce are found while
/// searching.)
pub fn refusal(game: &Game) -> Option<Error> {
    let c = game.def().capabilities;
    (c.players != 2).then(|| {
        cannot(
            game,
            format!("it solves two-player games, this one has {}", c.players),
        )
    })
}

/// Whether the setup of `seed` hides cards a player cannot deduce (the
/// check `solve` makes before it starts), with why.
pub fn hidden_at_start(game: &Game, seed: u64) -> Option<Error> {
    let root = State::new_quiet(game, seed).ok()?;
    let (table, books) = (Table::default(), Books::default());
    let shared = books.shared(game, &table, Limits::default(), &|_| {}, root.game_no());
    Solver::new(&shared).check_root(&root).err()
}

/// "solve cannot handle GAME: why".
fn cannot(game: &Game, why: String) -> Error {
    Error::new(
        ErrorKind::Refused,
        format!("solve cannot handle {}: {why}", game.id()),
    )
}

/// Solve a game (setup from `seed`) on `jobs` threads, which share the
/// game and one transposition table, within the default limits.
pub fn solve(game: &Game, seed: u64, jobs: usize) -> Result<Solution> {
    solve_within(game, Some(seed), jobs, Limits::default(), &|_| {})
}

/// `solve` within `limits` (None: over every setup, `setups`), calling
/// `progress` with the positions solved so far every 4,096 positions.
pub fn solve_within(
    game: &Game,
    seed: Option<u64>,
    jobs: usize,
    limits: Limits,
    progress: OnProgress,
) -> Result<Solution> {
    let roots = setups(game, seed)?;
    solve_roots(game, &roots, jobs, limits, progress, &|_| {})
}

/// The expected solution over `roots` (positions with their chances), in
/// one table: positions that several setups reach are solved once, while
/// the table holds under a quarter of `max_states`; past that it is
/// emptied before the next setup, so that a deal of many setups whose
/// positions never meet (a random deal of all the cards) is solved one
/// setup's table at a time. `progress` counts the positions of every
/// setup so far; `on_setup` is told each setup's number (from 1) as it
/// starts.
pub fn solve_roots(
    game: &Game,
    roots: &[(f64, State)],
    jobs: usize,
    limits: Limits,
    progress: OnProgress,
    on_setup: OnProgress,
) -> Result<Solution> {
    let started = Instant::now();
    if let [(_, root)] = roots {
        return solve_position(game, root, jobs, limits, progress);
    }
    let table = Table::default();
    let mut parts = Vec::with_capacity(roots.len());
    let mut last = None;
    // Positions solved for each setup (a later game of a match in tables
    // of its own).
    let mut states = 0;
    for (k, (p, root)) in roots.iter().enumerate() {
        on_setup(k + 1);
        if table.len() > limits.max_states / 4 {
            table.clear();
        }
        let before = table.len();
        let so_far = states;
        let s = solve_into(game, root, jobs, limits, &|n| progress(so_far + n), &table)?;
        parts.push((*p, s.worth));
        states += s.states - before;
        progress(states);
        last = Some(s);
    }
    let Some(mut s) = last else {
        return Err(cannot(game, "its setup makes no position".into()));
    };
    s.worth = Worth::mix(parts.iter().copied());
    let mean = s.worth.value;
    s.setup_spread = parts
        .iter()
        .map(|(p, w)| p * (w.value - mean).powi(2))
        .sum::<f64>()
        .sqrt();
    s.first_decision = String::new();
    s.strategies = Vec::new();
    s.matrix = None;
    s.states = states;
    s.setups = roots.len();
    s.seconds = started.elapsed().as_secs_f64();
    Ok(s)
}

/// `solve_within` from a given position (a saved game): its value, and the
/// strategies of the decision it waits for.
pub fn solve_position(
    game: &Game,
    root: &State,
    jobs: usize,
    limits: Limits,
    progress: OnProgress,
) -> Result<Solution> {
    solve_into(game, root, jobs, limits, progress, &Table::default())
}

/// `solve_position`, and the first player's value of every position it
/// solved (by `State::key`): what an equilibrium bot plays from.
pub fn solve_values(
    game: &Game,
    root: &State,
    jobs: usize,
    limits: Limits,
    progress: OnProgress,
) -> Result<(Solution, Vec<(u128, f64)>)> {
    let table = Table::default();
    let s = solve_into(game, root, jobs, limits, progress, &table)?;
    Ok((s, table.into_iter().map(|(k, w)| (k, w.value)).collect()))
}

fn solve_into(
    game: &Game,
    root: &State,
    jobs: usize,
    limits: Limits,
    progress: OnProgress,
    table: &Table,
) -> Result<Solution> {
    let started = Instant::now();
    if let Some(e) = refusal(game) {
        return Err(e);
    }
    if let Some(d) = root.decision()
        && d.chosen.iter().any(Option::is_some)
    {
        return Err(cannot(
            game,
            "the position is in the middle of a decision (a choice is made, another not yet): solve from before or after it".into(),
        ));
    }
    let books = Books::default();
    books.live.store(table.len(), Ordering::Relaxed);
    let shared = books.shared(game, table, limits, progress, root.game_no());
    let (worth, strategies, matrix) = in_pool(&limits, jobs, false, || -> Result<_> {
        // A game over before its first decision (setup ended it) is worth
        // its outcome, and there is nothing to choose.
        if root.is_over() {
            return Ok((Worth::at(game, root), Vec::new(), None));
        }
        let mut solver = Solver::new(&shared);
        solver.check_root(root)?;
        solve_first_moves(&shared, root)?;
        let worth = solver.worth(root)?;
        let node = solver.node(root)?;
        let matrix = matrix(game, &node);
        Ok((worth, root_strategies(game, node), Some(matrix)))
    })??;
    let states = table.len() + books.apart.load(Ordering::Relaxed);
    // The starts of the match's later games go into the table too: the
    // equilibrium bot's last choice of a game looks them up.
    for start in books.later.iter() {
        if let Some(w) = start.value().lock().ok().and_then(|w| *w) {
            table.insert(*start.key(), w);
        }
    }
    Ok(Solution {
        head: Header::of(game),
        worth,
        first_decision: root
            .decision()
            .map(|d| d.name.to_string())
            .unwrap_or_default(),
        strategies,
        matrix,
        states,
        setups: 1,
        setup_spread: 0.0,
        seconds: started.elapsed().as_secs_f64(),
        threads: jobs.max(1),
    })
}

/// The positions after the first decision, solved in parallel (on the
/// current pool) into the shared table.
fn solve_first_moves(shared: &Shared, root: &State) -> Result<()> {
    let firsts: Vec<Vec<(PlayerIx, Choice)>> = match root.waiting().as_slice() {
        [a, b] => root
            .legal(*a)
            .iter()
            .flat_map(|r| {
                root.legal(*b)
                    .iter()
                    .map(move |c| vec![(*a, r.clone()), (*b, c.clone())])
            })
            .collect(),
        [p] => root
            .legal(*p)
            .iter()
            .map(|c| vec![(*p, c.clone())])
            .collect(),
        _ => Vec::new(),
    };
    firsts
        .par_iter()
        .try_for_each(|moves| Solver::new(shared).expect(root, moves).map(|_| ()))
}

/// Each decider's optimal strategy at the root, from its solved node.
/// The first decision's children's values, as a table.
fn matrix(game: &Game, node: &Node) -> Matrix {
    let def = game.def();
    let texts = |cs: &[Choice]| cs.iter().map(|c| c.text(game).to_string()).collect();
    match node {
        Node::Matrix {
            rows,
            cols,
            children,
        } => Matrix {
            row_player: def.players[0].id.clone(),
            rows: texts(rows),
            col_player: Some(def.players[1].id.clone()),
            cols: texts(cols),
            values: values(children),
        },
        Node::Single {
            player,
            choices,
            children,
        } => Matrix {
            row_player: def.players[*player].id.clone(),
            rows: texts(choices),
            col_player: None,
            cols: vec!["value".into()],
            values: children.iter().map(|w| vec![w.value]).collect(),
        },
    }
}

fn root_strategies(game: &Game, node: Node) -> Vec<Strategy> {
    let def = game.def();
    let mix = |choices: &[Choice], probs: &[f64]| -> Vec<(String, f64)> {
        choices
            .iter()
            .zip(probs)
            .map(|(c, p)| (c.text(game).to_string(), *p))
            .collect()
    };
    match node {
        Node::Matrix {
            rows,
            cols,
            children,
        } => {
            let (x, y, _) = solve_matrix(&values(&children));
            vec![
                Strategy {
                    player: def.players[0].id.clone(),
                    mix: mix(&rows, &x),
                },
                Strategy {
                    player: def.players[1].id.clone(),
                    mix: mix(&cols, &y),
                },
            ]
        }
        Node::Single {
            player,
            choices,
            children,
        } => {
            // Uniform over the best choices.
            let sign = if player == 0 { 1.0 } else { -1.0 };
            let best = children
                .iter()
                .map(|w| sign * w.value)
                .fold(f64::NEG_INFINITY, f64::max);
            let is_best = |w: &Worth| (sign * w.value - best).abs() < 1e-9;
            let n = children.iter().filter(|w| is_best(w)).count().max(1);
            let probs: Vec<f64> = children
                .iter()
                .map(|w| if is_best(w) { 1.0 / n as f64 } else { 0.0 })
                .collect();
            vec![Strategy {
                player: def.players[player].id.clone(),
                mix: mix(&choices, &probs),
            }]
        }
    }
}

/// How much a best response wins against a bot: the best responder's
/// expected payoff (+1 win, -1 loss, 0 draw) in each seat, against the bot's
/// policy estimated from `samples` seeded decisions per state (exact for
/// `random`, which is uniform). Exploitability is their mean minus the
/// game's value for a seat average (0 for a symmetric game).
pub fn best_response(
    game: &Game,
    roots: &[(f64, State)],
    kind: &str,
    samples: u32,
) -> Result<[f64; 2]> {
    if game.def().nplayers() != 2 || crate::analysis::bot::make(kind, 0).is_none() {
        return Err(Error::usage(format!(
            "best response: two players and a known bot kind (not `{kind}`)"
        )));
    }
    let limits = Limits::default();
    in_pool(&limits, 1, true, || {
        let mut out = [0.0; 2];
        for (me, slot) in out.iter_mut().enumerate() {
            let mut search = Br {
                game,
                me,
                kind,
                samples,
                memo: rustc_hash::FxHashMap::default(),
                depth: 0,
                limits,
            };
            for (p, root) in roots {
                *slot += p * search.value(root)?;
            }
        }
        Ok(out)
    })?
}

fn policy(game: &Game, st: &State, p: PlayerIx, kind: &str, samples: u32) -> Vec<(Choice, f64)> {
    let legal = st.legal(p).to_vec();
    if legal.len() == 1 {
        return legal.into_iter().map(|c| (c, 1.0)).collect();
    }
    let base = st.key(game) as u64;
    // A bot that knows its policy says it (random, best): exact.
    if let Some(pi) = crate::analysis::bot::make(kind, base).and_then(|mut b| b.policy(game, st, p))
    {
        return pi;
    }
    let mut counts: Vec<(Choice, f64)> = Vec::new();
    for i in 0..samples {
        let Some(mut b) =
            crate::analysis::bot::make(kind, base ^ u64::from(i).wrapping_mul(0x9E37_79B9))
        else {
            continue;
        };
        if let Some(c) = b.choose(game, st, p) {
            match counts.iter_mut().find(|(x, _)| *x == c) {
                Some((_, n)) => *n += 1.0,
                None => counts.push((c, 1.0)),
            }
        }
    }
    let total: f64 = counts.iter().map(|(_, n)| n).sum();
    counts
        .into_iter()
        .map(|(c, n)| (c, n / total.max(1.0)))
        .collect()
}

/// A best response's search against one bot kind.
struct Br<'a> {
    game: &'a Game,
    me: PlayerIx,
    kind: &'a str,
    samples: u32,
    memo: rustc_hash::FxHashMap<u128, f64>,
    depth: usize,
    limits: Limits,
}

impl Br<'_> {
    fn value(&mut self, st: &State) -> Result<f64> {
        let (game, me) = (self.game, self.me);
        if st.is_over() {
            let w = Worth::at(game, st).value;
            return Ok(if me == 0 { w } else { -w });
        }
        let k = st.key(game);
        if let Some(v) = self.memo.get(&k) {
            return Ok(*v);
        }
        if self.depth >= self.limits.max_depth || self.memo.len() >= self.limits.max_states {
            return Err(cannot(
                game,
                format!(
                    "a best response needs more than {} decisions in a line or {} positions",
                    self.limits.max_depth, self.limits.max_states
                ),
            ));
        }
        self.depth += 1;
        let v = self.decide(st)?;
        self.depth -= 1;
        self.memo.insert(k, v);
        Ok(v)
    }

    /// The chance-weighted value of making `moves` at `st`.
    fn expect(&mut self, st: &State, moves: &[(PlayerIx, Choice)]) -> Result<f64> {
        let mut v = 0.0;
        for (p, s) in outcomes(self.game, st, moves)? {
            v += p * self.value(&s)?;
        }
        Ok(v)
    }

    fn decide(&mut self, st: &State) -> Result<f64> {
        let (game, me, kind, samples) = (self.game, self.me, self.kind, self.samples);
        let waiting = st.waiting();
        Ok(if waiting.len() == 2 {
            let opp = 1 - me;
            let pi = policy(game, st, opp, kind, samples);
            let mut best = f64::NEG_INFINITY;
            for m in st.legal(me).to_vec() {
                let mut v = 0.0;
                for (o, q) in &pi {
                    v += q * self.expect(st, &[(me, m.clone()), (opp, o.clone())])?;
                }
                best = best.max(v);
            }
            best
        } else if let Some(&p) = waiting.first() {
            if p == me {
                let mut best = f64::NEG_INFINITY;
                for m in st.legal(me).to_vec() {
                    best = best.max(self.expect(st, &[(me, m)])?);
                }
                best
            } else {
                let mut v = 0.0;
                for (o, q) in policy(game, st, p, kind, samples) {
                    v += q * self.expect(st, &[(p, o)])?;
                }
                v
            }
        } else {
            0.0
        })
    }
}
