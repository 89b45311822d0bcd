//! What a `for` runs over in native code (emit.rs `for_range`): a range
//! of numbers, or a constant list of plain values read from a table.

use super::super::ir::*;
use super::super::value::V;
use super::types::Ty;
use crate::hooks::script::tier::tree::Bin;

/// A range's end: an expression, or a number where the range is a
/// constant (Rhai folds `0..3`).
pub(crate) enum End<'x> {
    X(&'x X),
    N(i64),
}

/// A `for`'s constant list whose items are all plain values of one type
/// (`()` among the symbols): that type, and the items as registers hold
/// them.
pub(crate) fn const_items(x: &X) -> Option<(Ty, Vec<i64>)> {
    let XKind::Const(V::List(items)) = &x.kind else {
        return None;
    };
    let of = |v: &V| match v {
        V::Int(n) => Some((Ty::Int, *n)),
        V::Bool(b) => Some((Ty::Bool, i64::from(*b))),
        V::Sym(s) => Some((Ty::Sym, i64::from(*s))),
        V::Unit => Some((Ty::Sym, super::emit::UNIT)),
        _ => None,
    };
    let mut t = None;
    let mut raw = Vec::with_capacity(items.len());
    for v in items {
        let (ty, r) = of(v)?;
        if t.is_some_and(|t| t != ty) {
            return None;
        }
        t = Some(ty);
        raw.push(r);
    }
    Some((t.unwrap_or(Ty::Int), raw))
}

/// `a..b` or `a..=b` (whether inclusive, and its ends).
pub(crate) fn range(x: &X) -> Option<(bool, End<'_>, End<'_>)> {
    match &x.kind {
        XKind::Binary(b) | XKind::Simple(b) => match b.0 {
            Bin::Range => Some((false, End::X(&b.1), End::X(&b.2))),
            Bin::RangeInclusive => Some((true, End::X(&b.1), End::X(&b.2))),
            _ => None,
        },
        XKind::Const(V::Dyn(d)) => {
            if let Some(r) = d.read_lock::<std::ops::Range<i64>>() {
                return Some((false, End::N(r.start), End::N(r.end)));
            }
            let r = d.read_lock::<std::ops::RangeInclusive<i64>>()?;
            Some((true, End::N(*r.start()), End::N(*r.end())))
        }
        _ => None,
    }
}
