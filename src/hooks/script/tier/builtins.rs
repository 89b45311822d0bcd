//! Rhai's built-in operators and the methods designers call most, with
//! Rhai's meaning (its checks, its errors) and without its dispatch. Each
//! gives None where Rhai would decide by types the tier leaves to it.

use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString, Map, Position};

use super::tree::Bin;

type Error = Box<EvalAltResult>;

/// The integer `v` holds, if it holds one: `as_int` without its error,
/// whose type name costs more than the test where most values are not
/// integers (text compared with `()`, options of names).
#[inline(always)]
pub(crate) fn int_of(v: &Dynamic) -> Option<i64> {
    if v.is_int() { v.as_int().ok() } else { None }
}

/// The truth value `v` holds, if it holds one (as `int_of`).
#[inline(always)]
pub(super) fn bool_of(v: &Dynamic) -> Option<bool> {
    if v.is_bool() { v.as_bool().ok() } else { None }
}

/// The methods designers call most, Rhai's meaning without its dispatch:
/// `len`, `is_empty`, `push`, `shift`, `keys`, `values`, `contains` of a
/// number or text. None: Rhai decides.
pub(super) fn method_fast(
    name: &str,
    this: &mut Dynamic,
    args: &[Dynamic],
    pos: Position,
) -> Option<Result<Dynamic, Error>> {
    match (name, args) {
        ("len", []) => {
            if let Some(a) = this.read_lock::<Array>() {
                return Some(Ok(Dynamic::from_int(a.len() as i64)));
            }
            if let Some(m) = this.read_lock::<Map>() {
                return Some(Ok(Dynamic::from_int(m.len() as i64)));
            }
            None
        }
        ("is_empty", []) => {
            if let Some(a) = this.read_lock::<Array>() {
                return Some(Ok(a.is_empty().into()));
            }
            if let Some(m) = this.read_lock::<Map>() {
                return Some(Ok(m.is_empty().into()));
            }
            None
        }
        ("keys", []) => {
            let m = this.read_lock::<Map>()?;
            let keys: Array = m
                .keys()
                .map(|k| Dynamic::from(ImmutableString::from(k.as_str())))
                .collect();
            Some(Ok(Dynamic::from_array(keys)))
        }
        ("values", []) => {
            let m = this.read_lock::<Map>()?;
            Some(Ok(Dynamic::from_array(m.values().cloned().collect())))
        }
        ("contains", [x]) if x.is_int() || x.is_string() => {
            let a = this.read_lock::<Array>()?;
            // Rhai compares with `==`; an item of another type is unequal
            // only where no `==` joins the two: leave mixed lists to Rhai.
            let same = a.iter().all(|v| v.type_id() == x.type_id());
            if !same {
                return None;
            }
            let found = if let Some(i) = int_of(x) {
                a.iter().any(|v| int_of(v) == Some(i))
            } else {
                let s = x.read_lock::<ImmutableString>()?;
                a.iter()
                    .any(|v| v.read_lock::<ImmutableString>().is_some_and(|t| *t == *s))
            };
            Some(Ok(found.into()))
        }
        // Rhai's `shift`: the first item, or () from an empty list (a
        // list only shrinks, so no limit is passed).
        ("shift", []) => {
            let mut a = this.write_lock::<Array>()?;
            Some(Ok(if a.is_empty() {
                Dynamic::UNIT
            } else {
                a.remove(0)
            }))
        }
        ("push", [x]) => push(this, x, None, pos).map(|r| r.map(|_| Dynamic::UNIT)),
        _ => None,
    }
}

/// `target[k]` for a list by number and a map by text (Rhai's meaning:
/// a negative number counts from the end, a missing key is `()`); None
/// for what Rhai decides.
pub(super) fn index_fast(
    target: &Dynamic,
    k: &Dynamic,
    pos: Position,
) -> Option<Result<Dynamic, Error>> {
    if let (Some(a), Some(i)) = (target.read_lock::<Array>(), int_of(k)) {
        let len = a.len() as i64;
        let at = if i < 0 { len + i } else { i };
        if at < 0 || at >= len {
            return Some(Err(EvalAltResult::ErrorArrayBounds(a.len(), i, pos).into()));
        }
        return Some(Ok(a[at as usize].clone()));
    }
    if let (Some(m), Some(key)) = (target.read_lock::<Map>(), k.read_lock::<ImmutableString>()) {
        return Some(Ok(m.get(key.as_str()).cloned().unwrap_or_default()));
    }
    None
}

/// Rhai's limits on a value's sizes (`sizes_of`): its error at `pos`.
#[inline]
pub(super) fn limit(sizes: (usize, usize, usize), pos: Position) -> Result<(), Error> {
    let (a, m, s) = sizes;
    if s <= crate::hooks::script::MAX_STRING
        && a <= crate::hooks::script::MAX_ARRAY
        && m <= crate::hooks::script::MAX_MAP
    {
        return Ok(());
    }
    too_large(sizes, pos)
}

#[cold]
fn too_large(sizes: (usize, usize, usize), pos: Position) -> Result<(), Error> {
    let (a, m, s) = sizes;
    let what = if s > crate::hooks::script::MAX_STRING {
        "Length of string"
    } else if a > crate::hooks::script::MAX_ARRAY {
        "Size of array/BLOB"
    } else if m > crate::hooks::script::MAX_MAP {
        "Size of object map"
    } else {
        return Ok(());
    };
    Err(EvalAltResult::ErrorDataTooLarge(what.into(), pos).into())
}

/// Array items (and blob bytes), map entries and string bytes: what
/// Rhai's limits count in a value.
pub(crate) type Sizes = (usize, usize, usize);

/// `list.push(x)` on a list, checked as Rhai checks it: the sizes of the
/// whole list after. Where the caller knows the list's sizes `before`
/// (its last change was a push it counted), those plus the item's are
/// the same figure without counting the list again, which made a loop of
/// pushes quadratic. None where `this` is not a list: Rhai decides.
pub(super) fn push(
    this: &mut Dynamic,
    x: &Dynamic,
    before: Option<Sizes>,
    pos: Position,
) -> Option<Result<Sizes, Error>> {
    let mut a = this.write_lock::<Array>()?;
    a.push(x.clone());
    drop(a);
    let sizes = match before {
        Some(b) => {
            let s = sizes_of(x);
            (b.0 + 1 + s.0, b.1 + s.1, b.2 + s.2)
        }
        None => sizes_of(this),
    };
    Some(limit(sizes, pos).map(|()| sizes))
}

/// A text's length, as `sizes_of` counts it (inline: the VM sizes a
/// list of maps again after each `push`, and their texts are most of it).
#[inline(always)]
pub(super) fn text_len(d: &Dynamic) -> usize {
    d.read_lock::<ImmutableString>().map_or(0, |s| s.len())
}

/// The sizes Rhai's limits count in a value (Rhai's `calc_data_sizes`).
pub(crate) fn sizes_of(v: &Dynamic) -> Sizes {
    if v.is_string() {
        return (0, 0, text_len(v));
    }
    if let Some(a) = v.read_lock::<Array>() {
        return a.iter().fold((0, 0, 0), |acc, x| {
            let s = sizes_of(x);
            (acc.0 + 1 + s.0, acc.1 + s.1, acc.2 + s.2)
        });
    }
    if let Some(m) = v.read_lock::<Map>() {
        return m.values().fold((0, 0, 0), |acc, x| {
            let s = sizes_of(x);
            // Rhai counts a blob in a map as one array item more.
            let blob = usize::from(x.is_blob());
            (acc.0 + s.0 + blob, acc.1 + 1 + s.1, acc.2 + s.2)
        });
    }
    if v.is_blob() {
        return (v.read_lock::<rhai::Blob>().map_or(0, |b| b.len()), 0, 0);
    }
    (0, 0, 0)
}

fn arith(msg: String) -> Error {
    EvalAltResult::ErrorArithmetic(msg, Position::NONE).into()
}

/// Rhai's built-in integer operators (checked as Rhai checks them).
pub(super) fn int_op(op: Bin, x: i64, y: i64) -> Option<Result<Dynamic, Error>> {
    let r = match op {
        Bin::Add => x
            .checked_add(y)
            .ok_or_else(|| arith(format!("Addition overflow: {x} + {y}"))),
        Bin::Sub => x
            .checked_sub(y)
            .ok_or_else(|| arith(format!("Subtraction overflow: {x} - {y}"))),
        Bin::Mul => x
            .checked_mul(y)
            .ok_or_else(|| arith(format!("Multiplication overflow: {x} * {y}"))),
        Bin::Div if y == 0 => Err(arith(format!("Division by zero: {x} / {y}"))),
        Bin::Div => x
            .checked_div(y)
            .ok_or_else(|| arith(format!("Division overflow: {x} / {y}"))),
        Bin::Rem => x
            .checked_rem(y)
            .ok_or_else(|| arith(format!("Modulo division by zero or overflow: {x} % {y}"))),
        Bin::Eq => return Some(Ok((x == y).into())),
        Bin::Ne => return Some(Ok((x != y).into())),
        Bin::Lt => return Some(Ok((x < y).into())),
        Bin::Le => return Some(Ok((x <= y).into())),
        Bin::Gt => return Some(Ok((x > y).into())),
        Bin::Ge => return Some(Ok((x >= y).into())),
        Bin::Range => return Some(Ok(Dynamic::from(x..y))),
        Bin::RangeInclusive => return Some(Ok(Dynamic::from(x..=y))),
        Bin::Other => return None,
    };
    Some(r.map(Dynamic::from_int))
}

/// The fast paths of Rhai's built-in operators: integers, truth values
/// and text compared or joined. None: Rhai decides.
pub(super) fn fast_binary(
    engine: &Engine,
    op: Bin,
    a: &Dynamic,
    b: &Dynamic,
) -> Option<Result<Dynamic, Error>> {
    if let (Some(x), Some(y)) = (int_of(a), int_of(b)) {
        return int_op(op, x, y);
    }
    // `()` against anything: Rhai's built-in comparisons (equal only to
    // itself; never ordered).
    if a.is_unit() || b.is_unit() {
        let both = a.is_unit() && b.is_unit();
        return match op {
            Bin::Eq => Some(Ok(both.into())),
            Bin::Ne => Some(Ok((!both).into())),
            Bin::Lt | Bin::Le | Bin::Gt | Bin::Ge => Some(Ok(Dynamic::FALSE)),
            _ => None,
        };
    }
    if let (Some(x), Some(y)) = (bool_of(a), bool_of(b)) {
        return match op {
            Bin::Eq => Some(Ok((x == y).into())),
            Bin::Ne => Some(Ok((x != y).into())),
            _ => None,
        };
    }
    if a.is_string() && b.is_string() {
        let x = a.read_lock::<ImmutableString>()?;
        let y = b.read_lock::<ImmutableString>()?;
        return match op {
            Bin::Eq => Some(Ok((*x == *y).into())),
            Bin::Ne => Some(Ok((*x != *y).into())),
            Bin::Add => {
                if x.len() + y.len() > crate::hooks::script::MAX_STRING {
                    return Some(Err(EvalAltResult::ErrorDataTooLarge(
                        "Length of string".into(),
                        Position::NONE,
                    )
                    .into()));
                }
                let _ = engine;
                Some(Ok((x.clone() + y.clone()).into()))
            }
            _ => None,
        };
    }
    None
}
