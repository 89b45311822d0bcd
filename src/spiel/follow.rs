//! What follows a move, kept by the handle: the loops an agent runs play
//! random games from the start again and again, and without this each
//! step ran the engine afresh (a clone of the position and the hooks'
//! run: most of a step's cost in Kuhn and Leduc poker). A step's place
//! (`At`) is shared by every state that reached it through the kept
//! moves, so a place is known by its address: the very same position,
//! no key to compute, nothing told apart that differs. The map holds each
//! place it knows, so no address is reused while it is kept. Bounded by
//! the bytes of the positions it keeps (`DEFAULT_KEEP`, or the caller's): past it nothing more
//! is kept; the places met first, nearest the start, are the ones met
//! most.

use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::actions::Action;
use super::state::At;
use crate::definition::PlayerIx;

/// The bytes of the positions kept at most by default
/// (`State::footprint`).
pub const DEFAULT_KEEP: usize = 32 << 20;

/// The moves made at a place (ids sorted by player) and where each led.
type Moves = SmallVec<[(Box<[(PlayerIx, Action)]>, Arc<At>); 2]>;

/// A place, kept alive, and the moves made there.
type Known = (Arc<At>, Moves);

pub(super) struct Follow {
    kept: Mutex<Kept>,
    /// The bytes of positions it may keep.
    budget: usize,
}

#[derive(Default)]
struct Kept {
    places: FxHashMap<usize, Known>,
    /// The footprint of the places held: where the moves led, and the
    /// places they were made at that nothing else holds.
    bytes: usize,
    moves: usize,
}

/// The bytes a place holds.
fn footprint(at: &At) -> usize {
    match at {
        At::Start => 0,
        At::Rest(st, _) => st.footprint(),
        At::Chance {
            before, outcomes, ..
        } => {
            let listed = outcomes.as_ref().map_or(0, |list| {
                list.iter().map(|(_, s)| s.footprint()).sum::<usize>()
            });
            // Each outcome made a place at its first draw: twice the list.
            before.footprint() + 2 * listed
        }
    }
}

fn address(at: &Arc<At>) -> usize {
    Arc::as_ptr(at) as usize
}

impl Follow {
    pub fn new(budget: usize) -> Follow {
        Follow {
            kept: Mutex::default(),
            budget,
        }
    }

    /// How many moves are kept.
    pub fn moves(&self) -> usize {
        self.kept.lock().unwrap_or_else(|e| e.into_inner()).moves
    }

    /// Where `moves` made at `from` led before, if kept.
    pub fn get(&self, from: &Arc<At>, moves: &[(PlayerIx, Action)]) -> Option<Arc<At>> {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let (_, known) = kept.places.get(&address(from))?;
        let (_, to) = known.iter().find(|(m, _)| **m == *moves)?;
        Some(to.clone())
    }

    /// Keep where `moves` made at `from` led (unless the bound is reached).
    pub fn keep(&self, from: &Arc<At>, moves: &[(PlayerIx, Action)], to: &Arc<At>) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let key = address(from);
        // A place met first here (a start, a sampled draw's) is held too.
        let held = if kept.places.contains_key(&key) {
            0
        } else {
            footprint(from)
        };
        let bytes = footprint(to) + held;
        if kept.bytes + bytes > self.budget {
            return;
        }
        kept.bytes += bytes;
        kept.moves += 1;
        let entry = kept.places.entry(key);
        let (_, known) = entry.or_insert_with(|| (from.clone(), Moves::new()));
        known.push((moves.into(), to.clone()));
    }
}
