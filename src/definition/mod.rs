//! Layer 1, the definition: the game file as written (`format`), finding and
//! reading it (`source`), and its analysis into a validated `Def`
//! (`analyze`). Plain `Send + Sync` data; no script engine.

pub mod analyze;
pub mod bounds;
mod def;
pub mod display;
pub mod expr;
pub mod format;
pub mod grid;
mod ids;
mod numbers;
pub mod source;
mod yaml_words;

pub use def::*;
pub use grid::{Grid, column_name};
pub use ids::{Ids, Lists};
pub use source::Settings;
