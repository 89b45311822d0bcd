//! The typed forms of the grid's geometry and the board's squares (grid.rs
//! and board.rs of the API): a cell's neighbours as a list of symbols, its
//! row and column, the distance between two, the board's size and
//! terrain. None reads the state; each gives None where its arguments
//! are not what it types (the Rhai form then says what is wrong).

use crate::hooks::script::{Ctx, Fallible};

use super::api::{Typed, cell};
use super::api_cards::built;
use super::syms::Syms;
use super::value::V;

pub(super) fn typed(name: &str, arity: usize) -> Option<Typed> {
    Some(match (name, arity) {
        ("neighbours", 1) => neighbours,
        ("neighbours", 2) => neighbours_of_kind,
        ("row_of", 1) => row_of,
        ("column_of", 1) => column_of,
        ("distance", 2) => distance,
        ("board_size", 0) => board_size,
        ("terrain", 1) => terrain,
        _ => return None,
    })
}

/// `neighbours` of the cell `a[0]` names, orthogonal and diagonal as said.
fn listed(cx: &Ctx, syms: &Syms, a: &[V], o: bool, d: bool) -> Option<Fallible<V>> {
    let c = cell(syms, &a[0])?;
    let g = cx.def.grid.as_ref()?;
    let out = (g.neighbours(c, o, d).into_iter())
        .map(|n| V::Sym(syms.cells[n]))
        .collect();
    Some(built("neighbours", syms, out))
}

fn neighbours(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    listed(cx, syms, a, true, true)
}

fn neighbours_of_kind(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let V::Sym(which) = &a[1] else { return None };
    let (o, d) = match syms.text(*which).as_str() {
        "all" => (true, true),
        "orthogonal" => (true, false),
        "diagonal" => (false, true),
        _ => return None,
    };
    listed(cx, syms, a, o, d)
}

fn row_of(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let c = cell(syms, &a[0])?;
    let g = cx.def.grid.as_ref()?;
    Some(Ok(V::Int(g.place(c).1 + 1)))
}

/// The column's letter: the symbol of the column (`Keys::columns`).
fn column_of(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let c = cell(syms, &a[0])?;
    let g = cx.def.grid.as_ref()?;
    let col = usize::try_from(g.place(c).0).ok()?;
    Some(Ok(V::Sym(*syms.columns.get(col)?)))
}

fn distance(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let (x, y) = (cell(syms, &a[0])?, cell(syms, &a[1])?);
    let g = cx.def.grid.as_ref()?;
    Some(Ok(V::Int(g.distance(x, y))))
}

fn board_size(cx: &mut Ctx, _: &Syms, _: &[V]) -> Option<Fallible<V>> {
    let n = cx.def.board.as_ref().map_or(0, |b| b.squares.len() as i64);
    Some(Ok(V::Int(n)))
}

fn terrain(_: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let V::Int(s) = &a[0] else { return None };
    Some(Ok(syms.data.terrain(*s)))
}
