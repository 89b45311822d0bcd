//! The log, the end of the game, and decisions a script asks for.

use rhai::{Array, Engine, ImmutableString, Map};

use super::super::{Ctx, Fallible, MAX_ASKED_OPTIONS, MAX_LOG_BYTES, with_ctx};
use crate::core::ops::{Read, Write};
use crate::definition::PlayerIx;
use crate::error::printable;

use crate::core::{Ask, Choice, Event, Outcome};
use std::sync::Arc;

pub(super) fn register(engine: &mut Engine) {
    // False in bots' and simulations' playouts: a script may skip building
    // its log lines then.
    engine.register_fn("logging", || with_ctx(|cx| Ok(cx.state.logging())));
    engine.register_fn("log", |text: &str| {
        with_ctx(|cx| {
            spend_log(cx, text)?;
            if !cx.state.logging() {
                return Ok(());
            }
            cx.events.push(Event::Log {
                to: None,
                text: printable(text).into_owned(),
            });
            Ok(())
        })
    });
    // A line only `player` sees (what they drew).
    engine.register_fn("log_to", |player: &str, text: &str| {
        with_ctx(|cx| {
            let p = cx.player(player)?;
            spend_log(cx, text)?;
            if !cx.state.logging() {
                return Ok(());
            }
            cx.events.push(Event::Log {
                to: Some(p),
                text: printable(text).into_owned(),
            });
            Ok(())
        })
    });
    engine.register_fn("end_game", |winner: &str| {
        with_ctx(|cx| {
            let p = cx.player(winner)?;
            cx.write(Write::End(Outcome::Win(p)))
        })
    });
    engine.register_fn("end_game", || {
        with_ctx(|cx| cx.write(Write::End(Outcome::Draw)))
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
    // Ask one player to choose among `options` (card ids or words); the
    // answer goes to the script function `then` as a map player -> choice.
    engine.register_fn(
        "ask",
        |player: &str, name: &str, options: Array, then: &str| {
            with_ctx(|cx| {
                let p = cx.player(player)?;
                ask(cx, vec![p], name, options, then, Map::new())
            })
        },
    );
    // The same with details: `#{prompt: "...", labels: #{back: "back 3: square 5 -> 2"}}`.
    engine.register_fn(
        "ask",
        |player: &str, name: &str, options: Array, then: &str, details: Map| {
            with_ctx(|cx| {
                let p = cx.player(player)?;
                ask(cx, vec![p], name, options, then, details)
            })
        },
    );
    // Ask several players at once, in secret (a simultaneous decision).
    engine.register_fn(
        "ask",
        |players: Array, name: &str, options: Array, then: &str| {
            with_ctx(|cx| {
                let ps = player_list(cx, players)?;
                ask(cx, ps, name, options, then, Map::new())
            })
        },
    );
    engine.register_fn(
        "ask",
        |players: Array, name: &str, options: Array, then: &str, details: Map| {
            with_ctx(|cx| {
                let ps = player_list(cx, players)?;
                ask(cx, ps, name, options, then, details)
            })
        },
    );
}

fn player_list(cx: &Ctx, players: Array) -> Fallible<Vec<PlayerIx>> {
    let mut ps = Vec::new();
    for p in players {
        let id = p.into_immutable_string()?;
        ps.push(cx.player(&id)?);
    }
    Ok(ps)
}

/// An option as a choice: a card by its id, else a word.
fn choice(cx: &Ctx, text: &str) -> Choice {
    match cx.def.card(text) {
        Some(c) if cx.def.cards[c as usize].id == text => Choice::Card(c),
        _ => Choice::Word(text.into()),
    }
}

fn ask(
    cx: &mut Ctx,
    players: Vec<PlayerIx>,
    name: &str,
    options: Array,
    then: &str,
    details: Map,
) -> Fallible<()> {
    if players.is_empty() || options.is_empty() {
        return Err(format!("ask `{name}`: no players or no options").into());
    }
    cx.spent.options += options.len() * players.len();
    if cx.spent.options > MAX_ASKED_OPTIONS {
        return Err(format!(
            "ask `{name}`: this hook has asked for more than {MAX_ASKED_OPTIONS} options in one run (an endless loop?)"
        )
        .into());
    }
    let mut choices = Vec::new();
    for o in options {
        let text: ImmutableString = o.into_immutable_string()?;
        choices.push(choice(cx, &text));
    }
    let mut prompt: Arc<str> = name.into();
    let mut labels = Vec::new();
    for (key, value) in details {
        match key.as_str() {
            "prompt" => prompt = value.to_string().into(),
            "labels" => {
                let Some(map) = value.try_cast::<Map>() else {
                    return Err(format!("ask `{name}`: `labels` is a map option -> text").into());
                };
                for (o, text) in map {
                    let c = choice(cx, &o);
                    if !choices.contains(&c) {
                        return Err(format!(
                            "ask `{name}`: a label for `{o}`, which is not an option"
                        )
                        .into());
                    }
                    labels.push((c, Arc::from(text.to_string())));
                }
            }
            other => {
                return Err(format!(
                    "ask `{name}`: unknown detail `{other}` (known: prompt, labels)"
                )
                .into());
            }
        }
    }
    cx.write(Write::Ask(Arc::new(Ask {
        name: name.into(),
        prompt,
        options: vec![choices; players.len()],
        players,
        then: then.into(),
        labels,
    })))
}

/// Count a log line against the run's budget (whether or not the state
/// records it, so that quiet and logged runs fail alike).
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
