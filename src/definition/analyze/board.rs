//! The board: squares with terrain, and the stat that holds positions.

use super::Analyzer;
use super::names::Kind;
use crate::definition::Board;
use crate::definition::format::GameFile;

/// Squares a board may have (docs/format.md, limits).
pub const MAX_SQUARES: u32 = 100_000;

pub(super) fn analyze(a: &mut Analyzer, file: &GameFile) -> Option<Board> {
    let b = file.board.as_ref()?;
    if b.size.value > MAX_SQUARES {
        a.invalid(
            format!(
                "the board has {} squares; at most {MAX_SQUARES}",
                b.size.value
            ),
            &b.size.pos,
        );
        return None;
    }
    let mut squares =
        vec![b.default.clone().unwrap_or_else(|| "plain".into()); b.size.value as usize];
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
