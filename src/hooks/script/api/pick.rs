//! `pick: K` in an ask's details: the player chooses K of the options at
//! once (three cards to pass), as one decision. Each legal set is one
//! option (the combinations of K, or with `ordered: true` the
//! arrangements), so bots, solvers, the REPL and replays see an ordinary
//! list; its text is the options' texts in the list's order, separated by
//! spaces (`2c 7h qs`), and the continuation receives the list of them.

use rhai::{Dynamic, Map};

use super::super::{Ctx, Fallible, MAX_ASKED_OPTIONS};
use crate::core::pick::{count, walk};
use crate::core::{Choice, Datum, Value};
use crate::definition::Pick;
use std::sync::Arc;

/// `pick` and `ordered` taken out of an ask's details (None: one option
/// per choice, as usual).
pub(super) fn take(name: &str, details: &mut Map) -> Fallible<Option<Pick>> {
    let ordered = match details.remove("ordered") {
        None => None,
        Some(v) => Some(
            v.as_bool()
                .map_err(|t| format!("ask `{name}`: `ordered` is true or false, not {t}"))?,
        ),
    };
    let Some(k) = details.remove("pick") else {
        if ordered.is_some() {
            return Err(format!(
                "ask `{name}`: `ordered` goes with `pick: K` (choose K options at once)"
            )
            .into());
        }
        return Ok(None);
    };
    let k = crate::hooks::script::tier::builtins::int_of(&k)
        .filter(|&k| k >= 1)
        .ok_or_else(|| format!("ask `{name}`: `pick` is how many options make one choice, a number from 1, not `{k}`"))?;
    Ok(Some(Pick {
        k: u32::try_from(k).unwrap_or(u32::MAX),
        ordered: ordered.unwrap_or(false),
    }))
}

/// One decider's options made into the choices of `pick`: every set of
/// `k` (in the list's order), or every arrangement of `k` when ordered.
/// Copies of one option (two `dot`s in a hand) give each set once.
pub(super) fn expand(
    cx: &mut Ctx,
    name: &str,
    pick: Pick,
    list: Vec<(Choice, Option<Dynamic>)>,
    left: &mut usize,
) -> Fallible<Vec<(Choice, Option<Dynamic>)>> {
    let parts: Vec<(Arc<str>, Value)> = list
        .iter()
        .map(|(c, _)| match c {
            Choice::Card(ix) => {
                let id: Arc<str> = cx.def.cards[*ix as usize].id.as_str().into();
                Ok((id.clone(), Value::Text(id)))
            }
            Choice::Word(w) => Ok((w.clone(), Value::Text(w.clone()))),
            Choice::Data(d) if matches!(d.value, Value::Int(_)) => {
                Ok((d.text.clone(), d.value.clone()))
            }
            Choice::Data(_) => Err(format!(
                "ask `{name}`: with `pick`, options are card ids, words or numbers (a choice is several of them), not maps"
            )),
        })
        .collect::<Result<_, _>>()?;
    if let Some((t, _)) = parts.iter().find(|(t, _)| t.contains(char::is_whitespace)) {
        return Err(format!(
            "ask `{name}`: with `pick`, option `{t}` has a space: a choice of several is typed with spaces between them"
        )
        .into());
    }
    let n = parts.len();
    if pick.k as usize > n {
        return Err(format!(
            "ask `{name}`: `pick: {}` of {n} options: no choice can be made (pick at most {n})",
            pick.k
        )
        .into());
    }
    let many = count(n, pick.k as usize, pick.ordered);
    let spent = cx.spent.options as u128 + many;
    if spent > MAX_ASKED_OPTIONS as u128 {
        return Err(format!(
            "ask `{name}`: picking {} of {n} options{} makes {many} choices, more than the {MAX_ASKED_OPTIONS} a hook may ask for",
            pick.k,
            if pick.ordered { " in order" } else { "" }
        )
        .into());
    }
    cx.spent.options = spent as usize;
    let mut out = Vec::with_capacity(many as usize);
    let mut seen = rustc_hash::FxHashSet::default();
    let mut at: Vec<usize> = Vec::with_capacity(pick.k as usize);
    let mut emit = |at: &[usize], left: &mut usize| -> Fallible<()> {
        let text: Vec<&str> = at.iter().map(|&i| &*parts[i].0).collect();
        let text = text.join(" ");
        if !seen.insert(text.clone()) {
            return Ok(());
        }
        *left = left.checked_sub(2 * text.len() + 16).ok_or_else(|| {
            format!("ask `{name}`: its choices hold more text than a decision may keep")
        })?;
        let value = Value::List(at.iter().map(|&i| parts[i].1.clone()).collect());
        out.push((
            Choice::Data(Arc::new(Datum {
                text: text.into(),
                value,
            })),
            None,
        ));
        Ok(())
    };
    walk(n, pick, &mut at, &mut |at| emit(at, left))?;
    Ok(out)
}
