//! A hook call's memo key: the hook and its arguments (each decider's
//! choice, what the ask handed on, a rolled face), borrowed from the call
//! on the replay path, owned where a root keeps it, and hashed with the
//! data a root holds hashed once.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHasher};

use crate::core::{Args, Choice, Datum, Value};
use crate::definition::CardIx;

/// A part of a hook call's memo key, borrowed from the call: no allocation
/// on the replay path.
enum Part<'a> {
    Card(CardIx),
    Word(&'a str),
    Data(&'a Arc<Datum>),
    /// What an ask handed on to its continuation.
    Value(&'a Value),
}

impl Hash for Part<'_> {
    #[inline(always)]
    fn hash<H: Hasher>(&self, h: &mut H) {
        match self {
            Part::Card(c) => {
                h.write_u8(0);
                c.hash(h);
            }
            Part::Word(w) => {
                h.write_u8(1);
                w.hash(h);
            }
            Part::Data(_) | Part::Value(_) => self.hash_data(h),
        }
    }
}

impl Part<'_> {
    #[inline(never)]
    fn hash_data<H: Hasher>(&self, h: &mut H) {
        match self {
            Part::Data(d) => {
                h.write_u8(2);
                d.hash(h);
            }
            Part::Value(v) => {
                h.write_u8(3);
                v.hash(h);
            }
            _ => {}
        }
    }
}

/// A key part as stored with a root.
#[derive(PartialEq)]
pub(super) enum Owned {
    Choice(Choice),
    Value(Value),
}

impl Part<'_> {
    fn of(c: &Choice) -> Part<'_> {
        match c {
            Choice::Card(c) => Part::Card(*c),
            Choice::Word(w) => Part::Word(w),
            Choice::Data(d) => Part::Data(d),
        }
    }
    fn owned(&self) -> Owned {
        match self {
            Part::Card(c) => Owned::Choice(Choice::Card(*c)),
            Part::Word(w) => Owned::Choice(Choice::Word((*w).into())),
            // The call's own Arc, not a copy of the datum.
            Part::Data(d) => Owned::Choice(Choice::Data(Arc::clone(d))),
            Part::Value(v) => Owned::Value((*v).clone()),
        }
    }
    /// Cards and words (every replay) inline; data out of line.
    #[inline(always)]
    fn is(&self, o: &Owned) -> bool {
        match (self, o) {
            (Part::Card(a), Owned::Choice(Choice::Card(b))) => a == b,
            (Part::Word(a), Owned::Choice(Choice::Word(b))) => *a == &**b,
            (Part::Data(_) | Part::Value(_), _) => self.is_data(o),
            _ => false,
        }
    }
    #[inline(never)]
    fn is_data(&self, o: &Owned) -> bool {
        match (self, o) {
            // A replay hands on the data it recorded: mostly the same place.
            (Part::Data(a), Owned::Choice(Choice::Data(b))) => Arc::ptr_eq(a, b) || ***a == **b,
            (Part::Value(a), Owned::Value(b)) => same_place(a, b) || *a == b,
            _ => false,
        }
    }
}

/// Whether two values are one list or map, where they lie.
fn same_place(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::List(x), Value::List(y)) => Arc::ptr_eq(x, y),
        (Value::Map(x), Value::Map(y)) => Arc::ptr_eq(x, y),
        _ => false,
    }
}

/// The arguments of a hook call as memo key parts: each decider (as a
/// reserved card index) then their choice, then what the ask handed on; or
/// a rolled face. `visit` sees them in order, without building a list.
#[inline(always)]
fn each_part(args: &Args, mut visit: impl FnMut(Part) -> bool) -> bool {
    match args {
        Args::None => true,
        Args::Face(f) => visit(Part::Word(f)),
        Args::Number(n) => visit(Part::Value(&Value::Int(*n))),
        Args::Choices(players, chosen, data) => {
            for (p, c) in players.iter().zip(chosen.iter()) {
                if !visit(Part::Card(CardIx::MAX - *p as CardIx)) {
                    return false;
                }
                if let Some(c) = c
                    && !visit(Part::of(c))
                {
                    return false;
                }
            }
            matches!(**data, Value::Unit) || visit(Part::Value(data))
        }
    }
}

pub(super) fn key_parts(args: &Args) -> Vec<Owned> {
    let mut out = Vec::new();
    each_part(args, |c| {
        out.push(c.owned());
        true
    });
    out
}

/// Whether `stored` are the parts of `args` (written out rather than
/// through `each_part`: this runs on every replay).
#[inline]
pub(super) fn same_key(stored: &[Owned], args: &Args) -> bool {
    match args {
        Args::None => stored.is_empty(),
        Args::Face(f) => matches!(stored, [s] if Part::Word(f).is(s)),
        Args::Number(n) => matches!(stored, [s] if Part::Value(&Value::Int(*n)).is(s)),
        Args::Choices(players, chosen, data) => {
            let mut it = stored.iter();
            for (p, c) in players.iter().zip(chosen.iter()) {
                if !it
                    .next()
                    .is_some_and(|s| Part::Card(CardIx::MAX - *p as CardIx).is(s))
                {
                    return false;
                }
                if let Some(c) = c
                    && !it.next().is_some_and(|s| Part::of(c).is(s))
                {
                    return false;
                }
            }
            if !matches!(**data, Value::Unit) && !it.next().is_some_and(|s| Part::Value(data).is(s))
            {
                return false;
            }
            it.next().is_none()
        }
    }
}

/// The hash of a hook call's key (the parts `each_part` visits), data
/// hashed once per value (`Hashes`).
#[inline]
pub(super) fn key_hash(hook: &str, args: &Args, hashes: &Hashes) -> u64 {
    let mut h = FxHasher::default();
    hook.hash(&mut h);
    match args {
        Args::None => {}
        Args::Face(f) => Part::Word(f).hash(&mut h),
        Args::Number(n) => Part::Value(&Value::Int(*n)).hash(&mut h),
        Args::Choices(players, chosen, data) => {
            for (p, c) in players.iter().zip(chosen.iter()) {
                Part::Card(CardIx::MAX - *p as CardIx).hash(&mut h);
                match c {
                    Some(Choice::Data(d)) => {
                        h.write_u8(2);
                        h.write_u64(hashes.datum(d));
                    }
                    Some(c) => Part::of(c).hash(&mut h),
                    None => {}
                }
            }
            if !matches!(*data, Value::Unit) {
                h.write_u8(3);
                h.write_u64(hashes.value(data));
            }
        }
    }
    h.finish()
}

/// The hashes of the data that roots' keys hold, by where the data lies:
/// a replayed ask hands on the very options and data it recorded (the
/// Arcs a root's key holds), so hashing them deep on every call was a
/// tenth of The Path's time. An entry is made only for data a root keeps,
/// so its address cannot be taken by other data while the entry stands
/// (roots live as long as the trie); other data is hashed where it is.
#[derive(Default)]
pub(super) struct Hashes {
    by_place: FxHashMap<usize, u64>,
}

fn deep_hash(v: &impl Hash) -> u64 {
    let mut h = FxHasher::default();
    v.hash(&mut h);
    h.finish()
}

/// Where a list or a map lies (small values and text have no place kept).
fn place(v: &Value) -> Option<usize> {
    match v {
        Value::List(l) => Some(Arc::as_ptr(l) as *const Value as usize),
        Value::Map(m) => Some(Arc::as_ptr(m) as *const (Arc<str>, Value) as usize),
        _ => None,
    }
}

impl Hashes {
    fn datum(&self, d: &Arc<Datum>) -> u64 {
        match self.by_place.get(&(Arc::as_ptr(d) as usize)) {
            Some(h) => *h,
            None => deep_hash(&**d),
        }
    }

    fn value(&self, v: &Value) -> u64 {
        match place(v).and_then(|at| self.by_place.get(&at)) {
            Some(h) => *h,
            None => deep_hash(v),
        }
    }

    /// The data of a new root's key, which the root keeps alive.
    pub(super) fn note(&mut self, parts: &[Owned]) {
        for p in parts {
            match p {
                Owned::Choice(Choice::Data(d)) => {
                    self.by_place
                        .insert(Arc::as_ptr(d) as usize, deep_hash(&**d));
                }
                Owned::Value(v) => {
                    if let Some(at) = place(v) {
                        self.by_place.insert(at, deep_hash(v));
                    }
                }
                Owned::Choice(_) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn equal_data_at_other_places_hash_alike() {
        use super::{Args, Choice, Datum, Hashes, Value, key_hash, key_parts};
        use std::sync::Arc;
        let data = || {
            Value::Map(Arc::from(vec![(
                Arc::<str>::from("k"),
                Value::List(Arc::from(vec![Value::Int(3), Value::Text("x".into())])),
            )]))
        };
        let datum = || {
            Arc::new(Datum {
                text: "take 3".into(),
                value: data(),
            })
        };
        let (a, b) = ((datum(), data()), (datum(), data()));
        assert!(!Arc::ptr_eq(&a.0, &b.0), "two places");
        let key = |d: &(Arc<Datum>, Value), hashes: &Hashes| {
            let chosen = [Some(Choice::Data(d.0.clone()))];
            let args = Args::Choices(&[0], &chosen, &d.1);
            (key_hash("act", &args, hashes), key_parts(&args))
        };
        let mut hashes = Hashes::default();
        // Hashed deep, then noted as a new root's key is (the root keeps
        // the parts; here the test does).
        let (first, parts) = key(&a, &hashes);
        hashes.note(&parts);
        assert_eq!(hashes.by_place.len(), 2, "the datum and the data");
        // Again from the table; the same content elsewhere, deep.
        assert_eq!(key(&a, &hashes).0, first);
        assert_eq!(key(&b, &hashes).0, first);
        assert_eq!(key(&b, &Hashes::default()).0, first);
        let other = (datum(), Value::Int(1));
        assert_ne!(key(&other, &hashes).0, first);
        drop(parts);
    }
}
