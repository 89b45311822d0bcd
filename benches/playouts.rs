//! Random playouts per second: the engine (real YAML + Rhai rules, quiet
//! playouts with the hook memo warm) against native Rust implementations of
//! the same rules, so that the ratio is the engine's cost.
//!
//!     cargo bench --bench playouts

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use tabula::bot::{Bot, RandomBot};
use tabula::{Game, Settings, State};

/// The counting allocator the `tabula` binary installs (src/main.rs), so
/// that the memory budget and the counts are as the program has them.
#[cfg(feature = "memory-budget")]
#[global_allocator]
static ALLOCATOR: tabula::memory::Counting = tabula::memory::Counting;

fn below(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    let zone = u64::MAX - (u64::MAX % n);
    loop {
        let x = rng.next_u64();
        if x < zone {
            return x % n;
        }
    }
}

/// BraveRats (B1-B11), natively: cards 0-7, hands as bit sets.
fn native_braverats(rng: &mut ChaCha8Rng) -> i8 {
    let mut hands = [0xFFu8; 2];
    let (mut vic, mut held, mut bonus) = ([0i64; 2], 0i64, [0i64; 2]);
    for _ in 0..8 {
        let mut c = [0u8; 2];
        for p in 0..2 {
            let n = hands[p].count_ones() as u64;
            let mut k = below(rng, n);
            for card in 0..8u8 {
                if hands[p] & (1 << card) != 0 {
                    if k == 0 {
                        c[p] = card;
                        break;
                    }
                    k -= 1;
                }
            }
            hands[p] &= !(1 << c[p]);
        }
        let s = [c[0] as i64 + bonus[0], c[1] as i64 + bonus[1]];
        bonus = [0, 0];
        let twin = c[0] == c[1] && (c[0] == 7 || c[0] == 2);
        let works = |i: usize| c[1 - i] != 5 && !twin;
        let winner: Option<usize> = if (c[0] == 0 && works(0)) || (c[1] == 0 && works(1)) {
            None
        } else if c[0] == 1 && c[1] == 7 {
            return 0;
        } else if c[1] == 1 && c[0] == 7 {
            return 1;
        } else if c[0] == 7 && works(0) {
            Some(0)
        } else if c[1] == 7 && works(1) {
            Some(1)
        } else if s[0] == s[1] {
            None
        } else {
            let hi = if s[0] > s[1] { 0 } else { 1 };
            let assassin = (c[0] == 3 && works(0)) || (c[1] == 3 && works(1));
            Some(if assassin { 1 - hi } else { hi })
        };
        match winner {
            None => held += 1,
            Some(w) => {
                vic[w] += if c[w] == 4 && works(w) { 2 } else { 1 } + held;
                held = 0;
                if vic[w] >= 4 {
                    return w as i8;
                }
            }
        }
        for i in 0..2 {
            if c[i] == 6 && works(i) {
                bonus[i] = 2;
            }
        }
    }
    -1
}

/// Experior (E2-E7), natively.
fn native_experior(rng: &mut ChaCha8Rng) -> i8 {
    // xp[p][type]; cards 0..6 = type * 2 + strong.
    let mut xp = [[3i64, 2, 2], [2, 3, 2]];
    let mut wounds = [0i64; 2];
    let mut resting = [6u8; 2];
    for _turn in 0..500 {
        let mut c = [0u8; 2];
        for p in 0..2 {
            let n = if resting[p] == 6 { 6 } else { 5 };
            let mut k = below(rng, n) as u8;
            if resting[p] != 6 && k >= resting[p] {
                k += 1;
            }
            c[p] = k;
        }
        resting = c;
        let (t, m) = ([c[0] / 2, c[1] / 2], [c[0] % 2, c[1] % 2]);
        let beats = |a: u8, b: u8| (a + 1) % 3 == b; // sword>bow>magic>sword
        let winner = if t[0] != t[1] {
            Some(if beats(t[0], t[1]) { 0 } else { 1 })
        } else if m[0] != m[1] {
            Some(if m[0] == 0 { 0 } else { 1 })
        } else {
            let ty = t[0] as usize;
            if xp[0][ty] < xp[1][ty] {
                xp[0][ty] += 1;
            } else if xp[1][ty] < xp[0][ty] {
                xp[1][ty] += 1;
            }
            None
        };
        if let Some(w) = winner {
            let ty = t[w] as usize;
            let dmg = if m[w] == 1 { 3 * xp[w][ty] } else { xp[w][ty] };
            wounds[1 - w] += dmg;
            xp[w][ty] += 1;
        }
        if wounds[0] >= 100 || wounds[1] >= 100 {
            let spread = |p: usize| {
                let hi = *xp[p].iter().max().unwrap_or(&0);
                (hi - *xp[p].iter().min().unwrap_or(&0), hi)
            };
            let (s0, s1) = (spread(0), spread(1));
            let attacker = if s0.0 != s1.0 {
                Some(if s0.0 > s1.0 { 0 } else { 1 })
            } else if wounds[0] != wounds[1] {
                Some(if wounds[0] < wounds[1] { 0 } else { 1 })
            } else {
                None
            };
            if let Some(a) = attacker {
                wounds[1 - a] += 3 * if a == 0 { s0.1 } else { s1.1 };
            }
            return match wounds[0].cmp(&wounds[1]) {
                std::cmp::Ordering::Less => 0,
                std::cmp::Ordering::Greater => 1,
                std::cmp::Ordering::Equal => -1,
            };
        }
    }
    -1
}

fn engine_game(id: &str) -> Game {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    tabula::load(id, &dir, &Settings::default()).expect("load")
}

fn engine_playout(game: &Game, seed: u64) -> bool {
    let mut st = State::new_quiet(game, seed).expect("setup");
    let mut bot = RandomBot::new(seed);
    while let Some(p) = st.first_waiting() {
        let c = bot.choose(game, &st, p).expect("legal");
        st.apply_unchecked(game, p, c).expect("apply");
    }
    st.is_over()
}

fn playouts(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    c.bench_function("native braverats", |b| {
        b.iter(|| native_braverats(&mut rng))
    });
    c.bench_function("native experior", |b| b.iter(|| native_experior(&mut rng)));
    for id in ["braverats", "experior"] {
        let game = engine_game(id);
        // Warm the memo as a long simulation would.
        for s in 0..20_000 {
            engine_playout(&game, s);
        }
        let mut seed = 1_000_000u64;
        c.bench_function(&format!("engine {id}"), |b| {
            b.iter(|| {
                seed += 1;
                engine_playout(&game, seed)
            })
        });
    }
}

criterion_group!(benches, playouts);
criterion_main!(benches);
