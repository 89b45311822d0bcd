//! Action ids: every choice text a game can offer, numbered once for a
//! game and its parameters.
//!
//! The ids come from the definition and a walk. The definition names the
//! cards, the grid's cells and the words its `decide` steps offer; a
//! script's `ask` may offer other words, numbers and built texts, which
//! only playing shows. So the game's distinct positions are walked, breadth
//! first from every start (chance enumerated), within a budget:
//!
//! - walked to the end, the game is *closed*: its actions are exactly the
//!   texts met, in the definition's order (cards, cells, declared words)
//!   and then the others (numbers by value, then words), and
//!   `num_distinct_actions` is their count;
//! - past the budget (or with chance too large to list), the game is
//!   *open*: the definition's texts keep ids in its order, then the other
//!   texts the walk met before it stopped (in the same natural order), all
//!   stable for the game, its parameters and the walk's budget (the walk's
//!   order is fixed); any other text gets the next id when first met,
//!   stable only for this handle; `num_distinct_actions` is a typed
//!   refusal.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::analysis::tree;
use crate::definition::{Options, Step};
use crate::error::{Error, Illegal, Refusal, Result};
use crate::game::Game;

/// An action's id.
pub type Action = usize;

/// Distinct positions walked, by default, to find a game's actions.
pub const DEFAULT_WALK: usize = 10_000;

/// Why a game's actions are open, when they are.
#[derive(Debug, Clone)]
pub(super) struct Open {
    pub why: Refusal,
    pub message: String,
}

/// What a closed game's walk measured (OpenSpiel's game information).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// The most outcomes one chance node lists (0 where there is no
    /// chance node: an event of one outcome is no node).
    pub max_chance_outcomes: usize,
    /// The least and the most any player's return is at an end (None:
    /// no end was reached).
    pub utility: Option<(f64, f64)>,
    /// What the players' returns add up to at every end, where that is
    /// one number (0: zero-sum; None: it varies, or no end was reached).
    pub returns_sum: Option<f64>,
    /// The most moves (a player's, or several players' at once; chance
    /// is no move) along any line from a start to an end: OpenSpiel's
    /// `MaxGameLength`. None where the positions walked come back to
    /// one met before on the same line (a game that need not end).
    pub max_game_length: Option<usize>,
    /// Whether some position has several players choose at once.
    pub simultaneous: bool,
    /// Whether every player always knows the whole position: no two
    /// positions walked look the same to a player (`tree::observation`;
    /// others' choices at a simultaneous node do not count, as in
    /// OpenSpiel's perfect information).
    pub perfect_information: bool,
}

/// The numbered texts of a game.
#[derive(Debug)]
pub(super) struct Space {
    texts: Vec<Arc<str>>,
    ids: FxHashMap<Arc<str>, Action>,
    open: Option<Open>,
    /// What the walk found besides, when it reached the end.
    bounds: Option<Bounds>,
    /// An open game's texts met past the definition's, numbered on.
    met: Mutex<Vec<Arc<str>>>,
}

/// The definition's texts: every card id, every cell name, every word a
/// `decide` step offers, in that order, each once.
fn declared(game: &Game) -> Vec<Arc<str>> {
    let def = game.def();
    let mut out: Vec<Arc<str>> = Vec::new();
    let mut seen = FxHashSet::default();
    let mut add = |t: &str| {
        if seen.insert(t.to_string()) {
            out.push(t.into());
        }
    };
    for c in &def.cards {
        add(&c.id);
    }
    if let Some(g) = &def.grid {
        for (name, hole) in g.names.iter().zip(&g.holes) {
            if !hole {
                add(name);
            }
        }
    }
    for step in &def.flow {
        if let Step::Decide {
            options: Options::Words(words),
            ..
        } = step
        {
            for w in words {
                add(w);
            }
        }
    }
    out
}

/// What a walk to the end of a game finds.
#[derive(Debug, Default)]
struct Walked {
    /// Every text offered.
    texts: FxHashSet<Arc<str>>,
    /// The most outcomes a chance node has (0: no chance node).
    max_chance: usize,
    /// The least and the most a player's return is at an end.
    utility: Option<(f64, f64)>,
    /// The sums of returns met at ends: the first, and whether all agree.
    sum: Option<(f64, bool)>,
    /// Each position's successors (after a move and its chance), by
    /// index in the order walked.
    next: Vec<Vec<usize>>,
    /// The positions the game starts at.
    starts: Vec<usize>,
    /// Whether a joint move of several players was met.
    simultaneous: bool,
    /// Whether two positions looked the same to a player.
    alike: bool,
}

/// Sums of returns closer than this are one.
const SUM_EPSILON: f64 = 1e-9;

impl Walked {
    /// The most moves along a line from a start to an end (None: a line
    /// comes back to a position on it). Depth first without recursion.
    fn longest(&self) -> Option<usize> {
        // 0 unvisited, 1 on the current line, 2 done.
        let mut mark = vec![0u8; self.next.len()];
        let mut depth = vec![0usize; self.next.len()];
        for &s in &self.starts {
            if mark[s] == 2 {
                continue;
            }
            // (position, how many of its successors were gone into)
            let mut stack: Vec<(usize, usize)> = vec![(s, 0)];
            mark[s] = 1;
            while let Some(top) = stack.last_mut() {
                let (at, i) = *top;
                if let Some(&n) = self.next[at].get(i) {
                    top.1 += 1;
                    match mark[n] {
                        0 => {
                            mark[n] = 1;
                            stack.push((n, 0));
                        }
                        1 => return None,
                        _ => {}
                    }
                } else {
                    depth[at] = (self.next[at].iter())
                        .map(|&n| depth[n] + 1)
                        .max()
                        .unwrap_or(0);
                    mark[at] = 2;
                    stack.pop();
                }
            }
        }
        self.starts.iter().map(|&s| depth[s]).max()
    }
}

/// Every text offered at positions reachable from the start, or why the
/// walk stopped (a budget of `positions` distinct positions) with what it
/// had met by then: the walk's order is fixed, so a stopped walk meets
/// the same texts each time.
fn walk(game: &Game, positions: usize) -> (Walked, Option<Open>) {
    let mut w = Walked::default();
    let open = walk_into(game, positions, &mut w).err();
    (w, open)
}

fn walk_into(game: &Game, positions: usize, w: &mut Walked) -> std::result::Result<(), Open> {
    let open = |e: Error| Open {
        why: e.refusal().unwrap_or(Refusal::Other),
        message: e.message,
    };
    // Each position's index, in the order first met.
    let mut seen: FxHashMap<u128, usize> = FxHashMap::default();
    let mut queue: VecDeque<(usize, crate::core::State)> = VecDeque::new();
    let mut index = |st: &crate::core::State,
                     w: &mut Walked,
                     queue: &mut VecDeque<(usize, crate::core::State)>| {
        let n = seen.len();
        let i = *seen.entry(st.key(game)).or_insert(n);
        if i == n {
            w.next.push(Vec::new());
            queue.push_back((i, st.clone()));
        }
        i
    };
    let roots = tree::roots(game, None).map_err(open)?;
    // One outcome is no chance node.
    if roots.len() > 1 {
        w.max_chance = roots.len();
    }
    for (_, st) in roots {
        let i = index(&st, w, &mut queue);
        w.starts.push(i);
    }
    // What each player saw at each position: (player, observation) ->
    // the position.
    let mut looks: FxHashMap<(usize, u64), usize> = FxHashMap::default();
    while let Some((at, st)) = queue.pop_front() {
        if !w.alike {
            for p in 0..game.def().nplayers() {
                let seen = *looks
                    .entry((p, tree::observation(game, &st, p)))
                    .or_insert(at);
                w.alike |= seen != at;
            }
        }
        if w.next.len() > positions {
            return Err(Open {
                why: Refusal::TooManyPositions { limit: positions },
                message: format!(
                    "{} has more than {positions} positions: its actions were not all found by walking it",
                    game.id()
                ),
            });
        }
        if st.is_over() {
            let returns = tree::returns(game, &st);
            for &r in &returns {
                let (lo, hi) = w.utility.unwrap_or((r, r));
                w.utility = Some((lo.min(r), hi.max(r)));
            }
            let sum: f64 = returns.iter().sum();
            w.sum = Some(match w.sum {
                None => (sum, true),
                Some((first, agree)) => (first, agree && (sum - first).abs() < SUM_EPSILON),
            });
        }
        for joint in tree::joint_moves(&st) {
            w.simultaneous |= joint.len() > 1;
            for (_, c) in &joint {
                let t = c.text(game);
                if !w.texts.contains(t) {
                    w.texts.insert(t.into());
                }
            }
            let children = tree::children(game, &st, &joint).map_err(open)?;
            if children.len() > 1 {
                w.max_chance = w.max_chance.max(children.len());
            }
            for (_, next) in children {
                let i = index(&next, w, &mut queue);
                if !w.next[at].contains(&i) {
                    w.next[at].push(i);
                }
            }
        }
    }
    Ok(())
}

/// Numbers by value first, then other texts in order.
fn natural(a: &str, b: &str) -> std::cmp::Ordering {
    match (a.parse::<i64>(), b.parse::<i64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        (Ok(_), Err(_)) => std::cmp::Ordering::Less,
        (Err(_), Ok(_)) => std::cmp::Ordering::Greater,
        (Err(_), Err(_)) => a.cmp(b),
    }
}

/// The texts met that the definition does not name, in natural order.
fn undeclared(declared: &[Arc<str>], met: &FxHashSet<Arc<str>>) -> Vec<Arc<str>> {
    let known: FxHashSet<&str> = declared.iter().map(|t| &**t).collect();
    let mut rest: Vec<Arc<str>> = (met.iter())
        .filter(|t| !known.contains(&***t))
        .cloned()
        .collect();
    rest.sort_by(|a, b| natural(a, b));
    rest
}

impl Space {
    pub fn new(game: &Game, positions: usize) -> Space {
        let declared = declared(game);
        let mut bounds = None;
        let (texts, open) = match walk(game, positions) {
            (w, None) => {
                bounds = Some(Bounds {
                    max_chance_outcomes: w.max_chance,
                    utility: w.utility,
                    returns_sum: w.sum.and_then(|(s, agree)| agree.then_some(s)),
                    max_game_length: w.longest(),
                    simultaneous: w.simultaneous,
                    perfect_information: !w.alike,
                });
                // The definition's texts the game offers, then the rest.
                let mut texts: Vec<Arc<str>> = (declared.iter())
                    .filter(|t| w.texts.contains(&***t))
                    .cloned()
                    .collect();
                texts.extend(undeclared(&declared, &w.texts));
                (texts, None)
            }
            // Every text of the definition, then those the walk met.
            (w, Some(open)) => {
                let mut texts = declared.clone();
                texts.extend(undeclared(&declared, &w.texts));
                (texts, Some(open))
            }
        };
        let ids = texts
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i))
            .collect();
        Space {
            texts,
            ids,
            open,
            bounds,
            met: Mutex::new(Vec::new()),
        }
    }

    /// How many actions the game has, or why that is not known.
    pub fn distinct(&self) -> Result<usize> {
        match &self.open {
            None => Ok(self.texts.len()),
            Some(o) => Err(Error::refused(o.why, o.message.clone()).note(format!(
                "ids 0 to {} are the definition's cards, cells and words and the texts the walk met; other texts are numbered as met",
                self.texts.len().saturating_sub(1)
            ))),
        }
    }

    /// How many ids are fixed for the game, its parameters and the walk's
    /// budget: all of a closed game's; in an open game, the definition's
    /// and those the walk met before it stopped.
    pub fn fixed(&self) -> usize {
        self.texts.len()
    }

    /// What the walk measured, or why it could not (as `distinct`).
    pub fn bounds(&self) -> Result<Bounds> {
        self.distinct()?;
        self.bounds
            .ok_or_else(|| Error::refused(Refusal::Other, "the game was not walked"))
    }

    /// Whether every action is known (the walk ended).
    pub fn closed(&self) -> bool {
        self.open.is_none()
    }

    /// The texts past the definition's met so far (an open game's).
    fn met(&self) -> std::sync::MutexGuard<'_, Vec<Arc<str>>> {
        self.met.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The id of `text`: in an open game, a text never met gets the next
    /// id (callers pass only texts a state offers).
    pub fn id_of_offered(&self, text: &str) -> Action {
        if let Some(&i) = self.ids.get(text) {
            return i;
        }
        let mut met = self.met();
        match met.iter().position(|t| &**t == text) {
            Some(i) => self.texts.len() + i,
            None => {
                met.push(text.into());
                self.texts.len() + met.len() - 1
            }
        }
    }

    /// The id of `text`, if it names an action.
    pub fn id(&self, text: &str) -> Result<Action> {
        if let Some(&i) = self.ids.get(text) {
            return Ok(i);
        }
        match self.met().iter().position(|t| &**t == text) {
            Some(i) => Ok(self.texts.len() + i),
            None => Err(Error::illegal(
                Illegal::NotLegal,
                format!("`{text}` is no action of this game"),
            )),
        }
    }

    /// The text of action `id`.
    pub fn text(&self, id: Action) -> Result<Arc<str>> {
        if let Some(t) = self.texts.get(id) {
            return Ok(t.clone());
        }
        let met = self.met();
        id.checked_sub(self.texts.len())
            .and_then(|i| met.get(i).cloned())
            .ok_or_else(|| {
                Error::illegal(
                    Illegal::NotLegal,
                    format!("{id} is no action id of this game"),
                )
            })
    }
}
