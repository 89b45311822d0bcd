//! The typed forms of the game's questions and course (stats.rs,
//! chance.rs, dice.rs and flow.rs of the API): stats compared
//! (`any_at_least`, `max_stat`, `min_stat`, `compare_stats`), `random`,
//! `die_face`, `is_over` and `end_game`, each through the same traced read
//! or write as its Rhai form (`die_face` reads a table made at load). Each gives None
//! where its arguments are not what it types, or where the Rhai form
//! would fail (which then says why).

use crate::core::Outcome;
use crate::core::ops::{Read, Write, ix};
use crate::hooks::script::{Ctx, Fallible};

use super::api::{Typed, player, stat_ix};
use super::syms::{NONE, Syms};
use super::value::V;

pub(super) fn typed(name: &str, arity: usize) -> Option<Typed> {
    Some(match (name, arity) {
        ("any_at_least", 2) => any_at_least,
        ("max_stat", 2) => max_stat,
        ("min_stat", 2) => min_stat,
        ("compare_stats", 4) => compare_stats,
        ("random", 1) => random,
        ("die_face", 2) => die_face,
        ("is_over", 0) => is_over,
        ("end_game", 0) => draw,
        ("end_game", 1) => win,
        ("end_game", 2) => end_why,
        _ => return None,
    })
}

/// The stat a symbol names.
fn stat(syms: &Syms, v: &V) -> Option<usize> {
    let V::Sym(s) = v else { return None };
    let s = syms.kinds(*s).stat;
    (s != NONE).then_some(s as usize)
}

fn any_at_least(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let (s, V::Int(n)) = (stat(syms, &a[0])?, &a[1]) else {
        return None;
    };
    let n = *n;
    let nstats = u16::try_from(cx.def.stats.len()).ok()?;
    let hit = cx.read_int(Read::AnyAtLeast {
        stat: ix(s),
        nstats,
        n,
    });
    Some(Ok(V::Bool(hit != 0)))
}

/// `max_stat(p, stats)` and `min_stat`: a list of stats among the first
/// 32, at least one.
fn extreme(cx: &mut Ctx, syms: &Syms, a: &[V], max: bool) -> Option<Fallible<V>> {
    let p = player(syms, &a[0])?;
    let V::List(stats) = &a[1] else { return None };
    let mut mask = 0u32;
    for s in stats {
        let i = stat(syms, s)?;
        if i >= 32 {
            return None;
        }
        mask |= 1 << i;
    }
    if mask == 0 {
        return None;
    }
    let base = ix(p * cx.def.stats.len());
    Some(Ok(V::Int(cx.read_int(Read::Extreme { base, mask, max }))))
}

fn max_stat(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    extreme(cx, syms, a, true)
}

fn min_stat(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    extreme(cx, syms, a, false)
}

fn compare_stats(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let x = stat_ix(cx, syms, &a[0], &a[1])?;
    let y = stat_ix(cx, syms, &a[2], &a[3])?;
    Some(Ok(V::Int(cx.read_int(Read::Compare(ix(x), ix(y))))))
}

/// `random(n)`: a draw of the game's chance (n at least 1).
fn random(cx: &mut Ctx, _: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let V::Int(n) = &a[0] else { return None };
    let n = u64::try_from(*n).ok().filter(|&n| n > 0)?;
    Some(Ok(V::Int(cx.random_below(n) as i64)))
}

/// `die_face(die, i)`: the face from the table made at load.
fn die_face(_: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let (V::Sym(d), V::Int(i)) = (&a[0], &a[1]) else {
        return None;
    };
    let d = syms.kinds(*d).die;
    if d == NONE {
        return None;
    }
    Some(Ok(syms.data.face(d as usize, *i)?))
}

fn is_over(cx: &mut Ctx, _: &Syms, _: &[V]) -> Option<Fallible<V>> {
    Some(Ok(V::Bool(cx.read_int(Read::IsOver) != 0)))
}

fn end(cx: &mut Ctx, o: Outcome, why: Option<&str>) -> Option<Fallible<V>> {
    let why = why.map(|r| crate::error::printable(r).as_ref().into());
    Some(cx.write(Write::End(o, why)).map(|()| V::Unit))
}

fn draw(cx: &mut Ctx, _: &Syms, _: &[V]) -> Option<Fallible<V>> {
    end(cx, Outcome::Draw, None)
}

fn win(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let p = player(syms, &a[0])?;
    end(cx, Outcome::Win(p), None)
}

/// `end_game(winner, reason)`: winner "" for a draw.
fn end_why(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let V::Sym(w) = &a[0] else { return None };
    let reason = match &a[1] {
        V::Sym(r) => syms.text(*r).clone(),
        V::Dyn(d) if d.is_string() => d.clone().into_immutable_string().ok()?,
        _ => return None,
    };
    let o = match syms.text(*w).as_str() {
        "" => Outcome::Draw,
        _ => Outcome::Win(player(syms, &a[0])?),
    };
    end(cx, o, Some(reason.as_str()))
}
