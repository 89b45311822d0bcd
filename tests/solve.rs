//! `tabula solve`: small games with values known by hand, the symmetry of
//! BraveRats, strategies that are distributions, refusals.

use crate::common;
use crate::common::Test;

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
    // The Path's decks are shuffled: too many deals to enumerate.
    let game = tabula::Game::load_path(
        &path("the-path"),
        &dir,
        &Settings::default(),
        tabula::Build::default(),
    )
    .unwrap();
    let e = solve::solve_within(&game, None, 1, solve::Limits::default(), &|_| {}).unwrap_err();
    assert!(e.message.contains("one deal of it can be solved"), "{e}");
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

/// A two-player test game in a temporary folder: `zones`, `setup` and
/// `flow` YAML lines and the script, with cards x, y, n, w (ids YAML 1.1 would read as booleans: they stay text).
fn little(zones: &str, setup: &str, script: &str) -> (tempfile::TempDir, PathBuf) {
    let yaml = format!(
        "id: little\nname: Little\nscript: ../scripts/little.rhai\nplayers:\n  - {{id: a, name: A}}\n  - {{id: b, name: B}}\n\
         cards:\n  x: {{name: X}}\n  y: {{name: Y}}\n  n: {{name: N}}\n  w: {{name: W}}\n\
         zones:\n{zones}\nsetup:\n{setup}\nflow:\n  turn:\n    - hook: step\n  max_turns: 10\n"
    );
    common::game_folder("little", &yaml, script)
}

#[test]
fn hidden_cards_the_rules_fix_are_no_secret() {
    // Nobody sees the boxes, but the rules always put x in a's and w in
    // b's: matching pennies on top of them is worth 0.
    let (tmp, path) = little(
        "  box: {per: player, visibility: hidden}",
        "  - put: {zone: box, cards: [x]}",
        r#"fn step() {
    ask(players(), "pick", ["y", "n"], "picked");
}
fn picked(c) {
    if c.a == c.b { end_game("a"); } else { end_game("b"); }
}"#,
    );
    let s = solve_file(&path, &tmp.path().join("games"), &Settings::default(), 0, 1).unwrap();
    assert!(close(s.worth.value, 0.0), "{}", s.worth.value);
    // The same with different cards in the two boxes.
    let (tmp, path) = little(
        "  box: {per: player, visibility: hidden}\n  spare: {per: game, visibility: public}",
        "  - put: {zone: spare, cards: [x, w]}",
        r#"fn step() {
    if turn() == 1 && count("", "spare") == 2 {
        move_card("x", "", "spare", "a", "box");
        move_card("w", "", "spare", "b", "box");
    }
    ask(players(), "pick", ["y", "n"], "picked");
}
fn picked(c) {
    if c.a == c.b { end_game("a"); } else { end_game("b"); }
}"#,
    );
    let s = solve_file(&path, &tmp.path().join("games"), &Settings::default(), 0, 1).unwrap();
    assert!(close(s.worth.value, 0.0), "{}", s.worth.value);
}

#[test]
fn a_card_laid_where_the_other_cannot_see_is_refused() {
    // a puts y or n in a box only a sees; then b guesses which.
    let (tmp, path) = little(
        "  box: {per: player, visibility: owner}\n  hand: {per: player, visibility: owner}",
        "  - put: {zone: hand, cards: [y, n]}",
        r#"fn step() {
    if count("a", "box") == 0 { ask("a", "hide", ["y", "n"], "hid"); } else { ask("b", "guess", ["y", "n"], "guessed"); }
}
fn hid(c) { move_card(c.a, "a", "hand", "a", "box"); }
fn guessed(c) {
    if has("a", "box", c.b) { end_game("b"); } else { end_game("a"); }
}"#,
    );
    let e = solve_file(&path, &tmp.path().join("games"), &Settings::default(), 0, 1).unwrap_err();
    assert_eq!(e.refusal(), Some(tabula::Refusal::Hidden));
    assert!(e.message.contains("b cannot tell apart"), "{e}");
    // A secret ask is refused too.
    let (tmp, path) = little(
        "  hand: {per: player, visibility: public}",
        "  - put: {zone: hand, cards: [y, n]}",
        r#"fn step() { ask(players(), "pick", ["y", "n"], "picked", #{secret: true}); }
fn picked(c) { if c.a == c.b { end_game("a"); } else { end_game("b"); } }"#,
    );
    let e = solve_file(&path, &tmp.path().join("games"), &Settings::default(), 0, 1).unwrap_err();
    assert!(e.message.contains("`pick` is secret"), "{e}");
}

#[test]
fn a_game_over_before_any_decision_is_worth_its_outcome() {
    let (tmp, path) = little(
        "  hand: {per: player, visibility: public}",
        "  - put: {zone: hand, cards: [y]}",
        r#"fn step() { end_game("b"); }"#,
    );
    let s = solve_file(&path, &tmp.path().join("games"), &Settings::default(), 0, 1).unwrap();
    assert!(
        close(s.worth.value, -1.0) && close(s.worth.loss, 1.0),
        "{:?}",
        s.worth
    );
    assert!(s.strategies.is_empty());
}

/// Solve over every setup (no seed).
fn solve_all(tmp: &tempfile::TempDir, path: &Path) -> tabula::Result<Solution> {
    let dir = tmp.path().join("games");
    let game = tabula::Game::load_path(path, &dir, &Settings::default(), tabula::Build::default())?;
    solve::solve_within(&game, None, 1, solve::Limits::default(), &|_| {})
}

#[test]
fn chance_after_a_move_is_an_expectation() {
    // a names y, n or w; a draw of three decides: a wins on a match.
    let (tmp, path) = little(
        "  hand: {per: player, visibility: public}",
        "  - put: {zone: hand, cards: [y]}",
        r#"fn step() { ask("a", "name", ["y", "n", "w"], "named"); }
fn named(c) {
    let drawn = ["y", "n", "w"][random(3)];
    if c.a == drawn { end_game("a"); } else { end_game("b"); }
}"#,
    );
    let s = solve_all(&tmp, &path).unwrap();
    assert!(close(s.worth.value, -1.0 / 3.0), "{:?}", s.worth);
    assert!(close(s.worth.win, 1.0 / 3.0) && close(s.worth.loss, 2.0 / 3.0));
    assert_eq!(s.setups, 1);
    // Two draws in a row: a wins if both match (1/9), draws if one does.
    let (tmp, path) = little(
        "  hand: {per: player, visibility: public}",
        "  - put: {zone: hand, cards: [y]}",
        r#"fn step() { ask("a", "name", ["y", "n", "w"], "named"); }
fn named(c) {
    let m = 0;
    for i in 0..2 { if ["y", "n", "w"][random(3)] == c.a { m += 1; } }
    if m == 2 { end_game("a"); } else if m == 1 { end_game(); } else { end_game("b"); }
}"#,
    );
    let s = solve_all(&tmp, &path).unwrap();
    assert!(close(s.worth.win, 1.0 / 9.0), "{:?}", s.worth);
    assert!(close(s.worth.draw, 4.0 / 9.0), "{:?}", s.worth);
    assert!(close(s.worth.loss, 4.0 / 9.0), "{:?}", s.worth);
}

/// A shuffle of x, y and w deals a's card, face up: a wins with x,
/// whatever is chosen after (one pick each, matched: a's pennies).
fn three_deals() -> (tempfile::TempDir, PathBuf) {
    little(
        "  deck: {per: game, visibility: hidden, unordered: true}\n  hand: {per: player, visibility: public}",
        "  - put: {zone: deck, cards: [x, y, w]}\n  - shuffle: deck\n  - hook: deal",
        r#"fn deal() { draw("", "deck", "a", "hand"); }
fn step() { ask(players(), "pick", ["y", "n"], "picked"); }
fn picked(c) {
    if has("a", "hand", "x") { end_game("a"); } else { end_game("b"); }
}"#,
    )
}

#[test]
fn a_random_setup_is_solved_over_every_deal_it_makes() {
    let (tmp, path) = three_deals();
    let s = solve_all(&tmp, &path).unwrap();
    // Three deals (3! orders of the deck, merged by what they deal).
    assert_eq!(s.setups, 3);
    assert!(close(s.worth.value, -1.0 / 3.0), "{:?}", s.worth);
    // How much the deal decides: all of it (values +1 and -1 around -1/3).
    assert!(
        close(s.setup_spread, (8.0f64 / 9.0).sqrt()),
        "{}",
        s.setup_spread
    );
    // One deal, by seed, is one of the three: a sure win or a sure loss.
    let one = solve_file(&path, &tmp.path().join("games"), &Settings::default(), 0, 1).unwrap();
    assert_eq!(one.setups, 1);
    assert!(close(one.worth.value.abs(), 1.0), "{:?}", one.worth);
    // Sampled deals: the three again, weighted by how often they came.
    let game = tabula::Game::load_path(
        &path,
        &tmp.path().join("games"),
        &Settings::default(),
        tabula::Build::default(),
    )
    .unwrap();
    let roots = tabula::tree::sampled_roots(&game, 600, 0).unwrap();
    assert_eq!(roots.len(), 3);
    assert!(close(roots.iter().map(|(p, _)| p).sum::<f64>(), 1.0));
    let est =
        solve::solve_roots(&game, &roots, 1, solve::Limits::default(), &|_| {}, &|_| {}).unwrap();
    let half_width = 1.96 * est.setup_spread / 600f64.sqrt();
    // A table emptied between setups (a quarter of a budget of 8 is 2
    // positions) gives the same answer; progress counts every setup's
    // positions, and each setup is announced in turn.
    let all = tabula::tree::roots(&game, None).unwrap();
    let whole =
        solve::solve_roots(&game, &all, 1, solve::Limits::default(), &|_| {}, &|_| {}).unwrap();
    let seen = std::sync::Mutex::new((Vec::new(), Vec::new()));
    let small = solve::Limits {
        max_states: 8,
        ..solve::Limits::default()
    };
    let apart = solve::solve_roots(
        &game,
        &all,
        1,
        small,
        &|n| seen.lock().unwrap().0.push(n),
        &|k| seen.lock().unwrap().1.push(k),
    )
    .unwrap();
    assert!(close(apart.worth.value, whole.worth.value), "{apart:?}");
    let (counts, setups) = seen.into_inner().unwrap();
    assert_eq!(setups, vec![1, 2, 3]);
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
    assert_eq!(counts.last(), Some(&apart.states));
    assert!(apart.states >= whole.states);
    assert!(
        (est.worth.value + 1.0 / 3.0).abs() < half_width,
        "{} +/- {half_width}",
        est.worth.value
    );
}

#[test]
fn too_much_chance_at_once_is_refused_with_the_way_out() {
    let (tmp, path) = little(
        "  hand: {per: player, visibility: public}",
        "  - put: {zone: hand, cards: [y]}",
        r#"fn step() { ask("a", "name", ["y", "n"], "named"); }
fn named(c) {
    let t = 0;
    for i in 0..3 { t += random(1000); }
    if t > 1500 { end_game("a"); } else { end_game("b"); }
}"#,
    );
    let e = solve_all(&tmp, &path).unwrap_err();
    assert_eq!(
        e.refusal(),
        Some(tabula::Refusal::TooMuchChance { limit: 200_000 })
    );
    assert!(e.message.contains("more than 200000 outcomes"), "{e}");
    // Refused from a few lines of draws (1 + 10^3 + 10^6 + 10^9 draw
    // sequences), not after listing 200,000 of them.
    assert!(e.message.contains("outcomes at once, about 1.0e9"), "{e}");
}

#[test]
fn a_long_game_is_solved_whatever_the_threads_stack() {
    // One option a turn until the rounds are played: 5,000 decisions in a
    // line (938 overflowed a thread's stack when the solver recursed).
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::create_dir_all(tmp.path().join("scripts")).unwrap();
    std::fs::write(
        games.join("long.yaml"),
        "id: long\nname: Long\nscript: ../scripts/long.rhai\nplayers:\n  - {id: a}\n  - {id: b}\n\
         params:\n  rounds: {default: 5000, min: 1, max: 100000}\n\
         flow:\n  turn:\n    - hook: step\n",
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("scripts/long.rhai"),
        r#"fn step() { ask("a", "go", ["x"], "went"); }
fn went(c) { if turn() >= param("rounds") { end_game("b"); } }"#,
    )
    .unwrap();
    let game = tabula::Game::load_path(
        &games.join("long.yaml"),
        &games,
        &Settings::default(),
        tabula::Build::default(),
    )
    .unwrap();
    let s = solve::solve_within(&game, None, 1, solve::Limits::default(), &|_| {}).unwrap();
    assert!(close(s.worth.value, -1.0), "{:?}", s.worth);
    assert_eq!(s.states, 5000);
}

#[test]
fn a_match_is_solved_game_by_game_each_worth_what_its_result_does_to_the_match() {
    // The lopsided duel as a match: first to two games, a drawn game
    // replayed, at most four. Each game's payoffs are the match's values
    // after it, so its equilibrium is not the single game's.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    let settings = Settings {
        variants: vec!["match".into()],
        sets: vec![("table".into(), 2.into())],
    };
    let s = solve_file(&dir.join("duel.yaml"), &dir, &settings, 0, 2).unwrap();
    // By hand, from the start of game g with the games won so far: red's
    // a/b against blue's c/d: a-c red wins, a-d drawn, b-c blue wins,
    // b-d red wins.
    fn v(red: u32, blue: u32, g: u32) -> f64 {
        match (red, blue) {
            (2, _) => 1.0,
            (_, 2) => -1.0,
            _ if g > 4 => 0.0,
            _ => {
                let (win, draw) = (v(red + 1, blue, g + 1), v(red, blue, g + 1));
                let loss = v(red, blue + 1, g + 1);
                solve_matrix(&[vec![win, draw], vec![loss, win]]).2
            }
        }
    }
    let want = v(0, 0, 1);
    assert!(close(s.worth.value, want), "{} vs {want}", s.worth.value);
    assert!(!close(want, 1.0 / 3.0) && want > 1.0 / 3.0, "{want}");
    // The first game is played as the match wants, not as one game.
    let red = mix(&s, "red");
    assert!(!close(red[0].1, 2.0 / 3.0), "{red:?}");
}

/// A solve over many setups split in shares (`solve --shard K/N --json`)
/// and added up by `tabula merge` is the single run's answer; shares of
/// another split, a share twice or one missing are refused.
#[test]
fn a_solve_split_in_shares_merges_into_the_whole() {
    let (tmp, path) = three_deals();
    let run = |args: &[&str]| -> std::process::Output {
        Test::new().args(args).current_dir(tmp.path()).run().output
    };
    let game = path.to_str().unwrap();
    let json = |o: &std::process::Output| -> serde_json::Value {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let whole = json(&run(&["solve", game, "--json"]));
    let mut files = Vec::new();
    for k in 1..=2 {
        let share = run(&["solve", game, "--shard", &format!("{k}/2"), "--json"]);
        let v = json(&share);
        // Share 1 holds setups 0 and 2, share 2 setup 1.
        assert_eq!(
            v["parts"].as_array().unwrap().len(),
            if k == 1 { 2 } else { 1 }
        );
        let f = tmp.path().join(format!("part-{k}.json"));
        std::fs::write(&f, &share.stdout).unwrap();
        files.push(f.to_str().unwrap().to_string());
    }
    let merged = json(&run(&["merge", &files[1], &files[0], "--json"]));
    for key in ["value", "win", "draw", "loss"] {
        let (a, b) = (
            merged["worth"][key].as_f64().unwrap(),
            whole["worth"][key].as_f64().unwrap(),
        );
        assert!((a - b).abs() < 1e-12, "{key}: {a} merged, {b} whole");
    }
    assert_eq!(merged["setups"], 3);
    let (a, b) = (
        merged["setup_spread"].as_f64().unwrap(),
        whole["setup_spread"].as_f64().unwrap(),
    );
    assert!((a - b).abs() < 1e-12, "spread: {a} merged, {b} whole");
    // One share missing, or given twice: refused with which.
    let o = run(&["merge", &files[0]]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("share 2/2 is missing"));
    let o = run(&["merge", &files[0], &files[0], &files[1]]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("given twice"));
    // A share of another split, and one of another --seed.
    let third = tmp.path().join("third.json");
    std::fs::write(
        &third,
        run(&["solve", game, "--shard", "1/3", "--json"]).stdout,
    )
    .unwrap();
    let o = run(&["merge", &files[1], third.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("split into 3 shares, not 2"));
    let seeded = tmp.path().join("seeded.json");
    let share = run(&["solve", game, "--deals", "5", "--shard", "1/2", "--json"]);
    std::fs::write(&seeded, &share.stdout).unwrap();
    let o = run(&["merge", seeded.to_str().unwrap(), &files[1]]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("not of the same solve"), "{err}");
}

#[test]
fn the_depth_budget_counts_every_decision_of_a_line_alike() {
    // a decides four times, then the game ends: four decisions deep.
    let (tmp, path) = little(
        "  box: {per: game, visibility: public}",
        "  - put: {zone: box, cards: [x]}",
        r#"fn step() { ask("a", "go", ["y", "n"], "went"); }
fn went(c) { if turn() >= 4 { end_game("a"); } }"#,
    );
    let game = tabula::Game::load_path(
        &path,
        &tmp.path().join("games"),
        &Settings::default(),
        tabula::Build::default(),
    )
    .unwrap();
    let within = |max_depth| {
        let limits = solve::Limits {
            max_depth,
            ..solve::Limits::default()
        };
        solve::solve_within(&game, None, 1, limits, &|_| {})
    };
    assert!(close(within(4).unwrap().worth.value, 1.0));
    // One short: refused, whichever solver meets the line first (the
    // root's or one of its first moves').
    let e = within(3).unwrap_err();
    assert!(e.message.contains("runs past 3 decisions"), "{e}");
}

/// Pig without a decision counter comes back to where it was (a turn's
/// total of 0, the same scores, the same player): solve says so, and what
/// would make the game end, rather than only that a line is too long.
#[test]
fn a_game_that_repeats_a_position_is_refused_with_the_cycle_named() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    let yaml = std::fs::read_to_string(root.join("games/pig.yaml"))
        .unwrap()
        .replace("  decisions: {name: Decisions made, start: 0, doc: \"the game is drawn when this reaches the horizon\"}\n", "");
    let script = std::fs::read_to_string(root.join("scripts/pig.rhai"))
        .unwrap()
        .replace("    add_var(\"decisions\", 1);\n", "")
        .replace(
            "    if get_var(\"decisions\") >= param(\"horizon\") {\n        end_game(\"\", \"the horizon\");\n        return;\n    }\n",
            "",
        );
    assert!(!script.contains("decisions"), "{script}");
    let (tmp, path) = common::game_folder("pig", &yaml, &script);
    let settings = common::settings(&[], &[("target", 4)]);
    let game = tabula::Game::load_path(
        &path,
        &tmp.path().join("games"),
        &settings,
        tabula::Build::default(),
    )
    .unwrap();
    let limits = solve::Limits {
        max_depth: 200,
        ..solve::Limits::default()
    };
    let e = solve::solve_within(&game, None, 1, limits, &|_| {}).unwrap_err();
    let text = e.render(false);
    assert!(text.contains("runs past 200 decisions"), "{text}");
    assert!(
        text.contains("the game comes back to a position it was in"),
        "{text}"
    );
    assert!(text.contains("max_turns"), "{text}");
}

/// Piped, a solve says what it expects to take before it starts and then
/// prints a plain progress line every few seconds (here every
/// millisecond, which makes this solve "long"), never a bar's redraws.
#[test]
fn a_piped_solve_says_its_estimate_then_plain_progress_lines() {
    let o = Test::new()
        .args(["solve", "braverats", "--set", "victories_to_win=1"])
        .env("TABULA_PROGRESS_EVERY", "0.001")
        .run();
    let err = &o.stderr;
    assert!(o.output.status.success(), "{err}");
    assert!(o.stdout.contains("value for red"), "{}", o.stdout);
    let first = err.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("solving braverats: expect at least ")
            && first.contains("positions or more, ")
            && first.contains("counted one by one"),
        "{err}"
    );
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("solving: ") && l.contains(" positions ("))
        .collect();
    assert!(!lines.is_empty(), "{err}");
    assert!(!err.contains('\r') && !err.contains('\x1b'), "{err:?}");
}

#[test]
fn a_four_player_game_is_refused_once_before_any_method_is_announced() {
    // Hearts: the exact solver's refusal (too much chance) used to be
    // followed by "so Monte Carlo CFR:", which then refused four players.
    let ran = Test::new()
        .args(["--games-dir", "tests/reference/games", "solve", "hearts"])
        .status(3)
        .stderr_has("it solves two-player games, this one has 4")
        .run();
    assert!(!ran.stdout.contains("Monte Carlo"), "{}", ran.stdout);
    assert!(!ran.stdout.contains("CFR"), "{}", ran.stdout);
}
