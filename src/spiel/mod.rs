//! An OpenSpiel-shaped state API over the analysis tree (`tree`): a game
//! handle (`Spiel`, shared as `Arc<Spiel>`) and states that hold it
//! (`SpielState`), with chance and simultaneous nodes explicit, actions
//! as integer ids and as text both ways, observations and information
//! states as strings and tensors, and a state's history as text. Every
//! argument is checked: a bad player, action or text is a typed error,
//! never a panic. See docs/state-api.md.

mod actions;
mod game;
mod observe;
mod serial;
mod state;

pub use actions::{Action, DEFAULT_WALK};
pub use game::Spiel;
pub use observe::Segment;
pub use state::{Current, Entry, SpielState};
