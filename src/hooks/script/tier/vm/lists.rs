//! What Rhai's packages do to a list or a map (`+=`, `in` and `contains`,
//! `index_of`, `pop`, `shift`), done on the VM's own values so that a list
//! or a map of ids is never turned into Rhai's and back. Each gives None
//! where its values are not ones it decides alone (an item of another
//! type than the one looked for, a text that is no symbol, a value Rhai
//! holds): the operation then goes Rhai's way, as before.

use rhai::Position;

use super::run::Error;
use super::syms::Syms;
use super::value::{V, map_get};

/// Where Rhai's index `i` falls in a list of `len` items (a negative one
/// counts from the end), if it falls in it.
#[inline(always)]
pub(super) fn at(len: usize, i: i64) -> Option<usize> {
    let at = if i < 0 { i.wrapping_add(len as i64) } else { i };
    usize::try_from(at).ok().filter(|&a| a < len)
}

/// Whether `x` is `item` as Rhai's `==` says inside `contains` and
/// `index_of`, on a list whose items are all of `x`'s type (a list of
/// mixed types is left to Rhai, as the tree tier leaves it).
fn same(item: &V, x: &V) -> Option<bool> {
    match (item, x) {
        (V::Int(a), V::Int(b)) => Some(a == b),
        (V::Sym(a), V::Sym(b)) => Some(a == b),
        (V::Bool(a), V::Bool(b)) => Some(a == b),
        _ => None,
    }
}

/// The index of the first item of `list` that is `x` (Rhai's
/// `index_of`, -1 where none is), None where Rhai decides.
pub(super) fn index_of(list: &[V], x: &V) -> Option<i64> {
    let mut found = -1;
    for (i, item) in list.iter().enumerate() {
        if same(item, x)? && found < 0 {
            found = i as i64;
        }
    }
    Some(found)
}

/// `x in this` and `this.contains(x)`: an item of a list, a key of a map
/// of symbols.
pub(super) fn contains(this: &V, x: &V) -> Option<bool> {
    match (this, x) {
        (V::List(l), _) => index_of(l, x).map(|i| i >= 0),
        (V::Map(m), V::Sym(k)) => Some(map_get(m, *k).is_some()),
        _ => None,
    }
}

/// Whether `list += x` is `add_to`'s (not where `x` is a list Rhai
/// holds: Rhai appends it).
pub(super) fn adds(x: &V) -> bool {
    !matches!(x, V::Dyn(d) if d.is_array())
}

/// `list += x` as Rhai's built-in `+=` does it (func/builtin.rs): a
/// list's items appended, its limits checked before, on the list as it
/// was and only if it had items (so an append may take a list past them;
/// Rhai's next call on it says so); any other value pushed, the limits
/// checked after. An error at the operator.
pub(super) fn add_to(place: &mut V, x: V, syms: &Syms, pos: Position) -> Result<(), Error> {
    match x {
        V::List(items) if items.is_empty() => {}
        V::List(items) => {
            if matches!(place, V::List(l) if !l.is_empty()) {
                place.limit(syms, pos)?;
            }
            if let V::List(l) = place {
                l.extend(items);
            }
        }
        x => {
            if let V::List(l) = place {
                l.push(x);
            }
            place.limit(syms, pos)?;
        }
    }
    Ok(())
}

/// A list's own methods that take no closure: `pop`, `shift`, `contains`
/// and `index_of` (`len`, `is_empty` and `push` are run.rs's).
pub(super) fn method(list: &mut Vec<V>, name: &str, args: &[V]) -> Option<V> {
    Some(match (name, args) {
        // Rhai's `pop` and `shift`: the last (first) item, or () from an
        // empty list; a list only shrinks, so no limit is passed.
        ("pop", []) => list.pop().unwrap_or_default(),
        ("shift", []) if list.is_empty() => V::Unit,
        ("shift", []) => list.remove(0),
        ("contains", [x]) => V::Bool(index_of(list, x)? >= 0),
        ("index_of", [x]) if !matches!(x, V::Dyn(_)) => V::Int(index_of(list, x)?),
        _ => return None,
    })
}
