//! Two-player zero-sum games with hidden information, solved by CFR+
//! (Tammelin 2014: regret matching+, alternating updates, linearly
//! weighted average strategy; OpenSpiel's `CFRPlusSolver`, iterate for
//! iterate) over the whole game tree as `evaluate` lists it, with the
//! exact exploitability of the average strategy from its best responses.

use std::time::Instant;

use serde::Serialize;

use super::evaluate::{Node, Tree, average, whole_tree};
use super::solve::{self, Header, Worth};
use super::tree;
use crate::definition::PlayerIx;
use crate::error::Result;
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
                    // A choice the others never make this iteration still
                    // leads to sets of `i` that `i` reaches: their average
                    // strategy is weighted by `i`'s reach alone, so only a
                    // line neither side reaches may be skipped.
                    let mut v = 0.0;
                    for (a, &sa) in s.iter().enumerate() {
                        if sa > 0.0 || pi > 0.0 {
                            let kid = self.kids[first as usize + a];
                            v += sa * self.cfr(kid, i, pi, po * sa, sigma, delta);
                        }
                    }
                    v
                }
            }
        }
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
        let (mut tree, root, setups) = whole_tree(game, seed, limits.max_nodes)?;
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
    tree::deep(work)
}
