//! The board: squares with terrain, and the stat that holds positions.

use super::Analyzer;
use super::names::Kind;
use crate::definition::Board;
use crate::definition::format::GameFile;

pub(super) fn analyze(a: &mut Analyzer, file: &GameFile) -> Option<Board> {
    let b = file.board.as_ref()?;
    let mut squares = vec![b.default.clone().unwrap_or_else(|| "plain".into()); b.size as usize];
    for (terrain, list) in &b.terrain {
        for &s in list {
            if let Some(sq) = squares.get_mut(s as usize) {
                *sq = terrain.clone();
            }
        }
    }
    let position = b.position.as_ref().and_then(|n| a.find(Kind::Stat, n));
    Some(Board {
        squares,
        position,
        symbols: b
            .symbols
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    })
}
