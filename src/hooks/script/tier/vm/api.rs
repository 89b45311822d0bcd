//! The API's typed entry points: the hot functions of the script API on
//! symbols and numbers, answering from the state's own data through the
//! same traced reads and writes as their Rhai forms (so the memo replays
//! either). Their table is here; those whose arguments and value are
//! numbers and symbols are forms on registers (api_regs.rs), the lists
//! and `move_card` below, the rest in api_cards.rs, api_board.rs and
//! api_game.rs. Each gives None where its
//! arguments are not what it types (a text that names nothing, a value
//! of another type): the call then goes the Rhai form's way, which says
//! what is wrong in its own words.

use crate::definition::CardIx;
use crate::hooks::script::api::{Spot, grid};
use crate::hooks::script::{Ctx, Fallible};

use super::api_regs::{Kind, cell_of, held, player_of, stat_of};
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
    if let Some(f) = super::api_regs::on_vals(name, arity) {
        return Some(f);
    }
    Some(match (name, arity) {
        ("players", 0) => players,
        ("columns", 0) => columns,
        ("cells", 0) => cells,
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
    player_of(syms, held(Kind::Sym, v)?)
}

/// The index of a player's stat.
pub(super) fn stat_ix(cx: &Ctx, syms: &Syms, p: &V, s: &V) -> Option<usize> {
    stat_of(cx, syms, held(Kind::Sym, p)?, held(Kind::Sym, s)?)
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
    cell_of(syms, held(Kind::Sym, v)?)
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
    let moved =
        crate::hooks::script::api::cards::move_card_at(cx, card as CardIx, (from, names), to);
    Some(moved.map(|()| V::Unit))
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
