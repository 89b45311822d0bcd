//! Measuring what MCCFR learnt where the tree is too big to walk: its
//! average strategy as a bot, its value by play against itself, and a
//! lower bound of its exploitability from a search bot against it.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use rayon::prelude::*;

use super::{Exploitability, McLimits, Table, sample};
use crate::analysis::bot::{Bot, mcts};
use crate::analysis::cfr;
use crate::analysis::solve::{self, Worth};
use crate::analysis::tree;
use crate::core::{Choice, State};
use crate::definition::PlayerIx;
use crate::error::{Error, ErrorKind, Refusal, Result};
use crate::game::Game;

/// The average strategy of a table as a bot: it samples the mix of the
/// information set it is in (uniform in one the learning never met).
pub struct Policy<'a> {
    pub table: &'a Table,
    rng: ChaCha8Rng,
}

impl<'a> Policy<'a> {
    pub fn new(table: &'a Table, seed: u64) -> Policy<'a> {
        Policy {
            table,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Bot for Policy<'_> {
    fn name(&self) -> &str {
        "mccfr"
    }
    fn choose(&mut self, game: &Game, state: &State, player: PlayerIx) -> Option<Choice> {
        let mix = self.policy(game, state, player)?;
        let probs: Vec<f64> = mix.iter().map(|(_, p)| *p).collect();
        Some(mix[sample(&mut self.rng, &probs)].0.clone())
    }
    fn policy(
        &mut self,
        game: &Game,
        state: &State,
        player: PlayerIx,
    ) -> Option<Vec<(Choice, f64)>> {
        let legal = state.legal(player);
        if legal.is_empty() {
            return None;
        }
        let probs = (self.table.average(tree::observation(game, state, player)))
            .filter(|p| p.len() == legal.len())
            .unwrap_or_else(|| vec![1.0 / legal.len() as f64; legal.len()]);
        Some(legal.iter().cloned().zip(probs).collect())
    }
}

/// One game from `seed` between two bots: the first player's payoff and
/// its result.
pub(super) fn duel(game: &Game, seed: u64, bots: &mut [&mut dyn Bot; 2]) -> Result<Worth> {
    let mut st = State::new_quiet(game, seed)?;
    let mut n = 0usize;
    while let Some(p) = st.first_waiting() {
        n += 1;
        if n > solve::MAX_DEPTH {
            return Err(Error::new(
                ErrorKind::Refused(Refusal::TooDeep {
                    limit: solve::MAX_DEPTH,
                }),
                format!("a game of {} ran past {n} decisions", game.id()),
            ));
        }
        let c = bots[p]
            .choose(game, &st, p)
            .ok_or_else(|| Error::usage("a bot found no legal choice"))?;
        st.apply_unchecked(game, p, c)?;
    }
    Ok(Worth::at(game, &st))
}

/// The mean of `xs` and its 95% interval.
pub(super) fn mean95(xs: &[f64]) -> (f64, f64) {
    let n = xs.len().max(1) as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, 1.96 * (var / n).sqrt())
}

/// The average strategy against itself over `eval_games` games.
pub(super) fn evaluate(game: &Game, table: &Table, limits: McLimits) -> Result<(Worth, f64)> {
    let games: Vec<Worth> = (0..limits.eval_games)
        .into_par_iter()
        .map(|k| {
            let seed = crate::analysis::bot::bot_seed(limits.seed ^ 0xE7A1, k as usize, 0);
            let (mut a, mut b) = (Policy::new(table, seed), Policy::new(table, seed ^ 1));
            duel(game, seed, &mut [&mut a, &mut b])
        })
        .collect::<Result<_>>()?;
    let values: Vec<f64> = games.iter().map(|w| w.value).collect();
    let (_, interval) = mean95(&values);
    let w = 1.0 / games.len().max(1) as f64;
    Ok((Worth::mix(games.into_iter().map(|g| (w, g))), interval))
}

/// A lower bound of the exploitability: the search bot against the
/// average strategy, `probe_games` in each seat.
pub(super) fn probe(game: &Game, table: &Table, limits: McLimits) -> Result<Exploitability> {
    probe_with(game, limits, &|seed| Box::new(Policy::new(table, seed)))
}

/// A lower bound of the exploitability of the bot `kind` (`bot::make`),
/// where the tree is too big for a best response: what the search bot
/// gains against it, `probe_games` in each seat.
pub fn probe_bot(game: &Game, kind: &str, limits: McLimits) -> Result<Exploitability> {
    if crate::analysis::bot::make(kind, 0).is_none() {
        return Err(Error::usage(crate::analysis::bot::kind_problem(kind)));
    }
    probe_with(game, limits, &|seed| {
        crate::analysis::bot::make(kind, seed)
            .unwrap_or_else(|| Box::new(crate::analysis::bot::RandomBot::new(seed)))
    })
}

/// The search bot against the bots `make` makes (from a seed), in each
/// seat.
fn probe_with<'a>(
    game: &Game,
    limits: McLimits,
    make: &(dyn Fn(u64) -> Box<dyn Bot + 'a> + Sync),
) -> Result<Exploitability> {
    let budget = mcts::Budget {
        iterations: limits.probe_iterations,
        time: None,
    };
    let mut gains = Vec::new();
    let mut brs = [0.0; 2];
    for (seat, br) in brs.iter_mut().enumerate() {
        let got: Vec<f64> = (0..limits.probe_games)
            .into_par_iter()
            .map(|k| {
                let seed = crate::analysis::bot::bot_seed(limits.seed ^ 0x9B0E, k as usize, seat);
                let mut search = mcts::Mcts::new(seed, budget);
                let mut other = make(seed ^ 1);
                let w = if seat == 0 {
                    duel(game, seed, &mut [&mut search, &mut *other])?
                } else {
                    duel(game, seed, &mut [&mut *other, &mut search])?
                };
                Ok(if seat == 0 { w.value } else { -w.value })
            })
            .collect::<Result<_>>()?;
        *br = mean95(&got).0;
        gains.push(got);
    }
    // The bound is the mean of the two seats' returns: pair the seats'
    // games for its interval.
    let paired: Vec<f64> = gains[0]
        .iter()
        .zip(&gains[1])
        .map(|(a, b)| (a + b) / 2.0)
        .collect();
    let (value, interval95) = mean95(&paired);
    Ok(Exploitability {
        exact: false,
        value,
        interval95,
        best_response: brs,
        by: format!("mcts:{}", limits.probe_iterations),
    })
}

/// The average strategy of each player at their first decision from the
/// setup of `seed`.
pub(super) fn openings(game: &Game, table: &Table, seed: u64) -> Result<Vec<cfr::InfoStrategy>> {
    let def = game.def();
    let mut st = State::new_quiet(game, crate::analysis::bot::bot_seed(seed, 0, 0))?;
    let mut out = Vec::new();
    let mut seen = [false; 2];
    let mut policy = Policy::new(table, seed);
    while let Some(p) = st.first_waiting() {
        if seen.iter().all(|s| *s) || out.len() > 8 {
            break;
        }
        let mix = policy.policy(game, &st, p).unwrap_or_default();
        if !seen[p] {
            seen[p] = true;
            out.push(cfr::InfoStrategy {
                player: def.players[p].id.clone(),
                knows: tree::label(game, &st, p),
                mix: mix
                    .iter()
                    .map(|(c, q)| (c.text(game).to_string(), *q))
                    .collect(),
            });
        }
        let Some(c) = policy.choose(game, &st, p) else {
            break;
        };
        st.apply_unchecked(game, p, c)?;
    }
    Ok(out)
}
