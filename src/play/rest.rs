//! `save-position`: a game's position as a file. A position is a state at
//! rest before a flow step (`core::Position`); a game waits at a decision,
//! so the file holds the last position the game passed at rest and the
//! moves made since (none, when the flow asked the decision: running the
//! flow from the position asks it again; some, when a move's resolution
//! asked it). Played from, the file goes on exactly as the game would.

use super::position::PositionFile;
use super::replay::{Move, Replay, apply_move_noting};
use crate::core::{Position, State};
use crate::definition::format::At;
use crate::error::{Error, Result};
use crate::game::Game;

/// The replay (of `game`) as a position file: the last position at rest
/// and the moves made since. Its seed is the replay's; its position says
/// how far chance has been drawn, so that chance goes on as it would.
pub fn as_position(game: &Game, replay: &Replay) -> Result<Replay> {
    // The last state at rest, the move it was passed in (0: before the
    // first) and that move's entries still to apply.
    let seed = replay.seed;
    let mut last: Option<(Position, usize, Move)> = None;
    let mut note = |s: &State, after: usize, left: Vec<(String, String)>| {
        if let Some(p) = s.position(seed) {
            last = Some((p, after, left));
        }
    };
    let mut state = match &replay.position {
        Some(_) => {
            // The position itself is at rest.
            let pos = replay.resolve_position(game, seed)?;
            let (s, _) = State::from_position(game, &pos, false)?;
            last = Some((pos, 0, Vec::new()));
            s
        }
        None => State::new_noting(game, seed, &mut |s| note(s, 0, Vec::new()))?.0,
    };
    let mut note = |s: &State, after: usize, left: Vec<(String, String)>| {
        if let Some(p) = s.position(seed) {
            last = Some((p, after, left));
        }
    };
    for (i, m) in replay.moves.iter().enumerate() {
        apply_move_noting(game, &mut state, m, &mut |s, left| note(s, i + 1, left)).map_err(
            |e| {
                let at = replay.positions.get(i).cloned().flatten();
                Error {
                    message: format!("move {}: {}", i + 1, e.message),
                    ..e
                }
                .at(at)
            },
        )?;
    }
    let Some((pos, after, left)) = last else {
        return Err(Error::usage(
            "the game has not rested yet: its setup asked a decision, and no position comes before the first step of the flow; save a position after a move or two",
        ));
    };
    let mut moves: Vec<Vec<(String, String)>> = Vec::new();
    if !left.is_empty() {
        moves.push(left);
    }
    moves.extend(replay.moves[after..].iter().cloned());
    Ok(Replay {
        game: replay.game.clone(),
        settings: replay.settings.clone(),
        seed: replay.seed,
        positions: vec![None; moves.len()],
        moves,
        rules: replay.rules,
        seats: replay.seats.clone(),
        seat_positions: Vec::new(),
        position: Some(At::new(PositionFile::from_position(game, &pos))),
    })
}
