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

use std::sync::atomic::Ordering;
use std::time::Instant;

use dashmap::DashMap;
use rayon::prelude::*;
use rustc_hash::FxHasher;
use serde::Serialize;

use crate::analysis::{estimate, tree};
mod lp;
mod search;
mod shard;

pub use shard::{SetupWorth, SolvePart, merge, merge_files, solve_shard};

pub use super::worth::Worth;
use crate::core::{Choice, State};
use crate::definition::PlayerIx;
use crate::error::{Error, Refusal, Result};
use crate::game::Game;
pub use lp::solve_matrix;
use search::{Books, Node, Shared, Solver, values};

/// One player's optimal mixed strategy at the first decision.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Strategy {
    pub player: String,
    /// Choice -> probability.
    pub mix: Vec<(String, f64)>,
}

/// What a solution is of: the game as set up, its two players, and what
/// the value measures. Serialised flat, beside the solution's own fields.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
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
    /// Seconds of one thread's work the solve may take, as estimated
    /// before it starts (`estimate::positions`): None for no limit (a
    /// person asked for this solve and sees its progress).
    pub max_seconds: Option<f64>,
}

/// The default budgets: 20 million positions is about 2.6 GB.
pub const MAX_STATES: usize = 20_000_000;
pub use super::tree::MAX_DEPTH;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_states: MAX_STATES,
            max_depth: MAX_DEPTH,
            max_seconds: None,
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

/// A solve's size, estimated before it starts (`estimate::positions`):
/// what a person is told before a long solve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Positions to solve, at least (99.9% confidence).
    pub positions: f64,
    /// Seconds the solve takes on its threads, at least.
    pub seconds: f64,
    /// Random lines of play it was estimated from.
    pub lines: usize,
    /// Positions nearest the start counted one by one before them.
    pub listed: usize,
}

/// Told a setup's estimate as its solve starts (a table that starts
/// empty: the first setup, and any after the table was emptied).
pub type OnEstimate<'a> = &'a (dyn Fn(&Estimate) + Sync);

/// Run `work` on a pool of `jobs` threads, with stacks for `limits` where
/// it recurses along a line (`deep`).
pub(crate) fn in_pool<T: Send>(
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

/// Whether `solve` can handle a game, from its definition alone: two
/// players. (Hidden cards a player cannot deduce are found while
/// searching.)
pub fn refusal(game: &Game) -> Option<Error> {
    let c = game.def().capabilities;
    (c.players != 2).then(|| {
        cannot(
            game,
            Refusal::Players { players: c.players },
            format!("it solves two-player games, this one has {}", c.players),
        )
    })
}

/// Whether the setup of `seed` hides cards a player cannot deduce (the
/// check `solve` makes before it starts), with why.
pub fn hidden_at_start(game: &Game, seed: u64) -> Option<Error> {
    hidden_at(game, &State::new_quiet(game, seed).ok()?)
}

/// Whether position `st` hides cards a player cannot deduce, with why
/// (`hidden_at_start` from a given position).
pub fn hidden_at(game: &Game, st: &State) -> Option<Error> {
    let (table, books) = (Table::default(), Books::default());
    let shared = books.shared(game, &table, Limits::default(), &|_| {}, st.game_no());
    Solver::new(&shared).check_root(st).err()
}

/// A refusal's reason: its message after "solve cannot handle GAME: ",
/// without the note that exact solving handles no hidden information.
pub(crate) fn reason(message: &str) -> String {
    let why = message.split_once(": ").map_or(message, |(_, w)| w);
    why.trim_end_matches(HIDDEN)
        .trim_end_matches(": ")
        .to_string()
}

/// "solve cannot handle GAME: why".
pub(crate) fn cannot(game: &Game, kind: Refusal, why: String) -> Error {
    Error::refused(kind, format!("solve cannot handle {}: {why}", game.id()))
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
    let roots = tree::roots(game, seed)?;
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
    solve_roots_told(game, roots, jobs, limits, progress, on_setup, &|_| {})
}

/// `solve_roots`, telling `on_estimate` the size estimated before a
/// setup's solve starts (`Estimate`).
pub fn solve_roots_told(
    game: &Game,
    roots: &[(f64, State)],
    jobs: usize,
    limits: Limits,
    progress: OnProgress,
    on_setup: OnProgress,
    on_estimate: OnEstimate,
) -> Result<Solution> {
    let started = Instant::now();
    if let [(_, root)] = roots {
        let table = Table::default();
        return solve_into(game, root, jobs, limits, progress, &table, on_estimate);
    }
    let mut parts = Vec::with_capacity(roots.len());
    let mut last = None;
    let all = roots.iter().enumerate();
    let watch = (progress, on_setup, on_estimate);
    let states = solve_each(game, all, jobs, limits, watch, |_, p, s| {
        parts.push((p, s.worth));
        last = Some(s);
    })?;
    let Some(mut s) = last else {
        return Err(cannot(
            game,
            Refusal::Other,
            "its setup makes no position".into(),
        ));
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

/// Solve each of `roots` (its place in the list, and the setup with its
/// chance) in one table while it holds under a quarter of `max_states`,
/// emptied past that; `each` gets every setup's solution. The positions
/// solved in all (a later game of a match in tables of its own).
fn solve_each<'r>(
    game: &Game,
    roots: impl Iterator<Item = (usize, &'r (f64, State))>,
    jobs: usize,
    limits: Limits,
    (progress, on_setup, on_estimate): (OnProgress, OnProgress, OnEstimate),
    mut each: impl FnMut(usize, f64, Solution),
) -> Result<usize> {
    let table = Table::default();
    let mut states = 0;
    for (done, (i, (p, root))) in roots.enumerate() {
        on_setup(done + 1);
        if table.len() > limits.max_states / 4 {
            table.clear();
        }
        let before = table.len();
        let so_far = states;
        let at = &|n| progress(so_far + n);
        let s = solve_into(game, root, jobs, limits, at, &table, on_estimate)?;
        states += s.states - before;
        progress(states);
        each(i, *p, s);
    }
    Ok(states)
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
    solve_into(
        game,
        root,
        jobs,
        limits,
        progress,
        &Table::default(),
        &|_| {},
    )
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
    let s = solve_into(game, root, jobs, limits, progress, &table, &|_| {})?;
    Ok((s, table.into_iter().map(|(k, w)| (k, w.value)).collect()))
}

fn solve_into(
    game: &Game,
    root: &State,
    jobs: usize,
    limits: Limits,
    progress: OnProgress,
    table: &Table,
    on_estimate: OnEstimate,
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
            Refusal::MidDecision,
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
        // Before the first moves are listed for the threads.
        solver.joint_fits(root, &root.waiting())?;
        if table.is_empty() {
            on_estimate(&fits(&mut solver, root, jobs)?);
        }
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

/// Whether a solve from `root` can fit its limits, from random lines of
/// play (`estimate::positions`), before any is spent: a game far too big
/// is refused in seconds. The lines' positions are checked as the solve
/// would check them (a line too deep is one the solve would meet too), so
/// that hidden information is what a game is refused for where it has
/// both. The estimate, when it fits.
fn fits(solver: &mut Solver, root: &State, jobs: usize) -> Result<Estimate> {
    let limits = solver.shared.limits;
    let game = solver.game;
    let stop_above = limits.max_states as f64;
    let roots = [(1.0, root.clone())];
    let size = estimate::positions(game, &roots, stop_above, &mut |st, depth| {
        if depth >= limits.max_depth {
            return Err(solver.too_deep());
        }
        solver.check(st)
    })?;
    let from = size.how();
    if size.at_least > stop_above {
        return Err(cannot(
            game,
            Refusal::TooManyPositions {
                limit: limits.max_states,
            },
            format!(
                "it needs more than {} positions (at least {:.1e}, {from}; a bigger budget, or a smaller game, e.g. a lower `max_turns`, fits)",
                limits.max_states, size.at_least
            ),
        ));
    }
    let seconds = size.seconds_at_least() / jobs.max(1) as f64;
    if let Some(most) = limits.max_seconds
        && seconds > most
    {
        return Err(cannot(
            game,
            Refusal::TooSlow {
                seconds: most as u64,
            },
            format!(
                "it would take more than {most:.0} s (at least {seconds:.0} s for {:.1e} positions, {from})",
                size.at_least
            ),
        ));
    }
    Ok(Estimate {
        positions: size.at_least,
        seconds,
        lines: size.lines,
        listed: size.listed,
    })
}

/// The positions after the first decision, solved in parallel (on the
/// current pool) into the shared table.
fn solve_first_moves(shared: &Shared, root: &State) -> Result<()> {
    let firsts = match root.waiting().len() {
        1 | 2 => tree::joint_moves(root),
        _ => Vec::new(),
    };
    firsts.par_iter().try_for_each(|moves| {
        let mut s = Solver::new(shared);
        // Its positions are a decision below the root: the depth budget
        // counts it as the root's own solver does.
        s.depth = 1;
        s.expect(root, moves).map(|_| ())
    })
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
