//! The log, the end of the game, and decisions a script asks for.

use rhai::{Array, Dynamic, FnPtr, ImmutableString, Map, NativeCallContext};

use super::super::tier::natives::Api;
use super::super::value::{map_within, to_value};
use super::super::{Ctx, Fallible, MAX_ASKED_OPTIONS, MAX_LOG_BYTES, interned, with_ctx};
use super::kept_options;
use crate::core::ops::{Read, Write};
use crate::definition::PlayerIx;
use crate::error::printable;

use crate::core::{Ask, Choice, Choices, Datum, Event, Outcome, Value};
use std::sync::Arc;

pub(super) fn register(engine: &mut Api) {
    // Whether the game is being watched (false in bots' playouts). Scripts
    // need not ask: `log` builds its text only then (below).
    engine.register_fn("logging", || with_ctx(|cx| Ok(cx.logging())));
    lazy_log(engine.engine);
    engine.register_fn("end_game", |winner: &str| {
        with_ctx(|cx| {
            let p = cx.player(winner)?;
            cx.write(Write::End(Outcome::Win(p), None))
        })
    });
    engine.register_fn("end_game", || {
        with_ctx(|cx| cx.write(Write::End(Outcome::Draw, None)))
    });
    // With the reason `sim` counts ("reached the egg"); winner "": a draw.
    engine.register_fn("end_game", |winner: &str, reason: &str| {
        with_ctx(|cx| {
            let o = match winner {
                "" => Outcome::Draw,
                w => Outcome::Win(cx.player(w)?),
            };
            // Escaped: a reason reaches terminals, reports and charts.
            cx.write(Write::End(o, Some(printable(reason).as_ref().into())))
        })
    });
    engine.register_fn("is_over", || {
        with_ctx(|cx| Ok(cx.read_int(Read::IsOver) != 0))
    });
    // The next simultaneous decision is ordered: `player` chooses and reveals
    // first, the others choose seeing it.
    engine.register_fn("reveal_first", |player: &str| {
        with_ctx(|cx| {
            let p = cx.player(player)?;
            cx.write(Write::RevealFirst(Some(p)))
        })
    });
    engine.register_fn("cancel_reveal_first", || {
        with_ctx(|cx| cx.write(Write::RevealFirst(None)))
    });
    // Ask one player (an id) or several at once, in secret (a list of ids),
    // to choose among `options` (with `pick: K`, K of them at once: a list); the answer goes to the script function
    // `then` as a map player -> choice. Options: card ids, words, numbers, a
    // range (`0..=coins`), maps with a `text` (structured options), or a map
    // player -> that player's own options. `details`: `prompt`, `labels`
    // (a map option -> text, or a function of the option), `data` (handed
    // to `then` as its second argument), `secret` (true: the choices are
    // not revealed to the other deciders).
    engine.register_fn(
        "ask",
        |ctx: NativeCallContext, who: Dynamic, name: &str, options: Dynamic, then: &str| {
            ask(&ctx, &who, name, options, then, Map::new())
        },
    );
    engine.register_fn(
        "ask",
        |ctx: NativeCallContext,
         who: Dynamic,
         name: &str,
         options: Dynamic,
         then: &str,
         details: Map| { ask(&ctx, &who, name, options, then, details) },
    );
}

/// The deciders: one player id, or a list of them.
fn deciders(cx: &Ctx, who: &Dynamic) -> Fallible<Vec<PlayerIx>> {
    if who.is_array() {
        let list = who.clone().into_array()?;
        let mut ps = Vec::new();
        for p in list {
            let id = p.into_immutable_string()?;
            ps.push(cx.player(&id)?);
        }
        return Ok(ps);
    }
    let id = who
        .clone()
        .into_immutable_string()
        .map_err(|t| format!("ask: the deciders are a player id or a list of them, not `{t}`"))?;
    Ok(vec![cx.player(&id)?])
}

/// An option list as written: a list, or a range of numbers.
fn option_list(name: &str, options: Dynamic) -> Fallible<Array> {
    let range = |lo: i64, hi: i64| -> Fallible<Array> {
        if hi.saturating_sub(lo) > MAX_ASKED_OPTIONS as i64 {
            return Err(format!("ask `{name}`: the range {lo}..{hi} has too many options").into());
        }
        Ok((lo..hi).map(Dynamic::from).collect())
    };
    if options.is_array() {
        return options.into_array().map_err(Into::into);
    }
    if let Some(r) = options.clone().try_cast::<std::ops::Range<i64>>() {
        return range(r.start, r.end);
    }
    if let Some(r) = options.clone().try_cast::<std::ops::RangeInclusive<i64>>() {
        return range(*r.start(), r.end().saturating_add(1));
    }
    Err(format!(
        "ask `{name}`: options are a list, a range or a map player -> options, not `{}`",
        options.type_name()
    )
    .into())
}

/// One option as a choice, and the label it carries (a map's `label`).
fn option(
    cx: &Ctx,
    name: &str,
    o: Dynamic,
    left: &mut usize,
) -> Fallible<(Choice, Option<Dynamic>)> {
    if let Some(i) = crate::hooks::script::tier::builtins::int_of(&o) {
        return Ok((Choice::Data(number(i)), None));
    }
    if o.is_string() {
        let text = o.into_immutable_string()?;
        typeable(name, &text)?;
        return Ok((choice(cx, &text), None));
    }
    let Some(map) = o.try_cast::<Map>() else {
        return Err(format!(
            "ask `{name}`: an option is a card id, a word, a number or a map with a `text`"
        )
        .into());
    };
    // The label is not one of the option's fields.
    let label = map.get("label").cloned();
    let template = map
        .get("text")
        .and_then(|t| t.read_lock::<ImmutableString>());
    let Some(template) = template else {
        return Err(format!(
            "ask `{name}`: a map option needs a `text` (\"play {{card}} on {{target}}\")"
        )
        .into());
    };
    let text = fill(name, &template, |field, out| {
        let Some(v) = map.get(field) else {
            return false;
        };
        if let Some(s) = v.read_lock::<ImmutableString>() {
            out.push_str(&s);
        } else {
            // As the value prints: `write!` fails only if `fmt` does.
            use std::fmt::Write as _;
            let _ = write!(out, "{v}");
        }
        true
    })?;
    typeable(name, &text)?;
    let text = interned::text(&text);
    // Its fields as data, its text filled in.
    let value = map_within(&map, left, &[("label", None), ("text", Some(&text))])?;
    Ok((Choice::Data(Arc::new(Datum { text, value })), label))
}

/// An option's text is one a player can type: at most `MAX_OPTION_TEXT`.
fn long(name: &str, text: &str) -> Fallible<()> {
    if text.len() > MAX_OPTION_TEXT {
        return Err(format!(
            "ask `{name}`: an option's text passes {} KiB",
            MAX_OPTION_TEXT >> 10
        )
        .into());
    }
    Ok(())
}

/// An option's text holds no control character (no one could type it, and
/// it would reach a terminal as it is) and is not too long to type.
pub(crate) fn typeable(name: &str, text: &str) -> Fallible<()> {
    if text.chars().any(char::is_control) {
        return Err(format!(
            "ask `{}`: option `{}` has a control character: no one can type it",
            name.escape_debug(),
            text.escape_debug()
        )
        .into());
    }
    long(name, text)
}

/// Numbers kept once per thread: bids of 0..=50 every turn allocate
/// nothing.
const KEPT_NUMBERS: i64 = 1024;

thread_local! {
    static NUMBERS: std::cell::RefCell<Vec<Arc<Datum>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A number as an option.
pub(crate) fn number(i: i64) -> Arc<Datum> {
    let make = |i: i64| {
        Arc::new(Datum {
            text: i.to_string().into(),
            value: Value::Int(i),
        })
    };
    if !(0..KEPT_NUMBERS).contains(&i) {
        return make(i);
    }
    NUMBERS.with(|n| {
        let mut n = n.borrow_mut();
        if n.is_empty() {
            n.extend((0..KEPT_NUMBERS).map(make));
        }
        n[i as usize].clone()
    })
}

/// The longest text an option may read (a word, or a map option's text
/// once its fields are filled in).
const MAX_OPTION_TEXT: usize = 4 << 10;

/// A map option's text: `{field}` replaced by the field's value, as
/// `field(name, out)` writes it to `out` (false: the option has no such
/// field), stopped as soon as it passes `MAX_OPTION_TEXT`, not built to
/// its end. Rhai's form (`option`) and the VM's (tier/vm/ask_data.rs)
/// both fill a text here.
pub(crate) fn fill(
    name: &str,
    template: &str,
    mut field: impl FnMut(&str, &mut String) -> bool,
) -> Fallible<String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            return Err(
                format!("ask `{name}`: an unclosed `{{` in the option text `{template}`").into(),
            );
        };
        let name_of = &rest[open + 1..open + close];
        // (The label is not a field.)
        if name_of != "label" && field(name_of, &mut out) {
            long(name, &out)?;
        } else {
            return Err(format!(
                "ask `{name}`: the option text `{template}` names `{name_of}`, which the option does not have"
            )
            .into());
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// An option as a choice: a card by its id, else a word.
fn choice(cx: &Ctx, text: &str) -> Choice {
    choice_in(&cx.def, text)
}

fn choice_in(def: &crate::definition::Def, text: &str) -> Choice {
    match def.card(text) {
        Some(c) if def.cards[c as usize].id == text => Choice::Card(c),
        _ => Choice::Word(interned::text(text)),
    }
}

/// A text option as `ask` makes it a choice, where `ask` takes it
/// (typeable: no control character, not too long).
pub(crate) fn plain_choice(def: &crate::definition::Def, text: &str) -> Option<Choice> {
    typeable("", text).ok()?;
    Some(choice_in(def, text))
}

/// Each decider's options as written (one list for all, or a map player ->
/// their own).
fn per_decider(
    cx: &Ctx,
    name: &str,
    players: &[PlayerIx],
    options: Dynamic,
) -> Fallible<Vec<Array>> {
    if !options.is_map() {
        let list = option_list(name, options)?;
        return Ok(vec![list; players.len()]);
    }
    let mut map = options.cast::<Map>();
    let mut out = Vec::new();
    for &p in players {
        let id = cx.def.players[p].id.as_str();
        let Some(list) = map.remove(id) else {
            return Err(format!("ask `{name}`: the options name no options for `{id}`").into());
        };
        out.push(option_list(name, list)?);
    }
    if let Some(k) = map.keys().next() {
        return Err(format!("ask `{name}`: options for `{k}`, who is not asked").into());
    }
    Ok(out)
}

/// A text a script gave, or the one a function of it makes (called only
/// when someone reads it).
fn text_of(
    ctx: &NativeCallContext,
    what: &Dynamic,
    arg: Option<&Dynamic>,
) -> Fallible<Option<Arc<str>>> {
    if what.is_unit() {
        return Ok(None);
    }
    let out = match what.clone().try_cast::<FnPtr>() {
        Some(f) => match arg {
            Some(a) => f.call_within_context::<Dynamic>(ctx, (a.clone(),))?,
            None => f.call_within_context::<Dynamic>(ctx, ())?,
        },
        None => what.clone(),
    };
    Ok((!out.is_unit()).then(|| Arc::from(printable(&out.to_string()).as_ref())))
}

// Out of line: an anchor for where_time_goes.py.
#[inline(never)]
fn ask(
    ctx: &NativeCallContext,
    who: &Dynamic,
    name: &str,
    options: Dynamic,
    then: &str,
    details: Map,
) -> Fallible<()> {
    kept_size(name, &options, &details)?;
    let mut details = details;
    let pick = super::pick::take(name, &mut details)?;
    super::super::budget::memory_of(|| format!("ask `{name}`"))?;
    let (players, logging) = with_ctx(|cx| Ok((deciders(cx, who)?, cx.logging())))?;
    let lists = with_ctx(|cx| per_decider(cx, name, &players, options))?;
    if players.is_empty() || lists.iter().any(Array::is_empty) {
        return Err(format!("ask `{name}`: no players or no options").into());
    }
    let n: usize = lists.iter().map(Array::len).sum();
    with_ctx(|cx| {
        cx.spent.options += n;
        if cx.spent.options > MAX_ASKED_OPTIONS {
            return Err(format!(
                "ask `{name}`: this hook has asked for more than {MAX_ASKED_OPTIONS} options in one run (an endless loop?)"
            )
            .into());
        }
        Ok(())
    })?;
    // What the decision keeps (its options and data) is held to one budget.
    let mut left = super::super::value::MAX_KEPT_BYTES;
    // Each list converted (or the choices a plain list made last time),
    // and a plain one kept to be kept.
    let converted: Vec<Converted> = with_ctx(|cx| {
        lists
            .into_iter()
            .map(|list| {
                let keep = match kept_options::look(&cx.def, name, &list) {
                    _ if pick.is_some() => false,
                    kept_options::Look::Kept(c) => return Ok(Converted::Kept(c)),
                    kept_options::Look::Convert { keep } => keep,
                };
                let made = (list.into_iter())
                    .map(|o| option(cx, name, o, &mut left))
                    .collect::<Fallible<_>>()?;
                let made = match pick {
                    Some(pick) => super::pick::expand(cx, name, pick, made, &mut left)?,
                    None => made,
                };
                Ok(Converted::Made(made, keep))
            })
            .collect()
    })?;
    let mut labels = Vec::new();
    let mut choices: smallvec::SmallVec<[Choices; 2]> = smallvec::SmallVec::new();
    for list in converted {
        let (list, keep) = match list {
            Converted::Kept(c) => {
                choices.push(c);
                continue;
            }
            Converted::Made(list, keep) => (list, keep),
        };
        let mut mine = Vec::with_capacity(list.len());
        let mut texts = rustc_hash::FxHashSet::default();
        // Numbers in increasing order (a range: the common case) are distinct
        // without a set of their texts.
        let distinct = increasing_numbers(&list);
        for (c, label) in list {
            if !distinct
                && let Choice::Data(d) = &c
                && !texts.insert(d.text.clone())
            {
                return Err(format!("ask `{name}`: two options read `{}`", d.text).into());
            }
            if logging
                && let Some(l) = label
                && let Some(t) = text_of(ctx, &l, None)?
            {
                labels.push((c.clone(), t));
            }
            mine.push(c);
        }
        let mine: Choices = mine.into();
        if keep {
            with_ctx(|cx| {
                kept_options::keep(&cx.def, name, &mine);
                Ok(())
            })?;
        }
        choices.push(mine);
    }
    let mut prompt: Arc<str> = interned::text(name);
    let mut data = Value::Unit;
    let mut secret = false;
    for (key, value) in details {
        match key.as_str() {
            "prompt" => {
                if logging && let Some(t) = text_of(ctx, &value, None)? {
                    prompt = t;
                }
            }
            "data" => data = to_value(&value, &mut left)?,
            "secret" => {
                secret = value
                    .as_bool()
                    .map_err(|t| format!("ask `{name}`: `secret` is true or false, not {t}"))?;
            }
            "labels" => {
                if logging {
                    label_all(ctx, name, &choices, value, &mut labels)?;
                }
            }
            other => {
                return Err(format!(
                    "ask `{name}`: unknown detail `{other}` (known: prompt, labels, data, secret, pick, ordered)"
                )
                .into());
            }
        }
    }
    with_ctx(|cx| {
        cx.write(Write::Ask(Arc::new(Ask {
            // Shown as the decision's name: escaped as a prompt is.
            name: interned::text(printable(name).as_ref()),
            prompt,
            options: choices,
            players: players.into(),
            then: interned::text(then),
            labels,
            data,
            secret,
            pick,
        })))
    })
}

/// What an ask would keep, measured before anything is converted: its
/// options' and its data's text (map keys included) against the budget
/// of a decision, an error naming the ask, the size and the limit.
fn kept_size(name: &str, options: &Dynamic, details: &Map) -> Fallible<()> {
    let limit = super::super::value::MAX_KEPT_BYTES;
    let mut n = super::super::value::text_bytes(options);
    if let Some(d) = details.get("data") {
        n += super::super::value::text_bytes(d);
    }
    if n > limit {
        return Err(format!(
            "ask `{name}`: its options and data hold {:.1} MiB of text (map keys included), more than the {} MiB a decision may keep: hand on less (a key or a number the continuation looks up)",
            n as f64 / f64::from(1 << 20),
            limit >> 20
        )
        .into());
    }
    Ok(())
}

/// One decider's options: converted (and whether to keep the choices
/// made), or the choices kept from the last time.
enum Converted {
    Made(Vec<(Choice, Option<Dynamic>)>, bool),
    Kept(Choices),
}

/// Whether every option is a number, each greater than the one before.
fn increasing_numbers(list: &[(Choice, Option<Dynamic>)]) -> bool {
    let mut last = None;
    for (c, _) in list {
        let Choice::Data(d) = c else { return false };
        let Value::Int(i) = d.value else { return false };
        if last.is_some_and(|l| l >= i) {
            return false;
        }
        last = Some(i);
    }
    true
}

/// `labels`: a map option text -> label, or a function of the option.
fn label_all(
    ctx: &NativeCallContext,
    name: &str,
    choices: &[Choices],
    labels: Dynamic,
    out: &mut Vec<(Choice, Arc<str>)>,
) -> Fallible<()> {
    let mut all: Vec<&Choice> = Vec::new();
    for c in choices.iter().flat_map(|c| c.iter()) {
        if !all.contains(&c) {
            all.push(c);
        }
    }
    if let Some(map) = labels.clone().try_cast::<Map>() {
        let texts: Vec<String> =
            with_ctx(|cx| Ok(all.iter().map(|c| c.text(&*cx.def).to_string()).collect()))?;
        // A label for an option not offered now is passed over: one map
        // serves every ask of a kind, whichever of its options are legal.
        for (o, text) in map {
            let Some(c) = all
                .iter()
                .zip(&texts)
                .find(|(_, t)| **t == *o)
                .map(|(c, _)| c)
            else {
                continue;
            };
            if let Some(t) = text_of(ctx, &text, None)? {
                out.push(((*c).clone(), t));
            }
        }
        return Ok(());
    }
    if !labels.is::<FnPtr>() {
        return Err(format!(
            "ask `{name}`: `labels` is a map option -> text, or a function of the option"
        )
        .into());
    }
    for c in all {
        let arg = with_ctx(|cx| Ok(super::super::value::choice_dynamic(&cx.keys, c)))?;
        if let Some(t) = text_of(ctx, &labels, Some(&arg))? {
            out.push((c.clone(), t));
        }
    }
    Ok(())
}

/// `log(text)` and `log_to(player, text)` (a line only that player sees)
/// as syntax, not functions: their arguments are evaluated only when the
/// game is watched, so a playout spends nothing on them, and the reads a
/// message makes never enter a memo record.
fn lazy_log(engine: &mut rhai::Engine) {
    let log = |context: &mut rhai::EvalContext,
               to: Option<&rhai::Expression>,
               text: &rhai::Expression| {
        if !with_ctx(|cx| Ok(cx.logging()))? {
            return Ok(Dynamic::UNIT);
        }
        let to = match to {
            Some(e) => Some(context.eval_expression_tree(e)?.into_immutable_string()?),
            None => None,
        };
        let text = context.eval_expression_tree(text)?.to_string();
        log_line(to.as_deref(), &text).map(|()| Dynamic::UNIT)
    };
    // Both syntaxes are fixed and valid: registering them cannot fail.
    let _ = engine.register_custom_syntax(["log", "(", "$expr$", ")"], false, move |c, i| {
        log(c, None, &i[0])
    });
    let _ = engine.register_custom_syntax(
        ["log_to", "(", "$expr$", ",", "$expr$", ")"],
        false,
        move |c, i| log(c, Some(&i[0]), &i[1]),
    );
}

/// A line of the log (seen by `to` only, if given), against the budget.
pub(crate) fn log_line(to: Option<&str>, text: &str) -> Fallible<()> {
    with_ctx(|cx| {
        let to = match to {
            Some(p) => Some(cx.player(p)?),
            None => None,
        };
        spend_log(cx, text)?;
        cx.events.push(Event::Log {
            to,
            text: printable(text).into_owned(),
        });
        Ok(())
    })
}

/// Count a log line against the run's budget.
fn spend_log(cx: &mut Ctx, text: &str) -> Fallible<()> {
    cx.spent.log_bytes += text.len();
    if cx.spent.log_bytes > MAX_LOG_BYTES {
        return Err(format!(
            "this hook has logged more than {} KiB in one run (an endless loop?)",
            MAX_LOG_BYTES / 1024
        )
        .into());
    }
    Ok(())
}
