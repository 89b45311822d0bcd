//! Players: the seats listed, without duplicates, and how many take part
//! (`player_count`).

use super::Analyzer;
use super::names::Kind;
use crate::definition::format::GameFile;
use crate::definition::{Param, Player};

/// The players taking part, and the ids of every player listed (a start
/// value or a faction name for a seat left out by `player_count` is fine).
pub(super) fn analyze(
    a: &mut Analyzer,
    file: &GameFile,
    params: &[Param],
) -> (Vec<Player>, Vec<String>) {
    let listed = file.players.clone().unwrap_or_default();
    if listed.is_empty() {
        let at = a.top();
        a.invalid(
            format!(
                "{}: the game has no `players`",
                crate::error::path_text(a.path)
            ),
            &at,
        );
    }
    for (i, p) in listed.iter().enumerate() {
        if listed[..i].iter().any(|q| q.id.value == p.id.value) {
            a.invalid(format!("duplicate player `{}`", p.id.value), &p.id.pos);
        }
    }
    let ids: Vec<String> = listed.iter().map(|p| p.id.value.clone()).collect();
    let mut players: Vec<Player> = listed
        .into_iter()
        .map(|p| Player {
            name: p.name.unwrap_or_else(|| p.id.value.clone()),
            id: p.id.value,
        })
        .collect();
    if let Some(c) = &file.player_count
        && let Some(n) = a.number("player_count", c, params)
    {
        if n < 1 || n as usize > players.len() {
            a.invalid(
                format!(
                    "player_count {n} is not between 1 and the {} players listed",
                    players.len()
                ),
                &c.pos,
            );
        } else {
            players.truncate(n as usize);
        }
    }
    a.names
        .declare(Kind::Player, players.iter().map(|p| p.id.clone()));
    (players, ids)
}
