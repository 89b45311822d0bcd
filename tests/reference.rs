//! The reference suite: small games written from the docs (tests/
//! reference/games), each checked against figures OpenSpiel computed
//! (tests/reference/openspiel.json, made by tests/reference/openspiel.py),
//! with every algorithm that applies run on every game, as OpenSpiel's own
//! tests do: the exact solver, CFR+, MCCFR, the evaluator of a fixed
//! policy (uniform play's expected return and best responses) and the best
//! response against a bot.

use crate::common;

use std::path::PathBuf;

use serde_json::Value;
use tabula::cfr::{self, CfrLimits};
use tabula::mccfr::{self, McLimits, Sampling};
use tabula::{Game, Settings, solve};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference")
}

fn figures() -> Value {
    let text = std::fs::read_to_string(root().join("openspiel.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The tabula game an entry of openspiel.json names, with its settings.
fn game(entry: &str) -> (Game, Value) {
    let all = figures();
    let f = all[entry].clone();
    assert!(f.is_object(), "no entry `{entry}` in openspiel.json");
    let sets = f["tabula_set"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_i64().unwrap().into()))
                .collect()
        })
        .unwrap_or_default();
    let settings = Settings {
        variants: vec![],
        sets,
    };
    // An id in games/, or a path from the repository's root (the examples).
    let id = f["tabula_game"].as_str().unwrap();
    let id = match id.contains('/') {
        true => root().join("../..").join(id).display().to_string(),
        false => id.to_string(),
    };
    match tabula::load(&id, &root().join("games"), &settings) {
        Ok(g) => (g, f),
        Err(e) => panic!("{entry}: {}", e.render(false)),
    }
}

fn num(f: &Value, key: &str) -> f64 {
    f[key]
        .as_f64()
        .unwrap_or_else(|| panic!("no `{key}` in {f}"))
}

fn pair(f: &Value, key: &str) -> [f64; 2] {
    let a = f[key].as_array().unwrap_or_else(|| panic!("no `{key}`"));
    [a[0].as_f64().unwrap(), a[1].as_f64().unwrap()]
}

fn near(what: &str, got: f64, want: f64, tol: f64) {
    assert!(
        (got - want).abs() <= tol,
        "{what}: {got} against OpenSpiel's {want} (tolerance {tol})"
    );
}

/// Uniform play, evaluated over the whole tree: its expected return for
/// the first player and what a best response gets in each seat.
fn uniform_is_evaluated_as_openspiel_does(entry: &str) {
    let (g, f) = game(entry);
    let (worth, br) = tabula::analysis::evaluate::judge(&g, &|_| None, 2_000_000).unwrap();
    near(
        &format!("{entry} uniform return"),
        worth.value,
        num(&f, "uniform_returns"),
        1e-9,
    );
    let want = pair(&f, "uniform_best_response");
    near(&format!("{entry} best response 0"), br[0], want[0], 1e-9);
    near(&format!("{entry} best response 1"), br[1], want[1], 1e-9);
    near(
        &format!("{entry} exploitability"),
        (br[0] + br[1]) / 2.0,
        num(&f, "uniform_exploitability"),
        1e-9,
    );
    // The random bot states its policy: evaluated on the same tree, it is
    // the uniform policy (what `solve --exploit random` reports).
    let bot = tabula::analysis::response::evaluate_bot(&g, "random", 1, 2_000_000).unwrap();
    near(
        &format!("{entry} random bot"),
        bot.exploitability,
        num(&f, "uniform_exploitability"),
        1e-9,
    );
    near(
        &format!("{entry} random bot's worth"),
        bot.worth.value,
        num(&f, "uniform_returns"),
        1e-9,
    );
}

/// CFR+ to `target`: its value within the exploitability it reached of
/// OpenSpiel's equilibrium value (a strategy that far from an equilibrium
/// is worth at most that much more or less).
fn cfr_reaches_the_value(entry: &str, target: f64) -> cfr::CfrSolution {
    let (g, f) = game(entry);
    let limits = CfrLimits {
        target,
        ..CfrLimits::default()
    };
    let s = cfr::solve(&g, None, limits, &|_, _| {}).unwrap();
    assert!(s.exploitability <= target, "{entry}: {}", s.exploitability);
    near(
        &format!("{entry} CFR+ value"),
        s.worth.value,
        num(&f, "value"),
        2.0 * target,
    );
    // Every information set is labelled by all its player sees: no two
    // of one player's share a label.
    let mut labels: Vec<(&str, &str)> = (s.strategies.iter())
        .map(|x| (x.player.as_str(), x.knows.as_str()))
        .collect();
    labels.sort_unstable();
    labels.dedup();
    assert_eq!(
        labels.len(),
        s.infosets,
        "{entry}: labels shared by information sets"
    );
    s
}

/// CFR+ is OpenSpiel's CFR+ (regret matching+, alternating updates,
/// linear averaging): after each count of iterations its average strategy
/// is exactly as exploitable as OpenSpiel's `CFRPlusSolver`'s.
fn cfr_follows_openspiel(entry: &str, counts: &[u64], tol: f64) {
    let (g, f) = game(entry);
    for &n in counts {
        let limits = CfrLimits {
            target: 0.0,
            max_iterations: n,
            ..CfrLimits::default()
        };
        let s = cfr::solve(&g, None, limits, &|_, _| {}).unwrap();
        assert_eq!(s.iterations, n);
        let want = f["cfr_plus_exploitability"][n.to_string()]
            .as_f64()
            .unwrap();
        near(
            &format!("{entry} CFR+ after {n}"),
            s.exploitability,
            want,
            tol * want,
        );
    }
}

fn exact_value(entry: &str) {
    let (g, f) = game(entry);
    let s = solve::solve_within(&g, None, 2, solve::Limits::default(), &|_| {}).unwrap();
    near(
        &format!("{entry} exact value"),
        s.worth.value,
        num(&f, "value"),
        1e-9,
    );
    // Where OpenSpiel counted its positions, the solver met as many (Pig's
    // `states` are its decision positions: README.md).
    if let Some(n) = f["decision_states"]
        .as_u64()
        .or(f["nonterminal_states"].as_u64())
    {
        assert_eq!(s.states as u64, n, "{entry}: positions against OpenSpiel's");
    }
}

/// Perfect information: the best response to a uniformly random player,
/// by search (`random` states its policy, so this is exact).
fn best_response_to_random(entry: &str) {
    let (g, f) = game(entry);
    let roots = tabula::tree::roots(&g, None).unwrap();
    let br = tabula::analysis::response::best_response(&g, &roots, "random", 1).unwrap();
    let want = pair(&f, "uniform_best_response");
    near(
        &format!("{entry} best response to random, seat 0"),
        br[0],
        want[0],
        1e-9,
    );
    near(
        &format!("{entry} best response to random, seat 1"),
        br[1],
        want[1],
        1e-9,
    );
}

#[test]
fn kuhn_poker() {
    uniform_is_evaluated_as_openspiel_does("kuhn-poker");
    cfr_follows_openspiel("kuhn-poker", &[10, 30, 100, 300, 1000], 1e-9);
    let s = cfr_reaches_the_value("kuhn-poker", 1e-5);
    near("Kuhn's value", s.worth.value, -1.0 / 18.0, 1e-4);
    mccfr_comes_near("kuhn-poker", 0.02);
}

/// MCCFR by external sampling, 20,000 iterations, measured exactly: near
/// the equilibrium (within `tol` of exploitability and of the value).
fn mccfr_comes_near(entry: &str, tol: f64) {
    let (g, f) = game(entry);
    let limits = McLimits {
        iterations: 20_000,
        sampling: Some(Sampling::External),
        ..McLimits::default()
    };
    let m = mccfr::solve(&g, limits, &|_, _| {}).unwrap();
    assert!(m.exploitability.exact);
    assert!(
        m.exploitability.value < tol,
        "{entry}: {:?}",
        m.exploitability
    );
    near(
        &format!("{entry} MCCFR value"),
        m.worth.value,
        num(&f, "value"),
        tol,
    );
}

#[test]
fn leduc_poker() {
    uniform_is_evaluated_as_openspiel_does("leduc-poker");
    // OpenSpiel's cards have suits, tabula's do not: the same sets up to
    // symmetry, the same iterates up to rounding.
    cfr_follows_openspiel("leduc-poker", &[10, 30, 100], 1e-8);
    let s = cfr_reaches_the_value("leduc-poker", 1e-4);
    near(
        "Leduc's value",
        s.worth.value,
        num(&game("leduc-poker").1, "value"),
        1e-4,
    );
    assert_eq!(s.infosets, 288, "OpenSpiel's 2 x 468 with the suits merged");
}

#[test]
fn a_deck_marked_unordered_is_still_dealt_at_random() {
    // The same Leduc with its deck marked `unordered: true`: the public
    // card still comes from what the deal left, at random.
    let dir = root().join("games");
    let yaml = std::fs::read_to_string(dir.join("leduc-poker.yaml")).unwrap();
    let marked = yaml.replace(
        "deck: {name: Deck, per: game, visibility: hidden}",
        "deck: {name: Deck, per: game, visibility: hidden, unordered: true}",
    );
    assert_ne!(yaml, marked, "the deck's line was found");
    let script = std::fs::read_to_string(root().join("scripts/leduc-poker.rhai")).unwrap();
    let (_tmp, g) = common::load_folder("leduc-poker", &marked, &script);
    let limits = CfrLimits {
        target: 1e-3,
        ..CfrLimits::default()
    };
    let s = cfr::solve(&g, None, limits, &|_, _| {}).unwrap();
    assert_eq!(s.infosets, 288);
    near(
        "Leduc, unordered deck",
        s.worth.value,
        num(&game("leduc-poker").1, "value"),
        2e-3,
    );
}

#[test]
fn liars_dice() {
    uniform_is_evaluated_as_openspiel_does("liars-dice-sides3");
    cfr_follows_openspiel("liars-dice-sides3", &[10, 30, 100, 300], 1e-9);
    cfr_reaches_the_value("liars-dice-sides3", 1e-4);
    mccfr_comes_near("liars-dice-sides3", 0.05);
}

/// The same game written with dice rolled into cups (`count:`,
/// `roll_into`, `dice`): the same figures as OpenSpiel's.
#[test]
fn liars_dice_with_dice_in_cups() {
    uniform_is_evaluated_as_openspiel_does("liars-dice-cup-sides3");
    cfr_follows_openspiel("liars-dice-cup-sides3", &[10, 30, 100, 300], 1e-9);
    cfr_reaches_the_value("liars-dice-cup-sides3", 1e-4);
}

#[test]
fn tic_tac_toe() {
    exact_value("tic-tac-toe");
    best_response_to_random("tic-tac-toe");
}

/// Grid boards (zones with `grid:`): the examples' tic-tac-toe and
/// Connect Four at OpenSpiel's parameters (small boards: a debug build
/// solves them).
#[test]
fn grid_games() {
    for entry in ["tic-tac-toe-grid", "connect-four-3x4"] {
        exact_value(entry);
        best_response_to_random(entry);
    }
    exact_value("connect-four-4x4");
    // The evaluator keys positions by what each player sees: the cells
    // must stay apart in that key (they once ran together).
    uniform_is_evaluated_as_openspiel_does("connect-four-3x4");
}

#[test]
fn blotto() {
    exact_value("blotto");
    uniform_is_evaluated_as_openspiel_does("blotto");
    best_response_to_random("blotto");
    cfr_reaches_the_value("blotto", 1e-4);
}

#[test]
fn goofspiel() {
    exact_value("goofspiel");
    uniform_is_evaluated_as_openspiel_does("goofspiel");
    best_response_to_random("goofspiel");
    cfr_reaches_the_value("goofspiel", 1e-3);
}

#[test]
fn pig() {
    exact_value("pig-small");
    best_response_to_random("pig-small");
}
