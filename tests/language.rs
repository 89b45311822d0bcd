//! The script language's asks (tests/games/auction.yaml): each player's own
//! options, numbers and ranges as options, structured options with their
//! fields and labels, data handed to a continuation, and log lines built
//! only when someone watches.

use crate::common;
use crate::common::Test;

use tabula::replay::apply_move;
use tabula::{Game, Settings, State};

use crate::common::{play_move as play, test_game, test_games_dir as games};

fn auction() -> Game {
    test_game("auction")
}

fn texts(game: &Game, st: &State, player: usize) -> Vec<String> {
    st.legal(player)
        .iter()
        .map(|c| c.text(game).to_string())
        .collect()
}

#[test]
fn each_player_bids_numbers_up_to_their_own_coins() {
    let game = auction();
    let (mut st, _) = State::new(&game, 1).unwrap();
    let all: Vec<String> = (0..=12).map(|n| n.to_string()).collect();
    assert_eq!(texts(&game, &st, 0), all);
    // Numbers compare as numbers: 10 beats 9 (as text it would not).
    play(&game, &mut st, &[("red", "10"), ("blue", "9")]);
    assert_eq!(
        texts(&game, &st, 0),
        ["take gem1", "take gem2", "take gem3"]
    );
    assert!(texts(&game, &st, 1).is_empty(), "only the winner takes");
    let log = play(&game, &mut st, &[("red", "take gem3")]);
    // The structured option's fields and the ask's data reached `take`.
    assert!(
        log.iter()
            .any(|l| l.contains("Red paid 10 for the Big gem (take gem3).")),
        "{log:?}"
    );
    let red = game.def().player("red").unwrap();
    let points = game.def().stat("points").unwrap();
    assert_eq!(st.stat(&game, red, points), 3);
    // Red has 2 coins left, blue still 12: their options differ.
    assert_eq!(texts(&game, &st, 0), ["0", "1", "2"]);
    assert_eq!(texts(&game, &st, 1), all);
    let log = play(&game, &mut st, &[("red", "2"), ("blue", "1")]);
    assert!(
        log.iter()
            .any(|l| l.contains("Round 2: red bids 2, blue bids 1.")),
        "{log:?}"
    );
}

#[test]
fn labels_and_prompts_are_made_for_people_watching_only() {
    let game = auction();
    let (mut loud, _) = State::new(&game, 1).unwrap();
    let d = loud.decision().unwrap();
    assert_eq!(&*d.prompt, "your bid");
    let three = loud.parse(&game, 0, "3").unwrap();
    assert_eq!(d.label(&three), Some("3 coin(s)"));
    play(&game, &mut loud, &[("red", "3"), ("blue", "1")]);
    let gem = loud.parse(&game, 0, "take gem2").unwrap();
    assert_eq!(loud.decision().unwrap().label(&gem), Some("worth 2"));

    let mut quiet = State::new_quiet(&game, 1).unwrap();
    let d = quiet.decision().unwrap();
    assert_eq!(&*d.prompt, "bid");
    assert!(d.labels.is_empty());
    let (r, b) = (quiet.legal(0)[3].clone(), quiet.legal(1)[1].clone());
    quiet.apply_unchecked(&game, 0, r).unwrap();
    quiet.apply_unchecked(&game, 1, b).unwrap();
    assert!(quiet.decision().unwrap().labels.is_empty());
    // A log line's text is not even built when nobody watches.
    let watched = game.def().var("watched").unwrap();
    assert_eq!(loud.var(watched), 1);
    assert_eq!(quiet.var(watched), 0);
}

#[test]
fn memo_replays_equal_script_runs_with_data_and_structured_options() {
    let game = auction();
    for seed in 0..200 {
        let mut ends = Vec::new();
        for quiet in [false, true] {
            let st = common::play_random(&game, seed, quiet);
            let mut v = tabula::view::view(&game, &st, None).unwrap();
            v.vars.clear(); // `watched` differs by design
            ends.push(serde_json::to_string(&v).unwrap());
        }
        assert_eq!(ends[0], ends[1], "seed {seed}");
    }
    assert!(game.memo_stats().is_some_and(|m| m.hits > 0));
}

/// A copy of the auction in a temporary folder (`games/`, `scripts/`), its
/// YAML and script each changed by a function of the text.
fn auction_copy(
    yaml: impl FnOnce(String) -> String,
    script: impl FnOnce(String) -> String,
) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("games")).unwrap();
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    let y = std::fs::read_to_string(games().join("auction.yaml")).unwrap();
    std::fs::write(dir.join("games/auction.yaml"), yaml(y)).unwrap();
    let s = std::fs::read_to_string(games().join("../scripts/auction.rhai")).unwrap();
    std::fs::write(dir.join("scripts/auction.rhai"), script(s)).unwrap();
    tmp
}

/// The auction with one line of its script replaced: the error of the
/// first bid.
fn broken(old: &str, new: &str) -> String {
    let tmp = auction_copy(
        |y| y,
        |s| {
            assert!(s.contains(old), "{old}");
            s.replace(old, new)
        },
    );
    let dir = tmp.path();
    let game = tabula::load("auction", &dir.join("games"), &Settings::default()).unwrap();
    let mut st = State::new(&game, 1).unwrap().0;
    let m = vec![
        ("red".to_string(), "5".to_string()),
        ("blue".to_string(), "1".to_string()),
    ];
    match apply_move(&game, &mut st, &m) {
        Ok(_) => panic!("{new}: no error"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_mistaken_ask_says_what_is_wrong() {
    let e = broken(r#"text: "take {prize}""#, r#"text: "take {price}""#);
    assert!(
        e.contains("names `price`, which the option does not have"),
        "{e}"
    );
    let e = broken(r#"text: "take {prize}""#, r#"text: "take""#);
    assert!(e.contains("two options read `take`"), "{e}");
    let e = broken(r#"text: "take {prize}", "#, "");
    assert!(e.contains("a map option needs a `text`"), "{e}");
    let e = broken("data: #{paid: paid}", "data: #{paid: || 1}");
    assert!(e.contains("cannot be kept in the game"), "{e}");
    let e = broken(
        r#"ask(winner, "take", options, "claim""#,
        r#"ask(winner, "take", #{blue: options}, "claim""#,
    );
    assert!(
        e.contains("ask `take`: the options name no options for `red`"),
        "{e}"
    );
    let e = broken(
        r#"ask(winner, "take", options, "claim""#,
        r#"ask(winner, "take", #{red: options, blue: options}, "claim""#,
    );
    assert!(e.contains("options for `blue`, who is not asked"), "{e}");
}

/// What `code` (the body of a script function) returns, as the first log
/// line of a watched auction started with `seed`, or the error.
fn probe(code: &str, seed: u64) -> Result<String, String> {
    let tmp = auction_copy(
        |y| y,
        |s| {
            format!(
                "{}\nfn probe() {{\n{code}\n}}\n",
                s.replace("fn round() {", "fn round() {\n    log(`${probe()}`);")
            )
        },
    );
    let dir = tmp.path();
    let game = tabula::load("auction", &dir.join("games"), &Settings::default()).unwrap();
    let (_, events) = State::new(&game, seed).map_err(|e| e.to_string())?;
    let lines: Vec<String> = events.iter().map(|e| tabula::phrase(&game, e)).collect();
    Ok(lines
        .into_iter()
        .find(|l| !l.starts_with("---"))
        .unwrap_or_default())
}

#[test]
fn lists_sort_stably_by_a_key_and_find_the_least_and_greatest() {
    let fights = r#"let l = [#{v: 2, n: "a"}, #{v: 1, n: "b"}, #{v: 2, n: "c"}, #{v: 1, n: "d"}];"#;
    let run = |rest: &str| probe(&format!("{fights}\n{rest}"), 1).unwrap();
    assert_eq!(
        run("l.sort_by(|x| x.v); l.map(|x| x.n)"),
        r#"["b", "d", "a", "c"]"#
    );
    assert_eq!(
        run("l.sort_by(|x| [-x.v, x.n]); l.map(|x| x.n)"),
        r#"["a", "c", "b", "d"]"#
    );
    assert_eq!(run("l.sort_by(|x| x.n); l.map(|x| x.v)"), "[2, 1, 2, 1]");
    assert_eq!(run("l.min_by(|x| x.v).n"), "b");
    assert_eq!(run("l.max_by(|x| x.v).n"), "a");
    assert_eq!(run("[].max_by(|x| x) == ()"), "true");
    let e = probe("let l = [1, \"a\"]; l.sort_by(|x| x); l", 1).unwrap_err();
    assert!(e.contains("sort keys must be numbers, texts"), "{e}");
}

#[test]
fn shuffle_and_pick_use_the_games_seed() {
    let code = "let l = [1, 2, 3, 4, 5, 6, 7, 8]; l.shuffle(); `${l} ${pick(l)}`";
    let a = probe(code, 7).unwrap();
    assert_eq!(a, probe(code, 7).unwrap(), "a seed reproduces it");
    let others: Vec<String> = (8..14).map(|s| probe(code, s).unwrap()).collect();
    assert!(others.iter().any(|o| *o != a), "{a} {others:?}");
    let mut sorted: Vec<char> = a[..a.find(']').unwrap()]
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    sorted.sort_unstable();
    assert_eq!(sorted.iter().collect::<String>(), "12345678", "{a}");
}

#[test]
fn forced_moves_auto_plays_a_players_only_option_for_them() {
    let tmp = auction_copy(|y| format!("{y}forced_moves: auto\n"), |s| s);
    let dir = tmp.path();
    let settings = Settings {
        variants: vec![],
        sets: vec![("coins".into(), 1.into())],
    };
    let game = tabula::load("auction", &dir.join("games"), &settings).unwrap();
    let (mut st, _) = State::new(&game, 1).unwrap();
    // Both may bid 0 or 1. Red wins the first prize with 1 and is left with
    // no coin: from then on red's bid of 0 is played for them.
    play(&game, &mut st, &[("red", "1"), ("blue", "0")]);
    let log = play(&game, &mut st, &[("red", "take gem3")]);
    assert!(
        log.iter().any(|l| l == "Red plays 0: the only choice"),
        "{log:?}"
    );
    assert_eq!(st.waiting(), [1], "only blue chooses");
    assert_eq!(texts(&game, &st, 1), ["0", "1"]);
    // A save made here loads to the same position: the forced bid is not
    // part of any move.
    let mut session = tabula::session::Session::from_replay(
        dir,
        tabula::replay::Replay {
            game: dir
                .join("games/auction.yaml")
                .to_string_lossy()
                .into_owned(),
            settings: settings.clone(),
            seed: 1,
            moves: vec![
                vec![("blue".into(), "0".into()), ("red".into(), "1".into())],
                vec![("red".into(), "take gem3".into())],
            ],
            ..Default::default()
        },
        None,
        vec![tabula::session::Seat::Person; 2],
    )
    .unwrap();
    assert_eq!(session.state.waiting(), [1]);
    session.act(1, "1").unwrap();
    let moves = session.to_replay().moves;
    assert_eq!(moves.len(), 3, "{moves:?}");
    assert_eq!(moves[2], [("blue".to_string(), "1".to_string())]);
}

#[test]
fn a_declared_payoff_is_what_solve_sim_and_the_view_report() {
    let settings = Settings {
        variants: vec![],
        sets: vec![("coins".into(), 2.into())],
    };
    let game = tabula::load("auction", &games(), &settings).unwrap();
    // Symmetric: the margin of points under best play is 0.
    let s = tabula::solve::solve(&game, 0, 1).unwrap();
    assert_eq!(s.head.payoff.as_deref(), Some("points"));
    assert!(s.worth.value.abs() < 1e-9, "{s:?}");
    // Red takes two gems with a coin each, then blue the last: the view
    // gives each player's points as their return.
    let (mut st, _) = State::new(&game, 1).unwrap();
    for gem in ["gem3", "gem2"] {
        play(&game, &mut st, &[("red", "1"), ("blue", "0")]);
        play(&game, &mut st, &[("red", &format!("take {gem}"))]);
    }
    assert!(
        tabula::view::view(&game, &st, None)
            .unwrap()
            .payoff
            .is_none(),
        "not over"
    );
    play(&game, &mut st, &[("red", "0"), ("blue", "1")]);
    play(&game, &mut st, &[("blue", "take gem1")]);
    let p = tabula::view::view(&game, &st, None)
        .unwrap()
        .payoff
        .unwrap();
    assert_eq!((p["red"], p["blue"]), (5, 1));
    // sim: the mean return per seat.
    let cfg = tabula::sim::SimConfig {
        games: 400,
        seed: 0,
        bots: vec!["random".into(); 2],
        jobs: 1,
        max_decisions: 10_000,
        shard: None,
    };
    let t = tabula::sim::run(&game, &cfg, &|_| {}).unwrap();
    let r = tabula::sim::report(&game, &cfg, &t);
    let (red, _) = r.seats[0].payoff.unwrap();
    let (blue, _) = r.seats[1].payoff.unwrap();
    assert!((0.0..=6.0).contains(&red) && (0.0..=6.0).contains(&blue));
    assert!(red + blue > 0.0);
}

#[test]
fn lint_warns_of_a_function_named_like_a_built_in_and_of_one_never_called() {
    let tmp = auction_copy(
        |y| y,
        |s| {
            format!(
                "{s}\nfn push(list, x) {{ list }}\n\nfn never_used() {{ 1 }}\n\nfn used() {{ push([], 1) }}\n"
            )
            .replace("fn round() {", "fn round() {\n    used();")
        },
    );
    let dir = tmp.path();
    let o = Test::new()
        .args(["check", "--lint", "--playouts", "2", "--games-dir"])
        .arg(dir.join("games"))
        .run()
        .output;
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "warnings do not fail check: {err}");
    assert!(err.contains("warning: "), "{err}");
    assert!(
        err.contains("function `push` has the name of a built-in function"),
        "{err}"
    );
    assert!(
        err.contains("function `never_used` is never called"),
        "{err}"
    );
    assert!(!err.contains("`used`"), "{err}");
    assert!(
        !err.contains("`claim`"),
        "a continuation named in an ask: {err}"
    );
    assert!(err.contains("auction.rhai:"), "positioned: {err}");
}
