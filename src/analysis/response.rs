//! Best responses against bots: how much a player who knows a bot's
//! policy wins against it (`solve --exploit`). With open information, by
//! a search of the positions; with hidden information, the bot's policy
//! evaluated over the listed tree's information sets (`evaluate`).

use super::evaluate::{self, Evaluation, Policy};
use super::solve::{Limits, cannot, in_pool};
use super::tree;
use super::worth::Worth;
use crate::core::{Choice, State};
use crate::definition::PlayerIx;
use crate::error::{Error, Refusal, Result};
use crate::game::Game;

/// How much a best response wins against a bot: the best responder's
/// expected payoff (+1 win, -1 loss, 0 draw) in each seat, against the bot's
/// policy estimated from `samples` seeded decisions per state (exact for
/// `random`, which is uniform). Exploitability is their mean minus the
/// game's value for a seat average (0 for a symmetric game).
pub fn best_response(
    game: &Game,
    roots: &[(f64, State)],
    kind: &str,
    samples: u32,
) -> Result<[f64; 2]> {
    if game.def().nplayers() != 2 || crate::analysis::bot::make(kind, 0).is_none() {
        return Err(Error::usage(format!(
            "best response: two players and a known bot kind (not `{kind}`)"
        )));
    }
    let limits = Limits::default();
    in_pool(&limits, 1, true, || {
        let mut out = [0.0; 2];
        for (me, slot) in out.iter_mut().enumerate() {
            let mut search = Br {
                game,
                me,
                kind,
                samples,
                memo: rustc_hash::FxHashMap::default(),
                depth: 0,
                limits,
            };
            for (p, root) in roots {
                *slot += p * search.value(root)?;
            }
        }
        Ok(out)
    })?
}

/// A bot kind's policy: stated where the bot knows it (random, best), else
/// estimated from `samples` seeded decisions.
pub struct BotPolicy<'a> {
    pub kind: &'a str,
    pub samples: u32,
}

impl Policy for BotPolicy<'_> {
    fn probs(&self, game: &Game, st: &State, p: PlayerIx) -> Option<Vec<f64>> {
        // Seeded by what the player sees: the same mix at every position
        // of an information set, whichever the tree lists first.
        let seed = tree::observation(game, st, p);
        let mix = policy(game, st, p, self.kind, self.samples, seed);
        if mix.iter().map(|(_, q)| q).sum::<f64>() <= 0.0 {
            return None;
        }
        let probs = st
            .legal(p)
            .iter()
            .map(|c| mix.iter().find(|(x, _)| x == c).map_or(0.0, |(_, q)| *q))
            .collect();
        Some(probs)
    }
}

/// How much a best response wins against a bot kind: one entry of
/// `solve --exploit`'s list (the program's and the Python package's).
pub struct Exploit {
    pub kind: String,
    /// What a best response gets in each seat, in that seat's own payoff.
    pub best: [f64; 2],
    /// The excess over the game's value, averaged over both seats.
    pub gain: f64,
    pub seconds: f64,
}

impl Exploit {
    /// As `solve --json` writes it, the seats named by `players`.
    pub fn json(&self, players: &[String; 2]) -> serde_json::Value {
        serde_json::json!({
            "bot": self.kind,
            "exploitability": self.gain,
            "best_response": {
                players[0].clone(): self.best[0],
                players[1].clone(): self.best[1],
            },
            "seconds": self.seconds,
        })
    }
}

/// `kind` exploited in a game solved exactly to `value` (the first
/// seat's): against an optimal opponent a best response gets the game's
/// value in each seat; the excess is what the bot gives away.
pub fn exploit_exact(
    game: &Game,
    roots: &[(f64, State)],
    value: f64,
    kind: &str,
    samples: u32,
) -> Result<Exploit> {
    let started = std::time::Instant::now();
    let [r0, r1] = best_response(game, roots, kind, samples)?;
    Ok(Exploit {
        kind: kind.to_string(),
        best: [r0, r1],
        gain: ((r0 - value) + (r1 + value)) / 2.0,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// `kind` exploited as `evaluate_bot` measures it over the whole tree
/// (hidden information).
pub fn exploit_evaluated(
    game: &Game,
    kind: &str,
    samples: u32,
    max_nodes: usize,
) -> Result<Exploit> {
    let started = std::time::Instant::now();
    let e = evaluate_bot(game, kind, samples, max_nodes)?;
    Ok(Exploit {
        kind: kind.to_string(),
        best: e.best_response,
        gain: e.exploitability,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The bot `kind` measured as a solve's average strategy was (`exact`:
/// its tree fit): by a best response over the whole tree where it fits,
/// else by the search bot's play against it (`probe_bot`, a lower bound).
pub fn measure_bot(
    game: &Game,
    kind: &str,
    samples: u32,
    limits: super::mccfr::McLimits,
    exact: bool,
) -> Result<super::mccfr::Exploitability> {
    let evaluated = exact.then(|| evaluate_bot(game, kind, samples, limits.exact_nodes));
    match evaluated {
        Some(Ok(e)) => Ok(super::mccfr::Exploitability {
            exact: true,
            value: e.exploitability,
            interval95: 0.0,
            best_response: e.best_response,
            by: "best response".into(),
        }),
        Some(Err(e)) if e.refusal().is_none() => Err(e),
        _ => super::mccfr::probe_bot(game, kind, limits),
    }
}

/// A bot kind's policy in both seats, measured over the whole tree of at
/// most `max_nodes` (hidden information included): its worth, and what a
/// best response to it gets in each seat.
pub fn evaluate_bot(game: &Game, kind: &str, samples: u32, max_nodes: usize) -> Result<Evaluation> {
    if crate::analysis::bot::make(kind, 0).is_none() {
        return Err(Error::usage(format!("best response: no bot kind `{kind}`")));
    }
    evaluate::evaluate(game, &BotPolicy { kind, samples }, max_nodes)
}

/// `kind`'s mix for `p` at `st`; a sampled one from seeds made from `base`.
fn policy(
    game: &Game,
    st: &State,
    p: PlayerIx,
    kind: &str,
    samples: u32,
    base: u64,
) -> Vec<(Choice, f64)> {
    let legal = st.legal(p).to_vec();
    if legal.len() == 1 {
        return legal.into_iter().map(|c| (c, 1.0)).collect();
    }
    // A bot that knows its policy says it (random, best): exact.
    if let Some(pi) = crate::analysis::bot::make(kind, base).and_then(|mut b| b.policy(game, st, p))
    {
        return pi;
    }
    let mut counts: Vec<(Choice, f64)> = Vec::new();
    for i in 0..samples {
        let Some(mut b) =
            crate::analysis::bot::make(kind, base ^ u64::from(i).wrapping_mul(0x9E37_79B9))
        else {
            continue;
        };
        if let Some(c) = b.choose(game, st, p) {
            match counts.iter_mut().find(|(x, _)| *x == c) {
                Some((_, n)) => *n += 1.0,
                None => counts.push((c, 1.0)),
            }
        }
    }
    let total: f64 = counts.iter().map(|(_, n)| n).sum();
    counts
        .into_iter()
        .map(|(c, n)| (c, n / total.max(1.0)))
        .collect()
}

/// A best response's search against one bot kind.
struct Br<'a> {
    game: &'a Game,
    me: PlayerIx,
    kind: &'a str,
    samples: u32,
    memo: rustc_hash::FxHashMap<u128, f64>,
    depth: usize,
    limits: Limits,
}

impl Br<'_> {
    fn value(&mut self, st: &State) -> Result<f64> {
        let (game, me) = (self.game, self.me);
        if st.is_over() {
            let w = Worth::at(game, st).value;
            return Ok(if me == 0 { w } else { -w });
        }
        let k = st.key(game);
        if let Some(v) = self.memo.get(&k) {
            return Ok(*v);
        }
        if self.depth >= self.limits.max_depth {
            return Err(cannot(
                game,
                Refusal::TooDeep {
                    limit: self.limits.max_depth,
                },
                format!(
                    "a best response follows a line of play past {} decisions",
                    self.limits.max_depth
                ),
            ));
        }
        if self.memo.len() >= self.limits.max_states {
            return Err(cannot(
                game,
                Refusal::TooManyPositions {
                    limit: self.limits.max_states,
                },
                format!(
                    "a best response needs more than {} positions",
                    self.limits.max_states
                ),
            ));
        }
        self.depth += 1;
        let v = self.decide(st)?;
        self.depth -= 1;
        self.memo.insert(k, v);
        Ok(v)
    }

    /// The chance-weighted value of making `moves` at `st`.
    fn expect(&mut self, st: &State, moves: &[(PlayerIx, Choice)]) -> Result<f64> {
        let mut v = 0.0;
        for (p, s) in tree::children(self.game, st, moves)? {
            v += p * self.value(&s)?;
        }
        Ok(v)
    }

    fn decide(&mut self, st: &State) -> Result<f64> {
        let (game, me, kind, samples) = (self.game, self.me, self.kind, self.samples);
        Ok(match tree::node(st) {
            tree::Node::Together { players, .. } if players.len() == 2 => {
                let opp = 1 - me;
                let pi = policy(game, st, opp, kind, samples, st.key(game) as u64);
                let mut best = f64::NEG_INFINITY;
                for m in st.legal(me).to_vec() {
                    let mut v = 0.0;
                    for (o, q) in &pi {
                        v += q * self.expect(st, &[(me, m.clone()), (opp, o.clone())])?;
                    }
                    best = best.max(v);
                }
                best
            }
            tree::Node::One(p) if p == me => {
                let mut best = f64::NEG_INFINITY;
                for m in st.legal(me).to_vec() {
                    best = best.max(self.expect(st, &[(me, m)])?);
                }
                best
            }
            tree::Node::One(p) => {
                let mut v = 0.0;
                for (o, q) in policy(game, st, p, kind, samples, st.key(game) as u64) {
                    v += q * self.expect(st, &[(p, o)])?;
                }
                v
            }
            _ => 0.0,
        })
    }
}
