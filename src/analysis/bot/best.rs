//! The equilibrium bot (`best`): in a game `solve` handles, it plays the
//! exact equilibrium, sampling its mixed strategy at a simultaneous choice
//! (a fixed answer there is what a best response exploits). The values
//! come from one solve per game, setting and position solved from, shared
//! by every bot of the process and kept on disk under the cache folder
//! the program names (`files::set_cache_dir`; none: kept in memory only),
//! named by the rules files' contents, the variants and parameters, and
//! the position: an edit to the rules solves again. Where solve refuses
//! the game (chance, hidden cards, more than two players) or it is bigger
//! than the budget, the bot plays as the search bot.

use std::sync::{Arc, Mutex, OnceLock, RwLock};

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use rustc_hash::FxHashMap;

pub use super::best_disk::cache_notes;
use super::best_disk::{KEPT_IN_MEMORY, cache_file, read, read_refusal, write, write_refusal};
use super::{Bot, mcts};
use crate::analysis::solve::{self, Limits, Worth};
use crate::core::{Choice, State};
use crate::definition::PlayerIx;
use crate::game::Game;

/// Positions a bot's solve may take before the bot searches instead
/// (BraveRats takes 880,665).
pub const BUDGET: usize = 3_000_000;

/// Seconds of one thread's work a bot's solve may take, as estimated
/// before it starts (BraveRats: at least 24 s, 46 s in fact): a sim of a
/// game whose solve would take longer plays it with the search bot rather
/// than stall.
pub const SOLVE_SECONDS: f64 = 120.0;

/// A strategy: each choice and its probability.
type Mix = Arc<[(Choice, f64)]>;

pub struct Best {
    /// Its game's knowledge, found at its first decision (a bot plays one
    /// game: `known` locks and hashes, not for every decision).
    known: std::cell::OnceCell<Arc<Known>>,
    rng: ChaCha8Rng,
    search: mcts::Mcts,
    budget: usize,
    /// Solving in the background for others (`prepare`).
    background: bool,
}

impl Best {
    pub fn new(seed: u64, budget: usize, search: mcts::Mcts) -> Best {
        Best {
            known: std::cell::OnceCell::new(),
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x005E_ED0F_BE57),
            search,
            budget,
            background: false,
        }
    }
}

/// What is known of one game (and setting): positions' values for the
/// first player, and why it cannot be solved, once found.
#[derive(Default)]
struct Known {
    values: RwLock<FxHashMap<u128, f64>>,
    /// Strategies worked out so far (an LP or two each), by position and
    /// player: a sim meets the same positions again and again.
    mixes: RwLock<FxHashMap<(u128, PlayerIx), Mix>>,
    refused: Mutex<Option<String>>,
    /// Held while solving, so that threads do not solve the same twice.
    solving: Mutex<()>,
    /// A solve runs in the background (`prepare`): bots search while it
    /// does rather than wait for it.
    impatient: std::sync::atomic::AtomicBool,
    /// Background solves started (`prepare`).
    started: std::sync::atomic::AtomicUsize,
}

/// Every game's knowledge in this process, by `identity`.
fn known(game: &Game) -> Arc<Known> {
    static ALL: OnceLock<Mutex<FxHashMap<u64, Arc<Known>>>> = OnceLock::new();
    let Some(id) = identity(game) else {
        // A game built from parts has no files to name it: its own.
        return Arc::default();
    };
    let all = ALL.get_or_init(Mutex::default);
    let mut all = all.lock().unwrap_or_else(|e| e.into_inner());
    all.entry(id).or_default().clone()
}

/// The rules files' contents, the variants and the parameters; None for a
/// game not read from files.
fn identity(game: &Game) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    if game.fingerprint() == 0 {
        return None;
    }
    let def = game.def();
    let mut h = rustc_hash::FxHasher::default();
    game.fingerprint().hash(&mut h);
    def.applied.hash(&mut h);
    for (k, v) in &def.sets {
        k.hash(&mut h);
        v.to_string().hash(&mut h);
    }
    Some(h.finish())
}

/// Work out the equilibrium from `st` on a thread of its own, for bots
/// that will play `game` from there: until it is known they search rather
/// than wait (a person never waits for a solve), then play it. Nothing
/// happens for a game solved before or refused (kept on disk). These
/// solves run one at a time in the process: a server with many tables
/// of `best` bots solves for them in turn, not all at once in memory.
pub fn prepare(game: Game, st: State) {
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let k = known(&game);
    // Refused before, in this process or kept on disk (its size estimate
    // over the budget: Hex on 11x11 needs far more than 3,000,000
    // positions): no solve to start, and `plays` says so at once.
    if refused_before(&game, &st, &k) {
        return;
    }
    k.started.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    k.impatient
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let quick = mcts::Budget {
        iterations: 1,
        time: None,
    };
    std::thread::spawn(move || {
        let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let mut b = Best::new(0, BUDGET, mcts::Mcts::new(0, quick));
        b.background = true;
        b.learn(&game, &st, &k)
    });
}

/// How many background solves `prepare` has started in this process for
/// `game` and its setting (one refused before starts none).
pub fn background_solves(game: &Game) -> usize {
    known(game)
        .started
        .load(std::sync::atomic::Ordering::Relaxed)
}

/// Whether a solve of `game` was refused already: in this process, or
/// kept on disk for this position with a budget at least the background
/// one (then noted in memory, for `status`).
fn refused_before(game: &Game, st: &State, k: &Known) -> bool {
    if k.refused.lock().map_or(true, |r| r.is_some()) {
        return true;
    }
    let Some(why) = identity(game).and_then(|id| read_refusal(id, st.key(game), BUDGET)) else {
        return false;
    };
    if let Ok(mut r) = k.refused.lock() {
        *r = Some(why);
    }
    true
}

/// What the `best` bot plays in a game and setting, as known now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plays {
    /// The exact equilibrium: it is solved (or read from the cache).
    Equilibrium,
    /// The search bot, for now: the solve is under way or not yet begun.
    SearchForNow,
    /// The search bot, for good here, and why.
    Search(String),
}

/// What `best` plays in `game` from `st`: the search bot where exact play
/// cannot apply (not two players, or hidden cards a player cannot deduce
/// at the start, found at once from the definition and the setup), or
/// where a solve refused; the equilibrium once one is known.
pub fn plays(game: &Game, st: &State) -> Plays {
    if let Some(e) = solve::refusal(game).or_else(|| solve::hidden_at(game, st)) {
        return Plays::Search(solve::reason(&e.message));
    }
    status(game)
}

/// `plays` as far as this process knows it, cheaply: whether a solve
/// found the equilibrium or refused (for a line when that changes).
pub fn status(game: &Game) -> Plays {
    let k = known(game);
    if let Some(why) = k.refused.lock().ok().and_then(|r| r.clone()) {
        return Plays::Search(solve::reason(&why));
    }
    if k.values.read().is_ok_and(|v| !v.is_empty()) {
        Plays::Equilibrium
    } else {
        Plays::SearchForNow
    }
}

/// Why `best` plays as the search bot in this game and setting, once known
/// (a refusal kept on disk counts): None while it may still solve.
pub fn refusal(game: &Game) -> Option<String> {
    known(game).refused.lock().ok()?.clone()
}

impl Best {
    /// Make sure `st`'s value is known: from memory, the disk, or a solve
    /// from `st`. False when the game cannot be solved (the reason kept).
    fn learn(&self, game: &Game, st: &State, k: &Known) -> bool {
        let key = st.key(game);
        let has = |k: &Known| k.values.read().is_ok_and(|v| v.contains_key(&key));
        if has(k) {
            return true;
        }
        let impatient = k.impatient.load(std::sync::atomic::Ordering::Relaxed);
        if impatient && !self.background {
            // A person is waiting: the solve is `prepare`'s, in the
            // background; search until it is done.
            return false;
        }
        let _solving = k.solving.lock().unwrap_or_else(|e| e.into_inner());
        if has(k) {
            return true;
        }
        if k.refused.lock().map_or(true, |r| r.is_some()) {
            return false;
        }
        let id = identity(game);
        if let Some(why) = id.and_then(|id| read_refusal(id, key, self.budget)) {
            if let Ok(mut r) = k.refused.lock() {
                *r = Some(why);
            }
            return false;
        }
        let mut values = id.and_then(|id| read(&cache_file(id, key)?, id, key));
        if values.is_none() {
            let limits = Limits {
                max_states: self.budget,
                max_seconds: Some(SOLVE_SECONDS),
                ..Limits::default()
            };
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            // In the background, a core is left to the person's game.
            let jobs = if impatient { cores - 1 } else { cores }.max(1);
            // On a thread of its own: a rayon worker (a sim's) waiting on
            // the solve's pool would run other games meanwhile, and one of
            // them would wait for this very solve.
            let solved = std::thread::scope(|s| {
                s.spawn(|| solve::solve_values(game, st, jobs, limits, &|_| {}))
                    .join()
            });
            let Ok(solved) = solved else {
                return false;
            };
            match solved {
                Ok((_, v)) => {
                    if let Some(id) = id {
                        write(id, key, &v);
                    }
                    values = Some(v);
                }
                Err(e) => {
                    // A solve too slow for this machine now is no rule of
                    // the game: kept in memory, not on disk.
                    let slow = matches!(e.refusal(), Some(crate::error::Refusal::TooSlow { .. }));
                    if let Some(id) = id.filter(|_| !slow) {
                        write_refusal(id, key, self.budget, &e.message);
                    }
                    if let Ok(mut r) = k.refused.lock() {
                        *r = Some(e.message);
                    }
                    return false;
                }
            }
        }
        if let (Some(v), Ok(mut known)) = (values, k.values.write()) {
            if known.len() + v.len() > KEPT_IN_MEMORY {
                known.clear();
                if let Ok(mut m) = k.mixes.write() {
                    m.clear();
                }
            }
            known.extend(v);
        }
        has(k)
    }

    /// The equilibrium strategy of `me` at `st`, if the game is solved.
    fn strategy(&self, game: &Game, st: &State, me: PlayerIx) -> Option<Mix> {
        // No player of the game: nothing to solve for.
        if me >= game.def().nplayers() {
            return None;
        }
        // A simultaneous choice another made first is not the bot's to
        // see: it decides from the decision's start (a position solved).
        let st = &st.unseen_choices_taken_back(me);
        let k = self.known.get_or_init(|| known(game)).clone();
        let at = (st.key(game), me);
        if let Some(m) = k.mixes.read().ok().and_then(|m| m.get(&at).cloned()) {
            return Some(m);
        }
        if !self.learn(game, st, &k) {
            return None;
        }
        let mix: Mix = self.work_out(game, st, me, &k)?.into();
        if let Ok(mut m) = k.mixes.write() {
            m.insert(at, mix.clone());
        }
        Some(mix)
    }

    /// `strategy` from the values of the children.
    fn work_out(
        &self,
        game: &Game,
        st: &State,
        me: PlayerIx,
        k: &Known,
    ) -> Option<Vec<(Choice, f64)>> {
        let values = k.values.read().ok()?;
        let one = |s: &State| -> Option<f64> {
            if s.is_over() {
                Some(Worth::at(game, s).value)
            } else {
                values.get(&s.key(game)).copied()
            }
        };
        // Moves followed by chance are worth the mix of where it leads.
        let value = |moves: &[(PlayerIx, Choice)]| -> Option<f64> {
            let outs = crate::analysis::tree::children(game, st, moves).ok()?;
            outs.iter()
                .map(|(p, s)| one(s).map(|v| p * v))
                .sum::<Option<f64>>()
        };
        match st.waiting().as_slice() {
            [a, b] => {
                let (a, b) = (*a, *b);
                let (rows, cols) = (st.legal(a).to_vec(), st.legal(b).to_vec());
                let mut m = vec![vec![0.0; cols.len()]; rows.len()];
                for (i, r) in rows.iter().enumerate() {
                    for (j, c) in cols.iter().enumerate() {
                        m[i][j] = value(&[(a, r.clone()), (b, c.clone())])?;
                    }
                }
                // Values are the first player's: rows must be theirs.
                let first_rows = a == 0;
                if !first_rows {
                    m = (0..cols.len())
                        .map(|j| (0..rows.len()).map(|i| m[i][j]).collect())
                        .collect();
                }
                let (x, y, v) = solve::solve_matrix(&m);
                let (first, second) = if first_rows {
                    (rows, cols)
                } else {
                    (cols, rows)
                };
                let column = me == 1;
                let plain = if column { y } else { x };
                let probs = safe_against_uniform(&m, v, column).unwrap_or(plain);
                let choices = if column { second } else { first };
                Some(choices.into_iter().zip(probs).collect())
            }
            [p] if *p == me => {
                let choices = st.legal(me).to_vec();
                let mut worth = Vec::with_capacity(choices.len());
                for c in &choices {
                    let v = value(&[(me, c.clone())])?;
                    worth.push(if me == 0 { v } else { -v });
                }
                let best = worth.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let optimal: Vec<bool> = worth.iter().map(|v| *v >= best - 1e-9).collect();
                let n = optimal.iter().filter(|o| **o).count() as f64;
                Some(
                    choices
                        .into_iter()
                        .zip(optimal)
                        .map(|(c, o)| (c, if o { 1.0 / n } else { 0.0 }))
                        .collect(),
                )
            }
            _ => None,
        }
    }
}

/// Of the strategies that guarantee the matrix game's value `v` (to the
/// row player; `column`: play the columns, who minimise), the one that
/// does best against an opponent choosing uniformly: as safe as any
/// equilibrium strategy, and stronger against weak play.
fn safe_against_uniform(m: &[Vec<f64>], v: f64, column: bool) -> Option<Vec<f64>> {
    use microlp::{ComparisonOp, OptimizationDirection, Problem};
    let (r, c) = (m.len(), m.first().map_or(0, Vec::len));
    let (n, k) = if column { (c, r) } else { (r, c) };
    // My payoff when I choose i and the other j.
    let at = |i: usize, j: usize| if column { -m[j][i] } else { m[i][j] };
    let guarantee = if column { -v } else { v };
    let mut p = Problem::new(OptimizationDirection::Maximize);
    let xs: Vec<_> = (0..n)
        .map(|i| {
            let mean = (0..k).map(|j| at(i, j)).sum::<f64>() / k as f64;
            p.add_var(mean, (0.0, 1.0))
        })
        .collect();
    let all: Vec<_> = xs.iter().map(|&x| (x, 1.0)).collect();
    p.add_constraint(all.as_slice(), ComparisonOp::Eq, 1.0);
    for j in 0..k {
        let e: Vec<_> = xs.iter().enumerate().map(|(i, &x)| (x, at(i, j))).collect();
        p.add_constraint(e.as_slice(), ComparisonOp::Ge, guarantee - 1e-9);
    }
    let s = p.solve().ok()?.into_solution().ok()?;
    let raw: Vec<f64> = xs.iter().map(|&x| s.var_value(x).max(0.0)).collect();
    let total: f64 = raw.iter().sum();
    (total > 0.5).then(|| raw.iter().map(|x| x / total).collect())
}

impl Bot for Best {
    fn name(&self) -> &str {
        "best"
    }

    fn choose(&mut self, game: &Game, state: &State, player: PlayerIx) -> Option<Choice> {
        let legal = state.legal(player);
        if legal.len() <= 1 {
            return legal.first().cloned();
        }
        match self.strategy(game, state, player) {
            Some(mix) => {
                let x = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                let mut acc = 0.0;
                for (c, p) in mix.iter() {
                    acc += p;
                    if x < acc {
                        return Some(c.clone());
                    }
                }
                mix.iter()
                    .rev()
                    .find(|(_, p)| *p > 0.0)
                    .map(|(c, _)| c.clone())
            }
            None => self.search.choose(game, state, player),
        }
    }

    fn policy(
        &mut self,
        game: &Game,
        state: &State,
        player: PlayerIx,
    ) -> Option<Vec<(Choice, f64)>> {
        self.strategy(game, state, player).map(|m| m.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::safe_against_uniform;

    #[test]
    fn of_the_safe_strategies_the_one_that_beats_uniform_play() {
        // Row 0 guarantees the value 1 whatever the column; either column
        // holds the rows to 1, and against rows chosen at random column 0
        // gives away less (0 on average against 0.5).
        let m = vec![vec![1.0, 1.0], vec![-1.0, 0.0]];
        let col = safe_against_uniform(&m, 1.0, true).unwrap_or_default();
        assert!((col[0] - 1.0).abs() < 1e-9, "{col:?}");
        // Rows: row 0 alone guarantees 1.
        let row = safe_against_uniform(&m, 1.0, false).unwrap_or_default();
        assert!((row[0] - 1.0).abs() < 1e-9, "{row:?}");
        // Matching pennies: the one safe strategy is half and half.
        let pennies = vec![vec![1.0, -1.0], vec![-1.0, 1.0]];
        for column in [false, true] {
            let x = safe_against_uniform(&pennies, 0.0, column).unwrap_or_default();
            assert!((x[0] - 0.5).abs() < 1e-6, "{x:?}");
        }
    }
}
