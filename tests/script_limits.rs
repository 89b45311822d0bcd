//! What a hook may spend, held to its limits by the API's helpers too
//! (issue #58, the language and the third battery): a helper is charged one
//! operation for each value it builds or looks at, its errors name it, the
//! limit and the script's line, an ask refuses to keep a huge payload in
//! its own name, and a print loop ends with an error that says so. Each is
//! checked in the tree tier against Rhai (`Compile::CheckTree`, which
//! fails on any difference, in operations too) and in Rhai alone.

use crate::common;
use crate::common::Test;

use tabula::{Build, Compile, Game, Settings, State};

/// A 99x26 grid, the largest there is, and a turn hook.
const BIG: &str = r#"
id: big
script: ../scripts/big.rhai
players: [{id: red, name: Red}, {id: blue, name: Blue}]
cards:
  stone: {name: Stone, copies: 12}
zones:
  box: {per: game, show: false}
  board: {name: Board, grid: {rows: 99, columns: 26}}
setup:
  - put: {zone: box, cards: [stone]}
flow:
  turns: rotate
  turn:
    - hook: play_turn
"#;

const END: &str = "\n    ask(active(), \"cell\", [\"a1\", \"b1\"], \"put\");\n}\n\nfn put(choice) {\n    end_game(\"\", \"done\");\n}\n";

/// The error the first turn of `big` ends with, its hook's body `body`
/// (from line 2), compiled and checked against Rhai, and in Rhai alone:
/// both must say the same.
fn first_turn(body: &str) -> String {
    let script = format!("fn play_turn() {{\n{body}{END}");
    let (tmp, path) = common::game_folder("big", BIG, &script);
    let dir = tmp.path().join("games");
    let run = |compile| {
        let game = Game::load_path(
            &path,
            &dir,
            &Settings::default(),
            Build {
                memo: false,
                compile,
            },
        )
        .unwrap();
        match State::new(&game, 1) {
            Err(e) => e.render(false),
            Ok(_) => "ran".to_string(),
        }
    };
    let (checked, rhai) = (run(Compile::CheckTree), run(Compile::Off));
    assert!(!checked.contains("differs from Rhai"), "{checked}");
    assert_eq!(checked, rhai);
    checked
}

#[test]
fn a_helper_called_in_a_loop_is_charged_for_every_value_it_builds() {
    // As a designer writes it: for each empty cell, a score out of all
    // the cells. Each `cells()` builds 2,574 names; the loop asks for 6.6
    // million, in a few thousand operations as Rhai counts them.
    let err = first_turn(
        "    let score = 0;\n    for c in cells() {\n        if piece(c) == () && cells().len() > 0 {\n            score += 1;\n        }\n    }\n",
    );
    assert!(
        err.contains("cells: the hook has used up its 2,000,000 operations: this call charged 2574 for the values it built"),
        "{err}"
    );
    assert!(err.contains("big.rhai:4:30"), "{err}");
    // A helper that looks at every cell is charged for what it looks at.
    let err = first_turn(
        "    let n = 0;\n    for c in cells() {\n        if empty_cells().len() > 0 { n += 1; }\n    }\n",
    );
    assert!(
        err.contains("empty_cells: the hook has used up its 2,000,000 operations"),
        "{err}"
    );
    assert!(err.contains("big.rhai:4:12"), "{err}");
    // Charges met between helpers stop the run where the memory is looked
    // at, and the error counts them.
    let err = first_turn(
        "    let all = cells();\n    for i in 0..700 { all = cells(); }\n    let n = 0;\n    loop { n += 1; }\n",
    );
    assert!(
        err.contains("the script ran more than 2000000 operations in one call, counting 1804374 charged for the values the game's helpers built"),
        "{err}"
    );
    // A function called back for each cell (Rhai counts its operations
    // on a copy it drops) is charged what it runs.
    let err =
        first_turn("    let r = cells().map(|c| { let n = 0; for i in 0..1000 { n += 1; } n });\n");
    assert!(
        err.contains("the script ran more than 2000000 operations in one call, counting"),
        "{err}"
    );
    assert!(err.contains("and for functions called back"), "{err}");
    // One call of each is fine.
    assert_eq!(
        first_turn("    let n = cells().len() + empty_cells().len();\n"),
        "ran"
    );
}

#[test]
fn a_helper_whose_result_passes_a_limit_names_itself_the_limit_and_the_line() {
    let err = first_turn("    let l = lines(5);\n");
    assert!(
        err.contains("lines: 5 cells in a row make 8828 lines on this 99x26 grid, 52,968 items in lists, more than the 10,000 a script value may hold"),
        "{err}"
    );
    assert!(err.contains("big.rhai:2:13"), "{err}");
    // Rhai's own limits, met by the script, are said in the same words.
    let err = first_turn("    let s = \"0123456789abcdef\";\n    loop { s += s; }\n");
    assert!(
        err.contains("a text would pass 64 KiB, the most a script value may hold"),
        "{err}"
    );
}

#[test]
fn an_ask_too_big_to_keep_names_itself_its_size_and_the_limit() {
    // 300 map keys of 20 KB each: 5.7 MiB handed on as the ask's data.
    let err = first_turn(
        "    let pad = \"x\";\n    pad.pad(20000, 'y');\n    let m = #{};\n    for i in 0..300 { m[`${i}${pad}`] = i; }\n    ask(active(), \"big\", [\"a1\"], \"put\", #{data: m});\n",
    );
    assert!(
        err.contains("ask `big`: its options and data hold 5.7 MiB of text (map keys included), more than the 4 MiB a decision may keep"),
        "{err}"
    );
    assert!(err.contains("big.rhai:6:5"), "{err}");
}

/// `play big` with the hook's body `body`: what it wrote on stderr.
fn played(body: &str) -> String {
    let script = format!("fn play_turn() {{\n{body}{END}");
    let (tmp, _) = common::game_folder("big", BIG, &script);
    Test::new()
        .current_dir(tmp.path())
        .args(["play", "big", "--games-dir", "games", "--bot", "red=random"])
        .stdin("quit\n")
        .status(1)
        .run()
        .stderr
}

#[test]
fn an_endless_print_loop_ends_with_an_error_that_says_so() {
    // Long lines: stopped at the print, past its budget a run.
    let err = played(
        "    let s = \"0123456789abcdef\";\n    while s.len() < 4096 { s += s; }\n    loop {\n        print(s);\n    }\n",
    );
    assert!(
        err.contains("big.rhai:5:9: in hook `play_turn`: print: this hook has printed more than 8 MiB in one run (an endless loop?)"),
        "{}",
        &err[err.len().saturating_sub(2000)..]
    );
    // Shown up to its cut, with one note.
    assert!(err.len() < (1 << 20) + 8192, "{} bytes", err.len());
    assert_eq!(err.matches("print output cut at 1 MiB").count(), 1, "{err}");
    // Short lines: the operation limit comes first, and says it printed.
    let err =
        played("    let i = 0;\n    loop {\n        i += 1;\n        print(`line ${i}`);\n    }\n");
    assert!(
        err.contains("ran more than 2000000 operations in one call"),
        "{}",
        &err[err.len().saturating_sub(2000)..]
    );
    assert!(
        err.contains(
            "KiB before it was stopped (print output is shown up to 1 MiB a run of tabula)"
        ),
        "{}",
        &err[err.len().saturating_sub(2000)..]
    );
}
