//! `pick: K` on a flow `decide:` step (tests/games/swap.yaml: both
//! players give two of three cards at once, in secret): the same choices
//! as a script's pick, played, replayed, shown in the REPL and in
//! `--json`, and its mistakes refused at load where they are written.

use crate::common;
use tabula::{Game, State};

fn swap() -> Game {
    let dir = common::test_games_dir();
    Game::load_path(
        &dir.join("swap.yaml"),
        &dir,
        &Default::default(),
        tabula::Build::default(),
    )
    .unwrap()
}

fn texts(game: &Game, st: &State, p: usize) -> Vec<String> {
    st.legal(p)
        .iter()
        .map(|c| c.text(game).to_string())
        .collect()
}

fn hand(game: &Game, st: &State, p: &str) -> Vec<String> {
    let me = game.def().players.iter().position(|q| q.id == p);
    let v = serde_json::to_value(tabula::view::view(game, st, me).unwrap()).unwrap();
    let mut h: Vec<String> = serde_json::from_value(v["zones"]["hand"][p].clone()).unwrap();
    h.sort();
    h
}

#[test]
fn a_flow_pick_offers_every_pair_and_then_gets_the_lists() {
    let game = swap();
    let (mut st, _) = State::new(&game, 3).unwrap();
    let red = hand(&game, &st, "red");
    assert_eq!(red, ["one", "six", "two"]);
    assert_eq!(texts(&game, &st, 0), ["one two", "one six", "two six"]);
    let blue_before = hand(&game, &st, "blue");
    // Typed in any order, by name or id.
    let c = st.parse(&game, 0, "6 one").unwrap();
    assert_eq!(c.text(&game), "one six");
    st.act(&game, 0, c).unwrap();
    let b = st.legal(1)[0].clone();
    let gave: Vec<String> = b.text(&game).split(' ').map(str::to_string).collect();
    st.act(&game, 1, b).unwrap();
    // Red kept `two` and got blue's two; blue kept its third and got one, six.
    let mut want_red: Vec<String> = gave.clone();
    want_red.push("two".into());
    want_red.sort();
    assert_eq!(hand(&game, &st, "red"), want_red);
    let kept: Vec<&String> = blue_before.iter().filter(|c| !gave.contains(c)).collect();
    let mut want_blue = vec!["one".to_string(), "six".to_string(), kept[0].clone()];
    want_blue.sort();
    assert_eq!(hand(&game, &st, "blue"), want_blue);
    // A secret pick: neither saw the other's.
    assert!(game.def().capabilities.hidden_information);
}

/// A replay of swap from seed 3 with `moves` (the YAML after `moves:`),
/// as red sees it in `--json`: the text and its value.
fn replay_as_red(moves: &str) -> (String, serde_json::Value) {
    let tmp = tempfile::tempdir().unwrap();
    let save = tmp.path().join("save.yaml");
    let game = common::test_games_dir().join("swap.yaml");
    let text = format!("game: {}\nseed: 3\nmoves:{moves}", game.display());
    std::fs::write(&save, text).unwrap();
    let out = common::Test::new()
        .args(["replay", "--json", "--as", "red"])
        .arg(&save)
        .run()
        .stdout;
    let v = serde_json::from_str(&out).unwrap();
    (out, v)
}

#[test]
fn a_flow_pick_replays_from_its_text_in_any_order() {
    let game = swap();
    let (st, _) = State::new(&game, 3).unwrap();
    let blue = texts(&game, &st, 1)[2].clone();
    let (out, v) = replay_as_red(&format!("\n  - {{red: six one, blue: {blue}}}\n"));
    let d = &v["decision"];
    assert_eq!(d["name"], "play", "{out}");
    let mine: Vec<String> = serde_json::from_value(v["zones"]["hand"]["red"].clone()).unwrap();
    assert!(mine.contains(&"two".to_string()), "{out}");
    assert!(
        !mine.contains(&"one".to_string()) && !mine.contains(&"six".to_string()),
        "{out}"
    );
    // Before it: --json says what the pick is.
    let (out, v) = replay_as_red(" []\n");
    assert_eq!(
        v["decision"]["pick"],
        serde_json::json!({"count": 2, "ordered": false, "from": ["one", "two", "six"]}),
        "{out}"
    );
}

#[test]
fn the_repl_asks_a_pick_as_its_cards_and_how_to_type_them() {
    common::Test::new()
        .args(["play", "tests/games/swap.yaml", "--as", "red", "--seed", "3"])
        .stdin("two six\nquit\n")
        .stdout_has("Red - two cards to give (pick 2 cards, in any order: type them with spaces between, e.g. `1 2`): 1, 2, 6\n")
        .stdout_has("Two cards change hands each way.")
        .stdout_has("you know 2, 6 among them")
        .run();
    // Hearts' pass: thirteen cards, not 286 sets.
    let out = common::Test::new()
        .args([
            "play",
            "tests/reference/games/hearts.yaml",
            "--as",
            "north",
            "--seed",
            "1",
        ])
        .stdin("quit\n")
        .run()
        .stdout;
    let line = out
        .lines()
        .find(|l| l.starts_with("North - three cards"))
        .unwrap();
    assert!(line.contains("(pick 3 cards, in any order"), "{line}");
    let listed = line.split_once("): ").unwrap().1;
    assert_eq!(listed.split(", ").count(), 13, "{line}");
}

/// `check` on swap.yaml with each `from` replaced by its `to`: stderr.
fn refused(edits: &[(&str, &str)]) -> String {
    let mut yaml = std::fs::read_to_string(common::test_games_dir().join("swap.yaml")).unwrap();
    for (from, to) in edits {
        assert!(yaml.contains(from), "{from}");
        yaml = yaml.replacen(from, to, 1);
    }
    let script =
        std::fs::read_to_string(common::test_games_dir().join("../scripts/swap.rhai")).unwrap();
    let (_tmp, path) = common::game_folder("swap", &yaml, &script);
    common::Test::new()
        .arg("check")
        .arg(&path)
        .status(1)
        .run()
        .stderr
}

#[test]
fn a_flow_pick_that_cannot_be_made_is_refused_at_load_where_it_is_written() {
    let yaml = std::fs::read_to_string(common::test_games_dir().join("swap.yaml")).unwrap();
    let at = yaml.lines().position(|l| l == "      pick: 2").unwrap() + 1;
    let pick = "      pick: 2";
    let param = (
        "players:",
        "params:\n  max_pick: {default: 2, min: 1, max: 3}\nplayers:",
    );
    for (edits, says) in [
        (
            vec![(pick, "      pick: 7")],
            format!(
                "swap.yaml:{at}:13: decision `give`: `pick` is 7, but there are only 6 kind(s) of card `hand` can ever hold: no choice could ever be made (pick at most 6)"
            ),
        ),
        (
            vec![(pick, "      pick: 0")],
            format!("swap.yaml:{at}:13: decision `give`: `pick` is 0: give"),
        ),
        (
            vec![(pick, "      pick: {expr: \"max_pick * 4\"}"), param],
            // The parameter's two lines move the step down.
            format!(
                "swap.yaml:{}:13: decision `give`: `pick` is 8 (`max_pick * 4`, max_pick = 2), but there are only 6",
                at + 2
            ),
        ),
        (
            vec![(pick, "      ordered: true")],
            format!("swap.yaml:{at}:16: decision `give`: `ordered` goes with `pick: K`"),
        ),
        (
            vec![(
                "      from: hand\n      pick: 2",
                "      options: [low, high]\n      pick: 3",
            )],
            format!(
                "swap.yaml:{}:13: decision `give`: `pick` is 3, but there are only 2 option(s) listed",
                at
            ),
        ),
        (
            vec![(
                "      from: hand\n      pick: 2",
                "      options: [push back, stay]\n      pick: 2",
            )],
            format!(
                "swap.yaml:{}:13: decision `give`: with `pick`, option `push back` has a space",
                at
            ),
        ),
    ] {
        let err = refused(&edits);
        assert!(err.contains(&says), "{edits:?}:\n{err}\nwanted: {says}");
    }
}

#[test]
fn a_flow_pick_of_words_in_order_hands_on_the_order_given() {
    let yaml = r#"
id: ranks
script: ../scripts/ranks.rhai
players: [{id: red}]
flow:
  turn:
    - decide: rank
      who: red
      options: [gold, silver, bronze]
      pick: 2
      ordered: true
      then: ranked
"#;
    let script = "fn ranked(c) { end_game(\"\", `${c.red[0]} before ${c.red[1]}`); }\n";
    let (_tmp, game) = common::load_folder("ranks", yaml, script);
    let (mut st, _) = State::new(&game, 0).unwrap();
    assert_eq!(texts(&game, &st, 0).len(), 6);
    let c = st.parse(&game, 0, "bronze gold").unwrap();
    assert_eq!(c.text(&game), "bronze gold");
    st.act(&game, 0, c).unwrap();
    assert_eq!(st.end_reason().map(|r| &**r), Some("bronze before gold"));
}

#[test]
fn a_hand_too_small_for_the_pick_is_an_error_that_says_so() {
    let yaml = r#"
id: short
script: ../scripts/short.rhai
players: [{id: red}]
cards: {a: {}, b: {}}
zones:
  hand: {per: player}
setup:
  - put: {zone: hand, cards: [a]}
flow:
  turn:
    - decide: give
      who: red
      from: hand
      pick: 2
      then: given
"#;
    let (_tmp, game) = common::load_folder("short", yaml, "fn given(c) { end_game(); }\n");
    let e = State::new(&game, 0).map(|_| ()).unwrap_err().to_string();
    assert!(
        e.contains("decision `give` on turn 1: red has 1 distinct card(s) in `hand`, fewer than the 2 to pick (`pick: 2`)"),
        "{e}"
    );
}
