//! Players: the seats listed, without duplicates, and how many take part
//! (`player_count`).

use super::Analyzer;
use super::names::Kind;
use crate::definition::bounds::{self, Bound};
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
    // 1 to the players listed (bounds::PLAYER_COUNT, with its top here).
    let listed_count = Bound::new(bounds::PLAYER_COUNT.min, players.len() as i64);
    if let Some(c) = &file.player_count
        && let Some(n) = a.bounded("`player_count`", c, params, listed_count)
    {
        players.truncate(n as usize);
    }
    a.names
        .declare(Kind::Player, players.iter().map(|p| p.id.clone()));
    (players, ids)
}
