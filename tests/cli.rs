//! The binary as a user runs it: replay, list, rules, check, play.

use crate::common;
use crate::common::Test;

use std::path::{Path, PathBuf};
use std::process::Output;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tabula(args: &[&str]) -> Output {
    Test::new()
        .env("TABULA_BOT", "mcts")
        .args(args)
        .run()
        .output
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output, tmp: &Path) -> String {
    String::from_utf8_lossy(&o.stderr).replace(&tmp.to_string_lossy().into_owned(), "<tmp>")
}

const FINISHED: &str = "\
game: experior
params: {wound_limit: 10}
seed: 7
moves:
  - {human: strong-sword, elf: strong-bow}
  - {human: quick-sword, elf: quick-bow}
";

#[test]
fn replay_finished_game_as_json() {
    let tmp = tempfile::tempdir().unwrap();
    let f = write(tmp.path(), "done.yaml", FINISHED);
    let o = tabula(&["replay", &f, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o, tmp.path()));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["game"], "experior");
    assert_eq!(v["over"], true);
    assert_eq!(v["winner"], "human");
    assert_eq!(v["reason"], "wound limit");
    // 9 + 4 = 13 >= 10, then the human's bonus attack (spread 3 vs 1): 3 x 5.
    assert_eq!(v["players"]["elf"]["wounds"], 28);
    assert_eq!(v["players"]["human"]["wounds"], 0);
    assert_eq!(v["players"]["human"]["sword"], 5);
    // Public view: hands are hidden, the resting cards are not.
    assert_eq!(v["zones"]["hand"]["human"]["count"], 5);
    assert_eq!(v["zones"]["table"]["elf"][0], "quick-bow");
}

#[test]
fn replay_finished_game_as_text() {
    let tmp = tempfile::tempdir().unwrap();
    let f = write(tmp.path(), "done.yaml", FINISHED);
    let o = tabula(&["replay", &f]);
    assert!(o.status.success());
    insta::assert_snapshot!(stdout(&o));
}

#[test]
fn replay_as_a_player_lists_their_options_with_labels_and_values() {
    // The Path, after both characters are picked: the first player's card
    // decision (structured options) and, before that, a labelled ask.
    let game = common::load("the-path", &[], &[]);
    let (mut st, _) = tabula::State::new(&game, 1).unwrap();
    let first = st.first_waiting().unwrap();
    let id = |p: usize| game.def().players[p].id.clone();
    let mut moves = String::new();
    for c in ["caballero", "arquera"] {
        let p = st.first_waiting().unwrap();
        let choice = st.parse(&game, p, c).unwrap();
        st.act(&game, p, choice).unwrap();
        moves += &format!("  - {{{}: {c}}}\n", id(p));
    }
    let mover = id(st.first_waiting().unwrap());
    let tmp = tempfile::tempdir().unwrap();
    let part = format!("game: the-path\nseed: 1\nmoves:\n{moves}");
    let f = write(tmp.path(), "path.yaml", &part);
    let o = tabula(&["replay", &f, "--json", "--as", &mover]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let d = &v["decision"];
    assert_eq!(d["name"], "card");
    assert!(
        d["options"].as_array().unwrap().contains(&"pass".into()),
        "{d}"
    );
    let drops: Vec<&serde_json::Value> = d["values"]
        .as_object()
        .unwrap()
        .values()
        .filter(|x| x["act"] == "drop")
        .collect();
    assert_eq!(drops.len(), 1, "the starting weapon: {d}");
    assert!(drops[0]["card"].is_string());
    // Another player sees no options; a spectator neither.
    let other = if mover == "p1" { "p2" } else { "p1" };
    let o = tabula(&["replay", &f, "--json", "--as", other]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["decision"]["options"], serde_json::json!([]));
    // The first pick, replayed alone: its options carry labels.
    let one = format!(
        "game: the-path\nseed: 1\nmoves:\n{}",
        moves.lines().next().unwrap()
    );
    let f1 = write(tmp.path(), "one.yaml", &one);
    let second = if id(first) == "p1" { "p2" } else { "p1" };
    let o = tabula(&["replay", &f1, "--json", "--as", second]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let label = v["decision"]["labels"]["arquera"]
        .as_str()
        .unwrap_or_default();
    assert!(label.starts_with("FUERZA 2, DESTREZA 5"), "{v}");
    // An unknown player is named with the known ones.
    let o = tabula(&["replay", &f, "--as", "p9"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("players: p1, p2"));
}

#[test]
fn replay_unfinished_game() {
    let tmp = tempfile::tempdir().unwrap();
    let f = write(
        tmp.path(),
        "part.yaml",
        "game: experior\nmoves:\n  - {human: quick-magic, elf: quick-sword}\n",
    );
    let o = tabula(&["replay", &f, "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["over"], false);
    assert_eq!(v["winner"], serde_json::Value::Null);
    assert_eq!(v["turn"], 2);
    assert_eq!(
        v["players"]["elf"]["wounds"], 2,
        "quick magic beats sword: 2"
    );
    assert_eq!(
        v["decision"]["waiting"],
        serde_json::json!(["human", "elf"])
    );
}

#[test]
fn replay_illegal_move_names_its_index_and_the_legal_choices() {
    let tmp = tempfile::tempdir().unwrap();
    let f = write(
        tmp.path(),
        "bad.yaml",
        "game: experior\nmoves:\n  - {human: strong-sword, elf: strong-bow}\n  - {human: strong-sword, elf: quick-bow}\n",
    );
    let o = tabula(&["replay", &f]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o, tmp.path());
    assert!(!err.contains("panicked"));
    insta::assert_snapshot!(err);
}

#[test]
fn replay_unknown_word_suggests() {
    let tmp = tempfile::tempdir().unwrap();
    let f = write(
        tmp.path(),
        "typo.yaml",
        "game: experior\nmoves:\n  - {human: strong-swrod, elf: strong-bow}\n",
    );
    let o = tabula(&["replay", &f]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o, tmp.path());
    assert!(err.contains("move 1"), "{err}");
    assert!(err.contains("did you mean `strong-sword`?"), "{err}");
}

#[test]
fn replay_malformed_files_fail_cleanly_with_a_position() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            "syntax.yaml",
            "game: experior\nmoves: [{human: quick-sword\n",
        ),
        ("unknown-key.yaml", "game: experior\nmovs: []\n"),
        ("not-a-map.yaml", "game: experior\nmoves: [7]\n"),
        ("truncated.yaml", "game: exper"),
    ];
    for (name, text) in cases {
        let f = write(tmp.path(), name, text);
        let o = tabula(&["replay", &f]);
        assert_eq!(o.status.code(), Some(1), "{name}");
        let err = stderr(&o, tmp.path());
        assert!(!err.contains("panicked"), "{name}: {err}");
        assert!(err.starts_with("error: "), "{name}: {err}");
        if name != "truncated.yaml" {
            assert!(
                err.contains(&format!("<tmp>/{name}:")),
                "{name}: no position: {err}"
            );
        } else {
            assert!(err.contains("no game `exper`"), "{err}");
        }
    }
    let o = tabula(&["replay", "/no/such/file.yaml"]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn list_and_rules() {
    let o = tabula(&["list"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("experior"), "{out}");
    assert!(out.contains("--variant short"), "{out}");
    let o = tabula(&["rules", "experior"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for word in [
        "quick-sword",
        "strong-magic",
        "wound_limit",
        "max_turns",
        "human 3, elf 2",
    ] {
        assert!(out.contains(word), "rules lack {word}: {out}");
    }
    let o = tabula(&["rules", "experior", "--set", "wound_limit=50"]);
    assert!(stdout(&o).contains("wound_limit        50 (default 100, 1..=1000000)"));
}

#[test]
fn unknown_game_variant_and_parameter_are_usage_errors() {
    let o = tabula(&["rules", "experiro"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("did you mean `experior`?"));
    let o = tabula(&["rules", "experior", "--variant", "shrot"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("did you mean `short`?"));
    let o = tabula(&["rules", "experior", "--set", "wound_limti=5"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("did you mean `wound_limit`?"));
    let o = tabula(&["rules", "experior", "--set", "wound_limit=0"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("parameter `wound_limit` is 0: give 1 to 1000000")
    );
}

#[test]
fn check_passes_on_shipped_games() {
    let o = tabula(&["check", "--playouts", "5"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).contains("ok experior"));
}

#[test]
fn check_tries_other_settings_and_reports_why_hooks_ran() {
    // --set reaches every run: 4 players make longer games than 2.
    let mean = |args: &[&str]| -> f64 {
        let o = tabula(&[&["check", "the-path", "--playouts", "10"], args].concat());
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out = stdout(&o);
        let base = out.split("base ").nth(1).unwrap();
        base.split([',', ')']).next().unwrap().parse().unwrap()
    };
    assert_ne!(mean(&[]), mean(&["--set", "players=4"]));
    let o = tabula(&["check", "the-path", "--set", "player=4"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("`player`"));
    // --memo: per hook, its script runs and why.
    let o = tabula(&["check", "experior", "--playouts", "20", "--memo"]);
    let out = stdout(&o);
    assert!(out.contains("memo experior (base): "), "{out}");
    assert!(out.contains("% replayed"), "{out}");
    assert!(out.contains("  resolve: "), "{out}");
    assert!(out.contains("first call with these choices"), "{out}");
    assert!(
        out.contains("a value not seen before: stat(*, \"sword\")"),
        "{out}"
    );
}

#[test]
fn piped_play_session_saves_a_replay_that_replays() {
    let tmp = tempfile::tempdir().unwrap();
    let save = tmp.path().join("s.yaml");
    let input = format!("strong-sword\nbogus\nqs\nsave {}\nquit\n", save.display());
    let o = Test::new()
        .args([
            "play",
            "experior",
            "--seed",
            "5",
            "--as",
            "human",
            "--bot",
            "elf=random",
        ])
        .stdin(&input)
        .run()
        .output;
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("`bogus` is not a legal choice"), "{out}");
    assert!(out.contains("Saved to"), "{out}");
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(
        text.starts_with("game: experior\nseed: 5\nrules: \"")
            && text.contains(
                "\nseats: {human: person, elf: random}\nmoves:\n  - {human: strong-sword, elf: "
            ),
        "{text}"
    );
    assert_eq!(text.matches("- {").count(), 2, "{text}");
    let o = tabula(&["replay", save.to_str().unwrap(), "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["turn"], 3);
}

#[test]
fn sim_without_the_memo_reports_the_same_for_every_shipped_game() {
    for (game, games) in [
        ("braverats", "400"),
        ("imperio", "200"),
        ("experior", "200"),
        ("the-path", "30"),
    ] {
        let run = |extra: &[&str]| {
            let mut args = vec!["sim", game, "--games", games, "--seed", "3", "--json"];
            args.extend(extra);
            let o = tabula(&args);
            assert!(
                o.status.success(),
                "{game}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            stdout(&o)
        };
        let with = run(&[]);
        let without = run(&["--no-memo"]);
        assert!(with.contains("\"seats\""), "{with}");
        assert_eq!(with, without, "{game}");
    }
}

/// The binary run from `cwd` as a new user would: no TABULA_GAMES, its own
/// cache folder, piped input.
fn elsewhere(cwd: &Path, args: &[&str], input: &str) -> Output {
    Test::new()
        .args(args)
        .current_dir(cwd)
        .env("TABULA_BOT", "mcts")
        // The written-out library, as an installed binary has it.
        .env("TABULA_LIBRARY", "embedded")
        .cache(cwd.join("cache"))
        .stdin(input)
        .run()
        .output
}

#[test]
fn the_shipped_games_are_built_in_and_a_folder_may_add_its_own() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    // From an empty folder: the four shipped games, marked as built in.
    let o = elsewhere(cwd, &["list"], "");
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o, cwd));
    for id in ["braverats", "experior", "imperio", "the-path"] {
        assert!(
            out.lines()
                .any(|l| l.starts_with(id) && l.ends_with("[built in]")),
            "{out}"
        );
    }
    let o = elsewhere(
        cwd,
        &["play", "braverats", "--as", "red", "--seed", "1"],
        "spy\nquit\n",
    );
    assert!(
        stdout(&o).contains("revealed: Red Spy"),
        "{}",
        stderr(&o, cwd)
    );
    // A misspelt id says where games were looked for.
    let o = elsewhere(cwd, &["play", "bravrats"], "");
    let err = stderr(&o, cwd);
    assert!(
        err.contains("among the built-in games") && err.contains("`braverats`"),
        "{err}"
    );
    // The written-out library is kept as shipped: a hand edit there is undone.
    let lib = std::fs::read_dir(cwd.join("cache/tabula"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::write(lib.join("games/braverats.yaml"), "broken: [").unwrap();
    assert!(elsewhere(cwd, &["rules", "braverats"], "").status.success());
    // A ./games folder adds games, which may extend a built-in one.
    std::fs::create_dir(cwd.join("games")).unwrap();
    write(
        &cwd.join("games"),
        "mine.yaml",
        "extends: braverats\nid: mine\nname: Mine\n",
    );
    let out = stdout(&elsewhere(cwd, &["list"], ""));
    assert!(
        out.lines()
            .any(|l| l.starts_with("mine ") && l.ends_with("[games]")),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("braverats ") && l.ends_with("[built in]")),
        "{out}"
    );
    let o = elsewhere(cwd, &["sim", "mine", "--games", "20"], "");
    assert!(o.status.success(), "{}", stderr(&o, cwd));
}

#[test]
fn sim_reports_rules_errors_on_stderr_and_fails() {
    let tmp = common::every_section_copy(
        &[],
        Some("fn resolve(plays) {\n    add_stat(\"red\", \"nope\", 1);\n}\n"),
    );
    let o = Test::new()
        .args([
            "--games-dir",
            "games",
            "sim",
            "every-section",
            "--games",
            "40",
        ])
        .current_dir(tmp.path())
        .run()
        .output;
    assert_eq!(o.status.code(), Some(1));
    let (out, err) = (stdout(&o), stderr(&o, tmp.path()));
    assert!(!out.contains("error:"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("rules error") && l.ends_with(" 40")),
        "{out}"
    );
    assert!(
        err.contains(
            "error: game 0: scripts/every-section.rhai:2:5: in hook `resolve`: unknown stat `nope`"
        ),
        "{err}"
    );
    assert!(
        err.contains("40 of 40 games stopped on a rules error"),
        "{err}"
    );
}

#[test]
fn texts_and_the_state_show_the_parameters_in_force() {
    let o = tabula(&["rules", "experior", "--set", "wound_limit=20"]);
    let out = stdout(&o);
    assert!(out.contains("the wound limit (20)"), "{out}");
    assert!(out.contains("after 500 turns"), "{out}");
    assert!(!out.contains("{wound_limit}"), "{out}");
    let o = Test::new()
        .args([
            "play",
            "experior",
            "--set",
            "wound_limit=20",
            "--as",
            "human",
            "--seed",
            "1",
        ])
        .env("TABULA_BOT", "mcts")
        .stdin("quit\n")
        .run()
        .output;
    let out = stdout(&o);
    assert!(out.contains("Experior - turn 1 (wound_limit 20)"), "{out}");
    assert!(out.contains("Human (you): Wounds 0/20,"), "{out}");
}

#[test]
fn the_shell_completes_games_variants_and_parameters() {
    let complete = |index: &str, words: &[&str]| {
        let o = Test::new()
            .arg("--")
            .args(words)
            .env("TABULA_BOT", "mcts")
            .env("COMPLETE", "bash")
            .env("_CLAP_IFS", "\n")
            .env("_CLAP_COMPLETE_INDEX", index)
            .env("_CLAP_COMPLETE_COMP_TYPE", "9")
            .env("_CLAP_COMPLETE_SPACE", "true")
            .run()
            .output;
        stdout(&o).lines().map(str::to_string).collect::<Vec<_>>()
    };
    assert_eq!(complete("2", &["tabula", "play", "br"]), ["braverats"]);
    assert_eq!(
        complete("4", &["tabula", "play", "braverats", "--variant", "tr"]),
        ["traitor"]
    );
    assert_eq!(
        complete("4", &["tabula", "sim", "experior", "--set", "wou"]),
        ["wound_limit="]
    );
    // The named game's variants and parameters only, not every game's:
    // Experior has no `traitor`, BraveRats no `wound_limit`.
    assert_eq!(
        complete("4", &["tabula", "play", "experior", "--variant", "tr"]),
        Vec::<String>::new()
    );
    assert_eq!(
        complete(
            "6",
            &["tabula", "play", "--seed", "3", "braverats", "--set", "wou"]
        ),
        Vec::<String>::new()
    );
    let all = complete("4", &["tabula", "play", "braverats", "--set", ""]);
    assert!(all.iter().any(|w| w == "victories_to_win="), "{all:?}");
    assert!(!all.iter().any(|w| w == "max_turns="), "{all:?}");
    // A game of another folder, named by path, with its own parameters.
    let all = complete(
        "4",
        &["tabula", "solve", "tests/games/duel.yaml", "--set", ""],
    );
    assert_eq!(all, ["table="]);
    // With no arguments at all, the help says where to start.
    let o = tabula(&[]);
    assert!(
        stderr(&o, &root()).contains("Start here:"),
        "{}",
        stderr(&o, &root())
    );
}

#[test]
fn a_refusal_has_its_own_exit_code_and_a_json_error() {
    let o = tabula(&["solve", "the-path", "--json"]);
    assert_eq!(o.status.code(), Some(3), "{o:?}");
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["error"]["kind"], "refused");
    // Why, as data: The Path's shuffled decks are too much chance to list.
    assert_eq!(v["error"]["refusal"]["why"], "too_much_chance", "{v}");
    assert_eq!(v["error"]["refusal"]["limit"], 200_000);
    let msg = v["error"]["message"].as_str().unwrap();
    assert!(msg.contains("solve cannot handle the-path"), "{msg}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("error: solve cannot handle"));
    // Without --json: the message on stderr, the same code.
    Test::new()
        .args(["solve", "the-path"])
        .status(3)
        .stdout("")
        .stderr_has("error: solve cannot handle")
        .run();
    // A broken file is still 1.
    Test::new().args(["solve", "no-such-game"]).status(1).run();
}

#[test]
fn solve_json_holds_the_exploitability_too() {
    // The lopsided duel: red's rows a [1, 0], b [-1, 1] (columns c, d).
    // Against uniform play red's best is a (+1/2), blue's best is c (0 for
    // both): (1/2 - 1/3 + 0 + 1/3) / 2 = 1/4 given away.
    let o = tabula(&[
        "solve",
        "tests/games/duel.yaml",
        "--set",
        "table=2",
        "--exploit",
        "random",
        "--json",
    ]);
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let e = &v["exploit"][0];
    assert_eq!(e["bot"], "random");
    let near = |x: &serde_json::Value, y: f64| (x.as_f64().unwrap() - y).abs() < 1e-9;
    assert!(near(&e["exploitability"], 0.25), "{e}");
    assert!(near(&e["best_response"]["red"], 0.5), "{e}");
    assert!(near(&e["best_response"]["blue"], 0.0), "{e}");
    assert!(near(&v["worth"]["value"], 1.0 / 3.0), "{v}");
}

#[test]
fn solve_from_a_save_agrees_with_the_matrix_of_the_start() {
    // Each cell of the first decision's matrix is the value of the
    // position after those two choices: solved again from a save there.
    let sets = ["--set", "wound_limit=4", "--set", "max_turns=8"];
    let mut args = vec!["solve", "experior", "--json", "--matrix"];
    args.extend(sets);
    let o = tabula(&args);
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let m = &v["matrix"];
    assert_eq!(m["row_player"], "human");
    assert_eq!(m["col_player"], "elf");
    let tmp = tempfile::tempdir().unwrap();
    for (i, j) in [(0, 0), (2, 5), (5, 3)] {
        let (row, col) = (
            m["rows"][i].as_str().unwrap(),
            m["cols"][j].as_str().unwrap(),
        );
        let save = format!(
            "game: experior\nparams: {{wound_limit: 4, max_turns: 8}}\nseed: 0\nmoves:\n  - {{human: {row}, elf: {col}}}\n"
        );
        let f = write(tmp.path(), "at.yaml", &save);
        let o = tabula(&["solve", "--from", &f, "--json"]);
        assert!(o.status.success(), "{}", stderr(&o, tmp.path()));
        let w: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let (got, want) = (
            w["worth"]["value"].as_f64().unwrap(),
            m["values"][i][j].as_f64().unwrap(),
        );
        assert!(
            (got - want).abs() < 1e-9,
            "{row} vs {col}: {got} from the save, {want} in the matrix"
        );
    }
    // A game named with --from is a mistake the command line refuses.
    let o = tabula(&["solve", "experior", "--from", "x.yaml"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn sim_counts_how_games_ended() {
    let o = tabula(&["sim", "braverats", "--games", "400", "--json"]);
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let ended = v["games"].as_u64().unwrap()
        - v["unfinished"].as_u64().unwrap()
        - v["failed"].as_u64().unwrap();
    let mut sum = 0;
    let mut last = u64::MAX;
    for e in v["end_reasons"].as_array().unwrap() {
        let (reason, n) = (
            e["reason"].as_str().unwrap(),
            e["share"]["count"].as_u64().unwrap(),
        );
        assert!(
            ["victories", "a card won the game", "cards ran out"].contains(&reason),
            "{reason}"
        );
        assert!(n <= last, "most frequent first");
        last = n;
        sum += n;
    }
    assert_eq!(sum, ended);
    // The flow's turn limit names itself; the text report shows it.
    let o = tabula(&["sim", "experior", "--set", "max_turns=3", "--games", "50"]);
    let out = stdout(&o);
    assert!(out.contains("how games ended"), "{out}");
    assert!(
        out.contains("turn limit                     50  100.0%"),
        "{out}"
    );
}

#[test]
fn a_sweep_of_a_billion_settings_is_refused_before_any_is_built() {
    use std::os::unix::process::CommandExt;
    // Three axes of 1,000 values: 10^9 settings. Counted, not built: the
    // refusal comes under a 1 GiB address space (building them took
    // 1.25 GB before).
    let (mut cmd, _home) = Test::new()
        .args([
            "sweep",
            "braverats",
            "a=1..1000",
            "b=1..1000",
            "c=1..1000",
            "--games",
            "1",
        ])
        .command();
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 1 << 30,
                rlim_max: 1 << 30,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let o = cmd.stdin(std::process::Stdio::null()).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "1000 x 1000 x 1000 (1000000000) settings, more than 1000 (the most a sweep runs)"
        ),
        "{err}"
    );
    assert!(err.contains("a larger STEP"), "{err}");
}
