//! Events as sentences for people: the game's log.

use crate::core::{AsDef, Event};

/// The sentence for an event.
pub fn phrase(game: &(impl AsDef + ?Sized), event: &Event) -> String {
    let def = game.def();
    let name = |p: usize| def.players[p].name.as_str();
    match event {
        Event::Log { text, .. } => text.clone(),
        Event::Forced { player, choice } => format!(
            "{} plays {}: the only choice",
            name(*player),
            choice.name(game, Some(*player))
        ),
        Event::RevealedFirst { player, choice } => format!(
            "{} reveals {} first",
            name(*player),
            choice.name(game, Some(*player))
        ),
        Event::Revealed { choices } => {
            let shown: Vec<String> = choices
                .iter()
                .map(|(p, c)| format!("{} {}", name(*p), c.name(game, Some(*p))))
                .collect();
            format!("revealed: {}", shown.join(", "))
        }
        Event::Rolled { by, die, face } => {
            let face = &def.dice[*die].faces[*face];
            match by {
                Some(p) => format!("{} rolls {face}.", name(*p)),
                None => format!("The die shows {face}."),
            }
        }
        Event::Turn { turn } => format!("--- turn {turn} ---"),
        Event::TurnLimit { turns } => format!("{turns} turns played (max_turns): a draw."),
        Event::MatchGameOver {
            game_no,
            winner,
            score,
        } => {
            let said = match winner {
                Some(p) => format!("{} wins game {game_no}", name(*p)),
                None => format!("Game {game_no} is a draw and is replayed"),
            };
            let score: Vec<String> = def
                .players
                .iter()
                .zip(score)
                .map(|(p, w)| format!("{} {w}", p.name))
                .collect();
            format!("{said}. Match: {}.", score.join(", "))
        }
        Event::MatchWon { player } => format!("{} wins the match.", name(*player)),
        Event::MatchDrawn { games } => format!("No match winner after {games} games: a draw."),
        Event::GameBegins { game_no } => format!("Game {game_no} begins."),
    }
}
