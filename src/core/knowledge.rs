//! Who knows which card: each card of a state may be known to a set of
//! players (a bit per player, at most 64), whatever zone it lies in. A
//! script shows a card to players (`show_to`), a zone may declare that a
//! card passed into it stays known to the passer (`known_by_passer`), and
//! the knowledge goes with the card as it moves; a shuffle forgets it (who
//! knew a card of the pile knows only that it is somewhere in it, and
//! tabula keeps no such partial knowledge). Views show a hidden card to
//! those who know it, information-state keys count it as seen, and
//! resampling leaves it where it is.
//!
//! The sets live in `State::known`, one entry per card of each slot,
//! beside the slot's cards; empty until the first card is shown, so games
//! that never show one copy nothing more with a state.

use super::State;
use crate::definition::{CardIx, PlayerIx};

/// Which cards of a slot a `Write::Know` makes known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KnowAt {
    /// The bottom-most copy of this card not yet known to all of the
    /// players (else the bottom-most copy).
    Card(CardIx),
    /// The card at this place, from the bottom (0).
    Index(u32),
    /// The top `n` cards (those a move has just put there).
    Top(u32),
    /// Every card of the slot.
    All,
}

/// The bit of a player in a knowledge set (none past the 64th).
#[inline]
pub fn bit(p: PlayerIx) -> u64 {
    1u64.checked_shl(p as u32).unwrap_or(0)
}

impl State {
    /// The set of players who know the card at place `i` of `slot`.
    #[inline]
    pub fn known_mask(&self, slot: usize, i: usize) -> u64 {
        self.known
            .get(slot)
            .and_then(|v| v.get(i))
            .copied()
            .unwrap_or(0)
    }
    /// Whether `viewer` (None: a spectator, who knows nothing) knows the
    /// card at place `i` of `slot`.
    #[inline]
    pub fn knows(&self, slot: usize, i: usize, viewer: Option<PlayerIx>) -> bool {
        viewer.is_some_and(|v| self.known_mask(slot, i) & bit(v) != 0)
    }
    /// Whether any card of `slot` is known to anyone.
    #[inline]
    pub fn any_known(&self, slot: usize) -> bool {
        self.known
            .get(slot)
            .is_some_and(|v| v.iter().any(|&m| m != 0))
    }
    /// The knowledge sets of a slot's cards, one per card (all 0 where
    /// nothing was ever shown).
    pub fn known_sets(&self, slot: usize) -> impl Iterator<Item = u64> + '_ {
        (0..self.zones[slot].len()).map(move |i| self.known_mask(slot, i))
    }

    /// Forget who knew the cards of `slot` (a shuffle, or cards set anew).
    pub(super) fn forget_known(&mut self, slot: usize) {
        let n = self.zones[slot].len();
        if let Some(v) = self.known.get_mut(slot) {
            v.clear();
            v.resize(n, 0);
        }
    }

    /// The set of the card leaving place `pos` of `from`, taken off.
    #[inline]
    pub(super) fn known_take(&mut self, from: usize, pos: usize) -> u64 {
        match self.known.get_mut(from) {
            Some(v) if pos < v.len() => v.remove(pos),
            _ => 0,
        }
    }
    /// A card joins the top of `to` knowing `mask`.
    #[inline]
    pub(super) fn known_push(&mut self, to: usize, mask: u64) {
        if let Some(v) = self.known.get_mut(to) {
            v.push(mask);
        }
    }
    /// The set of `to`'s top card, taken off (a move undone).
    #[inline]
    pub(super) fn known_pop(&mut self, to: usize) -> u64 {
        self.known.get_mut(to).and_then(|v| v.pop()).unwrap_or(0)
    }
    /// A card goes back to place `pos` of `from` knowing `mask`.
    #[inline]
    pub(super) fn known_insert(&mut self, from: usize, pos: usize, mask: u64) {
        if let Some(v) = self.known.get_mut(from) {
            v.insert(pos.min(v.len()), mask);
        }
    }
    /// Every card of `from` moves on top of `to`, with what is known of it.
    pub(super) fn known_move_all(&mut self, from: usize, to: usize) {
        if self.known.is_empty() {
            return;
        }
        let moved = std::mem::take(&mut self.known[from]);
        self.known[to].extend(moved);
    }
    /// The top `n` cards of `to` go back to `from` (emptied), with theirs.
    pub(super) fn known_move_back(&mut self, from: usize, to: usize, n: usize) {
        if self.known.is_empty() {
            return;
        }
        let at = self.known[to].len().saturating_sub(n);
        self.known[from] = self.known[to].split_off(at);
    }

    /// Make cards of `slot` known to `players` as `at` says: the places
    /// changed (a run from the first) and their sets before, or None if
    /// there is no such card (the state unchanged).
    pub(super) fn know(
        &mut self,
        at: KnowAt,
        slot: usize,
        players: u64,
    ) -> Option<(usize, Vec<u64>)> {
        let n = self.zones[slot].len();
        let (first, count) = match at {
            KnowAt::Card(card) => {
                let copies = || {
                    (self.zones[slot].iter().enumerate())
                        .filter(move |&(_, &c)| c == card)
                        .map(|(i, _)| i)
                };
                let i = copies()
                    .find(|&i| self.known_mask(slot, i) & players != players)
                    .or_else(|| copies().next())?;
                (i, 1)
            }
            KnowAt::Index(i) => (Some(i as usize).filter(|&i| i < n)?, 1),
            KnowAt::Top(k) => {
                let k = (k as usize).min(n);
                (n - k, k)
            }
            KnowAt::All => (0, n),
        };
        if self.known.is_empty() {
            // The first card ever shown: every slot gets its sets.
            self.known = self.zones.iter().map(|z| vec![0; z.len()]).collect();
        }
        let v = &mut self.known[slot];
        let old = v[first..first + count].to_vec();
        for m in &mut v[first..first + count] {
            *m |= players;
        }
        Some((first, old))
    }
    /// Put back the sets of `old.len()` places of `slot` from `first`.
    pub(super) fn unknow(&mut self, slot: usize, first: usize, old: &[u64]) {
        if let Some(v) = self.known.get_mut(slot) {
            v[first..first + old.len()].copy_from_slice(old);
        }
    }
}

impl State {
    /// Show a copy of `card` in `owner`'s `zone` to player `to`, by ids
    /// (for scenarios that start from a position; a script says
    /// `show_to`).
    pub fn show_card(
        &mut self,
        game: &(impl super::AsDef + ?Sized),
        to: &str,
        owner: &str,
        zone: &str,
        card: &str,
    ) -> crate::error::Result<()> {
        use crate::error::Error;
        let def = game.def();
        let (Some(p), Some(z), Some(c)) = (def.player(to), def.zone(zone), def.card(card)) else {
            return Err(Error::usage(format!(
                "no player `{to}`, no zone `{zone}` or no card `{card}`"
            )));
        };
        let at = def
            .place(z, owner)
            .ok_or_else(|| Error::usage(format!("no owner `{owner}` of zone `{zone}`")))?;
        let slot = def.slot(z, at);
        self.know(KnowAt::Card(c), slot, bit(p))
            .map(|_| ())
            .ok_or_else(|| Error::usage(format!("no `{card}` in {owner} {zone}")))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::super::ops::{Read, Stash, Write};
    use super::*;

    /// A state of two slots, the first holding cards 1, 2, 3, 2.
    fn two_slots() -> State {
        use rand_chacha::rand_core::SeedableRng;
        State {
            stats: Vec::new(),
            vars: Vec::new(),
            zones: vec![vec![1, 2, 3, 2], vec![]],
            origins: Vec::new(),
            known: Vec::new(),
            rng: rand_chacha::ChaCha8Rng::seed_from_u64(0),
            forced: None,
            unshuffled: Vec::new(),
            cursor: 0,
            turn: 0,
            active: 0,
            order: Vec::new(),
            pending: std::collections::VecDeque::new(),
            reveal_first: None,
            outcome: None,
            end_reason: None,
            logging: false,
            game_no: 1,
            match_wins: Vec::new(),
            starter: 0,
            completed: 0,
        }
    }

    #[test]
    fn knowledge_goes_with_its_card_and_comes_back_on_undo() {
        let mut s = two_slots();
        let mut stash = Stash::new();
        let show = Write::Know {
            at: KnowAt::Card(2),
            slot: 0,
            players: bit(1),
        };
        let u1 = s.write_undoable(&show, &mut stash).unwrap();
        assert_eq!(s.known_sets(0).collect::<Vec<_>>(), [0, 2, 0, 0]);
        // The next copy not yet known to that player.
        assert!(s.write(&show));
        assert_eq!(s.known_sets(0).collect::<Vec<_>>(), [0, 2, 0, 2]);
        // A card moved by id takes its set (the top-most copy: place 3).
        let mv = Write::MoveCard {
            card: 2,
            from: 0,
            to: 1,
            by: None,
        };
        let u2 = s.write_undoable(&mv, &mut stash).unwrap();
        assert_eq!(s.known_sets(1).collect::<Vec<_>>(), [2]);
        assert_eq!(s.known_sets(0).collect::<Vec<_>>(), [0, 2, 0]);
        s.undo(u2, &mut stash);
        assert_eq!(s.known_sets(0).collect::<Vec<_>>(), [0, 2, 0, 2]);
        assert_eq!(s.known_sets(1).count(), 0);
        // A draw takes the top card's; all cards, theirs.
        let (_, u3) = s.read_undoable(&Read::Draw {
            from: 0,
            to: 1,
            by: None,
        });
        assert_eq!(s.known_sets(1).collect::<Vec<_>>(), [2]);
        let u4 = (s.write_undoable(
            &Write::MoveAll {
                from: 0,
                to: 1,
                by: None,
            },
            &mut stash,
        ))
        .unwrap();
        assert_eq!(s.known_sets(1).collect::<Vec<_>>(), [2, 0, 2, 0]);
        s.undo(u4, &mut stash);
        s.undo(u3.unwrap(), &mut stash);
        assert_eq!(s.known_sets(0).collect::<Vec<_>>(), [0, 2, 0, 2]);
        // A shuffle forgets.
        s.shuffle_slot(0);
        assert!(!s.any_known(0));
        s.undo(u1, &mut stash);
        assert!(!s.any_known(0));
    }
}
