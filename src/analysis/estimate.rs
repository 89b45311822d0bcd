//! How big a game is, estimated cheaply before a method lists it, so that
//! a game too big is refused in seconds rather than after filling the
//! budget (a Connect Four solve used to take minutes to give up).
//!
//! Two sizes, for two kinds of method:
//! - `positions`: the distinct positions an exact solve keeps (it merges
//!   transpositions). Random lines of play are drawn from the position,
//!   and at each depth the positions met twice are counted: few repeats
//!   among n draws mean many positions (the birthday bound). The figure is
//!   a lower bound, which holds with 99.9% confidence whatever the game
//!   (lines that favour some positions only repeat more), so a refusal on
//!   it is never a guess; a game under it is still held to the budget as
//!   it is solved.
//! - `tree_nodes`: the nodes of the whole tree that CFR+ lists (no
//!   merging), counted exactly over the positions, which are often far
//!   fewer (a bidding game's); where they are too many to count, the
//!   tree is at least as big as `positions` says.

use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use rustc_hash::FxHashMap;

use super::tree;
use crate::core::{State, below};
use crate::error::{Error, ErrorKind, Refusal, Result};
use crate::game::Game;

/// What random lines of play showed of a game's size from a position.
#[derive(Debug, Clone, Copy)]
pub struct Positions {
    /// Distinct positions from there, at least (99.9% confidence).
    pub at_least: f64,
    /// Joint moves per position, on average along the lines.
    pub moves: f64,
    /// Seconds a move took (a position copied and the move applied).
    pub move_seconds: f64,
    /// Lines drawn.
    pub lines: usize,
}

impl Positions {
    /// Seconds an exact solve would take on one thread, at least: each
    /// position's every joint move made once.
    pub fn seconds_at_least(&self) -> f64 {
        self.at_least * self.moves * self.move_seconds
    }
}

/// The chance that a bound is wrong, shared among the turns and looks.
const WRONG: f64 = 1e-3;
/// Lines drawn between looks at the bound.
const BATCH: usize = 256;
/// At most this many lines, of at most this many moves in all: counts,
/// not a clock, so that a bound (and a refusal made from it) is the same
/// on any machine. The time is a last guard for a game whose moves are
/// slow, which only ever lowers the bound.
const MAX_LINES: usize = 16_384;
const MAX_MOVES: u64 = 1_000_000;
const MAX_TIME: Duration = Duration::from_secs(60);
/// Repeats at every depth past which the count is as good as it gets.
const ENOUGH_REPEATS: u64 = 32;

/// The positions an exact solve from `roots` (with their chances) would
/// meet, from random lines of play; it stops drawing as soon as the bound
/// passes `stop_above`, or the repeats pin the count down, or past
/// `MAX_LINES` lines or `MAX_MOVES` moves. `visit` sees every position drawn with
/// its depth (a solver checks them for what it cannot handle) and may stop
/// the count with an error.
pub fn positions(
    game: &Game,
    roots: &[(f64, State)],
    stop_above: f64,
    visit: &mut dyn FnMut(&State, usize) -> Result<()>,
) -> Result<Positions> {
    let started = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(0x51_2E);
    // Positions met on each turn, with how often: a position's key holds
    // its turn, so the turns' sets never share a position (the number of
    // decisions made would not do: a hook may ask once or twice a turn).
    let mut turns: FxHashMap<u32, FxHashMap<u128, u64>> = FxHashMap::default();
    let (mut moves, mut made) = (0f64, 0u64);
    let mut lines = 0;
    loop {
        for _ in 0..BATCH {
            let Some(mut st) = pick(&mut rng, roots) else {
                break;
            };
            st.reseed(rng.next_u64());
            // A later game of a match is solved in tables of its own, from
            // depth 0 again: the line stops where the game does.
            let game_no = st.game_no();
            for depth in 0..=tree::MAX_DEPTH {
                if st.is_over() || st.game_no() != game_no || made >= MAX_MOVES {
                    break;
                }
                visit(&st, depth)?;
                *turns
                    .entry(st.turn())
                    .or_default()
                    .entry(st.key_with_turn(game))
                    .or_default() += 1;
                let waiting = st.waiting();
                let mut joint = Vec::with_capacity(waiting.len());
                let mut n = 1f64;
                for p in waiting {
                    let legal = st.legal(p);
                    n *= legal.len() as f64;
                    let i = below(&mut rng, legal.len().max(1) as u64) as usize;
                    if let Some(c) = legal.get(i) {
                        joint.push((p, c.clone()));
                    }
                }
                moves += n;
                made += 1;
                st = tree::sample(game, &st, &joint)?;
            }
            lines += 1;
        }
        let (at_least, pinned) = bound(turns.values());
        let done = at_least > stop_above
            || pinned
            || lines >= MAX_LINES
            || made >= MAX_MOVES
            || started.elapsed() >= MAX_TIME;
        if done {
            let made = made.max(1) as f64;
            return Ok(Positions {
                at_least,
                moves: moves / made,
                move_seconds: started.elapsed().as_secs_f64() / made,
                lines,
            });
        }
    }
}

/// The fewest positions the repeats on each turn allow (each turn's
/// bound wrong with chance at most `WRONG` / (turns x looks): all of them,
/// at every look the drawing takes, together at most `WRONG`), and whether
/// every turn repeated enough to pin its count.
fn bound<'a>(turns: impl Iterator<Item = &'a FxHashMap<u128, u64>> + Clone) -> (f64, bool) {
    let sampled = turns.clone().filter(|m| m.len() > 1).count().max(1);
    let looks = MAX_LINES.div_ceil(BATCH);
    let l = ((sampled * looks) as f64 / WRONG).ln();
    let mut total = 0.0;
    let mut pinned = true;
    for m in turns {
        let n: u64 = m.values().sum();
        let distinct = m.len() as f64;
        if n < 2 {
            total += distinct;
            continue;
        }
        let pairs = (n * (n - 1) / 2) as f64;
        let repeats: u64 = m.values().map(|&k| k * (k - 1) / 2).sum();
        pinned &= repeats >= ENOUGH_REPEATS || m.len() == 1;
        // Among M positions drawn alike, a pair repeats with chance 1/M
        // (more when some are likelier), so pairs / M repeats are
        // expected: M is at least pairs over the most repeats expected
        // that could have shown this few (a Poisson bound at chance l).
        let c = repeats as f64;
        let most = c + l + (2.0 * c * l).sqrt();
        total += (pairs / most).max(distinct);
    }
    (total, pinned)
}

/// The nodes of the whole tree CFR+ lists from `roots` (decisions, one
/// a player at a simultaneous choice, chance events of more than one
/// outcome, and ends), counted exactly over the game's positions: a
/// subtree's size is one per position (the tree below a position is the
/// position's), so a bidding game of few positions and a vast tree is
/// counted in a moment. None when the positions pass `max_positions`
/// first; a count past `stop_above` returns as soon as it is found.
pub fn tree_nodes(
    game: &Game,
    roots: &[(f64, State)],
    max_positions: usize,
    stop_above: f64,
) -> Result<Option<f64>> {
    let mut c = Counter {
        game,
        sizes: FxHashMap::default(),
        max_positions,
        stop_above,
    };
    c.chance(roots, 0)
}

struct Counter<'a> {
    game: &'a Game,
    sizes: FxHashMap<u128, f64>,
    max_positions: usize,
    stop_above: f64,
}

impl Counter<'_> {
    /// A chance event's nodes: its own (if it has a choice of outcomes)
    /// and its outcomes'.
    fn chance(&mut self, outs: &[(f64, State)], depth: usize) -> Result<Option<f64>> {
        let mut n = if outs.len() > 1 { 1.0 } else { 0.0 };
        for (_, st) in outs {
            let Some(k) = self.position(st, depth)? else {
                return Ok(None);
            };
            n += k;
            if n > self.stop_above {
                break;
            }
        }
        Ok(Some(n))
    }

    fn position(&mut self, st: &State, depth: usize) -> Result<Option<f64>> {
        if st.is_over() {
            return Ok(Some(1.0));
        }
        if depth >= tree::MAX_DEPTH {
            // A line without end, refused as the listing refuses it.
            return Err(Error::new(
                ErrorKind::Refused(Refusal::TooDeep {
                    limit: tree::MAX_DEPTH,
                }),
                format!(
                    "solve cannot handle {}: a line of play runs past {} decisions without ending",
                    self.game.id(),
                    tree::MAX_DEPTH
                ),
            ));
        }
        let key = st.key(self.game);
        if let Some(&n) = self.sizes.get(&key) {
            return Ok(Some(n));
        }
        if self.sizes.len() >= self.max_positions {
            return Ok(None);
        }
        let waiting = st.waiting();
        // One node for the first player, and one for each later player per
        // choice of those before (CFR+ lists a simultaneous choice as a
        // player at a time).
        let mut n = 1.0;
        let mut width = 1.0;
        for (k, &p) in waiting.iter().enumerate() {
            width *= st.legal(p).len() as f64;
            if k + 1 < waiting.len() {
                n += width;
            }
        }
        if width > self.stop_above {
            // Over already, before its joint moves are listed.
            return Ok(Some(n + width));
        }
        for joint in tree::joint_moves_of(st, &waiting) {
            let outs = tree::children(self.game, st, &joint)?;
            let Some(k) = self.chance(&outs, depth + 1)? else {
                return Ok(None);
            };
            n += k;
            if n > self.stop_above {
                return Ok(Some(n));
            }
        }
        self.sizes.insert(key, n);
        Ok(Some(n))
    }
}

/// One of `outs` drawn by its chance.
fn pick(rng: &mut ChaCha8Rng, outs: &[(f64, State)]) -> Option<State> {
    let x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let mut acc = 0.0;
    let at = outs
        .iter()
        .position(|(p, _)| {
            acc += p;
            x < acc
        })
        .unwrap_or(outs.len().checked_sub(1)?);
    Some(outs[at].1.clone())
}
