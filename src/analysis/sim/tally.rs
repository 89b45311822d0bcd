//! A run's games added up.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Record;
use crate::core::Outcome;

/// A run's games added up: what the report needs, in memory that does not
/// grow with the number of games (lengths as histograms), and the same in
/// whatever order chunks are added, so independent of `--jobs`.
/// Serialized in a shard's JSON, so that `tabula merge` adds shards up.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
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
    /// Wins by the winner's place in the turn order at the end (0: first).
    pub place_wins: Vec<u64>,
    /// Games whose turn order at the end was not seat order.
    pub reordered: u64,
}

/// Errors kept in a tally.
const KEPT_ERRORS: usize = 5;

impl Tally {
    pub fn new(players: usize, cards: usize) -> Tally {
        Tally {
            wins: vec![0; players],
            place_wins: vec![0; players],
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
            Some(Outcome::Win(p)) => {
                self.wins[p] += 1;
                self.place_wins[r.winner_place.unwrap_or(p)] += 1;
            }
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
        self.reordered += u64::from(r.reordered);
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
        add(&mut self.place_wins, o.place_wins);
        self.reordered += o.reordered;
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

#[cfg(test)]
mod tests {
    use super::*;

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
            // Seat 1 moved first in the even-length games.
            winner_place: match outcome {
                Some(Outcome::Win(p)) => Some(if turns % 2 == 0 { 1 - p } else { p }),
                _ => None,
            },
            reordered: turns % 2 == 0,
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
        // Both winners moved first; the one game in turn order 1, 0.
        assert_eq!((a.place_wins.clone(), a.reordered), (vec![2, 0], 1));
        assert_eq!(a.errors[0], (1, "late".to_string()));
    }
}
