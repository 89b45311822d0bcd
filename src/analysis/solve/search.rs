//! The exact solver's search: backward induction over the reachable
//! positions on a stack of its own, a transposition table shared by the
//! threads, each simultaneous decision a matrix game (`lp`).

use std::sync::atomic::{AtomicUsize, Ordering};

use dashmap::DashMap;
use rustc_hash::FxHasher;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use super::lp::solve_matrix;
use super::{HIDDEN, Limits, OnProgress, Seen, Table, Worth, cannot};
use crate::analysis::tree;
use crate::core::{Choice, State};
use crate::definition::PlayerIx;
use crate::definition::format::Per;
use crate::error::{Error, Refusal, Result};
use crate::game::Game;

/// The worths of positions where a later game of a match begins, each
/// solved apart in a table of its own; a lock each, so that the thread
/// that meets one first solves it and the others wait for its worth.
pub(super) type Later = DashMap<
    u128,
    std::sync::Arc<std::sync::Mutex<Option<Worth>>>,
    std::hash::BuildHasherDefault<FxHasher>,
>;

/// What every search thread shares.
#[derive(Clone, Copy)]
pub(super) struct Shared<'a> {
    pub(super) game: &'a Game,
    pub(super) table: &'a Table,
    pub(super) seen: &'a Seen,
    pub(super) limits: Limits,
    pub(super) solved: &'a AtomicUsize,
    pub(super) progress: OnProgress<'a>,
    /// The game of a match whose positions `table` holds.
    pub(super) game_no: u32,
    pub(super) later: &'a Later,
    /// Positions in the tables alive now (what the budget bounds), and
    /// in later games' tables, dropped once their start's worth is known.
    pub(super) live: &'a AtomicUsize,
    pub(super) apart: &'a AtomicUsize,
}

/// The counters and memo of one solve, for its `Shared`.
#[derive(Default)]
pub(super) struct Books {
    pub(super) seen: Seen,
    pub(super) solved: AtomicUsize,
    pub(super) later: Later,
    pub(super) live: AtomicUsize,
    pub(super) apart: AtomicUsize,
}

impl Books {
    pub(super) fn shared<'a>(
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

pub(super) struct Solver<'a> {
    pub(super) shared: &'a Shared<'a>,
    pub(super) game: &'a Game,
    pub(super) table: &'a Table,
    /// Decisions on the line being searched.
    pub(super) depth: usize,
}

impl<'a> Solver<'a> {
    pub(super) fn new(shared: &'a Shared<'a>) -> Solver<'a> {
        Solver {
            shared,
            game: shared.game,
            table: shared.table,
            depth: 0,
        }
    }
}

impl Solver<'_> {
    pub(super) fn refuse(&self, kind: Refusal, why: String) -> Error {
        cannot(self.game, kind, why)
    }

    /// No choice kept secret, and no two positions that look the same to
    /// a player but hide different cards.
    pub(super) fn check(&mut self, st: &State) -> Result<()> {
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
                    return Err(self.refuse(Refusal::Hidden, format!(
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
            return Err(self.refuse(
                Refusal::Hidden,
                format!(
                    "its decision `{}` is secret (the choices are never revealed): {HIDDEN}",
                    d.name
                ),
            ));
        }
        Ok(())
    }

    /// Nothing a player cannot deduce when play begins: the cards they do
    /// not see lie where the rules put them whatever the seed (a fixed
    /// setup), or nowhere else a guess could put them (the other hidden
    /// places hold the same cards).
    pub(super) fn check_root(&mut self, st: &State) -> Result<()> {
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
                            return Err(self.refuse(
                                Refusal::Hidden,
                                format!(
                                    "{whose} `{}` holds cards {} cannot know: {HIDDEN}",
                                    zone.id, def.players[viewer].id
                                ),
                            ));
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
    pub(super) fn worth(&mut self, st: &State) -> Result<Worth> {
        let key = match self.known(st)? {
            Ok(w) => return Ok(w),
            Err(key) => key,
        };
        let mut stack: Vec<Frame> = vec![self.frame(st.clone(), key)?];
        loop {
            let Some(top) = stack.last_mut() else {
                return Err(self.refuse(Refusal::Other, "the search lost its way".into()));
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
                let frame = match self.frame(s, key) {
                    Ok(f) => f,
                    Err(e) => return Err(self.repeats(&stack, e)),
                };
                stack.push(frame);
                continue;
            }
            // The current child is complete: on to the next one.
            if top.child < top.moves.len() {
                let moves = &top.moves[top.child];
                top.outs = tree::children(self.game, &top.st, moves)?;
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
    pub(super) fn known(&self, st: &State) -> Result<std::result::Result<Worth, u128>> {
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
    pub(super) fn later_game(&self, st: &State) -> Result<Worth> {
        let key = st.key(self.game);
        let cell = self.shared.later.entry(key).or_default().clone();
        let mut slot = cell
            .lock()
            .map_err(|_| self.refuse(Refusal::Other, "a thread of the search failed".into()))?;
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

    /// A line of play past the depth budget that comes back to a position
    /// it was in (the turn number aside) says so: the game can go on
    /// forever, and solve needs one that ends.
    fn repeats(&self, stack: &[Frame], e: Error) -> Error {
        if !e.message.contains("a line of play runs past") {
            return e;
        }
        let mut seen: rustc_hash::FxHashMap<u128, usize> = Default::default();
        for (i, f) in stack.iter().enumerate() {
            let k = f.st.key_apart_from_turn(self.game);
            if let Some(&first) = seen.get(&k) {
                return e.note(format!(
                    "the game comes back to a position it was in: decision {} of this line is decision {} again, {} decisions later, the turn number aside. solve needs a game that always ends, and values each position once: give a turn limit (`max_turns: N`, a draw after N turns) or a rule that ends it (OpenSpiel's Pig is drawn after `horizon` decisions)",
                    first + 1,
                    i + 1,
                    i - first
                ));
            }
            seen.insert(k, i);
        }
        e
    }

    /// The refusal of a line of play past the depth budget.
    pub(super) fn too_deep(&self) -> Error {
        let limit = self.shared.limits.max_depth;
        self.refuse(Refusal::TooDeep { limit }, format!(
            "a line of play runs past {limit} decisions without ending (does the game always end? a turn limit, `max_turns`, makes sure; a lower one shortens the search)"
        ))
    }

    /// A position's joint moves count against the budget as positions do
    /// (2,000 x 2,000 choices are a 4-million-cell matrix), checked before
    /// any is listed.
    pub(super) fn joint_fits(&self, st: &State, waiting: &[PlayerIx]) -> Result<()> {
        let limit = self.shared.limits.max_states;
        let joint = (waiting.iter()).fold(1usize, |n, &p| n.saturating_mul(st.legal(p).len()));
        if joint > limit {
            return Err(self.refuse(
                Refusal::TooManyPositions { limit },
                format!(
                    "a decision of {joint} joint choices, more than the {limit} positions the budget holds (a bigger budget, or fewer choices, fits)"
                ),
            ));
        }
        Ok(())
    }

    /// A position to solve: checked, and its children's moves listed.
    pub(super) fn frame(&mut self, st: State, key: u128) -> Result<Frame> {
        self.check(&st)?;
        let limits = self.shared.limits;
        // The turn number is part of a position, so a game that need not
        // end shows as a line that does not: a depth budget finds both.
        if self.depth >= limits.max_depth {
            return Err(self.too_deep());
        }
        self.depth += 1;
        let waiting = st.waiting();
        let shape = match waiting.as_slice() {
            [a, b] => Shape::Matrix {
                first: *a,
                rows: st.legal(*a).len(),
                cols: st.legal(*b).len(),
            },
            [p] => Shape::Single(*p),
            _ => {
                return Err(self.refuse(
                    Refusal::ManyAtOnce {
                        players: waiting.len(),
                    },
                    format!("a decision of {} players at once", waiting.len()),
                ));
            }
        };
        self.joint_fits(&st, &waiting)?;
        // The first player's choices outermost: the matrix row by row.
        let moves = tree::joint_moves_of(&st, &waiting);
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
    pub(super) fn close(&mut self, f: Frame) -> Result<Worth> {
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
            return Err(self.refuse(Refusal::TooManyPositions { limit: limits.max_states }, format!(
                "it needs more than {} positions (about {} MB; a bigger budget, or a smaller game, e.g. a lower `max_turns`, fits)",
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
    pub(super) fn expect(&mut self, st: &State, moves: &[(PlayerIx, Choice)]) -> Result<Worth> {
        let outs = tree::children(self.game, st, moves)?;
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
    pub(super) fn node(&mut self, st: &State) -> Result<Node> {
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
            _ => Err(self.refuse(
                Refusal::ManyAtOnce {
                    players: waiting.len(),
                },
                format!("a decision of {} players at once", waiting.len()),
            )),
        }
    }
}

/// What a position on the solver's stack waits for.
pub(super) enum Shape {
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
pub(super) struct Frame {
    pub(super) st: State,
    pub(super) key: u128,
    pub(super) shape: Shape,
    pub(super) moves: Vec<Vec<(PlayerIx, Choice)>>,
    pub(super) children: Vec<Worth>,
    /// The next child to open.
    pub(super) child: usize,
    /// The open child's outcomes, the next to take, their mix so far.
    pub(super) outs: Vec<(f64, State)>,
    pub(super) next: usize,
    pub(super) part: Worth,
}

impl Frame {
    /// The worth of the open child's next outcome; the child is complete
    /// after its last.
    pub(super) fn take(&mut self, w: Worth) {
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
pub(super) fn mixed(children: &[Vec<Worth>]) -> Worth {
    let (x, y, v) = solve_matrix(&values(children));
    let mut w = Worth::mix(children.iter().enumerate().flat_map(|(i, row)| {
        let (x, y) = (&x, &y);
        row.iter().enumerate().map(move |(j, c)| (x[i] * y[j], *c))
    }));
    w.value = v;
    w
}

pub(super) enum Node {
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
pub(super) fn values(children: &[Vec<Worth>]) -> Vec<Vec<f64>> {
    children
        .iter()
        .map(|r| r.iter().map(|w| w.value).collect())
        .collect()
}
