#![deny(clippy::unwrap_used, clippy::expect_used)]
//! tabula: a rules-as-data engine for tabletop games. A game is a YAML file
//! plus a Rhai script; this library loads, validates and runs any of them.
//!
//! The library is layered; each layer uses only the ones before it
//! (tests/structure.rs checks the `use crate::` lines):
//!
//! 0. [`memory`], [`files`], [`error`]: each thread's memory counted;
//!    reading files within a budget; errors as data.
//! 1. [`definition`]: the game file, its analysis into a validated [`Def`].
//! 2. [`core`]: [`State`], decisions, the flow, the operations hooks use,
//!    the [`Hooks`] trait, visibility, events as data.
//! 3. [`hooks`]: the Rhai implementation of [`Hooks`]; the memo decorator.
//! 4. [`game`]: a [`Game`], a definition plus its hooks (`Send + Sync`).
//! 5. [`text`]: moves parsed, events phrased, states rendered.
//! 6. [`analysis`]: bots, simulation, the solver.
//! 7. [`play`]: sessions, replays, playthroughs.
//! 8. [`spiel`]: an OpenSpiel-shaped state API (a state holds its game;
//!    integer actions; chance and simultaneous nodes explicit).
//! 9. `serve`: tables played in the browser (`tabula serve`; feature
//!    `serve`).
//!
//! Features: the default ones build everything the `tabula` program has;
//! `default-features = false` is the engine alone (layers 0 to 8), and
//! `cli`, `serve`, `charts` and `memory-budget` add the command line, the
//! server, SVG charts and the counting allocator (see Cargo.toml).
//!
//! Play a game between two random bots:
//!
//! ```
//! use tabula::{Game, Settings, State, bot::{Bot, RandomBot}};
//! let game = tabula::load("braverats", "games".as_ref(), &Settings::default())?;
//! let (mut state, _events) = State::new(&game, 7)?;
//! let mut bots = [RandomBot::new(1), RandomBot::new(2)];
//! while let Some(p) = state.first_waiting() {
//!     let choice = bots[p].choose(&game, &state, p).expect("a legal choice");
//!     state.act(&game, p, choice)?;
//! }
//! assert!(state.is_over());
//! # Ok::<(), tabula::Error>(())
//! ```
//!
//! A game is read and compiled once and is `Send + Sync`: simulation and the
//! solver share it between their threads (each thread's hooks keep their
//! own script engine and memo of hook runs).
//!
//! ```
//! use tabula::{Settings, sim::{self, SimConfig}};
//! let game = tabula::load("experior", "games".as_ref(), &Settings::default())?;
//! let cfg = SimConfig {
//!     games: 200,
//!     seed: 1,
//!     bots: vec!["random".into(), "random".into()],
//!     jobs: 2,
//!     max_decisions: 10_000,
//!     shard: None,
//! };
//! let tally = sim::run(&game, &cfg, &|_done| {})?;
//! let report = sim::report(&game, &cfg, &tally);
//! assert_eq!(report.games, 200);
//! # Ok::<(), tabula::Error>(())
//! ```
//!
//! The memo is a decorator around the hooks, chosen where a game is built:
//! `Game::load(id, dir, &settings, Build { memo: false, ..Build::default() })` runs every hook
//! through the script (the same games, slower); [`Game::from_parts`] takes
//! any [`Hooks`].

pub mod memory;

pub mod files;

pub mod error;

pub mod definition;

pub mod core;

pub mod hooks;

pub mod game;

pub mod text;

pub mod analysis;

pub mod play;

pub mod spiel;

#[cfg(feature = "serve")]
pub mod serve;

pub use crate::core::{AsDef, Choice, Decision, Event, Hooks, Outcome, Position, Rules, State};
#[cfg(feature = "charts")]
pub use analysis::chart;
pub use analysis::{bot, cfr, mccfr, sim, solve, sweep, tree};
pub use definition::{CardIx, Def, PlayerIx, Settings, format};
pub use error::{Error, ErrorKind, Illegal, Refusal, Result};
pub use game::{Build, Game, load};
pub use hooks::script::{Compile, Fallback};
pub use play::{playthrough, position, replay, rest, session};
pub use text::{phrase, view};
