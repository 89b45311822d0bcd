//! examples/connect-four's hooks in plain Rust: the same asks, options and
//! moves as its script, so a seed plays the same game both ways.

use std::sync::Arc;

use tabula::core::ops::Write;
use tabula::core::{Args, Ask, Call, Choice, Hooks, Value};
use tabula::definition::grid::LINE_DIRECTIONS;
use tabula::{Def, Event, Outcome, State};

use super::{choice_of, no_hook, unit_text};

pub struct ConnectFour {
    /// The board's cells, by cell index: their slots.
    cells: Vec<usize>,
    rows: usize,
    columns: usize,
    x_in_row: usize,
    box_slot: usize,
    /// Each player's disc.
    discs: Vec<tabula::CardIx>,
    /// Each column's letter, as the script's `columns()` gives it.
    letters: Vec<Choice>,
    texts: [Arc<str>; 2],
    reason: Arc<str>,
}

impl ConnectFour {
    pub fn new(def: &Def) -> ConnectFour {
        let g = def.grid.as_ref().expect("a grid");
        let param = |id: &str| def.param(id).expect("param").value as usize;
        let letters = (0..g.columns)
            .map(|c| Choice::Word(Arc::from(tabula::definition::column_name(c).to_string())))
            .collect();
        ConnectFour {
            cells: (0..g.len()).map(|c| def.slot(g.zone, c)).collect(),
            rows: g.rows,
            columns: g.columns,
            x_in_row: param("x_in_row"),
            box_slot: def.slot(def.zone("box").expect("box"), 0),
            discs: (def.players.iter())
                .map(|p| def.card(&format!("{}-disc", p.id)).expect("disc"))
                .collect(),
            letters,
            texts: [unit_text("column"), unit_text("dropped")],
            reason: Arc::from(format!("{} in a row", param("x_in_row"))),
        }
    }

    fn empty(&self, state: &State, cell: usize) -> bool {
        state.slot(self.cells[cell]).is_empty()
    }

    fn top(&self, state: &State, cell: usize) -> Option<tabula::CardIx> {
        state.slot(self.cells[cell]).last().copied()
    }

    /// The lowest empty cell of column `c`.
    fn drop_cell(&self, state: &State, c: usize) -> Option<usize> {
        (0..self.rows)
            .map(|r| r * self.columns + c)
            .find(|&cell| self.empty(state, cell))
    }

    fn in_a_row(&self, state: &State, cell: usize) -> usize {
        let Some(piece) = self.top(state, cell) else {
            return 0;
        };
        let (c0, r0) = ((cell % self.columns) as i64, (cell / self.columns) as i64);
        let mut best = 1;
        for (dc, dr) in LINE_DIRECTIONS {
            let mut run = 1;
            for sign in [1, -1] {
                let (mut c, mut r) = (c0, r0);
                loop {
                    c += dc * sign;
                    r += dr * sign;
                    if c < 0 || r < 0 || c >= self.columns as i64 || r >= self.rows as i64 {
                        break;
                    }
                    if self.top(state, r as usize * self.columns + c as usize) != Some(piece) {
                        break;
                    }
                    run += 1;
                }
            }
            best = best.max(run);
        }
        best
    }
}

impl Hooks for ConnectFour {
    fn run(&self, state: &mut State, call: &Call, _: &mut Vec<Event>) -> tabula::Result<()> {
        match (call.hook, call.args) {
            ("check_discs", _) => {}
            ("play_turn", _) => {
                let open: Vec<Choice> = (0..self.columns)
                    .filter(|&c| self.drop_cell(state, c).is_some())
                    .map(|c| self.letters[c].clone())
                    .collect();
                state.write(&Write::Ask(Arc::new(Ask {
                    name: self.texts[0].clone(),
                    prompt: self.texts[0].clone(),
                    players: [state.active()].into_iter().collect(),
                    options: [open.into()].into_iter().collect(),
                    then: self.texts[1].clone(),
                    labels: Vec::new(),
                    data: Value::Unit,
                    secret: false,
                    pick: None,
                })));
            }
            ("dropped", Args::Choices(players, choices, _)) => {
                let p = players[0];
                let column = (self.letters.iter())
                    .position(|l| l == choice_of(choices, 0))
                    .expect("a column");
                let cell = self.drop_cell(state, column).expect("an open column");
                state.write(&Write::MoveCard {
                    card: self.discs[p],
                    from: self.box_slot,
                    to: self.cells[cell],
                    by: None,
                });
                if self.in_a_row(state, cell) >= self.x_in_row {
                    state.write(&Write::End(Outcome::Win(p), Some(self.reason.clone())));
                } else if (0..self.cells.len()).all(|c| !self.empty(state, c)) {
                    state.write(&Write::End(Outcome::Draw, None));
                }
            }
            _ => return no_hook(call),
        }
        Ok(())
    }

    fn defines(&self, name: &str, _arity: usize) -> bool {
        matches!(name, "check_discs" | "play_turn" | "dropped")
    }
}
