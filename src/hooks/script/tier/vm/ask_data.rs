//! The typed `ask`'s options when some are maps with a `text` (structured
//! options, `Choice::Data`): each made the choice the Rhai form
//! (`flow::option`) makes of it, from the VM's values and through the same
//! functions (`fill`, `typeable`, `fields_within`, `to_value`), without
//! making a Rhai map of it first. Anything the Rhai form would refuse
//! (no text or one not a string, a label, two options reading alike, a
//! value the game cannot keep, more text than a decision keeps) gives
//! None: the Rhai form then runs and says what is wrong in its words.

use std::fmt::Write as _;
use std::sync::Arc;

use rhai::ImmutableString;

use crate::core::{Choice, Choices, Datum, Value};
use crate::hooks::script::api::flow::{fill, number, typeable};
use crate::hooks::script::value::{MAX_KEPT_BYTES, fields_within, take, text_bytes, to_value};
use crate::hooks::script::{Fallible, interned};

use super::syms::Syms;
use super::value::V;

/// The choices of a list with maps, each option as the Rhai form makes
/// it, or None where that form would refuse the list.
pub(super) fn choices(syms: &Syms, name: &str, opts: &[V]) -> Option<Choices> {
    // What the ask keeps is held to one budget (`kept_size`, then what
    // each option takes of it).
    let mut size = 0;
    let mut left = MAX_KEPT_BYTES;
    let mut made = Vec::with_capacity(opts.len());
    for o in opts {
        size += bytes(syms, o);
        made.push(match o {
            V::Int(i) => Choice::Data(number(*i)),
            V::Sym(s) => syms.choice(*s)?.clone(),
            V::Map(m) => map_option(syms, name, m, &mut left)?,
            _ => return None,
        });
    }
    if size > MAX_KEPT_BYTES {
        return None;
    }
    // No two structured options (numbers and maps) read alike.
    let mut texts: Vec<&str> = (made.iter())
        .filter_map(|c| match c {
            Choice::Data(d) => Some(&*d.text),
            _ => None,
        })
        .collect();
    texts.sort_unstable();
    if texts.windows(2).any(|w| w[0] == w[1]) {
        return None;
    }
    Some(made.into())
}

/// A map option as a choice: its text filled in, its fields but the
/// label as data (a label, the Rhai form's to read).
fn map_option(syms: &Syms, name: &str, m: &[(u32, V)], left: &mut usize) -> Option<Choice> {
    if let Some(l) = syms.key_label
        && m.iter().any(|(k, _)| *k == l)
    {
        return None;
    }
    let t = super::value::map_get(m, syms.key_text?)?;
    let lock;
    let template: &str = match t {
        V::Sym(s) => syms.text(*s),
        V::Dyn(d) => {
            lock = d.read_lock::<ImmutableString>()?;
            &lock
        }
        _ => return None,
    };
    let text = if template.contains('{') {
        let filled = fill(name, template, |field, out| field_text(syms, m, field, out)).ok()?;
        typeable(name, &filled).ok()?;
        interned::text(&filled)
    } else {
        typeable(name, template).ok()?;
        match t {
            V::Sym(s) => syms.shared(*s),
            _ => interned::text(template),
        }
    };
    let fields = (m.iter()).map(|(k, v)| (syms.text(*k).as_str(), Some(syms.shared(*k)), v));
    let instead = [("label", None), ("text", Some(&text))];
    let value = fields_within(fields, left, &instead, |v, left| value(syms, v, left)).ok()?;
    Some(Choice::Data(Arc::new(Datum { text, value })))
}

/// Field `field` of `m` written into an option's text as the Rhai form
/// writes it (a text as it is, anything else as it prints); false if `m`
/// has no such field.
fn field_text(syms: &Syms, m: &[(u32, V)], field: &str, out: &mut String) -> bool {
    let Some((_, v)) = m.iter().find(|(k, _)| syms.text(*k).as_str() == field) else {
        return false;
    };
    match v {
        V::Sym(s) => out.push_str(syms.text(*s)),
        V::Int(i) => out.push_str(itoa::Buffer::new().format(*i)),
        V::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        V::Dyn(d) => match d.read_lock::<ImmutableString>() {
            Some(s) => out.push_str(&s),
            None => {
                let _ = write!(out, "{d}");
            }
        },
        // As the value prints: `write!` fails only if `fmt` does.
        V::Unit | V::List(_) | V::Map(_) => {
            let _ = write!(out, "{}", v.clone().into_dynamic(syms));
        }
    }
    true
}

/// A field's value as data, as `value::to_value` makes its Rhai form.
fn value(syms: &Syms, v: &V, left: &mut usize) -> Fallible<Value> {
    Ok(match v {
        V::Unit => Value::Unit,
        V::Bool(b) => Value::Bool(*b),
        V::Int(i) => Value::Int(*i),
        V::Sym(s) => {
            take(left, syms.len(*s))?;
            Value::Text(syms.shared(*s))
        }
        V::List(l) => {
            let items: Fallible<Vec<Value>> = l.iter().map(|x| value(syms, x, left)).collect();
            Value::List(items?.into())
        }
        V::Map(m) => {
            let fields =
                (m.iter()).map(|(k, x)| (syms.text(*k).as_str(), Some(syms.shared(*k)), x));
            fields_within(fields, left, &[], |x, left| value(syms, x, left))?
        }
        V::Dyn(d) => to_value(d, left)?,
    })
}

/// The text an option holds, map keys included, as `value::text_bytes`
/// counts its Rhai form.
fn bytes(syms: &Syms, v: &V) -> usize {
    match v {
        V::Sym(s) => syms.len(*s),
        V::List(l) => l.iter().map(|x| bytes(syms, x)).sum(),
        // A field's plain value and text counted inline (most fields are).
        V::Map(m) => (m.iter())
            .map(|(k, x)| {
                syms.len(*k)
                    + match x {
                        V::Unit | V::Bool(_) | V::Int(_) => 0,
                        V::Sym(s) => syms.len(*s),
                        V::Dyn(d) if d.is_string() => super::super::builtins::text_len(d),
                        _ => bytes(syms, x),
                    }
            })
            .sum(),
        V::Dyn(d) => text_bytes(d),
        V::Unit | V::Bool(_) | V::Int(_) => 0,
    }
}
