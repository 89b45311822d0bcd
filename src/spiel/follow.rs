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

use rustc_hash::{FxHashMap, FxHashSet};
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
    /// The places whose bytes are counted (where moves led, and the
    /// places they were made at), by address: each counted once.
    counted: FxHashSet<usize>,
    /// Their footprint, about (`footprint`).
    bytes: usize,
    moves: usize,
}

/// About the bytes a place holds: its position, or a chance node's
/// position and outcomes (each also made a place at its first draw).
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

    /// Keep where `moves` made at `from` led, unless the budget is spent
    /// or `from` is a place only its step holds (a sampled draw's, new
    /// at every draw: never met again). Returns the place to step to: the
    /// one kept already where another thread made the move first.
    pub fn keep(&self, from: &Arc<At>, moves: &[(PlayerIx, Action)], to: Arc<At>) -> Arc<At> {
        if Arc::strong_count(from) == 1 {
            return to;
        }
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let key = address(from);
        if let Some((_, known)) = kept.places.get(&key)
            && let Some((_, first)) = known.iter().find(|(m, _)| **m == *moves)
        {
            return first.clone();
        }
        let mut bytes = footprint(&to);
        if !kept.counted.contains(&key) {
            bytes += footprint(from);
        }
        if kept.bytes + bytes > self.budget {
            return to;
        }
        kept.bytes += bytes;
        kept.moves += 1;
        kept.counted.insert(key);
        kept.counted.insert(address(&to));
        let entry = kept.places.entry(key);
        let (_, known) = entry.or_insert_with(|| (from.clone(), Moves::new()));
        known.push((moves.into(), to.clone()));
        to
    }
}
