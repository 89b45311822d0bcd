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
            "parameter `goal` is 30: give 1 to 9",
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

#[test]
fn every_number_out_of_its_range_is_refused_at_its_value() {
    // (edits, the whole message, the edited line, the value on it the
    // message points at). Each alone: an out-of-range number is one
    // problem, said with its field, the value given and the range.
    let zero = (
        "goal: {default: 3, min: 1, max: 9}",
        "goal: {default: 3, min: 1, max: 9}\n  zero: {default: 0}\n  neg: {default: -3}",
    );
    let in_match = |m: &'static str| ("variants:", m);
    type Case<'a> = (&'a [(&'a str, &'a str)], &'a str, &'a str, &'a str);
    let cases: &[Case] = &[
        (
            &[in_match("match: {wins: 0}\nvariants:")],
            "`match: wins` is 0: give 1 to 1000",
            "match: {wins: 0}",
            "0",
        ),
        (
            &[in_match("match: {wins: 1099511627776}\nvariants:")],
            "`match: wins` is 1099511627776: give 1 to 1000",
            "match: {wins: 1099511627776}",
            "1099511627776",
        ),
        (
            &[in_match("match: {wins: 2, max_games: 0}\nvariants:")],
            "`match: max_games` is 0: give 1 to 10000",
            "max_games: 0",
            "0",
        ),
        (
            &[in_match("match: {wins: 5, max_games: 3}\nvariants:")],
            "`match: max_games` is 3, fewer than the 5 `wins` that win the match: no one could win it; give `max_games` at least 5",
            "max_games: 3",
            "3",
        ),
        (
            &[in_match("match: {wins: 30}\nvariants:")],
            "`match: max_games` is 20 (the default), fewer than the 30 `wins`",
            "match: {wins: 30}",
            "30",
        ),
        (
            &[("max_turns: 10", "max_turns: 0")],
            "`max_turns` is 0: give 1 to 1000000",
            "max_turns: 0",
            "0",
        ),
        (
            &[zero, ("max_turns: 10", "max_turns: {param: zero}")],
            "`max_turns` is 0 (parameter `zero`): give 1 to 1000000",
            "max_turns: {param: zero}",
            "{param: zero}",
        ),
        (
            &[("params:", "player_count: 3\nparams:")],
            "`player_count` is 3: give 1 to 2",
            "player_count: 3",
            "3",
        ),
        (
            &[("two: {name: Two}", "two: {name: Two, copies: -1}")],
            "card `two`: `copies` is -1: give 0 to 100000",
            "copies: -1",
            "-1",
        ),
        (
            &[
                zero,
                ("two: {name: Two}", "two: {name: Two, copies: {param: neg}}"),
            ],
            "card `two`: `copies` is -3 (parameter `neg`): give 0 to 100000",
            "copies: {param: neg}",
            "{param: neg}",
        ),
        (
            &[("cards: [one, two]}", "cards: [one, two], count: -2}")],
            "setup `put` into `hand`: `count` is -2: give 0 to 100000",
            "count: -2",
            "-2",
        ),
        (
            &[("cards: [one, two]}", "cards: [one, two], times: 0}")],
            "setup `put` into `hand`: `times` is 0: give 1 to 100",
            "times: 0",
            "0",
        ),
        (
            &[("d2: {faces: [heads, tails]}", "d2: {faces: 0}")],
            "die `d2`: `faces` is 0: give 1 to 1000",
            "d2: {faces: 0}",
            "0",
        ),
        (
            &[(
                "d2: {faces: [heads, tails]}",
                "d2: {faces: [heads, tails], count: 1001}",
            )],
            "die `d2`: `count` is 1001: give 1 to 1000",
            "count: 1001",
            "1001",
        ),
        (
            &[("size: 5", "size: 0")],
            "`board: size` is 0: give 1 to 100000",
            "size: 0",
            "0",
        ),
        (
            &[("size: 5", "size: 5\n  terrain: {pit: [2, -1]}")],
            "a square of terrain `pit` is -1: give 0 or more",
            "pit: [2, -1]",
            "-1",
        ),
        (
            &[(
                "pile: {per: game}",
                "pile: {per: game}\n  grid: {grid: {rows: 100, columns: 3}}",
            )],
            "zone `grid`: grid `rows` is 100: give 1 to 99",
            "rows: 100",
            "100",
        ),
        (
            &[(
                "two: {name: Two}",
                "two: {name: Two}\n  num: {numbered: {from: 5, to: 3}}",
            )],
            "card `num`: `numbered` from 5 to 3 makes 0 cards: give `to` at least `from`",
            "to: 3",
            "3",
        ),
        (
            &[("min: 1, max: 9}", "min: 9, max: 1}")],
            "parameter `goal`: `min` is 9 and `max` 1: no value is both; give `min` at most `max`",
            "min: 9, max: 1",
            "1",
        ),
    ];
    for (edits, says, line_text, value) in cases {
        let (game, tmp) = load_edited(edits);
        let Err(e) = game else {
            panic!("loaded with {edits:?}")
        };
        let all: Vec<&Error> = std::iter::once(&e).chain(&e.also).collect();
        assert_eq!(all.len(), 1, "{says}: {}", e.render(false));
        assert!(e.message.contains(says), "{says}: {}", e.render(false));
        let file = tmp.path().join("games/every-section.yaml");
        let line = line_of(&file, line_text);
        let text = std::fs::read_to_string(&file).unwrap();
        let l = text.lines().nth(line as usize - 1).unwrap();
        let col = l.find(line_text).unwrap() + line_text.rfind(value).unwrap() + 1;
        let at = e.at.as_ref().map(|p| (p.line, p.col as usize));
        assert_eq!(at, Some((line, col)), "{says}: {}", e.render(false));
    }
}
