//! A game's whole tree, listed with its information sets, and a policy
//! evaluated on it: the first player's worth when both play it, and what
//! a best response gets in each seat (its exploitability), exactly, as
//! OpenSpiel's `expected_returns` and `exploitability` do. CFR+ iterates
//! on this tree; any policy (CFR+'s, MCCFR's, a bot's) is measured on it.
//!
//! The tree comes from the rules files (`tree`): chance is listed with its
//! chances, and a player's information set is what they have seen at each
//! of their decisions and what they chose (perfect recall): the engine's
//! own view of the position, so a card in another's hand or a choice made
//! in secret is hidden exactly as in play.

use rustc_hash::FxHashMap;

use super::estimate;
use super::tree::{self, Recall};
use super::worth::Worth;
use crate::core::State;
use crate::definition::PlayerIx;
use crate::error::{Error, ErrorKind, Refusal, Result};
use crate::game::Game;

pub(crate) enum Node {
    /// The first player's payoff, and the result.
    Leaf(Worth),
    /// Children `first..first + n` of `kids`, with `probs` alongside.
    Chance {
        first: u32,
        n: u32,
    },
    Decide {
        info: u32,
        first: u32,
        n: u32,
    },
}

pub(crate) struct Info {
    pub(crate) player: PlayerIx,
    /// The policy evaluated, at this set (`Builder::policy`).
    pub(crate) fixed: Option<Vec<f64>>,
    pub(crate) actions: Vec<String>,
    pub(crate) knows: String,
    /// The positions in this set (for the best response).
    pub(crate) nodes: Vec<u32>,
    pub(crate) regrets: Vec<f64>,
    pub(crate) avg: Vec<f64>,
}

#[derive(Default)]
pub(crate) struct Tree {
    pub(crate) nodes: Vec<Node>,
    pub(crate) kids: Vec<u32>,
    pub(crate) probs: Vec<f64>,
    pub(crate) infos: Vec<Info>,
    pub(crate) by_key: FxHashMap<u64, u32>,
    /// The weight of this iteration's strategy in the average: the
    /// iteration's number (CFR+'s linear averaging).
    pub(crate) weight: f64,
}

/// A player's knowledge so far: what they saw and chose (`Recall`), and
/// the words of it (for the report).
#[derive(Clone, Default)]
struct Trail {
    recall: Recall,
    moves: Vec<String>,
}

struct Builder<'a> {
    game: &'a Game,
    tree: Tree,
    max_nodes: usize,
    depth_limit: usize,
    /// A policy to evaluate: asked once per information set, at the first
    /// of its positions met (it decides from its player's view, so any).
    policy: Option<&'a dyn Policy>,
}

/// A policy: the probabilities of a player's legal choices at a position
/// (in the order of `State::legal`), decided from what that player sees.
/// None where it says nothing: that set is played uniformly.
pub trait Policy: Sync {
    fn probs(&self, game: &Game, st: &State, p: PlayerIx) -> Option<Vec<f64>>;
}

/// A policy given by observation (`tree::observation`): a table learnt
/// without the tree (MCCFR's), looked up.
pub struct ByObservation<'a>(pub &'a (dyn Fn(u64) -> Option<Vec<f64>> + Sync));

impl Policy for ByObservation<'_> {
    fn probs(&self, game: &Game, st: &State, p: PlayerIx) -> Option<Vec<f64>> {
        (self.0)(tree::observation(game, st, p))
    }
}

/// A policy measured over the whole tree.
#[derive(Debug, Clone, Copy)]
pub struct Evaluation {
    /// The first player's worth when both play the policy.
    pub worth: Worth,
    /// What a best response to it gets in each seat, in that seat's payoff.
    pub best_response: [f64; 2],
    /// Their mean: what a best response gains against it, on average over
    /// the seats (OpenSpiel's NashConv / 2; 0 at an equilibrium).
    pub exploitability: f64,
}

impl Builder<'_> {
    /// The refusal of a tree over the budget (found before listing it, and
    /// how, or while listing it).
    fn too_big(&self, found: Option<String>) -> Error {
        let about = found.map_or(String::new(), |n| format!(" ({n})"));
        Error::new(
            ErrorKind::Refused(Refusal::TreeTooBig {
                limit: self.max_nodes,
            }),
            format!(
                "solve cannot handle {}: its game tree has more than {} nodes{about} (CFR+ walks the whole tree; a smaller setting, e.g. fewer cards or a lower `max_turns`, fits)",
                self.game.id(),
                self.max_nodes
            ),
        )
    }

    fn push(&mut self, n: Node) -> Result<u32> {
        if self.tree.nodes.len() >= self.max_nodes {
            return Err(self.too_big(None));
        }
        self.tree.nodes.push(n);
        Ok((self.tree.nodes.len() - 1) as u32)
    }

    /// The information set of `p` deciding at `st` with `trail`.
    fn info(&mut self, st: &State, p: PlayerIx, trail: &Trail) -> Result<(u32, u64)> {
        let game = self.game;
        let (seen, _) = st.seen_and_unseen(game, p);
        let actions: Vec<String> = st
            .legal(p)
            .iter()
            .map(|c| c.text(game).to_string())
            .collect();
        let key = trail.recall.saw(seen, p).0;
        if let Some(&i) = self.tree.by_key.get(&key) {
            if self.tree.infos[i as usize].actions != actions {
                return Err(Error::new(
                    ErrorKind::Refused(Refusal::UnclearChoices),
                    format!(
                        "solve cannot handle {}: {} has different choices in positions they cannot tell apart",
                        game.id(),
                        game.def().players[p].id
                    ),
                ));
            }
            return Ok((i, key));
        }
        let n = actions.len();
        let fixed = self
            .policy
            .and_then(|pi| pi.probs(game, st, p))
            .filter(|x| x.len() == n);
        self.tree.infos.push(Info {
            player: p,
            fixed,
            actions,
            knows: knows(game, st, p, trail),
            nodes: Vec::new(),
            regrets: vec![0.0; n],
            avg: vec![0.0; n],
        });
        let i = (self.tree.infos.len() - 1) as u32;
        self.tree.by_key.insert(key, i);
        Ok((i, key))
    }

    /// A decision node whose children `child(k)` makes.
    fn decide(
        &mut self,
        info: u32,
        n: usize,
        mut child: impl FnMut(&mut Self, usize) -> Result<u32>,
    ) -> Result<u32> {
        let mut kids = Vec::with_capacity(n);
        for k in 0..n {
            kids.push(child(self, k)?);
        }
        let first = self.tree.kids.len() as u32;
        self.tree.kids.extend(&kids);
        self.tree.probs.extend(std::iter::repeat_n(0.0, n));
        let at = self.push(Node::Decide {
            info,
            first,
            n: n as u32,
        })?;
        self.tree.infos[info as usize].nodes.push(at);
        Ok(at)
    }

    /// The chance node of `outs` (or its one position).
    fn chance(
        &mut self,
        outs: Vec<(f64, State)>,
        trails: &[Trail; 2],
        depth: usize,
    ) -> Result<u32> {
        if outs.len() == 1 {
            return self.build(&outs[0].1, trails, depth);
        }
        let mut kids = Vec::with_capacity(outs.len());
        for (p, s) in &outs {
            kids.push((*p, self.build(s, trails, depth)?));
        }
        let first = self.tree.kids.len() as u32;
        for (p, k) in &kids {
            self.tree.kids.push(*k);
            self.tree.probs.push(*p);
        }
        self.push(Node::Chance {
            first,
            n: kids.len() as u32,
        })
    }

    fn build(&mut self, st: &State, trails: &[Trail; 2], depth: usize) -> Result<u32> {
        let game = self.game;
        if st.is_over() {
            return self.push(Node::Leaf(Worth::at(game, st)));
        }
        if depth >= self.depth_limit {
            return Err(Error::new(
                ErrorKind::Refused(Refusal::TooDeep {
                    limit: self.depth_limit,
                }),
                format!(
                    "solve cannot handle {}: a line of play runs past {} decisions without ending",
                    game.id(),
                    self.depth_limit
                ),
            ));
        }
        let waiting = st.waiting();
        let sees_first = st.decision().is_some_and(|d| d.first.is_some());
        match waiting.as_slice() {
            [a, b] => {
                let (a, b) = (*a, *b);
                let (ia, ka) = self.info(st, a, &trails[a])?;
                let rows = st.legal(a).to_vec();
                let cols = st.legal(b).to_vec();
                self.decide(ia, rows.len(), |me, i| {
                    let r = &rows[i];
                    let mut ta = trails[a].clone();
                    ta.recall = Recall(ka).chose(i);
                    ta.moves
                        .push(format!("{} {}", game.def().players[a].id, r.text(game)));
                    // The second sees the first's choice only in an
                    // ordered reveal.
                    let (ib, kb) = if sees_first {
                        let mut half = st.clone();
                        half.apply_unchecked(game, a, r.clone())?;
                        me.info(&half, b, &trails[b])?
                    } else {
                        me.info(st, b, &trails[b])?
                    };
                    me.decide(ib, cols.len(), |me, j| {
                        let c = &cols[j];
                        let mut tb = trails[b].clone();
                        tb.recall = Recall(kb).chose(j);
                        let shown = if sees_first { r.text(game) } else { "?" };
                        tb.moves
                            .push(format!("{} {shown}", game.def().players[a].id));
                        tb.moves
                            .push(format!("{} {}", game.def().players[b].id, c.text(game)));
                        let mut ta = ta.clone();
                        ta.moves.push(format!("{} ?", game.def().players[b].id));
                        let mut t = [Trail::default(), Trail::default()];
                        t[a] = ta;
                        t[b] = tb;
                        let outs = tree::children(game, st, &[(a, r.clone()), (b, c.clone())])?;
                        me.chance(outs, &t, depth + 1)
                    })
                })
            }
            [p] => {
                let p = *p;
                let (ip, kp) = self.info(st, p, &trails[p])?;
                let choices = st.legal(p).to_vec();
                self.decide(ip, choices.len(), |me, i| {
                    let c = &choices[i];
                    let mut t = trails.clone();
                    t[p].recall = Recall(kp).chose(i);
                    let said = format!("{} {}", game.def().players[p].id, c.text(game));
                    for tr in t.iter_mut() {
                        tr.moves.push(said.clone());
                    }
                    let outs = tree::children(game, st, &[(p, c.clone())])?;
                    me.chance(outs, &t, depth + 1)
                })
            }
            _ => Err(Error::new(
                ErrorKind::Refused(Refusal::ManyAtOnce {
                    players: waiting.len(),
                }),
                format!(
                    "solve cannot handle {}: a decision of {} players at once",
                    game.id(),
                    waiting.len()
                ),
            )),
        }
    }
}

/// What `p` knows at `st`, in words: the cards they see that others do
/// not, and the moves so far.
fn knows(game: &Game, st: &State, p: PlayerIx, trail: &Trail) -> String {
    let moves = if trail.moves.is_empty() {
        "-".to_string()
    } else {
        trail.moves.join(", ")
    };
    format!("{} {moves}", tree::label(game, st, p))
}

pub(crate) fn average(avg: &[f64]) -> Vec<f64> {
    let total: f64 = avg.iter().sum();
    let n = avg.len() as f64;
    avg.iter()
        .map(|a| if total > 0.0 { a / total } else { 1.0 / n })
        .collect()
}

impl Tree {
    /// The first player's worth when both play their average strategies.
    pub(crate) fn worth(&self, n: u32, avg: &[Vec<f64>]) -> Worth {
        match self.nodes[n as usize] {
            Node::Leaf(w) => w,
            Node::Chance { first, n } => {
                let parts: Vec<(f64, Worth)> = (first..first + n)
                    .map(|k| {
                        (
                            self.probs[k as usize],
                            self.worth(self.kids[k as usize], avg),
                        )
                    })
                    .collect();
                Worth::mix(parts.into_iter())
            }
            Node::Decide { info, first, n } => {
                let s = &avg[info as usize];
                let parts: Vec<(f64, Worth)> = (0..n as usize)
                    .filter(|&a| s[a] > 0.0)
                    .map(|a| (s[a], self.worth(self.kids[first as usize + a], avg)))
                    .collect();
                Worth::mix(parts.into_iter())
            }
        }
    }

    /// What a best response of player `i` gets against the others'
    /// average strategies, in `i`'s payoff.
    pub(crate) fn best_response(&self, root: u32, i: PlayerIx, avg: &[Vec<f64>]) -> f64 {
        // The others' reach of every node (chance included).
        let mut reach = vec![0.0; self.nodes.len()];
        let mut stack = vec![(root, 1.0)];
        while let Some((n, r)) = stack.pop() {
            reach[n as usize] = r;
            match self.nodes[n as usize] {
                Node::Leaf(_) => {}
                Node::Chance { first, n } => {
                    for k in first..first + n {
                        stack.push((self.kids[k as usize], r * self.probs[k as usize]));
                    }
                }
                Node::Decide { info, first, n } => {
                    let mine = self.infos[info as usize].player == i;
                    let kids = &self.kids[first as usize..(first + n) as usize];
                    for (&kid, &s) in kids.iter().zip(&avg[info as usize]) {
                        stack.push((kid, if mine { r } else { r * s }));
                    }
                }
            }
        }
        let mut br = Br {
            tree: self,
            i,
            avg,
            reach,
            choice: vec![None; self.infos.len()],
            value: vec![None; self.nodes.len()],
        };
        br.value(root)
    }
}

/// A best response, worked out lazily: at an information set of the
/// responder, the choice that does best summed over its positions, each
/// weighted by how likely the others make it (perfect recall: the sets
/// below a position's are decided first, and never wait on it).
struct Br<'a> {
    tree: &'a Tree,
    i: PlayerIx,
    avg: &'a [Vec<f64>],
    reach: Vec<f64>,
    choice: Vec<Option<usize>>,
    value: Vec<Option<f64>>,
}

impl Br<'_> {
    fn value(&mut self, n: u32) -> f64 {
        if let Some(v) = self.value[n as usize] {
            return v;
        }
        let tree = self.tree;
        let v = match tree.nodes[n as usize] {
            Node::Leaf(w) => {
                if self.i == 0 {
                    w.value
                } else {
                    -w.value
                }
            }
            Node::Chance { first, n } => (first..first + n)
                .map(|k| tree.probs[k as usize] * self.value(tree.kids[k as usize]))
                .sum(),
            Node::Decide { info, first, n } => {
                if tree.infos[info as usize].player == self.i {
                    let a = self.choose(info);
                    self.value(tree.kids[(first as usize) + a])
                } else {
                    let mut v = 0.0;
                    for a in 0..n as usize {
                        let s = self.avg[info as usize][a];
                        if s > 0.0 {
                            v += s * self.value(tree.kids[first as usize + a]);
                        }
                    }
                    v
                }
            }
        };
        self.value[n as usize] = Some(v);
        v
    }

    fn choose(&mut self, info: u32) -> usize {
        if let Some(a) = self.choice[info as usize] {
            return a;
        }
        let tree = self.tree;
        let inf = &tree.infos[info as usize];
        let mut totals = vec![0.0; inf.actions.len()];
        for &h in &inf.nodes {
            let r = self.reach[h as usize];
            if let Node::Decide { first, n, .. } = tree.nodes[h as usize] {
                for (a, t) in totals.iter_mut().enumerate().take(n as usize) {
                    *t += r * self.value(tree.kids[first as usize + a]);
                }
            }
        }
        let best = (0..totals.len())
            .max_by(|&a, &b| totals[a].total_cmp(&totals[b]))
            .unwrap_or(0);
        self.choice[info as usize] = Some(best);
        best
    }
}

/// The whole game tree from every setup (or `seed`'s), its root, and how
/// many setups it has.
pub(crate) fn whole_tree(
    game: &Game,
    seed: Option<u64>,
    max_nodes: usize,
) -> Result<(Tree, u32, usize)> {
    listed(game, seed, max_nodes, None)
}

/// Positions the tree's size is counted over before it is listed, at
/// most (a count of more takes seconds; the bound on positions stands in).
const COUNTED_POSITIONS: usize = 200_000;

fn listed(
    game: &Game,
    seed: Option<u64>,
    max_nodes: usize,
    policy: Option<&dyn Policy>,
) -> Result<(Tree, u32, usize)> {
    let roots = tree::roots(game, seed)?;
    let mut b = Builder {
        game,
        tree: Tree::default(),
        max_nodes,
        depth_limit: tree::MAX_DEPTH,
        policy,
    };
    // A tree over the budget is refused before it is listed: counted over
    // its positions, or where they are too many to count, by the bound on
    // them (the tree has a node for each at least).
    let budget = max_nodes as f64;
    let counted = estimate::tree_nodes(game, &roots, COUNTED_POSITIONS, budget)?;
    let over = match counted {
        Some(n) => (n > budget).then(|| format!("{n:.3e}, counted over its positions")),
        None => {
            let size = estimate::positions(game, &roots, budget, &mut |_, _| Ok(()))?;
            (size.at_least > budget)
                .then(|| format!("at least {:.1e}, {}", size.at_least, size.how()))
        }
    };
    if let Some(why) = over {
        return Err(b.too_big(Some(why)));
    }
    let trails = [Trail::default(), Trail::default()];
    let setups = roots.len();
    let root = b.chance(roots, &trails, 0)?;
    Ok((b.tree, root, setups))
}

/// `policy` played by both players, measured exactly over the whole tree
/// of at most `max_nodes` (every setup): the worth, and what a best
/// response gets in each seat.
pub fn evaluate(game: &Game, policy: &dyn Policy, max_nodes: usize) -> Result<Evaluation> {
    tree::deep(move || {
        let (tree, root, _) = listed(game, None, max_nodes, Some(policy))?;
        let avg: Vec<Vec<f64>> = tree
            .infos
            .iter()
            .map(|i| {
                let n = i.actions.len();
                i.fixed.clone().unwrap_or_else(|| vec![1.0 / n as f64; n])
            })
            .collect();
        let best_response = [
            tree.best_response(root, 0, &avg),
            tree.best_response(root, 1, &avg),
        ];
        Ok(Evaluation {
            worth: tree.worth(root, &avg),
            best_response,
            exploitability: (best_response[0] + best_response[1]) / 2.0,
        })
    })
}

/// The exact worth and best responses of a policy given by observation
/// (a set it does not know is played uniformly), over the whole tree of
/// at most `max_nodes`.
pub fn judge(
    game: &Game,
    policy: &(dyn Fn(u64) -> Option<Vec<f64>> + Sync),
    max_nodes: usize,
) -> Result<(Worth, [f64; 2])> {
    let e = evaluate(game, &ByObservation(policy), max_nodes)?;
    Ok((e.worth, e.best_response))
}
