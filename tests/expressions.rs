//! Numbers worked out from parameters (`{expr: "2 * num_rows + 1"}`):
//! every field that takes a number takes one, its value follows `--set`,
//! and each problem is said at its column in the expression.

use crate::common::{Test, root};

use tabula::Settings;
use tabula::format::ParamValue;

/// A small game whose numbers are expressions over two parameters.
const GAME: &str = r#"id: sums
players: [{id: a}, {id: b}]
params:
  n: {default: 2, min: 1, max: 60}
  zero: {default: 0}
stats:
  s: {start: {expr: "n * 3 - 1"}, limit: {expr: "max(n, 10)"}}
vars:
  v: {start: {expr: "-(n % 2) + abs(-4)"}}
cards:
  x: {copies: {expr: "n + 1"}}
  f: {numbered: {from: 1, to: {expr: "min(n, 3)"}}}
zones:
  deck: {per: game}
  board: {grid: {rows: {expr: "2 * n + 1"}, columns: {expr: 'n*2+ 1'}}}
dice:
  d: {faces: {expr: "n * 3"}}
setup:
  - put: {zone: deck, cards: [x]}
  - put: {zone: deck, cards: [f], times: {expr: "(n + 1) / 2"}}
flow:
  max_turns: {expr: "100 * n"}
  turn:
    - hook: t
match: {wins: {expr: "n"}, max_games: {expr: "n * 5"}}
"#;

fn folder(game: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("games")).unwrap();
    std::fs::create_dir_all(tmp.path().join("scripts")).unwrap();
    std::fs::write(tmp.path().join("games/sums.yaml"), game).unwrap();
    std::fs::write(
        tmp.path().join("scripts/sums.rhai"),
        "fn t() { end_game(); }\n",
    )
    .unwrap();
    tmp
}

fn load(game: &str, n: i64) -> Result<tabula::Game, tabula::Error> {
    let tmp = folder(game);
    let settings = Settings {
        sets: vec![("n".into(), ParamValue::Int(n))],
        ..Settings::default()
    };
    tabula::load("sums", &tmp.path().join("games"), &settings)
}

#[test]
fn every_number_field_works_out_its_expression_with_the_parameters_in_force() {
    for n in [1, 2, 7] {
        let game = load(GAME, n).unwrap_or_else(|e| panic!("{}", e.render(false)));
        let def = game.def();
        let grid = def.grid.as_ref().unwrap();
        assert_eq!(
            (grid.rows, grid.columns),
            (2 * n as usize + 1, 2 * n as usize + 1)
        );
        assert_eq!(def.stats[0].start, vec![n * 3 - 1; 2]);
        assert_eq!(def.stats[0].limit, Some(n.max(10)));
        assert_eq!(def.vars[0].start, 4 - n % 2);
        assert_eq!(def.cards[0].copies as i64, n + 1);
        assert_eq!(def.cards.len() as i64, 1 + n.min(3));
        assert_eq!(def.dice[0].faces.len() as i64, n * 3);
        assert_eq!(def.max_turns, Some(100 * n));
        assert_eq!(def.match_wins, Some(n as u32));
        assert_eq!(def.match_max_games as i64, n * 5);
    }
}

/// The problem's message and where it is (line, column).
fn problem(game: &str, n: i64) -> (String, u32, u32) {
    let e = load(game, n).err().expect("a problem");
    let at = e.at.clone().expect("a position");
    (e.message, at.line, at.col)
}

#[test]
fn each_problem_is_said_at_its_column_in_the_expression() {
    let edit = |from: &str, to: &str| {
        assert!(GAME.contains(from), "{from}");
        GAME.replacen(from, to, 1)
    };
    // Line 15 is the grid's; `rows: {expr: "` ends at column 33, so the
    // expression's first character is at 34.
    let grid_line = GAME.lines().nth(14).unwrap();
    let first = grid_line.find("2 * n").unwrap() as u32 + 1;
    // A parse error, at the operator that has nothing after it.
    let (msg, line, col) = problem(&edit("2 * n + 1", "2 * n +"), 2);
    assert_eq!((line, col), (15, first + 7), "{msg}");
    assert!(
        msg.contains("zone `board`: grid `rows`: in `2 * n +`"),
        "{msg}"
    );
    assert!(
        msg.contains("ends where a number or a parameter is due"),
        "{msg}"
    );
    // An unknown parameter, at its name, with a did-you-mean.
    let e = load(&edit("2 * n + 1", "2 * nn + 1"), 2).err().unwrap();
    assert_eq!(e.message, "unknown parameter `nn`");
    let at = e.at.clone().unwrap();
    assert_eq!((at.line, at.col), (15, first + 4));
    assert!(
        e.notes.iter().any(|n| n.contains("did you mean `n`")),
        "{:?}",
        e.notes
    );
    // A division by zero, at the operator, with the values read.
    let (msg, line, col) = problem(&edit("2 * n + 1", "2 * n / zero"), 2);
    assert_eq!((line, col), (15, first + 6), "{msg}");
    assert!(
        msg.contains("`2 * n / zero` with n = 2, zero = 0: division by zero"),
        "{msg}"
    );
    // Past the whole numbers.
    let (msg, _, _) = problem(&edit("n * 3 - 1", "n * 9223372036854775807"), 2);
    assert!(msg.contains("past the whole numbers"), "{msg}");
    // In single quotes too: `'n*2+ 1'` has its text one past the quote.
    let quoted = grid_line.find("n*2+").unwrap() as u32 + 1;
    let (msg, line, col) = problem(&edit("n*2+ 1", "n*2+ )"), 2);
    assert_eq!((line, col), (15, quoted + 5), "{msg}");
    // Out of the field's range with these settings: at the field, with
    // the expression and the values it read.
    let (msg, line, _) = problem(GAME, 13);
    assert_eq!(line, 15, "{msg}");
    assert_eq!(
        msg,
        "zone `board`: grid `columns` is 27 (`n*2+ 1`, n = 13): give 1 to 26"
    );
    // Where the field wants a count, not one per player.
    let (msg, _, _) = problem(&edit(r#"{expr: "n + 1"}"#, "{a: 1}"), 2);
    assert!(
        msg.contains("card `x`: `copies` is a number, `{param: NAME}` or `{expr: TEXT}`"),
        "{msg}"
    );
}

#[test]
fn an_expression_of_no_allowed_form_is_said_with_the_forms_to_give() {
    let game = GAME.replacen(r#"{expr: "n + 1"}"#, r#"{expr: "n + 1", extra: 2}"#, 1);
    let tmp = folder(&game);
    Test::new()
        .games_dir(tmp.path().join("games"))
        .args(["check", "sums"])
        .status(1)
        .stderr_has("unknown field `extra` beside `expr`")
        .run();
    let game = GAME.replacen(r#"{expr: "n + 1"}"#, "[n]", 1);
    let tmp = folder(&game);
    Test::new()
        .games_dir(tmp.path().join("games"))
        .args(["check", "sums"])
        .status(1)
        .stderr_has("`{expr: \"2 * NAME + 1\"}`")
        .run();
    // Arithmetic written bare is text to YAML: the message says how to
    // write it.
    let game = GAME.replacen(r#"{expr: "n + 1"}"#, "n + 1", 1);
    let tmp = folder(&game);
    Test::new()
        .games_dir(tmp.path().join("games"))
        .args(["check", "sums"])
        .status(1)
        .stderr_has("sums.yaml:11:")
        .stderr_has("`n + 1` is text here: a number worked out from parameters is written `{expr: \"n + 1\"}`")
        .run();
}

/// Dots and Boxes (tests/reference) sizes its grid and its supply from
/// `num_rows` and `num_cols`: a sweep over the board size plays each size.
#[test]
fn a_sweep_over_the_board_size_plays_every_size() {
    let out = Test::new()
        .games_dir(root().join("tests/reference/games"))
        .args([
            "sweep",
            "dots-and-boxes",
            "num_rows=1..3",
            "--set",
            "num_cols=2",
            "--games",
            "20",
            "--csv",
        ])
        .ok();
    // Every line is drawn: 2RC + R + C turns, one per line.
    for (rows, turns) in [(1, 7), (2, 12), (3, 17)] {
        assert!(
            out.lines()
                .any(|l| l.starts_with(&format!("{rows},")) && l.contains(&format!(",{turns},"))),
            "no {rows} rows in {turns} turns:\n{out}"
        );
    }
}
