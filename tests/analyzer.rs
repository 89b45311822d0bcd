//! The analyzer reports every independent problem of a game file, each at
//! its file:line:column: one mistake planted in each section of a small
//! game that uses them all (tests/games/every-section.yaml).

use crate::common;

use std::path::Path;

use tabula::{Error, Settings};

/// The test game with each `(from, to)` edit applied, loaded from a copy.
fn load_edited(edits: &[(&str, &str)]) -> (Result<tabula::Game, Error>, tempfile::TempDir) {
    let tmp = common::every_section_copy(edits, None);
    let game = tabula::load(
        "every-section",
        &tmp.path().join("games"),
        &Settings::default(),
    );
    (game, tmp)
}

/// The 1-based line of the first line of `path` containing `needle`.
fn line_of(path: &Path, needle: &str) -> u32 {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i as u32 + 1)
        .unwrap_or_else(|| panic!("no `{needle}` in {}", path.display()))
}

#[test]
fn the_test_game_is_valid() {
    let (game, _tmp) = load_edited(&[]);
    let game = game.unwrap();
    let c = game.def().capabilities;
    assert_eq!(c.players, 2);
    assert!(c.simultaneous && c.chance_after_setup && c.hidden_information);
}

#[test]
fn one_mistake_in_every_section_gives_every_problem_at_its_line() {
    // (section, edit, what the message says, the edited line's text)
    let plants: &[(&str, (&str, &str), &str, &str)] = &[
        (
            "players",
            (
                "  - {id: blue, name: Blue}",
                "  - {id: blue, name: Blue}\n  - {id: red, name: Again}",
            ),
            "duplicate player `red`",
            "name: Again",
        ),
        (
            "parameters",
            ("goal: {default: 3,", "goal: {default: 30,"),
            "parameter `goal` = 30 is outside its bounds 1..=9",
            "default: 30",
        ),
        (
            "stats",
            ("start: {param: goal}", "start: {param: gaol}"),
            "unknown parameter `gaol`",
            "param: gaol",
        ),
        (
            "cards",
            ("names: {blue: Uno}", "names: {green: Uno}"),
            "`names` has no player `green`",
            "green: Uno",
        ),
        (
            "dice",
            ("faces: [heads, tails]", "faces: []"),
            "die `d2` has no faces",
            "faces: []",
        ),
        (
            "board",
            ("position: square", "position: sqare"),
            "unknown stat `sqare`",
            "position: sqare",
        ),
        (
            "setup",
            ("cards: [one, two]", "cards: [one, tow]"),
            "unknown card `tow`",
            "cards: [one, tow]",
        ),
        (
            "flow (a var)",
            ("set: face", "set: fase"),
            "unknown var `fase`",
            "set: fase",
        ),
        (
            "flow (a zone)",
            ("from: hand", "from: hnd"),
            "unknown zone `hnd`",
            "from: hnd",
        ),
        (
            "flow (a hook)",
            ("then: resolve", "then: reslove"),
            "no function `reslove` taking one argument",
            "then: reslove",
        ),
        (
            "variants",
            ("set: {goal: 5}", "set: {gaol: 5}"),
            "unknown parameter `gaol`",
            "gaol: 5",
        ),
    ];
    let edits: Vec<(&str, &str)> = plants.iter().map(|(_, e, _, _)| *e).collect();
    let (game, tmp) = load_edited(&edits);
    let Err(e) = game else {
        panic!("a broken game loaded")
    };
    let all: Vec<&Error> = std::iter::once(&e).chain(&e.also).collect();
    let file = tmp.path().join("games/every-section.yaml");
    for (section, _, says, line_text) in plants {
        let line = line_of(&file, line_text);
        let here = |p: &&&Error| {
            p.message.contains(says)
                && p.at
                    .as_ref()
                    .is_some_and(|at| at.file == file && at.line == line && at.col >= 1)
        };
        assert!(
            all.iter().any(|p| here(&p)),
            "{section}: no `{says}` at line {line} in\n{}",
            e.render(false)
        );
    }
    assert_eq!(all.len(), plants.len(), "{}", e.render(false));
}

#[test]
fn unknown_names_suggest_the_nearest() {
    let (game, _tmp) = load_edited(&[("from: hand", "from: hnd")]);
    let e = game.err().unwrap();
    assert!(e.notes.iter().any(|n| n.contains("hand")), "{e}");
}
