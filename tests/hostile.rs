//! Careless and hostile input gets a clear, positioned error: never a
//! panic, a hang or a silently wrong game (issue #17's battery, in part).

use crate::common;
use crate::common::Test;

use std::path::Path;

use tabula::Settings;

/// A folder with games/ (the test game, edited) and scripts/.
fn folder(edits: &[(&str, &str)], script: Option<&str>) -> tempfile::TempDir {
    common::every_section_copy(edits, script)
}

fn load(dir: &Path) -> tabula::Result<tabula::Game> {
    tabula::load("every-section", &dir.join("games"), &Settings::default())
}

/// The load error of the edited test game: its messages and lines.
fn problems(edits: &[(&str, &str)]) -> Vec<(String, u32)> {
    let tmp = folder(edits, None);
    let e = match load(tmp.path()) {
        Ok(_) => panic!("loaded: {edits:?}"),
        Err(e) => e,
    };
    std::iter::once(&e)
        .chain(&e.also)
        .map(|p| (p.message.clone(), p.at.as_ref().map_or(0, |a| a.line)))
        .collect()
}

#[test]
fn max_turns_below_one_is_refused() {
    let p = problems(&[("max_turns: 10", "max_turns: -1")]);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].0.contains("`max_turns` is -1"), "{p:?}");
    assert!(p[0].1 > 0, "positioned: {p:?}");
}

#[test]
fn a_word_names_one_card_and_can_be_typed() {
    // An alias equal to another card's id would play the other card.
    let p = problems(&[("one: {name: One,", "one: {name: One, aliases: [two],")]);
    assert!(
        p[0].0.contains("alias `two` already names card `two`"),
        "{p:?}"
    );
    assert!(p[0].1 > 0, "{p:?}");
    // Two cards sharing an alias.
    let p = problems(&[
        ("one: {name: One,", "one: {name: One, aliases: [x],"),
        ("two: {name: Two}", "two: {name: Two, aliases: [x]}"),
    ]);
    assert!(
        p[0].0.contains("alias `x` already names card `one`"),
        "{p:?}"
    );
    // Spaces at the ends of an alias or an option word cannot be typed.
    let p = problems(&[("one: {name: One,", "one: {name: One, aliases: [\" uno\"],")]);
    assert!(p[0].0.contains("spaces at its ends"), "{p:?}");
    let p = problems(&[("      from: hand", "      options: [\"go \", stop]")]);
    assert!(p[0].0.contains("option `go ` has spaces"), "{p:?}");
    assert!(p[0].1 > 0, "{p:?}");
}

#[test]
fn an_extends_cycle_is_named_and_a_long_chain_refused() {
    let tmp = folder(&[], None);
    let games = tmp.path().join("games");
    std::fs::write(games.join("a.yaml"), "extends: b\nid: a\n").unwrap();
    std::fs::write(games.join("b.yaml"), "extends: a\nid: b\n").unwrap();
    let e = tabula::load("a", &games, &Settings::default())
        .err()
        .unwrap();
    assert!(
        e.message.contains("cycle: a.yaml -> b.yaml -> a.yaml"),
        "{e}"
    );
    assert!(e.at.is_some(), "{e}");
    // A chain of ten files, each extending the next, the last the game.
    for i in 0..10 {
        let next = if i == 9 {
            "every-section".to_string()
        } else {
            format!("c{}", i + 1)
        };
        std::fs::write(
            games.join(format!("c{i}.yaml")),
            format!("extends: {next}\n"),
        )
        .unwrap();
    }
    let e = tabula::load("c0", &games, &Settings::default())
        .err()
        .unwrap();
    assert!(e.message.contains("more than 8 files"), "{e}");
    // Nine files in all are too many; eight are fine (c3 .. c9, the game).
    let e = tabula::load("c2", &games, &Settings::default())
        .err()
        .unwrap();
    assert!(e.message.contains("more than 8 files"), "{e}");
    assert!(tabula::load("c3", &games, &Settings::default()).is_ok());
}

#[test]
fn adding_past_the_integer_range_is_a_script_error() {
    let script = "fn resolve(plays) {\n    add_stat(\"red\", \"square\", 9223372036854775807);\n    add_stat(\"red\", \"square\", 1);\n}\n";
    let tmp = folder(&[], Some(script));
    let game = load(tmp.path()).unwrap();
    let (mut st, _) = tabula::State::new(&game, 1).unwrap();
    let one = st.parse(&game, 0, "one").unwrap();
    st.act(&game, 0, one).unwrap();
    let one = st.parse(&game, 1, "one").unwrap();
    let e = st.act(&game, 1, one).unwrap_err();
    assert!(e.to_string().contains("64-bit integer range"), "{e}");
}

fn tabula(args: &[&str]) -> std::process::Output {
    Test::new()
        .env("TABULA_BOT", "mcts")
        .args(args)
        .run()
        .output
}

#[test]
fn bad_bot_budgets_and_thread_counts_are_usage_errors() {
    for kind in [
        "mcts:-1s",
        "mcts:NaNs",
        "mcts:infs",
        "mcts:0",
        "mcts:1e300s",
    ] {
        let bot = format!("red={kind}");
        let o = tabula(&["sim", "braverats", "--games", "2", "--bot", &bot]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{kind}: {err}");
        assert!(err.contains("above 0"), "{kind}: {err}");
        assert!(!err.contains("panicked"), "{kind}: {err}");
    }
    for jobs in ["0", "100000"] {
        let o = tabula(&["sim", "braverats", "--games", "2", "--jobs", jobs]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{jobs}: {err}");
        assert!(err.contains("1..=256"), "{jobs}: {err}");
    }
    // More threads than games (or cores) only thrash: capped, and said.
    let o = tabula(&["sim", "braverats", "--games", "1", "--jobs", "200"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("using 1 thread(s), not 200"), "{err}");
    assert!(err.contains(", 1 thread(s))"), "{err}");
}

#[test]
fn sizes_past_the_budgets_are_refused_up_front() {
    let p = problems(&[("one: {name: One,", "one: {copies: 1000000000, name: One,")]);
    assert!(
        p[0].0
            .contains("card `one`: `copies` is 1000000000: give 0 to 100000"),
        "{p:?}"
    );
    assert!(p[0].1 > 0, "{p:?}");
    // Each card's copies in range, more than setup may place in all.
    let p = problems(&[
        ("one: {name: One,", "one: {copies: 100000, name: One,"),
        ("two: {name: Two}", "two: {name: Two, copies: 100000}"),
    ]);
    assert!(p[0].0.contains("at most 100000 in all"), "{p:?}");
    assert!(p[0].1 > 0, "{p:?}");
    let p = problems(&[("size: 5", "size: 1000000000")]);
    assert!(
        p[0].0
            .contains("`board: size` is 1000000000: give 1 to 100000"),
        "{p:?}"
    );
    assert!(p[0].1 > 0, "{p:?}");
    // 66,000 kinds of card: more than a card index holds.
    let many: String = (0..66_000).map(|i| format!("  k{i}: {{}}\n")).collect();
    let p = problems(&[("cards:\n", &format!("cards:\n{many}"))]);
    assert!(
        p.iter()
            .any(|(m, _)| m.contains("66002 cards; at most 65000")),
        "{:?}",
        &p[..1]
    );
}

#[test]
fn endless_files_are_refused_not_read() {
    #[cfg(unix)]
    {
        let o = tabula(&["replay", "/dev/zero"]);
        assert_eq!(o.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&o.stderr).contains("a device, not a file"));
        let tmp = folder(
            &[("id: every-section", "id: every-section\nscript: /dev/zero")],
            None,
        );
        let e = load(tmp.path()).err().unwrap();
        assert!(e.to_string().contains("not a script"), "{e}");
    }
}

#[test]
fn a_hook_that_logs_or_asks_without_end_is_stopped_early() {
    for (body, says) in [
        (
            "let line = \"x\"; for i in 0..16 { line += line; } loop { log(line); }",
            "logged more than 1024 KiB",
        ),
        (
            "let o = []; for i in 0..9000 { o.push(`w${i}`); } loop { ask(\"red\", \"pick\", o, \"resolve\"); }",
            "more than 100000 options",
        ),
    ] {
        let script = format!("fn resolve(plays) {{\n{body}\n}}\n");
        let tmp = folder(&[], Some(&script));
        let game = load(tmp.path()).unwrap();
        for logged in [true, false] {
            let mut st = if logged {
                tabula::State::new(&game, 1).unwrap().0
            } else {
                tabula::State::new_quiet(&game, 1).unwrap()
            };
            let one = st.parse(&game, 0, "one").unwrap();
            st.act(&game, 0, one).unwrap();
            let one = st.parse(&game, 1, "one").unwrap();
            let e = st.act(&game, 1, one).unwrap_err();
            // A log line is not even built when nobody watches: the endless
            // loop meets the operation limit then.
            let quiet_log = !logged && says.starts_with("logged");
            let says = if quiet_log {
                "more than 2000000 operations"
            } else {
                says
            };
            assert!(e.to_string().contains(says), "{e}");
        }
    }
}

#[test]
fn messages_speak_the_users_terms_and_stay_short() {
    // A value of none of the allowed forms.
    let p = problems(&[("start: {param: goal}", "start: [1, 2]")]);
    assert!(p[0].0.contains("none of the allowed forms"), "{p:?}");
    assert!(!p[0].0.contains("untagged"), "{p:?}");
    // An integer out of range on the command line.
    let o = tabula(&[
        "rules",
        "experior",
        "--set",
        "wound_limit=99999999999999999999",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("outside the integer range"), "{err}");
    // A seat given to a person and to a bot.
    let o = tabula(&["play", "braverats", "--as", "red", "--bot", "red=random"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("a person or a bot, not both"), "{err}");
    // A typo in --compare is found before the first column runs.
    let o = tabula(&[
        "sim",
        "braverats",
        "--games",
        "200000",
        "--compare",
        "fst-rat",
        "--jobs",
        "1",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("unknown variant `fst-rat`"), "{err}");
    assert!(!err.contains("games/s"), "nothing ran: {err}");
    // An empty move, and a huge bad one, in a replay.
    let tmp = tempfile::tempdir().unwrap();
    let save = |moves: &str| {
        let p = tmp.path().join("g.yaml");
        std::fs::write(&p, format!("game: braverats\nseed: 1\nmoves:\n{moves}")).unwrap();
        tabula(&["replay", p.to_str().unwrap()])
    };
    let o = save("  - {}\n");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("an empty move"), "{err}");
    let o = save(&format!("  - {{red: {}}}\n", "x".repeat(200_000)));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("200000 characters"), "{err}");
    assert!(
        err.len() < 4_000,
        "the move is not echoed whole: {} bytes",
        err.len()
    );
}

#[test]
fn escape_sequences_from_files_and_scripts_reach_no_terminal() {
    let script = "fn resolve(plays) {\n    log(\"\\x1b[2Jcleared\");\n    end_game();\n}\n";
    let tmp = folder(
        &[
            ("name: Every section", "name: \"Every \\e[31msection\""),
            (
                "one: {name: One,",
                "one: {name: \"One\\x07\", text: \"\\e]0;title\\a\",",
            ),
        ],
        Some(script),
    );
    let game = load(tmp.path()).unwrap();
    let def = game.def();
    assert_eq!(def.name, "Every \\u{1b}[31msection");
    assert!(
        !def.cards[0].name.contains('\u{7}'),
        "{:?}",
        def.cards[0].name
    );
    assert!(!def.cards[0].text.chars().any(char::is_control));
    let (mut st, _) = tabula::State::new(&game, 1).unwrap();
    let one = st.parse(&game, 0, "one").unwrap();
    st.act(&game, 0, one).unwrap();
    let one = st.parse(&game, 1, "one").unwrap();
    let events = st.act(&game, 1, one).unwrap();
    let text: String = events.iter().map(|e| tabula::phrase(&game, e)).collect();
    assert!(text.contains("\\u{1b}[2Jcleared"), "{text}");
    assert!(!text.contains('\u{1b}'), "{text:?}");
    // And in an error naming something from the file.
    let p = problems(&[("from: hand", "from: \"h\\e[2Jand\"")]);
    assert!(
        p[0].0.contains('\u{1b}'),
        "the message keeps the name as data"
    );
    let tmp = folder(&[("from: hand", "from: \"h\\e[2Jand\"")], None);
    let rendered = load(tmp.path()).err().unwrap().render(false);
    assert!(!rendered.contains('\u{1b}'), "{rendered:?}");
}

#[test]
fn input_that_ends_mid_game_says_the_game_was_not_saved() {
    let run = |input: &str| {
        Test::new()
            .args(["play", "braverats", "--as", "red", "--seed", "1"])
            .env("TABULA_BOT", "mcts")
            .stdin(input)
            .run()
            .output
    };
    // The Musician cannot end the game in the first round, whatever the
    // bot answers (its search is cut by time, so its answer varies; the
    // Prince would lose to a Princess at once).
    let o = run("musician\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("it was not saved"));
    // `quit` is leaving on purpose.
    assert_eq!(run("musician\nquit\n").status.code(), Some(0));
}

#[test]
fn a_save_always_loads_again_to_the_same_moves() {
    use tabula::replay::Replay;
    let words = [
        "Yes",
        "NO",
        "On",
        "0x10",
        "0o7",
        "1e5",
        ".inf",
        "~",
        "null",
        "Null",
        "7",
        "-x",
        "x: y",
        "[a]",
        "#c",
        "a\u{7}b",
        "tab\there",
        "é",
        "'q'",
        "\"dq\"",
        "back\\slash",
        "del\u{7f}",
        "c1\u{85}\u{9b}",
        "\u{feff}bom",
        "not\u{fffe}a\u{ffff}char",
        "line\u{2028}sep",
    ];
    let r = Replay {
        game: "braverats".into(),
        seed: 3,
        moves: words
            .iter()
            .map(|w| {
                vec![
                    ("red".to_string(), w.to_string()),
                    ("Yes".to_string(), w.to_string()),
                ]
            })
            .collect(),
        ..Replay::default()
    };
    let yaml = r.to_yaml();
    let back =
        Replay::parse(Path::new("save.yaml"), &yaml).unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    assert_eq!(back.moves, r.moves, "{yaml}");
}

#[test]
fn a_save_never_replaces_a_link_or_a_device() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tabula::replay::Replay {
        game: "braverats".into(),
        ..Default::default()
    };
    let target = tmp.path().join("real.yaml");
    std::fs::write(&target, "keep me").unwrap();
    #[cfg(unix)]
    {
        let link = tmp.path().join("link.yaml");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let e = r.save(&link).unwrap_err();
        assert!(e.message.contains("a link"), "{e}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
        let e = r.save(Path::new("/dev/null")).unwrap_err();
        assert!(
            e.message
                .contains("/dev/null: a device; a save goes to a regular file"),
            "{e}"
        );
    }
    // A plain save works, and leaves no temporary file behind.
    let plain = tmp.path().join("game.yaml");
    r.save(&plain).unwrap();
    assert!(
        std::fs::read_to_string(&plain)
            .unwrap()
            .starts_with("game: braverats")
    );
    let names: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert_eq!(names.len(), if cfg!(unix) { 3 } else { 2 });
}

#[test]
fn a_replay_naming_a_file_that_is_no_game_shows_none_of_it() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("secret.txt"), "root:x:0:0:secret\n").unwrap();
    let save = tmp.path().join("g.yaml");
    std::fs::write(&save, "game: secret.txt\nmoves: []\n").unwrap();
    let o = tabula(&["replay", save.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("not a game file"), "{err}");
    assert!(!err.contains("root:x"), "{err}");
}

#[test]
fn a_long_game_save_loads_again() {
    use tabula::replay::Replay;
    let r = Replay {
        game: "braverats".into(),
        moves: (0..60_000)
            .map(|i| {
                vec![
                    ("red".to_string(), format!("w{i}")),
                    ("blue".to_string(), "pass".to_string()),
                ]
            })
            .collect(),
        ..Replay::default()
    };
    let yaml = r.to_yaml();
    let back = Replay::parse(Path::new("long.yaml"), &yaml).unwrap();
    assert_eq!(back.moves.len(), 60_000);
    assert_eq!(back.moves, r.moves);
}

#[test]
fn a_game_saved_mid_decision_goes_on_as_the_uninterrupted_game() {
    use tabula::session::{Seat, Session};
    let dir = common::games_dir();
    let people = vec![Seat::Person, Seat::Person];
    let start = || {
        let mut s = Session::new(&dir, "experior", Settings::default(), 5, people.clone()).unwrap();
        // Two full rounds by hand, then the first player's half of a third.
        for _ in 0..2 {
            for p in 0..2 {
                let c = s.state.legal(p)[0].text(&s.game).to_string();
                s.act(p, &c).unwrap();
            }
        }
        let c = s.state.legal(0)[0].text(&s.game).to_string();
        s.act(0, &c).unwrap();
        s
    };
    let finish = |mut s: Session| {
        s.seats = vec![Seat::Bot("random".into()); 2];
        while s.bot_step().unwrap().is_some() {}
        assert!(s.state.is_over());
        (s.to_replay().moves, s.log.len())
    };
    let straight = start();
    let saved =
        tabula::replay::Replay::parse(Path::new("mid.yaml"), &straight.to_replay().to_yaml())
            .unwrap();
    let loaded = Session::from_replay(&dir, saved, None, people.clone()).unwrap();
    assert_eq!(loaded.move_count(), straight.move_count());
    assert!(!loaded.unsaved() || straight.unsaved());
    assert_eq!(finish(loaded), finish(straight));
}

#[test]
fn solve_stops_with_a_reason_on_a_game_without_end_or_past_its_budgets() {
    use tabula::solve::{self, Limits};
    // No roll and no turn limit: a resolve that changes nothing loops.
    let endless = [
        ("    - roll: d2\n      set: face\n", ""),
        ("  max_turns: 10\n", ""),
    ];
    let tmp = folder(&endless, Some("fn resolve(plays) {}\n"));
    let game = load(tmp.path()).unwrap();
    let e = solve::solve(&game, 0, 2).unwrap_err();
    assert!(
        e.message.contains("past 20000 decisions without ending"),
        "{e}"
    );
    // A long line: Experior at its largest limits, searched depth first.
    let big = common::load(
        "experior",
        &[],
        &[("wound_limit", 1_000_000), ("max_turns", 1_000_000)],
    );
    let e = solve::solve(&big, 0, 1).unwrap_err();
    assert!(e.message.contains("past 20000 decisions"), "{e}");
    // A position budget: this game's 11,477 positions are all counted
    // exactly by the size estimate, which refuses before the search
    // starts (no progress reported).
    let small = common::load("experior", &[], &[("wound_limit", 5), ("max_turns", 12)]);
    let limits = Limits {
        max_states: 10_000,
        ..Limits::default()
    };
    let seen = std::sync::atomic::AtomicUsize::new(0);
    let progress = |n| {
        seen.fetch_max(n, std::sync::atomic::Ordering::Relaxed);
    };
    let e = solve::solve_within(&small, Some(0), 2, limits, &progress).unwrap_err();
    assert!(e.message.contains("more than 10000 positions"), "{e}");
    assert_eq!(seen.load(std::sync::atomic::Ordering::Relaxed), 0);
    // Within the budget the same game solves, with progress reported on
    // the way.
    let s = solve::solve_within(&small, Some(0), 2, Limits::default(), &progress).unwrap();
    assert_eq!(s.states, 11_477);
    assert_eq!(seen.into_inner(), 8_192);
}

#[test]
fn a_zone_that_holds_some_cards_takes_no_other() {
    let only_ones = [
        (
            "one: {name: One, names: {blue: Uno}}",
            "one: {name: One, names: {blue: Uno}, attrs: {kind: x}}",
        ),
        ("pile: {per: game}", "pile: {per: game, holds: {kind: x}}"),
    ];
    // Setup: known from the file, so `check` reports it at the `put`.
    let mut edits = only_ones.to_vec();
    edits.push((
        "  - shuffle: pile\n",
        "  - shuffle: pile\n  - put: {zone: pile, cards: [one, two]}\n",
    ));
    let p = problems(&edits);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].0
            .contains("`two` cannot go into `pile`: it holds only cards with kind: x"),
        "{p:?}"
    );
    assert_eq!(p[0].1, 29);
    // A script: move_card, move_all and draw each refuse a card that does
    // not fit, with or without the memo (which must agree with a live run).
    for (body, refused) in [
        (
            "move_card(\"two\", \"red\", \"hand\", \"\", \"pile\");",
            true,
        ),
        (
            "move_card(\"one\", \"red\", \"hand\", \"\", \"pile\");",
            false,
        ),
        ("move_all(\"blue\", \"hand\", \"\", \"pile\");", true),
        (
            "move_card(\"one\", \"blue\", \"hand\", \"\", \"pile\"); draw(\"\", \"pile\", \"red\", \"hand\"); draw(\"blue\", \"hand\", \"\", \"pile\");",
            true,
        ),
    ] {
        let script = format!("fn resolve(plays) {{\n    {body}\n    end_game();\n}}\n");
        let tmp = folder(&only_ones, Some(&script));
        for memo in [true, false] {
            let game = tabula::Game::load_path(
                &tmp.path().join("games/every-section.yaml"),
                &tmp.path().join("games"),
                &Settings::default(),
                tabula::Build {
                    memo,
                    ..Default::default()
                },
            )
            .unwrap();
            let mut played = Vec::new();
            for seed in 0..4 {
                let mut st = tabula::State::new_quiet(&game, seed).unwrap();
                played.push(
                    st.act(&game, 0, st.legal(0)[0].clone())
                        .and_then(|_| st.act(&game, 1, st.legal(1)[1].clone())),
                );
            }
            for r in played {
                match r {
                    Err(e) if refused => {
                        assert!(e.message.contains("cannot go into `pile`"), "{e}")
                    }
                    Err(e) => panic!("{body}: {e}"),
                    Ok(_) => assert!(!refused, "{body} was accepted (memo {memo})"),
                }
            }
        }
    }
}

#[test]
fn a_replay_with_tags_that_change_a_word_is_refused() {
    use tabula::replay::Replay;
    let parse = |text: &str| Replay::parse(Path::new("r.yaml"), text);
    let base = "game: braverats\nseed: 1\nmoves:\n  - {red: prince, blue: spy}\n";
    assert_eq!(parse(base).unwrap().moves[0][0].1, "prince");
    // `!!str` says what a plain word is anyway.
    let s = parse(&base.replace("red: prince", "red: !!str prince")).unwrap();
    assert_eq!(s.moves[0][0].1, "prince");
    for (from, to, line) in [
        ("game: braverats", "game: !!binary YnJhdmVyYXRz", 1),
        ("red: prince", "red: !!binary cHJpbmNl", 4),
        ("red: prince", "red: !mine prince", 4),
    ] {
        let e = parse(&base.replace(from, to)).unwrap_err();
        assert!(e.message.contains("tag"), "{e}");
        assert_eq!(e.at.map(|a| a.line), Some(line), "{to}");
    }
}

#[cfg(unix)]
#[test]
fn a_folder_whose_name_is_not_utf8_loads_and_is_shown_losslessly() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = folder(&[], None);
    let odd = tmp.path().join(std::ffi::OsStr::from_bytes(b"g\xffx"));
    std::fs::create_dir(&odd).unwrap();
    for d in ["games", "scripts"] {
        std::fs::rename(tmp.path().join(d), odd.join(d)).unwrap();
    }
    let game = tabula::load("every-section", &odd.join("games"), &Settings::default());
    assert!(game.is_ok(), "{:?}", game.err());
    let Err(e) = tabula::load("nothing", &odd.join("games"), &Settings::default()) else {
        panic!("a game that is not there loaded");
    };
    assert!(e.to_string().contains("g\\xFFx"), "{e}");
}

/// Two players, each with a hand of the same `n` cards, who play one card
/// each at once, three times.
fn big_hands(n: usize) -> (tempfile::TempDir, tabula::Game) {
    let cards: String = (0..n).map(|i| format!("  c{i}: {{}}\n")).collect();
    let yaml = format!(
        "id: hands\nname: Hands\nplayers:\n  - {{id: a}}\n  - {{id: b}}\ncards:\n{cards}zones:\n  hand: {{per: player, visibility: owner}}\n  pile: {{per: game, visibility: public}}\n\
         setup:\n  - put: {{zone: hand, cards: all}}\n\
         flow:\n  turn:\n    - decide: play\n      who: all\n      simultaneous: true\n      from: hand\n      then: played\n  max_turns: 3\n"
    );
    let script =
        "fn played(c) { for p in players() { move_card(c[p], p, \"hand\", \"\", \"pile\"); } }\n";
    let (tmp, path) = common::game_folder("hands", &yaml, script);
    let game = tabula::Game::load_path(
        &path,
        &tmp.path().join("games"),
        &Settings::default(),
        tabula::Build::default(),
    )
    .unwrap();
    (tmp, game)
}

#[test]
fn hands_of_thousands_of_cards_take_memory_in_proportion() {
    let (_tmp, game) = big_hands(5_000);
    // Every hand played from is a new ask of 10,000 options: the asks kept
    // for reuse are bounded by their options, not only by their number
    // (300 asks here would keep 48 MB).
    let before = tabula::memory::thread_bytes();
    let bots = vec!["random".to_string(), "random".to_string()];
    for seed in 0..100 {
        let r = tabula::sim::play_one(&game, seed, &bots, 100);
        assert!(r.error.is_none(), "{:?}", r.error);
    }
    let kept = tabula::memory::thread_bytes() - before;
    assert!(kept < 32 << 20, "{} MiB kept", kept >> 20);
    // A decision of 5,000 x 5,000 joint choices is refused before any is
    // listed (25 million would take gigabytes).
    let limits = tabula::solve::Limits::default();
    let e = tabula::solve::solve_within(&game, None, 1, limits, &|_| {}).unwrap_err();
    assert!(
        e.message.contains("a decision of 25000000 joint choices"),
        "{e}"
    );
}
