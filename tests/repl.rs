//! Scripted `tabula play` sessions (stdin not a terminal): full games against
//! a seeded bot, undo, save then load, reload after an edit, bad input.

use crate::common::Test;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A piped session that ends well and writes nothing on stderr: its
/// stdout.
fn play(args: &[&str], input: &str, cwd: &Path) -> String {
    Test::new()
        .games_dir(root().join("games"))
        .arg("play")
        .args(args)
        .current_dir(cwd)
        .env("TABULA_BOT", "mcts")
        .stdin(input)
        .stderr("")
        .ok()
}

#[test]
fn experior_full_game_against_the_bot() {
    let tmp = tempfile::tempdir().unwrap();
    // Alternating two cards is always legal (the other one rests).
    let input = "qs\nsb\nqs\nsb\nqs\nsb\nqs\nquit\n";
    let out = play(
        &[
            "experior",
            "--seed",
            "3",
            "--as",
            "human",
            "--bot",
            "elf=random",
            "--set",
            "wound_limit=20",
        ],
        input,
        tmp.path(),
    );
    assert!(out.contains("Game over: you win (Human)."), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn braverats_full_game_against_the_bot() {
    let tmp = tempfile::tempdir().unwrap();
    let input = "7\nspy\n4\nassassin\n6\n0\n1\nquit\n";
    let out = play(
        &[
            "braverats",
            "--seed",
            "11",
            "--as",
            "blue",
            "--bot",
            "red=random",
        ],
        input,
        tmp.path(),
    );
    assert!(out.contains("Game over: you "), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn imperio_full_game_against_the_bot() {
    let tmp = tempfile::tempdir().unwrap();
    let input = "death-star\ngreedo\ntarkin\nboba\nvader\nquit\n";
    let out = play(
        &[
            "imperio",
            "--seed",
            "5",
            "--as",
            "empire",
            "--bot",
            "rebels=random",
        ],
        input,
        tmp.path(),
    );
    assert!(out.contains("Game over: "), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn undo_goes_back_and_the_bot_chooses_afresh() {
    let tmp = tempfile::tempdir().unwrap();
    // Red plays the Spy again and again, taking it back each time.
    let input = "prince\nspy\nundo\nspy\nundo\nspy\nundo\nspy\nquit\n";
    let out = play(
        &[
            "braverats",
            "--seed",
            "3",
            "--as",
            "red",
            "--bot",
            "blue=random",
        ],
        input,
        tmp.path(),
    );
    // Each undo takes the round back; the bot answers the Spy anew each
    // time, not with the answer it gave before (an undo is no free look).
    let rounds: Vec<&str> = out.lines().filter(|l| l.starts_with("revealed:")).collect();
    assert_eq!(rounds.len(), 5, "{out}");
    assert!(rounds[1..].iter().all(|r| r.contains("Red Spy")), "{out}");
    let mut answers = rounds[1..].to_vec();
    answers.sort_unstable();
    answers.dedup();
    assert!(
        answers.len() > 1,
        "the same answer after every undo:\n{out}"
    );
    insta::assert_snapshot!(out);
}

#[test]
fn save_then_load() {
    let tmp = tempfile::tempdir().unwrap();
    let input = "qs\nsave g.yaml\nsb\nqs\nload g.yaml\nstate\nquit\n";
    let out = play(
        &[
            "experior",
            "--seed",
            "4",
            "--as",
            "elf",
            "--bot",
            "human=random",
        ],
        input,
        tmp.path(),
    );
    let saved = std::fs::read_to_string(tmp.path().join("g.yaml")).unwrap();
    assert_eq!(saved.matches("- {").count(), 1, "{saved}");
    assert!(out.contains("Loaded g.yaml (1 moves, seed 4)."), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn bad_input_never_loses_the_game() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(
        tmp.path().join("broken.yaml"),
        "game: braverats\nmoves: [{red: 7}, {red: 7}]\n",
    )
    .unwrap();
    let input = "\nprinse\nelevn\n9\nhlep\nsave\nload\nload nothing.yaml\nload broken.yaml\nsave /no/such/dir/x.yaml\nprincess\nquit\n";
    let out = play(
        &[
            "braverats",
            "--seed",
            "1",
            "--as",
            "red",
            "--bot",
            "blue=random",
        ],
        input,
        tmp.path(),
    );
    assert!(
        out.contains("did you mean `prince`?") || out.contains("did you mean `princess`?"),
        "{out}"
    );
    assert!(out.contains("The game in progress is unchanged."), "{out}");
    assert!(
        out.contains("revealed: Red Princess"),
        "the game went on: {out}"
    );
    insta::assert_snapshot!(out.replace(&tmp.path().display().to_string(), "<tmp>"));
}

/// Edit a copy of the rules in the middle of a session; `reload` reports
/// the first divergence.
#[test]
fn reload_after_editing_the_rules_reports_the_first_divergence() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    for (from, to) in [("games", &games), ("scripts", &tmp.path().join("scripts"))] {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(root().join(from)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
    let mut running = Test::new()
        .args([
            "--games-dir",
            games.to_str().unwrap(),
            "play",
            "experior",
            "--seed",
            "3",
            "--as",
            "human",
            "--bot",
            "elf=random",
        ])
        .current_dir(tmp.path())
        .spawn();
    let child = &mut running.child;
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut out = String::new();
    let mut read_until = |marker: &str, out: &mut String| loop {
        let mut line = String::new();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "session ended early: {out}"
        );
        *out += &line;
        if line.starts_with(marker) {
            break;
        }
    };
    stdin.write_all(b"qs\nsb\nsave mark.yaml\n").unwrap();
    stdin.flush().unwrap();
    read_until("Saved to mark.yaml", &mut out);
    // The designer doubles strong attacks in the script.
    let script = tmp.path().join("scripts/experior.rhai");
    let text = std::fs::read_to_string(&script).unwrap();
    std::fs::write(&script, text.replace("{ 3 * xp }", "{ 6 * xp }")).unwrap();
    stdin.write_all(b"reload\nsave mark.yaml\n").unwrap();
    stdin.flush().unwrap();
    read_until("Saved to mark.yaml", &mut out);
    // Then breaks the YAML: the game goes on with the rules as they were.
    let yaml = std::fs::read_to_string(games.join("experior.yaml")).unwrap();
    std::fs::write(games.join("experior.yaml"), "id: experior\nplayers: [\n").unwrap();
    stdin.write_all(b"reload\n").unwrap();
    stdin.flush().unwrap();
    read_until("The game goes on", &mut out);
    // A script that fails only when run (a misspelt function): every move
    // is kept, and once fixed a reload finds the same game.
    std::fs::write(games.join("experior.yaml"), yaml).unwrap();
    let doubled = std::fs::read_to_string(&script).unwrap();
    assert!(doubled.contains("add_stat("));
    std::fs::write(&script, doubled.replace("add_stat(", "add_sta(")).unwrap();
    stdin.write_all(b"reload\n").unwrap();
    stdin.flush().unwrap();
    read_until("The game goes on", &mut out);
    std::fs::write(&script, doubled).unwrap();
    stdin.write_all(b"reload\nsave mark.yaml\nquit\n").unwrap();
    drop(stdin);
    let mut rest = String::new();
    read_until("Saved to mark.yaml", &mut rest);
    assert!(child.wait().unwrap().success());
    out += &rest;
    assert!(
        rest.contains("Reloaded: the position is the same"),
        "{rest}"
    );
    assert!(rest.contains("Saved to mark.yaml (2 moves)"), "{rest}");
    assert!(
        out.contains("Reloaded: the first difference is after move 1:"),
        "{out}"
    );
    assert!(
        out.contains("The game goes on with the rules as they were, every move kept."),
        "{out}"
    );
    insta::assert_snapshot!(out.replace(&tmp.path().display().to_string(), "<tmp>"));
}

#[test]
fn completions_for_bash() {
    Test::new()
        .args(["completions", "bash"])
        .stdout_has("_tabula()")
        .stdout_has("replay")
        .ok();
}

#[test]
fn undo_takes_back_several_decisions_and_save_takes_a_quoted_name() {
    let tmp = tempfile::tempdir().unwrap();
    let input = "prince\nspy\nwizard\nUNDO 2\nundo x\nsave \"my game.yaml\"\nQuit\n";
    let args = [
        "braverats",
        "--seed",
        "1",
        "--as",
        "red",
        "--bot",
        "blue=random",
    ];
    let out = play(&args, input, tmp.path());
    assert!(
        out.contains("Took back 2 of your decision(s): Red spy, Blue prince; Red wizard, Blue princess. Now turn 2."),
        "{out}"
    );
    assert!(out.contains("undo [N]: N is how many"), "{out}");
    assert!(out.contains("Saved to my game.yaml (1 moves)."), "{out}");
    let saved = std::fs::read_to_string(tmp.path().join("my game.yaml")).unwrap();
    assert!(saved.contains("red: prince"), "{saved}");
}

/// `tabula play` of tests/games/commands.yaml (cards called `quit`,
/// `save` and `pass`) as Ann against a random Bob, piped.
fn commands_game(input: &str, cwd: &Path) -> String {
    Test::new()
        .games_dir(root().join("tests/games"))
        .args(["play", "commands", "--as", "a", "--bot", "b=random"])
        .current_dir(cwd)
        .stdin(input)
        .ok()
}

#[test]
fn a_command_always_wins_over_a_card_of_its_name() {
    let tmp = tempfile::tempdir().unwrap();
    // `save FILE` saves and `quit` leaves, at the decision where cards
    // called save and quit are legal: nothing is played.
    let out = commands_game("save s.yaml\nquit\n", tmp.path());
    assert!(out.contains("Saved to s.yaml (0 moves)."), "{out}");
    assert!(!out.contains("Game over"), "{out}");
    assert!(!out.contains("Ann plays"), "{out}");
    // The prompt says so where such a card is asked for.
    assert!(
        out.contains("(`quit`, `save` typed alone is a command; to play that choice, type it in quotes: `\"quit\"`)"),
        "{out}"
    );
    // Every command wins (`state` shows the board, plays nothing); a
    // command that takes nothing, given more, runs nothing.
    let out = commands_game("state\nquit now\nnew game\nquit\n", tmp.path());
    assert!(!out.contains("Ann plays"), "{out}");
    assert!(
        out.contains("`quit` takes nothing after it: nothing done"),
        "{out}"
    );
    assert!(!out.contains("A new game"), "{out}");
    // In quotes, the card: then the game can still be saved and left.
    let out = commands_game("\"quit\"\nsave t.yaml\nquit\n", tmp.path());
    assert!(out.contains("Ann plays quit"), "{out}");
    let saved = std::fs::read_to_string(tmp.path().join("t.yaml")).unwrap();
    assert!(saved.contains("a: quit"), "{saved}");
    let out = commands_game("'save'\n", tmp.path());
    assert!(out.contains("Ann plays save"), "{out}");
}
