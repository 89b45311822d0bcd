//! The only way a hook runs: a `Hooks` implementation (the Rhai scripts, or
//! anything else that resolves steps) behind this trait. A decorator (the
//! memo) can wrap any implementation that is `Traceable`.

use super::ops::Op;
use super::{Choice, Event, State, Value};
use crate::definition::PlayerIx;
use crate::error::Result;

/// What a hook is called with.
#[derive(Debug, Clone, Copy)]
pub enum Args<'a> {
    None,
    /// A rolled face of a die of words.
    Face(&'a str),
    /// A rolled face of a die of numbers.
    Number(i64),
    /// A decision's choices, by decider, and what its ask handed on.
    Choices(&'a [PlayerIx], &'a [Option<Choice>], &'a Value),
}

/// One hook call: the script function and its arguments.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    pub hook: &'a str,
    pub args: Args<'a>,
}

/// Runs a game's hooks. `Send + Sync`, so that one game serves every thread.
pub trait Hooks: Send + Sync {
    /// Run `call` on `state`: it reads and changes the state only through
    /// `ops`, and adds what it logs to `events` when `state.logging()`. On
    /// error the state is unspecified: callers work on a copy.
    fn run(&self, state: &mut State, call: &Call, events: &mut Vec<Event>) -> Result<()>;

    /// Whether a hook of this name and arity exists.
    fn defines(&self, name: &str, arity: usize) -> bool;

    /// Statistics of a memo, if this is one.
    fn memo_stats(&self) -> Option<MemoStats> {
        None
    }
}

/// Hooks that can say what a run did: its reads (with the values seen) and
/// writes, in order. What a memo needs to replay runs.
pub trait Traceable: Hooks {
    /// `run`, also giving the run's operations; None for a run that cannot
    /// be replayed from them (it drew from the RNG).
    fn run_traced(
        &self,
        state: &mut State,
        call: &Call,
        events: &mut Vec<Event>,
    ) -> (Result<()>, Option<Vec<Op>>);
}

/// What a memo did on this thread: runs replayed, runs of the hooks, runs
/// by hook (most first), why they ran (most first), and its size.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MemoStats {
    pub hits: u64,
    pub misses: u64,
    pub runs: Vec<(String, u64)>,
    pub why: Vec<(String, Miss, u64)>,
    pub nodes: usize,
}

/// Why a memo ran a hook's script rather than replaying a record.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Miss {
    /// The hook was never called with these arguments before.
    NewArguments,
    /// A read gave a value no record has seen there.
    NewValue(super::ops::Read),
    /// The run drew from the RNG: it cannot be replayed.
    Chance,
    /// The memo is off for the hook: two runs read the same and wrote
    /// differently (a hook that reads something the engine cannot see).
    Off,
    /// Run plainly for a while: on this thread, the memo cost more for
    /// the hook than replaying saved (see memo/pays.rs).
    Unpaid,
    /// The memo's records are at their bound (memory): runs the records
    /// do not cover are not recorded.
    Full,
    /// The record could not be followed (a write that did not apply).
    Other,
    /// Not recorded: the hook's replays seldom hit on this thread (its
    /// positions are many), so only one miss in several is recorded
    /// (see memo/pays.rs).
    Unrecorded,
}
