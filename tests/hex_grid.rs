//! Hex grids (`grid: {..., shape: hex}`): a rhombus of hexagons as
//! OpenSpiel's Hex board lays it out, whose neighbours, lines, runs and
//! distances follow the hexagons, drawn with each row half a cell right
//! of the row below.

use crate::common;

use tabula::State;
use tabula::view::{render, view};

const HEXES: &str = r#"
id: hexes
script: ../scripts/hexes.rhai
players: [{id: red, name: Red}, {id: blue, name: Blue}]
cards:
  stone: {name: Stone, copies: 9}
zones:
  box: {per: game, show: false}
  board: {name: Board, grid: {rows: 3, columns: 3, shape: hex}}
setup:
  - put: {zone: box, cards: [stone]}
flow:
  turns: rotate
  turn:
    - hook: play_turn
"#;

const HEXES_SCRIPT: &str = r#"
fn play_turn() {
    log(`neighbours b2 ${neighbours("b2")}; a1 ${neighbours("a1")}; c1 orthogonal ${neighbours("c1", "orthogonal")}; diagonal ${neighbours("b2", "diagonal")}`);
    log(`lines 3: ${lines(3)}`);
    log(`distance a1 c3 ${distance("a1", "c3")}, c1 a3 ${distance("c1", "a3")}, a1 b2 ${distance("a1", "b2")}`);
    ask(active(), "cell", empty_cells(), "put");
}

fn put(choice) {
    let p = choice.keys()[0];
    move_card("stone", "", "box", choice[p], "board");
    log(`in_a_row ${in_a_row(choice[p])}`);
}
"#;

#[test]
fn neighbours_lines_and_distances_follow_the_hexagons() {
    let (_tmp, game) = common::load_folder("hexes", HEXES, HEXES_SCRIPT);
    let (_, events) = State::new(&game, 1).unwrap();
    let said: Vec<String> = events.iter().map(|e| tabula::phrase(&game, e)).collect();
    let want = [
        // Right, up, up-left, left, down, down-right: six in the middle,
        // fewer on the edges; a hexagon has no diagonal neighbour.
        "neighbours b2 [\"c2\", \"b3\", \"a3\", \"a2\", \"b1\", \"c1\"]; a1 [\"b1\", \"a2\"]; c1 orthogonal [\"c2\", \"b2\", \"b1\"]; diagonal []",
        // Three axes: rows (3), columns (3) and one up-left line (c1-b2-a3);
        // a1-b2-c3 is no line on hexagons.
        "lines 3: [[\"a1\", \"b1\", \"c1\"], [\"a1\", \"a2\", \"a3\"], [\"b1\", \"b2\", \"b3\"], [\"c1\", \"c2\", \"c3\"], [\"c1\", \"b2\", \"a3\"], [\"a2\", \"b2\", \"c2\"], [\"a3\", \"b3\", \"c3\"]]",
        // a1 to c3 crosses four hexagons; c1 to a3 lies on an axis (2).
        "distance a1 c3 4, c1 a3 2, a1 b2 2",
    ];
    for w in want {
        assert!(said.iter().any(|l| l == w), "no line `{w}` in {said:#?}");
    }
}

#[test]
fn a_run_follows_an_axis_not_a_square_diagonal() {
    let (_tmp, game) = common::load_folder("hexes", HEXES, HEXES_SCRIPT);
    let (mut st, _) = State::new(&game, 1).unwrap();
    let mut runs = Vec::new();
    for (p, cell) in [("red", "c1"), ("blue", "b2"), ("red", "a3"), ("blue", "c3")] {
        let events = common::play_move(&game, &mut st, &[(p, cell)]);
        runs.extend(events.into_iter().filter(|l| l.starts_with("in_a_row")));
    }
    // c1, b2, a3 lie on one axis (3 in a row when all are stones); b2, c3
    // are a square diagonal, no line on hexagons.
    assert_eq!(
        runs,
        ["in_a_row 1", "in_a_row 2", "in_a_row 3", "in_a_row 1"]
    );
}

#[test]
fn the_board_is_drawn_with_each_row_half_a_cell_right_of_the_one_below() {
    let (_tmp, game) = common::load_folder("hexes", HEXES, HEXES_SCRIPT);
    let (mut st, _) = State::new(&game, 1).unwrap();
    common::play_move(&game, &mut st, &[("red", "a1")]);
    common::play_move(&game, &mut st, &[("blue", "c3")]);
    let text = render(&game, &st, Some(0)).unwrap();
    let want = "  Board:\n    3   . . S\n    2  . . .\n    1 S . .\n      a b c   (S Stone)";
    assert!(text.contains(want), "{text}");
    let json = serde_json::to_value(view(&game, &st, None).unwrap()).unwrap();
    assert_eq!(json["grid"]["shape"], "hex");
}
