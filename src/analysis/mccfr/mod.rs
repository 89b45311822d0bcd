//! Monte Carlo CFR (Lanctot et al. 2009) for two-player zero-sum games
//! whose tree is too big for CFR+ over the whole of it: chance is sampled
//! by playing from seeded setups (the state's own RNG draws as in play),
//! and the players' choices by external sampling (the updated player tries
//! every choice, the other samples one) or, where one traversal would be
//! too wide, outcome sampling (one line of play per iteration), as
//! OpenSpiel's `ExternalSamplingSolver` and `OutcomeSamplingSolver`.
//!
//! An information set is what the player sees now (`info_key`): the
//! engine's view of the position, the same one play shows, with another's
//! secret choice taken back. The rules keep the public record (cards
//! played, scores) in the position, so this recalls what matters without
//! the line that led there, and a policy learnt here is played from a
//! position alone (`Policy`).
//!
//! The value is estimated from games of the average strategy against
//! itself; the exploitability is exact where the whole tree fits
//! (`cfr::exploitability`), else bounded from below by what a search bot
//! wins against it.

use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use rustc_hash::FxHashMap;
use serde::Serialize;

mod measure;

use super::cfr;
use super::solve::{self, Header, Worth};
use super::tree;
use crate::core::{Choice, State};
use crate::definition::PlayerIx;
use crate::error::{Error, ErrorKind, Refusal, Result};
use crate::game::Game;
pub use measure::{Policy, probe_bot};
use measure::{evaluate, openings, probe};

/// How the players' choices are sampled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sampling {
    /// The updated player tries every choice, the other samples one.
    External,
    /// One line of play per iteration, the updated player exploring.
    Outcome,
}

impl Sampling {
    pub fn name(self) -> &'static str {
        match self {
            Sampling::External => "external",
            Sampling::Outcome => "outcome",
        }
    }
}

/// When MCCFR stops, and how its result is measured.
#[derive(Debug, Clone, Copy)]
pub struct McLimits {
    /// Iterations (each one traversal per player).
    pub iterations: u64,
    pub max_seconds: f64,
    /// Information sets kept (each about 100 bytes with a few choices).
    pub max_infosets: usize,
    /// None: external sampling unless one traversal passes `wide`
    /// positions, then outcome sampling.
    pub sampling: Option<Sampling>,
    pub wide: usize,
    /// Games of the average strategy against itself for the value.
    pub eval_games: u64,
    /// Games per seat of the search bot against it (a lower bound of the
    /// exploitability where the tree is too big for an exact one).
    pub probe_games: u64,
    /// The probing search bot's iterations per decision.
    pub probe_iterations: u32,
    /// Nodes of the whole tree for an exact exploitability.
    pub exact_nodes: usize,
    pub seed: u64,
}

impl Default for McLimits {
    fn default() -> McLimits {
        McLimits {
            iterations: 100_000,
            max_seconds: 600.0,
            max_infosets: 20_000_000,
            sampling: None,
            wide: 100_000,
            eval_games: 20_000,
            probe_games: 100,
            probe_iterations: 1_000,
            exact_nodes: 2_000_000,
            seed: 0,
        }
    }
}

/// How far the average strategy is from an equilibrium.
#[derive(Debug, Clone, Serialize)]
pub struct Exploitability {
    /// Exact (a best response over the whole tree), or a lower bound (what
    /// a search bot gained against it, over sampled games).
    pub exact: bool,
    /// Mean over the two seats of what the responder gets (in its own
    /// payoff; an equilibrium gives away 0).
    pub value: f64,
    /// The 95% interval of a lower bound (0 when exact).
    pub interval95: f64,
    /// What the responder got in each seat.
    pub best_response: [f64; 2],
    /// The responder: "best response" or the search bot's kind.
    pub by: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct McSolution {
    #[serde(flatten)]
    pub head: Header,
    pub method: &'static str,
    pub sampling: Sampling,
    /// The first player's expected payoff with both playing the average
    /// strategy: exact with an exact exploitability, else estimated from
    /// `eval_games` games (`interval95`).
    pub worth: Worth,
    pub interval95: f64,
    pub eval_games: u64,
    pub exploitability: Exploitability,
    pub iterations: u64,
    pub infosets: usize,
    pub seconds: f64,
    /// The average strategy at each player's first decision (the
    /// information sets of the first position of a sampled setup).
    pub openings: Vec<cfr::InfoStrategy>,
}

struct Set {
    start: u32,
    n: u32,
}

/// Regrets and average strategies by information set.
#[derive(Default)]
pub struct Table {
    at: FxHashMap<u64, u32>,
    sets: Vec<Set>,
    regrets: Vec<f64>,
    avg: Vec<f64>,
}

impl Table {
    /// The set of `key` with `n` choices, made if new.
    fn set(&mut self, game: &Game, key: u64, n: usize, max: usize) -> Result<usize> {
        if let Some(&s) = self.at.get(&key) {
            let s = s as usize;
            if self.sets[s].n as usize != n {
                return Err(Error::new(
                    ErrorKind::Refused(Refusal::UnclearChoices),
                    format!(
                        "solve cannot handle {}: a player has different choices in positions they cannot tell apart",
                        game.id()
                    ),
                ));
            }
            return Ok(s);
        }
        if self.sets.len() >= max {
            return Err(Error::new(
                ErrorKind::Refused(Refusal::TooManyPositions { limit: max }),
                format!(
                    "solve cannot handle {}: MCCFR met more than {max} information sets (a smaller setting fits)",
                    game.id()
                ),
            ));
        }
        let start = self.regrets.len() as u32;
        self.regrets.extend(std::iter::repeat_n(0.0, n));
        self.avg.extend(std::iter::repeat_n(0.0, n));
        self.sets.push(Set { start, n: n as u32 });
        self.at.insert(key, (self.sets.len() - 1) as u32);
        Ok(self.sets.len() - 1)
    }

    fn range(&self, s: usize) -> std::ops::Range<usize> {
        let set = &self.sets[s];
        set.start as usize..(set.start + set.n) as usize
    }

    /// Regret matching: the positive regrets, normalised (uniform if none).
    fn current(&self, s: usize) -> Vec<f64> {
        let r = &self.regrets[self.range(s)];
        let pos: f64 = r.iter().map(|x| x.max(0.0)).sum();
        let n = r.len() as f64;
        r.iter()
            .map(|x| if pos > 0.0 { x.max(0.0) / pos } else { 1.0 / n })
            .collect()
    }

    fn add_regrets(&mut self, s: usize, by: impl Iterator<Item = f64>) {
        let range = self.range(s);
        for (r, d) in self.regrets[range].iter_mut().zip(by) {
            *r += d;
        }
    }

    fn add_average(&mut self, s: usize, sigma: &[f64], w: f64) {
        let range = self.range(s);
        for (a, p) in self.avg[range].iter_mut().zip(sigma) {
            *a += w * p;
        }
    }

    /// The average strategy of the set `key`, if it was met.
    pub fn average(&self, key: u64) -> Option<Vec<f64>> {
        let s = *self.at.get(&key)? as usize;
        let a = &self.avg[self.range(s)];
        let total: f64 = a.iter().sum();
        let n = a.len() as f64;
        Some(
            a.iter()
                .map(|x| if total > 0.0 { x / total } else { 1.0 / n })
                .collect(),
        )
    }

    pub fn len(&self) -> usize {
        self.sets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }
}

fn sample(rng: &mut ChaCha8Rng, probs: &[f64]) -> usize {
    let x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let mut acc = 0.0;
    for (i, p) in probs.iter().enumerate() {
        acc += p;
        if x < acc {
            return i;
        }
    }
    probs.len() - 1
}

fn payoff_for(game: &Game, st: &State, i: PlayerIx) -> f64 {
    let v = Worth::at(game, st).value;
    if i == 0 { v } else { -v }
}

/// Reach probabilities along an outcome-sampled line.
#[derive(Clone, Copy)]
struct Reach {
    mine: f64,
    others: f64,
    sample: f64,
}

/// Outcome sampling's exploration of the updated player's choices.
const EXPLORE: f64 = 0.6;

struct Learner<'a> {
    game: &'a Game,
    table: Table,
    rng: ChaCha8Rng,
    limits: McLimits,
    depth_limit: usize,
    /// Positions of the current traversal, and its budget (None: any).
    visited: usize,
    budget: Option<usize>,
}

/// Why a traversal stopped early: an error, or too wide for external
/// sampling.
enum Stop {
    Error(Error),
    Wide,
}

impl From<Error> for Stop {
    fn from(e: Error) -> Stop {
        Stop::Error(e)
    }
}

type Walk<T> = std::result::Result<T, Stop>;

impl Learner<'_> {
    /// The one who chooses next at `st` (in an ordered reveal, the first).
    fn decider(&self, st: &State, depth: usize) -> Walk<PlayerIx> {
        if depth >= self.depth_limit {
            return Err(Stop::Error(Error::new(
                ErrorKind::Refused(Refusal::TooDeep {
                    limit: self.depth_limit,
                }),
                format!(
                    "solve cannot handle {}: a line of play runs past {} decisions without ending",
                    self.game.id(),
                    self.depth_limit
                ),
            )));
        }
        st.first_waiting().ok_or_else(|| {
            Stop::Error(Error::new(
                ErrorKind::Refused(Refusal::Other),
                format!(
                    "solve cannot handle {}: a position that is neither over nor waits for a choice",
                    self.game.id()
                ),
            ))
        })
    }

    fn child(&self, st: &State, p: PlayerIx, c: &Choice) -> Walk<State> {
        let mut s = st.clone();
        s.apply_unchecked(self.game, p, c.clone())?;
        Ok(s)
    }

    /// External sampling: player `i`'s sampled value at `st`.
    fn external(&mut self, st: &State, i: PlayerIx, depth: usize) -> Walk<f64> {
        if st.is_over() {
            return Ok(payoff_for(self.game, st, i));
        }
        self.visited += 1;
        if self.budget.is_some_and(|b| self.visited > b) {
            return Err(Stop::Wide);
        }
        let p = self.decider(st, depth)?;
        let legal = st.legal(p).to_vec();
        let key = tree::observation(self.game, st, p);
        let s = self
            .table
            .set(self.game, key, legal.len(), self.limits.max_infosets)?;
        let sigma = self.table.current(s);
        if p == i {
            let mut vs = Vec::with_capacity(legal.len());
            for c in &legal {
                let kid = self.child(st, p, c)?;
                vs.push(self.external(&kid, i, depth + 1)?);
            }
            let v: f64 = vs.iter().zip(&sigma).map(|(x, q)| x * q).sum();
            self.table.add_regrets(s, vs.iter().map(|x| x - v));
            Ok(v)
        } else {
            // The other's average: each visit adds their current strategy
            // (OpenSpiel's simple averaging).
            self.table.add_average(s, &sigma, 1.0);
            let a = sample(&mut self.rng, &sigma);
            let kid = self.child(st, p, &legal[a])?;
            self.external(&kid, i, depth + 1)
        }
    }

    /// Outcome sampling: player `i`'s sampled value at `st`, importance
    /// weighted (OpenSpiel's outcome sampling without a baseline; chance is
    /// drawn by the state's RNG, and its chance cancels from the weights).
    fn outcome(&mut self, st: &State, i: PlayerIx, depth: usize, r: Reach) -> Walk<f64> {
        if st.is_over() {
            return Ok(payoff_for(self.game, st, i));
        }
        let p = self.decider(st, depth)?;
        let legal = st.legal(p).to_vec();
        let n = legal.len();
        let key = tree::observation(self.game, st, p);
        let s = self
            .table
            .set(self.game, key, n, self.limits.max_infosets)?;
        let sigma = self.table.current(s);
        let explore: Vec<f64> = if p == i {
            let e = EXPLORE / n as f64;
            sigma.iter().map(|q| e + (1.0 - EXPLORE) * q).collect()
        } else {
            sigma.clone()
        };
        let a = sample(&mut self.rng, &explore);
        let next = Reach {
            mine: if p == i { r.mine * sigma[a] } else { r.mine },
            others: if p == i {
                r.others
            } else {
                r.others * sigma[a]
            },
            sample: r.sample * explore[a],
        };
        let kid = self.child(st, p, &legal[a])?;
        // The sampled choice's value over its sampling chance (the others
        // count 0), and the strategy's value from it.
        let child = self.outcome(&kid, i, depth + 1, next)? / explore[a];
        let value = sigma[a] * child;
        if p == i {
            let cf = r.others / r.sample;
            self.table.add_regrets(
                s,
                (0..n).map(|b| cf * (if b == a { child } else { 0.0 } - value)),
            );
            self.table.add_average(s, &sigma, r.mine / r.sample);
        }
        Ok(value)
    }
}

/// What MCCFR reports as it goes: iterations done and information sets.
pub type OnProgress<'a> = &'a (dyn Fn(u64, usize) + Sync);

/// Learn an average strategy by MCCFR within `limits`, then measure it.
pub fn solve(game: &Game, limits: McLimits, progress: OnProgress) -> Result<McSolution> {
    let started = Instant::now();
    if let Some(e) = solve::refusal(game) {
        return Err(e);
    }
    let (table, sampling, iterations) = tree::deep(|| learn(game, limits, started, progress))?;
    let policy = |key: u64| table.average(key);
    let (worth, interval95, exploitability) =
        match super::evaluate::judge(game, &policy, limits.exact_nodes) {
            Ok((worth, brs)) => (
                worth,
                0.0,
                Exploitability {
                    exact: true,
                    value: (brs[0] + brs[1]) / 2.0,
                    interval95: 0.0,
                    best_response: brs,
                    by: "best response".into(),
                },
            ),
            // No exact measure (the tree is too big): by play.
            Err(e) if e.refusal().is_some() => {
                let (worth, interval) = evaluate(game, &table, limits)?;
                (worth, interval, probe(game, &table, limits)?)
            }
            Err(e) => return Err(e),
        };
    let openings = openings(game, &table, limits.seed)?;
    Ok(McSolution {
        head: Header::of(game),
        method: "mccfr",
        sampling,
        worth,
        interval95,
        eval_games: if exploitability.exact {
            0
        } else {
            limits.eval_games
        },
        exploitability,
        iterations,
        infosets: table.len(),
        seconds: started.elapsed().as_secs_f64(),
        openings,
    })
}

/// The iterations: a setup from a new seed each, one traversal per player.
fn learn(
    game: &Game,
    limits: McLimits,
    started: Instant,
    progress: OnProgress,
) -> Result<(Table, Sampling, u64)> {
    let mut me = Learner {
        game,
        table: Table::default(),
        rng: ChaCha8Rng::seed_from_u64(limits.seed),
        limits,
        depth_limit: solve::MAX_DEPTH,
        visited: 0,
        budget: None,
    };
    let mut sampling = limits.sampling.unwrap_or(Sampling::External);
    if limits.sampling.is_none() {
        me.budget = Some(limits.wide);
    }
    let mut t = 0u64;
    'iterations: while t < limits.iterations {
        let seed = super::bot::bot_seed(limits.seed, t as usize, 0);
        let root = State::new_quiet(game, seed)?;
        for i in 0..2 {
            me.visited = 0;
            let done = match sampling {
                Sampling::External => me.external(&root, i, 0).map(|_| ()),
                Sampling::Outcome => {
                    let r = Reach {
                        mine: 1.0,
                        others: 1.0,
                        sample: 1.0,
                    };
                    me.outcome(&root, i, 0, r).map(|_| ())
                }
            };
            match done {
                Ok(()) => {}
                // Too wide a traversal: outcome sampling from scratch.
                Err(Stop::Wide) => {
                    sampling = Sampling::Outcome;
                    me.table = Table::default();
                    me.budget = None;
                    t = 0;
                    continue 'iterations;
                }
                Err(Stop::Error(e)) => return Err(e),
            }
        }
        t += 1;
        if t.is_multiple_of(64) {
            progress(t, me.table.len());
            if started.elapsed().as_secs_f64() >= limits.max_seconds {
                break;
            }
        }
    }
    Ok((me.table, sampling, t))
}
