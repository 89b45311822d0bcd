//! The game as a tree: the one view of a game that every algorithm of
//! analysis walks (the exact solver, CFR+, MCCFR, best responses, the
//! bots), in the manner of OpenSpiel's State. A position is a node of one
//! of three kinds (`Node`): over, with each player's return; one player
//! to choose; several to choose at once. A joint move of the players
//! asked leads to a chance event: the positions it can reach with their
//! chances (`children`), or one of them drawn as play would (`sample`);
//! the starts of the game are one too (`roots`). What a player knows is
//! an observation (`observation`: what they see now, others' secret
//! choices taken back) and its words (`label`); a perfect-recall
//! information state folds observations and the player's own choices
//! along a line (`Recall`). The solvers, the evaluator and the best
//! responses take chance, joint moves and keys from here; the bots and
//! MCCFR, which play one decider at a time, still walk `State` directly.

use std::hash::{Hash, Hasher};

use rustc_hash::FxHasher;

use crate::core::{Choice, Forced, Outcome, State};
use crate::definition::PlayerIx;
use crate::error::{Error, Refusal, Result};
use crate::game::Game;

/// Decisions along one line of play that a search follows before it stops
/// with a message (a game that need not end shows as a line that does not).
pub const MAX_DEPTH: usize = 20_000;

/// A joint move: each asked player's choice.
pub type Joint = Vec<(PlayerIx, Choice)>;

/// Positions with their chances (summing to 1).
pub type Outcomes = Vec<(f64, State)>;

/// What a position asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// The game is over: `returns` says what each player gets.
    Over,
    /// One player chooses.
    One(PlayerIx),
    /// Several choose at once, each in secret, then all is revealed;
    /// with `first`, that player chooses first and the others see it (an
    /// ordered reveal).
    Together {
        players: Vec<PlayerIx>,
        first: Option<PlayerIx>,
    },
}

/// The kind of node `st` is.
pub fn node(st: &State) -> Node {
    if st.is_over() {
        return Node::Over;
    }
    let waiting = st.waiting();
    match waiting.as_slice() {
        [p] => Node::One(*p),
        _ => Node::Together {
            first: st.decision().and_then(|d| d.first),
            players: waiting,
        },
    }
}

/// Each player's return at an ended game: the declared payoff stat
/// (`payoff:`), or +1 to the winner and -1 shared by the others (0 each
/// in a draw), so that returns sum to 0.
pub fn returns(game: &Game, st: &State) -> Vec<f64> {
    let n = game.def().nplayers();
    if let Some(r) = st.payoff(game) {
        return r.into_iter().map(|x| x as f64).collect();
    }
    match st.outcome() {
        Some(Outcome::Win(w)) => (0..n)
            .map(|p| {
                if p == w {
                    1.0
                } else {
                    -1.0 / (n.max(2) - 1) as f64
                }
            })
            .collect(),
        _ => vec![0.0; n],
    }
}

/// Every joint move at `st`: each choice of the one player, or every
/// combination of the choices of those who choose at once (the first
/// player's choices outermost).
pub fn joint_moves(st: &State) -> Vec<Joint> {
    joint_moves_of(st, &st.waiting())
}

/// `joint_moves` of `players` (those `st` waits for), for a caller that
/// has them already: a solver calls this at every position.
pub fn joint_moves_of(st: &State, players: &[PlayerIx]) -> Vec<Joint> {
    if players.is_empty() {
        return Vec::new();
    }
    let legal: smallvec::SmallVec<[&[Choice]; 4]> = players.iter().map(|&p| st.legal(p)).collect();
    let total: usize = legal.iter().map(|l| l.len()).product();
    let mut out = Vec::with_capacity(total);
    // An odometer over the choices, the last player's turning fastest.
    let mut at: smallvec::SmallVec<[usize; 4]> = smallvec::smallvec![0; players.len()];
    for _ in 0..total {
        out.push(
            (players.iter().zip(&legal).zip(&at))
                .map(|((&p, l), &i)| (p, l[i].clone()))
                .collect(),
        );
        for k in (0..at.len()).rev() {
            at[k] += 1;
            if at[k] < legal[k].len() {
                break;
            }
            at[k] = 0;
        }
    }
    out
}

/// The position `joint` leads to, its chance drawn from the position's
/// own RNG as in play.
pub fn sample(game: &Game, st: &State, joint: &[(PlayerIx, Choice)]) -> Result<State> {
    let mut s = st.clone();
    for (p, c) in joint {
        s.apply_unchecked(game, *p, c.clone())?;
    }
    Ok(s)
}

/// A perfect-recall information state: a player's observations and own
/// choices along a line, folded into one key.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Recall(pub u64);

impl Recall {
    /// The state after `p` saw `seen` (`State::seen_and_unseen`).
    pub fn saw(self, seen: u64, p: PlayerIx) -> Recall {
        Recall(mix(&[self.0, seen, p as u64]))
    }
    /// The state after its player took choice number `i`.
    pub fn chose(self, i: usize) -> Recall {
        Recall(mix(&[self.0, i as u64]))
    }
}

/// One hash of several.
pub fn mix(parts: &[u64]) -> u64 {
    let mut h = FxHasher::default();
    parts.hash(&mut h);
    h.finish()
}

/// "solve cannot handle GAME: why".
fn cannot(game: &Game, kind: Refusal, why: String) -> Error {
    Error::refused(kind, format!("solve cannot handle {}: {why}", game.id()))
}

/// Chance outcomes enumerated at most per move (or setup): every sequence
/// of draws is made from the position before (a shuffle of n cards asks
/// for n-1 draws, so n! sequences).
pub const MAX_OUTCOMES: usize = 200_000;

/// Every position `make` can give, with its chance: `make` is run with
/// every sequence of draws its chance can ask for (`Forced`), depth first,
/// and positions reached by several sequences are merged.
fn enumerate(game: &Game, make: impl Fn(Forced) -> Result<State>) -> Result<Vec<(f64, State)>> {
    let mut first = make(Forced::default())?;
    let Some(n) = first.forced().and_then(|f| f.wanted) else {
        first.unforce();
        return Ok(vec![(1.0, first)]);
    };
    let mut out: Vec<(f64, State)> = Vec::new();
    let mut at: rustc_hash::FxHashMap<u128, usize> = rustc_hash::FxHashMap::default();
    let mut made = 1usize;
    let mut stack: Vec<(Vec<u32>, f64)> = (0..n)
        .rev()
        .map(|v| (vec![v], 1.0 / f64::from(n)))
        .collect();
    while let Some((draws, p)) = stack.pop() {
        made += 1;
        if made > MAX_OUTCOMES {
            return Err(too_much_chance(game, None));
        }
        // Past a thousand, refuse at once what would be refused after
        // MAX_OUTCOMES runs (small events never pay for the probe).
        if made == PROBE_AFTER {
            let estimate = draw_sequences(&make, n)?;
            if estimate > 4.0 * MAX_OUTCOMES as f64 {
                return Err(too_much_chance(game, Some(estimate)));
            }
        }
        let mut s = make(Forced {
            draws: draws.clone(),
            ..Forced::default()
        })?;
        match s.forced().and_then(|f| f.wanted) {
            Some(n) => {
                for v in (0..n).rev() {
                    let mut d = draws.clone();
                    d.push(v);
                    stack.push((d, p / f64::from(n)));
                }
            }
            None => {
                s.unforce();
                merge(game, &mut out, &mut at, p, s);
            }
        }
    }
    Ok(out)
}

/// Lines of draws `draw_sequences` follows.
const PROBES: u64 = 4;

/// Draw sequences listed before the size of the rest is estimated.
const PROBE_AFTER: usize = 1_000;

/// How many draw sequences (nodes of the tree of draws) `make`'s chance
/// makes, estimated by following a few lines of draws at random and
/// multiplying the ranges met along each (Knuth's estimator: exact for a
/// shuffle, whose ranges never depend on the draws): a run a draw, not
/// one a sequence. The median of the lines, so that one line into a rare
/// branch does not speak for all.
fn draw_sequences(make: &impl Fn(Forced) -> Result<State>, first: u32) -> Result<f64> {
    let mut lines = Vec::with_capacity(PROBES as usize);
    for line in 0..PROBES {
        let (mut draws, mut range, mut width) = (Vec::new(), first, 1.0);
        let mut nodes = 1.0;
        while range > 0 && nodes <= 8.0 * MAX_OUTCOMES as f64 {
            width *= f64::from(range);
            nodes += width;
            draws.push((mix(&[line, draws.len() as u64]) % u64::from(range)) as u32);
            let s = make(Forced {
                draws: draws.clone(),
                ..Forced::default()
            })?;
            range = s.forced().and_then(|f| f.wanted).unwrap_or(0);
        }
        lines.push(nodes);
    }
    lines.sort_by(f64::total_cmp);
    let mid = lines.len() / 2;
    Ok((lines[mid - 1] + lines[mid]) / 2.0)
}

fn too_much_chance(game: &Game, estimate: Option<f64>) -> Error {
    let about = estimate.map_or(String::new(), |e| format!(", about {e:.1e}"));
    cannot(
        game,
        Refusal::TooMuchChance {
            limit: MAX_OUTCOMES,
        },
        format!(
            "its chance makes more than {MAX_OUTCOMES} outcomes at once{about} (a shuffle of n cards makes n! orders, unless a `deal` from it follows): one deal of it can be solved, or the value estimated over sampled deals"
        ),
    )
}

/// Add position `st` with chance `p` to `out`, where `at` finds a
/// position already there by its key (its chance then grows).
fn merge(
    game: &Game,
    out: &mut Vec<(f64, State)>,
    at: &mut rustc_hash::FxHashMap<u128, usize>,
    p: f64,
    st: State,
) {
    match at.entry(st.key(game)) {
        std::collections::hash_map::Entry::Occupied(e) => out[*e.get()].0 += p,
        std::collections::hash_map::Entry::Vacant(e) => {
            e.insert(out.len());
            out.push((p, st));
        }
    }
}

/// The positions making `moves` at `st` can lead to, with their chances
/// (one, with chance 1, where no chance happens).
pub fn children(
    game: &Game,
    st: &State,
    moves: &[(PlayerIx, Choice)],
) -> Result<Vec<(f64, State)>> {
    enumerate(game, |forced| {
        let mut s = st.clone();
        s.force(forced);
        for (p, c) in moves {
            s.apply_unchecked(game, *p, c.clone())?;
        }
        Ok(s)
    })
}

/// The positions a game starts from, with their chances: the setup from
/// `seed`, or (None) every setup its chance can make.
pub fn roots(game: &Game, seed: Option<u64>) -> Result<Vec<(f64, State)>> {
    match seed {
        Some(seed) => Ok(vec![(1.0, State::new_quiet(game, seed)?)]),
        None => enumerate(game, |forced| State::new_forced(game, forced)),
    }
}

/// `deals` setups from seeds `seed`, `seed + 1`, ..., each weighted
/// 1/deals (the same setup met twice counts twice): a sample of a setup
/// whose chance makes too many to list.
pub fn sampled_roots(game: &Game, deals: u64, seed: u64) -> Result<Vec<(f64, State)>> {
    let mut out: Vec<(f64, State)> = Vec::new();
    let mut at: rustc_hash::FxHashMap<u128, usize> = rustc_hash::FxHashMap::default();
    let w = 1.0 / deals.max(1) as f64;
    for k in 0..deals {
        let st = State::new_quiet(game, seed.wrapping_add(k))?;
        merge(game, &mut out, &mut at, w, st);
    }
    Ok(out)
}

/// A player's information set at `st`: what they see, with others' secret
/// choices taken back (as play shows it), and who they are.
pub fn observation(game: &Game, st: &State, p: PlayerIx) -> u64 {
    let chosen = st
        .decision()
        .is_some_and(|d| d.chosen.iter().any(Option::is_some));
    let seen = if chosen {
        st.unseen_choices_taken_back(p).seen_and_unseen(game, p).0
    } else {
        st.seen_and_unseen(game, p).0
    };
    mix(&[seen, p as u64])
}

/// What `p` sees at `st`, in words: the cards only they see, `[a b]`
/// (a card of theirs laid face down included), then each zone everyone
/// sees that holds cards, `(Public card: q; second Shown: 3)`, a face-down
/// card only its owner sees as `?`; a hidden card `p` knows by where it
/// lies, `Q♠@east Hand`. The moves so far are the rest of an information
/// set.
pub fn label(game: &Game, st: &State, p: PlayerIx) -> String {
    use crate::core::{face_down_visible, zone_visible};
    use crate::definition::format::Per;
    let def = game.def();
    let everyone = |f: &dyn Fn(PlayerIx) -> bool| (0..def.nplayers()).all(f);
    let mut own = Vec::new();
    let mut public = Vec::new();
    for (z, zone) in def.zones.iter().enumerate() {
        for o in def.owners(z) {
            let owner = (zone.per == Per::Player).then_some(o);
            if zone.show && !zone_visible(zone.visibility, owner, Some(p)) {
                // Cards hidden here that `p` knows: `q@east Hand`.
                let slot = def.slot(z, o);
                let whose = owner.map_or(String::new(), |o| format!("{} ", def.players[o].id));
                for (i, &c) in st.zone(game, z, o).iter().enumerate() {
                    if st.knows(slot, i, Some(p)) {
                        own.push(format!(
                            "{}@{whose}{}",
                            def.cards[c as usize].name, zone.name
                        ));
                    }
                }
            }
            if !zone.show || !zone_visible(zone.visibility, owner, Some(p)) {
                continue;
            }
            let all_see = everyone(&|v| zone_visible(zone.visibility, owner, Some(v)));
            let down_mine = face_down_visible(zone, owner, Some(p));
            let down_all = everyone(&|v| face_down_visible(zone, owner, Some(v)));
            let mut shown = Vec::new();
            let slot = def.slot(z, o);
            for (&c, down) in st.zone(game, z, o).iter().zip(st.face_down(slot)) {
                let name = def.cards[c as usize].name.clone();
                let seen_by_all = all_see && (!down || down_all);
                if seen_by_all {
                    shown.push(name);
                } else if !down || down_mine {
                    own.push(name);
                    if all_see {
                        shown.push("?".to_string());
                    }
                } else if all_see {
                    shown.push("?".to_string());
                }
            }
            if all_see && !shown.is_empty() {
                let whose = match owner {
                    Some(o) if def.nplayers() > 1 => format!("{} ", def.players[o].id),
                    _ => String::new(),
                };
                // A grid's cell by its name: `Board a1: Cross`.
                let cell = match (&def.grid, zone.per) {
                    (Some(g), Per::Cell) => format!(" {}", g.names[o]),
                    _ => String::new(),
                };
                public.push(format!("{whose}{}{cell}: {}", zone.name, shown.join(" ")));
            }
        }
    }
    let mut out = format!("[{}]", own.join(" "));
    if !public.is_empty() {
        out.push_str(&format!(" ({})", public.join("; ")));
    }
    out
}

/// Run `work`, which recurses along lines of play, on a thread with a
/// stack for the depth budget.
pub(crate) fn deep<T: Send>(work: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    let stack = MAX_DEPTH.saturating_mul(16 << 10).max(8 << 20);
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(stack)
            .spawn_scoped(s, work)
            .map_err(|e| Error::usage(format!("thread: {e}")))?
            .join()
            .unwrap_or_else(|_| Err(Error::usage("the search stopped unexpectedly")))
    })
}
