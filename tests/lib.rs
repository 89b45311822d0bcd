//! The integration tests: one binary, a module per file (casey/just's
//! layout), so the crate and its dependencies are linked once, not once a
//! file. `common` holds the shared helpers: `Test`, the program run as a
//! user runs it, and the game loaders; `every_game` plays every game
//! found in the games folders against each property every game must have.
//!
//! Apart, in a binary of its own: `pty.rs`, which forks the program in a
//! pseudo-terminal from inside the test process (fork is only safe where
//! no other test's thread may hold a lock the child needs).

mod common;

/// The counting allocator the `tabula` binary installs (src/main.rs), so
/// that the memory budget and the counts are as the program has them.
#[cfg(feature = "memory-budget")]
#[global_allocator]
static ALLOCATOR: tabula::memory::Counting = tabula::memory::Counting;
mod web;

mod analysis;
mod analyzer;
mod best;
mod bots;
mod braverats;
mod browser;
mod card_display;
mod cfr;
mod cli;
mod deal;
mod decided;
mod dice;
mod docs_charts;
mod edit_rules;
mod embed;
mod errors;
mod estimate;
mod every_game;
mod experior;
mod expressions;
mod faces;
mod grid;
mod hex_grid;
mod hints;
mod hostile;
mod hostile_files;
mod hostile_output;
mod hostile_play;
#[cfg(feature = "jit")]
mod jit;
#[cfg(feature = "jit")]
mod jit_calls;
#[cfg(feature = "jit")]
mod jit_programs;
#[cfg(feature = "jit")]
mod jit_values;
mod knowledge;
mod language;
mod library;
mod matches;
mod mccfr;
mod memo;
mod moves;
mod pick;
mod pick_flow;
mod position_errors;
mod positions;
mod reference;
mod repl;
mod schema;
mod script_limits;
mod serve;
mod serve_close;
mod serve_lobby;
mod serve_network;
mod serve_position;
mod serve_slow;
mod serve_store;
mod solve;
mod spiel;
mod static_checks;
mod structure;
#[cfg(feature = "jit")]
mod templates;
mod the_path;
mod the_path_rewrite;
mod tier;
mod tutorial;
mod typing;
mod vm;
mod yaml_errors;
