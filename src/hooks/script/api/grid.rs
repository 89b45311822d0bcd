//! The grid board: cells by name (`a1`), what is on them, and the shapes
//! a designer reaches for (neighbours, lines of N, where a dropped piece
//! lands). Every look at a cell is a traced read of its slot, so the memo
//! replays these as it replays `cards` and `count`.

use rhai::{Array, Dynamic};

use super::super::budget::{self, built, charge};
use super::super::tier::natives::Api;
use super::super::{Ctx, Fallible, MAX_ARRAY, with_ctx};
use crate::core::ops::{EMPTIES_MAX, Read, Val, ix};
use crate::definition::Def;
use crate::definition::{CardIx, Grid};

pub(super) fn register(engine: &mut Api) {
    engine.register_fn("cells", || {
        with_ctx(|cx| {
            let def = cx.def.clone();
            let g = grid(&def)?;
            built("cells", names(cx, g.cells()))
        })
    });
    engine.register_fn("columns", || {
        with_ctx(|cx| {
            grid(&cx.def)?;
            built(
                "columns",
                cx.keys.columns.iter().cloned().map(Dynamic::from).collect(),
            )
        })
    });
    engine.register_fn("empty_cells", || {
        with_ctx(|cx| {
            let def = cx.def.clone();
            let g = grid(&def)?;
            // Charged for every cell it looks at, the names it gives too.
            charge("empty_cells", g.len(), "cells it looked at")?;
            let mut out = Array::new();
            for_empty(cx, g, |cx, c| out.push(cell_name(cx, c)));
            built("empty_cells", out)
        })
    });
    // The top card on a cell (the piece), or () when it is empty.
    engine.register_fn("piece", |cell: &str| {
        with_ctx(|cx| {
            let c = cx.cell(cell)?;
            let def = cx.def.clone();
            let g = grid(&def)?;
            Ok(top(cx, g, c).map_or(Dynamic::UNIT, |p| {
                Dynamic::from(cx.keys.cards[p as usize].clone())
            }))
        })
    });
    engine.register_fn("neighbours", |cell: &str| {
        with_ctx(|cx| {
            let c = cx.cell(cell)?;
            let list = names(cx, grid(&cx.def)?.neighbours(c, true, true).into_iter());
            built("neighbours", list)
        })
    });
    engine.register_fn("neighbours", |cell: &str, which: &str| {
        with_ctx(|cx| {
            let c = cx.cell(cell)?;
            let (o, d) = match which {
                "all" => (true, true),
                "orthogonal" => (true, false),
                "diagonal" => (false, true),
                _ => {
                    return Err(format!(
                        "neighbours: `{which}` is not a kind of neighbour (all, orthogonal, diagonal)"
                    )
                    .into());
                }
            };
            let list = names(cx, grid(&cx.def)?.neighbours(c, o, d).into_iter());
            built("neighbours", list)
        })
    });
    // The cell `dc` columns right and `dr` rows up (negative: left, down),
    // or () off the board or on a hole.
    engine.register_fn("offset", |cell: &str, dc: i64, dr: i64| {
        with_ctx(|cx| {
            let c = cx.cell(cell)?;
            let def = cx.def.clone();
            let g = grid(&def)?;
            Ok(g.step(c, dc, dr)
                .map_or(Dynamic::UNIT, |n| cell_name(cx, n)))
        })
    });
    // The fewest steps from one cell to another, each to a neighbour: a
    // king's moves on squares, hexagons crossed on a hex grid.
    engine.register_fn("distance", |from: &str, to: &str| {
        with_ctx(|cx| {
            let (a, b) = (cx.cell(from)?, cx.cell(to)?);
            Ok(grid(&cx.def)?.distance(a, b))
        })
    });
    engine.register_fn("row_of", |cell: &str| {
        with_ctx(|cx| {
            let c = cx.cell(cell)?;
            Ok(grid(&cx.def)?.place(c).1 + 1)
        })
    });
    engine.register_fn("column_of", |cell: &str| {
        with_ctx(|cx| {
            let c = cx.cell(cell)?;
            let col = grid(&cx.def)?.place(c).0 as usize;
            Ok(crate::definition::column_name(col).to_string())
        })
    });
    register_lines(engine);
}

/// The lines, runs and drops of the grid.
fn register_lines(engine: &mut Api) {
    engine.register_fn("lines", |n: i64| {
        with_ctx(|cx| {
            let def = cx.def.clone();
            let g = grid(&def)?;
            let n = usize::try_from(n)
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| format!("lines: {n} cells in a row: give at least 1"))?;
            let lines = g.lines(n);
            // Counted before they are made: a script value holds so many.
            let items = lines.len() * (n + 1);
            if items > MAX_ARRAY {
                return Err(format!(
                    "lines: {n} cells in a row make {} lines on this {}x{} grid, {} items in lists, more than the {} a script value may hold (walk the board with `offset` or `in_a_row` instead)",
                    lines.len(),
                    g.rows,
                    g.columns,
                    budget::thousands(items as u64),
                    budget::thousands(MAX_ARRAY as u64)
                )
                .into());
            }
            let list = lines
                .into_iter()
                .map(|l| Dynamic::from_array(names(cx, l.into_iter())))
                .collect();
            built("lines", list)
        })
    });
    // The most cells in a row through `cell` holding the piece it holds
    // (along a row, a column or a diagonal): 0 on an empty cell.
    engine.register_fn("in_a_row", |cell: &str| {
        with_ctx(|cx| {
            let c = cx.cell(cell)?;
            let def = cx.def.clone();
            let g = grid(&def)?;
            let (run, looked) = in_a_row(cx, g, c);
            charge("in_a_row", looked, "cells it looked at")?;
            Ok(run as i64)
        })
    });
    // Where a piece dropped into a column (by its letter) lands: its
    // lowest empty cell, or () when the column is full.
    engine.register_fn("drop_cell", |column: &str| {
        with_ctx(|cx| {
            let def = cx.def.clone();
            let g = grid(&def)?;
            let col = g.column(column).ok_or_else(|| {
                format!(
                    "drop_cell: no column `{column}` (columns a to {})",
                    crate::definition::column_name(g.columns - 1)
                )
            })?;
            Ok(g.drop_cell(col, |c| empty(cx, g, c))
                .map_or(Dynamic::UNIT, |n| cell_name(cx, n)))
        })
    });
}

/// The game's grid, or an error that says it has none.
pub(crate) fn grid(def: &Def) -> Fallible<&Grid> {
    def.grid
        .as_ref()
        .ok_or_else(|| "the game has no grid (a zone with `grid:`)".into())
}

fn names(cx: &Ctx, cells: impl Iterator<Item = usize>) -> Array {
    cells.map(|c| cell_name(cx, c)).collect()
}

/// A cell's name as a script's string (kept once: no copy per call).
fn cell_name(cx: &Ctx, cell: usize) -> Dynamic {
    Dynamic::from(cx.keys.cells[cell].clone())
}

/// Whether a cell holds nothing (a traced read of its count: what it
/// holds does not matter, and the memo keys on less).
pub(crate) fn empty(cx: &mut Ctx, g: &Grid, cell: usize) -> bool {
    cx.read_int(Read::Count(ix(cx.def.slot(g.zone, cell)))) == 0
}

/// `f` of each empty cell (holes left out), in cell order: one traced
/// read of which cells are empty (`Read::Empties`) per 64 cells, not a
/// read a cell.
pub(crate) fn for_empty(cx: &mut Ctx, g: &Grid, mut f: impl FnMut(&mut Ctx, usize)) {
    let first = cx.def.slot(g.zone, 0);
    for start in (0..g.len()).step_by(EMPTIES_MAX) {
        let n = (g.len() - start).min(EMPTIES_MAX);
        let mut bits = cx.read_int(Read::Empties {
            first: ix(first + start),
            n: n as u8,
        }) as u64;
        while bits != 0 {
            let c = start + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if !g.holes[c] {
                f(cx, c);
            }
        }
    }
}

/// How many cells of the grid are empty (holes left out), as
/// `empty_cells().len()` counts them, without building the list: the
/// typed form of `empty_cells().len()` and `.is_empty()`, and the same
/// traced reads as `empty_cells()` makes. (For the typed VM's calls: no
/// script calls it by this name.)
pub(crate) fn empty_count(cx: &mut Ctx) -> Fallible<i64> {
    let def = cx.def.clone();
    let g = grid(&def)?;
    charge("empty_cells", g.len(), "cells it looked at")?;
    let mut n = 0;
    for_empty(cx, g, |_, _| n += 1);
    Ok(n)
}

/// The top card on a cell (a traced read of its cards).
pub(crate) fn top(cx: &mut Ctx, g: &Grid, cell: usize) -> Option<CardIx> {
    let slot = cx.def.slot(g.zone, cell);
    if let Some(cards) = cx.untraced_cards(slot) {
        return cards.last().copied();
    }
    match cx.read(Read::Cards(ix(slot))) {
        Val::Cards(cards) => cards.last().copied(),
        Val::Int(_) => None,
    }
}

/// The run through `cell` and how many cells it looked at.
pub(crate) fn in_a_row(cx: &mut Ctx, g: &Grid, cell: usize) -> (usize, usize) {
    let Some(piece) = top(cx, g, cell) else {
        return (0, 1);
    };
    let (mut best, mut looked) = (1, 1);
    for &(dc, dr) in g.line_directions() {
        let mut run = 1;
        for sign in [1, -1] {
            let mut at = cell;
            while let Some(next) = g.step(at, dc * sign, dr * sign) {
                looked += 1;
                if top(cx, g, next) != Some(piece) {
                    break;
                }
                run += 1;
                at = next;
            }
        }
        best = best.max(run);
    }
    (best, looked)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::core::ops::{Op, Read};
    use crate::core::{Args, Call, State, Traceable};
    use crate::hooks::script::{Compile, Lent, RhaiHooks, with_ctx};
    use crate::hooks::test_game::{Game, load};

    /// A 2x3 board with a disc dropped on b1 by `look`, which then lists
    /// the empty cells and checks them.
    fn game() -> Game<RhaiHooks> {
        let (def, mut scripts) = load(
            "id: board\nscript: game.rhai\nplayers: [{id: a, name: A}, {id: b, name: B}]\n\
             cards: {disc: {name: Disc}}\n\
             zones: {box: {per: game}, board: {grid: {rows: 2, columns: 3}}}\n\
             setup: [{put: {zone: box, cards: all}}]\n\
             vars: {n: {name: N, start: 0}}\n\
             flow: {turns: rotate, turn: [{hook: play_turn}]}\n",
            "fn play_turn() { ask(active(), \"go\", [\"x\"], \"went\", #{}); }\n\
             fn went(c) {}\n\
             fn look() {\n\
               move_card(\"disc\", \"\", \"box\", \"b1\", \"board\");\n\
               let e = empty_cells();\n\
               if e.len() != 5 || e[0] != \"a1\" || e[1] != \"c1\" || e[4] != \"c2\" { throw `${e}`; }\n\
               set_var(\"n\", e.len());\n\
             }\n",
            1,
        );
        Game(
            def.clone(),
            RhaiHooks::new(def, scripts.remove(0), Compile::On),
        )
    }

    #[test]
    fn empty_cells_is_one_traced_read_of_the_board() {
        let game = game();
        let mut state = State::new_quiet(&game, 1).unwrap();
        let call = Call {
            hook: "look",
            args: Args::None,
        };
        let (r, trace) = game.1.run_traced(&mut state, &call, &mut Vec::new());
        r.unwrap();
        assert_eq!(state.var(0), 5);
        let reads: Vec<&Read> = (trace.iter().flatten())
            .filter_map(|op| match op {
                Op::Read(k, _) => Some(k),
                Op::Write(_) => None,
            })
            .collect();
        let empties = reads
            .iter()
            .filter(|k| matches!(k, Read::Empties { n: 6, .. }))
            .count();
        assert_eq!(empties, 1, "{reads:?}");
        assert!(
            !reads.iter().any(|k| matches!(k, Read::Count(_))),
            "no read a cell: {reads:?}"
        );
    }

    #[test]
    fn the_empty_count_is_the_list_s_length_by_the_same_read() {
        let game = game();
        let mut state = State::new_quiet(&game, 1).unwrap();
        let (def, keys) = (game.0.clone(), game.1.keys.clone());
        let lent = Lent::begin(&mut state, &def, &keys, vec![], true);
        let n = with_ctx(super::empty_count).unwrap();
        let (_, trace) = lent.end().unwrap();
        assert_eq!(n, 6, "the board is empty");
        assert!(
            matches!(
                &trace.unwrap()[..],
                [Op::Read(Read::Empties { n: 6, .. }, _)]
            ),
            "one traced read"
        );
    }
}
