//! A game in play is never lost to careless input: a save of another game
//! is not replaced without a question, `new` asks as `load` does, a line
//! that is not text is skipped, and a card named like a command leaves
//! the command reachable (a command always wins; the card is played in
//! quotes) and is warned of by `check --lint`.

use crate::common;
use crate::common::Test;

use std::path::{Path, PathBuf};
use std::process::Output;

fn games() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games")
}

/// `tabula ARGS` in `cwd` with `input` (bytes, not necessarily text) on
/// its stdin.
fn tabula(args: &[&str], input: &[u8], cwd: &Path) -> Output {
    Test::new()
        .games_dir(games())
        .args(args)
        .current_dir(cwd)
        .cache(cwd.join("cache"))
        .stdin(input)
        .run()
        .output
}

const EXPERIOR: [&str; 8] = [
    "play",
    "experior",
    "--seed",
    "3",
    "--as",
    "human",
    "--bot",
    "elf=random",
];

#[test]
fn a_save_of_another_game_is_not_replaced_without_a_question() {
    let tmp = tempfile::tempdir().unwrap();
    let input = b"qs\nsave g.yaml\nnew\nqs\nsave g.yaml\nsave h.yaml\nquit\n";
    let o = tabula(&EXPERIOR, input, tmp.path());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("g.yaml exists and this game did not write it: not replaced"),
        "{out}"
    );
    // The first game's save is kept; the new game went to another file.
    let first = std::fs::read_to_string(tmp.path().join("g.yaml")).unwrap();
    assert!(first.contains("seed: 3\n"), "{first}");
    let second = std::fs::read_to_string(tmp.path().join("h.yaml")).unwrap();
    assert!(!second.contains("seed: 3\n"), "{second}");
}

#[test]
fn a_line_that_is_not_text_is_skipped_and_the_game_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    Test::new()
        .games_dir(games())
        .args(EXPERIOR)
        .current_dir(tmp.path())
        .stdin(b"\xff\xfe not text\nqs\nsave g.yaml\nquit\n")
        .stdout_has("that line could not be read")
        .file_has("g.yaml", "human: quick-sword")
        .ok();
}

const WORDS: &str = "\
id: words
name: Words
script: ../scripts/words.rhai
players:
  - {id: a}
  - {id: b}
cards:
  quit: {copies: 2}
  save: {copies: 2}
  pass: {copies: 2}
zones:
  hand: {per: player, visibility: public}
  box: {per: game, visibility: public}
setup:
  - put: {zone: box, cards: all}
  - hook: give
flow:
  turn:
    - decide: play
      from: hand
      then: played
";

const WORDS_SCRIPT: &str = r#"
fn give() {
    for p in ["a", "b"] {
        for c in ["quit", "save", "pass"] { move_card(c, "", "box", p, "hand"); }
    }
}
fn played(choice) { end_game("a", "a card was played"); }
"#;

#[test]
fn a_card_named_like_a_command_leaves_the_command_reachable() {
    let (tmp, path) = common::game_folder("words", WORDS, WORDS_SCRIPT);
    let game = path.to_str().unwrap();
    let lint = tabula(&["check", game, "--lint"], b"", tmp.path());
    let err = String::from_utf8_lossy(&lint.stderr);
    assert!(err.contains("card `quit` is called `quit`"), "{err}");
    assert!(err.contains("card `save` is called `save`"), "{err}");
    assert!(!err.contains("`pass`"), "{err}");
    assert!(err.contains("words.yaml:8:3"), "the card's line: {err}");
    // `:save` and `:quit` are the commands, as `save` and `quit` are;
    // `"quit"` plays the card.
    let play = ["play", game, "--as", "a", "--bot", "b=random"];
    let o = tabula(&play, b":save s.yaml\n:quit\n", tmp.path());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(tmp.path().join("s.yaml").exists(), "{out}");
    assert!(!out.contains("Game over"), "{out}");
    let o = tabula(&play, b"quit\n", tmp.path());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!out.contains("Game over"), "{out}");
    let o = tabula(&play, b"\"quit\"\n", tmp.path());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("Game over"), "{out}");
}

#[test]
fn undo_from_snapshots_gives_the_position_a_replay_from_the_start_gives() {
    use tabula::session::{Seat, Session};
    let dir = games();
    let sets = tabula::Settings {
        variants: vec![],
        sets: vec![
            ("wound_limit".into(), 1_000_000.into()),
            ("max_turns".into(), 1_000.into()),
        ],
    };
    let seats = vec![Seat::Person, Seat::Person];
    let mut s = Session::new(&dir, "experior", sets, 5, seats).unwrap();
    // 150 decisions of two choices each, by the first legal choice.
    let mut made = 0;
    while made < 300 && !s.state.is_over() {
        let p = s.state.waiting()[0];
        let c = s.state.legal(p)[made % s.state.legal(p).len()].clone();
        let text = c.text(&s.game).to_string();
        s.act(p, &text).unwrap();
        made += 1;
    }
    assert!(s.move_count() > 100, "{}", s.move_count());
    // Undo back across several snapshots, one decision at a time and in
    // jumps, checking each position against a replay from the start.
    for steps in [1, 7, 33, 40] {
        for _ in 0..steps {
            assert!(s.undo().unwrap());
        }
        let fresh = Session::from_replay(&dir, s.to_replay(), None, s.seats.clone()).unwrap();
        assert_eq!(s.state.key(&s.game), fresh.state.key(&fresh.game));
        assert_eq!(s.log.len(), fresh.log.len());
        assert_eq!(s.current, fresh.current);
        // And the game goes on from there as it would.
        let p = s.state.waiting()[0];
        let text = s.state.legal(p)[0].text(&s.game).to_string();
        s.act(p, &text).unwrap();
    }
}

#[test]
fn a_save_keeps_its_seats_and_says_when_the_rules_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    let scripts = tmp.path().join("scripts");
    std::fs::create_dir_all(&scripts).unwrap();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        root.join("games/experior.yaml"),
        games.join("experior.yaml"),
    )
    .unwrap();
    std::fs::copy(
        root.join("scripts/experior.rhai"),
        scripts.join("experior.rhai"),
    )
    .unwrap();
    let game = games.join("experior.yaml");
    let game = game.to_str().unwrap();
    // EXPERIOR's command, with the copy's path for the game.
    let mut play = EXPERIOR;
    play[1] = game;
    tabula(&play, b"qs\nsave g.yaml\nquit\n", tmp.path());
    let saved = std::fs::read_to_string(tmp.path().join("g.yaml")).unwrap();
    assert!(
        saved.contains("seats: {human: person, elf: random}"),
        "{saved}"
    );
    assert!(saved.contains("rules: \""), "{saved}");
    // Loaded where the person sits as the elf, the save seats them as the
    // human again: the board shows the human's hand, not the elf's.
    let other = [
        "play",
        game,
        "--seed",
        "3",
        "--as",
        "elf",
        "--bot",
        "human=random",
    ];
    let o = tabula(&other, b"load g.yaml\nstate\nquit\n", tmp.path());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!out.contains("changed since"), "{out}");
    let after = out.split("Loaded g.yaml").nth(1).unwrap_or_default();
    assert!(after.contains("Human (you)"), "{out}");
    assert!(!after.contains("Elf (you)"), "{out}");
    // An edit to the rules is said on load and on replay.
    let script = scripts.join("experior.rhai");
    let text = std::fs::read_to_string(&script).unwrap();
    std::fs::write(&script, format!("{text}\n// an edit\n")).unwrap();
    let o = tabula(&other, b"load g.yaml\nquit\n", tmp.path());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("the rules files changed since"), "{out}");
    let o = tabula(&["replay", "g.yaml"], b"", tmp.path());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("the rules files changed since"), "{err}");
}

#[test]
fn a_save_too_big_to_load_again_is_not_written() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("big.yaml");
    let r = tabula::replay::Replay {
        game: "experior".into(),
        moves: vec![vec![("human".into(), "x".repeat(1_000))]; 20_000],
        ..Default::default()
    };
    let e = r.save(&path).unwrap_err();
    assert!(
        e.message.contains("more than the 16 MiB a save may hold"),
        "{e}"
    );
    assert!(!path.exists());
    // One that fits is written and reads back.
    let small = tabula::replay::Replay {
        moves: r.moves[..100].to_vec(),
        ..r
    };
    small.save(&path).unwrap();
    assert_eq!(
        tabula::replay::Replay::read(&path).unwrap().moves.len(),
        100
    );
}

#[test]
fn a_replay_the_parser_refuses_is_answered_in_a_users_words() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            "two.yaml",
            "game: experior\nseed: 1\nmoves: []\n---\ngame: experior\n",
            "a second YAML document (after `---`): a file holds one",
        ),
        (
            "twice.yaml",
            "game: experior\nseed: 1\nmoves:\n  - {human: qs, human: sb}\n",
            "`human` is given twice in one mapping",
        ),
    ];
    for (file, text, says) in cases {
        std::fs::write(tmp.path().join(file), text).unwrap();
        let o = tabula(&["replay", file], b"", tmp.path());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{file}");
        assert!(err.contains(says), "{file}: {err}");
        for internal in ["from_str_multiple", "DuplicateKeyPolicy"] {
            assert!(!err.contains(internal), "{file}: {err}");
        }
    }
}

#[test]
fn a_stray_file_named_like_a_game_does_not_shadow_it() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("experior"), "not a game\n").unwrap();
    let o = tabula(&["check", "experior", "--playouts", "2"], b"", tmp.path());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("ok experior"), "{out}");
    // `./experior` still names the file.
    let o = tabula(&["check", "./experior"], b"", tmp.path());
    assert!(!o.status.success());
    // Nor beside a save: `game: experior` is the game, not the file there.
    let saves = tmp.path().join("saves");
    std::fs::create_dir(&saves).unwrap();
    std::fs::write(saves.join("experior"), "not a game\n").unwrap();
    let save = "game: experior\nseed: 1\nmoves: []\n";
    std::fs::write(saves.join("g.yaml"), save).unwrap();
    let o = tabula(&["replay", "saves/g.yaml"], b"", tmp.path());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
}

#[test]
fn moves_played_after_an_undo_below_the_save_are_unsaved() {
    use tabula::session::{Seat, Session};
    let tmp = tempfile::tempdir().unwrap();
    let seats = vec![Seat::Person, Seat::Person];
    let mut s = Session::new(&games(), "experior", Default::default(), 5, seats).unwrap();
    let both = |s: &mut Session, a: &str, b: &str| {
        s.act(0, a).unwrap();
        s.act(1, b).unwrap();
    };
    both(&mut s, "qs", "qs");
    both(&mut s, "sb", "sb");
    s.save(&tmp.path().join("a.yaml")).unwrap();
    assert!(!s.unsaved());
    assert!(s.undo().unwrap());
    // Another move in its place: as many moves as saved, but not the save.
    both(&mut s, "qb", "qb");
    assert!(s.unsaved());
}
