//! `tabula replay FILE [--json] [--as P]`: re-run a saved game, print where
//! it ends, as a spectator or as one player saw it.

use std::path::Path;

use tabula::error::Result;
use tabula::replay::{self, Replay};
use tabula::view;

pub fn run(dir: &Path, file: &Path, json: bool, viewer: Option<&str>) -> Result<i32> {
    let r = Replay::read(file)?;
    let played = replay::play(&r, Some(file), dir)?;
    let (game, state) = (&played.game, &played.state);
    if let Some(note) = r.game_by_path_note(file, game, dir) {
        eprintln!("tabula: {note}");
    }
    if r.rules_changed(game) {
        eprintln!("{}", rules_changed_note(file));
    }
    let viewer = match viewer {
        None => None,
        Some(id) => Some(super::player_of(game.def(), id)?),
    };
    if json {
        let v = view::view(game, state, viewer)?;
        let text = serde_json::to_string_pretty(&v).unwrap_or_default();
        println!("{text}");
        return Ok(0);
    }
    for e in played
        .log
        .iter()
        .filter(|e| e.to().is_none() || e.to() == viewer)
    {
        println!("{}", tabula::phrase(game, e));
    }
    println!();
    println!("{}", view::render(game, state, viewer)?);
    match state.outcome() {
        Some(tabula::Outcome::Win(p)) => println!("Over: {} wins.", game.def().players[p].name),
        Some(tabula::Outcome::Draw) => println!("Over: a draw."),
        None => {
            let waiting: Vec<&str> = state
                .waiting()
                .iter()
                .map(|&p| game.def().players[p].id.as_str())
                .collect();
            println!("Not over: waiting for {}.", waiting.join(", "));
        }
    }
    Ok(0)
}

/// The note for a save played under rules since edited.
pub(super) fn rules_changed_note(file: &Path) -> String {
    format!(
        "note: the rules files changed since {} was saved: its moves are replayed under the rules as they are now",
        tabula::error::path_text(file)
    )
}
