//! `tabula solve`: small games with values known by hand, the symmetry of
//! BraveRats, strategies that are distributions, refusals.

mod common;

use std::path::{Path, PathBuf};

use tabula::Settings;
use tabula::solve::{self, Solution, solve_matrix};

fn duel(table: i64) -> Solution {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    let settings = Settings {
        variants: vec![],
        sets: vec![("table".into(), table.into())],
    };
    solve_file(&dir.join("duel.yaml"), &dir, &settings, 0, 2).unwrap()
}

fn mix(s: &Solution, player: &str) -> Vec<(String, f64)> {
    s.strategies
        .iter()
        .find(|x| x.player == player)
        .unwrap()
        .mix
        .clone()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn matching_pennies_is_even_half_and_half() {
    let s = duel(0);
    assert!(close(s.worth.value, 0.0), "{:?}", s.worth);
    for p in ["red", "blue"] {
        for (_, x) in mix(&s, p) {
            assert!(close(x, 0.5), "{:?}", mix(&s, p));
        }
    }
    assert!(close(s.worth.win, 0.5) && close(s.worth.loss, 0.5));
}

#[test]
fn rock_paper_scissors_is_even_in_thirds() {
    let s = duel(1);
    assert!(close(s.worth.value, 0.0));
    for (_, x) in mix(&s, "red") {
        assert!(close(x, 1.0 / 3.0));
    }
    assert!(close(s.worth.draw, 1.0 / 3.0));
}

#[test]
fn the_lopsided_duel_is_worth_a_third() {
    // Red: a 2/3, b 1/3; blue: c 1/3, d 2/3; value 1/3 (by hand).
    let s = duel(2);
    assert!(close(s.worth.value, 1.0 / 3.0), "{:?}", s.worth);
    let red = mix(&s, "red");
    assert!(
        close(red[0].1, 2.0 / 3.0) && close(red[1].1, 1.0 / 3.0),
        "{red:?}"
    );
    let blue = mix(&s, "blue");
    assert!(
        close(blue[0].1, 1.0 / 3.0) && close(blue[1].1, 2.0 / 3.0),
        "{blue:?}"
    );
}

#[test]
fn an_ordered_reveal_is_solved_as_a_sequence() {
    // Matching pennies where blue shows first: red always matches.
    let s = duel(3);
    assert!(close(s.worth.value, 1.0), "{:?}", s.worth);
    assert_eq!(s.strategies.len(), 1, "one player decides first");
    assert_eq!(s.strategies[0].player, "blue");
}

#[test]
fn small_braverats_is_symmetric() {
    let dir = common::games_dir();
    let settings = Settings {
        variants: vec![],
        sets: vec![("victories_to_win".into(), 2.into())],
    };
    let s = solve_file(&dir.join("braverats.yaml"), &dir, &settings, 0, 2).unwrap();
    assert!(s.worth.value.abs() < 1e-6, "{:?}", s.worth);
    assert!(close(s.worth.win, s.worth.loss));
    let (r, b) = (mix(&s, "red"), mix(&s, "blue"));
    for ((c1, x), (c2, y)) in r.iter().zip(&b) {
        assert_eq!(c1, c2);
        assert!((x - y).abs() < 1e-6, "{r:?} {b:?}");
    }
    for st in &s.strategies {
        let total: f64 = st.mix.iter().map(|(_, p)| p).sum();
        assert!(close(total, 1.0));
    }
    assert!(s.states > 1000);
}

#[test]
fn matrix_strategies_are_optimal_distributions() {
    // A certificate: x guarantees at least v against every column, y
    // concedes at most v against every row.
    let mut seed = 7u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) % 3) as f64 - 1.0
    };
    for n in 1..7 {
        for m in 1..7 {
            let a: Vec<Vec<f64>> = (0..n).map(|_| (0..m).map(|_| next()).collect()).collect();
            let (x, y, v) = solve_matrix(&a);
            assert!(close(x.iter().sum(), 1.0) && close(y.iter().sum(), 1.0));
            assert!(x.iter().chain(&y).all(|p| *p >= -1e-9));
            for j in 0..m {
                let got: f64 = (0..n).map(|i| x[i] * a[i][j]).sum();
                assert!(got >= v - 1e-6, "{a:?}: column {j} gets {got} < {v}");
            }
            for i in 0..n {
                let got: f64 = (0..m).map(|j| a[i][j] * y[j]).sum();
                assert!(got <= v + 1e-6, "{a:?}: row {i} gets {got} > {v}");
            }
        }
    }
}

#[test]
fn games_outside_the_class_are_refused() {
    let dir = common::games_dir();
    let path = |g: &str| dir.join(format!("{g}.yaml"));
    let lucky = Settings {
        variants: vec!["lucky-draw".into()],
        sets: vec![],
    };
    let e = solve_file(&path("braverats"), &dir, &lucky, 0, 1).unwrap_err();
    assert!(e.message.contains("cannot know"), "{e}");
    // Refused from the definition alone, before any search: a roll step.
    let e = solve_file(&path("the-path"), &dir, &Settings::default(), 0, 1).unwrap_err();
    assert!(e.message.contains("rolls a die after setup"), "{e}");
    let four = Settings {
        variants: vec![],
        sets: vec![("players".into(), 4.into())],
    };
    let e = solve_file(&path("the-path"), &dir, &four, 0, 1).unwrap_err();
    assert!(
        e.message.contains("two-player games, this one has 4"),
        "{e}"
    );
    let _ = Path::new("");
}

/// Load the game file at `path` and solve it.
fn solve_file(
    path: &std::path::Path,
    dir: &std::path::Path,
    settings: &Settings,
    seed: u64,
    jobs: usize,
) -> tabula::Result<solve::Solution> {
    let game = tabula::Game::load_path(path, dir, settings, tabula::Build::default())?;
    solve::solve(&game, seed, jobs)
}
