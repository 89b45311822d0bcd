//! What a player may see: the visibility rule, and resampling a state for a
//! viewer (what they cannot see drawn again at random). Display, bots and
//! solvers all go through here, so hidden cards never leak by accident.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use super::{AsDef, State, shuffle};
use crate::definition::format::{AttrValue, Per, Visibility};
use crate::definition::{CardIx, PlayerIx, Zone};

/// Whether a zone owned by `owner` (None: shared) with this visibility shows
/// its cards to `viewer` (None: a spectator).
pub fn zone_visible(vis: Visibility, owner: Option<PlayerIx>, viewer: Option<PlayerIx>) -> bool {
    match vis {
        Visibility::Public => true,
        Visibility::Owner => owner.is_some() && owner == viewer,
        Visibility::Hidden => false,
    }
}

/// Whether `viewer` sees the cards lying face down in a zone owned by
/// `owner` (any zone that keeps no faces: there are none to hide).
pub fn face_down_visible(zone: &Zone, owner: Option<PlayerIx>, viewer: Option<PlayerIx>) -> bool {
    zone.faces
        .is_none_or(|f| zone_visible(f.down, owner, viewer))
}

/// A zone's filter of the cards it can hold.
type Holds = Vec<(String, AttrValue)>;

/// A place whose cards a viewer cannot see: the slot, how many cards, the
/// positions of those cards where only some are hidden (face down), and
/// what the slot can hold.
type Hidden<'a> = (usize, usize, Option<Vec<usize>>, Option<&'a Holds>);

impl State {
    /// This state with the choices of the pending decision that `viewer`
    /// cannot see taken back (a simultaneous choice made before theirs),
    /// quiet: the position as they may know it, cards aside.
    pub fn unseen_choices_taken_back(&self, viewer: PlayerIx) -> State {
        let mut s = self.clone();
        s.logging = false;
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
        s
    }

    /// Whether anything of this state is hidden from `viewer`: a card they
    /// cannot see (in a zone hidden from them, or face down) or another's
    /// choice not yet shown. Where nothing is, every `resample` for them is
    /// this very state, the RNG aside.
    pub fn hides_from(&self, game: &(impl AsDef + ?Sized), viewer: PlayerIx) -> bool {
        let def = game.def();
        let choice_hidden = self.decision().is_some_and(|d| {
            (d.players.iter().zip(&d.chosen))
                .any(|(&p, c)| c.is_some() && d.visible_choice(p, Some(viewer)).is_none())
        });
        choice_hidden
            || def.zones.iter().enumerate().any(|(z, zone)| {
                def.owners(z).any(|p| {
                    let owner = (zone.per == Per::Player).then_some(p);
                    let slot = def.slot(z, p);
                    if self.zones[slot].is_empty() {
                        return false;
                    }
                    // A card they know is no secret to them, wherever it is.
                    let unknown = |i: usize| !self.knows(slot, i, Some(viewer));
                    if !zone_visible(zone.visibility, owner, Some(viewer)) {
                        return (0..self.zones[slot].len()).any(unknown);
                    }
                    !face_down_visible(zone, owner, Some(viewer))
                        && (self.face_down(slot).enumerate()).any(|(i, down)| down && unknown(i))
                })
            })
    }

    /// A state `viewer` cannot tell from this one, drawn with `rng`: every
    /// card they cannot see dealt again at random into the hidden places
    /// (keeping how many cards each holds), others' secret choices taken
    /// back, the RNG (the future: decks to come, dice) reseeded. A card the
    /// viewer knows (`State::knows`) stays where it is. Built from
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
        let mut s = self.unseen_choices_taken_back(viewer);
        s.rng = ChaCha8Rng::seed_from_u64(rng.next_u64());
        // The hidden places (a slot, and the positions in it where only
        // some of its cards are hidden) and the pool of unseen cards.
        let mut hidden: Vec<Hidden> = Vec::new();
        let mut pool: Vec<CardIx> = Vec::new();
        for (z, zone) in def.zones.iter().enumerate() {
            for p in def.owners(z) {
                let owner = (zone.per == Per::Player).then_some(p);
                let slot = def.slot(z, p);
                let any_known = s.any_known(slot);
                let unseen = !zone_visible(zone.visibility, owner, Some(viewer));
                if unseen && !any_known {
                    hidden.push((slot, s.zones[slot].len(), None, zone.holds.as_ref()));
                    pool.append(&mut s.zones[slot]);
                    continue;
                }
                let at: Vec<usize> = if unseen {
                    // The cards the viewer does not know, each where it lies.
                    (0..s.zones[slot].len())
                        .filter(|&i| !s.knows(slot, i, Some(viewer)))
                        .collect()
                } else if !face_down_visible(zone, owner, Some(viewer)) {
                    // Face-down cards only (but those they know), each
                    // where it lies.
                    (s.face_down(slot).enumerate())
                        .filter_map(|(i, down)| {
                            (down && !s.knows(slot, i, Some(viewer))).then_some(i)
                        })
                        .collect()
                } else {
                    continue;
                };
                pool.extend(at.iter().map(|&i| s.zones[slot][i]));
                hidden.push((slot, at.len(), Some(at), zone.holds.as_ref()));
            }
        }
        if pool.is_empty() {
            return s;
        }
        pool.sort_unstable();
        shuffle(&mut s.rng, &mut pool);
        // Zones that hold only some cards (a deck of one kind) are filled
        // first, from the cards that fit; then the rest in order.
        hidden.sort_by_key(|(slot, _, _, holds)| (holds.is_none(), *slot));
        for (slot, n, at, holds) in hidden {
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
            match at {
                None => s.zones[slot] = taken,
                Some(at) => {
                    for (i, c) in at.into_iter().zip(taken) {
                        s.zones[slot][i] = c;
                    }
                }
            }
        }
        s
    }
}

impl State {
    /// Hashes of what `viewer` sees of this state and of the cards they do
    /// not see (each where it lies). Two states that look the same to a
    /// player but hide different cards are ones that player cannot tell
    /// apart: what `solve` looks for before it refuses a game.
    pub fn seen_and_unseen(&self, game: &(impl AsDef + ?Sized), viewer: PlayerIx) -> (u64, u64) {
        use std::hash::{Hash, Hasher};
        let def = game.def();
        let mut seen = rustc_hash::FxHasher::default();
        let mut unseen = rustc_hash::FxHasher::default();
        (&self.stats, &self.vars, self.turn, self.active, self.cursor).hash(&mut seen);
        (
            &self.order,
            self.reveal_first,
            self.game_no,
            &self.match_wins,
            self.starter,
        )
            .hash(&mut seen);
        self.outcome.is_some().hash(&mut seen);
        for d in &self.pending {
            (&*d.then, &d.players, d.first, &d.data).hash(&mut seen);
            d.options_of(viewer).hash(&mut seen);
            for &p in &d.players {
                d.visible_choice(p, Some(viewer)).hash(&mut seen);
            }
        }
        for (z, zone) in def.zones.iter().enumerate() {
            for p in def.owners(z) {
                let owner = (zone.per == Per::Player).then_some(p);
                let slot = def.slot(z, p);
                let cards = &self.zones[slot];
                let knows = |i: usize| self.knows(slot, i, Some(viewer));
                if !zone_visible(zone.visibility, owner, Some(viewer)) && self.any_known(slot) {
                    // Some cards hidden here are known to the viewer: seen,
                    // as a set where order does not matter, else each at
                    // its place; the others unseen.
                    cards.len().hash(&mut seen);
                    let (mut shown, mut hid) = (Vec::new(), Vec::new());
                    for (i, &c) in cards.iter().enumerate() {
                        let at = if zone.unordered { 0 } else { i };
                        match knows(i) {
                            true => shown.push((at, c)),
                            false => hid.push((at, c)),
                        }
                    }
                    shown.sort_unstable();
                    shown.hash(&mut seen);
                    hid.sort_unstable();
                    (slot, hid).hash(&mut unseen);
                    continue;
                }
                if !zone_visible(zone.visibility, owner, Some(viewer)) {
                    cards.len().hash(&mut seen);
                    slot.hash(&mut unseen);
                    if zone.unordered {
                        let mut set = cards.clone();
                        set.sort_unstable();
                        set.hash(&mut unseen);
                    } else {
                        cards.hash(&mut unseen);
                    }
                    continue;
                }
                let down_seen = face_down_visible(zone, owner, Some(viewer));
                // A zone whose order does not matter is seen as a set, as
                // `State::key` counts it: the same hand drawn in another
                // order is the same view.
                if zone.unordered && !self.records(slot) {
                    // No faces or origins kept: the cards alone.
                    let mut set: smallvec::SmallVec<[CardIx; 16]> = cards.iter().copied().collect();
                    set.sort_unstable();
                    set.hash(&mut seen);
                    continue;
                }
                if zone.unordered {
                    let from = self.origins(slot).map(|o| o.filter(|_| zone.records_from));
                    let mut shown: smallvec::SmallVec<[_; 16]> = (cards.iter())
                        .zip(self.face_down(slot))
                        .zip(from)
                        .enumerate()
                        .map(|(i, ((c, down), o))| {
                            if down && !down_seen && !knows(i) {
                                (slot, i, c).hash(&mut unseen);
                                (CardIx::MAX, true, o)
                            } else {
                                (*c, down, o)
                            }
                        })
                        .collect();
                    shown.sort_unstable();
                    shown.hash(&mut seen);
                    continue;
                }
                // How many, first: else the cards of neighbouring places
                // run together (a card on `a1` would look like one on `b1`).
                cards.len().hash(&mut seen);
                for (i, (c, down)) in cards.iter().zip(self.face_down(slot)).enumerate() {
                    if down && !down_seen && !knows(i) {
                        (slot, i, c).hash(&mut unseen);
                        CardIx::MAX.hash(&mut seen);
                    } else {
                        (c, down).hash(&mut seen);
                    }
                }
                if zone.records_from {
                    self.origins(slot).for_each(|o| o.hash(&mut seen));
                }
            }
        }
        (seen.finish(), unseen.finish())
    }
}
