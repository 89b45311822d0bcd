#![deny(clippy::unwrap_used, clippy::expect_used)]
//! tabula: a rules-as-data engine for tabletop games. A game is a YAML file
//! plus a Rhai script; this library loads, validates and runs any of them.

mod api;
pub mod error;
pub mod format;
pub mod game;
pub mod load;
pub mod script;
pub mod state;

pub use error::{Error, ErrorKind, Result};
pub use game::Game;
pub use load::{Settings, load};
pub use state::{Choice, Event, Outcome, State};
pub mod bot;
pub mod cli;
mod memo;
pub mod playthrough;
pub mod replay;
pub mod session;
pub mod sim;
pub mod solve;
pub mod view;
