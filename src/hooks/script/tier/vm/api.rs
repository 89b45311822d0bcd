//! The API's typed entry points: the hot functions of the script API
//! (stats, vars, players, the grid) on symbols and numbers, answering from
//! the state's own data through the same traced reads and writes as their
//! Rhai forms (so the memo replays either). Each gives None where its
//! arguments are not what it types (a text that names nothing, a value
//! of another type): the call then goes the Rhai form's way, which says
//! what is wrong in its own words.

use crate::core::ops::{Read, Write, ix};
use crate::definition::CardIx;
use crate::hooks::script::api::{Spot, grid};
use crate::hooks::script::{Ctx, Fallible};

use super::syms::{NONE, Syms};
use super::value::V;

pub(crate) type Typed = fn(&mut Ctx, &Syms, &[V]) -> Option<Fallible<V>>;

/// The typed form of `name()` whose list is only asked `method()` of
/// (`empty_cells().is_empty()`): answered without building the list.
pub(crate) fn tested(name: &str, method: &str) -> Option<Typed> {
    Some(match (name, method) {
        ("empty_cells", "is_empty") => no_empty_cell,
        ("empty_cells", "len") => empty_cell_count,
        _ => return None,
    })
}

/// The typed entry point of API function `name` of `arity`, if it has one.
pub(crate) fn typed(name: &str, arity: usize) -> Option<Typed> {
    Some(match (name, arity) {
        ("stat", 2) => stat,
        ("set_stat", 3) => set_stat,
        ("add_stat", 3) => add_stat,
        ("get_var", 1) => get_var,
        ("set_var", 2) => set_var,
        ("add_var", 2) => add_var,
        ("active", 0) => active,
        ("set_active", 1) => set_active,
        ("opponent" | "next_player", 1) => next_player,
        ("players", 0) => players,
        ("turn", 0) => turn,
        ("columns", 0) => columns,
        ("cells", 0) => cells,
        ("drop_cell", 1) => drop_cell,
        ("piece", 1) => piece,
        ("offset", 3) => offset,
        ("in_a_row", 1) => in_a_row,
        ("empty_cells", 0) => empty_cells,
        ("ask", 4 | 5) => super::ask::ask,
        ("move_card", 5) => move_card,
        _ => {
            return super::api_cards::typed(name, arity)
                .or_else(|| super::api_board::typed(name, arity))
                .or_else(|| super::api_game::typed(name, arity));
        }
    })
}

pub(super) fn player(syms: &Syms, v: &V) -> Option<usize> {
    match v {
        V::Sym(s) => Some(syms.kinds(*s).player)
            .filter(|&p| p != NONE)
            .map(|p| p as usize),
        _ => None,
    }
}

fn int(v: &V) -> Option<i64> {
    match v {
        V::Int(i) => Some(*i),
        _ => None,
    }
}

/// The index of a player's stat.
pub(super) fn stat_ix(cx: &Ctx, syms: &Syms, p: &V, s: &V) -> Option<usize> {
    let p = player(syms, p)?;
    let V::Sym(s) = s else { return None };
    let s = syms.kinds(*s).stat;
    (s != NONE).then(|| p * cx.def.stats.len() + s as usize)
}

fn var_ix(syms: &Syms, v: &V) -> Option<usize> {
    let V::Sym(s) = v else { return None };
    let v = syms.kinds(*s).var;
    (v != NONE).then_some(v as usize)
}

fn unit(r: Fallible<()>) -> Option<Fallible<V>> {
    Some(r.map(|()| V::Unit))
}

fn stat(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let i = stat_ix(cx, syms, &a[0], &a[1])?;
    Some(Ok(V::Int(cx.read_int(Read::Stat(ix(i))))))
}

fn set_stat(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let (i, v) = (stat_ix(cx, syms, &a[0], &a[1])?, int(&a[2])?);
    unit(cx.write(Write::SetStat(i, v)))
}

fn add_stat(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let (i, d) = (stat_ix(cx, syms, &a[0], &a[1])?, int(&a[2])?);
    unit(cx.write(Write::AddStat(i, d)))
}

fn get_var(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let i = var_ix(syms, &a[0])?;
    Some(Ok(V::Int(cx.read_int(Read::Var(ix(i))))))
}

fn set_var(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let (i, v) = (var_ix(syms, &a[0])?, int(&a[1])?);
    unit(cx.write(Write::SetVar(i, v)))
}

fn add_var(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let (i, d) = (var_ix(syms, &a[0])?, int(&a[1])?);
    unit(cx.write(Write::AddVar(i, d)))
}

fn active(cx: &mut Ctx, syms: &Syms, _: &[V]) -> Option<Fallible<V>> {
    let p = cx.read_int(Read::Active) as usize;
    Some(Ok(V::Sym(syms.players[p])))
}

fn set_active(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let p = player(syms, &a[0])?;
    unit(cx.write(Write::SetActive(p)))
}

fn next_player(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let p = player(syms, &a[0])?;
    Some(Ok(V::Sym(syms.players[(p + 1) % cx.def.nplayers()])))
}

/// A list the API builds, charged as its Rhai form charges it.
fn list(name: &str, items: impl Iterator<Item = u32>) -> Fallible<V> {
    let out: Vec<V> = items.map(V::Sym).collect();
    crate::hooks::script::budget::charge(name, out.len(), "values it built")?;
    Ok(V::List(out))
}

fn players(_: &mut Ctx, syms: &Syms, _: &[V]) -> Option<Fallible<V>> {
    Some(list("players", syms.players.iter().copied()))
}

fn turn(cx: &mut Ctx, _: &Syms, _: &[V]) -> Option<Fallible<V>> {
    Some(Ok(V::Int(cx.read_int(Read::Turn))))
}

fn columns(cx: &mut Ctx, syms: &Syms, _: &[V]) -> Option<Fallible<V>> {
    cx.def.grid.as_ref()?;
    Some(list("columns", syms.columns.iter().copied()))
}

fn cells(cx: &mut Ctx, syms: &Syms, _: &[V]) -> Option<Fallible<V>> {
    let g = cx.def.grid.as_ref()?;
    // Holes are not cells of the board.
    Some(list("cells", g.cells().map(|c| syms.cells[c])))
}

/// The cell a symbol names, on the game's grid.
pub(super) fn cell(syms: &Syms, v: &V) -> Option<usize> {
    let V::Sym(s) = v else { return None };
    let c = syms.kinds(*s).cell;
    (c != NONE).then_some(c as usize)
}

fn drop_cell(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let V::Sym(s) = &a[0] else { return None };
    let col = syms.kinds(*s).column;
    if col == NONE {
        return None;
    }
    let def = cx.def.clone();
    let g = def.grid.as_ref()?;
    let at = g.drop_cell(col as usize, |c| grid::empty(cx, g, c));
    Some(Ok(at.map_or(V::Unit, |c| V::Sym(syms.cells[c]))))
}

fn piece(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let c = cell(syms, &a[0])?;
    let def = cx.def.clone();
    let g = def.grid.as_ref()?;
    let top = grid::top(cx, g, c);
    Some(Ok(top.map_or(V::Unit, |p| V::Sym(syms.cards[p as usize]))))
}

fn offset(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let (c, dc, dr) = (cell(syms, &a[0])?, int(&a[1])?, int(&a[2])?);
    let g = cx.def.grid.as_ref()?;
    Some(Ok(g
        .step(c, dc, dr)
        .map_or(V::Unit, |n| V::Sym(syms.cells[n]))))
}

fn in_a_row(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let c = cell(syms, &a[0])?;
    let def = cx.def.clone();
    let g = def.grid.as_ref()?;
    let (run, looked) = grid::in_a_row(cx, g, c);
    Some(
        crate::hooks::script::budget::charge("in_a_row", looked, "cells it looked at")
            .map(|()| V::Int(run as i64)),
    )
}

/// `empty_cells().is_empty()` and `.len()`: the count, the list not built
/// (the same reads and charge as `empty_cells`). Never None: these calls
/// have no other way.
fn no_empty_cell(cx: &mut Ctx, _: &Syms, _: &[V]) -> Option<Fallible<V>> {
    Some(grid::empty_count(cx).map(|n| V::Bool(n == 0)))
}

fn empty_cell_count(cx: &mut Ctx, _: &Syms, _: &[V]) -> Option<Fallible<V>> {
    Some(grid::empty_count(cx).map(V::Int))
}

fn empty_cells(cx: &mut Ctx, syms: &Syms, _: &[V]) -> Option<Fallible<V>> {
    let def = cx.def.clone();
    let g = def.grid.as_ref()?;
    if let Err(e) =
        crate::hooks::script::budget::charge("empty_cells", g.len(), "cells it looked at")
    {
        return Some(Err(e));
    }
    let mut out = Vec::new();
    grid::for_empty(cx, g, |_, c| out.push(syms.cells[c]));
    Some(list("empty_cells", out.into_iter()))
}

/// `move_card` of five symbols: the card and the zones' copies found by
/// symbol (the Rhai form's way, for its error, where one names none).
fn move_card(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let [V::Sym(c), V::Sym(fo), V::Sym(f), V::Sym(_), V::Sym(_)] = a else {
        return None;
    };
    let card = syms.kinds(*c).card;
    let (from, to) = (spot(cx, syms, &a[1], &a[2])?, spot(cx, syms, &a[3], &a[4])?);
    if card == NONE {
        return None;
    }
    let names = [syms.text(*fo).as_str(), syms.text(*f).as_str()];
    unit(crate::hooks::script::api::cards::move_card_at(
        cx,
        card as CardIx,
        (from, names),
        to,
    ))
}

/// `owner`'s copy of `zone`, as `Ctx::spot` finds it by their texts (the
/// owner of a shared zone any text): None where they name none.
pub(super) fn spot(cx: &Ctx, syms: &Syms, owner: &V, zone: &V) -> Option<Spot> {
    use crate::definition::format::Per;
    let V::Sym(z) = zone else { return None };
    let z = syms.kinds(*z).zone;
    if z == NONE {
        return None;
    }
    let z = z as usize;
    let (at, player) = match cx.def.zones[z].per {
        Per::Game => match owner {
            V::Sym(_) => (0, None),
            V::Dyn(d) if d.is_string() => (0, None),
            _ => return None,
        },
        Per::Player => {
            let p = player(syms, owner)?;
            (p, Some(p))
        }
        Per::Cell => (cell(syms, owner)?, None),
    };
    Some(Spot {
        z,
        slot: cx.def.slot(z, at),
        player,
    })
}
