//! Layer 7, play: a game being played (seats, moves, undo, save and load,
//! reload), the replay file format, and golden playthroughs.

pub mod commands;
pub mod playthrough;
pub mod position;
pub mod replay;
pub mod rest;
pub mod session;
