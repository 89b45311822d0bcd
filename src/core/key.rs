//! A canonical state key: what a transposition table (solve, best
//! responses) stores a position's value under.

use std::hash::{Hash, Hasher};

use rustc_hash::FxHasher;

use super::{AsDef, Outcome, State};
use crate::definition::CardIx;

impl State {
    /// A canonical key of the state (128 bits of two hashes): equal for
    /// states that play on the same; everything that can matter, with the zones the YAML marks `unordered` taken as multisets.
    /// The turn number is in it only where the rules may read it
    /// (`Def::reads_turn`: a turn limit, or a script that calls
    /// `turn()`): elsewhere two positions a turn apart play the same.
    pub fn key(&self, game: &(impl AsDef + ?Sized)) -> u128 {
        self.key_with(game, game.def().reads_turn)
    }

    /// The key with the turn number, whether or not the rules read it:
    /// positions of different turns never share one (the solver's size
    /// estimate counts each turn's positions apart).
    pub fn key_with_turn(&self, game: &(impl AsDef + ?Sized)) -> u128 {
        self.key_with(game, true)
    }

    /// The key without the turn number: equal for two positions of one
    /// line of play that differ only in how many turns were played (a
    /// game that comes back where it was, as Pig's turns do).
    pub fn key_apart_from_turn(&self, game: &(impl AsDef + ?Sized)) -> u128 {
        self.key_with(game, false)
    }

    fn key_with(&self, game: &(impl AsDef + ?Sized), turn: bool) -> u128 {
        let st = self;
        let turn = if turn { st.turn } else { 0 };
        let def = game.def();
        let mut a = FxHasher::default();
        let mut b = FxHasher::default();
        1u8.hash(&mut b);
        let mut both = |x: &dyn Fn(&mut FxHasher)| {
            x(&mut a);
            x(&mut b);
        };
        both(&|h| st.stats.hash(h));
        both(&|h| st.vars.hash(h));
        for (z, zone) in def.zones.iter().enumerate() {
            for p in def.owners(z) {
                let slot = def.slot(z, p);
                let cards = st.slot(slot);
                // Only zones that keep a record per card have any.
                let by = st.origins.get(slot).map_or(&[][..], |v| v.as_slice());
                match (zone.unordered, zone.records()) {
                    (false, false) => both(&|h| cards.hash(h)),
                    (false, true) => both(&|h| (cards, by).hash(h)),
                    (true, false) => {
                        let mut s = cards.to_vec();
                        s.sort_unstable();
                        both(&|h| s.hash(h));
                    }
                    (true, true) => {
                        let mut s: Vec<(CardIx, u8)> =
                            cards.iter().copied().zip(by.iter().copied()).collect();
                        s.sort_unstable();
                        both(&|h| s.hash(h));
                    }
                }
                // Who knows which card, where anyone knows one: with each
                // card, as a multiset where the order does not matter.
                if st.any_known(slot) {
                    let mut s: Vec<(usize, CardIx, u64)> = (cards.iter().enumerate())
                        .map(|(i, &c)| {
                            (
                                if zone.unordered { 0 } else { i },
                                c,
                                st.known_mask(slot, i),
                            )
                        })
                        .collect();
                    s.sort_unstable();
                    both(&|h| (slot, &s).hash(h));
                }
            }
        }
        both(&|h| (turn, st.active, st.cursor, st.game_no).hash(h));
        both(&|h| st.order.hash(h));
        both(&|h| (&st.match_wins, st.starter).hash(h));
        both(&|h| st.reveal_first.hash(h));
        both(&|h| {
            st.outcome
                .map(|o| match o {
                    Outcome::Win(p) => p as i64,
                    Outcome::Draw => -1,
                })
                .hash(h)
        });
        for d in &st.pending {
            both(&|h| {
                (
                    &*d.then, &d.players, &d.chosen, &d.options, d.first, &d.data,
                )
                    .hash(h)
            });
        }
        (u128::from(a.finish()) << 64) | u128::from(b.finish())
    }
}
