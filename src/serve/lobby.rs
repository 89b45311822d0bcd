//! The lobby's view of the games: what a table may be opened for, read
//! from the rules files at each request (a designer edits them while the
//! server runs).

use serde_json::{Value, json};

use super::Server;
use crate::analysis::bot;
use crate::definition::{Def, Settings};
use crate::error::Result;
use crate::game::Game;

/// Every offered game with its players, variants and parameters, and the
/// seat kinds; a game that does not load is listed with its error.
pub fn games(s: &Server) -> Value {
    let dir = &s.config.games_dir;
    let games: Vec<Value> = (s.offered().iter())
        .map(
            |(id, reference)| match crate::game::load(reference, dir, &Settings::default()) {
                Ok(g) => describe(g.def()),
                Err(e) => json!({"id": id, "name": id, "error": e.render(false)}),
            },
        )
        .collect();
    json!({ "games": games, "bots": s.config.lobby_bots, "kinds": bot::KINDS })
}

fn describe(d: &Def) -> Value {
    json!({
        "id": d.id,
        "name": d.name,
        "summary": d.summary,
        "players": players(d),
        "variants": d.variants.iter().map(|v| json!({"id": v.id, "text": v.name})).collect::<Vec<_>>(),
        "params": d.params.iter().map(|p| json!({
            "id": p.id,
            "default": p.show(p.default),
            "min": p.min,
            "max": p.max,
            "values": (!p.values.is_empty()).then_some(&p.values),
            "doc": p.doc,
        })).collect::<Vec<_>>(),
    })
}

fn players(d: &Def) -> Vec<Value> {
    (d.players.iter())
        .map(|p| json!({"id": p.id, "name": p.name}))
        .collect()
}

/// The players under these settings (their number may be a parameter),
/// or the error a table would meet.
pub fn preview(s: &Server, game: &str, settings: &Settings) -> Result<Value> {
    let reference = s.reference(game)?;
    let g = Game::load(reference, &s.config.games_dir, settings, Default::default())?;
    Ok(json!({ "players": players(g.def()) }))
}

/// Whether the lobby's bot kinds allow `kind`: one of them, or one that
/// thinks less of the same kind (`mcts:20` where `mcts:1000` is allowed,
/// `mcts:0.5s` where `mcts:1s` is, `best:N` where `best` is, N at most
/// its budget). `default` is the kind it names.
pub fn allows(allowed: &[String], kind: &str) -> bool {
    let kind = match kind {
        "default" => match bot::default_kind() {
            Ok(k) => k,
            Err(_) => return false,
        },
        k => k.to_string(),
    };
    allowed.iter().any(|a| *a == kind || weaker(&kind, a))
}

/// What a kind thinks: its family and how much (iterations, seconds or
/// positions).
fn effort(kind: &str) -> Option<(&str, f64)> {
    let mcts = bot::MCTS_ITERATIONS as f64;
    match kind.split_once(':') {
        None if kind == "mcts" => Some(("mcts", mcts)),
        None if kind == "best" => Some(("best", bot::best::BUDGET as f64)),
        Some(("mcts", t)) if t.ends_with('s') => {
            Some(("mcts-seconds", t.trim_end_matches('s').parse().ok()?))
        }
        Some(("mcts", n)) => Some(("mcts", n.parse().ok()?)),
        Some(("best", n)) => Some(("best", n.parse().ok()?)),
        _ => None,
    }
}

fn weaker(kind: &str, than: &str) -> bool {
    match (effort(kind), effort(than)) {
        (Some((f, x)), Some((g, y))) => f == g && x <= y,
        _ => false,
    }
}
