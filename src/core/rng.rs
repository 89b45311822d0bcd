//! Draws from a game's seeded RNG, stable across versions: seed + moves
//! reproduce a game.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::Rng;

use crate::definition::CardIx;

/// Uniform integer in 0..n from the RNG (rejection sampling, so unbiased and
/// stable across versions). `n` must be > 0.
pub fn below(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    let zone = u64::MAX - (u64::MAX % n);
    loop {
        let x = rng.next_u64();
        if x < zone {
            return x % n;
        }
    }
}

/// Fisher-Yates with `below`.
pub fn shuffle(rng: &mut ChaCha8Rng, cards: &mut [CardIx]) {
    shuffle_by(&mut |n| below(rng, n), cards, &mut []);
}

/// Fisher-Yates with the draws of `draw` (`draw(n)` in 0..n), with `by`
/// (one entry per card, or none) kept alongside: the same draws, so the
/// cards land where `shuffle` puts them.
pub fn shuffle_by(draw: &mut impl FnMut(u64) -> u64, cards: &mut [CardIx], by: &mut [u8]) {
    for i in (1..cards.len()).rev() {
        let j = draw(i as u64 + 1) as usize;
        cards.swap(i, j);
        if !by.is_empty() {
            by.swap(i, j);
        }
    }
}

/// Draws given in place of the RNG's, to enumerate chance (`solve`): each
/// draw takes the next given value; past them, the first draw asked for
/// says its range (`wanted`) and takes 0, and the position is to be thrown
/// away and made again with one more draw given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Forced {
    pub draws: Vec<u32>,
    pub used: usize,
    pub wanted: Option<u32>,
}

impl Forced {
    pub fn draw(&mut self, n: u64) -> u64 {
        let v = match self.draws.get(self.used) {
            Some(&v) => u64::from(v).min(n - 1),
            None => {
                if self.wanted.is_none() {
                    self.wanted = Some(u32::try_from(n).unwrap_or(u32::MAX));
                }
                0
            }
        };
        self.used += 1;
        v
    }
}
