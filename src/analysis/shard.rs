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
