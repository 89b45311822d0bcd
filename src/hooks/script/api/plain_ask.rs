//! An ask of plain options for the typed VM (tier/vm/ask.rs): one decider,
//! options already made choices (card ids, words, numbers), at most a
//! prompt and `secret`. It writes what `flow::ask` writes for the same
//! call. Where `flow::ask` would refuse the call (a hook past its memory,
//! too many options asked), it gives None before changing anything: the
//! VM then calls the Rhai form, which says what is wrong in its words.

use std::sync::Arc;

use smallvec::smallvec;

use super::super::{Ctx, Fallible, MAX_ASKED_OPTIONS, interned};
use crate::core::ops::Write;
use crate::core::{Ask, Choices, Value};
use crate::definition::PlayerIx;
use crate::error::printable;

/// The texts of a plain ask, made once for each place that asks (the
/// typed `ask` keeps them, tier/vm/ask.rs).
pub(crate) struct PlainAsk<'a> {
    /// The name as the script gave it, as a shared text.
    pub name: Arc<str>,
    /// The name as the decision shows it (`printable`), shared.
    pub shown: Arc<str>,
    pub then: Arc<str>,
    pub prompt: Option<&'a str>,
    pub secret: bool,
}

impl PlainAsk<'_> {
    /// The shared texts of an ask named `name` continued by `then`.
    pub fn texts(name: &str, then: &str) -> (Arc<str>, Arc<str>, Arc<str>) {
        (
            interned::text(name),
            interned::text(printable(name).as_ref()),
            interned::text(then),
        )
    }
}

pub(crate) fn plain_ask(
    cx: &mut Ctx,
    p: PlayerIx,
    ask: &PlainAsk,
    choices: Choices,
) -> Option<Fallible<()>> {
    if super::super::budget::memory_of(String::new).is_err() {
        return None;
    }
    let n = choices.len();
    if choices.is_empty() || cx.spent.options + n > MAX_ASKED_OPTIONS {
        return None;
    }
    cx.spent.options += n;
    // The prompt is read only where the game is logged (as `flow::ask`).
    let prompt: Arc<str> = match ask.prompt {
        Some(t) if cx.logging() => Arc::from(printable(t).as_ref()),
        _ => ask.name.clone(),
    };
    Some(cx.write(Write::Ask(Arc::new(Ask {
        name: ask.shown.clone(),
        prompt,
        options: smallvec![choices],
        players: smallvec![p],
        then: ask.then.clone(),
        labels: Vec::new(),
        data: Value::Unit,
        secret: ask.secret,
        pick: None,
    }))))
}
