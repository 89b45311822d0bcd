//! Card games as players read them (issue 57), on Hearts
//! (tests/reference/games): a hand in the game's card order, prompts that
//! list card names with their ids, a trick that says who played each
//! card, vars and stats shown as the file declares, the options in the
//! hand's order; the same on the page; the replay keeps ids.

use crate::common::{Test, root};
use crate::web::{Client, Running};
use serde_json::{Value, json};

/// Hearts as North, seed 3, no pass, random bots: South leads the 2♣,
/// West plays the 9♣, and North is asked.
fn hearts_north(input: &str) -> Test {
    Test::new()
        .games_dir(root().join("tests/reference/games"))
        .args(["play", "hearts", "--as", "north", "--seed", "3"])
        .args(["--set", "pass_cards=0"])
        .args([
            "--bot",
            "east=random",
            "--bot",
            "south=random",
            "--bot",
            "west=random",
        ])
        .stdin(input)
}

#[test]
fn a_hand_is_listed_in_the_games_card_order_not_deal_order() {
    // Dealt K♠, 7♣, A♣, K♦, ...: shown clubs, diamonds, spades, hearts
    // (the file's order), each by rank.
    hearts_north("quit\n")
        .stdout_has("    Hand: 3♣, 4♣, 7♣, 8♣, Q♣, A♣, 2♦, Q♦, K♦, A♦, 10♠, K♠, 9♥\n")
        .run();
}

#[test]
fn a_prompt_lists_card_names_with_their_ids_to_type() {
    hearts_north("quit\n")
        .stdout_has("North - a card to play (2♣ led): 3♣ [3c], ")
        .run();
    // A name plain to type is shown alone (BraveRats' `Musician`).
    Test::new()
        .args(["play", "braverats", "--as", "red", "--seed", "1"])
        .args(["--bot", "blue=random"])
        .stdin("quit\n")
        .stdout_has("Red - Choose a card: Musician, Princess, Spy, ")
        .run();
}

#[test]
fn the_options_are_offered_in_the_order_of_the_hand() {
    // The script offers the clubs in deal order (7c, ac, 8c, 3c, ...).
    hearts_north("2c\nquit\n")
        .stdout_has(
            "(2♣ led): 3♣ [3c], 4♣ [4c], 7♣ [7c], 8♣ [8c], Q♣ [qc], A♣ [ac]\n\
             `2c` is not playable now\n  legal: 3♣ [3c], 4♣ [4c], 7♣ [7c],",
        )
        .run();
}

#[test]
fn a_trick_says_who_played_each_card() {
    hearts_north("quit\n")
        .stdout_has("  Trick: 2♣ (South), 9♣ (West)\n")
        .run();
}

#[test]
fn vars_and_stats_show_as_the_file_declares() {
    // `show: [no pass, ...]`, `show: yes-no`, and `point_tricks` with
    // `show: false`.
    hearts_north("quit\n")
        .stdout_has("  North (you): Points 0, Tricks 0, Score 0\n")
        .stdout_has("  Pass direction: no pass\n  Hearts broken: no\n")
        .run();
}

#[test]
fn the_save_keeps_card_ids() {
    let dir = tempfile::tempdir().unwrap();
    hearts_north("3c\nsave g.yaml\nquit\n")
        .current_dir(dir.path())
        .file_has("g.yaml", "{north: \"3c\"}")
        .run();
}

/// A game file's display declarations that cannot work are refused where
/// they are written.
#[test]
fn a_bad_show_or_sort_is_refused_with_its_place() {
    let yaml = std::fs::read_to_string(root().join("tests/reference/games/hearts.yaml")).unwrap();
    for (from, to, says) in [
        (
            "show: yes-no}",
            "show: yesno}",
            "var `hearts_broken`: `show: yesno` is not a way to show a number",
        ),
        (
            "sort: order}",
            "sort: [suits, rank]}",
            "zone `taken`: `sort: suits`: no card has an attribute `suits`",
        ),
        (
            "sort: order}",
            "sort: order, faces: up}",
            "zone `taken` keeps faces",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("games")).unwrap();
        std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
        std::fs::copy(
            root().join("tests/reference/scripts/hearts.rhai"),
            dir.path().join("scripts/hearts.rhai"),
        )
        .unwrap();
        let edited = yaml.replace(from, to);
        assert_ne!(edited, yaml);
        std::fs::write(dir.path().join("games/hearts.yaml"), &edited).unwrap();
        let line = edited.lines().position(|l| l.contains(to)).unwrap() + 1;
        Test::new()
            .games_dir(dir.path().join("games"))
            .args(["rules", "hearts"])
            .status(1)
            .stderr_has(says)
            .stderr_has(format!("hearts.yaml:{line}:"))
            .run();
    }
}

/// The page shows what the REPL does: the hand in card order, the options
/// in that order, who played each card of the trick, the words and yes/no
/// of vars, and no hidden stat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_shows_cards_as_the_repl_does() {
    let state = tempfile::tempdir().unwrap();
    let r = Running::start(&root().join("tests/reference/games"), &[], state.path()).await;
    let t = r
        .open(
            json!({"game": "hearts", "seed": 3, "sets": {"pass_cards": 0},
            "seats": {"north": "person", "east": "random", "south": "random", "west": "random"}}),
        )
        .await;
    let mut north = Client::connect(&r.ws(t["seats"]["north"].as_str().unwrap())).await;
    let s = north
        .state_where(|v| !v["options"].as_array().unwrap().is_empty())
        .await;
    let ids = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap().to_string())
            .collect()
    };
    let me = &s["players"][0];
    let hand = me["zones"]
        .as_array()
        .unwrap()
        .iter()
        .find(|z| z["id"] == "hand")
        .unwrap();
    assert_eq!(
        ids(&hand["cards"]),
        [
            "3c", "4c", "7c", "8c", "qc", "ac", "2d", "qd", "kd", "ad", "ts", "ks", "9h"
        ]
    );
    let options: Vec<&str> = s["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["text"].as_str().unwrap())
        .collect();
    assert_eq!(options, ["3c", "4c", "7c", "8c", "qc", "ac"]);
    let trick = s["zones"]
        .as_array()
        .unwrap()
        .iter()
        .find(|z| z["id"] == "trick")
        .unwrap();
    let from: Vec<&str> = trick["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["from"].as_str().unwrap())
        .collect();
    assert_eq!(from, ["South", "West"]);
    assert_eq!(s["view"]["from"]["trick"][""], json!(["south", "west"]));
    let vars: Vec<(&str, &str)> = (s["vars"].as_array().unwrap().iter())
        .map(|v| (v["id"].as_str().unwrap(), v["text"].as_str().unwrap()))
        .collect();
    assert_eq!(
        vars,
        [
            ("pass", "no pass"),
            ("hearts_broken", "no"),
            ("tricks_played", "0")
        ]
    );
    let stats: Vec<&str> = me["stats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|st| st["id"].as_str().unwrap())
        .collect();
    assert_eq!(stats, ["points", "tricks", "score"]);
    // `--json` keeps every stat.
    assert!(s["view"]["players"]["north"]["point_tricks"].is_number());
    r.stop().await;
}
