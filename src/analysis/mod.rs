//! Layer 6, analysis: bots that choose from a player's view, batch
//! simulation with balance figures, and the exact solver.

pub mod bot;
pub mod cfr;
pub mod chart;
pub mod mccfr;
pub mod sim;
pub mod solve;
pub mod sweep;
