//! The API's forms on registers: the typed entry points whose arguments
//! and value are numbers, symbols or `()` (stats and vars, players, the
//! grid's cells). They take and give values as native code's registers
//! hold them, so native code calls them on its registers as they are, no
//! value made; the VM calls each through its form on its values, made by
//! the same table (`on_vals`). Each gives None where its arguments are
//! not what it types (a symbol that names no cell, `()`): the call then
//! goes the Rhai form's way, which says what is wrong in its own words.

use crate::core::ops::{Read, Write, ix};
use crate::hooks::script::api::grid;
use crate::hooks::script::{Ctx, Fallible};

use super::api::Typed;
use super::syms::{NONE, Syms};
use super::value::V;

/// `()` in a register (a symbol's register holds `()` or the symbol).
pub(crate) const UNIT: i64 = -1;

/// A form on registers: the arguments as `Regs::params` types them.
#[cfg(feature = "jit")]
pub(crate) type OnRegs = fn(&mut Ctx, &Syms, &[i64]) -> Option<Fallible<i64>>;

/// What a register holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Int,
    /// A symbol, or `()` (as `piece` gives a card or `()`); as an
    /// argument, `()` is refused by the form.
    Sym,
    /// `()` only (a value nobody reads: `set_stat`).
    Unit,
}

/// A form on registers and its types (for native code).
#[cfg(feature = "jit")]
pub(crate) struct Regs {
    pub f: OnRegs,
    /// The first `arity` (`Unit` after them).
    pub params: [Kind; MOST],
    pub arity: usize,
    pub ret: Kind,
}

/// The most arguments a form on registers takes.
#[cfg(feature = "jit")]
pub(crate) const MOST: usize = 3;

/// The table of forms on registers: each one's API names and arity, its
/// parameters' kinds and its value's kind. It makes `regs` (for native
/// code) and `on_vals` (each form on the VM's values, for the VM: its
/// kinds matched inline, the form called directly).
macro_rules! forms {
    ($($f:ident ($($name:literal)|+, $arity:literal) [$($p:ident),*] -> $ret:ident;)*) => {
        /// The form on registers of API function `name` of `arity`, if it
        /// has one.
        #[cfg(feature = "jit")]
        pub(crate) fn regs(name: &str, arity: usize) -> Option<&'static Regs> {
            use Kind::{Int, Sym, Unit};
            Some(match (name, arity) {
                $(($($name)|+, $arity) => {
                    const R: Regs = Regs::new($f, &[$($p),*], $ret);
                    &R
                })*
                _ => return None,
            })
        }

        /// The form of API function `name` of `arity` on the VM's values
        /// (its typed entry point), if it has one on registers.
        pub(crate) fn on_vals(name: &str, arity: usize) -> Option<Typed> {
            Some(match (name, arity) {
                $(($($name)|+, $arity) => vals::$f,)*
                _ => return None,
            })
        }

        mod vals {
            use super::*;
            $(
                pub(super) fn $f(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
                    let mut _at = a.iter();
                    let r: &[i64] = &[$(held(Kind::$p, _at.next()?)?),*];
                    Some(super::$f(cx, syms, r)?.map(|n| Kind::$ret.value(n)))
                }
            )*
        }
    };
}

forms! {
    stat("stat", 2) [Sym, Sym] -> Int;
    set_stat("set_stat", 3) [Sym, Sym, Int] -> Unit;
    add_stat("add_stat", 3) [Sym, Sym, Int] -> Unit;
    get_var("get_var", 1) [Sym] -> Int;
    set_var("set_var", 2) [Sym, Int] -> Unit;
    add_var("add_var", 2) [Sym, Int] -> Unit;
    active("active", 0) [] -> Sym;
    set_active("set_active", 1) [Sym] -> Unit;
    next_player("opponent" | "next_player", 1) [Sym] -> Sym;
    turn("turn", 0) [] -> Int;
    drop_cell("drop_cell", 1) [Sym] -> Sym;
    piece("piece", 1) [Sym] -> Sym;
    offset("offset", 3) [Sym, Int, Int] -> Sym;
    in_a_row("in_a_row", 1) [Sym] -> Int;
    row_of("row_of", 1) [Sym] -> Int;
    column_of("column_of", 1) [Sym] -> Sym;
    distance("distance", 2) [Sym, Sym] -> Int;
    board_size("board_size", 0) [] -> Int;
}

#[cfg(feature = "jit")]
impl Regs {
    const fn new(f: OnRegs, kinds: &[Kind], ret: Kind) -> Regs {
        let mut params = [Kind::Unit; MOST];
        let mut i = 0;
        while i < kinds.len() {
            params[i] = kinds[i];
            i += 1;
        }
        Regs {
            f,
            params,
            arity: kinds.len(),
            ret,
        }
    }
}

impl Kind {
    /// The VM's value of register `n` of this kind.
    #[inline(always)]
    pub(crate) fn value(self, n: i64) -> V {
        match self {
            Kind::Int => V::Int(n),
            Kind::Sym => u32::try_from(n).map_or(V::Unit, V::Sym),
            Kind::Unit => V::Unit,
        }
    }
}

/// `v` as an argument of kind `k` (a number, a symbol), None where it is
/// another value.
#[inline(always)]
pub(crate) fn held(k: Kind, v: &V) -> Option<i64> {
    match (k, v) {
        (Kind::Int, V::Int(n)) => Some(*n),
        (Kind::Sym, V::Sym(s)) => Some(i64::from(*s)),
        _ => None,
    }
}

/// The symbol in a register (None for `()`).
#[inline(always)]
fn sym(r: i64) -> Option<u32> {
    u32::try_from(r).ok()
}

/// A symbol, or `()`, in a register.
#[inline(always)]
fn sym_or_unit(s: Option<u32>) -> i64 {
    s.map_or(UNIT, i64::from)
}

pub(super) fn player_of(syms: &Syms, r: i64) -> Option<usize> {
    let p = syms.kinds(sym(r)?).player;
    (p != NONE).then_some(p as usize)
}

/// The index of a player's stat.
pub(super) fn stat_of(cx: &Ctx, syms: &Syms, p: i64, s: i64) -> Option<usize> {
    let p = player_of(syms, p)?;
    let s = syms.kinds(sym(s)?).stat;
    (s != NONE).then(|| p * cx.def.stats.len() + s as usize)
}

fn var_of(syms: &Syms, r: i64) -> Option<usize> {
    let v = syms.kinds(sym(r)?).var;
    (v != NONE).then_some(v as usize)
}

/// The cell a symbol names, on the game's grid.
pub(super) fn cell_of(syms: &Syms, r: i64) -> Option<usize> {
    let c = syms.kinds(sym(r)?).cell;
    (c != NONE).then_some(c as usize)
}

fn done(r: Fallible<()>) -> Option<Fallible<i64>> {
    Some(r.map(|()| UNIT))
}

#[inline(always)]
fn stat(cx: &mut Ctx, syms: &Syms, a: &[i64]) -> Option<Fallible<i64>> {
    let i = stat_of(cx, syms, a[0], a[1])?;
    Some(Ok(cx.read_int(Read::Stat(ix(i)))))
}

#[inline(always)]
fn set_stat(cx: &mut Ctx, syms: &Syms, a: &[i64]) -> Option<Fallible<i64>> {
    let i = stat_of(cx, syms, a[0], a[1])?;
    done(cx.write(Write::SetStat(i, a[2])))
}

#[inline(always)]
fn add_stat(cx: &mut Ctx, syms: &Syms, a: &[i64]) -> Option<Fallible<i64>> {
    let i = stat_of(cx, syms, a[0], a[1])?;
    done(cx.write(Write::AddStat(i, a[2])))
}

#[inline(always)]
fn get_var(cx: &mut Ctx, syms: &Syms, a: &[i64]) -> Option<Fallible<i64>> {
    let i = var_of(syms, a[0])?;
    Some(Ok(cx.read_int(Read::Var(ix(i)))))
}

#[inline(always)]
fn set_var(cx: &mut Ctx, syms: &Syms, a: &[i64]) -> Option<Fallible<i64>> {
    let i = var_of(syms, a[0])?;
    done(cx.write(Write::SetVar(i, a[1])))
}

#[inline(always)]
fn add_var(cx: &mut Ctx, syms: &Syms, a: &[i64]) -> Option<Fallible<i64>> {
    let i = var_of(syms, a[0])?;
    done(cx.write(Write::AddVar(i, a[1])))
}

#[inline(always)]
fn active(cx: &mut Ctx, syms: &Syms, _: &[i64]) -> Option<Fallible<i64>> {
    let p = cx.read_int(Read::Active) as usize;
    Some(Ok(i64::from(syms.players[p])))
}

#[inline(always)]
fn set_active(cx: &mut Ctx, syms: &Syms, a: &[i64]) -> Option<Fallible<i64>> {
    let p = player_of(syms, a[0])?;
    done(cx.write(Write::SetActive(p)))
}

#[inline(always)]
fn next_player(cx: &mut Ctx, syms: &Syms, a: &[i64]) -> Option<Fallible<i64>> {
    let p = player_of(syms, a[0])?;
    Some(Ok(i64::from(syms.players[(p + 1) % cx.def.nplayers()])))
}

#[inline(always)]
fn turn(cx: &mut Ctx, _: &Syms, _: &[i64]) -> Option<Fallible<i64>> {
    Some(Ok(cx.read_int(Read::Turn)))
}

#[inline(always)]
fn drop_cell(cx: &mut Ctx, syms: &Syms, a: &[i64]) -> Option<Fallible<i64>> {
    let col = syms.kinds(sym(a[0])?).column;
    if col == NONE {
        return None;
    }
    let def = cx.def.clone();
    let g = def.grid.as_ref()?;
    let at = g.drop_cell(col as usize, |c| grid::empty(cx, g, c));
    Some(Ok(sym_or_unit(at.map(|c| syms.cells[c]))))
}

#[inline(always)]
fn piece(cx: &mut Ctx, syms: &Syms, a: &[i64]) -> Option<Fallible<i64>> {
    let c = cell_of(syms, a[0])?;
    let def = cx.def.clone();
    let g = def.grid.as_ref()?;
    let top = grid::top(cx, g, c);
    Some(Ok(sym_or_unit(top.map(|p| syms.cards[p as usize]))))
}

#[inline(always)]
fn offset(cx: &mut Ctx, syms: &Syms, a: &[i64]) -> Option<Fallible<i64>> {
    let c = cell_of(syms, a[0])?;
    let g = cx.def.grid.as_ref()?;
    Some(Ok(sym_or_unit(
        g.step(c, a[1], a[2]).map(|n| syms.cells[n]),
    )))
}

#[inline(always)]
fn in_a_row(cx: &mut Ctx, syms: &Syms, a: &[i64]) -> Option<Fallible<i64>> {
    let c = cell_of(syms, a[0])?;
    let def = cx.def.clone();
    let g = def.grid.as_ref()?;
    let (run, looked) = grid::in_a_row(cx, g, c);
    Some(
        crate::hooks::script::budget::charge("in_a_row", looked, "cells it looked at")
            .map(|()| run as i64),
    )
}

#[inline(always)]
fn row_of(cx: &mut Ctx, syms: &Syms, a: &[i64]) -> Option<Fallible<i64>> {
    let c = cell_of(syms, a[0])?;
    let g = cx.def.grid.as_ref()?;
    Some(Ok(g.place(c).1 + 1))
}

/// The column's letter: the symbol of the column (`Keys::columns`).
#[inline(always)]
fn column_of(cx: &mut Ctx, syms: &Syms, a: &[i64]) -> Option<Fallible<i64>> {
    let c = cell_of(syms, a[0])?;
    let g = cx.def.grid.as_ref()?;
    let col = usize::try_from(g.place(c).0).ok()?;
    Some(Ok(i64::from(*syms.columns.get(col)?)))
}

#[inline(always)]
fn distance(cx: &mut Ctx, syms: &Syms, a: &[i64]) -> Option<Fallible<i64>> {
    let (x, y) = (cell_of(syms, a[0])?, cell_of(syms, a[1])?);
    let g = cx.def.grid.as_ref()?;
    Some(Ok(g.distance(x, y)))
}

#[inline(always)]
fn board_size(cx: &mut Ctx, _: &Syms, _: &[i64]) -> Option<Fallible<i64>> {
    Some(Ok(cx
        .def
        .board
        .as_ref()
        .map_or(0, |b| b.squares.len() as i64)))
}
