//! Position files against their schema (docs/save.schema.json, from the
//! types a save is read into) and the loader: every class of bad file is
//! refused at load, at its file, line and column, never with a panic.

use std::path::PathBuf;

use crate::common::{self, Test};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn reference() -> PathBuf {
    root().join("tests/reference/games")
}

/// Breakthrough 5x4 with Black one step from the far row (line 4 is the
/// turn, 5 who is active, 6 the stats, 10 the board).
const GOOD: &str = common::BREAKTHROUGH_BLACK_WINS;

/// Each class of bad entry: what is changed in `GOOD` (`from` -> `to`),
/// and what the refusal says, from the file's line and column on.
const BAD: &[(&str, &str, &str, &str)] = &[
    (
        "a turn that is not a number",
        "turn: 9",
        "turn: nine",
        "f.yaml:4:9: not a valid replay file: a whole number is expected here (from 0 to 4294967295)",
    ),
    (
        "a stat that is not a number",
        "{black: {pawns: 1}",
        "{black: {pawns: many}",
        "f.yaml:6:26: not a valid replay file: a whole number is expected here",
    ),
    (
        "a pile that is not a list",
        "board: {a2",
        "bord: 7\n    board: {a2",
        "f.yaml:10:5: not a valid replay file: invalid type: integer `7`, expected a list of cards",
    ),
    (
        "the section not a mapping",
        "position:\n  turn: 9",
        "position: [9]\nx:\n  turn: 9",
        "f.yaml:3:11: not a valid replay file: expected a mapping here",
    ),
    (
        "an unknown key",
        "turn: 9",
        "turn: 9\n  colour: red",
        "f.yaml:5:3: not a valid replay file: unknown field `colour`",
    ),
    (
        "an unknown card",
        "d1: [white-pawn]",
        "d1: [queen]",
        "f.yaml:10:36: no card `queen` (there are: black-pawn, white-pawn)",
    ),
    (
        "a card in two places",
        "d1: [white-pawn]",
        "d1: [white-pawn, black-pawn]",
        "f.yaml:10:48: card `black-pawn` is placed 9 times: the game has 8 copies (first at line 8, column 11)",
    ),
    (
        "a card missing",
        "d1: [white-pawn]",
        "d1: []",
        "f.yaml:4:3: card `white-pawn` is placed 7 time(s): the game has 8 copies",
    ),
    (
        "a cell that does not exist",
        "d1: [white-pawn]",
        "z9: [white-pawn]",
        "f.yaml:10:31: no cell `z9`",
    ),
    (
        "a player's index",
        "active: black",
        "active: 2",
        "f.yaml:5:11: no player `2` (there are: black, white)",
    ),
    (
        "an unknown player's stats",
        "stats: {black:",
        "stats: {blak:",
        "f.yaml:6:11: no player `blak`: did you mean `black`?",
    ),
    (
        "an unknown stat",
        "{black: {pawns: 1}",
        "{black: {pawnz: 1}",
        "f.yaml:6:19: no stat `pawnz`: did you mean `pawns`?",
    ),
    (
        "an unknown var",
        "turn: 9",
        "turn: 9\n  vars: {moves: 3}",
        "f.yaml:5:10: no var `moves` (the game has none)",
    ),
    (
        "a card known to a player who does not exist",
        "d1: [white-pawn]",
        "d1: [{card: white-pawn, known: [grey]}]",
        "f.yaml:10:36: no player `grey` (there are: black, white)",
    ),
    (
        "a card from a player who does not exist",
        "d1: [white-pawn]",
        "d1: [{card: white-pawn, from: grey}]",
        "f.yaml:10:36: zone `board` does not record where cards came from",
    ),
    (
        "a turn past any game's",
        "turn: 9",
        "turn: 4294967295",
        "f.yaml:4:9: a turn past 1000000",
    ),
    (
        "a step that does not exist",
        "turn: 9",
        "turn: 9\n  step: 7",
        "f.yaml:5:9: no step 7: the turn has 1 step(s), from 1",
    ),
    (
        "a decision for a player who does not exist",
        "d1: [white-pawn]}",
        "d1: [white-pawn]}\nmoves:\n  - {grey: a2b1}",
        "f.yaml:12:5: move 1: unknown player `grey`",
    ),
];

#[test]
fn every_bad_position_is_refused_where_it_is_wrong() {
    assert!(BAD.len() >= 15);
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("f.yaml");
    for (what, from, to, said) in BAD {
        assert!(GOOD.contains(from), "{what}: `{from}` is not in the file");
        let text = GOOD.replacen(from, to, 1);
        std::fs::write(&path, &text).unwrap();
        Test::new()
            .games_dir(reference())
            .args(["replay"])
            .arg(&path)
            .status(1)
            .stderr_has(*said)
            .run();
    }
    // And the file itself is good.
    std::fs::write(&path, GOOD).unwrap();
    Test::new()
        .games_dir(reference())
        .args(["replay"])
        .arg(&path)
        .stdout_has("turn 9")
        .run();
}

fn schema() -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("docs/save.schema.json")).unwrap();
    jsonschema::validator_for(&serde_json::from_str(&text).unwrap()).unwrap()
}

fn doc(text: &str) -> serde_json::Value {
    serde_saphyr::from_str(text).unwrap()
}

#[test]
fn the_shipped_save_schema_is_generated_from_the_format() {
    let shipped = std::fs::read_to_string(root().join("docs/save.schema.json")).unwrap();
    assert_eq!(
        shipped.trim_end(),
        tabula::replay::schema().trim_end(),
        "docs/save.schema.json is stale: run `tabula schema save > docs/save.schema.json`"
    );
    let out = Test::new().args(["schema", "save"]).ok();
    assert_eq!(out.trim_end(), shipped.trim_end());
}

/// Position files validate, those written by `save-position` included
/// (cards known to players), and a file of the wrong shape does not.
#[test]
fn position_files_validate_against_the_save_schema() {
    let v = schema();
    let tmp = tempfile::tempdir().unwrap();
    let save = tmp.path().join("s.yaml");
    std::fs::write(
        &save,
        "game: braverats\nseed: 5\nmoves:\n  - {red: spy, blue: wizard}\n",
    )
    .unwrap();
    let written = Test::new().args(["save-position"]).arg(&save).ok();
    let known =
        "game: hearts\nposition:\n  zones:\n    hand: {north: [2c, {card: 3c, known: [east]}]}\n";
    for good in [GOOD, written.as_str(), known] {
        let errors: Vec<String> = v.iter_errors(&doc(good)).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:?}\n{good}");
    }
    for (what, from, to, _) in &BAD[..5] {
        let bad = GOOD.replacen(from, to, 1);
        assert!(!v.is_valid(&doc(&bad)), "the schema takes {what}:\n{bad}");
    }
    for bad in [
        "game: x\nposition: {turn: 0}\n",
        "game: x\nposition: {zones: {hand: {red: [{card: spy, face: up}]}}}\n",
        "game: x\nposition: {zones: {hand: [{down: true}]}}\n",
        "game: x\nposition: {zones: {hand: [{card: spy, known: red}]}}\n",
        "game: x\nmoves: [[spy]]\n",
    ] {
        assert!(!v.is_valid(&doc(bad)), "the schema takes:\n{bad}");
    }
}
