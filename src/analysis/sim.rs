//! Batch simulation: many seeded games between bots, on all cores, and the
//! balance figures a designer reads (win rates with confidence intervals,
//! draws, lengths, seat advantage, per-card figures).
//!
//! Game `i` is seeded from (seed, i) and its bots from the game's seed, so
//! the results are the same for any number of threads.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use serde::Serialize;

use crate::analysis::bot;
use crate::analysis::bot::bot_seed;
use crate::core::{Choice, Outcome, State};
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
}

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
}

/// A run's games added up: what the report needs, in memory that does not
/// grow with the number of games (lengths as histograms), and the same in
/// whatever order chunks are added, so independent of `--jobs`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tally {
    pub games: u64,
    pub wins: Vec<u64>,
    pub draws: u64,
    pub unfinished: u64,
    /// Games with a rules error (one that stopped is not unfinished).
    pub failed: u64,
    /// The first few errors, by game number.
    pub errors: Vec<(u64, String)>,
    /// Game lengths: length -> number of games.
    pub turns: BTreeMap<u32, u64>,
    pub decisions: BTreeMap<u32, u64>,
    /// Per seat, the sum and the sum of squares of its returns (games that
    /// ended, in a game with a payoff stat).
    pub payoff_sum: Vec<i128>,
    pub payoff_squares: Vec<i128>,
    /// Per card: times chosen, and times its chooser won the game.
    pub played: Vec<u64>,
    pub played_won: Vec<u64>,
    /// How games that ended ended: reason -> games ("" when the script
    /// gave none).
    pub reasons: BTreeMap<String, u64>,
}

/// Errors kept in a tally.
const KEPT_ERRORS: usize = 5;

impl Tally {
    pub fn new(players: usize, cards: usize) -> Tally {
        Tally {
            wins: vec![0; players],
            payoff_sum: vec![0; players],
            payoff_squares: vec![0; players],
            played: vec![0; cards],
            played_won: vec![0; cards],
            ..Tally::default()
        }
    }

    /// Add game number `i`.
    pub fn add(&mut self, i: u64, r: &Record) {
        self.games += 1;
        match r.outcome {
            Some(Outcome::Win(p)) => self.wins[p] += 1,
            Some(Outcome::Draw) => self.draws += 1,
            None if r.error.is_some() => {}
            None => self.unfinished += 1,
        }
        self.failed += u64::from(r.error.is_some());
        if let Some(e) = &r.error
            && self.errors.len() < KEPT_ERRORS
        {
            self.errors.push((i, e.clone()));
        }
        if let Some(r) = &r.payoff {
            for (p, &x) in r.iter().enumerate() {
                self.payoff_sum[p] += i128::from(x);
                self.payoff_squares[p] += i128::from(x) * i128::from(x);
            }
        }
        if r.outcome.is_some() {
            // A new key (an allocation) only for a reason not seen before.
            let why = r.reason.as_deref().unwrap_or_default();
            match self.reasons.get_mut(why) {
                Some(n) => *n += 1,
                None => {
                    self.reasons.insert(why.to_string(), 1);
                }
            }
        }
        *self.turns.entry(r.turns).or_default() += 1;
        *self.decisions.entry(r.decisions).or_default() += 1;
        for &(p, c) in &r.plays {
            self.played[c as usize] += 1;
            if r.outcome == Some(Outcome::Win(p)) {
                self.played_won[c as usize] += 1;
            }
        }
    }

    pub fn merge(&mut self, o: Tally) {
        fn add(a: &mut [u64], b: Vec<u64>) {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
        fn add_hist(a: &mut BTreeMap<u32, u64>, b: BTreeMap<u32, u64>) {
            b.into_iter()
                .for_each(|(k, n)| *a.entry(k).or_default() += n);
        }
        self.games += o.games;
        self.draws += o.draws;
        self.unfinished += o.unfinished;
        self.failed += o.failed;
        add(&mut self.wins, o.wins);
        for (a, b) in [
            (&mut self.payoff_sum, o.payoff_sum),
            (&mut self.payoff_squares, o.payoff_squares),
        ] {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
        add(&mut self.played, o.played);
        add(&mut self.played_won, o.played_won);
        add_hist(&mut self.turns, o.turns);
        add_hist(&mut self.decisions, o.decisions);
        for (k, n) in o.reasons {
            *self.reasons.entry(k).or_default() += n;
        }
        self.errors.extend(o.errors);
        self.errors.sort_by_key(|(i, _)| *i);
        self.errors.truncate(KEPT_ERRORS);
    }
}

/// The seed of game `i` of a run.
pub fn game_seed(seed: u64, i: u64) -> u64 {
    bot_seed(seed, i as usize, usize::MAX >> 8)
}

/// Play one game between bots, quietly.
pub fn play_one(game: &Game, seed: u64, bots: &[String], max_decisions: u32) -> Record {
    let mut rec = Record {
        outcome: None,
        turns: 0,
        decisions: 0,
        plays: Vec::new(),
        error: None,
        payoff: None,
        reason: None,
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
    let mut state = match State::new_quiet(game, seed) {
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
    rec.outcome = state.outcome();
    rec.payoff = state.payoff(game);
    rec.reason = state.end_reason().cloned();
    rec.turns = state.turn();
    rec
}

/// Run a simulation: `cfg.games` games of `game` on `cfg.jobs` threads,
/// all sharing the game (each thread's hooks keep their own memo for the
/// whole run). `progress` is told of finished games.
pub fn run(game: &Game, cfg: &SimConfig, progress: &(dyn Fn(u64) + Sync)) -> Result<Tally> {
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
    let chunk = (cfg.games / (cfg.jobs.max(1) as u64 * 8)).clamp(1, 5_000);
    let done = AtomicU64::new(0);
    Ok(pool.install(|| {
        (0..cfg.games.div_ceil(chunk))
            .into_par_iter()
            .map(|k| play_chunk(game, k * chunk, chunk, cfg, &done, progress))
            .reduce(empty, |mut a, b| {
                a.merge(b);
                a
            })
    }))
}

fn play_chunk(
    game: &Game,
    start: u64,
    chunk: u64,
    cfg: &SimConfig,
    done: &AtomicU64,
    progress: &(dyn Fn(u64) + Sync),
) -> Tally {
    let end = (start + chunk).min(cfg.games);
    let mut out = Tally::new(game.def().nplayers(), game.def().cards.len());
    let mut since = 0;
    for i in start..end {
        let r = play_one(game, game_seed(cfg.seed, i), &cfg.bots, cfg.max_decisions);
        out.add(i, &r);
        since += 1;
        if since == 64 || i + 1 == end {
            progress(done.fetch_add(since, Ordering::Relaxed) + since);
            since = 0;
        }
    }
    if std::env::var_os("TABULA_MEMO_STATS").is_some()
        && let Some(m) = game.memo_stats()
    {
        eprintln!(
            "memo: {} replays, {} script runs, {} nodes {:?}",
            m.hits, m.misses, m.nodes, m.runs
        );
    }
    out
}

/// A proportion with its 95% Wilson score interval, in percent.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Rate {
    pub count: u64,
    pub percent: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    pub fn new(count: u64, n: u64) -> Rate {
        if n == 0 {
            return Rate {
                count,
                percent: 0.0,
                low: 0.0,
                high: 0.0,
            };
        }
        let (k, n) = (count as f64, n as f64);
        let p = k / n;
        let z = 1.959_964;
        let denom = 1.0 + z * z / n;
        let centre = (p + z * z / (2.0 * n)) / denom;
        let half = z * ((p * (1.0 - p) / n) + z * z / (4.0 * n * n)).sqrt() / denom;
        Rate {
            count,
            percent: 100.0 * p,
            low: 100.0 * (centre - half).max(0.0),
            high: 100.0 * (centre + half).min(1.0),
        }
    }
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Length {
    pub mean: f64,
    pub median: u32,
    pub p95: u32,
}

impl Length {
    /// From a histogram (length -> games): the mean, and the values at
    /// the sorted positions round((n-1)q).
    fn of(hist: &BTreeMap<u32, u64>) -> Length {
        let n: u64 = hist.values().sum();
        if n == 0 {
            return Length {
                mean: 0.0,
                median: 0,
                p95: 0,
            };
        }
        let mean = hist.iter().map(|(&x, &k)| x as f64 * k as f64).sum::<f64>() / n as f64;
        let at = |q: f64| {
            let i = ((n - 1) as f64 * q).round() as u64;
            let mut seen = 0;
            for (&x, &k) in hist {
                seen += k;
                if seen > i {
                    return x;
                }
            }
            0
        };
        Length {
            mean,
            median: at(0.5),
            p95: at(0.95),
        }
    }
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CardFigures {
    pub card: String,
    /// Times chosen, by anyone.
    pub played: u64,
    /// Of those plays, how often the player who made it won the game.
    pub won_game: Rate,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SeatFigures {
    pub player: String,
    pub bot: String,
    pub wins: Rate,
    /// The mean return and its 95% CI half-width, with a payoff stat.
    pub payoff: Option<(f64, f64)>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Ending {
    /// The reason the script gave ("" for none), or "turn limit".
    pub reason: String,
    /// Its share of all games.
    pub share: Rate,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub game: String,
    pub variants: Vec<String>,
    pub params: Vec<(String, crate::definition::format::ParamValue)>,
    pub games: u64,
    pub seed: u64,
    pub seats: Vec<SeatFigures>,
    pub draws: Rate,
    pub unfinished: u64,
    /// Games a rules error stopped; the first few errors.
    pub failed: u64,
    pub errors: Vec<String>,
    pub turns: Length,
    pub decisions: Length,
    /// First seat's win rate minus the second's, in points, with a 95% CI.
    pub first_seat_advantage: Option<(f64, f64)>,
    /// How the games that ended ended, most frequent first.
    pub end_reasons: Vec<Ending>,
    pub cards: Vec<CardFigures>,
}

/// A seat's mean return over the games that ended, with a 95% CI.
fn mean_ci(t: &Tally, p: usize) -> Option<(f64, f64)> {
    let n = (t.games - t.unfinished - t.failed) as f64;
    if n < 1.0 {
        return None;
    }
    let mean = t.payoff_sum[p] as f64 / n;
    let var = (t.payoff_squares[p] as f64 / n - mean * mean).max(0.0);
    Some((mean, 1.959_964 * (var / n).sqrt()))
}

pub fn report(game: &Game, cfg: &SimConfig, t: &Tally) -> Report {
    let def = game.def();
    let (n, wins, played) = (t.games, &t.wins, &t.played);
    let seats: Vec<SeatFigures> = def
        .players
        .iter()
        .enumerate()
        .map(|(p, pl)| SeatFigures {
            player: pl.id.clone(),
            bot: cfg.bots[p].clone(),
            wins: Rate::new(wins[p], n),
            payoff: def.payoff.and(mean_ci(t, p)),
        })
        .collect();
    // Difference of two proportions from one multinomial sample.
    let first_seat_advantage = (def.nplayers() >= 2 && n > 0).then(|| {
        let (a, b) = (wins[0] as f64 / n as f64, wins[1] as f64 / n as f64);
        let var = (a + b - (a - b) * (a - b)) / n as f64;
        (100.0 * (a - b), 100.0 * 1.959_964 * var.sqrt())
    });
    let cards = def
        .cards
        .iter()
        .enumerate()
        .filter(|(c, _)| played[*c] > 0)
        .map(|(c, card)| CardFigures {
            card: card.id.clone(),
            played: played[c],
            won_game: Rate::new(t.played_won[c], played[c]),
        })
        .collect();
    Report {
        game: def.id.clone(),
        variants: def.applied.clone(),
        params: def.sets.clone(),
        games: n,
        seed: cfg.seed,
        seats,
        draws: Rate::new(t.draws, n),
        unfinished: t.unfinished,
        failed: t.failed,
        errors: t
            .errors
            .iter()
            .map(|(i, e)| format!("game {i}: {e}"))
            .collect(),
        turns: Length::of(&t.turns),
        decisions: Length::of(&t.decisions),
        first_seat_advantage,
        end_reasons: {
            let mut r: Vec<Ending> = (t.reasons.iter())
                .map(|(k, &c)| Ending {
                    reason: k.clone(),
                    share: Rate::new(c, n),
                })
                .collect();
            r.sort_by(|a, b| {
                (b.share.count.cmp(&a.share.count)).then_with(|| a.reason.cmp(&b.reason))
            });
            r
        },
        cards,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_from_a_histogram_match_the_sorted_list() {
        // The value at sorted position round((n-1)q), as from a sorted list.
        let lists: [&[u32]; 4] = [
            &[7],
            &[3, 1, 2],
            &[5, 5, 9, 1, 1, 1, 30, 2],
            &[4, 8, 8, 8, 2, 6],
        ];
        for xs in lists {
            let mut sorted = xs.to_vec();
            sorted.sort_unstable();
            let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
            let mut hist = BTreeMap::new();
            for &x in xs {
                *hist.entry(x).or_insert(0u64) += 1;
            }
            let l = Length::of(&hist);
            assert_eq!((l.median, l.p95), (at(0.5), at(0.95)), "{xs:?}");
            let mean = xs.iter().map(|&x| f64::from(x)).sum::<f64>() / xs.len() as f64;
            assert!((l.mean - mean).abs() < 1e-9);
        }
    }

    #[test]
    fn tallies_merge_the_same_in_any_order() {
        let rec = |turns, outcome, err: Option<&str>| Record {
            outcome,
            turns,
            decisions: 2 * turns,
            plays: vec![(0, 1), (1, 0)],
            error: err.map(String::from),
            payoff: outcome.map(|_| vec![i64::from(turns), -i64::from(turns)]),
            reason: outcome.map(|_| format!("after {}", turns % 2).into()),
        };
        let games = [
            rec(3, Some(Outcome::Win(0)), None),
            rec(5, Some(Outcome::Draw), Some("late")),
            rec(4, Some(Outcome::Win(1)), None),
            rec(9, None, Some("early")),
        ];
        let tally = |range: std::ops::Range<usize>| {
            let mut t = Tally::new(2, 2);
            for i in range {
                t.add(i as u64, &games[i]);
            }
            t
        };
        let mut a = tally(0..2);
        a.merge(tally(2..4));
        let mut b = tally(2..4);
        b.merge(tally(0..2));
        assert_eq!(a, b);
        assert_eq!(a.wins, vec![1, 1]);
        assert_eq!((a.draws, a.unfinished, a.failed, a.games), (1, 0, 2, 4));
        assert_eq!(a.played_won, vec![1, 1]);
        assert_eq!(a.errors[0], (1, "late".to_string()));
    }
}
