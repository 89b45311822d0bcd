//! Layer 2, the core: a game in progress (`State`), its decisions, the flow
//! that advances it, the operations through which hooks read and change it
//! (`ops`), the one way a hook runs (`Hooks`), what a player may see of it
//! (`visibility`), its canonical key, and what happens as data (`Event`).
//! No script engine, no memo, no English sentences.

mod deal;
mod decision;
mod event;
mod flow;
mod hooks;
mod key;
pub mod knowledge;
pub mod ops;
pub mod pick;
mod position;
mod rng;
mod scenario;
mod state;
mod value;
mod visibility;

pub use deal::shares as deal_shares;
pub use decision::{Ask, AskCache, Choice, Choices, Datum, Decision, Outcome};
pub use event::Event;
pub use hooks::{Args, Call, Hooks, MemoStats, Miss, Traceable};
pub use position::Position;
pub use rng::{Forced, below, shuffle};
pub use state::{ChanceMark, State};
pub use value::Value;
pub use visibility::{face_down_visible, zone_visible};

use crate::definition::Def;

/// Anything that holds a definition: a `Def` itself, or a game.
pub trait AsDef {
    fn def(&self) -> &Def;
}

impl AsDef for Def {
    fn def(&self) -> &Def {
        self
    }
}

/// What a state needs to advance: the definition and the hooks that
/// resolve its steps (a game). `asks` may share the asks of declared
/// decision steps between states (an optional cache).
pub trait Rules: AsDef {
    fn hooks(&self) -> &dyn Hooks;
    fn asks(&self) -> Option<&AskCache> {
        None
    }
}
