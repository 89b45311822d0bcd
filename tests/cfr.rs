//! Hidden information: CFR+ over the tree the rules make, with the exact
//! exploitability of its average strategy.

use crate::common::Test;
use std::path::PathBuf;

use tabula::Settings;
use tabula::cfr::{self, CfrLimits};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn kuhn() -> tabula::Game {
    let dir = root().join("examples/kuhn-poker/games");
    tabula::load("kuhn-poker", &dir, &Settings::default()).unwrap()
}

#[test]
fn kuhn_poker_is_worth_minus_one_eighteenth_to_the_first_player() {
    let s = cfr::solve(&kuhn(), None, CfrLimits::default(), &|_, _| {}).unwrap();
    assert_eq!(s.setups, 6, "three cards dealt two ways each");
    assert_eq!(s.infosets, 12, "a card and a betting history each");
    assert!(s.exploitability < 1e-3, "{}", s.exploitability);
    assert!(
        (s.worth.value + 1.0 / 18.0).abs() < 1e-3,
        "{}",
        s.worth.value
    );
    // The best responses bracket the value within the exploitability.
    assert!(s.best_response[0] >= s.worth.value - 1e-9);
    assert!(s.best_response[1] >= -s.worth.value - 1e-9);
    // Known equilibrium facts: the King always calls a bet, the Jack
    // always folds to one, and the second player bets a King after a check.
    let mix = |player: &str, knows: &str, choice: &str| -> f64 {
        let st = s
            .strategies
            .iter()
            .find(|x| x.player == player && x.knows == knows)
            .unwrap_or_else(|| panic!("{player} {knows}: {:?}", s.strategies));
        st.mix.iter().find(|(c, _)| c == choice).unwrap().1
    };
    assert!(mix("second", "[King] first bet", "call") > 0.99);
    assert!(mix("second", "[Jack] first bet", "fold") > 0.99);
    assert!(mix("second", "[King] first check", "bet") > 0.99);
    // The first player's Jack bluffs at a third of the rate its King bets.
    let (bluff, value_bet) = (
        mix("first", "[Jack] -", "bet"),
        mix("first", "[King] -", "bet"),
    );
    assert!(
        (value_bet - 3.0 * bluff).abs() < 0.05,
        "{bluff} {value_bet}"
    );
}

#[test]
fn a_uniform_strategy_is_exploitable_and_a_tighter_target_gets_closer() {
    // One iteration of CFR+ plays uniformly: far from the equilibrium.
    let one = CfrLimits {
        max_iterations: 1,
        ..CfrLimits::default()
    };
    let s = cfr::solve(&kuhn(), None, one, &|_, _| {}).unwrap();
    // OpenSpiel's figures for the uniform policy of kuhn_poker
    // (`exploitability.exploitability`, `expected_game_score`): 11/24
    // and 1/8.
    assert!(
        (s.exploitability - 11.0 / 24.0).abs() < 1e-9,
        "{}",
        s.exploitability
    );
    assert!((s.worth.value - 0.125).abs() < 1e-9, "{}", s.worth.value);
    let tight = CfrLimits {
        target: 1e-5,
        ..CfrLimits::default()
    };
    let s = cfr::solve(&kuhn(), None, tight, &|_, _| {}).unwrap();
    assert!(s.exploitability <= 1e-5, "{}", s.exploitability);
    assert!((s.worth.value + 1.0 / 18.0).abs() < 1e-4);
}

/// `tabula solve kuhn-poker` with `args`.
fn solve_kuhn(args: &[&str]) -> std::process::Output {
    Test::new()
        .args([
            "--games-dir",
            "examples/kuhn-poker/games",
            "solve",
            "kuhn-poker",
        ])
        .args(args)
        .run()
        .output
}

#[test]
fn solve_turns_to_cfr_for_hidden_cards_and_says_so() {
    let o = solve_kuhn(&["--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["method"], "cfr+");
    assert!((v["worth"]["value"].as_f64().unwrap() + 1.0 / 18.0).abs() < 1e-3);
    assert!(v["exploitability"].as_f64().unwrap() < 1e-3);
    // A seed would fix the deal for both: refused.
    let o = solve_kuhn(&["--seed", "1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("leave out --seed"));
}

#[test]
fn simultaneous_games_get_the_same_value_from_cfr_as_from_exact_solving() {
    // The duels of the solve tests: matching pennies, rock-paper-scissors,
    // the lopsided duel worth 1/3 to red.
    let dir = root().join("tests/games");
    for table in 0..3 {
        let settings = Settings {
            variants: vec![],
            sets: vec![("table".into(), table.into())],
        };
        let game = tabula::load("duel", &dir, &settings).unwrap();
        let exact = tabula::solve::solve(&game, 0, 1).unwrap();
        let limits = CfrLimits {
            target: 1e-4,
            ..CfrLimits::default()
        };
        let s = cfr::solve(&game, None, limits, &|_, _| {}).unwrap();
        assert!(s.exploitability <= 1e-4, "{table}: {}", s.exploitability);
        assert!(
            (s.worth.value - exact.worth.value).abs() < 1e-3,
            "{table}: {} vs {}",
            s.worth.value,
            exact.worth.value
        );
    }
}
