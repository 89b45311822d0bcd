//! Which method solves a game: exact solving where it applies, CFR+ over
//! the whole tree for hidden information, Monte Carlo CFR where that tree
//! is too big or its chance too much to list. The choice is made from the
//! refusals' kinds (`Refusal`), never from their words; the command line
//! only says it.

use super::solve;
use crate::error::{Error, Refusal};
use crate::game::Game;

/// The method to turn to after a refusal, and why, in words for a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// Hidden information: CFR+.
    Cfr { why: String },
    /// Too big for the whole tree, or too much chance to list with cards
    /// hidden: MCCFR.
    Mccfr { why: String },
}

/// What a solve over a game's start may turn to.
#[derive(Debug, Clone, Copy, Default)]
pub struct Asked {
    /// From a saved position (`--from`): only exact solving applies (CFR
    /// would need what each player believes of the cards they cannot see).
    pub from_position: bool,
    /// One setup (`--seed`) or sampled ones (`--deals`) asked for: the
    /// exact solver's, over those.
    pub chosen_setups: bool,
}

/// After the exact solver refused with `e`: the next method, if any.
pub fn after_exact(game: &Game, e: &Error, asked: Asked) -> Option<Next> {
    if asked.from_position {
        return None;
    }
    match e.refusal()? {
        Refusal::Hidden => Some(Next::Cfr {
            why: solve::reason(&e.message),
        }),
        Refusal::TooMuchChance { limit } if !asked.chosen_setups => {
            let hidden = solve::hidden_at_start(game, 0)?;
            Some(Next::Mccfr {
                why: format!(
                    "too much chance to list (more than {limit} outcomes at once) and hidden information ({})",
                    solve::reason(&hidden.message)
                ),
            })
        }
        _ => None,
    }
}

/// After CFR+ refused with `e`: MCCFR where the tree is too big or its
/// chance too much to list.
pub fn after_cfr(e: &Error) -> Option<Next> {
    match e.refusal()? {
        Refusal::TreeTooBig { .. } | Refusal::TooMuchChance { .. } => Some(Next::Mccfr {
            why: format!(
                "too big for CFR+ over the whole tree ({})",
                solve::reason(&e.message)
            ),
        }),
        _ => None,
    }
}
