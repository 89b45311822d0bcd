//! Adding up the shards of a run split across machines (`sim --shard K/N`)
//! into the report of the whole run.

use super::{Part, Report, Tally, report_of};
use crate::error::{Error, Result};

/// The report of the whole run from all its shards, each once, in any
/// order. Shards of different runs (another seed, game, variant, bots,
/// number of games or edited rules) are refused with what differs.
pub fn merge(parts: &[Part]) -> Result<Report> {
    let Some(first) = parts.first() else {
        return Err(Error::usage("merge: no shards given"));
    };
    let n = first.shard.n;
    let mut seen = vec![false; usize::try_from(n).unwrap_or(usize::MAX).min(1 << 20)];
    for p in parts {
        let differs = if p.shard.n != n {
            Some(format!("split into {} shards, not {n}", p.shard.n))
        } else if p.total_games != first.total_games {
            Some(format!(
                "{} games in all, not {}",
                p.total_games, first.total_games
            ))
        } else if p.run.rules != first.run.rules {
            Some("its rules files differ (edited between the runs)".into())
        } else if p.run != first.run {
            let (a, b) = (describe(&p.run), describe(&first.run));
            let what = a.into_iter().zip(b).find(|(a, b)| a != b);
            Some(what.map_or("another run".into(), |(a, b)| format!("{a} against {b}")))
        } else {
            None
        };
        if let Some(why) = differs {
            return Err(Error::usage(format!(
                "merge: shard {}/{} is not of the same run as shard {}/{n}: {why}",
                p.shard.k, p.shard.n, first.shard.k
            )));
        }
        let i = (p.shard.k - 1) as usize;
        if seen.get(i).copied().unwrap_or(true) {
            return Err(Error::usage(format!(
                "merge: shard {}/{n} is given twice",
                p.shard.k
            )));
        }
        seen[i] = true;
    }
    let missing: Vec<String> = (seen.iter().enumerate())
        .filter(|(_, s)| !**s)
        .map(|(i, _)| (i + 1).to_string())
        .take(10)
        .collect();
    if !missing.is_empty() {
        return Err(Error::usage(format!(
            "merge: shard(s) {} of {n} are missing",
            missing.join(", ")
        )));
    }
    let mut tally = Tally::new(first.run.players.len(), first.run.cards.len());
    for p in parts {
        tally.merge(p.tally.clone());
    }
    Ok(report_of(&first.run, &tally))
}

/// A run's settings as words, to say which one differs.
fn describe(r: &super::RunInfo) -> Vec<String> {
    vec![
        format!("game {}", r.game),
        format!("variants [{}]", r.variants.join(", ")),
        format!(
            "parameters [{}]",
            (r.params.iter())
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        format!("seed {}", r.seed),
        format!("bots [{}]", r.bots.join(", ")),
        format!("max decisions {}", r.max_decisions),
        format!("cards [{}]", r.cards.join(", ")),
    ]
}
