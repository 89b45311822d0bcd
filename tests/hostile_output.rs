//! What reaches a terminal, a chart or a spreadsheet from a game file, a
//! script or a shard is escaped or refused; shards that do not add up are
//! refused with their file and what is wrong; a payoff near the integer
//! range gives a true confidence interval (issue #28, in part).

use crate::common;
use crate::common::Test;

use std::path::Path;
use std::process::Output;

use serde_json::Value;
use tabula::{Build, Game, Settings};

/// A coin game: red calls heads or tails; heads wins red `BIG` points.
const GAME: &str = "\
id: hostile
name: Hostile
script: ../scripts/hostile.rhai
players:
  - {id: red}
  - {id: blue}
params:
  mode: {default: calm, values: [calm, wild]}
stats:
  points: {start: 0}
cards:
  gem: {aliases: [jewel]}
zones:
  box: {per: game, visibility: public}
flow:
  turn:
    - hook: prompt
variants:
  quick:
    set: {mode: wild}
payoff: points
";

const SCRIPT: &str = r#"
fn prompt() {
    ask("red", "call", ["heads", "tails"], "went");
}
fn went(choice) {
    if choice.red == "heads" {
        set_stat("red", "points", BIG);
        end_game("red", "heads up");
    } else {
        end_game("blue", "tails up");
    }
}
"#;

/// i64::MAX / 2: eight of its squares pass an i128.
const BIG: &str = "4611686018427387903";

/// The test game with each `(from, to)` edit applied, in its folder.
fn folder(edits: &[(&str, &str)], script: &str) -> tempfile::TempDir {
    let mut yaml = GAME.to_string();
    for (from, to) in edits {
        assert!(yaml.contains(from), "the test game has no `{from}`");
        yaml = yaml.replacen(from, to, 1);
    }
    common::game_folder("hostile", &yaml, &script.replace("BIG", BIG)).0
}

fn load(dir: &Path) -> tabula::Result<Game> {
    let path = dir.join("games/hostile.yaml");
    Game::load_path(
        &path,
        &dir.join("games"),
        &Settings::default(),
        Build::default(),
    )
}

/// The binary in `dir`, with no games folder but the one given.
fn tabula(dir: &Path, args: &[&str], input: &str) -> Output {
    Test::new()
        .current_dir(dir)
        .home(dir)
        .cache(dir.join("cache"))
        .args(args)
        .stdin(input)
        .run()
        .output
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// No byte of a terminal's control sequences, nor any other control
/// character but a line break, in what a command wrote.
fn assert_no_control(o: &Output, what: &str) {
    let (out, err) = text(o);
    for (name, s) in [("stdout", &out), ("stderr", &err)] {
        let bad = s.chars().find(|c| c.is_control() && *c != '\n');
        assert!(bad.is_none(), "{what}: {bad:?} on {name}:\n{s}");
    }
}

#[test]
fn ids_and_words_with_control_characters_are_refused_at_load() {
    assert!(load(folder(&[], SCRIPT).path()).is_ok());
    for (from, to, kind) in [
        ("{id: red}", "{id: \"r\\e[31m\"}", "player"),
        ("{id: blue}", "{id: \"blue\\r\"}", "player"),
        ("gem: {", "\"g\\e[2J\": {", "card"),
        ("id: hostile", "id: \"host\\x07ile\"", "game"),
        ("points: {", "\"points\\x7f\": {", "stat"),
        ("box: {", "\"box\\u009b\": {", "zone"),
        ("calm, wild]", "calm, \"w\\e]0;x\\x07\"]", "parameter value"),
        ("quick:", "\"qu\\tick\":", "variant"),
        ("[jewel]", "[\"je\\ewel\"]", "alias"),
    ] {
        let e = match load(folder(&[(from, to)], SCRIPT).path()) {
            Ok(_) => panic!("{kind}: loaded"),
            Err(e) => e,
        };
        let all = e.render(false);
        assert!(all.contains("control character"), "{kind}: {all}");
        assert!(all.contains(kind), "{kind}: {all}");
        for shown in [all, e.to_string()] {
            assert!(
                !shown.contains(['\x1b', '\x07', '\r', '\x7f', '\u{9b}']),
                "{kind}: {shown:?}"
            );
        }
    }
    // A decision's words in the file, likewise.
    let tmp = folder(
        &[(
            "    - hook: prompt",
            "    - decide: call\n      options: [\"he\\eads\", tails]\n      then: went",
        )],
        SCRIPT,
    );
    let e = load(tmp.path()).err().expect("loaded");
    assert!(
        e.message
            .contains("option `he\\u{1b}ads` has spaces at its ends or a control character"),
        "{e}"
    );
}

#[test]
fn script_text_reaches_the_terminal_escaped() {
    let script = r#"
fn prompt() {
    print("print \x1b[2J");
    debug("debug \x1b[2J");
    log("log \x1b[2J");
    ask("red", "call\x1b[1m", ["heads", "tails"], "went", #{prompt: "call it \x1b[4m"});
}
fn went(choice) {
    end_game("red", "ended \x1b[5m");
}
"#;
    let tmp = folder(&[], script);
    let dir = tmp.path();
    let sim = tabula(dir, &["sim", "games/hostile.yaml", "--games", "3"], "");
    assert!(sim.status.success(), "{:?}", text(&sim));
    assert_no_control(&sim, "sim");
    let (out, err) = text(&sim);
    assert!(out.contains("ended \\u{1b}[5m"), "{out}");
    assert!(err.contains("[script] print \\u{1b}[2J"), "{err}");
    assert!(err.contains("debug \\u{1b}[2J"), "{err}");
    std::fs::write(
        dir.join("save.yaml"),
        "game: games/hostile.yaml\nmoves:\n  - {red: heads}\n",
    )
    .unwrap();
    let replay = tabula(dir, &["replay", "save.yaml"], "");
    assert!(replay.status.success(), "{:?}", text(&replay));
    assert_no_control(&replay, "replay");
    assert!(
        text(&replay).0.contains("log \\u{1b}[2J"),
        "{:?}",
        text(&replay)
    );
    let play = tabula(
        dir,
        &[
            "play",
            "games/hostile.yaml",
            "--as",
            "red",
            "--bot",
            "blue=random",
        ],
        "heads\nquit\n",
    );
    assert_no_control(&play, "play");
    assert!(
        text(&play).0.contains("call it \\u{1b}[4m"),
        "{:?}",
        text(&play)
    );
    // A word no one can type is a script error, shown escaped.
    let tmp = folder(&[], &SCRIPT.replace("\"tails\"", "\"ta\\x1b[8mils\""));
    let sim = tabula(
        tmp.path(),
        &["sim", "games/hostile.yaml", "--games", "2"],
        "",
    );
    assert_eq!(sim.status.code(), Some(1), "{:?}", text(&sim));
    assert_no_control(&sim, "sim of a word with ESC");
    let err = text(&sim).1;
    assert!(
        err.contains("option `ta\\u{1b}[8mils` has a control character"),
        "{err}"
    );
    let check = tabula(tmp.path(), &["check", "games/hostile.yaml"], "");
    assert_eq!(check.status.code(), Some(1), "{:?}", text(&check));
    assert_no_control(&check, "check");
}

#[test]
fn print_stops_after_its_budget_with_a_note() {
    // 4 MiB asked for in one hook run (a loop would ask for gigabytes).
    let script = SCRIPT.replace(
        "fn prompt() {",
        "fn prompt() {\n    let s = \"0123456789abcdef\";\n    while s.len() < 32768 { s += s; }\n    for i in 0..128 { print(s); }",
    );
    let tmp = folder(&[], &script);
    let o = tabula(
        tmp.path(),
        &["sim", "games/hostile.yaml", "--games", "4"],
        "",
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        err.len() < (1 << 20) + 4096,
        "{} bytes on stderr",
        err.len()
    );
    assert!(
        err.contains("the rest of print and debug is not shown"),
        "{}",
        &err[err.len() - 300..]
    );
    assert_eq!(err.matches("is not shown").count(), 1);
    assert!(out.contains("hostile - 4 games"), "{out}");
}

#[test]
fn csv_fields_are_never_formulas_and_stay_in_their_cells() {
    let tmp = folder(
        &[
            ("{id: red}", "{id: \"=1+2\"}"),
            ("{id: blue}", "{id: \"@sum,x\"}"),
        ],
        &SCRIPT
            .replace("\"red\"", "\"=1+2\"")
            .replace("\"blue\"", "\"@sum,x\""),
    );
    let o = tabula(
        tmp.path(),
        &["sim", "games/hostile.yaml", "--games", "3", "--csv"],
        "",
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 3, "{out}");
    assert!(rows[1].starts_with("base,,'=1+2,random,3,"), "{out}");
    assert!(rows[2].starts_with("base,,\"'@sum,x\",random,3,"), "{out}");
    // Numbers, negative or not, are left as they are.
    assert!(!out.contains("'0") && !out.contains("'-"), "{out}");
}

#[test]
fn a_chart_is_xml_whatever_its_texts_hold() {
    use tabula::chart::{Axis, Chart, Line, Look, Panel, Point, svg};
    let hostile = "r\x1b[31m\x01\x08\u{fffe}\u{ffff}\x7f<&>\"'";
    let line = Line {
        name: hostile.into(),
        look: Look::Series(0),
        points: vec![Point {
            x: 0.0,
            y: 50.0,
            band: Some((40.0, 60.0)),
        }],
    };
    let chart = Chart {
        title: hostile.into(),
        panels: vec![Panel {
            title: hostile.into(),
            x_label: hostile.into(),
            categories: Some(vec![hostile.into()]),
            left: Axis {
                label: hostile.into(),
                range: Some((0.0, 100.0)),
                lines: vec![line],
            },
            right: None,
            whole_x: false,
        }],
    };
    let doc = svg(&chart).unwrap();
    if let Err(e) = roxmltree::Document::parse(&doc) {
        panic!("not XML: {e}");
    }
    assert!(doc.contains("r\\u{1b}[31m\\u{1}"), "{doc}");
    assert!(!doc.contains(['\x1b', '\x01', '\u{fffe}', '\u{ffff}']));
    // And from the command line, a chart of ids XML must escape.
    let tmp = folder(
        &[("{id: red}", "{id: \"<r&d>\"}")],
        &SCRIPT.replace("\"red\"", "\"<r&d>\""),
    );
    let o = tabula(
        tmp.path(),
        &[
            "sim",
            "games/hostile.yaml",
            "--games",
            "3",
            "--chart",
            "c.svg",
        ],
        "",
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let doc = std::fs::read_to_string(tmp.path().join("c.svg")).unwrap();
    assert!(roxmltree::Document::parse(&doc).is_ok());
}

/// Shards 1/2 and 2/2 of a run of the test game, as JSON.
fn shards(dir: &Path) -> [Value; 2] {
    shards_failing(dir, false)
}

/// Shards as [`shards`] gives them, from a run whose games may fail (its
/// exit code then says so, and its JSON is still written).
fn shards_failing(dir: &Path, failing: bool) -> [Value; 2] {
    ["1/2", "2/2"].map(|k| {
        let o = tabula(
            dir,
            &[
                "sim",
                "games/hostile.yaml",
                "--games",
                "20",
                "--shard",
                k,
                "--json",
            ],
            "",
        );
        assert_eq!(o.status.code(), Some(i32::from(failing)), "{:?}", text(&o));
        serde_json::from_slice(&o.stdout).unwrap()
    })
}

/// `merge` of the two shards after `edit`: its exit code and stderr.
fn merge_edited(
    dir: &Path,
    shards: &[Value; 2],
    edit: impl Fn(&mut [Value; 2]),
) -> (Option<i32>, String) {
    let mut s = shards.clone();
    edit(&mut s);
    let files: Vec<String> = s
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let f = dir.join(format!("part-{}.json", i + 1));
            std::fs::write(&f, v.to_string()).unwrap();
            f.to_string_lossy().into_owned()
        })
        .collect();
    let o = tabula(dir, &["merge", &files[0], &files[1]], "");
    let err = text(&o).1;
    assert!(!err.contains("panicked"), "{err}");
    (o.status.code(), err)
}

#[test]
fn merge_refuses_shards_that_do_not_add_up_naming_the_file() {
    // Small returns: serde_json's `Value` holds no integer past 2^64.
    let tmp = folder(&[], &SCRIPT.replace("BIG", "7"));
    let dir = tmp.path();
    let parts = shards(dir);
    let (code, err) = merge_edited(dir, &parts, |_| {});
    assert_eq!(code, Some(0), "{err}");
    let max = u64::MAX;
    type Edit = Box<dyn Fn(&mut [Value; 2])>;
    let cases: Vec<(&str, Edit, &str)> = vec![
        (
            "a player added",
            Box::new(|s| {
                s[1]["part"]["run"]["players"]
                    .as_array_mut()
                    .unwrap()
                    .push("green".into())
            }),
            "part-2.json (shard 2/2): 2 bots for 3 players",
        ),
        (
            "a bot taken away",
            Box::new(|s| {
                s[0]["part"]["run"]["bots"].as_array_mut().unwrap().pop();
            }),
            "part-1.json (shard 1/2): 1 bots for 2 players",
        ),
        (
            "a card taken away",
            Box::new(|s| {
                s[0]["part"]["run"]["cards"].as_array_mut().unwrap().pop();
            }),
            "part-1.json (shard 1/2): 1 play counts for 0 cards",
        ),
        (
            "wins above games",
            Box::new(|s| s[0]["part"]["tally"]["wins"][0] = 1000.into()),
            "part-1.json (shard 1/2): its wins, draws, unfinished and failed games add up to",
        ),
        (
            "more games than its share",
            Box::new(|s| s[1]["part"]["tally"]["games"] = 11.into()),
            "part-2.json (shard 2/2): 11 games, but its share of 20 is 10",
        ),
        (
            "a shard numbered 0",
            Box::new(|s| s[0]["part"]["shard"]["k"] = 0.into()),
            "part-1.json (shard 0/2): numbered 0 of 2",
        ),
        (
            "two shards of 2^64-1 games",
            Box::new(move |s| {
                for p in s.iter_mut() {
                    p["part"]["total_games"] = max.into();
                    p["part"]["tally"]["games"] = max.into();
                }
            }),
            "part-1.json (shard 1/2): 18446744073709551615 games, but its share of 18446744073709551615 is 9223372036854775807",
        ),
        (
            "plays that pass the 64-bit range",
            Box::new(move |s| {
                for p in s.iter_mut() {
                    p["part"]["tally"]["played"][0] = max.into();
                }
            }),
            "part-2.json (shard 2/2): its counts added to the shards before it pass the 64-bit range",
        ),
        (
            "a control character in a player id",
            Box::new(|s| {
                for p in s.iter_mut() {
                    p["part"]["run"]["players"][0] = "r\x1b[2J".into();
                }
            }),
            "part-1.json (shard 1/2): `r\\u{1b}[2J` has a control character",
        ),
    ];
    for (what, edit, says) in cases {
        let (code, err) = merge_edited(dir, &parts, edit);
        assert_eq!(code, Some(1), "{what}: {err}");
        assert!(err.contains(says), "{what}: {err}");
        assert!(!err.contains('\x1b'), "{what}: {err}");
    }
    // A file holding an empty list, first or not.
    std::fs::write(dir.join("empty.json"), "[]").unwrap();
    for files in [["empty.json", "part-2.json"], ["part-2.json", "empty.json"]] {
        let o = tabula(dir, &["merge", files[0], files[1]], "");
        let err = text(&o).1;
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains("empty.json: an empty list"), "{err}");
    }
}

#[test]
fn a_game_that_ends_and_then_fails_counts_once_as_failed_and_merges() {
    // Red's heads ends the game and then throws: a failure, not a win too.
    let script = SCRIPT.replace(
        "end_game(\"red\", \"heads up\");",
        "end_game(\"red\", \"heads up\"); throw \"boom\";",
    );
    let tmp = folder(&[], &script.replace("BIG", "7"));
    let dir = tmp.path();
    let parts = shards_failing(dir, true);
    let mut failed = 0;
    for p in &parts {
        let t = &p["part"]["tally"];
        let sum = |k: &str| {
            t[k].as_array()
                .map_or(0, |a| a.iter().map(|x| x.as_u64().unwrap()).sum::<u64>())
        };
        let n = |k: &str| t[k].as_u64().unwrap();
        assert_eq!(
            sum("wins") + n("draws") + n("unfinished") + n("failed"),
            n("games"),
            "{t}"
        );
        assert_eq!(t["wins"][0], 0, "red wins only by heads, which fails: {t}");
        failed += n("failed");
    }
    assert!(failed > 0, "no game called heads in 20");
    // Merged, the failures are reported as sim reports them (exit 1).
    let (code, err) = merge_edited(dir, &parts, |_| {});
    assert_eq!(code, Some(1), "{err}");
    let says = format!("tabula: {failed} of 20 games stopped on a rules error");
    assert!(err.contains(&says), "{err}");
}

#[test]
fn merge_refuses_solve_shares_that_cannot_be() {
    let tmp = folder(&[], SCRIPT);
    let dir = tmp.path();
    let parts: Vec<Value> = ["1/2", "2/2"]
        .iter()
        .map(|k| {
            let o = tabula(
                dir,
                &["solve", "games/hostile.yaml", "--shard", k, "--json"],
                "",
            );
            assert!(o.status.success(), "{:?}", text(&o));
            serde_json::from_slice(&o.stdout).unwrap()
        })
        .collect();
    let merge = |edit: &dyn Fn(&mut Vec<Value>)| {
        let mut s = parts.clone();
        edit(&mut s);
        for (i, v) in s.iter().enumerate() {
            std::fs::write(dir.join(format!("share-{}.json", i + 1)), v.to_string()).unwrap();
        }
        let o = tabula(dir, &["merge", "share-1.json", "share-2.json"], "");
        let err = text(&o).1;
        assert!(!err.contains("panicked"), "{err}");
        (o.status.code(), err)
    };
    assert_eq!(merge(&|_| {}).0, Some(0));
    type Edit = Box<dyn Fn(&mut Vec<Value>)>;
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|s| s[0]["parts"][0]["chance"] = 5.0.into()),
            "share-1.json (share 1/2): setup 0 has the chance 5",
        ),
        (
            Box::new(|s| s[0]["parts"][0]["worth"]["win"] = 10.29.into()),
            "share-1.json (share 1/2): setup 0 is worth",
        ),
        (
            Box::new(|s| s[1]["solve_shard"]["k"] = 0.into()),
            "share-2.json (share 0/2): numbered 0 of 2 (edited?): shares run from 1 to 2",
        ),
        (
            Box::new(|s| s[0]["parts"][0]["chance"] = 0.5.into()),
            "the setups' chances add up to 0.5, not 1",
        ),
        (
            Box::new(|s| {
                for p in s.iter_mut() {
                    p["states"] = u64::MAX.into();
                }
            }),
            "the shares' state counts pass the integer range",
        ),
    ];
    for (edit, says) in cases {
        let (code, err) = merge(&*edit);
        assert_eq!(code, Some(1), "{says}: {err}");
        assert!(err.contains(says), "{err}");
    }
}

#[test]
fn a_payoff_near_the_integer_range_gives_a_true_interval() {
    let tmp = folder(&[], SCRIPT);
    let dir = tmp.path();
    let games = 200;
    let o = tabula(
        dir,
        &[
            "sim",
            "games/hostile.yaml",
            "--games",
            &games.to_string(),
            "--json",
        ],
        "",
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let whole: Value = serde_json::from_slice(&o.stdout).unwrap();
    let red = &whole["seats"][0];
    let wins = red["wins"]["count"].as_f64().unwrap();
    assert!(wins > 50.0 && wins < 150.0, "{red}");
    // Red's return is BIG in the games red wins, else 0.
    let (big, n) = (BIG.parse::<f64>().unwrap(), f64::from(games));
    let p = wins / n;
    let (mean, ci) = (big * p, 1.959_964 * (big * big * (p - p * p) / n).sqrt());
    let got = (
        red["payoff"][0].as_f64().unwrap(),
        red["payoff"][1].as_f64().unwrap(),
    );
    assert!((got.0 - mean).abs() <= mean * 1e-9, "{got:?}, not {mean}");
    assert!((got.1 - ci).abs() <= ci * 1e-6, "{got:?}, not {ci}");
    // Shards add up to the same figures.
    let files: Vec<String> = ["1/3", "2/3", "3/3"]
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let o = tabula(
                dir,
                &[
                    "sim",
                    "games/hostile.yaml",
                    "--games",
                    &games.to_string(),
                    "--shard",
                    k,
                    "--json",
                ],
                "",
            );
            let f = format!("p{i}.json");
            std::fs::write(dir.join(&f), &o.stdout).unwrap();
            f
        })
        .collect();
    let o = tabula(
        dir,
        &["merge", "--json", &files[0], &files[1], &files[2]],
        "",
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let merged: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(merged["seats"], whole["seats"]);
}
