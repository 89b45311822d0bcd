//! Adding up the shards of a run split across machines (`sim --shard K/N`)
//! into the report of the whole run.

use super::{Part, Report, Tally, report_of};
use crate::analysis::shard::Roll;
use crate::definition::format::ParamValue;
use crate::error::{Error, Result};

/// The report of the whole run from all its shards, each once, in any
/// order. Shards of different runs (another seed, game, variant, bots,
/// number of games or edited rules) are refused with what differs, and so
/// is a shard whose figures do not add up (edited).
pub fn merge(parts: &[Part]) -> Result<Report> {
    merge_files(parts, &[])
}

/// As `merge`, each shard named also by its file (`files[i]` for
/// `parts[i]`) in what is refused.
pub fn merge_files(parts: &[Part], files: &[String]) -> Result<Report> {
    let Some(first) = parts.first() else {
        return Err(Error::usage("merge: no shards given"));
    };
    let refuse = |why: String| Error::usage(format!("merge: {why}"));
    let mut roll = Roll::new("shard", first.shard, files).map_err(refuse)?;
    for (i, p) in parts.iter().enumerate() {
        roll.take(i, p.shard).map_err(refuse)?;
        if let Some(why) = problem(p) {
            return Err(refuse(format!(
                "{}: {why} (edited?)",
                roll.name(i, p.shard)
            )));
        }
        let differs = if p.total_games != first.total_games {
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
            return Err(refuse(format!(
                "{} is not of the same run as {}: {why}",
                roll.name(i, p.shard),
                roll.name(0, first.shard)
            )));
        }
    }
    if let Some(why) = roll.missing() {
        return Err(refuse(why));
    }
    let mut tally = Tally::new(first.run.players.len(), first.run.cards.len());
    for (i, p) in parts.iter().enumerate() {
        if tally.merge(p.tally.clone()).is_none() {
            return Err(Error::usage(format!(
                "merge: {}: its counts added to the shards before it pass the 64-bit range (edited?)",
                roll.name(i, p.shard)
            )));
        }
    }
    Ok(report_of(&first.run, &tally))
}

/// What is wrong with one shard on its own: a number out of range, lists
/// of the wrong lengths, counts that do not add up, or text that no run
/// writes. None for a shard a run could have written.
fn problem(p: &Part) -> Option<String> {
    // Its number was checked by the roll: 1 <= k <= n.
    let (s, r, t) = (p.shard, &p.run, &p.tally);
    let share = s.range(p.total_games);
    if t.games != share.end - share.start {
        return Some(format!(
            "{} games, but its share of {} is {}",
            t.games,
            p.total_games,
            share.end - share.start
        ));
    }
    let (players, cards) = (r.players.len(), r.cards.len());
    if players == 0 {
        return Some("no players".into());
    }
    let lengths = [
        ("bots", r.bots.len(), players, "players"),
        ("win counts", t.wins.len(), players, "players"),
        (
            "win counts by place",
            t.place_wins.len(),
            players,
            "players",
        ),
        ("payoff sums", t.payoff_sum.len(), players, "players"),
        ("payoff squares", t.payoff_squares.len(), players, "players"),
        ("play counts", t.played.len(), cards, "cards"),
        ("won play counts", t.played_won.len(), cards, "cards"),
    ];
    if let Some((what, has, want, of)) = lengths.iter().find(|(_, a, b, _)| a != b) {
        return Some(format!("{has} {what} for {want} {of}"));
    }
    // Sums in u128: no list of u64 counts passes its range.
    let sum = |xs: &mut dyn Iterator<Item = u64>| xs.map(u128::from).sum::<u128>();
    let games = u128::from(t.games);
    let won = sum(&mut t.wins.iter().copied());
    let ended = won + u128::from(t.draws);
    let counts = [
        (
            "wins, draws, unfinished and failed games",
            ended + u128::from(t.unfinished) + u128::from(t.failed),
            games,
        ),
        ("wins by place", sum(&mut t.place_wins.iter().copied()), won),
        ("end reasons", sum(&mut t.reasons.values().copied()), ended),
        ("game lengths", sum(&mut t.turns.values().copied()), games),
        (
            "decision counts",
            sum(&mut t.decisions.values().copied()),
            games,
        ),
    ];
    if let Some((what, has, want)) = counts.iter().find(|(_, a, b)| a != b) {
        return Some(format!("its {what} add up to {has}, not {want}"));
    }
    if t.reordered > t.games {
        return Some(format!("{} reordered games of {}", t.reordered, t.games));
    }
    if let Some(c) = (0..cards).find(|&c| t.played_won[c] > t.played[c]) {
        return Some(format!(
            "card `{}` won {} of its {} plays",
            r.cards[c].escape_debug(),
            t.played_won[c],
            t.played[c]
        ));
    }
    if t.errors.len() > super::tally::KEPT_ERRORS || t.errors.len() as u64 > t.failed {
        return Some(format!(
            "{} errors kept for {} failed games",
            t.errors.len(),
            t.failed
        ));
    }
    // Ids hold no control character (the game's definition refuses them),
    // nor does an end reason (escaped): such a text would reach a terminal,
    // a chart or a spreadsheet as it is.
    let texts = std::iter::once(&r.game)
        .chain(&r.variants)
        .chain(r.params.iter().flat_map(|(k, v)| match v {
            ParamValue::Word(w) => vec![k, w],
            ParamValue::Int(_) => vec![k],
        }))
        .chain(&r.bots)
        .chain(&r.players)
        .chain(&r.cards)
        .chain(t.reasons.keys());
    if let Some(bad) = texts.into_iter().find(|x| x.chars().any(char::is_control)) {
        return Some(format!("`{}` has a control character", bad.escape_debug()));
    }
    None
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
        format!("players [{}]", r.players.join(", ")),
        format!("bots [{}]", r.bots.join(", ")),
        format!("max decisions {}", r.max_decisions),
        format!("cards [{}]", r.cards.join(", ")),
    ]
}
