//! Batch simulation: many seeded games between bots, on all cores, and the
//! balance figures a designer reads (win rates with confidence intervals,
//! draws, lengths, seat advantage, per-card figures).
//!
//! Game `i` is seeded from (seed, i) and its bots from the game's seed, so
//! the results are the same for any number of threads.

mod decided;
mod merge;
mod report;
mod tally;
mod warn;

pub use decided::{Decided, decided};
pub use merge::{merge, merge_files};

pub use report::{
    CardFigures, Ending, Length, Part, Rate, Report, RunInfo, SeatFigures, column_label, report,
    report_of,
};
pub use tally::Tally;
pub use warn::warnings;

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::analysis::bot;
use crate::analysis::bot::bot_seed;
use crate::core::{Choice, Outcome, Position, State};
use crate::definition::{CardIx, PlayerIx};
use crate::error::{Error, Result};
use crate::game::Game;

#[derive(Debug, Clone)]
pub struct SimConfig {
    pub games: u64,
    pub seed: u64,
    /// Bot kind per seat.
    pub bots: Vec<String>,
    pub jobs: usize,
    /// A game not over after this many decisions is counted as unfinished.
    pub max_decisions: u32,
    /// Play only this share of the games (`--shard K/N`).
    pub shard: Option<Shard>,
}

impl SimConfig {
    /// The games this run plays: all, or its shard's share.
    pub fn range(&self) -> Range<u64> {
        match self.shard {
            Some(s) => s.range(self.games),
            None => 0..self.games,
        }
    }
}

pub use super::shard::Shard;

/// One simulated game.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub outcome: Option<Outcome>,
    pub turns: u32,
    pub decisions: u32,
    /// Cards played (chosen), by whom.
    pub plays: Vec<(PlayerIx, CardIx)>,
    pub error: Option<String>,
    /// Each player's return, when the game declares a payoff stat.
    pub payoff: Option<Vec<i64>>,
    /// Why it ended, in the script's words (or "turn limit").
    pub reason: Option<std::sync::Arc<str>>,
    /// The winner's place in the turn order at the end (0: first).
    pub winner_place: Option<usize>,
    /// Whether the turn order at the end was not seat order.
    pub reordered: bool,
}

/// The seed of game `i` of a run.
pub fn game_seed(seed: u64, i: u64) -> u64 {
    bot_seed(seed, i as usize, usize::MAX >> 8)
}

/// Play one game between bots, quietly.
// Out of line, as an anchor for tests/reference/where_time_goes.py
// (fat LTO would inline it; one call of this size costs nothing seen).
#[inline(never)]
pub fn play_one(game: &Game, seed: u64, bots: &[String], max_decisions: u32) -> Record {
    play_one_from(game, None, seed, bots, max_decisions)
}

/// `play_one`, from `start` (its chance drawn from `seed`) rather than
/// the game's setup when given.
pub fn play_one_from(
    game: &Game,
    start: Option<&Position>,
    seed: u64,
    bots: &[String],
    max_decisions: u32,
) -> Record {
    let mut rec = Record {
        outcome: None,
        turns: 0,
        decisions: 0,
        plays: Vec::new(),
        error: None,
        payoff: None,
        reason: None,
        winner_place: None,
        reordered: false,
    };
    let mut seats: Vec<Box<dyn bot::Bot>> = Vec::new();
    for (p, kind) in bots.iter().enumerate() {
        match bot::make(kind, bot_seed(seed, 0, p)) {
            Some(b) => seats.push(b),
            None => {
                rec.error = Some(format!("unknown bot kind `{kind}`"));
                return rec;
            }
        }
    }
    let state = match start {
        None => State::new_quiet(game, seed),
        Some(p) => {
            let p = Position {
                seed,
                draws: 0,
                ..p.clone()
            };
            State::from_position(game, &p, false).map(|(s, _)| s)
        }
    };
    let mut state = match state {
        Ok(s) => s,
        Err(e) => {
            rec.error = Some(e.to_string());
            return rec;
        }
    };
    while let Some(p) = state.first_waiting() {
        if rec.decisions >= max_decisions {
            break;
        }
        let Some(choice) = seats[p].choose(game, &state, p) else {
            rec.error = Some("a bot found no legal choice".into());
            break;
        };
        if let Choice::Card(c) = choice {
            rec.plays.push((p, c));
        }
        rec.decisions += 1;
        if let Err(e) = state.apply_unchecked(game, p, choice) {
            rec.error = Some(e.to_string());
            break;
        }
    }
    rec.turns = state.turn();
    // A game that failed is counted as a failure only: a hook that ended
    // the game and then threw is not also a win (merge checks that no
    // game is both).
    if rec.error.is_some() {
        return rec;
    }
    rec.outcome = state.outcome();
    rec.payoff = state.payoff(game);
    rec.reason = state.end_reason().cloned();
    let order = state.order();
    rec.reordered = order.iter().enumerate().any(|(i, &p)| i != p);
    if let Some(Outcome::Win(w)) = rec.outcome {
        rec.winner_place = order.iter().position(|&p| p == w);
    }
    rec
}

/// Run a simulation: `cfg.games` games of `game` on `cfg.jobs` threads,
/// all sharing the game (each thread's hooks keep their own memo for the
/// whole run). `progress` is told of finished games.
pub fn run(game: &Game, cfg: &SimConfig, progress: &(dyn Fn(u64) + Sync)) -> Result<Tally> {
    run_from(game, cfg, None, progress)
}

/// `run`, every game from `start` (each with chance of its own) rather
/// than from the game's setup when given (`sim --from`).
pub fn run_from(
    game: &Game,
    cfg: &SimConfig,
    start: Option<&Position>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Tally> {
    let def = game.def();
    if cfg.bots.len() != def.nplayers() {
        return Err(Error::usage("one bot kind per seat is needed"));
    }
    let empty = || Tally::new(def.nplayers(), def.cards.len());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.jobs.max(1))
        .build()
        .map_err(|e| Error::usage(format!("threads: {e}")))?;
    // Chunks small enough to balance the threads; neither the chunks nor
    // their tallies are kept in a list, so memory does not grow with
    // `games` (tallies merge the same in any order).
    let games = cfg.range();
    let chunk = ((games.end - games.start) / (cfg.jobs.max(1) as u64 * 8)).clamp(1, 5_000);
    let done = AtomicU64::new(0);
    pool.install(|| {
        (0..(games.end - games.start).div_ceil(chunk))
            .into_par_iter()
            .map(|k| {
                let first = games.start + k * chunk;
                let chunk = first..(first + chunk).min(games.end);
                Some(play_chunk(game, chunk, cfg, start, &done, progress))
            })
            .try_reduce(empty, |mut a, b| {
                a.merge(b)?;
                Some(a)
            })
    })
    // Not in fewer than 2^64 games: said rather than wrapped.
    .ok_or_else(|| Error::usage("sim: a count passed the 64-bit range"))
}

fn play_chunk(
    game: &Game,
    games: Range<u64>,
    cfg: &SimConfig,
    start: Option<&Position>,
    done: &AtomicU64,
    progress: &(dyn Fn(u64) + Sync),
) -> Tally {
    let end = games.end;
    let mut out = Tally::new(game.def().nplayers(), game.def().cards.len());
    let mut since = 0;
    for i in games {
        let seed = game_seed(cfg.seed, i);
        let r = play_one_from(game, start, seed, &cfg.bots, cfg.max_decisions);
        out.add(i, &r);
        since += 1;
        if since == 64 || i + 1 == end {
            progress(done.fetch_add(since, Ordering::Relaxed) + since);
            since = 0;
        }
    }
    if let Some(report) = MEMO_REPORT.get()
        && let Some(m) = game.memo_stats()
    {
        report(&m);
    }
    out
}

/// Where each worker's memo figures go at the end of its share of a run
/// (the binary: stderr, with `TABULA_MEMO_STATS` set).
static MEMO_REPORT: std::sync::OnceLock<fn(&crate::core::MemoStats)> = std::sync::OnceLock::new();

/// Have `report` given each worker's memo figures (its thread's memo)
/// when it ends its share of a run. Set once per process.
pub fn report_memo(report: fn(&crate::core::MemoStats)) {
    let _ = MEMO_REPORT.set(report);
}
