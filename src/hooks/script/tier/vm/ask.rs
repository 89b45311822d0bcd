//! The typed form of `ask` for its plain calls: one decider, a list of
//! card ids, words, numbers and maps with a `text` (ask_data.rs), and at
//! most a prompt and `secret` as details. Each word's choice is the
//! symbol's own, made at load (syms.rs): no Rhai value is built. Any
//! other call, and any list `ask` might refuse or check further (numbers
//! out of order, more options than a kept list holds), goes the Rhai
//! form's way.

use rhai::ImmutableString;

use crate::core::{Choice, Choices, Value};
use crate::hooks::script::api::flow::number;
use crate::hooks::script::api::kept_options::{self, Look};
use crate::hooks::script::api::plain_ask::{PlainAsk, plain_ask};
use crate::hooks::script::{Ctx, Fallible};

use super::api::player;
use super::syms::Syms;
use super::value::V;

/// Options in one plain ask at most (as many as an ask's kept list).
const MAX_OPTIONS: usize = 256;

pub(crate) fn ask(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let [
        V::Sym(who),
        V::Sym(name),
        V::List(opts),
        V::Sym(then),
        details @ ..,
    ] = a
    else {
        return None;
    };
    let p = player(syms, &V::Sym(*who))?;
    let (mut prompt, mut made, mut secret) = (None, None, false);
    match details {
        [] => {}
        [V::Map(m)] => {
            for (k, v) in m.iter() {
                match (syms.text(*k).as_str(), v) {
                    ("prompt", V::Sym(s)) => prompt = Some(syms.text(*s).as_str()),
                    // A text made as the script ran (`outbid ${q}`).
                    ("prompt", V::Dyn(d)) => made = Some(d),
                    ("secret", V::Bool(b)) => secret = *b,
                    _ => return None,
                }
            }
        }
        _ => return None,
    }
    let lock = match made {
        Some(d) => Some(d.read_lock::<ImmutableString>()?),
        None => None,
    };
    if let Some(t) = &lock {
        prompt = Some(t.as_str());
    }
    let ask = PlainAsk {
        name: syms.text(*name),
        then: syms.text(*then),
        prompt,
        secret,
    };
    if opts.is_empty() || opts.len() > MAX_OPTIONS {
        return None;
    }
    if opts.iter().any(|o| matches!(o, V::Map(_))) {
        // Converted first (None before anything changes), then looked
        // for as `ask` looks: a list with maps is never kept, but a look
        // counts a miss against a kept list of the same name.
        let choices = super::ask_data::choices(syms, ask.name, opts)?;
        let kept = kept_options::look_by(&cx.def, ask.name, opts.len(), false, |_, _| false);
        debug_assert!(matches!(kept, Look::Convert { keep: false }));
        return plain_ask(cx, p, &ask, choices).map(|r| r.map(|()| V::Unit));
    }
    // Numbers in increasing order are distinct (`ask` checks the others).
    let mut last: Option<i64> = None;
    for o in opts {
        match o {
            V::Sym(s) => {
                syms.choice(*s)?;
            }
            V::Int(i) => {
                if last.is_some_and(|l| l >= *i) {
                    return None;
                }
                last = Some(*i);
            }
            _ => return None,
        }
    }
    // The choices these options made last time, as `ask` keeps them.
    let same = |i: usize, c: &Choice| match &opts[i] {
        V::Sym(s) => syms.choice(*s) == Some(c),
        V::Int(n) => matches!(c, Choice::Data(d) if d.value == Value::Int(*n)),
        _ => false,
    };
    let choices = match kept_options::look_by(&cx.def, ask.name, opts.len(), true, same) {
        Look::Kept(c) => c,
        Look::Convert { keep } => {
            let made: Vec<Choice> = (opts.iter())
                .map(|o| match o {
                    V::Sym(s) => syms.choice(*s).cloned(),
                    V::Int(i) => Some(Choice::Data(number(*i))),
                    _ => None,
                })
                .collect::<Option<_>>()?;
            let made: Choices = made.into();
            if keep {
                kept_options::keep(&cx.def, ask.name, &made);
            }
            made
        }
    };
    plain_ask(cx, p, &ask, choices).map(|r| r.map(|()| V::Unit))
}
