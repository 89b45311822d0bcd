//! An OpenSpiel-shaped state API over the analysis tree (`tree`): a game
//! handle (`Spiel`, shared as `Arc<Spiel>`) and states that hold it
//! (`SpielState`), with chance and simultaneous nodes explicit, actions
//! as integer ids and as text both ways, observations and information
//! states as strings and tensors, and a state's history as text. Every
//! argument is checked: a bad player, action or text is a typed error,
//! never a panic. See docs/state-api.md.
//!
//! ```
//! use std::sync::Arc;
//! use tabula::spiel::{Current, Spiel};
//! use tabula::{Build, Game, Settings};
//!
//! let dir = std::path::Path::new("tests/reference/games");
//! let game = Game::load("kuhn-poker", dir, &Settings::default(), Build::default())?;
//! let spiel = Spiel::new(Arc::new(game));
//! let mut st = spiel.new_initial_state();
//! assert_eq!(st.current(), Current::Chance);
//! assert_eq!(st.chance_outcomes()?.len(), 6);
//! st.sample_chance(7)?;
//! let bet = spiel.action_id("bet")?;
//! assert!(st.legal_actions()?.contains(&bet));
//! st.apply(bet)?;
//! let text = st.serialize()?;
//! assert_eq!(spiel.deserialize_state(&text)?, st);
//! while !st.is_terminal() {
//!     let a = st.legal_actions()?[0];
//!     st.apply(a)?;
//! }
//! assert_eq!(st.returns().iter().sum::<f64>(), 0.0);
//! # Ok::<(), tabula::Error>(())
//! ```

mod actions;
mod follow;
mod game;
mod observe;
mod serial;
mod state;

pub use actions::{Action, Bounds, DEFAULT_WALK};
pub use follow::DEFAULT_KEEP;
pub use game::Spiel;
pub use observe::Segment;
pub use state::{Current, Entry, SpielState};
