//! Two-player zero-sum games with hidden information, solved by CFR+
//! (Tammelin 2014: regret matching+, alternating updates, linearly
//! weighted average strategy) over the whole game tree, with the exact
//! exploitability of the average strategy from a best response over
//! information sets (as OpenSpiel's `exploitability`).
//!
//! The tree comes from the rules files: chance (the setup's deal, a roll,
//! a draw) is enumerated with its probabilities (`solve::outcomes`), and a
//! player's information set is what they have seen at each of their
//! decisions and what they chose (perfect recall): the engine's own view
//! of the position (`State::seen_and_unseen`), so a card in another's hand
//! or a choice made in secret is hidden exactly as in play.

use std::hash::{Hash, Hasher};
use std::time::Instant;

use rustc_hash::{FxHashMap, FxHasher};
use serde::Serialize;

use super::solve::{self, Header, Limits, Worth};
use crate::core::State;
use crate::definition::PlayerIx;
use crate::error::{Error, ErrorKind, Result};
use crate::game::Game;

/// When CFR+ stops: the first of these reached.
#[derive(Debug, Clone, Copy)]
pub struct CfrLimits {
    /// Exploitability to reach (in payoff units).
    pub target: f64,
    pub max_iterations: u64,
    pub max_seconds: f64,
    /// Nodes of the tree (each about 40 bytes, plus its information set).
    pub max_nodes: usize,
}

impl Default for CfrLimits {
    fn default() -> CfrLimits {
        CfrLimits {
            target: 1e-3,
            max_iterations: 100_000,
            max_seconds: 600.0,
            max_nodes: 20_000_000,
        }
    }
}

/// One information set's average strategy.
#[derive(Debug, Clone, Serialize)]
pub struct InfoStrategy {
    pub player: String,
    /// What the player knows there: their cards others cannot see, and
    /// the moves so far (another's hidden choice as `?`).
    pub knows: String,
    pub mix: Vec<(String, f64)>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CfrSolution {
    #[serde(flatten)]
    pub head: Header,
    pub method: &'static str,
    /// The first player's expected payoff when both play the average
    /// strategy, with the chances of each result.
    pub worth: Worth,
    /// How much a best response gains against it, averaged over the two
    /// seats (0 at an equilibrium).
    pub exploitability: f64,
    /// What a best response gets in each seat, in that seat's payoff.
    pub best_response: [f64; 2],
    pub iterations: u64,
    pub infosets: usize,
    pub nodes: usize,
    pub setups: usize,
    pub seconds: f64,
    pub strategies: Vec<InfoStrategy>,
}

enum Node {
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

struct Info {
    player: PlayerIx,
    actions: Vec<String>,
    knows: String,
    /// What the player sees there (`mccfr::info_key`), by which a policy
    /// learnt without the tree is looked up.
    view: u64,
    /// The positions in this set (for the best response).
    nodes: Vec<u32>,
    regrets: Vec<f64>,
    avg: Vec<f64>,
}

#[derive(Default)]
struct Tree {
    nodes: Vec<Node>,
    kids: Vec<u32>,
    probs: Vec<f64>,
    infos: Vec<Info>,
    by_key: FxHashMap<u64, u32>,
    /// The weight of this iteration's strategy in the average: the
    /// iteration's number (CFR+'s linear averaging).
    weight: f64,
}

/// A player's knowledge so far: a hash of what they saw and chose, and
/// the words of it (for the report).
#[derive(Clone, Default)]
struct Trail {
    hash: u64,
    moves: Vec<String>,
}

struct Builder<'a> {
    game: &'a Game,
    tree: Tree,
    limits: CfrLimits,
    depth_limit: usize,
}

pub(crate) fn mix(parts: &[u64]) -> u64 {
    let mut h = FxHasher::default();
    parts.hash(&mut h);
    h.finish()
}

impl Builder<'_> {
    fn too_big(&self) -> Error {
        Error::new(
            ErrorKind::Refused,
            format!(
                "solve cannot handle {}: its game tree has more than {} {TOO_BIG}; a smaller setting, e.g. fewer cards or a lower `max_turns`, fits)",
                self.game.id(),
                self.limits.max_nodes
            ),
        )
    }

    fn push(&mut self, n: Node) -> Result<u32> {
        if self.tree.nodes.len() >= self.limits.max_nodes {
            return Err(self.too_big());
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
        let key = mix(&[trail.hash, seen, p as u64]);
        if let Some(&i) = self.tree.by_key.get(&key) {
            if self.tree.infos[i as usize].actions != actions {
                return Err(Error::new(
                    ErrorKind::Refused,
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
        self.tree.infos.push(Info {
            player: p,
            actions,
            knows: knows(game, st, p, trail),
            view: super::mccfr::info_key(game, st, p),
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
                ErrorKind::Refused,
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
                    ta.hash = mix(&[ka, i as u64]);
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
                        tb.hash = mix(&[kb, j as u64]);
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
                        let outs = solve::outcomes(game, st, &[(a, r.clone()), (b, c.clone())])?;
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
                    t[p].hash = mix(&[kp, i as u64]);
                    let said = format!("{} {}", game.def().players[p].id, c.text(game));
                    for tr in t.iter_mut() {
                        tr.moves.push(said.clone());
                    }
                    let outs = solve::outcomes(game, st, &[(p, c.clone())])?;
                    me.chance(outs, &t, depth + 1)
                })
            }
            _ => Err(Error::new(
                ErrorKind::Refused,
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
    format!("{} {moves}", knows_now(game, st, p))
}

/// The cards `p` sees at `st` that others do not, in words: `[a b]`.
pub(crate) fn knows_now(game: &Game, st: &State, p: PlayerIx) -> String {
    use crate::core::zone_visible;
    use crate::definition::format::Per;
    let def = game.def();
    let mut own = Vec::new();
    for (z, zone) in def.zones.iter().enumerate() {
        for o in def.owners(z) {
            let owner = (zone.per == Per::Player).then_some(o);
            let mine = zone_visible(zone.visibility, owner, Some(p));
            let everyone =
                (0..def.nplayers()).all(|v| zone_visible(zone.visibility, owner, Some(v)));
            if mine && !everyone {
                for &c in st.zone(game, z, o) {
                    own.push(def.cards[c as usize].name.clone());
                }
            }
        }
    }
    format!("[{}]", own.join(" "))
}

/// Regret matching+: the positive regrets, normalised (uniform if none).
fn current(regrets: &[f64], out: &mut Vec<f64>) {
    out.clear();
    let pos: f64 = regrets.iter().map(|r| r.max(0.0)).sum();
    let n = regrets.len() as f64;
    out.extend(
        regrets
            .iter()
            .map(|r| if pos > 0.0 { r.max(0.0) / pos } else { 1.0 / n }),
    );
}

fn average(avg: &[f64]) -> Vec<f64> {
    let total: f64 = avg.iter().sum();
    let n = avg.len() as f64;
    avg.iter()
        .map(|a| if total > 0.0 { a / total } else { 1.0 / n })
        .collect()
}

impl Tree {
    /// One CFR+ iteration's pass for player `i`: the strategies of the
    /// iteration fixed first (an information set spans several positions),
    /// the regrets of the pass summed, then added and floored at 0.
    fn pass(&mut self, root: u32, i: PlayerIx, sigma: &mut [Vec<f64>], delta: &mut [Vec<f64>]) {
        for (k, inf) in self.infos.iter().enumerate() {
            current(&inf.regrets, &mut sigma[k]);
            delta[k].iter_mut().for_each(|d| *d = 0.0);
        }
        self.cfr(root, i, 1.0, 1.0, sigma, delta);
        for (k, inf) in self.infos.iter_mut().enumerate() {
            if inf.player != i {
                continue;
            }
            for (r, d) in inf.regrets.iter_mut().zip(&delta[k]) {
                *r = (*r + d).max(0.0);
            }
        }
    }

    /// Player `i`'s value from node `n`, with `pi` their own reach and `po`
    /// everyone else's (chance included); their regrets into `delta`, their
    /// reach-weighted strategy into the average.
    fn cfr(
        &mut self,
        n: u32,
        i: PlayerIx,
        pi: f64,
        po: f64,
        sigma: &[Vec<f64>],
        delta: &mut [Vec<f64>],
    ) -> f64 {
        match self.nodes[n as usize] {
            Node::Leaf(w) => {
                if i == 0 {
                    w.value
                } else {
                    -w.value
                }
            }
            Node::Chance { first, n } => {
                let mut v = 0.0;
                for k in first..first + n {
                    let p = self.probs[k as usize];
                    v += p * self.cfr(self.kids[k as usize], i, pi, po * p, sigma, delta);
                }
                v
            }
            Node::Decide { info, first, n } => {
                let s = &sigma[info as usize];
                if self.infos[info as usize].player == i {
                    let mut vs = Vec::with_capacity(n as usize);
                    let mut v = 0.0;
                    for (a, sa) in s.iter().enumerate() {
                        let kid = self.kids[first as usize + a];
                        let x = self.cfr(kid, i, pi * sa, po, sigma, delta);
                        v += sa * x;
                        vs.push(x);
                    }
                    let w = self.weight;
                    let inf = &mut self.infos[info as usize];
                    for a in 0..n as usize {
                        delta[info as usize][a] += po * (vs[a] - v);
                        inf.avg[a] += w * pi * s[a];
                    }
                    v
                } else {
                    let mut v = 0.0;
                    for (a, &sa) in s.iter().enumerate() {
                        if sa > 0.0 {
                            let kid = self.kids[first as usize + a];
                            v += sa * self.cfr(kid, i, pi, po * sa, sigma, delta);
                        }
                    }
                    v
                }
            }
        }
    }

    /// The first player's worth when both play their average strategies.
    fn worth(&self, n: u32, avg: &[Vec<f64>]) -> Worth {
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
    fn best_response(&self, root: u32, i: PlayerIx, avg: &[Vec<f64>]) -> f64 {
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

/// What CFR+ reports as it goes: iterations done and the exploitability.
pub type OnProgress<'a> = &'a (dyn Fn(u64, f64) + Sync);

/// Solve a game with hidden information by CFR+ over its whole tree,
/// from every setup its chance makes (or the one `seed` makes).
pub fn solve(
    game: &Game,
    seed: Option<u64>,
    limits: CfrLimits,
    progress: OnProgress,
) -> Result<CfrSolution> {
    let started = Instant::now();
    if let Some(e) = solve::refusal(game) {
        return Err(e);
    }
    let work = move || -> Result<CfrSolution> {
        let (mut tree, root, setups) = whole_tree(game, seed, limits)?;
        let mut sigma: Vec<Vec<f64>> = tree
            .infos
            .iter()
            .map(|i| vec![0.0; i.actions.len()])
            .collect();
        let mut delta = sigma.clone();
        let mut t = 0u64;
        let mut next_check = 1u64;
        let (mut expl, mut brs);
        loop {
            t += 1;
            tree.weight = t as f64;
            for i in 0..2 {
                tree.pass(root, i, &mut sigma, &mut delta);
            }
            if t >= next_check || t >= limits.max_iterations {
                next_check = (t * 11 / 10).max(t + 1);
                let avg: Vec<Vec<f64>> = tree.infos.iter().map(|i| average(&i.avg)).collect();
                brs = [
                    tree.best_response(root, 0, &avg),
                    tree.best_response(root, 1, &avg),
                ];
                expl = (brs[0] + brs[1]) / 2.0;
                progress(t, expl);
                if expl <= limits.target
                    || t >= limits.max_iterations
                    || started.elapsed().as_secs_f64() >= limits.max_seconds
                {
                    break;
                }
            }
        }
        let avg: Vec<Vec<f64>> = tree.infos.iter().map(|i| average(&i.avg)).collect();
        let worth = tree.worth(root, &avg);
        let def = game.def();
        let strategies = tree
            .infos
            .iter()
            .zip(&avg)
            .map(|(inf, s)| InfoStrategy {
                player: def.players[inf.player].id.clone(),
                knows: inf.knows.clone(),
                mix: inf.actions.iter().cloned().zip(s.iter().copied()).collect(),
            })
            .collect();
        Ok(CfrSolution {
            head: Header::of(game),
            method: "cfr+",
            worth,
            exploitability: expl,
            best_response: brs,
            iterations: t,
            infosets: tree.infos.len(),
            nodes: tree.nodes.len(),
            setups,
            seconds: started.elapsed().as_secs_f64(),
            strategies,
        })
    };
    deep(work)
}

/// Run `work`, which recurses along lines of play, on a thread with a
/// stack for the depth budget.
pub(crate) fn deep<T: Send>(work: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    let stack = Limits::default()
        .max_depth
        .saturating_mul(16 << 10)
        .max(8 << 20);
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(stack)
            .spawn_scoped(s, work)
            .map_err(|e| Error::usage(format!("thread: {e}")))?
            .join()
            .unwrap_or_else(|_| Err(Error::usage("the search stopped unexpectedly")))
    })
}

/// The whole game tree from every setup (or `seed`'s), its root, and how
/// many setups it has.
fn whole_tree(game: &Game, seed: Option<u64>, limits: CfrLimits) -> Result<(Tree, u32, usize)> {
    let roots = solve::setups(game, seed)?;
    let mut b = Builder {
        game,
        tree: Tree::default(),
        limits,
        depth_limit: Limits::default().max_depth,
    };
    let trails = [Trail::default(), Trail::default()];
    let setups = roots.len();
    let root = b.chance(roots, &trails, 0)?;
    Ok((b.tree, root, setups))
}

/// The exact worth and best responses of a policy given by information
/// set (what the player sees, `mccfr::info_key`; a set it does not know
/// is played uniformly), over the whole tree of at most `max_nodes`.
pub fn judge(
    game: &Game,
    policy: &(dyn Fn(u64) -> Option<Vec<f64>> + Sync),
    max_nodes: usize,
) -> Result<(Worth, [f64; 2])> {
    let limits = CfrLimits {
        max_nodes,
        ..CfrLimits::default()
    };
    deep(move || {
        let (tree, root, _) = whole_tree(game, None, limits)?;
        let avg: Vec<Vec<f64>> = tree
            .infos
            .iter()
            .map(|i| {
                policy(i.view)
                    .filter(|p| p.len() == i.actions.len())
                    .unwrap_or_else(|| vec![1.0 / i.actions.len() as f64; i.actions.len()])
            })
            .collect();
        let brs = [
            tree.best_response(root, 0, &avg),
            tree.best_response(root, 1, &avg),
        ];
        Ok((tree.worth(root, &avg), brs))
    })
}

/// The middle of a refusal for a tree too big to walk whole.
pub const TOO_BIG: &str = "nodes (CFR+ walks the whole tree";

/// Whether CFR+ refused for size: a tree too big, or chance too much to
/// list (which MCCFR handles by sampling).
pub fn too_big(e: &Error) -> bool {
    e.kind == ErrorKind::Refused
        && (e.message.contains(TOO_BIG) || e.message.contains(solve::TOO_MUCH_CHANCE))
}

/// Whether a refusal of the exact solver is for hidden information, which
/// CFR+ handles.
pub fn applies_after(e: &Error) -> bool {
    e.kind == ErrorKind::Refused && e.message.contains(solve::HIDDEN)
}
