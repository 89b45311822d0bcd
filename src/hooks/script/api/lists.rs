//! Helpers on lists that designers reach for: sort by a key (stable), the
//! least or greatest by a key, and shuffle or pick with the game's RNG.

use std::cmp::Ordering;

use rhai::{Array, Dynamic, FnPtr, NativeCallContext};

use super::super::budget::charge;
use super::super::tier::natives::Api;
use super::super::{Fallible, with_ctx};

pub(super) fn register(engine: &mut Api) {
    // In place, stable: equal keys keep their order. A key is a number, a
    // text, true/false, or a list of those (compared in turn).
    engine.register_fn(
        "sort_by",
        |ctx: NativeCallContext, list: &mut Array, key: FnPtr| -> Fallible<()> {
            charge("sort_by", list.len(), "items it sorted")?;
            let keys = keys(&ctx, list, &key)?;
            let mut order: Vec<usize> = (0..list.len()).collect();
            let mut bad = None;
            order.sort_by(|&a, &b| {
                compare(&keys[a], &keys[b]).unwrap_or_else(|e| {
                    bad.get_or_insert(e);
                    Ordering::Equal
                })
            });
            if let Some(e) = bad {
                return Err(e.into());
            }
            let old = std::mem::take(list);
            let mut old: Vec<Option<Dynamic>> = old.into_iter().map(Some).collect();
            list.extend(order.into_iter().filter_map(|i| old[i].take()));
            Ok(())
        },
    );
    // The first element with the least (greatest) key; () for an empty list.
    engine.register_fn(
        "min_by",
        |ctx: NativeCallContext, list: Array, key: FnPtr| {
            charge("min_by", list.len(), "items it compared")?;
            extreme(&ctx, list, &key, Ordering::Less)
        },
    );
    engine.register_fn(
        "max_by",
        |ctx: NativeCallContext, list: Array, key: FnPtr| {
            charge("max_by", list.len(), "items it compared")?;
            extreme(&ctx, list, &key, Ordering::Greater)
        },
    );
    // With the game's RNG, so seed + moves reproduce a game.
    engine.register_fn("shuffle", |list: &mut Array| {
        charge("shuffle", list.len(), "items it shuffled")?;
        with_ctx(|cx| {
            for i in (1..list.len()).rev() {
                let j = cx.random_below(i as u64 + 1) as usize;
                list.swap(i, j);
            }
            Ok(())
        })
    });
    engine.register_fn("pick", |list: Array| {
        with_ctx(|cx| {
            if list.is_empty() {
                return Ok(Dynamic::UNIT);
            }
            let i = cx.random_below(list.len() as u64) as usize;
            Ok(list[i].clone())
        })
    });
}

fn keys(ctx: &NativeCallContext, list: &Array, key: &FnPtr) -> Fallible<Vec<Dynamic>> {
    list.iter()
        .map(|x| key.call_within_context::<Dynamic>(ctx, (x.clone(),)))
        .collect()
}

fn extreme(ctx: &NativeCallContext, list: Array, key: &FnPtr, want: Ordering) -> Fallible<Dynamic> {
    let keys = keys(ctx, &list, key)?;
    let mut best: Option<usize> = None;
    for i in 0..list.len() {
        best = match best {
            Some(b) if compare(&keys[i], &keys[b])? != want => Some(b),
            _ => Some(i),
        };
    }
    Ok(best.map_or(Dynamic::UNIT, |b| list[b].clone()))
}

/// Two keys in order: numbers, texts, true/false, or lists of those.
fn compare(a: &Dynamic, b: &Dynamic) -> Result<Ordering, String> {
    if let (Ok(x), Ok(y)) = (a.as_int(), b.as_int()) {
        return Ok(x.cmp(&y));
    }
    if let (Ok(x), Ok(y)) = (a.as_bool(), b.as_bool()) {
        return Ok(x.cmp(&y));
    }
    if a.is_string() && b.is_string() {
        return Ok(a.to_string().cmp(&b.to_string()));
    }
    if let (Some(x), Some(y)) = (a.read_lock::<Array>(), b.read_lock::<Array>()) {
        for (p, q) in x.iter().zip(y.iter()) {
            match compare(p, q)? {
                Ordering::Equal => {}
                o => return Ok(o),
            }
        }
        return Ok(x.len().cmp(&y.len()));
    }
    Err(format!(
        "sort keys must be numbers, texts, true/false or lists of them, all of one kind (got `{}` and `{}`)",
        a.type_name(),
        b.type_name()
    ))
}
