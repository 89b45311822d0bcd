//! The search bot: information-set Monte Carlo tree search that needs no
//! game-specific code.
//!
//! - Hidden information: every iteration starts from a determinization of
//!   the bot's view (State::resample): unseen cards dealt at random, others'
//!   secret choices taken back, the RNG (decks, dice) reseeded. The tree is
//!   keyed by the moves made since the root (open loop), so it gathers
//!   statistics over all the determinizations.
//! - Simultaneous decisions: each decider has its own regret-matching
//!   bandit (SM-MCTS with regret matching, Lanctot et al. 2013), whose
//!   average strategy approaches an equilibrium in two-player zero-sum play;
//!   the bot plays a sample of its root average strategy, not the argmax (a
//!   fixed answer to a simultaneous choice is exploitable).
//! - Single decisions (including a player's turn in a sequence, an ordered
//!   reveal, a decision owed by a player who is not active): UCB1.
//! - Chance: drawn by the determinized state's RNG as the flow runs.
//! - Any number of players: rewards are per player (1 win, 0 loss, 1/n each
//!   for a draw or a playout cut short).
//! - Proofs (MCTS-Solver, Winands et al. 2008, as OpenSpiel's MCTSBot does
//!   it): where a position is the same whenever the search reaches it
//!   (nothing hidden from the bot at the root, and no chance and no
//!   simultaneous decision on the way), a game over is a proven result,
//!   and so is a position where the player to decide has a proven best
//!   result or every choice proven. A proven choice is valued by its
//!   result, not sampled again; a proven root ends the search; the bot
//!   takes a proven win and avoids a proven loss. Where chance or hidden
//!   cards come in, nothing is proven and the search is as before.

use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use rustc_hash::FxHashMap;

use super::Bot;
use crate::core::{Choice, State, below};
use crate::definition::PlayerIx;
use crate::game::Game;

/// How long a search runs: iterations, and optionally a time cap.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub iterations: u32,
    pub time: Option<Duration>,
}

pub struct Mcts {
    rng: ChaCha8Rng,
    budget: Budget,
    /// Decisions a playout makes at most before it is scored as a draw.
    pub max_playout: u32,
    /// UCB exploration constant.
    pub c: f64,
    /// Regret matching's share of uniform exploration.
    pub gamma: f64,
    /// Bytes the search's tree may hold, as this thread's allocations
    /// count them (`crate::memory`): past it the tree stops growing and
    /// the playouts go on from its leaves. None: `MAX_ARMS` alone.
    pub memory: Option<usize>,
    /// Arms the current search's tree holds (`MAX_ARMS` at most).
    arms: usize,
    /// This thread's bytes in use when the search began.
    floor: i64,
}

impl Mcts {
    pub fn new(seed: u64, budget: Budget) -> Mcts {
        Mcts {
            rng: ChaCha8Rng::seed_from_u64(seed),
            budget,
            max_playout: 2_000,
            c: 0.7,
            gamma: 0.1,
            memory: None,
            arms: 0,
            floor: 0,
        }
    }
}

struct Arm {
    choice: Choice,
    visits: u32,
    value: f64,
    regret: f64,
    strategy: f64,
    /// The node this choice leads to, where one player decides.
    child: Option<u32>,
}

/// One player's statistics at a node.
struct Bandit {
    player: PlayerIx,
    arms: Vec<Arm>,
    /// Past `INDEXED` arms, each arm's place in `arms` by its choice: a
    /// hand of thousands of cards is looked up in time linear in the legal
    /// choices, not square (a few arms are found faster by a scan).
    index: Option<FxHashMap<Choice, usize>>,
    visits: u32,
}

/// Arms a bandit scans for a choice before it keeps an index.
const INDEXED: usize = 16;

impl Bandit {
    /// The arm of choice `c`, if it has one.
    fn arm(&self, c: &Choice) -> Option<usize> {
        match &self.index {
            Some(ix) => ix.get(c).copied(),
            None => self.arms.iter().position(|a| a.choice == *c),
        }
    }

    /// An arm for `c`, unless it has one.
    fn add(&mut self, c: &Choice) {
        if self.arm(c).is_some() {
            return;
        }
        self.arms.push(Arm {
            choice: c.clone(),
            visits: 0,
            value: 0.0,
            regret: 0.0,
            strategy: 0.0,
            child: None,
        });
        let n = self.arms.len();
        match &mut self.index {
            Some(ix) => {
                ix.insert(c.clone(), n - 1);
            }
            None if n > INDEXED => {
                let ix = (self.arms.iter().enumerate()).map(|(i, a)| (a.choice.clone(), i));
                self.index = Some(ix.collect());
            }
            None => {}
        }
    }
}

#[derive(Default)]
struct Node {
    bandits: Vec<Bandit>,
    children: FxHashMap<u64, u32>,
    /// The same position whenever the search reaches it: what a proof
    /// needs.
    exact: bool,
    /// Each player's reward, proven: the game is over here, or the player
    /// to decide has a proven best choice.
    proven: Option<Box<[f64]>>,
}

/// What a search found: the choice, and the root's proven rewards (each
/// player's, 1 a win and 0 a loss) if it proved them.
pub struct Searched {
    pub choice: Option<Choice>,
    pub proven: Option<Vec<f64>>,
    pub iterations: u32,
    /// Arms the tree grew to.
    pub arms: usize,
}

/// The statistics one search keeps at most (arms of all its bandits, 50 to
/// 200 bytes each): with thousands of choices a decision, each node holds
/// thousands of arms, and the tree stops growing before memory runs out.
const MAX_ARMS: usize = 1 << 21;

/// A selection to update after the playout.
struct Pick {
    node: u32,
    bandit: usize,
    arm: usize,
    /// Regret matching: the probability the arm was played with, and the
    /// strategy over the legal arms at that moment; None for UCB.
    rm: Option<(f64, Vec<(usize, f64)>)>,
}

impl Node {
    /// The bandit of `player` here, with an arm for each of `legal`; how
    /// many arms it gained.
    fn bandit(&mut self, player: PlayerIx, legal: &[Choice]) -> (usize, usize) {
        let b = match self.bandits.iter().position(|b| b.player == player) {
            Some(b) => b,
            None => {
                self.bandits.push(Bandit {
                    player,
                    arms: Vec::new(),
                    index: None,
                    visits: 0,
                });
                self.bandits.len() - 1
            }
        };
        let bandit = &mut self.bandits[b];
        let had = bandit.arms.len();
        for c in legal {
            bandit.add(c);
        }
        (b, bandit.arms.len() - had)
    }
}

fn choice_hash(h: &mut u64, p: PlayerIx, c: &Choice) {
    let x = match c {
        Choice::Card(c) => u64::from(*c) + 1,
        Choice::Word(w) => text_hash(w),
        Choice::Data(d) => text_hash(&d.text),
    };
    *h = (*h ^ x.wrapping_add((p as u64) << 48))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .rotate_left(29);
}

/// FNV-1a: a choice's text within one decision's options.
fn text_hash(w: &str) -> u64 {
    w.bytes().fold(0xcbf2_9ce4_8422_2325, |a, b| {
        (a ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Each player's reward in 0..=1: their return (`tree::returns`) placed
/// between the lowest and the highest (a win 1, a loss 0), and a share of
/// one each where all are equal (a draw).
fn rewards(game: &Game, state: &State, n: usize) -> Vec<f64> {
    let r = crate::analysis::tree::returns(game, state);
    let lo = r.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = r.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if hi > lo {
        r.iter().map(|x| (x - lo) / (hi - lo)).collect()
    } else {
        vec![1.0 / n.max(1) as f64; n]
    }
}

impl Mcts {
    /// Regret matching with exploration over the legal arms of a bandit.
    fn rm_strategy(&self, b: &Bandit, legal: &[Choice]) -> Vec<(usize, f64)> {
        let idx: Vec<usize> = legal.iter().filter_map(|c| b.arm(c)).collect();
        let pos: f64 = idx.iter().map(|&i| b.arms[i].regret.max(0.0)).sum();
        let k = idx.len() as f64;
        idx.iter()
            .map(|&i| {
                let sigma = if pos > 0.0 {
                    b.arms[i].regret.max(0.0) / pos
                } else {
                    1.0 / k
                };
                (i, (1.0 - self.gamma) * sigma + self.gamma / k)
            })
            .collect()
    }

    fn sample(&mut self, probs: &[(usize, f64)]) -> (usize, f64) {
        let x = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let mut acc = 0.0;
        for &(i, p) in probs {
            acc += p;
            if x < acc {
                return (i, p);
            }
        }
        probs[probs.len() - 1]
    }

    fn ucb(&self, nodes: &[Node], b: &Bandit, legal: &[Choice]) -> usize {
        let ln = f64::from(b.visits.max(1)).ln();
        let mut best = (f64::MIN, 0);
        for c in legal {
            let Some(i) = b.arm(c) else {
                continue;
            };
            let a = &b.arms[i];
            let proven = a.child.and_then(|n| nodes[n as usize].proven.as_deref());
            let score = if let Some(r) = proven {
                // Known: no exploration.
                r[b.player]
            } else if a.visits == 0 {
                f64::MAX
            } else {
                a.value / f64::from(a.visits) + self.c * (ln / f64::from(a.visits)).sqrt()
            };
            if score > best.0 {
                best = (score, i);
            }
        }
        best.1
    }

    /// One iteration from a determinized state.
    fn iterate(&mut self, game: &Game, nodes: &mut Vec<Node>, mut s: State) {
        let n = game.def().nplayers();
        let mut picks: Vec<Pick> = Vec::new();
        let mut node = 0u32;
        let mut expanded = false;
        // Selection and expansion, down to a proven node at most.
        while !s.is_over() && !expanded && nodes[node as usize].proven.is_none() {
            let waiting = s.waiting();
            if waiting.is_empty() {
                break;
            }
            let simultaneous = waiting.len() > 1;
            let mut key = 0u64;
            let mut chosen = Vec::with_capacity(waiting.len());
            for &p in &waiting {
                let legal = s.legal(p).to_vec();
                let (b, added) = nodes[node as usize].bandit(p, &legal);
                self.arms += added;
                let bandit = &nodes[node as usize].bandits[b];
                let (arm, rm) = if simultaneous {
                    let strat = self.rm_strategy(bandit, &legal);
                    let (arm, prob) = self.sample(&strat);
                    (arm, Some((prob, strat)))
                } else {
                    (self.ucb(nodes, bandit, &legal), None)
                };
                let c = nodes[node as usize].bandits[b].arms[arm].choice.clone();
                choice_hash(&mut key, p, &c);
                chosen.push((p, c));
                picks.push(Pick {
                    node,
                    bandit: b,
                    arm,
                    rm,
                });
            }
            let drawn = s.rng_position();
            for (p, c) in chosen {
                // With `forced_moves: auto` another's choice may already
                // have played this player's only one (and moved on).
                if !s.may_choose(p) {
                    continue;
                }
                if s.apply_unchecked(game, p, c).is_err() {
                    return;
                }
            }
            let child = match nodes[node as usize].children.get(&key) {
                Some(&child) => child,
                // The tree holds all it may: the playout goes on from here.
                None if self.full() => break,
                None => {
                    // A chance drawn or a simultaneous decision: this
                    // move may lead elsewhere next time.
                    let exact =
                        nodes[node as usize].exact && !simultaneous && s.rng_position() == drawn;
                    nodes.push(Node {
                        exact,
                        proven: (exact && s.is_over())
                            .then(|| rewards(game, &s, n).into_boxed_slice()),
                        ..Node::default()
                    });
                    let child = (nodes.len() - 1) as u32;
                    nodes[node as usize].children.insert(key, child);
                    expanded = true;
                    child
                }
            };
            if let (false, Some(pick)) = (simultaneous, picks.last()) {
                nodes[node as usize].bandits[pick.bandit].arms[pick.arm].child = Some(child);
            }
            node = child;
        }
        let r = match &nodes[node as usize].proven {
            Some(r) => r.to_vec(),
            None => {
                // Playout.
                let mut steps = 0;
                while let Some(p) = s.first_waiting() {
                    if steps >= self.max_playout {
                        break;
                    }
                    let legal = s.legal(p);
                    let c = legal[below(&mut self.rng, legal.len() as u64) as usize].clone();
                    if s.apply_unchecked(game, p, c).is_err() {
                        return;
                    }
                    steps += 1;
                }
                rewards(game, &s, n)
            }
        };
        if nodes[node as usize].proven.is_some() {
            prove(nodes, &picks);
        }
        // Backpropagation.
        for pick in picks {
            let b = &mut nodes[pick.node as usize].bandits[pick.bandit];
            let x = r[b.player];
            b.visits += 1;
            let arm = &mut b.arms[pick.arm];
            arm.visits += 1;
            arm.value += x;
            if let Some((prob, strat)) = pick.rm {
                // Sampled regrets: the played arm's value by importance
                // weighting, against the value obtained.
                for (i, sigma) in strat {
                    let est = if i == pick.arm { x / prob } else { 0.0 };
                    b.arms[i].regret += est - x;
                    b.arms[i].strategy += sigma;
                }
            }
        }
    }
}

/// Proofs up the path just taken, from the proven node it reached: each
/// node where the player to decide has a choice proven best for them (a
/// win), or every choice proven (the best of them), is proven, until one
/// is not.
fn prove(nodes: &mut [Node], picks: &[Pick]) {
    for pick in picks.iter().rev() {
        let node = &nodes[pick.node as usize];
        if !node.exact || pick.rm.is_some() || node.bandits.len() != 1 {
            return;
        }
        let b = &node.bandits[0];
        let p = b.player;
        let mut best: Option<&[f64]> = None;
        let mut all = true;
        for a in &b.arms {
            match a.child.and_then(|c| nodes[c as usize].proven.as_deref()) {
                Some(r) if best.is_none_or(|x| r[p] > x[p]) => best = Some(r),
                Some(_) => {}
                None => all = false,
            }
        }
        match best {
            Some(r) if all || r[p] >= 1.0 => {
                let r: Box<[f64]> = r.into();
                nodes[pick.node as usize].proven = Some(r);
            }
            _ => return,
        }
    }
}

impl Mcts {
    /// The tree holds all it may: `MAX_ARMS`, or `memory`'s bytes.
    fn full(&self) -> bool {
        let used = crate::memory::thread_bytes() - self.floor;
        self.arms > MAX_ARMS || self.memory.is_some_and(|m| used > m as i64)
    }

    /// Search from `state` for `me`'s choice.
    pub fn search(&mut self, game: &Game, state: &State, me: PlayerIx) -> Searched {
        let legal = state.legal(me).to_vec();
        if legal.len() <= 1 {
            return Searched {
                choice: legal.into_iter().next(),
                proven: None,
                iterations: 0,
                arms: 0,
            };
        }
        let mut nodes = vec![Node {
            exact: !state.hides_from(game, me),
            ..Node::default()
        }];
        self.arms = 0;
        self.floor = crate::memory::thread_bytes();
        let start = Instant::now();
        let mut iterations = 0;
        while iterations < self.budget.iterations && nodes[0].proven.is_none() {
            if iterations % 64 == 0 && self.budget.time.is_some_and(|t| start.elapsed() > t) {
                break;
            }
            let s = state.resample(game, me, &mut self.rng);
            self.iterate(game, &mut nodes, s);
            iterations += 1;
        }
        let proven = nodes[0].proven.as_ref().map(|r| r.to_vec());
        let choice = self.final_choice(state, &nodes, &legal, me);
        Searched {
            choice,
            proven,
            iterations,
            arms: self.arms,
        }
    }

    fn final_choice(
        &mut self,
        state: &State,
        nodes: &[Node],
        legal: &[Choice],
        me: PlayerIx,
    ) -> Option<Choice> {
        let root = &nodes[0];
        let b = root.bandits.iter().find(|b| b.player == me)?;
        // A secret choice made at the same time as others (not an ordered
        // reveal, where the first chooses knowing the others will answer).
        let simultaneous = state
            .decision()
            .is_some_and(|d| d.players.len() > 1 && d.first.is_none());
        let arms: Vec<&Arm> = legal
            .iter()
            .filter_map(|c| Some(&b.arms[b.arm(c)?]))
            .collect();
        if simultaneous {
            // Play a sample of the average strategy.
            let total: f64 = arms.iter().map(|a| a.strategy).sum();
            if total > 0.0 {
                let probs: Vec<(usize, f64)> = arms
                    .iter()
                    .enumerate()
                    .map(|(i, a)| (i, a.strategy / total))
                    .collect();
                let (i, _) = self.sample(&probs);
                return Some(arms[i].choice.clone());
            }
        }
        // A proven win first and a proven loss last (a draw, or no proof,
        // between), then the most visited, then the best valued.
        let rank = |a: &Arm| {
            let proven = a.child.and_then(|n| nodes[n as usize].proven.as_deref());
            match proven.map(|r| r[me]) {
                Some(x) if x >= 1.0 => 2,
                Some(x) if x <= 0.0 => 0,
                _ => 1,
            }
        };
        arms.iter()
            .max_by(|a, b| {
                (rank(a).cmp(&rank(b)))
                    .then(a.visits.cmp(&b.visits))
                    .then(a.value.total_cmp(&b.value))
            })
            .map(|a| a.choice.clone())
    }
}

impl Bot for Mcts {
    fn name(&self) -> &str {
        "mcts"
    }

    fn choose(&mut self, game: &Game, state: &State, me: PlayerIx) -> Option<Choice> {
        self.search(game, state, me).choice
    }
}
