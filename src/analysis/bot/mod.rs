//! Bots choose from what a player may see. `random` is the baseline;
//! `mcts` searches (mcts.rs).

pub mod best;
mod best_disk;
pub mod mcts;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use crate::core::{Choice, State, below};
use crate::definition::PlayerIx;
use crate::game::Game;

/// A bot picks one of `player`'s legal choices.
pub trait Bot {
    fn name(&self) -> &str;
    fn choose(&mut self, game: &Game, state: &State, player: PlayerIx) -> Option<Choice>;
    /// The probability of each choice `choose` makes here, where the bot
    /// knows it exactly (exploitability is then exact, not estimated from
    /// samples).
    fn policy(
        &mut self,
        _game: &Game,
        _state: &State,
        _player: PlayerIx,
    ) -> Option<Vec<(Choice, f64)>> {
        None
    }
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
    // Out of line: an anchor for where_time_goes.py.
    #[inline(never)]
    fn choose(&mut self, _game: &Game, state: &State, player: PlayerIx) -> Option<Choice> {
        let legal = state.legal(player);
        if legal.is_empty() {
            return None;
        }
        Some(legal[below(&mut self.rng, legal.len() as u64) as usize].clone())
    }
    fn policy(&mut self, _: &Game, state: &State, player: PlayerIx) -> Option<Vec<(Choice, f64)>> {
        let legal = state.legal(player);
        let q = 1.0 / legal.len() as f64;
        Some(legal.iter().map(|c| (c.clone(), q)).collect())
    }
}

/// The bot kinds `--bot P=KIND` accepts: `random`; `mcts` (the default
/// search); `mcts:N` (N iterations); `mcts:Ts` (T seconds); `best` (the
/// equilibrium where solve applies, else `mcts`); `best:N` (solving at
/// most N positions); `default` (the kind `play` seats: `best`, or
/// `$TABULA_BOT`).
pub const KINDS: &[&str] = &[
    "random", "mcts", "mcts:N", "mcts:Ts", "best", "best:N", "default",
];

/// The bot that takes the seats nobody asked for: the equilibrium where
/// the game can be solved, else the search.
pub const STRONGEST: &str = "best";

/// The environment variable from which the `tabula` binary takes another
/// default kind (`mcts`, for one who wants the search bot everywhere, or
/// a faster one in tests) and passes it on (`set_default_kind`).
pub const DEFAULT_VAR: &str = "TABULA_BOT";

static DEFAULT_KIND: std::sync::RwLock<Option<String>> = std::sync::RwLock::new(None);

/// The kind `default` names, as the program was told it (the binary:
/// `$TABULA_BOT`), checked when it is used; None: `STRONGEST`.
pub fn set_default_kind(kind: Option<String>) {
    *DEFAULT_KIND.write().unwrap_or_else(|e| e.into_inner()) = kind;
}

/// The kind `default` names and `play` seats: the one `set_default_kind`
/// gave, else `STRONGEST`. An error names a setting that holds no kind.
pub fn default_kind() -> Result<String, String> {
    match DEFAULT_KIND
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
    {
        Some(k) if k == "default" => Err(format!("{DEFAULT_VAR}=default names no kind")),
        Some(k) if valid(&k) => Ok(k),
        Some(k) => Err(format!("{DEFAULT_VAR}: {}", kind_problem(&k))),
        None => Ok(STRONGEST.to_string()),
    }
}

/// The default search: iterations (so that games replay exactly), with a
/// time cap that keeps a REPL answer within about a second.
pub const MCTS_ITERATIONS: u32 = 4_000;
pub const MCTS_TIME_CAP: std::time::Duration = std::time::Duration::from_millis(1_000);

pub fn make(kind: &str, seed: u64) -> Option<Box<dyn Bot>> {
    make_within(kind, seed, None)
}

/// `make`, with the bytes a search may hold (`Mcts::memory`): a server
/// running many bots bounds each.
pub fn make_within(kind: &str, seed: u64, memory: Option<usize>) -> Option<Box<dyn Bot>> {
    let budget = |iterations, time| mcts::Budget { iterations, time };
    let within = |mut m: mcts::Mcts| {
        m.memory = memory;
        m
    };
    let search = || {
        within(mcts::Mcts::new(
            seed,
            budget(MCTS_ITERATIONS, Some(MCTS_TIME_CAP)),
        ))
    };
    match kind.split_once(':') {
        None if kind == "default" => make_within(&default_kind().ok()?, seed, memory),
        None if kind == "random" => Some(Box::new(RandomBot::new(seed))),
        None if kind == "best" => Some(Box::new(best::Best::new(seed, best::BUDGET, search()))),
        Some(("best", n)) => {
            let n = n.parse().ok().filter(|n| *n > 0)?;
            Some(Box::new(best::Best::new(seed, n, search())))
        }
        None if kind == "mcts" => Some(Box::new(search())),
        Some(("mcts", arg)) => {
            let b = match arg.strip_suffix('s') {
                // A positive, finite number of seconds (a negative or NaN
                // duration would panic).
                Some(secs) => {
                    let secs: f64 = secs.parse().ok().filter(|s: &f64| *s > 0.0)?;
                    budget(
                        u32::MAX,
                        Some(std::time::Duration::try_from_secs_f64(secs).ok()?),
                    )
                }
                None => budget(arg.parse().ok().filter(|n| *n > 0)?, None),
            };
            Some(Box::new(within(mcts::Mcts::new(seed, b))))
        }
        _ => None,
    }
}

/// Whether `make` knows this kind.
pub fn valid(kind: &str) -> bool {
    make(kind, 0).is_some()
}

/// What is wrong with a kind `make` refuses, in the user's terms.
pub fn kind_problem(kind: &str) -> String {
    match kind.split_once(':') {
        Some(("mcts", arg)) => format!(
            "bot kind `{kind}`: `{arg}` is neither a number of iterations above 0 \
             (`mcts:500`) nor a number of seconds above 0 (`mcts:0.5s`)"
        ),
        Some(("best", arg)) => format!(
            "bot kind `{kind}`: `{arg}` is not a number of positions above 0 (`best:100000`)"
        ),
        _ => format!("unknown bot kind `{kind}` (kinds: {})", KINDS.join(", ")),
    }
}

/// A bot's seed for one decision: from the game's seed, how many moves were
/// made and the seat, so that undo and replays meet the same bot choices.
pub fn bot_seed(seed: u64, moves: usize, player: PlayerIx) -> u64 {
    let mut x =
        seed ^ (moves as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ((player as u64 + 1) << 56);
    // splitmix64 finaliser
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Play random moves until the game ends or `max_decisions` is reached.
/// Returns the number of decisions made.
pub fn random_playout(
    game: &Game,
    state: &mut State,
    seed: u64,
    max_decisions: usize,
) -> crate::error::Result<usize> {
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
