//! Bad game files and scripts give a positioned error, never a panic.

use crate::common::Test;
use std::path::{Path, PathBuf};

use tabula::{ErrorKind, Settings};

/// A copy of Experior with `edit` applied to its YAML (and `script` as its
/// script, if given); the load error.
fn broken(
    edit: impl Fn(&str) -> String,
    script: Option<&str>,
) -> (tabula::Error, tempfile::TempDir) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("games")).unwrap();
    std::fs::create_dir_all(tmp.path().join("scripts")).unwrap();
    let yaml = std::fs::read_to_string(root.join("games/experior.yaml")).unwrap();
    std::fs::write(tmp.path().join("games/experior.yaml"), edit(&yaml)).unwrap();
    let rhai = match script {
        Some(s) => s.to_string(),
        None => std::fs::read_to_string(root.join("scripts/experior.rhai")).unwrap(),
    };
    std::fs::write(tmp.path().join("scripts/experior.rhai"), rhai).unwrap();
    let dir = tmp.path().join("games");
    let err = match tabula::load("experior", &dir, &Settings::default()) {
        Ok(_) => panic!("loaded a broken game"),
        Err(e) => e,
    };
    (err, tmp)
}

/// A temporary folder with a copy of Experior's YAML and an empty scripts
/// folder beside it: a test writes the script it needs.
pub(crate) fn experior_copy() -> tempfile::TempDir {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("games")).unwrap();
    std::fs::create_dir_all(tmp.path().join("scripts")).unwrap();
    std::fs::copy(
        root.join("games/experior.yaml"),
        tmp.path().join("games/experior.yaml"),
    )
    .unwrap();
    tmp
}

/// Load the Experior copy in `tmp` with `script`, and play the first turn
/// (both `qs`): what the second move, which runs `resolve`, gives.
fn first_turn(tmp: &Path, script: &str) -> tabula::Result<Vec<tabula::Event>> {
    std::fs::write(tmp.join("scripts/experior.rhai"), script).unwrap();
    let game = tabula::load("experior", &tmp.join("games"), &Settings::default())?;
    let (mut st, _) = tabula::State::new(&game, 1).unwrap();
    let c = st.parse(&game, 0, "qs").unwrap();
    st.act(&game, 0, c).unwrap();
    let c = st.parse(&game, 1, "qs").unwrap();
    st.act(&game, 1, c)
}

fn line_of(path: &Path, needle: &str) -> u32 {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .position(|l| l.contains(needle))
        .expect("needle") as u32
        + 1
}

#[test]
fn yaml_syntax_error_has_a_position() {
    let (e, _t) = broken(
        |y| y.replace("  hand: {name: Hand,", "  hand: {name: Hand,,]"),
        None,
    );
    assert_eq!(e.kind, ErrorKind::Yaml);
    let at = e.at.expect("position");
    assert!(at.file.ends_with("experior.yaml"));
    assert!(at.line > 1);
}

#[test]
fn unknown_key_suggests_the_right_one() {
    let (e, t) = broken(
        |y| y.replace("    simultaneous: true", "    simultanous: true"),
        None,
    );
    assert_eq!(e.kind, ErrorKind::Yaml);
    let at = e.at.clone().expect("position");
    assert_eq!(
        at.line,
        line_of(&t.path().join("games/experior.yaml"), "simultanous")
    );
    assert!(
        e.to_string().contains("did you mean `simultaneous`?"),
        "{e}"
    );
}

#[test]
fn unknown_zone_points_at_the_reference() {
    let (e, t) = broken(|y| y.replace("      from: hand", "      from: hnd"), None);
    assert_eq!(e.kind, ErrorKind::Invalid);
    let at = e.at.clone().expect("position");
    assert_eq!(
        at.line,
        line_of(&t.path().join("games/experior.yaml"), "from: hnd")
    );
    assert_eq!(at.col, 13);
    assert!(e.to_string().contains("unknown zone `hnd`"), "{e}");
    assert!(e.to_string().contains("did you mean `hand`?"), "{e}");
    let rendered = e.render(false);
    assert!(
        rendered.contains("from: hnd"),
        "shows the source line: {rendered}"
    );
}

#[test]
fn unknown_card_and_player_point_at_the_reference() {
    let (e, _) = broken(|y| y.replace("cards: all}", "cards: [quick-swrod]}"), None);
    assert!(e.to_string().contains("unknown card `quick-swrod`"), "{e}");
    assert!(e.at.is_some());
    let (e, _) = broken(
        |y| y.replace("start: {human: 3, elf: 2}", "start: {human: 3, elfs: 2}"),
        None,
    );
    assert!(e.to_string().contains("unknown player `elfs`"), "{e}");
    assert!(e.at.is_some(), "{e}");
}

#[test]
fn hook_missing_from_the_script() {
    let (e, t) = broken(|y| y.replace("then: resolve", "then: resolv"), None);
    assert_eq!(e.kind, ErrorKind::Invalid);
    assert!(e.to_string().contains("no function `resolv`"), "{e}");
    assert_eq!(
        e.at.unwrap().line,
        line_of(&t.path().join("games/experior.yaml"), "then: resolv")
    );
}

#[test]
fn parameter_default_outside_bounds() {
    let (e, t) = broken(
        |y| y.replace("wound_limit: {default: 100,", "wound_limit: {default: 0,"),
        None,
    );
    assert!(
        e.to_string()
            .contains("parameter `wound_limit` is 0: give 1 to 1000000"),
        "{e}"
    );
    assert_eq!(
        e.at.unwrap().line,
        line_of(
            &t.path().join("games/experior.yaml"),
            "wound_limit: {default: 0"
        )
    );
}

#[test]
fn rhai_syntax_error_points_into_the_script() {
    let (e, _) = broken(
        |y| y.to_string(),
        Some("fn resolve(plays) {\n  let x = ;\n}\n"),
    );
    assert_eq!(e.kind, ErrorKind::Script);
    let at = e.at.expect("position");
    assert!(at.file.ends_with("experior.rhai"));
    assert_eq!(at.line, 2);
}

/// A game whose script fails at run time: the error names the hook, the
/// script line and the turn, and the state is unchanged.
#[test]
fn runtime_error_leaves_the_state_as_it_was() {
    let tmp = experior_copy();
    let script = "fn resolve(plays) {\n  add_stat(\"elf\", \"wounds\", 1);\n  add_stat(\"elf\", \"wonds\", 1);\n}\nfn end_of_turn() {}\n";
    std::fs::write(tmp.path().join("scripts/experior.rhai"), script).unwrap();
    let game = tabula::load("experior", &tmp.path().join("games"), &Settings::default()).unwrap();
    let (mut state, _) = tabula::State::new(&game, 1).unwrap();
    let before = format!("{:?}", tabula::view::view(&game, &state, None).unwrap());
    let c = state.parse(&game, 0, "quick-sword").unwrap();
    state.act(&game, 0, c).unwrap();
    let c = state.parse(&game, 1, "quick-bow").unwrap();
    let mid = format!("{:?}", tabula::view::view(&game, &state, None).unwrap());
    let e = state.act(&game, 1, c).expect_err("the script fails");
    assert_eq!(e.kind, ErrorKind::Runtime);
    let text = e.to_string();
    assert!(text.contains("in hook `resolve`"), "{text}");
    assert!(text.contains("unknown stat `wonds`"), "{text}");
    assert!(text.contains("did you mean `wounds`?"), "{text}");
    assert!(text.contains("during turn 1"), "{text}");
    assert_eq!(e.at.unwrap().line, 3);
    assert_eq!(
        format!("{:?}", tabula::view::view(&game, &state, None).unwrap()),
        mid
    );
    assert_ne!(before, mid);
}

#[test]
fn endless_loop_in_a_script_is_stopped() {
    let tmp = experior_copy();
    let e = first_turn(
        tmp.path(),
        "fn resolve(plays) { loop { } }\nfn end_of_turn() {}\n",
    )
    .expect_err("stopped");
    assert!(e.to_string().contains("endless loop"), "{e}");
    // Rhai gives no position for the limit: the hook's own line stands in.
    assert_eq!(e.at.as_ref().map(|a| (a.line, a.col)), Some((1, 1)), "{e}");
}

#[test]
fn imports_come_from_the_scripts_folder_only() {
    let tmp = experior_copy();
    std::fs::write(tmp.path().join("scripts/util.rhai"), "fn helper() { 41 }\n").unwrap();
    let play = |script: &str| first_turn(tmp.path(), script);
    // A helper beside the script is fine.
    let uses = "fn resolve(plays) { import \"util\" as u; if u::helper() != 41 { throw \"bad\"; } }\nfn end_of_turn() {}\n";
    play(uses).unwrap();
    // It is read as the game loads, once: a later edit changes nothing of
    // the loaded game, and is a change of its rules.
    let games = tmp.path().join("games");
    let game = tabula::load("experior", &games, &Settings::default()).unwrap();
    std::fs::write(tmp.path().join("scripts/util.rhai"), "fn helper() { 7 }\n").unwrap();
    let (mut st, _) = tabula::State::new(&game, 1).unwrap();
    for p in [0, 1] {
        let c = st.parse(&game, p, "qs").unwrap();
        st.act(&game, p, c).unwrap();
    }
    let again = tabula::load("experior", &games, &Settings::default()).unwrap();
    assert_ne!(again.fingerprint(), game.fingerprint());
    std::fs::write(tmp.path().join("scripts/util.rhai"), "fn helper() { 41 }\n").unwrap();
    // So is a module that a module's function imports: it is carried too.
    std::fs::write(
        tmp.path().join("scripts/outer.rhai"),
        "fn helper() { import \"inner\" as i; i::helper() }\n",
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("scripts/inner.rhai"),
        "fn helper() { 41 }\n",
    )
    .unwrap();
    let nested = "fn resolve(plays) { import \"outer\" as u; if u::helper() != 41 { throw \"bad\"; } }\nfn end_of_turn() {}\n";
    std::fs::write(tmp.path().join("scripts/experior.rhai"), nested).unwrap();
    let game = tabula::load("experior", &games, &Settings::default()).unwrap();
    std::fs::remove_file(tmp.path().join("scripts/inner.rhai")).unwrap();
    let (mut st, _) = tabula::State::new(&game, 1).unwrap();
    for p in [0, 1] {
        let c = st.parse(&game, p, "qs").unwrap();
        st.act(&game, p, c).unwrap();
    }
    // A module whose own import is missing: said as the chain, at the
    // script's import.
    std::fs::write(
        tmp.path().join("scripts/outer.rhai"),
        "import \"gone\" as g;\nfn helper() { 41 }\n",
    )
    .unwrap();
    let e = play(nested).unwrap_err();
    assert!(
        e.to_string()
            .contains("import `outer`: import `gone`: no script gone.rhai in the scripts folder"),
        "{e}"
    );
    assert_eq!(e.at.as_ref().map(|a| (a.line, a.col)), Some((1, 21)), "{e}");
    let play = |script: &str| first_turn(tmp.path(), script);
    // Climbing out of the folder is not.
    let e = play("fn resolve(plays) { import \"../games/x\" as u; }\nfn end_of_turn() {}\n")
        .unwrap_err();
    assert!(
        e.to_string().contains("from the scripts folder only"),
        "{e}"
    );
    let e = play("fn resolve(plays) { import \"/etc/hostname\" as u; }\nfn end_of_turn() {}\n")
        .unwrap_err();
    assert!(
        e.to_string().contains("from the scripts folder only"),
        "{e}"
    );
    // A helper that is not there.
    let e =
        play("fn resolve(plays) { import \"missing\" as u; }\nfn end_of_turn() {}\n").unwrap_err();
    assert!(
        e.to_string()
            .contains("import `missing`: no script missing.rhai in the scripts folder"),
        "{e}"
    );
    assert_eq!(e.at.as_ref().map(|a| (a.line, a.col)), Some((1, 21)), "{e}");
    // Nor is a link inside the folder that leads out of it.
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.rhai"), "fn helper() { 7 }\n").unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(
            outside.path().join("secret.rhai"),
            tmp.path().join("scripts/secret.rhai"),
        )
        .unwrap();
        let e = play(
            "fn resolve(plays) { import \"secret\" as u; u::helper(); }\nfn end_of_turn() {}\n",
        )
        .unwrap_err();
        assert!(e.to_string().contains("outside the scripts folder"), "{e}");
    }
}

#[test]
fn an_import_cycle_is_an_error_not_a_stack_overflow() {
    let tmp = experior_copy();
    std::fs::write(
        tmp.path().join("scripts/me.rhai"),
        "import \"me\" as again;\nfn f() { 1 }\n",
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("scripts/a.rhai"),
        "import \"b\" as b;\nfn f() { 1 }\n",
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("scripts/b.rhai"),
        "import \"a\" as a;\nfn f() { 2 }\n",
    )
    .unwrap();
    let play = |script: &str| first_turn(tmp.path(), script);
    let e = play("fn resolve(plays) { import \"me\" as m; }\nfn end_of_turn() {}\n").unwrap_err();
    assert!(e.to_string().contains("import cycle: me -> me"), "{e}");
    let e = play("fn resolve(plays) { import \"a\" as m; }\nfn end_of_turn() {}\n").unwrap_err();
    assert!(e.to_string().contains("import cycle: a -> b -> a"), "{e}");
}

/// Runaway recursion, a huge string and a huge array are stopped with an
/// error naming the hook; the game is left as it was.
#[test]
fn sandbox_limits_stop_runaway_scripts() {
    let tmp = experior_copy();
    for body in [
        "fn deep(n) { deep(n + 1) }\nfn resolve(plays) { deep(0) }",
        "fn resolve(plays) { let s = \"x\"; loop { s += s; } }",
        "fn resolve(plays) { let a = []; loop { a.push(1); } }",
        "fn resolve(plays) { eval(\"1\") }",
        // Map keys escape Rhai's string cap: a map of 10,000 keys of 32 KiB
        // (320 MB) is stopped by the memory budget.
        "fn resolve(plays) { let k = \"k\"; while k.len() < 30000 { k += k; } let m = #{}; for i in 0..10000 { m[k + i] = i; } }",
        // Nor may a decision keep them: its data is held to a budget.
        "fn resolve(plays) { let k = \"k\"; while k.len() < 30000 { k += k; } let m = #{}; for i in 0..200 { m[k + i] = i; } ask(\"human\", \"go\", [\"a\"], \"resolve\", #{data: m}); }",
    ] {
        let script = format!("{body}\nfn end_of_turn() {{}}\n");
        std::fs::write(tmp.path().join("scripts/experior.rhai"), &script).unwrap();
        let loaded = tabula::load("experior", &tmp.path().join("games"), &Settings::default());
        let Ok(game) = loaded else {
            // `eval` is refused when the script compiles.
            assert!(body.contains("eval"), "{body}: {}", loaded.err().unwrap());
            continue;
        };
        let (mut st, _) = tabula::State::new(&game, 1).unwrap();
        let c = st.parse(&game, 0, "qs").unwrap();
        st.act(&game, 0, c).unwrap();
        let before = format!("{:?}", tabula::view::view(&game, &st, None).unwrap());
        let c = st.parse(&game, 1, "qs").unwrap();
        let e = st.act(&game, 1, c).expect_err(body);
        assert_eq!(e.kind, ErrorKind::Runtime, "{body}");
        assert!(e.to_string().contains("in hook `resolve`"), "{e}");
        if body.contains("data: m") {
            // The ask, the size it holds and the limit, at the ask's line.
            let t = e.to_string();
            assert!(
                t.contains("ask `go`: its options and data hold 6.3 MiB"),
                "{e}"
            );
            assert!(t.contains("more than the 4 MiB a decision may keep"), "{e}");
        } else if body.contains("30000") {
            assert!(e.to_string().contains("more than 64 MiB of memory"), "{e}");
        }
        assert!(
            e.to_string()
                .contains("resolving {human: quick-sword, elf: quick-sword}"),
            "{e}"
        );
        assert_eq!(
            before,
            format!("{:?}", tabula::view::view(&game, &st, None).unwrap())
        );
    }
}

#[test]
fn check_reports_every_problem_in_a_file() {
    let (e, t) = broken(
        |y| {
            y.replace("      from: hand", "      from: hnd")
                .replace(
                    "  - put: {zone: hand, cards: all}",
                    "  - put: {zone: hand, cards: [quick-swrod]}",
                )
                .replace("    - hook: end_of_turn", "    - hook: end_of_trun")
        },
        None,
    );
    let all: Vec<String> = std::iter::once(e.message.clone())
        .chain(e.also.iter().map(|x| x.message.clone()))
        .collect();
    assert_eq!(all.len(), 3, "{all:?}");
    assert!(all[0].contains("unknown card `quick-swrod`"));
    assert!(all[1].contains("unknown zone `hnd`"));
    assert!(all[2].contains("no function `end_of_trun`"));
    assert!(
        e.also.iter().all(|x| x.at.is_some()),
        "every problem has a position"
    );
    // And the command line shows them all, exit code 1.
    let err = Test::new()
        .games_dir(t.path().join("games"))
        .args(["check", "experior"])
        .status(1)
        .run()
        .stderr;
    assert_eq!(err.matches("error: ").count(), 3, "{err}");
    // Bounds and stat starts are collected with the rest.
    let (e, _t) = broken(
        |y| {
            y.replace("wound_limit: {default: 100,", "wound_limit: {default: 0,")
                .replace("start: {human: 3, elf: 2}", "start: {human: 3, elfs: 2}")
                .replace("      from: hand", "      from: hnd")
        },
        None,
    );
    assert_eq!(e.also.len(), 2, "{}", e.render(false));
}

#[test]
fn a_battery_of_broken_files_each_gets_a_positioned_message() {
    type Edit = fn(&str) -> String;
    let cases: &[(&str, Edit, &str)] = &[
        (
            "wrong type in a list",
            |y| y.replace("  - {id: human, name: Human}", "  - 3"),
            "expected a mapping",
        ),
        (
            "duplicate key",
            |y| y.replace("id: experior\n", "id: experior\nid: again\n"),
            "`id` is given twice in one mapping",
        ),
        (
            "duplicate card",
            |y| {
                y.replace(
                    "  quick-bow: {name: Quick bow",
                    "  quick-sword: {name: Quick bow",
                )
            },
            "`quick-sword` is given twice in one mapping",
        ),
        (
            "misspelt section",
            |y| y.replace("\nflow:", "\nflaw:"),
            "unknown field `flaw`",
        ),
        (
            "wrong type of value",
            |y| {
                y.replace(
                    "wound_limit: {default: 100,",
                    "wound_limit: {default: \"lots\",",
                )
            },
            "parameter `wound_limit` takes a number, not `lots`",
        ),
        (
            "unknown die",
            |y| {
                y.replace(
                    "    - hook: end_of_turn",
                    "    - roll: d20\n      then: resolve",
                )
            },
            "unknown die `d20`",
        ),
        (
            "two kinds in one step",
            |y| {
                y.replace(
                    "    - hook: end_of_turn",
                    "    - hook: end_of_turn\n      roll: d6",
                )
            },
            "exactly one of",
        ),
        (
            "unknown who",
            |y| y.replace("      who: all", "      who: everybody"),
            "unknown `who` `everybody`",
        ),
    ];
    for (what, edit, expect) in cases {
        let (e, _t) = broken(edit, None);
        assert!(e.at.is_some(), "{what}: no position: {e}");
        let text = e.to_string();
        assert!(text.contains(expect), "{what}: {text}");
        assert!(!text.contains("DuplicateKeyPolicy"), "{what}: {text}");
    }
}

#[test]
fn stat_questions_answer_and_reject_bad_names() {
    let tmp = experior_copy();
    let run = |body: &str| {
        let script = format!("fn resolve(plays) {{\n{body}\n}}\nfn end_of_turn() {{}}\n");
        first_turn(tmp.path(), &script)
            .map(|ev| {
                ev.into_iter()
                    .map(|e| match e {
                        tabula::Event::Log { text, .. } => text,
                        other => format!("{other:?}"),
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .map_err(|e| e.to_string())
    };
    // Human: sword 7, bow 2, magic 4; elf: sword 2 (its start).
    let out = run(r#"
        set_stat("human", "sword", 7);
        set_stat("human", "magic", 4);
        let k = ["sword", "bow", "magic"];
        log(`${max_stat("human", k)} ${min_stat("human", k)} ${min_stat("human", ["magic"])}`);
        log(`${compare_stats("human", "sword", "elf", "sword")} ${compare_stats("elf", "sword", "human", "bow")} ${compare_stats("elf", "sword", "human", "magic")}`);
    "#)
    .unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"7 2 4"), "{out}");
    assert!(lines.contains(&"1 0 -1"), "{out}");
    let e = run(r#"max_stat("human", []);"#).unwrap_err();
    assert!(e.contains("at least one stat"), "{e}");
    let e = run(r#"min_stat("human", ["sword", "bwo"]);"#).unwrap_err();
    assert!(e.contains("unknown stat `bwo`"), "{e}");
}

#[test]
fn a_card_moved_from_where_it_is_not_says_where_its_copies_are() {
    // Dots and Boxes took a `dot` from the shared `supply` after setup had
    // put every copy on the board: the error read "`dot` is not in  supply".
    let yaml = "id: dots\nscript: ../scripts/dots.rhai\nplayers: [{id: red}, {id: blue}]\n\
                cards: {dot: {copies: 3}, line: {}}\n\
                zones: {supply: {per: game}, board: {per: game}, hand: {}}\n\
                setup:\n  - put: {zone: supply, cards: [line]}\n  - put: {zone: board, cards: [dot]}\n\
                flow: {turns: rotate, turn: [{hook: play_turn}]}\n";
    let script =
        "fn play_turn() {\n    move_card(\"dot\", \"\", \"supply\", \"blue\", \"hand\");\n}\n";
    let (_tmp, path) = crate::common::game_folder("dots", yaml, script);
    let dir = path.parent().unwrap().to_path_buf();
    let game = tabula::Game::load_path(&path, &dir, &Settings::default(), tabula::Build::default())
        .unwrap();
    let e = tabula::State::new(&game, 0)
        .map(|_| ())
        .expect_err("no dot in supply");
    let text = e.to_string();
    assert!(
        text.contains("move_card: `dot` is not in `supply` (its 3 copies: 3 in `board`)"),
        "{text}"
    );
    assert!(!text.contains("  supply"), "{text}");
}
