//! Grid boards (a zone with `grid:`): cells named `a1` from the bottom
//! left, the script's grid helpers, setup on a cell, the errors a designer
//! meets, and the board as players and `--json` see it.

use crate::common;

use tabula::view::{render, view};
use tabula::{Game, State};

const SHAPES: &str = r#"
id: shapes
script: ../scripts/shapes.rhai
players: [{id: red, name: Red}, {id: blue, name: Blue}]
cards:
  stone: {name: Stone, copies: 12}
  gem: {name: Gem, symbol: "*"}
zones:
  box: {per: game, show: false}
  board: {name: Board, grid: {rows: 3, columns: 4, holes: [d3]}}
setup:
  - put: {zone: box, cards: [stone]}
  - put: {zone: board, cell: b2, cards: [stone], count: 1}
  - put: {zone: board, cell: c3, cards: [gem]}
flow:
  turns: rotate
  turn:
    - hook: play_turn
"#;

/// Logs what every helper says, then asks for an empty cell.
const SHAPES_SCRIPT: &str = r#"
fn play_turn() {
    log(`cells ${cells().len()}: ${cells()}`);
    log(`columns ${columns()}`);
    log(`piece b2 ${piece("b2")}, a1 ${piece("a1") == ()}, c3 ${piece("c3")}`);
    log(`neighbours a1 ${neighbours("a1")}; b2 diagonal ${neighbours("b2", "diagonal")}; d2 orthogonal ${neighbours("d2", "orthogonal")}`);
    log(`offset c3 ${offset("c3", 1, 0) == ()}, a1 ${offset("a1", 2, 1)}, far ${offset("c3", 9223372036854775807, -9223372036854775807 - 1) == ()}`);
    log(`lines 3: ${lines(3).len()}, first ${lines(3)[0]}; lines 4: ${lines(4).len()}`);
    log(`drop b ${drop_cell("b")}, c ${drop_cell("c")}`);
    log(`row_of c3 ${row_of("c3")}, column_of c3 ${column_of("c3")}`);
    log(`in_a_row b2 ${in_a_row("b2")}, a1 ${in_a_row("a1")}`);
    log(`count b2 ${count("b2", "board")}, cards c3 ${cards("c3", "board")}`);
    ask(active(), "cell", empty_cells(), "put");
}

fn put(choice) {
    let p = choice.keys()[0];
    move_card("stone", "", "box", choice[p], "board");
    if in_a_row(choice[p]) >= 3 {
        end_game(p, "three stones in a row");
    }
}
"#;

fn shapes() -> (tempfile::TempDir, Game) {
    common::load_folder("shapes", SHAPES, SHAPES_SCRIPT)
}

#[test]
fn the_helpers_read_the_board_as_drawn_on_paper() {
    let (_tmp, game) = shapes();
    let (st, events) = State::new(&game, 1).unwrap();
    let said: Vec<String> = events.iter().map(|e| tabula::phrase(&game, e)).collect();
    let want = [
        // 3 rows x 4 columns, d3 a hole: 11 cells, row 1 first.
        "cells 11: [\"a1\", \"b1\", \"c1\", \"d1\", \"a2\", \"b2\", \"c2\", \"d2\", \"a3\", \"b3\", \"c3\"]",
        "columns [\"a\", \"b\", \"c\", \"d\"]",
        "piece b2 stone, a1 true, c3 gem",
        // Orthogonal first (right, up, left, down), then diagonal; none off
        // the board or on the hole.
        "neighbours a1 [\"b1\", \"a2\", \"b2\"]; b2 diagonal [\"c3\", \"a3\", \"a1\", \"c1\"]; d2 orthogonal [\"c2\", \"d1\"]",
        // A step past the numbers' range is off the board, not an overflow.
        "offset c3 true, a1 c2, far true",
        // Rows: 2 + 2 + 1 (not b3-d3), columns: a, b, c (not d), diagonals:
        // a1-c3, a3-c1, b3-d1 (not b1-d3): 11. Of 4: rows 1 and 2.
        "lines 3: 11, first [\"a1\", \"b1\", \"c1\"]; lines 4: 2",
        "drop b b1, c c1",
        "row_of c3 3, column_of c3 c",
        "in_a_row b2 1, a1 0",
        "count b2 1, cards c3 [\"gem\"]",
    ];
    for w in want {
        assert!(said.iter().any(|l| l == w), "no line `{w}` in {said:#?}");
    }
    let opts: Vec<String> = st
        .legal(0)
        .iter()
        .map(|c| c.text(&game).to_string())
        .collect();
    assert_eq!(
        opts,
        ["a1", "b1", "c1", "d1", "a2", "c2", "d2", "a3", "b3"],
        "the empty cells, b2 and c3 taken, d3 a hole"
    );
}

#[test]
fn a_line_of_three_through_the_last_piece_wins() {
    let (_tmp, game) = shapes();
    let (mut st, _) = State::new(&game, 1).unwrap();
    // b2 holds a stone from setup: a1, c3 is a gem (not a stone), so the
    // diagonal a1-b2-c3 is no line; b1, b3 make the column.
    common::play_move(&game, &mut st, &[("red", "a1")]);
    assert!(st.outcome().is_none());
    common::play_move(&game, &mut st, &[("blue", "b1")]);
    assert!(
        st.outcome().is_none(),
        "a1, b1 with b2: no line of three yet"
    );
    common::play_move(&game, &mut st, &[("red", "b3")]);
    let v = view(&game, &st, None).unwrap();
    assert_eq!(v.winner.as_deref(), Some("red"), "b1-b2-b3");
    assert_eq!(v.reason.as_deref(), Some("three stones in a row"));
}

#[test]
fn the_board_is_drawn_with_the_top_row_first_and_a_legend() {
    let (_tmp, game) = shapes();
    let (mut st, _) = State::new(&game, 1).unwrap();
    common::play_move(&game, &mut st, &[("red", "a1")]);
    let text = render(&game, &st, Some(0)).unwrap();
    let want =
        "  Board:\n    3 . . *  \n    2 . S . .\n    1 S . . .\n      a b c d   (S Stone, * Gem)";
    assert!(text.contains(want), "{text}");
    // --json: rows from the top, null for empty cells and the hole.
    let v = view(&game, &st, None).unwrap();
    let g = v.grid.expect("a grid in the view");
    assert_eq!(g.zone, "board");
    assert_eq!(g.row_numbers, [3, 2, 1]);
    let row = |r: &[Option<&str>]| r.iter().map(|c| c.map(str::to_string)).collect::<Vec<_>>();
    assert_eq!(
        g.rows,
        [
            row(&[None, None, Some("gem"), None]),
            row(&[None, Some("stone"), None, None]),
            row(&[Some("stone"), None, None, None]),
        ]
    );
    assert_eq!(g.holes, ["d3"]);
    // Each cell under `zones`, by name; the hole is not a place.
    assert_eq!(v.zones["board"].len(), 11);
    assert!(!v.zones["board"].contains_key("d3"));
    let json = serde_json::to_value(view(&game, &st, Some(1)).unwrap()).unwrap();
    assert_eq!(json["zones"]["board"]["a1"], serde_json::json!(["stone"]));
    assert_eq!(json["grid"]["rows"][2][0], "stone");
}

#[test]
fn a_hidden_grid_shows_where_pieces_are_but_not_what() {
    let yaml = SHAPES.replace("grid: {rows: 3", "visibility: hidden, grid: {rows: 3");
    let (_tmp, game) = common::load_folder("shapes", &yaml, SHAPES_SCRIPT);
    let (st, _) = State::new(&game, 1).unwrap();
    let text = render(&game, &st, Some(0)).unwrap();
    assert!(text.contains("    2 . ? . ."), "{text}");
    assert!(!text.contains("Stone"), "{text}");
    let g = view(&game, &st, Some(0)).unwrap().grid.unwrap();
    assert_eq!(g.rows[1][1].as_deref(), Some("?"));
}

#[test]
fn a_cell_off_the_board_is_an_error_that_names_the_cells() {
    for (call, says) in [
        (
            "piece(\"e1\")",
            "no cell `e1` on the 3x4 grid (rows x columns: cells `a1` to `d3`)",
        ),
        ("piece(\"d3\")", "`d3` is a hole in the grid"),
        (
            "drop_cell(\"z\")",
            "drop_cell: no column `z` (columns a to d)",
        ),
        (
            "neighbours(\"a1\", \"round\")",
            "`round` is not a kind of neighbour",
        ),
        ("lines(0)", "lines: 0 cells in a row: give at least 1"),
        (
            "move_card(\"stone\", \"\", \"box\", \"a0\", \"board\")",
            "no cell `a0`",
        ),
    ] {
        let script = SHAPES_SCRIPT.replace(
            "fn play_turn() {",
            &format!("fn play_turn() {{\n    {call};"),
        );
        let (tmp, path) = common::game_folder("shapes", SHAPES, &script);
        let dir = tmp.path().join("games");
        let loaded = Game::load_path(&path, &dir, &Default::default(), tabula::Build::default());
        let err = match loaded.and_then(|g| State::new(&g, 1).map(|_| ())) {
            Err(e) => e.render(false),
            Ok(()) => panic!("{call} ran"),
        };
        assert!(err.contains(says), "{call}: {err}");
        assert!(
            err.contains("shapes.rhai:3:"),
            "{call}: no position in {err}"
        );
    }
}

#[test]
fn a_grid_the_file_gets_wrong_is_refused_where_it_is_written() {
    for (from, to, says) in [
        (
            "grid: {rows: 3,",
            "per: game, grid: {rows: 3,",
            "takes no `per:`",
        ),
        (
            "grid: {rows: 3,",
            "grid: {rows: 0,",
            "zone `board`: grid `rows` is 0: give 1 to 99",
        ),
        (
            "columns: 4,",
            "columns: 27,",
            "zone `board`: grid `columns` is 27: give 1 to 26",
        ),
        (
            "holes: [d3]",
            "holes: [e9]",
            "`e9` is not a cell of the 3x4 grid",
        ),
        ("cell: b2, ", "", "zone `board` is a grid: say the cell"),
        ("cell: c3, ", "cell: z9, ", "no cell `z9` on the 3x4 grid"),
        (
            "zone: box, cards",
            "zone: box, cell: a1, cards",
            "zone `box` is not a grid",
        ),
        (
            "box: {per: game, show: false}",
            "box: {per: game, show: false, grid: {rows: 1, columns: 1}}",
            "is a second grid",
        ),
        (
            "gem: {name: Gem, symbol: \"*\"}",
            "gem: {name: Gem, symbol: \"**\"}",
            "`symbol` is one character",
        ),
        (
            "board: {name: Board,",
            "board: {name: Board, visibility: owner,",
            "its cells belong to no player",
        ),
    ] {
        let yaml = SHAPES.replacen(from, to, 1);
        assert_ne!(yaml, SHAPES, "{from}");
        common::refused("shapes", &yaml, SHAPES_SCRIPT, says, 2);
    }
}

#[test]
fn connect_four_follows_its_parameters() {
    let dir =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/connect-four/games");
    let load =
        |sets: &[(&str, i64)]| tabula::load("connect-four", &dir, &common::settings(&[], sets));
    let game = load(&[("rows", 2), ("columns", 3), ("x_in_row", 2)]).unwrap();
    let (mut st, _) = State::new(&game, 0).unwrap();
    common::play_move(&game, &mut st, &[("red", "a")]);
    common::play_move(&game, &mut st, &[("yellow", "a")]);
    // Column a is full: only b and c are offered.
    let opts: Vec<String> = st
        .legal(0)
        .iter()
        .map(|c| c.text(&game).to_string())
        .collect();
    assert_eq!(opts, ["b", "c"]);
    let said = common::play_move(&game, &mut st, &[("red", "b")]);
    assert!(
        said.iter()
            .any(|l| l == "Red drops a disc into column b, on b1."),
        "{said:?}"
    );
    assert_eq!(
        view(&game, &st, None).unwrap().winner.as_deref(),
        Some("red"),
        "a1-b1"
    );
    // Too few discs for the board is the setup's error, in its words.
    let Err(e) = load(&[("discs", 10)]).and_then(|g| State::new(&g, 0).map(|_| ())) else {
        panic!("10 discs each filled 42 cells")
    };
    assert!(
        e.render(false)
            .contains("10 discs of each colour cannot fill 6x7 cells"),
        "{}",
        e.render(false)
    );
}
