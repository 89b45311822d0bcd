//! A share of a run split across machines (`--shard K/N`): which games of
//! a sim, which setups of a solve.

use std::ops::Range;

use serde::{Deserialize, Serialize};

/// The K-th of N shares of a run (1-based, as `--shard K/N`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

impl Shard {
    /// `K/N` with 1 <= K <= N.
    pub fn parse(s: &str) -> std::result::Result<Shard, String> {
        let bad = || format!("`{s}`: expected K/N with 1 <= K <= N, e.g. 3/8");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }

    /// Game numbers of this share of `games` games: consecutive ranges
    /// that cover them all, sizes differing by at most one.
    pub fn range(self, games: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(games) * u128::from(k) / u128::from(self.n)) as u64;
        at(self.k - 1)..at(self.k)
    }
}

impl Shard {
    /// Whether item `i` (from 0) of a list is this share's: every N-th,
    /// from the K-th, so that shares of a list ordered by size are alike.
    pub fn takes(self, i: usize) -> bool {
        i as u64 % self.n == self.k - 1
    }
}

/// Shares a run may be split into (a merge keeps one flag per share).
pub const MAX_SHARES: u64 = 1 << 20;

/// A merge's roll call of shares: how each is named in a refusal (by its
/// file when one is given), that each of the N is given once and none is
/// missing. `word` is what a share is called ("shard" of a sim, "share" of
/// a solve).
pub struct Roll<'a> {
    word: &'static str,
    files: &'a [String],
    n: u64,
    seen: Vec<bool>,
}

impl<'a> Roll<'a> {
    /// The roll of the run `first` (the first share given) is a share of;
    /// what is wrong when no run splits so (edited).
    pub fn new(word: &'static str, first: Shard, files: &'a [String]) -> Result<Roll<'a>, String> {
        let roll = Roll {
            word,
            files,
            n: first.n,
            seen: Vec::new(),
        };
        if !(1..=MAX_SHARES).contains(&first.n) {
            return Err(format!(
                "{}: split into {} {word}s (edited?): from 1 to {MAX_SHARES}",
                roll.name(0, first),
                first.n
            ));
        }
        Ok(Roll {
            seen: vec![false; first.n as usize],
            ..roll
        })
    }

    /// Share `s`, the `i`-th given, as a refusal names it.
    pub fn name(&self, i: usize, s: Shard) -> String {
        let w = self.word;
        match self.files.get(i) {
            Some(f) => format!("{f} ({w} {}/{})", s.k, s.n),
            None => format!("{w} {}/{}", s.k, s.n),
        }
    }

    /// Marks share `s` (the `i`-th given) as given; what is wrong if it
    /// was given before or is no share of this roll.
    pub fn take(&mut self, i: usize, s: Shard) -> Result<(), String> {
        let (w, n) = (self.word, self.n);
        if s.n != n {
            return Err(format!(
                "{}: split into {} {w}s, not {n}",
                self.name(i, s),
                s.n
            ));
        }
        match self.seen.get_mut((s.k as usize).wrapping_sub(1)) {
            Some(seen) if !*seen => {
                *seen = true;
                Ok(())
            }
            Some(_) => Err(format!("{} is given twice", self.name(i, s))),
            None => Err(format!(
                "{}: numbered {} of {n} (edited?): {w}s run from 1 to {n}",
                self.name(i, s),
                s.k
            )),
        }
    }

    /// What is missing once every share given was taken.
    pub fn missing(&self) -> Option<String> {
        let gone: Vec<String> = (self.seen.iter().enumerate())
            .filter(|(_, s)| !**s)
            .map(|(i, _)| (i + 1).to_string())
            .collect();
        let (w, n) = (self.word, self.n);
        match gone.len() {
            0 => None,
            1 => Some(format!("{w} {}/{n} is missing", gone[0])),
            k if k > 10 => Some(format!(
                "{k} {w}s of {n} are missing: {}, ...",
                gone[..10].join(", ")
            )),
            _ => Some(format!("{w}s {} of {n} are missing", gone.join(", "))),
        }
    }
}
