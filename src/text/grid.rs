//! The grid board as people read it: rows drawn top down (the highest row
//! first, `a1` at the bottom left), a character per piece, and a legend;
//! and as `--json` gives it, rows of card ids.

use serde::Serialize;

use crate::core::{State, face_down_visible, zone_visible};
use crate::definition::grid::Shape;
use crate::definition::{CardIx, Grid, PlayerIx, column_name};
use crate::game::Game;

/// `--json`'s grid: rows from the top, each cell the id of its top card,
/// `null` when empty or a hole, `"?"` when the viewer may not see it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GridView {
    pub zone: String,
    pub columns: Vec<String>,
    /// Row numbers, as `rows` lists them (the highest first).
    pub row_numbers: Vec<usize>,
    pub rows: Vec<Vec<Option<String>>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub holes: Vec<String>,
    /// `hex`: each row lies half a cell right of the row below (absent
    /// for squares).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<&'static str>,
}

/// What a viewer sees on a cell: nothing, a piece, or a hidden one.
enum Seen {
    Empty,
    Piece(CardIx),
    Hidden,
}

fn seen(game: &Game, state: &State, g: &Grid, cell: usize, viewer: Option<PlayerIx>) -> Seen {
    let def = game.def();
    let zone = &def.zones[g.zone];
    let cards = state.zone(game, g.zone, cell);
    let Some(&top) = cards.last() else {
        return Seen::Empty;
    };
    let down = state
        .face_down(def.slot(g.zone, cell))
        .last()
        .unwrap_or(false);
    if !zone_visible(zone.visibility, None, viewer)
        || (down && !face_down_visible(zone, None, viewer))
    {
        Seen::Hidden
    } else {
        Seen::Piece(top)
    }
}

pub fn grid_view(game: &Game, state: &State, viewer: Option<PlayerIx>) -> Option<GridView> {
    let def = game.def();
    let g = def.grid.as_ref()?;
    let rows = (0..g.rows)
        .rev()
        .map(|r| {
            (0..g.columns)
                .map(|c| match seen(game, state, g, r * g.columns + c, viewer) {
                    _ if g.holes[r * g.columns + c] => None,
                    Seen::Empty => None,
                    Seen::Piece(p) => Some(def.cards[p as usize].id.clone()),
                    Seen::Hidden => Some("?".to_string()),
                })
                .collect()
        })
        .collect();
    Some(GridView {
        zone: def.zones[g.zone].id.clone(),
        columns: (0..g.columns).map(|c| column_name(c).to_string()).collect(),
        row_numbers: (1..=g.rows).rev().collect(),
        rows,
        holes: (0..g.len())
            .filter(|&i| g.holes[i])
            .map(|i| g.names[i].clone())
            .collect(),
        shape: (g.shape == Shape::Hex).then_some("hex"),
    })
}

/// The grid drawn in lines, indented by `indent`: its name, a row per
/// line from the top (`.` an empty cell, `?` a hidden piece, a space a
/// hole), the column letters, and which piece each character is.
pub fn grid_text(game: &Game, state: &State, viewer: Option<PlayerIx>, indent: &str) -> String {
    let def = game.def();
    let Some(g) = &def.grid else {
        return String::new();
    };
    let width = g.rows.to_string().len();
    let mut used: Vec<CardIx> = Vec::new();
    let mut out = format!("{indent}{}:\n", def.zones[g.zone].name);
    for r in (0..g.rows).rev() {
        let cells: Vec<String> = (0..g.columns)
            .map(|c| {
                let cell = r * g.columns + c;
                if g.holes[cell] {
                    return " ".to_string();
                }
                match seen(game, state, g, cell, viewer) {
                    Seen::Empty => ".".to_string(),
                    Seen::Hidden => "?".to_string(),
                    Seen::Piece(p) => {
                        if !used.contains(&p) {
                            used.push(p);
                        }
                        def.cards[p as usize].symbol.to_string()
                    }
                }
            })
            .collect();
        // Hexagons: each row half a cell (one character) right of the
        // row below, so that a cell touches the two above it and the two
        // below it.
        let shift = match g.shape {
            Shape::Hex => " ".repeat(r),
            Shape::Square => String::new(),
        };
        out.push_str(&format!(
            "{indent}  {:>width$} {shift}{}\n",
            r + 1,
            cells.join(" ")
        ));
    }
    let letters: Vec<String> = (0..g.columns).map(|c| column_name(c).to_string()).collect();
    out.push_str(&format!("{indent}  {:>width$} {}", "", letters.join(" ")));
    if !used.is_empty() {
        used.sort_unstable();
        let legend: Vec<String> = used
            .iter()
            .map(|&p| {
                let c = &def.cards[p as usize];
                format!("{} {}", c.symbol, c.name)
            })
            .collect();
        out.push_str(&format!("   ({})", legend.join(", ")));
    }
    out
}
