//! The equilibrium bot: exact play where solve applies (so a best
//! response wins nothing from it), its solve kept on disk and found again,
//! and the search bot's play where solve does not apply.

use crate::common::Test;

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::load;
use tabula::State;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `tabula` with its cache in `cache`.
fn tabula(dir: &Path, cache: &Path, args: &[&str]) -> Output {
    Test::new()
        .current_dir(dir)
        .cache(cache)
        .args(args)
        .run()
        .output
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn tables(cache: &Path) -> usize {
    std::fs::read_dir(cache.join("tabula/equilibrium")).map_or(0, |d| d.count())
}

const SMALL: [&str; 4] = ["--set", "wound_limit=4", "--set", "max_turns=6"];

#[test]
fn a_best_response_wins_nothing_from_the_equilibrium_bot() {
    let cache = tempfile::tempdir().unwrap();
    let mut args = vec!["solve", "experior"];
    args.extend(SMALL);
    args.extend(["--exploit", "best", "--exploit", "random", "--json"]);
    let out: serde_json::Value =
        serde_json::from_str(&ok(&tabula(&root(), cache.path(), &args))).unwrap();
    let of = |bot: &str| -> f64 {
        out["exploit"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["bot"] == bot)
            .and_then(|e| e["exploitability"].as_f64())
            .unwrap()
    };
    assert!(of("best").abs() < 1e-6, "best: {}", of("best"));
    assert!(of("random") > 0.05, "random: {}", of("random"));
    assert_eq!(tables(cache.path()), 1, "the solve is kept");
}

#[test]
fn the_equilibrium_is_solved_once_and_found_again() {
    let cache = tempfile::tempdir().unwrap();
    let mut args = vec![
        "sim",
        "experior",
        "--bot",
        "human=best",
        "--games",
        "60",
        "--json",
    ];
    args.extend(SMALL);
    let first = ok(&tabula(&root(), cache.path(), &args));
    assert_eq!(tables(cache.path()), 1);
    let again = ok(&tabula(&root(), cache.path(), &args));
    assert_eq!(first, again, "the kept solve plays as the fresh one");
    // Another setting is another game: solved again, kept beside.
    let mut other = args.clone();
    let last = other.len() - 1;
    other[last] = "max_turns=5";
    ok(&tabula(&root(), cache.path(), &other));
    assert_eq!(tables(cache.path()), 2);
    // So are edited rules (a comment is an edit: the key is the content).
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("games")).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    let yaml = std::fs::read_to_string(root().join("games/experior.yaml")).unwrap();
    std::fs::write(
        dir.path().join("games/experior.yaml"),
        format!("{yaml}\n# edited\n"),
    )
    .unwrap();
    std::fs::copy(
        root().join("scripts/experior.rhai"),
        dir.path().join("scripts/experior.rhai"),
    )
    .unwrap();
    ok(&tabula(dir.path(), cache.path(), &args));
    assert_eq!(tables(cache.path()), 3);
    // A damaged table is not trusted: solved again, same play.
    for f in std::fs::read_dir(cache.path().join("tabula/equilibrium")).unwrap() {
        std::fs::write(f.unwrap().path(), b"TABEQ01\ngarbage").unwrap();
    }
    assert_eq!(ok(&tabula(&root(), cache.path(), &args)), first);
}

#[test]
fn where_solve_does_not_apply_the_equilibrium_bot_has_no_exact_policy() {
    let cache = tempfile::tempdir().unwrap();
    // The Path has a die: solve refuses it, and so its best response.
    let o = tabula(
        &root(),
        cache.path(),
        &["solve", "the-path", "--exploit", "best"],
    );
    assert_eq!(o.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&o.stderr).contains("solve cannot handle"));
    // Experior's full game is far bigger than 1,000 positions: no exact
    // policy (the bot then searches), and nothing kept.
    let game = load("experior", &[], &[]);
    let st = State::new_quiet(&game, 0).unwrap();
    let mut bot = tabula::bot::make("best:1000", 1).unwrap();
    assert!(bot.policy(&game, &st, 0).is_none());
    assert_eq!(tables(cache.path()), 0);
    let mut random = tabula::bot::make("random", 1).unwrap();
    let pi = random.policy(&game, &st, 0).unwrap();
    assert!(
        pi.iter()
            .all(|(_, p)| (p - 1.0 / pi.len() as f64).abs() < 1e-12)
    );
}

#[test]
fn the_second_to_choose_at_once_plays_from_the_decisions_start() {
    // Both seats are the bot's: the second to be asked at a simultaneous
    // choice must not see the first's choice, nor fall back to search
    // because the half-made decision was never solved.
    let game = load("experior", &[], &[("wound_limit", 4), ("max_turns", 6)]);
    let start = State::new_quiet(&game, 0).unwrap();
    let d = start.decision().unwrap();
    assert_eq!(d.players.len(), 2, "a simultaneous first decision");
    let mut bot = tabula::bot::make("best", 1).unwrap();
    let second = d.players[1];
    let before = bot.policy(&game, &start, second).expect("solved");
    for c in start.legal(d.players[0]).to_vec() {
        let mut half = start.clone();
        half.apply_unchecked(&game, d.players[0], c).unwrap();
        assert_eq!(bot.policy(&game, &half, second).as_ref(), Some(&before));
    }
    // A mixed strategy: the duel has no pure answer at the start.
    assert!(
        before.iter().filter(|(_, p)| *p > 1e-9).count() > 1,
        "{before:?}"
    );
}

fn kept(cache: &Path, ext: &str) -> Vec<PathBuf> {
    std::fs::read_dir(cache.join("tabula/equilibrium")).map_or(Vec::new(), |d| {
        d.filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .collect()
    })
}

#[test]
fn a_refused_solve_is_kept_and_a_bigger_budget_tries_again() {
    let cache = tempfile::tempdir().unwrap();
    let sim = |kind: &str| {
        let bot = format!("human={kind}");
        let args = ["sim", "experior", "--bot", &bot, "--games", "1"];
        ok(&tabula(&root(), cache.path(), &args));
        let files = kept(cache.path(), "refused");
        assert_eq!(files.len(), 1, "{files:?}");
        std::fs::read_to_string(&files[0]).unwrap()
    };
    let first = sim("best:1000");
    assert!(first.starts_with("1000\n"), "{first}");
    assert!(first.contains("more than 1000 positions"), "{first}");
    // A bigger budget is not bound by a smaller one's refusal.
    assert!(sim("best:2000").starts_with("2000\n"));
    // A smaller one believes the kept refusal and does not solve again
    // (it would write its own budget).
    assert!(sim("best:1500").starts_with("2000\n"));
    assert_eq!(kept(cache.path(), "bin").len(), 0);
}

#[test]
fn play_seats_the_equilibrium_bot_and_works_it_out_while_the_person_plays() {
    use std::io::Write;
    let cache = tempfile::tempdir().unwrap();
    let mut args = vec!["play", "experior", "--as", "human", "--seed", "2"];
    args.extend(SMALL);
    let mut running = Test::new().args(&args).cache(cache.path()).spawn();
    let child = &mut running.child;
    let mut stdin = child.stdin.take().unwrap();
    // The person has not chosen yet: the solve runs meanwhile.
    let start = std::time::Instant::now();
    while kept(cache.path(), "bin").is_empty() && start.elapsed().as_secs() < 300 {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(
        kept(cache.path(), "bin").len(),
        1,
        "the equilibrium is kept"
    );
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    let o = running.child.wait_with_output().unwrap();
    let out = ok(&o);
    assert!(out.contains("Elf (best bot)"), "{out}");
    assert!(
        out.contains("searches while the exact equilibrium is worked out"),
        "{out}"
    );
}

/// The banner says what the default bot really is: where exact play
/// cannot apply it searches, and says why, without a solve attempt.
#[test]
fn the_banner_says_when_the_best_bot_only_searches() {
    let cache = tempfile::tempdir().unwrap();
    let play = |args: &[&str]| -> String {
        let o = Test::new()
            .args(args)
            .cache(cache.path())
            .stdin("quit\nn\n")
            .run();
        ok(&o.output)
    };
    // Hidden dice: no exact equilibrium (CFR+ is `solve`'s, not the bot's).
    let dice = play(&[
        "--games-dir",
        "tests/reference/games",
        "play",
        "liars-dice",
        "--as",
        "first",
    ]);
    assert!(
        dice.contains("The best bot searches here: no exact equilibrium, since"),
        "{dice}"
    );
    assert!(dice.contains("cannot know"), "{dice}");
    // Three players.
    let path = play(&["play", "the-path", "--set", "players=3", "--as", "p1"]);
    assert!(path.contains("The best bot searches here"), "{path}");
    assert!(path.contains("two-player"), "{path}");
    // Nothing was solved or refused on disk for either.
    assert!(kept(cache.path(), "bin").is_empty());
}

#[test]
fn a_default_bot_that_names_no_kind_is_refused() {
    // As a bad `--bot` kind: a usage error.
    Test::new()
        .args(["play", "experior", "--as", "human"])
        .env("TABULA_BOT", "mcts:0")
        .status(1)
        .stderr_has("TABULA_BOT")
        .stderr_has("mcts:0")
        .run();
}

#[test]
fn in_a_match_the_last_choice_of_a_game_is_the_equilibriums_too() {
    // The lopsided duel as a match: each game is one choice, whose
    // outcomes start the next game, solved apart from the first's table.
    let dir = root().join("tests/games");
    let settings = tabula::Settings {
        variants: vec!["match".into()],
        sets: vec![("table".into(), 2.into())],
    };
    let game = tabula::load("duel", &dir, &settings).unwrap();
    let start = State::new_quiet(&game, 0).unwrap();
    let solved = tabula::solve::solve(&game, 0, 1).unwrap();
    let mut bot = tabula::bot::make("best", 1).unwrap();
    let mix = bot.policy(&game, &start, 0).expect("solved, not searched");
    let want = &solved.strategies[0].mix;
    for ((c, p), (name, q)) in mix.iter().zip(want) {
        assert_eq!(c.text(&game), name.as_str());
        assert!((p - q).abs() < 1e-6, "{mix:?} vs {want:?}");
    }
}

/// Eight turns of a number from 1 to 10 each: 100 million positions at
/// the last, far over the best bot's budget of 3 million (and found so
/// from some 14,000 random lines, a second).
const WIDE: &str = r#"
id: wide
script: ../scripts/wide.rhai
players: [{id: a}, {id: b}]
vars:
  code: {start: 0}
flow:
  turns: rotate
  turn: [{hook: play_turn}]
"#;

const WIDE_SCRIPT: &str = r#"
fn play_turn() { ask(active(), "number", 1..=10, "chosen"); }
fn chosen(c) {
    let n = c[active()];
    set_var("code", get_var("code") * 11 + n);
    if turn() == 8 { end_game(); }
}
"#;

/// A game whose size estimate is far over the budget is refused by the
/// background solve, and the refusal kept: the next game starts no solve,
/// and its banner says the bot searches, and why, rather than promise an
/// equilibrium being worked out.
#[test]
fn a_game_refused_for_its_size_starts_no_background_solve_again() {
    use std::io::Write;
    let cache = tempfile::tempdir().unwrap();
    let (_tmp, path) = crate::common::game_folder("wide", WIDE, WIDE_SCRIPT);
    let path = path.to_str().unwrap();
    let args = ["play", path, "--as", "a", "--seed", "1"];
    let mut running = Test::new().args(args).cache(cache.path()).spawn();
    let mut stdin = running.child.stdin.take().unwrap();
    let start = std::time::Instant::now();
    while kept(cache.path(), "refused").is_empty() && start.elapsed().as_secs() < 300 {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    let first = ok(&running.child.wait_with_output().unwrap());
    assert!(
        first.contains("searches while the exact equilibrium is worked out"),
        "{first}"
    );
    let refused = kept(cache.path(), "refused");
    assert_eq!(refused.len(), 1, "the refusal is kept");
    let why = std::fs::read_to_string(&refused[0]).unwrap();
    assert!(why.contains("needs more than 3000000 positions"), "{why}");
    // Again: nothing to work out, and the banner says so.
    let o = Test::new()
        .args(args)
        .cache(cache.path())
        .stdin("quit\n")
        .run();
    let second = ok(&o.output);
    assert!(
        second.contains("(The best bot searches here: no exact equilibrium, since it needs more than 3000000 positions"),
        "{second}"
    );
    assert!(!second.contains("worked out in the background"), "{second}");
}

/// In one process (a server's tables, the REPL's `new`): once a game's
/// solve is refused for its size, starting its bots again starts no
/// background solve.
#[test]
fn once_refused_for_its_size_a_game_starts_no_other_background_solve() {
    use tabula::bot::best;
    // A game of its own (a nonce in its script): no refusal kept before.
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let script = format!("{WIDE_SCRIPT}\n// {nonce}\n");
    let (tmp, path) = crate::common::game_folder("wide", WIDE, &script);
    let load = || {
        let dir = tmp.path().join("games");
        tabula::Game::load_path(&path, &dir, &Default::default(), tabula::Build::default()).unwrap()
    };
    let game = load();
    let st = State::new_quiet(&game, 1).unwrap();
    assert_eq!(best::background_solves(&game), 0);
    best::prepare(load(), st.clone());
    assert_eq!(best::background_solves(&game), 1);
    let start = std::time::Instant::now();
    while best::refusal(&game).is_none() && start.elapsed().as_secs() < 300 {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let why = best::refusal(&game).expect("refused");
    assert!(why.contains("needs more than 3000000 positions"), "{why}");
    best::prepare(load(), st);
    assert_eq!(best::background_solves(&game), 1, "no second solve");
    assert!(matches!(
        best::plays(&game, &State::new_quiet(&game, 1).unwrap()),
        best::Plays::Search(_)
    ));
}
