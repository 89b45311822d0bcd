//! Script values to the core's `Value` and back: what an ask hands on to
//! its continuation and what a structured option holds.

use std::sync::Arc;

use rhai::{Array, Dynamic, ImmutableString, Map};

use super::{Fallible, Keys, interned};
use crate::core::{Choice, Value};

/// The most text (map keys included) one decision keeps in its options
/// and data: a state keeps them in every copy a search makes.
pub(crate) const MAX_KEPT_BYTES: usize = 4 << 20;

/// A script value as data the state can keep: (), true/false, integers,
/// text, and lists and maps of those, its text (and keys) taken from
/// `left`, what may still be kept.
pub(crate) fn to_value(d: &Dynamic, left: &mut usize) -> Fallible<Value> {
    within(d, left)
}

/// The text a value holds (map keys included), as an ask would keep it:
/// counted without copying anything.
pub(crate) fn text_bytes(d: &Dynamic) -> usize {
    let mut n = 0;
    count_text(d, &mut n);
    n
}

fn count_text(d: &Dynamic, n: &mut usize) {
    if let Some(s) = d.read_lock::<ImmutableString>() {
        *n += s.len();
    } else if let Some(a) = d.read_lock::<Array>() {
        for v in a.iter() {
            count_text(v, n);
        }
    } else if let Some(m) = d.read_lock::<Map>() {
        for (k, v) in m.iter() {
            *n += k.len();
            count_text(v, n);
        }
    }
}

/// `n` bytes of text taken from what a kept value may still hold.
pub(crate) fn take(left: &mut usize, n: usize) -> Fallible<()> {
    *left = left.checked_sub(n).ok_or_else(|| {
        format!(
            "an ask's options and data hold more than {} MiB of text",
            MAX_KEPT_BYTES >> 20
        )
    })?;
    Ok(())
}

/// `to_value`, taking its text from `left`.
fn within(d: &Dynamic, left: &mut usize) -> Fallible<Value> {
    if d.is_unit() {
        return Ok(Value::Unit);
    }
    if let Ok(b) = d.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Ok(i) = d.as_int() {
        return Ok(Value::Int(i));
    }
    if let Ok(c) = d.as_char() {
        return Ok(Value::Text(interned::text(c.encode_utf8(&mut [0; 4]))));
    }
    if let Some(s) = d.read_lock::<ImmutableString>() {
        take(left, s.len())?;
        return Ok(Value::Text(interned::text(&s)));
    }
    if d.is_array() {
        let a = d.read_lock::<Array>().ok_or("a list that is in use")?;
        let items: Fallible<Vec<Value>> = a.iter().map(|v| within(v, left)).collect();
        return Ok(Value::List(items?.into()));
    }
    if d.is_map() {
        let m = d.read_lock::<Map>().ok_or("a map that is in use")?;
        return map_within(&m, left, &[]);
    }
    Err(format!(
        "a value of type `{}` cannot be kept in the game (only (), true/false, integers, text, and lists and maps of them)",
        d.type_name()
    )
    .into())
}

/// A map as data, its text taken from `left` (each key's before its
/// value), with the fields `instead` names left out (None) or holding the
/// text given.
pub(crate) fn map_within(
    m: &Map,
    left: &mut usize,
    instead: &[(&str, Option<&Arc<str>>)],
) -> Fallible<Value> {
    // Rhai's maps iterate in name order: the order `Value::Map` keeps.
    let fields = m.iter().map(|(k, v)| (k.as_str(), None, v));
    fields_within(fields, left, instead, within)
}

/// `map_within` over any map's fields (in name order), each value made
/// data by `value`: Rhai's maps here, the typed VM's in its ask
/// (tier/vm/ask_data.rs). A key comes with its shared text where the
/// caller keeps one, else it is interned here.
pub(crate) fn fields_within<'a, T: 'a>(
    fields: impl ExactSizeIterator<Item = (&'a str, Option<Arc<str>>, &'a T)>,
    left: &mut usize,
    instead: &[(&str, Option<&Arc<str>>)],
    mut value: impl FnMut(&T, &mut usize) -> Fallible<Value>,
) -> Fallible<Value> {
    let mut out = Vec::with_capacity(fields.len());
    for (k, shared, v) in fields {
        let given = instead.iter().find(|(name, _)| *name == k);
        if let Some((_, None)) = given {
            continue;
        }
        take(left, k.len())?;
        let v = match given {
            Some((_, Some(t))) => {
                take(left, t.len())?;
                Value::Text(Arc::clone(t))
            }
            _ => value(v, left)?,
        };
        let k = shared.unwrap_or_else(|| interned::text(k));
        out.push((k, v));
    }
    Ok(Value::Map(out.into()))
}

/// Data back as a script value.
pub(crate) fn to_dynamic(v: &Value) -> Dynamic {
    match v {
        Value::Unit => Dynamic::UNIT,
        Value::Bool(b) => (*b).into(),
        Value::Int(i) => (*i).into(),
        Value::Text(t) => interned::script_text(t).into(),
        Value::List(items) => items.iter().map(to_dynamic).collect::<Array>().into(),
        Value::Map(fields) => fields
            .iter()
            .map(|(k, v)| (k.as_ref().into(), to_dynamic(v)))
            .collect::<Map>()
            .into(),
    }
}

/// A choice as the script sees it: a card's id or a word as text, a number
/// or structured option as its value.
/// A hook call's arguments as Rhai values: a decision's choices are a
/// map decider -> choice, and what its ask handed on comes second, if
/// anything.
pub(crate) fn hook_args(keys: &Keys, args: &crate::core::Args) -> Vec<Dynamic> {
    use crate::core::Args;
    match *args {
        Args::None => vec![],
        Args::Face(f) => vec![ImmutableString::from(f).into()],
        Args::Number(n) => vec![n.into()],
        Args::Choices(players, chosen, data) => {
            let mut map = Map::new();
            for (p, c) in players.iter().zip(chosen.iter().flatten()) {
                let v = choice_dynamic(keys, c);
                map.insert(keys.players[*p].clone().into(), v);
            }
            if *data == Value::Unit {
                vec![map.into()]
            } else {
                vec![map.into(), to_dynamic(data)]
            }
        }
    }
}

pub(crate) fn choice_dynamic(keys: &Keys, c: &Choice) -> Dynamic {
    match c {
        Choice::Card(ix) => keys.cards[*ix as usize].clone().into(),
        Choice::Word(w) => interned::script_text(w).into(),
        Choice::Data(d) => to_dynamic(&d.value),
    }
}
