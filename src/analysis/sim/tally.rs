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
    /// ended, in a game with a payoff stat). The sum of squares is `[high,
    /// low]`, worth high * 2^64 + low, each part a sum of that part of each
    /// square: exact and in any order, and neither part can wrap in fewer
    /// than 2^64 games (one i128 did after 8 returns of i64::MAX / 2).
    pub payoff_sum: Vec<i128>,
    pub payoff_squares: Vec<[u128; 2]>,
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
pub(super) const KEPT_ERRORS: usize = 5;

impl Tally {
    pub fn new(players: usize, cards: usize) -> Tally {
        Tally {
            wins: vec![0; players],
            place_wins: vec![0; players],
            payoff_sum: vec![0; players],
            payoff_squares: vec![[0; 2]; players],
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
                let square = u128::from(x.unsigned_abs()).pow(2);
                let s = &mut self.payoff_squares[p];
                s[0] += square >> 64;
                s[1] += square & u128::from(u64::MAX);
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

    /// Add another tally of the same game. None if a sum passes its
    /// integer's range, which only an edited shard can make (`self` is then
    /// partly added).
    pub fn merge(&mut self, o: Tally) -> Option<()> {
        fn add(a: &mut u64, b: u64) -> Option<()> {
            *a = a.checked_add(b)?;
            Some(())
        }
        fn add_all(a: &mut [u64], b: Vec<u64>) -> Option<()> {
            a.iter_mut().zip(b).try_for_each(|(x, y)| add(x, y))
        }
        fn add_hist<K: Ord>(a: &mut BTreeMap<K, u64>, b: BTreeMap<K, u64>) -> Option<()> {
            b.into_iter()
                .try_for_each(|(k, n)| add(a.entry(k).or_default(), n))
        }
        add(&mut self.games, o.games)?;
        add(&mut self.draws, o.draws)?;
        add(&mut self.unfinished, o.unfinished)?;
        add(&mut self.failed, o.failed)?;
        add_all(&mut self.wins, o.wins)?;
        add_all(&mut self.place_wins, o.place_wins)?;
        add(&mut self.reordered, o.reordered)?;
        for (x, y) in self.payoff_sum.iter_mut().zip(o.payoff_sum) {
            *x = x.checked_add(y)?;
        }
        for (x, y) in self.payoff_squares.iter_mut().zip(o.payoff_squares) {
            *x = [x[0].checked_add(y[0])?, x[1].checked_add(y[1])?];
        }
        add_all(&mut self.played, o.played)?;
        add_all(&mut self.played_won, o.played_won)?;
        add_hist(&mut self.turns, o.turns)?;
        add_hist(&mut self.decisions, o.decisions)?;
        add_hist(&mut self.reasons, o.reasons)?;
        self.errors.extend(o.errors);
        self.errors.sort_by_key(|(i, _)| *i);
        self.errors.truncate(KEPT_ERRORS);
        Some(())
    }

    /// The sum of a seat's squared returns.
    pub fn payoff_squares(&self, p: usize) -> f64 {
        let [high, low] = self.payoff_squares[p];
        high as f64 * 2f64.powi(64) + low as f64
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
        assert!(a.merge(tally(2..4)).is_some());
        let mut b = tally(2..4);
        assert!(b.merge(tally(0..2)).is_some());
        assert_eq!(a, b);
        assert_eq!(a.wins, vec![1, 1]);
        assert_eq!((a.draws, a.unfinished, a.failed, a.games), (1, 0, 2, 4));
        assert_eq!(a.played_won, vec![1, 1]);
        // Both winners moved first; the one game in turn order 1, 0.
        assert_eq!((a.place_wins.clone(), a.reordered), (vec![2, 0], 1));
        assert_eq!(a.errors[0], (1, "late".to_string()));
    }
}
