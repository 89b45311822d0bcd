//! The VM's values: numbers, truth values and symbols unboxed, lists of
//! them as vectors, and anything else as Rhai's own `Dynamic`.

use rhai::{Array, Dynamic, ImmutableString, Map};

use super::syms::Syms;

#[derive(Clone, Debug, Default)]
pub(crate) enum V {
    #[default]
    Unit,
    Bool(bool),
    Int(i64),
    /// A text of the symbol table (syms.rs).
    Sym(u32),
    /// A list the VM made (a Rhai array when it leaves).
    List(Vec<V>),
    /// A map whose keys are symbols, in the order of their texts (as
    /// Rhai orders a map's keys): a map literal of the script, a hook's
    /// choices (a Rhai map when it leaves).
    Map(Vec<(u32, V)>),
    /// Anything else: text that is no symbol, maps, ranges, closures.
    Dyn(Dynamic),
}

fn add(acc: &mut super::super::builtins::Sizes, s: super::super::builtins::Sizes) {
    acc.0 += s.0;
    acc.1 += s.1;
    acc.2 += s.2;
}

/// A map's sizes added to `acc`, as `sizes_of` counts a map: its values,
/// not its keys.
#[inline(always)]
fn map_sizes(acc: &mut super::super::builtins::Sizes, m: &[(u32, V)], syms: &Syms) {
    acc.1 += m.len();
    for (_, x) in m {
        match x {
            V::Unit | V::Bool(_) | V::Int(_) => {}
            V::Sym(s) => acc.2 += syms.len(*s),
            V::Dyn(d) if d.is_blob() => {
                // Rhai counts a blob in a map as one array item more.
                acc.0 += 1;
                add(acc, x.sizes(syms));
            }
            V::Dyn(d) if d.is_string() => acc.2 += super::super::builtins::text_len(d),
            _ => add(acc, x.sizes(syms)),
        }
    }
}

/// A list item's sizes added to `acc`, as `sizes` counts them in a list
/// (the item itself apart).
#[inline(always)]
fn item_sizes(acc: &mut super::super::builtins::Sizes, x: &V, syms: &Syms) {
    match x {
        V::Unit | V::Bool(_) | V::Int(_) => {}
        V::Sym(s) => acc.2 += syms.len(*s),
        V::Map(m) => map_sizes(acc, m, syms),
        V::Dyn(d) if d.is_string() => acc.2 += super::super::builtins::text_len(d),
        _ => add(acc, x.sizes(syms)),
    }
}

/// A list's sizes, as `sizes_of` counts an array.
pub(super) fn list_sizes(l: &[V], syms: &Syms) -> super::super::builtins::Sizes {
    let mut acc = (l.len(), 0, 0);
    for x in l {
        item_sizes(&mut acc, x, syms);
    }
    acc
}

/// A list's sizes once `x` is pushed on it, from its sizes `before`.
pub(super) fn pushed_sizes(
    before: super::super::builtins::Sizes,
    x: &V,
    syms: &Syms,
) -> super::super::builtins::Sizes {
    let mut acc = (before.0 + 1, before.1, before.2);
    item_sizes(&mut acc, x, syms);
    acc
}

/// Whether nothing in a Rhai value is shared (a closure's captured
/// variable, which can change where this value is not reached).
fn dyn_unshared(d: &Dynamic) -> bool {
    if d.is_shared() {
        return false;
    }
    if let Some(a) = d.read_lock::<Array>() {
        return a.iter().all(dyn_unshared);
    }
    if let Some(m) = d.read_lock::<Map>() {
        return m.values().all(dyn_unshared);
    }
    true
}

impl V {
    /// Whether its sizes stay as counted while nothing reaches it: none
    /// of it is shared with Rhai (`dyn_unshared`).
    pub fn unshared(&self) -> bool {
        match self {
            V::List(l) => l.iter().all(V::unshared),
            V::Map(m) => m.iter().all(|(_, x)| x.unshared()),
            V::Dyn(d) => dyn_unshared(d),
            _ => true,
        }
    }

    /// Whether it owns nothing (a number, a truth value, a symbol, `()`).
    #[inline(always)]
    pub fn is_plain(&self) -> bool {
        matches!(self, V::Unit | V::Bool(_) | V::Int(_) | V::Sym(_))
    }

    /// A copy, the plain values copied inline (`clone` is otherwise a
    /// call, whatever the value holds).
    #[inline(always)]
    pub fn copy(&self) -> V {
        match self {
            V::Unit => V::Unit,
            V::Bool(b) => V::Bool(*b),
            V::Int(i) => V::Int(*i),
            V::Sym(s) => V::Sym(*s),
            _ => self.clone(),
        }
    }

    /// A Rhai value as the VM holds it: a text that is a symbol becomes
    /// it (so every text that could be a symbol is one, and a symbol
    /// never equals a text held as `Dyn`).
    pub fn of(d: Dynamic, syms: &Syms) -> V {
        if d.is_int() {
            return d.as_int().map_or(V::Unit, V::Int);
        }
        if d.is_bool() {
            return d.as_bool().map_or(V::Unit, V::Bool);
        }
        if d.is_unit() {
            return V::Unit;
        }
        if d.is_string()
            && let Some(s) = d.read_lock::<ImmutableString>().and_then(|t| syms.find(&t))
        {
            return V::Sym(s);
        }
        if d.is_shared() {
            return V::of(d.flatten(), syms);
        }
        V::Dyn(d)
    }

    /// The value within Rhai's limits on data (as `builtins::limit` checks
    /// `sizes`), a list of plain values known so from its length alone.
    #[inline]
    pub fn limit(&self, syms: &Syms, pos: rhai::Position) -> Result<(), Box<rhai::EvalAltResult>> {
        use crate::hooks::script::{MAX_ARRAY, MAX_STRING};
        if let V::List(l) = self
            && l.len() <= MAX_ARRAY
            && l.len().saturating_mul(syms.longest) <= MAX_STRING
            && l.iter().all(V::is_plain)
        {
            return Ok(());
        }
        super::super::builtins::limit(self.sizes(syms), pos)
    }

    /// The sizes Rhai's limits count in the value (`sizes_of`).
    /// (Plain items, and a map's plain fields, are counted inline: a list
    /// is checked again after each `push`, so this runs over whole lists
    /// of maps often.)
    pub fn sizes(&self, syms: &Syms) -> super::super::builtins::Sizes {
        match self {
            V::Sym(s) => (0, 0, syms.len(*s)),
            V::List(l) => list_sizes(l, syms),
            V::Map(m) => {
                let mut acc = (0, 0, 0);
                map_sizes(&mut acc, m, syms);
                acc
            }
            V::Dyn(d) => super::super::builtins::sizes_of(d),
            _ => (0, 0, 0),
        }
    }

    /// As Rhai holds it, where the value leaves the VM.
    pub fn into_dynamic(self, syms: &Syms) -> Dynamic {
        match self {
            V::Unit => Dynamic::UNIT,
            V::Bool(b) => Dynamic::from_bool(b),
            V::Int(i) => Dynamic::from_int(i),
            V::Sym(s) => Dynamic::from(syms.text(s).clone()),
            V::List(l) => Dynamic::from_array(
                l.into_iter()
                    .map(|v| v.into_dynamic(syms))
                    .collect::<Array>(),
            ),
            V::Map(m) => Dynamic::from_map(
                m.into_iter()
                    .map(|(k, v)| (syms.text(k).as_str().into(), v.into_dynamic(syms)))
                    .collect::<Map>(),
            ),
            V::Dyn(d) => d,
        }
    }
}

/// A symbol-keyed map's value at `key`, if it has one.
pub(crate) fn map_get(m: &[(u32, V)], key: u32) -> Option<&V> {
    m.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
}

/// Put `key` -> `v` in a symbol-keyed map, kept in the order of the keys'
/// texts.
pub(crate) fn map_put(m: &mut Vec<(u32, V)>, key: u32, v: V, syms: &Syms) {
    if let Some(place) = m.iter_mut().find(|(k, _)| *k == key) {
        place.1 = v;
        return;
    }
    let text = syms.text(key).as_str();
    let at = m.partition_point(|(k, _)| syms.text(*k).as_str() < text);
    m.insert(at, (key, v));
}
