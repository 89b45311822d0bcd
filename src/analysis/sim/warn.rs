//! What a designer should hear about a run before reading its figures:
//! a game that is mostly drawn, decided by the seat or the place in the
//! turn order, or stopped by the turn limit rather than by its rules (the
//! metrics Ludii reports, as plain sentences). Each is said only when the
//! 95% intervals are past the line, so a short run says little.

use super::report::{Rate, Report};

/// Drawn games, at least (percent): past this the game is drawish.
pub const DRAWISH: f64 = 50.0;
/// A seat's (or a place's) lead over the next, at least (points).
pub const SEAT_LEAD: f64 = 20.0;
/// Games the turn limit stopped, at least (percent).
pub const TURN_LIMITED: f64 = 10.0;

/// A game settled before this share of its decisions (percent, the
/// interval's upper bound) plays out a result already decided.
pub const SETTLED_EARLY: f64 = 50.0;

/// The warnings a report calls for, each a sentence.
pub fn warnings(r: &Report) -> Vec<String> {
    let mut out = Vec::new();
    if r.games == 0 {
        return out;
    }
    if r.draws.low >= DRAWISH {
        let mut w = format!("{:.0}% of games end in a draw", r.draws.percent);
        if let Some(e) = r.end_reasons.first().filter(|e| e.share.percent >= 50.0) {
            let how = if e.reason.is_empty() {
                "with no reason given".to_string()
            } else {
                format!("by \"{}\"", e.reason)
            };
            w += &format!(" (most games, {:.0}%, end {how})", e.share.percent);
        }
        out.push(w);
    }
    // A lead says something about the game only when every seat has the
    // same bot.
    let same_bots = r.seats.windows(2).all(|s| s[0].bot == s[1].bot);
    if let [a, b, ..] = r.seats.as_slice()
        && same_bots
        && let Some((first, d)) = lead(&a.wins, &b.wins)
    {
        let (ahead, behind) = if first { (a, b) } else { (b, a) };
        out.push(format!(
            "{} wins {d:.0} points more often than {} with the same bot in every seat: the seat decides much of the game",
            ahead.player, behind.player
        ));
    }
    if let Some([a, b, ..]) = r.places.as_deref()
        && same_bots
        && let Some((first, d)) = lead(a, b)
    {
        let (who, other) = if first {
            ("first", "second")
        } else {
            ("second", "first")
        };
        out.push(format!(
            "the {who} in the turn order wins {d:.0} points more often than the {other}: the turn order decides much of the game"
        ));
    }
    if let Some(d) = r.decided.as_ref().filter(|d| d.high < SETTLED_EARLY) {
        out.push(if d.high < 1.0 {
            "no decision changes the result: from the start, random play always reaches the result each game had".to_string()
        } else {
            format!(
                "games are decided early: from {:.0}% of the way through on average, random play no longer changes the result, and the rest of a game plays it out",
                d.percent
            )
        });
    }
    if let Some(e) =
        (r.end_reasons.iter()).find(|e| e.reason == "turn limit" && e.share.low >= TURN_LIMITED)
    {
        out.push(format!(
            "{:.0}% of games stop at the turn limit, not by the rules",
            e.share.percent
        ));
    }
    out
}

/// Whether `a` leads `b` (true) or `b` leads `a` (false) by `SEAT_LEAD`
/// points or more between the leader's lower bound and the other's upper
/// one; and the lead in points.
fn lead(a: &Rate, b: &Rate) -> Option<(bool, f64)> {
    if a.low - b.high >= SEAT_LEAD {
        Some((true, a.percent - b.percent))
    } else if b.low - a.high >= SEAT_LEAD {
        Some((false, b.percent - a.percent))
    } else {
        None
    }
}
