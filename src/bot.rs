//! Bots choose from what a player may see. `random` is the baseline.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use crate::game::{Game, PlayerIx};
use crate::state::{Choice, State, below};

/// A bot picks one of `player`'s legal choices.
pub trait Bot {
    fn name(&self) -> &str;
    fn choose(&mut self, game: &Game, state: &State, player: PlayerIx) -> Option<Choice>;
}

/// Uniform over the legal choices, from its own seeded RNG.
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> &str {
        "random"
    }
    fn choose(&mut self, _game: &Game, state: &State, player: PlayerIx) -> Option<Choice> {
        let legal = state.legal(player);
        if legal.is_empty() {
            return None;
        }
        Some(legal[below(&mut self.rng, legal.len() as u64) as usize].clone())
    }
}

/// The bot kinds `--bot P=KIND` accepts.
pub const KINDS: &[&str] = &["random"];

/// The bot that takes the seats nobody asked for.
pub const STRONGEST: &str = "random";

pub fn make(kind: &str, seed: u64) -> Option<Box<dyn Bot>> {
    match kind {
        "random" => Some(Box::new(RandomBot::new(seed))),
        _ => None,
    }
}

/// Play random moves until the game ends or `max_decisions` is reached.
/// Returns the number of decisions made.
pub fn random_playout(
    game: &Game,
    state: &mut State,
    seed: u64,
    max_decisions: usize,
) -> crate::Result<usize> {
    let mut bot = RandomBot::new(seed);
    let mut n = 0;
    while !state.is_over() && n < max_decisions {
        let Some(&p) = state.waiting().first() else {
            break;
        };
        let Some(c) = bot.choose(game, state, p) else {
            break;
        };
        state.act(game, p, c)?;
        n += 1;
    }
    Ok(n)
}
