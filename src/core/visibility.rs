//! What a player may see: the visibility rule, and resampling a state for a
//! viewer (what they cannot see drawn again at random). Display, bots and
//! solvers all go through here, so hidden cards never leak by accident.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use super::{AsDef, State, shuffle};
use crate::definition::format::{AttrValue, Per, Visibility};
use crate::definition::{CardIx, PlayerIx};

/// Whether a zone owned by `owner` (None: shared) with this visibility shows
/// its cards to `viewer` (None: a spectator).
pub fn zone_visible(vis: Visibility, owner: Option<PlayerIx>, viewer: Option<PlayerIx>) -> bool {
    match vis {
        Visibility::Public => true,
        Visibility::Owner => owner.is_some() && owner == viewer,
        Visibility::Hidden => false,
    }
}

/// A zone's filter of the cards it can hold.
type Holds = Vec<(String, AttrValue)>;

impl State {
    /// A state `viewer` cannot tell from this one, drawn with `rng`: every
    /// card they cannot see dealt again at random into the hidden places
    /// (keeping how many cards each holds), others' secret choices taken
    /// back, the RNG (the future: decks to come, dice) reseeded. Built from
    /// the viewer's view alone: the unseen cards are sorted before they are
    /// dealt, so two states that look the same give the same samples. The
    /// sample records no events.
    pub fn resample(
        &self,
        game: &(impl AsDef + ?Sized),
        viewer: PlayerIx,
        rng: &mut ChaCha8Rng,
    ) -> State {
        let def = game.def();
        let mut s = self.clone();
        s.logging = false;
        s.rng = ChaCha8Rng::seed_from_u64(rng.next_u64());
        if let Some(d) = s.pending.front_mut() {
            let shown: Vec<bool> = d
                .players
                .iter()
                .map(|&p| {
                    self.decision()
                        .is_some_and(|o| o.visible_choice(p, Some(viewer)).is_some())
                })
                .collect();
            for (c, seen) in d.chosen.iter_mut().zip(shown) {
                if !seen {
                    *c = None;
                }
            }
        }
        // The hidden slots and the pool of unseen cards.
        let mut hidden: Vec<(usize, usize, Option<&Holds>)> = Vec::new();
        let mut pool: Vec<CardIx> = Vec::new();
        for (z, zone) in def.zones.iter().enumerate() {
            for p in def.owners(z) {
                let owner = (zone.per == Per::Player).then_some(p);
                if zone_visible(zone.visibility, owner, Some(viewer)) {
                    continue;
                }
                let slot = def.slot(z, p);
                hidden.push((slot, s.zones[slot].len(), zone.holds.as_ref()));
                pool.append(&mut s.zones[slot]);
            }
        }
        if pool.is_empty() {
            return s;
        }
        pool.sort_unstable();
        shuffle(&mut s.rng, &mut pool);
        // Zones that hold only some cards (a deck of one kind) are filled
        // first, from the cards that fit; then the rest in order.
        hidden.sort_by_key(|(slot, _, holds)| (holds.is_none(), *slot));
        for (slot, n, holds) in hidden {
            let mut taken = Vec::with_capacity(n);
            let mut i = 0;
            while taken.len() < n && i < pool.len() {
                let fits = holds.is_none_or(|h| {
                    let card = &def.cards[pool[i] as usize];
                    h.iter().all(|(k, v)| card.attr(k) == Some(v))
                });
                if fits {
                    taken.push(pool.remove(i));
                } else {
                    i += 1;
                }
            }
            // Not enough cards that fit: take any (never lose a card).
            while taken.len() < n && !pool.is_empty() {
                taken.push(pool.remove(0));
            }
            s.zones[slot] = taken;
        }
        s
    }
}
