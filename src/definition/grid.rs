//! A grid board's geometry: rows x columns, cells named as on a chess
//! board (`a1` is the bottom-left cell: columns `a`, `b`, ... from the
//! left, rows 1, 2, ... from the bottom), some of them holes. The cells
//! are the slots of one zone (`Per::Cell`); this file knows only where
//! they lie, not what is on them.

/// The four directions of a line (right, up, and the two diagonals); the
/// other four are their opposites.
pub const LINE_DIRECTIONS: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The six directions of a hex grid's neighbours, as (columns right, rows
/// up): right, up-right, up-left, left, down-left, down-right as drawn
/// (the row above holds its own column and the one to its left, the row
/// below its own column and the one to its right).
const HEX_NEIGHBOURS: [(i64, i64); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];

/// The three directions of a line on a hex grid: along a row, up its
/// column (drawn up-right), and up the column to the left (up-left).
pub const HEX_LINE_DIRECTIONS: [(i64, i64); 3] = [(1, 0), (0, 1), (-1, 1)];

/// The shape of a grid's cells.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    serde::Deserialize,
    serde::Serialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// Squares: four orthogonal and four diagonal neighbours.
    #[default]
    Square,
    /// Hexagons on a rhombus (OpenSpiel's Hex board), each row drawn half
    /// a cell right of the one below: six neighbours, the two beside in
    /// the row, in the row above its own column and the one to its left,
    /// in the row below its own column and the one to its right.
    Hex,
}

#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Grid {
    /// The zone whose slots are the cells.
    pub zone: usize,
    pub rows: usize,
    pub columns: usize,
    /// Squares or hexagons.
    pub shape: Shape,
    /// By cell index: whether the cell is a hole (not part of the board).
    pub holes: Vec<bool>,
    /// By cell index: its name (`a1`).
    pub names: Vec<String>,
}

/// A column's letter (0: `a`).
pub fn column_name(c: usize) -> char {
    (b'a' + c as u8) as char
}

impl Grid {
    pub fn new(zone: usize, rows: usize, columns: usize) -> Grid {
        let names = (0..rows * columns)
            .map(|i| format!("{}{}", column_name(i % columns), i / columns + 1))
            .collect();
        Grid {
            zone,
            rows,
            columns,
            shape: Shape::Square,
            holes: vec![false; rows * columns],
            names,
        }
    }
    /// Cells, holes included (each has a slot).
    pub fn len(&self) -> usize {
        self.rows * self.columns
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// A cell's index by name, holes included (`a1` is 0, `b1` 1, ...).
    pub fn parse(&self, name: &str) -> Option<usize> {
        let mut chars = name.chars();
        let c = chars.next()?;
        let col = (c.is_ascii_lowercase()).then(|| (c as u8 - b'a') as usize)?;
        let digits = chars.as_str();
        if digits.is_empty()
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let row: usize = digits.parse().ok()?;
        (col < self.columns && (1..=self.rows).contains(&row))
            .then(|| (row - 1) * self.columns + col)
    }
    /// A cell that is on the board (not a hole), by name.
    pub fn cell(&self, name: &str) -> Option<usize> {
        self.parse(name).filter(|&i| !self.holes[i])
    }
    /// A column's index by its letter.
    pub fn column(&self, name: &str) -> Option<usize> {
        let mut chars = name.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_lowercase() => {
                Some((c as u8 - b'a') as usize).filter(|&i| i < self.columns)
            }
            _ => None,
        }
    }
    /// The cell at a column and a row (0-based), if it is on the board.
    pub fn at(&self, column: i64, row: i64) -> Option<usize> {
        let (c, r) = (usize::try_from(column).ok()?, usize::try_from(row).ok()?);
        (c < self.columns && r < self.rows)
            .then(|| r * self.columns + c)
            .filter(|&i| !self.holes[i])
    }
    /// A cell's column and row (0-based).
    pub fn place(&self, cell: usize) -> (i64, i64) {
        ((cell % self.columns) as i64, (cell / self.columns) as i64)
    }
    /// The cell `dc` columns and `dr` rows away, if it is on the board
    /// (a step past the numbers' range is off it).
    pub fn step(&self, cell: usize, dc: i64, dr: i64) -> Option<usize> {
        let (c, r) = self.place(cell);
        self.at(c.checked_add(dc)?, r.checked_add(dr)?)
    }
    /// The cells on the board, row 1 first, each row from column `a`.
    pub fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.len()).filter(|&i| !self.holes[i])
    }
    /// The cells next to `cell`: orthogonal ones first (right, up, left,
    /// down), then diagonal ones, as `which` asks.
    /// On a hex grid the six neighbours are all orthogonal (a hexagon has
    /// no diagonal neighbour).
    pub fn neighbours(&self, cell: usize, orthogonal: bool, diagonal: bool) -> Vec<usize> {
        if self.shape == Shape::Hex {
            if !orthogonal {
                return Vec::new();
            }
            return (HEX_NEIGHBOURS.iter())
                .filter_map(|&(dc, dr)| self.step(cell, dc, dr))
                .collect();
        }
        const ORTHO: [(i64, i64); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
        const DIAG: [(i64, i64); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];
        let mut out = Vec::new();
        for (on, dirs) in [(orthogonal, ORTHO), (diagonal, DIAG)] {
            if on {
                out.extend(dirs.iter().filter_map(|&(dc, dr)| self.step(cell, dc, dr)));
            }
        }
        out
    }
    /// The directions a line runs in: right, up, up-right, down-right on
    /// squares; right, up (drawn up-right), up-left on hexagons.
    pub fn line_directions(&self) -> &'static [(i64, i64)] {
        match self.shape {
            Shape::Square => &LINE_DIRECTIONS,
            Shape::Hex => &HEX_LINE_DIRECTIONS,
        }
    }
    /// The fewest steps from one cell to another, each to a neighbour
    /// (holes not avoided): a king's moves on squares, hexagons crossed on
    /// hexagons.
    pub fn distance(&self, a: usize, b: usize) -> i64 {
        let ((ac, ar), (bc, br)) = (self.place(a), self.place(b));
        let (dc, dr) = (bc - ac, br - ar);
        match self.shape {
            Shape::Square => dc.abs().max(dr.abs()),
            Shape::Hex => (dc.abs() + dr.abs() + (dc + dr).abs()) / 2,
        }
    }
    /// Every line of `n` cells in a row (along a row, a column or a
    /// diagonal; on hexagons, along the three axes) with no hole in it,
    /// each listed from its first cell, in `line_directions` order.
    pub fn lines(&self, n: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        if n == 0 {
            return out;
        }
        for start in self.cells() {
            for &(dc, dr) in self.line_directions() {
                let line: Vec<usize> = (0..n as i64)
                    .map_while(|k| self.step(start, dc * k, dr * k))
                    .collect();
                // A single cell is one line, not four.
                if line.len() == n && (n > 1 || (dc, dr) == (1, 0)) {
                    out.push(line);
                }
            }
        }
        out
    }
    /// The lowest cell of a column that `empty` says is empty: where a
    /// piece dropped into the column lands.
    pub fn drop_cell(&self, column: usize, mut empty: impl FnMut(usize) -> bool) -> Option<usize> {
        (0..self.rows as i64)
            .filter_map(|r| self.at(column as i64, r))
            .find(|&c| empty(c))
    }
}

/// "no cell `z9` on the 3x3 grid (a1 to c3)", or that it is a hole.
pub fn unknown_cell(g: &Grid, name: &str) -> String {
    match g.parse(name) {
        Some(_) => format!("`{name}` is a hole in the grid"),
        None => format!(
            "no cell `{name}` on the {}x{} grid (rows x columns: cells `a1` to `{}`)",
            g.rows,
            g.columns,
            g.names[g.len() - 1]
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_run_from_the_bottom_left() {
        let g = Grid::new(0, 3, 4);
        assert_eq!(g.names[0], "a1");
        assert_eq!(g.names[3], "d1");
        assert_eq!(g.names[4], "a2");
        assert_eq!(g.parse("d3"), Some(11));
        for bad in ["e1", "a4", "a0", "a01", "A1", "a", "", "1a", "a1x", "a+1"] {
            assert_eq!(g.parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn lines_count_as_on_paper() {
        // Tic-tac-toe has 8 lines of 3; Connect Four 69 lines of 4.
        assert_eq!(Grid::new(0, 3, 3).lines(3).len(), 8);
        assert_eq!(Grid::new(0, 6, 7).lines(4).len(), 69);
        assert_eq!(Grid::new(0, 2, 2).lines(1).len(), 4);
        let mut g = Grid::new(0, 3, 3);
        g.holes[4] = true; // b2: only the four edges are left
        assert_eq!(g.lines(3).len(), 4);
        assert_eq!(g.neighbours(0, true, true), vec![1, 3]);
    }

    #[test]
    fn a_piece_drops_to_the_lowest_empty_cell() {
        let g = Grid::new(0, 3, 2);
        let filled = [0usize, 2];
        assert_eq!(g.drop_cell(0, |c| !filled.contains(&c)), Some(4));
        assert_eq!(g.drop_cell(1, |c| !filled.contains(&c)), Some(1));
        assert_eq!(g.drop_cell(0, |_| false), None);
    }
}
