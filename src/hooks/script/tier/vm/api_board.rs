//! The typed forms of the grid's geometry and the board's squares (grid.rs
//! and board.rs of the API) on the VM's values: a cell's neighbours as a
//! list of symbols, a square's terrain (its row and column, the distance
//! between two and the board's size are forms on registers, api_regs.rs).
//! None reads the state; each gives None where its arguments are not what
//! it types (the Rhai form then says what is wrong).

use crate::hooks::script::{Ctx, Fallible};

use super::api::{Typed, cell};
use super::api_cards::built;
use super::syms::Syms;
use super::value::V;

pub(super) fn typed(name: &str, arity: usize) -> Option<Typed> {
    Some(match (name, arity) {
        ("neighbours", 1) => neighbours,
        ("neighbours", 2) => neighbours_of_kind,
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

fn terrain(_: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let V::Int(s) = &a[0] else { return None };
    Some(Ok(syms.data.terrain(*s)))
}
