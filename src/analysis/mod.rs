//! Layer 6, analysis: bots that choose from a player's view, batch
//! simulation with balance figures, and the exact solver.

pub mod bot;
pub mod cfr;
#[cfg(feature = "charts")]
pub mod chart;
pub mod estimate;
pub mod evaluate;
pub mod mccfr;
pub mod method;
pub mod response;
pub mod shard;
pub mod sim;
pub mod solve;
pub mod sweep;
pub mod tree;
pub mod worth;
