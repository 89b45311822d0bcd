//! Zones: where cards lie, one per player or one shared, who sees them,
//! and the slots they take in a state.

use super::Analyzer;
use super::names::Kind;
use crate::definition::bounds::{self, Bound};
use crate::definition::display::{SortKey, sort_keys};
use crate::definition::format::{
    At, Face, FaceDown, GameFile, GridDef, Per, StartValue, Visibility,
};
use crate::definition::{Card, Faces, Grid, Param, Zone};

/// The zones, the number of slots they take, and the grid (a zone whose
/// places are its cells).
pub(super) fn analyze(
    a: &mut Analyzer,
    file: &GameFile,
    nplayers: usize,
    params: &[Param],
    cards: &[Card],
) -> (Vec<Zone>, usize, Option<Grid>) {
    let mut zones = Vec::new();
    let mut slots = 0;
    let mut grid: Option<Grid> = None;
    for (id, z) in &file.zones {
        let mut per = z.per.unwrap_or(Per::Player);
        if let Some(g) = &z.grid {
            if z.per.is_some() {
                a.invalid(
                    format!(
                        "zone `{id}` is a grid: it has a place per cell, so it takes no `per:`"
                    ),
                    &g.rows.pos,
                );
            }
            if z.visibility == Some(Visibility::Owner) || z.face_down == Some(FaceDown::Owner) {
                a.invalid(
                    format!("zone `{id}` is a grid: its cells belong to no player, so `owner` cannot see them; say `public` or `hidden`"),
                    &g.rows.pos,
                );
            }
            match (&grid, geometry(a, id, g, zones.len(), params)) {
                (Some(first), _) => a.invalid(
                    format!(
                        "zone `{id}` is a second grid; a game has one (`{}`)",
                        file.zones
                            .get_index(first.zone)
                            .map_or("", |(k, _)| k.as_str())
                    ),
                    &g.rows.pos,
                ),
                (None, Some(g)) => {
                    per = Per::Cell;
                    grid = Some(g);
                }
                (None, None) => {}
            }
        }
        let visibility = z.visibility.unwrap_or(Visibility::Public);
        let faces = z.faces.is_some() || z.face_down.is_some();
        // A hand only its owner sees reads best in the game's card order.
        let mut sort = if per == Per::Player && visibility == Visibility::Owner && !faces {
            vec![SortKey::Order]
        } else {
            Vec::new()
        };
        if let Some(s) = &z.sort {
            let has = |k: &str| cards.iter().any(|c| c.attr(k).is_some());
            match sort_keys(&s.value, has) {
                // Sorted face-down cards would tell what they are by where
                // they lie.
                Ok(keys) if faces && !keys.is_empty() => a.invalid(
                    format!("zone `{id}` keeps faces: its cards stay where they lie (a face-down card's place would tell what it is), so it takes no `sort:`"),
                    &s.pos,
                ),
                Ok(keys) => sort = keys,
                Err(msg) => a.invalid(format!("zone `{id}`: {msg}"), &s.pos),
            }
        }
        zones.push(Zone {
            sort,
            id: id.clone(),
            name: z.name.clone().unwrap_or_else(|| id.clone()),
            per,
            visibility,
            unordered: z.unordered.unwrap_or(false),
            show: z.show.unwrap_or(true),
            records_from: z.records_from.unwrap_or(false),
            known_by_passer: z.known_by_passer.unwrap_or(false),
            faces: (z.faces.is_some() || z.face_down.is_some()).then(|| Faces {
                enter_down: z.faces == Some(Face::Down),
                down: match z.face_down {
                    Some(FaceDown::Owner) => Visibility::Owner,
                    Some(FaceDown::Hidden) => Visibility::Hidden,
                    None if per == Per::Player => Visibility::Owner,
                    None if per == Per::Cell => Visibility::Hidden,
                    None => Visibility::Hidden,
                },
            }),
            holds: (!z.holds.is_empty()).then(|| {
                z.holds
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            }),
            slot: slots,
        });
        slots += match per {
            Per::Player => nplayers,
            Per::Game => 1,
            Per::Cell => grid.as_ref().map_or(0, Grid::len),
        };
    }
    a.names
        .declare(Kind::Zone, zones.iter().map(|z| z.id.clone()));
    (zones, slots, grid)
}

/// A grid's rows, columns and holes, or None (noted) if they are not a
/// board.
fn geometry(
    a: &mut Analyzer,
    id: &str,
    g: &GridDef,
    zone: usize,
    params: &[Param],
) -> Option<Grid> {
    let mut size = |what: &str, v: &At<StartValue>, bound: Bound| {
        let what = format!("zone `{id}`: grid `{what}`");
        a.bounded(&what, v, params, bound).map(|n| n as usize)
    };
    let rows = size("rows", &g.rows, bounds::ROWS);
    let columns = size("columns", &g.columns, bounds::COLUMNS);
    let mut grid = Grid::new(zone, rows?, columns?);
    grid.shape = g.shape.unwrap_or_default();
    for h in &g.holes {
        match grid.parse(&h.value) {
            Some(c) => grid.holes[c] = true,
            None => a.invalid(
                format!(
                    "zone `{id}`: `{}` is not a cell of the {}x{} grid (cells `a1` to `{}`)",
                    h.value,
                    grid.rows,
                    grid.columns,
                    grid.names[grid.len() - 1]
                ),
                &h.pos,
            ),
        }
    }
    if grid.cells().next().is_none() {
        a.invalid(
            format!("zone `{id}`: every cell of the grid is a hole"),
            &g.rows.pos,
        );
        return None;
    }
    Some(grid)
}
