//! The size estimates a method is refused by before it spends anything
//! (src/analysis/estimate.rs), against the exact counts of the exact
//! solver and of CFR+'s listed tree: the position bound never exceeds the
//! count and is not far below it, the tree estimate is near the tree, and
//! a game over a budget is refused from them at once.

use crate::common;
use crate::common::Test;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use tabula::analysis::estimate;
use tabula::cfr::{self, CfrLimits};
use tabula::solve::{self, Limits};
use tabula::{Game, Refusal, Settings, State, tree};

fn reference(id: &str) -> Game {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/games");
    match tabula::load(id, &dir, &Settings::default()) {
        Ok(g) => g,
        Err(e) => panic!("{id}: {}", e.render(false)),
    }
}

#[test]
fn the_position_bound_holds_and_is_not_far_below_the_count() {
    let games = [
        reference("tic-tac-toe"),
        reference("pig"),
        reference("goofspiel"),
        common::load("experior", &[], &[("wound_limit", 5), ("max_turns", 12)]),
        common::load("braverats", &[], &[("victories_to_win", 2)]),
    ];
    for game in &games {
        let root = State::new_quiet(game, 0).unwrap();
        let exact = solve::solve_within(game, Some(0), 2, Limits::default(), &|_| {})
            .unwrap()
            .states as f64;
        let roots = [(1.0, root)];
        let est = estimate::positions(game, &roots, f64::INFINITY, &mut |_, _| Ok(())).unwrap();
        let id = game.id();
        assert!(est.at_least <= exact, "{id}: {} > {exact}", est.at_least);
        assert!(
            est.at_least >= exact / 10.0,
            "{id}: {} of {exact}",
            est.at_least
        );
        assert!(est.moves >= 1.0 && est.move_seconds > 0.0, "{id}: {est:?}");
    }
}

#[test]
fn the_tree_count_is_the_listed_tree() {
    for id in ["kuhn-poker", "leduc-poker", "liars-dice", "tic-tac-toe"] {
        let game = reference(id);
        // One iteration: the tree is listed whole all the same.
        let once = CfrLimits {
            max_iterations: 1,
            ..CfrLimits::default()
        };
        let listed = cfr::solve(&game, None, once, &|_, _| {}).unwrap().nodes as f64;
        let roots = tree::roots(&game, None).unwrap();
        let counted = estimate::tree_nodes(&game, &roots, 1_000_000, f64::INFINITY).unwrap();
        assert_eq!(counted, Some(listed), "{id}");
        // Too many positions to count: no figure.
        let few = estimate::tree_nodes(&game, &roots, 3, f64::INFINITY).unwrap();
        assert_eq!(few, None, "{id}");
    }
}

#[test]
fn a_solve_over_its_budget_is_refused_before_it_starts() {
    let game = reference("tic-tac-toe");
    let progress = AtomicUsize::new(0);
    let count = |n: usize| {
        progress.fetch_max(n, Ordering::Relaxed);
    };
    // 4,520 positions: a budget of 200 is refused by the estimate, with
    // no position solved.
    let small = Limits {
        max_states: 200,
        ..Limits::default()
    };
    let e = solve::solve_within(&game, Some(0), 1, small, &count).unwrap_err();
    assert_eq!(
        e.refusal(),
        Some(Refusal::TooManyPositions { limit: 200 }),
        "{e}"
    );
    assert!(e.message.contains("counted one by one"), "{e}");
    assert_eq!(progress.load(Ordering::Relaxed), 0);
    // A time budget far below the work.
    let quick = Limits {
        max_seconds: Some(1e-4),
        ..Limits::default()
    };
    let e = solve::solve_within(&game, Some(0), 1, quick, &count).unwrap_err();
    assert!(matches!(e.refusal(), Some(Refusal::TooSlow { .. })), "{e}");
    // CFR+ over a tree of 294,877 nodes with room for 20,000.
    let dice = reference("liars-dice");
    let tight = CfrLimits {
        max_nodes: 20_000,
        ..CfrLimits::default()
    };
    let e = cfr::solve(&dice, None, tight, &|_, _| {}).unwrap_err();
    assert_eq!(
        e.refusal(),
        Some(Refusal::TreeTooBig { limit: 20_000 }),
        "{e}"
    );
    assert!(e.message.contains("counted over its positions"), "{e}");
}

#[test]
fn the_best_bot_over_its_budget_plays_at_once_and_keeps_why() {
    let cache = tempfile::tempdir().unwrap();
    let game =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/games/tic-tac-toe.yaml");
    let out = Test::new()
        .args(["sim", game.to_str().unwrap(), "--bot", "x=best:200"])
        .args(["--games", "2", "--jobs", "1"])
        .cache(cache.path())
        .run()
        .output;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = cache.path().join("tabula/equilibrium");
    let kept: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert!(kept[0].starts_with("200\n"), "{kept:?}");
    assert!(kept[0].contains("counted one by one"), "{kept:?}");
}

#[test]
fn a_decision_wider_than_the_budget_is_refused_not_listed() {
    // 200 x 200 numbers chosen at once: 40,000 joint choices in one
    // position, over a budget of 10,000 positions.
    let yaml = "\
id: wide
name: Wide
script: ../scripts/wide.rhai
players:
  - {id: a}
  - {id: b}
flow:
  turn:
    - hook: pick
";
    let script = r#"
fn pick() { ask(["a", "b"], "number", 1..=200, "picked"); }
fn picked(choice) {
    if choice.a > choice.b { end_game("a"); } else if choice.a < choice.b { end_game("b"); } else { end_game(); }
}
"#;
    let (_tmp, game) = common::load_folder("wide", yaml, script);
    let small = Limits {
        max_states: 10_000,
        ..Limits::default()
    };
    let e = solve::solve_within(&game, Some(0), 1, small, &|_| {}).unwrap_err();
    assert_eq!(
        e.refusal(),
        Some(Refusal::TooManyPositions { limit: 10_000 })
    );
    assert!(e.message.contains("40000 joint choices"), "{e}");
    // CFR+ refuses it as fast with room for 10,000 nodes.
    let tight = CfrLimits {
        max_nodes: 10_000,
        ..CfrLimits::default()
    };
    let e = cfr::solve(&game, None, tight, &|_, _| {}).unwrap_err();
    assert_eq!(
        e.refusal(),
        Some(Refusal::TreeTooBig { limit: 10_000 }),
        "{e}"
    );
}

/// A Kalah endgame, 14 seeds left in the pits: 15,688,827 positions (a
/// breadth-first count of board, mover and moves made), most of them
/// deeper than random lines from it go (they end after 10 moves on
/// average, 33 at most, where its lines of play run to 98). The estimate
/// counts the positions nearest it one by one and draws its lines from
/// the last of those: a budget of 30,000 is refused before the solve
/// starts (its lines alone bounded it below 30,000, and the solve ran
/// until the budget was spent).
#[test]
fn a_deep_endgame_over_the_budget_is_refused_before_the_solve_starts() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("endgame.yaml");
    std::fs::write(
        &path,
        "game: mancala
position:
  turn: 41
  active: south
  stats:
    south: {pit-1: 1, pit-2: 0, pit-3: 3, pit-4: 2, pit-5: 0, pit-6: 2, store: 17}
    north: {pit-1: 2, pit-2: 1, pit-3: 0, pit-4: 2, pit-5: 1, pit-6: 0, store: 17}
  vars: {moves: 40}
",
    )
    .unwrap();
    Test::new()
        .games_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/games"))
        .args(["solve", "--max-states", "30000", "--from"])
        .arg(&path)
        .status(3)
        .stderr_has("solve cannot handle mancala: it needs more than 30000 positions (at least 3.0e4, 30001 counted one by one;")
        .run();
}
