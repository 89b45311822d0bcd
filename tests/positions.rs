//! Positions as data (docs/positions.md): `save-position` writes a game as
//! it stands, and a game started from that file (`--from`, the library's
//! `Replay::start`) goes on exactly as the game would have; every bad entry
//! is said at its line and column.

use std::path::PathBuf;

use tabula::bot::{Bot, RandomBot};
use tabula::replay::{Replay, apply_move};
use tabula::{Game, Settings, State};

use crate::common::{self, Test};

fn reference() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/games")
}

/// A random decision's move as a replay writes it.
fn random_move(game: &Game, st: &State, rng: &mut RandomBot) -> Vec<(String, String)> {
    st.waiting()
        .into_iter()
        .map(|p| {
            let c = rng.choose(game, st, p).unwrap();
            (game.def().players[p].id.clone(), c.text(game).to_string())
        })
        .collect()
}

/// Every shipped and reference game: at several points of random games,
/// the position file (written as text and read back) played on with the
/// moves it keeps reaches the same state as the game itself (same key,
/// chance drawn as far), and the two stay the same for more random moves.
#[test]
fn a_saved_position_plays_on_as_the_game_does() {
    let mut dirs = vec![common::games_dir(), reference()];
    dirs.extend(common::example_dirs());
    let mut checked = 0;
    for (path, dir) in common::game_files(&dirs) {
        let Ok(game) = Game::load_path(&path, &dir, &Settings::default(), tabula::Build::default())
        else {
            continue;
        };
        for seed in 1..=2u64 {
            let mut replay = Replay {
                game: path.to_string_lossy().into_owned(),
                seed,
                ..Replay::default()
            };
            let (mut st, _) = State::new(&game, seed).unwrap();
            let mut bot = RandomBot::new(seed);
            for i in 0..24 {
                if st.is_over() {
                    break;
                }
                let saved = (i % 4 == 1).then(|| tabula::rest::as_position(&game, &replay));
                let saved = match saved {
                    None => None,
                    Some(Ok(p)) => Some(p),
                    // A decision asked by the setup: no position yet.
                    Some(Err(e)) if e.message.contains("not rested yet") => None,
                    Some(Err(e)) => panic!("{}: {}", path.display(), e.render(false)),
                };
                if let Some(p) = saved {
                    let text = p.to_yaml();
                    let back = Replay::parse(&path, &text)
                        .unwrap_or_else(|e| panic!("{}\n{text}", e.render(false)));
                    let (mut from, _) = back.start(&game).unwrap_or_else(|e| {
                        panic!("{}: {}\n{text}", path.display(), e.render(false))
                    });
                    for m in &back.moves {
                        apply_move(&game, &mut from, m).unwrap();
                    }
                    let mut more = st.clone();
                    let mut bot2 = RandomBot::new(seed + 100);
                    for _ in 0..8 {
                        let what = format!("{} seed {seed} move {i}\n{text}", path.display());
                        assert_eq!(from.key(&game), more.key(&game), "{what}");
                        assert_eq!(from.rng_position(), more.rng_position(), "{what}");
                        if more.is_over() {
                            break;
                        }
                        let m = random_move(&game, &more, &mut bot2);
                        apply_move(&game, &mut more, &m).unwrap();
                        apply_move(&game, &mut from, &m).unwrap();
                    }
                    checked += 1;
                }
                let m = random_move(&game, &st, &mut bot);
                apply_move(&game, &mut st, &m).unwrap();
                replay.moves.push(m);
            }
        }
    }
    assert!(checked > 40, "only {checked} positions checked");
}

/// Breakthrough 5x4 with Black one step from the far row.
const BLACK_WINS: &str = common::BREAKTHROUGH_BLACK_WINS;

/// A folder holding `name` with `text`, and its path.
fn file(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join(name);
    std::fs::write(&path, text).unwrap();
    (tmp, path)
}

#[test]
fn sim_solve_and_play_start_from_a_position() {
    let (_tmp, path) = file("win.yaml", BLACK_WINS);
    Test::new()
        .games_dir(reference())
        .args(["sim", "--games", "30", "--from"])
        .arg(&path)
        .stdout_has("black          random         30  100.0%")
        .run();
    Test::new()
        .games_dir(reference())
        .args(["solve", "--from"])
        .arg(&path)
        .stdout_has("value for black: +1.000000")
        .stdout_has("a2b1")
        .run();
    Test::new()
        .games_dir(reference())
        .args(["play", "--hot-seat", "--from"])
        .arg(&path)
        .stdin("a2b1\n")
        .stdout_has("turn 9")
        .stdout_has("Black wins")
        .run();
}

/// `save-position` of a save, then `replay` of the position file: the
/// same game as the save's (its view as JSON), chance included.
#[test]
fn save_position_then_replay_is_the_save() {
    let (tmp, save) = file(
        "s.yaml",
        "game: braverats\nseed: 5\nmoves:\n  - {red: spy, blue: wizard}\n  - {red: general, blue: ambassador}\n",
    );
    let pos = tmp.path().join("p.yaml");
    Test::new()
        .args(["save-position", "--out"])
        .arg(&pos)
        .arg(&save)
        .stderr_has("wrote the position")
        .run();
    let text = std::fs::read_to_string(&pos).unwrap();
    assert!(text.contains("position:\n  turn: 3\n"), "{text}");
    let a = Test::new().args(["replay", "--json"]).arg(&save).ok();
    let b = Test::new().args(["replay", "--json"]).arg(&pos).ok();
    assert_eq!(a, b);
}

/// Every bad entry of a position is said at its line and column, all at
/// once, with what to do.
#[test]
fn a_bad_position_says_each_problem_where_it_is() {
    let (_tmp, path) = file(
        "bad.yaml",
        "\
game: breakthrough
params: {rows: 5, columns: 4}
position:
  turn: 0
  active: blak
  step: play_tirn
  stats:
    black: {pawnz: 4}
  zones:
    box: [black-pawn, black-pawn, black-pawn, white-pawn, white-pawn, white-pawn, white-pawn, queen]
    bord:
      a1: [white-pawn]
    board:
      a1: [white-pawn, white-pawn, white-pawn, white-pawn, white-pawn]
      z9: [white-pawn]
      a5: [black-pawn, {card: black-pawn, down: true}]
",
    );
    Test::new()
        .games_dir(reference())
        .args(["replay"])
        .arg(&path)
        .status(1)
        .stderr_has("bad.yaml:4:9: the turn counts from 1")
        .stderr_has("bad.yaml:5:11: no player `blak`: did you mean `black`?")
        .stderr_has("bad.yaml:6:9: no step `play_tirn`: did you mean `play_turn`?")
        .stderr_has("bad.yaml:8:13: no stat `pawnz`: did you mean `pawns`?")
        .stderr_has("bad.yaml:10:95: no card `queen` (there are: black-pawn, white-pawn)")
        .stderr_has("bad.yaml:11:5: no zone `bord`: did you mean `board`?")
        .stderr_has("bad.yaml:15:7: no cell `z9`")
        .stderr_has("bad.yaml:16:24: zone `board` keeps no faces")
        .stderr_has("bad.yaml:14:60: card `white-pawn` is placed 9 times: the game has 8 copies (first at line 10, column 47)")
        .stderr_has("card `black-pawn` is placed 5 time(s): the game has 8 copies; put every card somewhere (at the start they lie in `box`)")
        .run();
    let (_tmp, path) = file(
        "shape.yaml",
        "game: braverats\nposition:\n  zones:\n    hand: [spy]\n  colour: red\n",
    );
    Test::new()
        .args(["replay"])
        .arg(&path)
        .status(1)
        .stderr_has("shape.yaml:5:3")
        .stderr_has("colour")
        .run();
    let (_tmp, path) = file(
        "shape.yaml",
        "game: braverats\nposition:\n  zones:\n    hand: [spy]\n",
    );
    Test::new()
        .args(["replay"])
        .arg(&path)
        .status(1)
        .stderr_has("shape.yaml:4:11: zone `hand` has a pile per player: give its cards by player, e.g. `hand: {red: [...]}`")
        .run();
}

/// The states a `solve --json` of Breakthrough 4x3 keeps, from a folder
/// holding the reference game with `extra` added to its script.
fn breakthrough_states(extra: &str) -> (u64, String) {
    let tmp = tempfile::tempdir().unwrap();
    let (games, scripts) = (tmp.path().join("games"), tmp.path().join("scripts"));
    std::fs::create_dir_all(&games).unwrap();
    std::fs::create_dir_all(&scripts).unwrap();
    std::fs::copy(
        reference().join("breakthrough.yaml"),
        games.join("breakthrough.yaml"),
    )
    .unwrap();
    let script = std::fs::read_to_string(reference().join("../scripts/breakthrough.rhai")).unwrap();
    std::fs::write(scripts.join("breakthrough.rhai"), script + extra).unwrap();
    let out = Test::new()
        .games_dir(&games)
        .args([
            "solve",
            "breakthrough",
            "--set",
            "rows=4",
            "--set",
            "columns=3",
            "--json",
        ])
        .ok();
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    (v["states"].as_u64().unwrap(), v["players"].to_string())
}

/// The solver's key holds the turn only where a rule may read it: a
/// Breakthrough whose script never calls `turn()` is solved in fewer
/// states (positions a turn apart are one) than the same game whose
/// script names `turn()`, with the same value.
#[test]
fn the_key_leaves_out_the_turn_where_no_rule_reads_it() {
    let (plain, worth) = breakthrough_states("");
    let (reading, worth_reading) = breakthrough_states("\nfn never_called() { turn() }\n");
    assert_eq!(worth, worth_reading);
    assert!(
        plain < reading,
        "{plain} states without the turn, {reading} with it"
    );
}

/// Whether some player's view shows a hidden card they know.
fn some_card_known(game: &Game, st: &State) -> bool {
    use tabula::view::{ZoneView, view};
    (0..game.def().nplayers()).any(|p| {
        let v = view(game, st, Some(p)).unwrap();
        (v.zones.values().flat_map(|z| z.values())).any(|z| matches!(z, ZoneView::Known { .. }))
    })
}

/// Hearts after the pass: the cards passed lie hidden in the receivers'
/// hands, known to their passers. The state is a position (the file holds
/// who knows which card, and no moves), and the game started from the
/// file is the same for every player: each view and information state,
/// and the state's key.
#[test]
fn a_position_keeps_who_knows_which_card() {
    use tabula::view::view;
    let game = tabula::load("hearts", &reference(), &Settings::default()).unwrap();
    let mut seen = 0;
    for seed in 1..=6u64 {
        let mut replay = Replay {
            game: "hearts".into(),
            seed,
            ..Replay::default()
        };
        let (mut st, _) = State::new(&game, seed).unwrap();
        let mut bot = RandomBot::new(seed);
        while !some_card_known(&game, &st) && replay.moves.len() < 8 {
            let m = random_move(&game, &st, &mut bot);
            apply_move(&game, &mut st, &m).unwrap();
            replay.moves.push(m);
        }
        if !some_card_known(&game, &st) {
            continue; // a deal without a pass
        }
        seen += 1;
        let saved = tabula::rest::as_position(&game, &replay).unwrap();
        let text = saved.to_yaml();
        assert!(
            saved.moves.is_empty(),
            "seed {seed}: the file starts before the pass\n{text}"
        );
        assert!(text.contains(", known: ["), "{text}");
        let back = Replay::parse(std::path::Path::new("p.yaml"), &text).unwrap();
        let (from, _) = back
            .start(&game)
            .unwrap_or_else(|e| panic!("{}\n{text}", e.render(false)));
        assert_eq!(from.key(&game), st.key(&game), "seed {seed}\n{text}");
        for p in 0..game.def().nplayers() {
            assert_eq!(
                from.seen_and_unseen(&game, p),
                st.seen_and_unseen(&game, p),
                "seed {seed}: player {p}'s information state\n{text}"
            );
            assert_eq!(
                view(&game, &from, Some(p)).unwrap(),
                view(&game, &st, Some(p)).unwrap()
            );
        }
        assert_eq!(
            view(&game, &from, None).unwrap(),
            view(&game, &st, None).unwrap()
        );
    }
    assert!(seen >= 2, "only {seen} deals with a pass");
}
