//! A solve over many setups split across machines (`solve --shard K/N`):
//! each share solves every N-th setup exactly and keeps each one's worth
//! and chance; `merge` adds the shares up into the whole run's answer,
//! as `sim --shard` and `tabula merge` do for games.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{Header, Limits, OnProgress, Solution, Table, Worth, solve_into};
use crate::analysis::shard::Shard;
use crate::core::State;
use crate::error::{Error, Refusal, Result};
use crate::game::Game;

/// One setup's exact worth, with its chance and its place in the list.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SetupWorth {
    pub setup: usize,
    pub chance: f64,
    pub worth: Worth,
}

/// A share of a solve: what `solve --shard K/N --json` prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SolvePart {
    /// Which share (its presence marks the JSON as a solve's share).
    pub solve_shard: Shard,
    #[serde(flatten)]
    pub head: Header,
    /// The rules files' fingerprint: shares of edited rules do not add up.
    pub rules: u64,
    /// Setups of the whole run.
    pub setups: usize,
    pub parts: Vec<SetupWorth>,
    pub states: usize,
    pub seconds: f64,
}

/// Solve `shard`'s setups of `roots` (every N-th, from the K-th), each
/// exactly, in one table while it holds under a quarter of the budget.
pub fn solve_shard(
    game: &Game,
    roots: &[(f64, State)],
    shard: Shard,
    jobs: usize,
    limits: Limits,
    progress: OnProgress,
    on_setup: OnProgress,
) -> Result<SolvePart> {
    let started = Instant::now();
    let table = Table::default();
    let mut parts = Vec::new();
    let mut states = 0;
    let mine = roots.iter().enumerate().filter(|(i, _)| shard.takes(*i));
    for (done, (i, (p, root))) in mine.enumerate() {
        on_setup(done + 1);
        if table.len() > limits.max_states / 4 {
            table.clear();
        }
        let before = table.len();
        let so_far = states;
        let s = solve_into(game, root, jobs, limits, &|n| progress(so_far + n), &table)?;
        states += s.states - before;
        parts.push(SetupWorth {
            setup: i,
            chance: *p,
            worth: s.worth,
        });
    }
    Ok(SolvePart {
        solve_shard: shard,
        head: Header::of(game),
        rules: game.fingerprint(),
        setups: roots.len(),
        parts,
        states,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The whole run's solution from all its shares, each once, in any order:
/// the chance-weighted worth over every setup and how much the setup
/// decides (`setup_spread`). Shares of another run are refused with what
/// differs.
pub fn merge(parts: &[SolvePart]) -> Result<Solution> {
    let Some(first) = parts.first() else {
        return Err(Error::usage("merge: no shares given"));
    };
    let n = first.solve_shard.n;
    let mut seen = vec![false; usize::try_from(n).unwrap_or(usize::MAX).min(1 << 20)];
    for p in parts {
        let differs = if p.solve_shard.n != n {
            Some(format!("split into {} shares, not {n}", p.solve_shard.n))
        } else if p.head != first.head {
            Some("another game, variant or parameters".to_string())
        } else if p.rules != first.rules {
            Some("its rules files differ (edited between the runs)".to_string())
        } else if p.setups != first.setups {
            Some(format!("{} setups in all, not {}", p.setups, first.setups))
        } else {
            None
        };
        let k = p.solve_shard.k;
        if let Some(why) = differs {
            return Err(Error::usage(format!(
                "merge: share {k}/{} is not of the same solve as share {}/{n}: {why}",
                p.solve_shard.n, first.solve_shard.k
            )));
        }
        let want = (0..p.setups).filter(|&i| p.solve_shard.takes(i));
        if !want.eq(p.parts.iter().map(|s| s.setup)) {
            return Err(Error::usage(format!(
                "merge: share {k}/{n} does not hold its setups (edited, or cut short)"
            )));
        }
        match seen.get_mut((k as usize).wrapping_sub(1)) {
            Some(s) if !*s => *s = true,
            _ => return Err(Error::usage(format!("merge: share {k}/{n} is given twice"))),
        }
    }
    if let Some(i) = seen.iter().position(|s| !s) {
        return Err(Error::usage(format!(
            "merge: share {}/{n} is missing",
            i + 1
        )));
    }
    let mut all: Vec<SetupWorth> = parts.iter().flat_map(|p| p.parts.iter().copied()).collect();
    // In the order of the whole run, so that the sums are the same.
    all.sort_by_key(|s| s.setup);
    if all.is_empty() {
        return Err(cannot_merge("its setups make no position"));
    }
    let worth = Worth::mix(all.iter().map(|s| (s.chance, s.worth)));
    let spread = all
        .iter()
        .map(|s| s.chance * (s.worth.value - worth.value).powi(2))
        .sum::<f64>()
        .sqrt();
    Ok(Solution {
        head: first.head.clone(),
        worth,
        first_decision: String::new(),
        strategies: Vec::new(),
        matrix: None,
        states: parts.iter().map(|p| p.states).sum(),
        setups: first.setups,
        setup_spread: spread,
        seconds: parts.iter().map(|p| p.seconds).sum(),
        threads: 1,
    })
}

fn cannot_merge(why: &str) -> Error {
    Error::refused(Refusal::Other, format!("merge: {why}"))
}
