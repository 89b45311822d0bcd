//! The board: squares with terrain, and the stat that holds positions.

use super::Analyzer;
use super::names::Kind;
use crate::definition::format::GameFile;
use crate::definition::{Board, Param};

/// Squares a board may have (docs/format.md, limits).
pub const MAX_SQUARES: u32 = 100_000;

pub(super) fn analyze(a: &mut Analyzer, file: &GameFile, params: &[Param]) -> Option<Board> {
    let b = file.board.as_ref()?;
    let size = a.number("board: size", &b.size, params)?;
    if !(1..=i64::from(MAX_SQUARES)).contains(&size) {
        let allowed = if size < 1 {
            "give at least 1".to_string()
        } else {
            format!("at most {MAX_SQUARES}")
        };
        a.invalid(
            format!("the board has {size} squares; {allowed}"),
            &b.size.pos,
        );
        return None;
    }
    let mut squares = vec![b.default.clone().unwrap_or_else(|| "plain".into()); size as usize];
    for (terrain, list) in &b.terrain {
        for s in list {
            let Some(s) = a.number(&format!("board: terrain `{terrain}`"), s, params) else {
                continue;
            };
            if let Some(sq) = usize::try_from(s).ok().and_then(|s| squares.get_mut(s)) {
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
