//! Hidden information where the tree is too big to walk whole: Monte
//! Carlo CFR, checked on Kuhn poker against the exact best response, and
//! the path that measures by play where no exact one fits.

use crate::common::Test;
use std::path::PathBuf;

use tabula::Settings;
use tabula::mccfr::{self, McLimits, Sampling};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn kuhn() -> tabula::Game {
    let dir = root().join("examples/kuhn-poker/games");
    tabula::load("kuhn-poker", &dir, &Settings::default()).unwrap()
}

fn learn(iterations: u64, sampling: Sampling) -> mccfr::McSolution {
    let limits = McLimits {
        iterations,
        sampling: Some(sampling),
        ..McLimits::default()
    };
    mccfr::solve(&kuhn(), limits, &|_, _| {}).unwrap()
}

#[test]
fn external_sampling_approaches_kuhn_pokers_equilibrium() {
    let early = learn(500, Sampling::External);
    let s = learn(20_000, Sampling::External);
    assert!(s.exploitability.exact, "Kuhn's tree fits: exact");
    assert_eq!(s.infosets, 12, "a card and a betting history each");
    assert!(s.exploitability.value < 0.02, "{:?}", s.exploitability);
    assert!(
        s.exploitability.value < early.exploitability.value,
        "more iterations, closer: {} then {}",
        early.exploitability.value,
        s.exploitability.value
    );
    assert!(
        (s.worth.value + 1.0 / 18.0).abs() < 0.01,
        "{}",
        s.worth.value
    );
    // Each player's first decision is shown, with a mix summing to 1.
    assert_eq!(s.openings.len(), 2, "{:?}", s.openings);
    for o in &s.openings {
        let total: f64 = o.mix.iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-9, "{o:?}");
    }
}

#[test]
fn outcome_sampling_approaches_it_too() {
    let s = learn(100_000, Sampling::Outcome);
    assert_eq!(s.sampling, Sampling::Outcome);
    assert!(s.exploitability.value < 0.03, "{:?}", s.exploitability);
    assert!((s.worth.value + 1.0 / 18.0).abs() < 0.02);
}

#[test]
fn a_traversal_too_wide_for_external_sampling_turns_to_outcome_sampling() {
    let limits = McLimits {
        iterations: 2_000,
        wide: 3,
        ..McLimits::default()
    };
    let s = mccfr::solve(&kuhn(), limits, &|_, _| {}).unwrap();
    assert_eq!(s.sampling, Sampling::Outcome);
    assert_eq!(s.iterations, 2_000, "all of them, after the turn");
    let limits = McLimits {
        iterations: 2_000,
        ..McLimits::default()
    };
    let s = mccfr::solve(&kuhn(), limits, &|_, _| {}).unwrap();
    assert_eq!(s.sampling, Sampling::External);
}

#[test]
fn where_no_exact_measure_fits_play_estimates_the_value_and_bounds_the_exploitability() {
    let exact = learn(2_000, Sampling::External);
    // The same learning, measured as if the tree were too big.
    let limits = McLimits {
        iterations: 2_000,
        sampling: Some(Sampling::External),
        exact_nodes: 10,
        eval_games: 4_000,
        probe_games: 300,
        probe_iterations: 300,
        ..McLimits::default()
    };
    let s = mccfr::solve(&kuhn(), limits, &|_, _| {}).unwrap();
    let x = &s.exploitability;
    assert!(!x.exact);
    assert_eq!(x.by, "mcts:300");
    assert!(s.interval95 > 0.0 && x.interval95 > 0.0);
    // The estimate is the exact value within its interval (and a little
    // more: 1 in 20 estimates falls outside it; the seed is fixed).
    assert!(
        (s.worth.value - exact.worth.value).abs() < 1.5 * s.interval95,
        "{} +/- {} vs {}",
        s.worth.value,
        s.interval95,
        exact.worth.value
    );
    // A search bot gets no more than a best response does.
    assert!(
        x.value <= exact.exploitability.value + x.interval95,
        "{x:?} vs exact {:?}",
        exact.exploitability
    );
}

#[test]
fn an_unordered_hand_drawn_in_another_order_is_the_same_view() {
    // Lucky draw: each draws three from a shuffled pile. Two deals that
    // give red the same hand in another order, with everything else red
    // sees the same, look the same to red.
    let dir = root().join("games");
    let settings = Settings {
        variants: vec!["lucky-draw".into()],
        sets: vec![],
    };
    let game = tabula::load("braverats", &dir, &settings).unwrap();
    let hand = game
        .def()
        .zones
        .iter()
        .position(|z| z.id == "hand")
        .unwrap();
    let mut by_set: std::collections::HashMap<Vec<u16>, (Vec<u16>, u64)> = Default::default();
    let mut found = false;
    for seed in 0..3_000u64 {
        let st = tabula::State::new_quiet(&game, seed).unwrap();
        let cards: Vec<u16> = st.zone(&game, hand, 0).to_vec();
        let mut set = cards.clone();
        set.sort_unstable();
        let seen = st.seen_and_unseen(&game, 0).0;
        match by_set.get(&set) {
            Some((order, other)) if *order != cards => {
                assert_eq!(*other, seen, "the same hand in another order");
                found = true;
                break;
            }
            Some(_) => {}
            None => {
                by_set.insert(set, (cards, seen));
            }
        }
    }
    assert!(found, "no two deals with one hand in two orders");
}

#[test]
fn solve_turns_to_mccfr_for_lucky_draw_and_says_so() {
    let o = Test::new()
        .args([
            "solve",
            "braverats",
            "--variant",
            "lucky-draw",
            "--iterations",
            "2",
            "--eval-games",
            "20",
            "--probe-games",
            "1",
        ])
        .env("TABULA_BOT", "mcts")
        .run()
        .output;
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("so Monte Carlo CFR"), "{out}");
    assert!(out.contains("exploitability at least"), "{out}");
    assert!(
        out.contains("2 iterations of MCCFR (external sampling)"),
        "{out}"
    );
}

#[test]
fn a_bots_exploitability_by_play_is_a_lower_bound_of_the_exact_one() {
    // Uniform play in Kuhn gives away 0.458333 (OpenSpiel's NashConv of
    // the uniform policy, 0.916667, halved); the search bot's gain against
    // the random bot is at most that, and clearly above nothing.
    let limits = McLimits {
        probe_games: 400,
        probe_iterations: 200,
        ..McLimits::default()
    };
    let x = mccfr::probe_bot(&kuhn(), "random", limits).unwrap();
    assert!(!x.exact);
    assert!(x.value - x.interval95 < 0.458334, "{x:?}");
    assert!(x.value - x.interval95 > 0.1, "{x:?}");
    assert!(mccfr::probe_bot(&kuhn(), "no-such-bot", limits).is_err());
}
