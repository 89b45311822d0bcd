//! Layer 3, hooks: the Rhai implementation of the core's `Hooks` trait, and
//! the memo, a decorator around any hooks that can trace their operations.

pub mod memo;
pub mod script;
#[cfg(test)]
pub(crate) mod test_game;

pub use memo::Memo;
pub use script::RhaiHooks;
