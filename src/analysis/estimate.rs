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
use rustc_hash::{FxHashMap, FxHashSet};

use super::tree;
use crate::core::{State, below};
use crate::error::{Error, ErrorKind, Refusal, Result};
use crate::game::Game;

/// What a count near the position and random lines of play below it
/// showed of a game's size.
#[derive(Debug, Clone, Copy)]
pub struct Positions {
    /// Distinct positions from there, at least (99.9% confidence; exact
    /// when `lines` is 0).
    pub at_least: f64,
    /// Joint moves per position, on average.
    pub moves: f64,
    /// Seconds a move took (a position copied and the move applied).
    pub move_seconds: f64,
    /// Positions counted one by one, nearest the position first.
    pub listed: usize,
    /// Random lines drawn below those.
    pub lines: usize,
}

impl Positions {
    /// Seconds an exact solve would take on one thread, at least: each
    /// position's every joint move made once.
    pub fn seconds_at_least(&self) -> f64 {
        self.at_least * self.moves * self.move_seconds
    }

    /// How the figure was found, for a message: "N counted one by one",
    /// or "estimated from K random lines of play below the N nearest,
    /// counted one by one".
    pub fn how(&self) -> String {
        how(self.listed, self.lines)
    }
}

/// How a size was found (`Positions::how`), from its counts.
pub fn how(listed: usize, lines: usize) -> String {
    if lines == 0 {
        return format!("{listed} counted one by one");
    }
    format!(
        "estimated from {lines} random lines of play below the {listed} nearest, counted one by one"
    )
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
/// Of those moves, at most this many list the positions nearest the
/// roots one by one, keeping at most `MAX_FRONTIER` positions of a layer.
const LIST_MOVES: u64 = 250_000;
const MAX_FRONTIER: usize = 1 << 16;
/// Repeats at every depth past which the count is as good as it gets.
const ENOUGH_REPEATS: u64 = 32;

/// The positions nearest the roots, listed one by one as the solver
/// would meet them (its key; ends and later games of a match aside), a
/// layer of decisions at a time while the moves allow: every position
/// counted, and the last layer reached (with its depth) to draw lines
/// from. No frontier: every position was listed.
struct Near {
    seen: FxHashSet<u128>,
    frontier: Vec<State>,
    depth: usize,
    /// Joint moves over the positions listed, and those positions.
    moves: f64,
    made: u64,
    /// Moves applied.
    applied: u64,
}

fn near(
    game: &Game,
    roots: &[(f64, State)],
    stop_above: f64,
    started: Instant,
    visit: &mut dyn FnMut(&State, usize) -> Result<()>,
) -> Result<Near> {
    let mut seen = FxHashSet::default();
    let mut layer: Vec<State> = Vec::new();
    for (_, st) in roots {
        if !st.is_over() && seen.insert(st.key(game)) {
            layer.push(st.clone());
        }
    }
    let game_no = layer.first().map_or(1, State::game_no);
    let (mut moves, mut made, mut applied) = (0f64, 0u64, 0u64);
    let mut depth = 0;
    // Every way out leaves the layer it stopped in as the frontier (empty
    // where the game was listed to its ends).
    'layers: while !layer.is_empty() {
        let full = applied >= LIST_MOVES
            || seen.len() as f64 > stop_above
            || started.elapsed() >= MAX_TIME
            || depth >= tree::MAX_DEPTH;
        if full {
            break;
        }
        let mut next = Vec::new();
        for st in &layer {
            visit(st, depth)?;
            let waiting = st.waiting();
            let joints = tree::joint_moves_of(st, &waiting);
            moves += joints.len() as f64;
            made += 1;
            for joint in joints {
                applied += 1;
                for (_, child) in tree::children(game, st, &joint)? {
                    if child.is_over() || child.game_no() != game_no {
                        continue;
                    }
                    if seen.insert(child.key(game)) {
                        next.push(child);
                    }
                    if seen.len() as f64 > stop_above {
                        // Over the budget, counted: no more to know.
                        break 'layers;
                    }
                }
            }
            if next.len() > MAX_FRONTIER {
                // Too wide to keep: this layer is where the lines start.
                next.clear();
                applied = applied.max(LIST_MOVES);
                break;
            }
        }
        if next.is_empty() && applied >= LIST_MOVES {
            break;
        }
        layer = next;
        depth += 1;
    }
    Ok(Near {
        seen,
        frontier: layer,
        depth,
        moves,
        made,
        applied,
    })
}

/// The positions an exact solve from `roots` (with their chances) would
/// meet. Those nearest the roots are listed one by one (a layer of
/// decisions at a time, up to `LIST_MOVES` moves); below the last layer
/// listed, random lines of play drawn from its positions (each as likely)
/// count the rest: at each turn, the positions met twice (few repeats
/// among n draws mean many positions: the birthday bound) give a lower
/// bound, which holds with 99.9% confidence whatever the game (lines
/// that favour some positions only repeat more). A game whose positions
/// mostly lie deeper than random lines from its start go (an endgame
/// whose random lines end in a few moves while careful ones run on) is
/// counted where its positions are. It stops as soon as the bound passes
/// `stop_above`, or the repeats pin the count down, or past `MAX_LINES`
/// lines or `MAX_MOVES` moves. `visit` sees every position met with its
/// depth (a solver checks them for what it cannot handle) and may stop
/// the count with an error.
pub fn positions(
    game: &Game,
    roots: &[(f64, State)],
    stop_above: f64,
    visit: &mut dyn FnMut(&State, usize) -> Result<()>,
) -> Result<Positions> {
    let started = Instant::now();
    let near = near(game, roots, stop_above, started, visit)?;
    let listed = near.seen.len();
    let (mut moves, mut made, mut applied) = (near.moves, near.made, near.applied);
    let done = |at_least: f64, moves: f64, made: u64, applied: u64, lines: usize| Positions {
        at_least,
        moves: (moves / made.max(1) as f64).max(1.0),
        move_seconds: started.elapsed().as_secs_f64() / applied.max(1) as f64,
        listed,
        lines,
    };
    if near.frontier.is_empty() || listed as f64 > stop_above {
        return Ok(done(listed as f64, moves, made, applied, 0));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(0x51_2E);
    // Positions met on each turn below the listed ones, with how often
    // (`key_with_turn`: the turns' sets never share a position).
    let mut turns: FxHashMap<u32, FxHashMap<u128, u64>> = FxHashMap::default();
    let mut lines = 0;
    let frontier = &near.frontier;
    let game_no = frontier[0].game_no();
    loop {
        for _ in 0..BATCH {
            let at = below(&mut rng, frontier.len() as u64) as usize;
            let mut st = frontier[at].clone();
            st.reseed(rng.next_u64());
            // A later game of a match is solved in tables of its own, from
            // depth 0 again: the line stops where the game does.
            for depth in near.depth..=tree::MAX_DEPTH {
                if st.is_over() || st.game_no() != game_no || applied >= MAX_MOVES {
                    break;
                }
                // A line's first position was listed (and is checked
                // here, as every position a line meets is).
                visit(&st, depth)?;
                if !near.seen.contains(&st.key(game)) {
                    *turns
                        .entry(st.turn())
                        .or_default()
                        .entry(st.key_with_turn(game))
                        .or_default() += 1;
                }
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
                applied += 1;
                st = tree::sample(game, &st, &joint)?;
            }
            lines += 1;
        }
        let (below_listed, pinned) = bound(turns.values());
        let at_least = listed as f64 + below_listed;
        let done_now = at_least > stop_above
            || pinned
            || lines >= MAX_LINES
            || applied >= MAX_MOVES
            || started.elapsed() >= MAX_TIME;
        if done_now {
            return Ok(done(at_least, moves, made, applied, lines));
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
