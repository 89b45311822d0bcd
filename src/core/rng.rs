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
    for i in (1..cards.len()).rev() {
        let j = below(rng, i as u64 + 1) as usize;
        cards.swap(i, j);
    }
}

/// `shuffle` of `cards`, with `by` (one entry per card) kept alongside:
/// the same draws, so the cards land where `shuffle` puts them.
pub fn shuffle_with(rng: &mut ChaCha8Rng, cards: &mut [CardIx], by: &mut [u8]) {
    for i in (1..cards.len()).rev() {
        let j = below(rng, i as u64 + 1) as usize;
        cards.swap(i, j);
        by.swap(i, j);
    }
}
