//! The board: squares with terrain, and the stat that holds positions.

use super::Analyzer;
use super::names::Kind;
use crate::definition::bounds;
use crate::definition::format::GameFile;
use crate::definition::{Board, Param};

pub(super) fn analyze(a: &mut Analyzer, file: &GameFile, params: &[Param]) -> Option<Board> {
    let b = file.board.as_ref()?;
    let size = a.bounded("`board: size`", &b.size, params, bounds::SQUARES)?;
    let mut squares = vec![b.default.clone().unwrap_or_else(|| "plain".into()); size as usize];
    for (terrain, list) in &b.terrain {
        for s in list {
            let what = format!("a square of terrain `{terrain}`");
            let Some(s) = a.bounded(&what, s, params, bounds::SQUARE) else {
                continue;
            };
            // One past the end is left out: a sweep over `size` keeps
            // the obstacles that still fit.
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
