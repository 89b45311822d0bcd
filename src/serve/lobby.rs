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
