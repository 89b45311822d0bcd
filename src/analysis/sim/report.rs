//! The balance figures a designer reads, from a tally.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Shard, SimConfig, Tally};
use crate::definition::format::ParamValue;
use crate::game::Game;

/// A proportion with its 95% Wilson score interval, in percent.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
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

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
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

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CardFigures {
    pub card: String,
    /// Times chosen, by anyone.
    pub played: u64,
    /// Of those plays, how often the player who made it won the game.
    pub won_game: Rate,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SeatFigures {
    pub player: String,
    pub bot: String,
    pub wins: Rate,
    /// The mean return and its 95% CI half-width, with a payoff stat.
    pub payoff: Option<(f64, f64)>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Ending {
    /// The reason the script gave ("" for none), or "turn limit".
    pub reason: String,
    /// Its share of all games.
    pub share: Rate,
}

/// What a run was, apart from its games: enough to build its report
/// without the game (`tabula merge` on another machine).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RunInfo {
    pub game: String,
    pub variants: Vec<String>,
    pub params: Vec<(String, ParamValue)>,
    pub seed: u64,
    /// Bot kind per seat.
    pub bots: Vec<String>,
    pub players: Vec<String>,
    /// Every card's id, by index (the tally counts by index).
    pub cards: Vec<String>,
    /// Whether the game declares a payoff stat.
    pub payoff: bool,
    pub max_decisions: u32,
    /// The rules files' fingerprint (`Game::fingerprint`), as hex.
    pub rules: String,
}

impl RunInfo {
    pub fn of(game: &Game, cfg: &SimConfig) -> RunInfo {
        let def = game.def();
        RunInfo {
            game: def.id.clone(),
            variants: def.applied.clone(),
            params: def.sets.clone(),
            seed: cfg.seed,
            bots: cfg.bots.clone(),
            players: def.players.iter().map(|p| p.id.clone()).collect(),
            cards: def.cards.iter().map(|c| c.id.clone()).collect(),
            payoff: def.payoff.is_some(),
            max_decisions: cfg.max_decisions,
            rules: format!("{:016x}", game.fingerprint()),
        }
    }
}

/// One shard of a run split across machines (`--shard K/N`): what
/// `tabula merge` needs to add the shards up into the whole run's report.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Part {
    pub shard: Shard,
    /// Games in the whole run (this shard plays its share of them).
    pub total_games: u64,
    pub run: RunInfo,
    pub tally: Tally,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Report {
    pub game: String,
    pub variants: Vec<String>,
    pub params: Vec<(String, ParamValue)>,
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
    /// The distribution of lengths: (turns, games), shortest first.
    pub turn_counts: Vec<(u32, u64)>,
    /// First seat's win rate minus the second's, in points, with a 95% CI.
    pub first_seat_advantage: Option<(f64, f64)>,
    /// Where the turn order is not always seat order (drawn, or set by
    /// the rules): wins by place in the turn order at the end of the
    /// game, first place first, and the first place's advantage over the
    /// second as for seats.
    pub places: Option<Vec<Rate>>,
    pub first_place_advantage: Option<(f64, f64)>,
    /// How the games that ended ended, most frequent first.
    pub end_reasons: Vec<Ending>,
    pub cards: Vec<CardFigures>,
    /// When games are decided (`sim --decided`), on the run's first games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided: Option<super::decided::Decided>,
    /// A shard's tally, for `tabula merge` (only with `--shard`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<Part>,
}

/// A column's name: variants joined by `+`, or `base` for none.
pub fn column_label(variants: &[String]) -> String {
    if variants.is_empty() {
        "base".into()
    } else {
        variants.join("+")
    }
}

impl Report {
    /// Its column's name (`column_label` of its variants).
    pub fn label(&self) -> String {
        column_label(&self.variants)
    }
}

/// A seat's mean return over the games that ended, with a 95% CI.
fn mean_ci(t: &Tally, p: usize) -> Option<(f64, f64)> {
    let n = t
        .games
        .saturating_sub(t.unfinished.saturating_add(t.failed)) as f64;
    if n < 1.0 {
        return None;
    }
    let mean = t.payoff_sum[p] as f64 / n;
    let var = (t.payoff_squares(p) / n - mean * mean).max(0.0);
    Some((mean, 1.959_964 * (var / n).sqrt()))
}

/// The difference of the first two shares of one multinomial sample, in
/// points, with its 95% CI half-width.
fn advantage(wins: &[u64], n: u64) -> Option<(f64, f64)> {
    (wins.len() >= 2 && n > 0).then(|| {
        let (a, b) = (wins[0] as f64 / n as f64, wins[1] as f64 / n as f64);
        let var = (a + b - (a - b) * (a - b)) / n as f64;
        (100.0 * (a - b), 100.0 * 1.959_964 * var.sqrt())
    })
}

/// A run's report from its game and tally.
pub fn report(game: &Game, cfg: &SimConfig, t: &Tally) -> Report {
    report_of(&RunInfo::of(game, cfg), t)
}

/// A run's report from what the run was and its tally.
pub fn report_of(info: &RunInfo, t: &Tally) -> Report {
    let (n, wins, played) = (t.games, &t.wins, &t.played);
    let seats: Vec<SeatFigures> = (info.players.iter().enumerate())
        .map(|(p, player)| SeatFigures {
            player: player.clone(),
            bot: info.bots[p].clone(),
            wins: Rate::new(wins[p], n),
            payoff: if info.payoff { mean_ci(t, p) } else { None },
        })
        .collect();
    let reordered = t.reordered > 0;
    let cards = (info.cards.iter().enumerate())
        .filter(|(c, _)| played[*c] > 0)
        .map(|(c, card)| CardFigures {
            card: card.clone(),
            played: played[c],
            won_game: Rate::new(t.played_won[c], played[c]),
        })
        .collect();
    let mut end_reasons: Vec<Ending> = (t.reasons.iter())
        .map(|(k, &c)| Ending {
            reason: k.clone(),
            share: Rate::new(c, n),
        })
        .collect();
    end_reasons
        .sort_by(|a, b| (b.share.count.cmp(&a.share.count)).then_with(|| a.reason.cmp(&b.reason)));
    Report {
        game: info.game.clone(),
        variants: info.variants.clone(),
        params: info.params.clone(),
        games: n,
        seed: info.seed,
        seats,
        draws: Rate::new(t.draws, n),
        unfinished: t.unfinished,
        failed: t.failed,
        errors: (t.errors.iter())
            .map(|(i, e)| format!("game {i}: {e}"))
            .collect(),
        turns: Length::of(&t.turns),
        decisions: Length::of(&t.decisions),
        turn_counts: t.turns.iter().map(|(&k, &n)| (k, n)).collect(),
        first_seat_advantage: advantage(wins, n),
        places: reordered.then(|| t.place_wins.iter().map(|&w| Rate::new(w, n)).collect()),
        first_place_advantage: advantage(&t.place_wins, n).filter(|_| reordered),
        end_reasons,
        cards,
        decided: None,
        part: None,
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
}
