//! A solve over many setups split across machines (`solve --shard K/N`):
//! each share solves every N-th setup exactly and keeps each one's worth
//! and chance; `merge` adds the shares up into the whole run's answer,
//! as `sim --shard` and `tabula merge` do for games.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{Header, Limits, OnProgress, Solution, Worth, solve_each};
use crate::analysis::shard::{Roll, Shard};
use crate::core::State;
use crate::error::{Error, Result};
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
    /// Setups of the whole run, and a fingerprint of them (their positions
    /// and chances: another `--seed` or `--deals` makes others).
    pub setups: usize,
    pub setups_key: u64,
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
    let mut parts = Vec::new();
    let mine = roots.iter().enumerate().filter(|(i, _)| shard.takes(*i));
    let told: super::OnEstimate = &|_| {};
    let watch = (progress, on_setup, told);
    let states = solve_each(game, mine, jobs, limits, watch, |i, p, s| {
        parts.push(SetupWorth {
            setup: i,
            chance: p,
            worth: s.worth,
        });
    })?;
    Ok(SolvePart {
        solve_shard: shard,
        head: Header::of(game),
        rules: game.fingerprint(),
        setups: roots.len(),
        setups_key: setups_key(game, roots),
        parts,
        states,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// A fingerprint of a list of setups.
fn setups_key(game: &Game, roots: &[(f64, State)]) -> u64 {
    let parts: Vec<u64> = roots
        .iter()
        .flat_map(|(p, st)| {
            let k = st.key(game);
            [p.to_bits(), k as u64, (k >> 64) as u64]
        })
        .collect();
    crate::analysis::tree::mix(&parts)
}

/// The whole run's solution from all its shares, each once, in any order:
/// the chance-weighted worth over every setup and how much the setup
/// decides (`setup_spread`). Shares of another run are refused with what
/// differs, and so is a share whose figures cannot be (edited).
pub fn merge(parts: &[SolvePart]) -> Result<Solution> {
    merge_files(parts, &[])
}

/// As `merge`, each share named also by its file (`files[i]` for
/// `parts[i]`) in what is refused.
pub fn merge_files(parts: &[SolvePart], files: &[String]) -> Result<Solution> {
    let Some(first) = parts.first() else {
        return Err(Error::usage("merge: no shares given"));
    };
    let refuse = |why: String| Error::usage(format!("merge: {why}"));
    let mut roll = Roll::new("share", first.solve_shard, files).map_err(refuse)?;
    for (i, p) in parts.iter().enumerate() {
        roll.take(i, p.solve_shard).map_err(refuse)?;
        let name = roll.name(i, p.solve_shard);
        let differs = if p.head != first.head {
            Some("another game, variant or parameters".to_string())
        } else if p.rules != first.rules {
            Some("its rules files differ (edited between the runs)".to_string())
        } else if p.setups != first.setups {
            Some(format!("{} setups in all, not {}", p.setups, first.setups))
        } else if p.setups_key != first.setups_key {
            Some("other setups (another seed, or another number of sampled deals)".to_string())
        } else {
            None
        };
        if let Some(why) = differs {
            let at = roll.name(0, first.solve_shard);
            return Err(refuse(format!(
                "{name} is not of the same solve as {at}: {why}"
            )));
        }
        let want = (0..p.setups).filter(|&i| p.solve_shard.takes(i));
        if !want.eq(p.parts.iter().map(|s| s.setup)) {
            return Err(refuse(format!(
                "{name} does not hold its setups (edited, or cut short)"
            )));
        }
        if let Some(why) = problem(p) {
            return Err(refuse(format!("{name}: {why} (edited?)")));
        }
    }
    if let Some(why) = roll.missing() {
        return Err(refuse(why));
    }
    let mut all: Vec<SetupWorth> = parts.iter().flat_map(|p| p.parts.iter().copied()).collect();
    // In the order of the whole run, so that the sums are the same.
    all.sort_by_key(|s| s.setup);
    if all.is_empty() {
        return Err(Error::usage("merge: the shares hold no setup"));
    }
    // The setups' chances are those of all the ways the game starts.
    let total: f64 = all.iter().map(|s| s.chance).sum();
    if (total - 1.0).abs() > 1e-6 {
        return Err(Error::usage(format!(
            "merge: the setups' chances add up to {total}, not 1 (edited?)"
        )));
    }
    let Some(states) = parts
        .iter()
        .try_fold(0usize, |a, p| a.checked_add(p.states))
    else {
        return Err(Error::usage(
            "merge: the shares' state counts pass the integer range (edited?)",
        ));
    };
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
        states,
        setups: first.setups,
        setup_spread: spread,
        seconds: parts.iter().map(|p| p.seconds).sum(),
        threads: 1,
    })
}

/// What is wrong with one share's figures on their own: a chance or a
/// worth no solve gives, or a time that is not one. None for a share a
/// solve could have written.
fn problem(p: &SolvePart) -> Option<String> {
    let share = |x: f64| (0.0..=1.0).contains(&x);
    for s in &p.parts {
        let w = s.worth;
        if !(share(s.chance) && s.chance > 0.0) {
            return Some(format!("setup {} has the chance {}", s.setup, s.chance));
        }
        if !(w.value.is_finite() && share(w.win) && share(w.draw) && share(w.loss)) {
            return Some(format!(
                "setup {} is worth {} (win {}, draw {}, loss {})",
                s.setup, w.value, w.win, w.draw, w.loss
            ));
        }
    }
    if !(p.seconds.is_finite() && p.seconds >= 0.0) {
        return Some(format!("it took {} seconds", p.seconds));
    }
    None
}
