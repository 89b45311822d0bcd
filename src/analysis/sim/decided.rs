//! When a game is decided (Ludii's decisiveness, measured without a
//! heuristic of the game): for a game of the run, the first of its
//! decisions from which random play can no longer change the result. From
//! there, `TRIES` random continuations, each with chance drawn anew, all
//! reach the game's own result (the same winner, or a draw). Found by
//! bisection over the game's positions, so a game costs about `TRIES x
//! log2(decisions)` random playouts.

use rayon::prelude::*;
use serde::Serialize;

use super::{SimConfig, game_seed};
use crate::analysis::bot::{self, bot_seed, random_playout};
use crate::core::State;
use crate::game::Game;

/// Random continuations that must all agree.
pub const TRIES: u32 = 8;
/// Games of a run measured, at most (the first ones).
pub const SAMPLE: u64 = 100;

/// How far into a game its result is settled, as a share of the game's
/// decisions (100%: only the last decision settles it).
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Decided {
    /// Games measured (those that ended within the run's limits).
    pub games: u64,
    /// Mean share of a game's decisions made when it is settled, percent,
    /// with a 95% interval of the mean.
    pub percent: f64,
    pub low: f64,
    pub high: f64,
    pub tries: u32,
}

/// The first `SAMPLE` games of the run (as `sim` plays them: the same
/// seeds and bots), each measured.
pub fn decided(game: &Game, cfg: &SimConfig) -> Option<Decided> {
    let games = cfg.range();
    let end = games.end.min(games.start + SAMPLE);
    let shares: Vec<f64> = (games.start..end)
        .into_par_iter()
        .filter_map(|i| settled_at(game, game_seed(cfg.seed, i), cfg))
        .collect();
    let n = shares.len();
    if n == 0 {
        return None;
    }
    let mean = shares.iter().sum::<f64>() / n as f64;
    let var = shares.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n.max(2) - 1) as f64;
    let half = 1.96 * (var / n as f64).sqrt();
    Some(Decided {
        games: n as u64,
        percent: 100.0 * mean,
        low: 100.0 * (mean - half).max(0.0),
        high: 100.0 * (mean + half).min(1.0),
        tries: TRIES,
    })
}

/// One game: the share of its decisions made when its result is settled;
/// None if it failed or did not end.
fn settled_at(game: &Game, seed: u64, cfg: &SimConfig) -> Option<f64> {
    let mut seats = Vec::new();
    for (p, kind) in cfg.bots.iter().enumerate() {
        seats.push(bot::make(kind, bot_seed(seed, 0, p))?);
    }
    let mut state = State::new_quiet(game, seed).ok()?;
    let mut line = vec![state.clone()];
    while let Some(p) = state.first_waiting() {
        if line.len() as u64 > u64::from(cfg.max_decisions) {
            return None;
        }
        let choice = seats[p].choose(game, &state, p)?;
        state.apply_unchecked(game, p, choice).ok()?;
        line.push(state.clone());
    }
    let result = state.outcome()?;
    let n = line.len() - 1;
    if n == 0 {
        return Some(1.0);
    }
    // The last position is settled; find the first that is.
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = (lo + hi) / 2;
        let agree = (0..TRIES).all(|t| {
            let mut s = line[mid].clone();
            let r = bot_seed(seed ^ 0xD1CE, mid, t as usize);
            s.reseed(r);
            let limit = cfg.max_decisions as usize;
            random_playout(game, &mut s, r, limit).is_ok() && s.outcome() == Some(result)
        });
        if agree {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(hi as f64 / n as f64)
}
