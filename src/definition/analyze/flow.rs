//! The flow: one turn's steps (decisions, rolls, hooks), each checked on
//! its own.

use std::sync::Arc;

use super::names::{Kind, unknown};
use super::{Analyzer, typeable};
use crate::definition::format::{At, FlowStep, GameFile};
use crate::definition::{Card, Options, Param, Pick, Step, Who, Zone, bounds};

/// What a step is checked against: the parameters, cards and zones.
struct Known<'a> {
    params: &'a [Param],
    cards: &'a [Card],
    zones: &'a [Zone],
}

pub(super) fn analyze(
    a: &mut Analyzer,
    file: &GameFile,
    params: &[Param],
    cards: &[Card],
    zones: &[Zone],
) -> Vec<Step> {
    let known = Known {
        params,
        cards,
        zones,
    };
    let steps: &[At<FlowStep>] = file.flow.as_ref().map_or(&[], |f| &f.turn);
    let mut flow = Vec::new();
    let before = a.problems.len();
    for (i, s) in steps.iter().enumerate() {
        if let Some(w) = &s.value.when {
            match a.find(Kind::Param, &w.param) {
                // A step for a setting that is off: not part of this game.
                Some(p) if params[p].value == 0 => continue,
                Some(_) => {}
                None => continue,
            }
        }
        flow.extend(step(a, i, s, &known));
    }
    // No step at all (none written, or every one switched off), and not
    // because a step is broken.
    if flow.is_empty() && a.problems.len() == before {
        let at = a.top();
        a.invalid(
            format!(
                "{}: the game has no `flow: turn:` steps",
                crate::error::path_text(a.path)
            ),
            &at,
        );
    }
    flow
}

fn step(a: &mut Analyzer, i: usize, at: &At<FlowStep>, known: &Known) -> Option<Step> {
    let s = &at.value;
    let kinds = [s.decide.is_some(), s.roll.is_some(), s.hook.is_some()];
    if kinds.iter().filter(|k| **k).count() != 1 {
        let pos = s
            .decide
            .as_ref()
            .or(s.roll.as_ref())
            .or(s.hook.as_ref())
            .and_then(|n| n.pos.clone())
            .or(at.pos.clone());
        a.invalid(
            format!(
                "flow step {}: give exactly one of `decide`, `roll` or `hook`",
                i + 1
            ),
            &pos,
        );
        return None;
    }
    if let Some(name) = &s.decide {
        decide(a, s, name, known)
    } else if let Some(die) = &s.roll {
        roll(a, s, die)
    } else {
        let h = s.hook.as_ref()?;
        a.hook(h, 0);
        Some(Step::Hook {
            name: h.value.clone(),
        })
    }
}

/// The script function that receives a step's result.
fn then(a: &mut Analyzer, s: &FlowStep, what: &At<String>) -> Option<At<String>> {
    match &s.then {
        Some(t) => {
            a.hook(t, 1);
            Some(t.clone())
        }
        None => {
            a.invalid(
                format!(
                    "flow step `{}` needs `then:` (the script function that receives the result)",
                    what.value
                ),
                &what.pos,
            );
            None
        }
    }
}

fn decide(a: &mut Analyzer, s: &FlowStep, name: &At<String>, known: &Known) -> Option<Step> {
    let who = match &s.who {
        None => Some(Who::All),
        Some(w) if w.value == "all" => Some(Who::All),
        Some(w) if w.value == "active" => Some(Who::Active),
        Some(w) => match a.names.ids(Kind::Player).iter().position(|p| *p == w.value) {
            Some(p) => Some(Who::Player(p)),
            None => {
                let mut known = vec!["all".to_string(), "active".to_string()];
                known.extend(a.names.ids(Kind::Player).iter().cloned());
                a.problem(unknown("`who`", w, &known));
                None
            }
        },
    };
    let options = match (&s.from, &s.options) {
        (Some(z), None) => a.find(Kind::Zone, z).map(Options::Zone),
        (None, Some(words)) if !words.is_empty() => {
            for w in words.iter().filter(|w| !typeable(&w.value)) {
                a.invalid(
                    format!(
                        "decision `{}`: option `{}` has spaces at its ends or a control character (or is empty): no one can type it",
                        name.value.escape_debug(),
                        w.value.escape_debug()
                    ),
                    &w.pos,
                );
            }
            Some(Options::Words(
                words.iter().map(|w| w.value.clone()).collect(),
            ))
        }
        _ => {
            a.invalid(
                format!(
                    "decision `{}`: give its options as `from: ZONE` or `options: [..]`",
                    name.value
                ),
                &name.pos,
            );
            None
        }
    };
    let then = then(a, s, name);
    let pick = pick(a, s, name, options.as_ref(), known);
    Some(Step::Decide {
        name: name.value.as_str().into(),
        who: who?,
        simultaneous: s.simultaneous,
        secret: s.secret,
        pick: pick?,
        options: options?,
        then: then?.value.as_str().into(),
        prompt: Arc::from(s.prompt.as_deref().unwrap_or(&name.value)),
    })
}

/// `pick: K` (and `ordered`): K from 1 to the most options the step can
/// ever offer (the words listed, or the kinds of card the zone can
/// hold), and no more choices than a decision may offer. `Some(None)`:
/// no pick; None: a problem noted.
fn pick(
    a: &mut Analyzer,
    s: &FlowStep,
    name: &At<String>,
    options: Option<&Options>,
    known: &Known,
) -> Option<Option<Pick>> {
    let decision = format!("decision `{}`", name.value);
    let Some(k) = &s.pick else {
        if let Some(o) = &s.ordered {
            a.invalid(
                format!("{decision}: `ordered` goes with `pick: K` (choose K options at once): add `pick`, or remove `ordered`"),
                &o.pos,
            );
            return None;
        }
        return Some(None);
    };
    let ordered = s.ordered.as_ref().is_some_and(|o| o.value);
    let n = a.bounded(
        &format!("{decision}: `pick`"),
        k,
        known.params,
        bounds::PICK,
    )?;
    let k_at = k.pos.clone().or(name.pos.clone());
    // The most options the step can offer at once.
    let (most, of) = match options? {
        Options::Words(w) => (w.len(), "option(s) listed".to_string()),
        Options::Zone(z) => {
            let zone = &known.zones[*z];
            let fit = known.cards.iter().filter(|c| zone.fits(c)).count();
            (fit, format!("kind(s) of card `{}` can ever hold", zone.id))
        }
    };
    let k = n as usize;
    if k > most {
        let from = match &s.pick.as_ref()?.value {
            crate::definition::format::StartValue::Param { param } => {
                format!(" (parameter `{}`)", param.value)
            }
            crate::definition::format::StartValue::Expr { expr } => {
                super::expr_said(&expr.value, known.params)
            }
            _ => String::new(),
        };
        a.invalid(
            format!(
                "{decision}: `pick` is {k}{from}, but there are only {most} {of}: no choice could ever be made (pick at most {most})"
            ),
            &k_at,
        );
        return None;
    }
    if let Options::Words(w) = options?
        && let Some(spaced) = w.iter().find(|w| w.contains(char::is_whitespace))
    {
        a.invalid(
            format!(
                "{decision}: with `pick`, option `{spaced}` has a space: a choice of several is typed with spaces between its options (write it as one word, `{}`)",
                spaced.split_whitespace().collect::<Vec<_>>().join("-")
            ),
            &k_at,
        );
        return None;
    }
    if matches!(options?, Options::Words(_)) {
        let many = crate::definition::pick_count(most, k, ordered);
        if many > Pick::MAX_CHOICES as u128 {
            a.invalid(
                format!(
                    "{decision}: picking {k} of {most} options{} makes {many} choices, more than the {} a decision may offer",
                    if ordered { " in order" } else { "" },
                    Pick::MAX_CHOICES
                ),
                &k_at,
            );
            return None;
        }
    }
    Some(Some(Pick {
        k: k as u32,
        ordered,
    }))
}

fn roll(a: &mut Analyzer, s: &FlowStep, die: &At<String>) -> Option<Step> {
    let d = a.find(Kind::Die, die);
    let set = s.set.as_ref().map(|v| a.find(Kind::Var, v));
    let then = match (&s.then, &set) {
        (None, Some(_)) => None,
        _ => Some(then(a, s, die)?.value),
    };
    let set = match set {
        None => None,
        Some(found) => Some(found?),
    };
    Some(Step::Roll { die: d?, then, set })
}
