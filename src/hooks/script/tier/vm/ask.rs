//! The typed form of `ask` for its plain calls: one decider, a list of
//! card ids, words, numbers and maps with a `text` (ask_data.rs), and at
//! most a prompt and `secret` as details. Each word's choice is the
//! symbol's own, made at load (syms.rs): no Rhai value is built. Any
//! other call, and any list `ask` might refuse or check further (numbers
//! out of order, more options than a kept list holds), goes the Rhai
//! form's way.

use std::cell::RefCell;
use std::sync::Arc;

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
    if opts.is_empty() || opts.len() > MAX_OPTIONS {
        return None;
    }
    let (name, then) = (syms.text(*name), syms.text(*then));
    if opts.iter().any(|o| matches!(o, V::Map(_))) {
        // Converted first (None before anything changes), then looked
        // for as `ask` looks: a list with maps is never kept, but a look
        // counts a miss against a kept list of the same name.
        let choices = super::ask_data::choices(syms, name, opts)?;
        let kept = kept_options::look_by(&cx.def, name, opts.len(), false, |_, _| false);
        debug_assert!(matches!(kept, Look::Convert { keep: false }));
        let ask = site(name, then, |_| None).0;
        let ask = PlainAsk {
            prompt,
            secret,
            ..ask
        };
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
    // The choices this place made last time, where these options make
    // them again (each option's own choice, the very same, or the same
    // number): else as `ask` makes them, through its kept lists.
    let again = |kept: &Choices| {
        (kept.len() == opts.len() && opts.iter().zip(kept.iter()).all(|(o, c)| same(syms, o, c)))
            .then(|| kept.clone())
    };
    let (ask, hit) = site(name, then, again);
    let choices = match hit {
        Some(c) => c,
        None => {
            let made = convert(cx, syms, name, opts)?;
            keep_at(name, then, &made);
            made
        }
    };
    let ask = PlainAsk {
        prompt,
        secret,
        ..ask
    };
    plain_ask(cx, p, &ask, choices).map(|r| r.map(|()| V::Unit))
}

/// Whether option `o` makes choice `c`: the symbol's own choice (a word
/// by the very text the symbol holds, a card by its index), or the
/// number's.
#[inline]
fn same(syms: &Syms, o: &V, c: &Choice) -> bool {
    match (o, c) {
        (V::Sym(s), Choice::Word(b)) => {
            matches!(syms.choice(*s), Some(Choice::Word(a)) if Arc::ptr_eq(a, b))
        }
        (V::Sym(s), Choice::Card(b)) => matches!(syms.choice(*s), Some(Choice::Card(a)) if a == b),
        (V::Int(n), Choice::Data(d)) => d.value == Value::Int(*n),
        _ => false,
    }
}

/// Plain options as `ask` makes them, through its kept lists.
fn convert(cx: &mut Ctx, syms: &Syms, name: &str, opts: &[V]) -> Option<Choices> {
    // The choices these options made last time, as `ask` keeps them.
    let same = |i: usize, c: &Choice| match &opts[i] {
        V::Sym(s) => syms.choice(*s) == Some(c),
        V::Int(n) => matches!(c, Choice::Data(d) if d.value == Value::Int(*n)),
        _ => false,
    };
    Some(
        match kept_options::look_by(&cx.def, name, opts.len(), true, same) {
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
                    kept_options::keep(&cx.def, name, &made);
                }
                made
            }
        },
    )
}

/// Places that ask kept at most, per thread.
const MAX_SITES: usize = 32;

/// A place that asks: the texts of its name and continuation as the
/// decision holds them, and the choices it last made of plain options.
/// Found by the script's texts of the two, by address: each is the
/// symbol's own text of one loaded script (syms.rs), kept alive here, so
/// its address is no other text's while it is kept.
struct Site {
    name: ImmutableString,
    then: ImmutableString,
    texts: (Arc<str>, Arc<str>, Arc<str>),
    choices: Option<Choices>,
}

thread_local! {
    static SITES: RefCell<Vec<Site>> = const { RefCell::new(Vec::new()) };
}

fn find(sites: &[Site], name: &ImmutableString, then: &ImmutableString) -> Option<usize> {
    (sites.iter()).position(|s| s.name.ptr_eq(name) && s.then.ptr_eq(then))
}

/// The texts of the place asking `name` continued by `then` (made the
/// first time), and what `again` makes of its last choices.
fn site(
    name: &ImmutableString,
    then: &ImmutableString,
    again: impl FnOnce(&Choices) -> Option<Choices>,
) -> (PlainAsk<'static>, Option<Choices>) {
    SITES.with(|s| {
        let mut s = s.borrow_mut();
        let i = match find(&s, name, then) {
            Some(i) => i,
            None => {
                if s.len() >= MAX_SITES {
                    s.remove(0);
                }
                s.push(Site {
                    name: name.clone(),
                    then: then.clone(),
                    texts: PlainAsk::texts(name, then),
                    choices: None,
                });
                s.len() - 1
            }
        };
        let site = &s[i];
        let hit = site.choices.as_ref().and_then(again);
        let (name, shown, then) = site.texts.clone();
        let ask = PlainAsk {
            name,
            shown,
            then,
            prompt: None,
            secret: false,
        };
        (ask, hit)
    })
}

/// Keep `made` as the last choices of the place asking `name`.
fn keep_at(name: &ImmutableString, then: &ImmutableString, made: &Choices) {
    SITES.with(|s| {
        let mut s = s.borrow_mut();
        if let Some(i) = find(&s, name, then) {
            s[i].choices = Some(made.clone());
        }
    });
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::core::State;
    use crate::hooks::script::{Compile, RhaiHooks};
    use crate::hooks::test_game::{Game, load};

    /// One ask, the same place every turn, its options changing now and
    /// then: in order, the same texts in the other order, a number for a
    /// word, another number, numbers only, another word.
    fn game(compile: Compile) -> Game<RhaiHooks> {
        let (def, mut s) = load(
            "id: sites\nscript: game.rhai\nplayers: [{id: a, name: A}, {id: b, name: B}]\n\
             cards: {token: {name: Token}}\nzones: {rack: {per: game}}\n\
             setup: [{put: {zone: rack, cards: all}}]\n\
             vars: {n: {name: N, start: 0}}\n\
             flow: {turns: rotate, turn: [{hook: play_turn}]}\n",
            "fn play_turn() {\n\
               let all = [[\"token\", \"stop\"], [\"token\", \"stop\"], [\"stop\", \"token\"],\n\
                 [\"stop\", 3], [\"stop\", 4], [1, 2], [1, 2], [\"red\", \"stop\"], [\"token\", \"stop\"]];\n\
               ask(active(), \"go\", all[get_var(\"n\")], \"went\", #{prompt: \"go on\"});\n\
             }\n\
             fn went(choice) { add_var(\"n\", 1); if get_var(\"n\") >= 9 { end_game(\"\", \"done\"); } }\n",
            1,
        );
        Game(def.clone(), RhaiHooks::new(def, s.remove(0), compile))
    }

    /// Each decision's asks, and the last choice taken each time.
    fn asks(game: &Game<RhaiHooks>) -> Vec<String> {
        let mut st = State::new_quiet(game, 1).unwrap();
        let mut seen = Vec::new();
        while let Some(p) = st.first_waiting() {
            seen.push(format!("{:?}", st.decision().unwrap()));
            let legal = st.legal(p);
            let c = legal[legal.len() - 1].clone();
            st.apply_unchecked(game, p, c).unwrap();
        }
        seen
    }

    #[test]
    fn an_ask_asked_again_makes_the_choices_rhai_makes() {
        let (vm, forms) = super::super::run::rhai_forms(|| asks(&game(Compile::On)));
        assert!(!forms.iter().any(|f| f == "ask"), "typed: {forms:?}");
        let rhai = asks(&game(Compile::Off));
        assert_eq!(vm.len(), 9);
        assert_eq!(vm, rhai);
    }
}
