//! The library as another program embeds it: a player index that names no
//! player is a typed error (never a panic), a move refused says why as
//! data, scripts' `print` goes to the sink the program names, and the
//! `best` bot keeps its tables in the folder the program names.

use std::sync::{Arc, Mutex};

use tabula::bot;
use tabula::error::{ErrorKind, Illegal};
use tabula::view::{render, view};
use tabula::{Settings, State};

use crate::common;

fn no_player(player: usize) -> ErrorKind {
    ErrorKind::Player { player }
}

#[test]
fn a_player_index_that_names_no_player_is_an_error_not_a_panic() {
    let game = common::load("braverats", &[], &[]);
    let (st, _) = State::new(&game, 7).unwrap();
    let c = st.legal(0)[0].clone();
    let before = view(&game, &st, None).unwrap();
    for p in [2, 99, usize::MAX] {
        let mut s = st.clone();
        let e = s.act(&game, p, c.clone()).unwrap_err();
        assert_eq!(e.kind, no_player(p), "{e}");
        assert!(e.to_string().contains(&format!("no player {p}")), "{e}");
        let e = s.apply_unchecked(&game, p, c.clone()).unwrap_err();
        assert_eq!(e.kind, no_player(p), "{e}");
        assert_eq!(view(&game, &s, None).unwrap(), before, "unchanged");
        let e = s.parse(&game, p, "prince").unwrap_err();
        assert_eq!(e.kind, no_player(p), "{e}");
        assert_eq!(view(&game, &s, Some(p)).unwrap_err().kind, no_player(p));
        assert_eq!(render(&game, &s, Some(p)).unwrap_err().kind, no_player(p));
        assert!(s.legal(p).is_empty());
        assert!(!s.may_choose(p));
        for kind in ["random", "mcts:50", "best"] {
            let mut b = bot::make(kind, 1).unwrap();
            assert_eq!(b.choose(&game, &s, p), None, "{kind}");
        }
        // Nothing to solve for a player who is not there.
        assert_eq!(bot::make("best", 1).unwrap().policy(&game, &s, p), None);
    }
}

#[test]
fn a_refused_move_says_why_as_data() {
    let game = common::load("braverats", &[], &[]);
    let (mut st, _) = State::new(&game, 7).unwrap();
    let prince = st.parse(&game, 0, "prince").unwrap();
    st.act(&game, 0, prince.clone()).unwrap();
    // Red has chosen: not red's decision now, and prince is spent for none.
    let e = st.act(&game, 0, prince.clone()).unwrap_err();
    assert_eq!(e.illegal_why(), Some(Illegal::NotTheirs), "{e}");
    assert_eq!(e.message, "it is not red's decision now");
    let e = st.parse(&game, 1, "nothing-like-a-card").unwrap_err();
    assert_eq!(e.illegal_why(), Some(Illegal::NotLegal), "{e}");
    let other = tabula::Choice::Word("no-such-word".into());
    let e = st.act(&game, 1, other).unwrap_err();
    assert_eq!(e.illegal_why(), Some(Illegal::NotLegal), "{e}");
    // A refusal is no illegal move.
    assert_eq!(e.refusal(), None);
    // Played to the end: every move is refused as the game being over.
    let mut random = bot::make("random", 3).unwrap();
    while let Some(p) = st.first_waiting() {
        let c = random.choose(&game, &st, p).unwrap();
        st.act(&game, p, c).unwrap();
    }
    let e = st.act(&game, 0, prince).unwrap_err();
    assert_eq!(e.illegal_why(), Some(Illegal::Over), "{e}");
    let e = st.parse(&game, 0, "prince").unwrap_err();
    assert_eq!(e.illegal_why(), Some(Illegal::Over), "{e}");
}

#[test]
fn a_scripts_print_goes_to_the_sink_the_program_names() {
    let tmp = crate::errors::experior_copy();
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let script = std::fs::read_to_string(root.join("scripts/experior.rhai")).unwrap();
    let script = script.replacen(
        "fn resolve(",
        "fn resolve_printed(plays) { print(\"embed-sink-7f3a\"); debug(\"embed-debug-7f3a\"); }\nfn resolve(",
        1,
    );
    // resolve prints first, then does what it did.
    let script = script.replacen(
        "fn resolve(plays) {",
        "fn resolve(plays) {\n    resolve_printed(plays);",
        1,
    );
    assert!(
        script.contains("resolve_printed(plays);"),
        "experior's resolve(plays)"
    );
    std::fs::write(tmp.path().join("scripts/experior.rhai"), script).unwrap();
    let lines: Arc<Mutex<Vec<String>>> = Arc::default();
    let sink = lines.clone();
    tabula::hooks::script::set_output(Some(Arc::new(move |l: &str| {
        sink.lock().unwrap().push(l.to_string())
    })));
    let game = tabula::load("experior", &tmp.path().join("games"), &Settings::default()).unwrap();
    let (mut st, _) = State::new(&game, 1).unwrap();
    for p in [0, 1] {
        let c = st.parse(&game, p, "qs").unwrap();
        st.act(&game, p, c).unwrap();
    }
    let got = lines.lock().unwrap().clone();
    let mine: Vec<&String> = got.iter().filter(|l| l.contains("7f3a")).collect();
    assert!(
        mine.iter().any(|l| *l == "[script] embed-sink-7f3a"),
        "{mine:?}"
    );
    assert!(
        mine.iter()
            .any(|l| l.starts_with("[script debug") && l.ends_with("embed-debug-7f3a\"")),
        "{mine:?}"
    );
}

#[test]
fn the_best_bot_keeps_its_tables_in_the_folder_the_program_names() {
    let cache = tempfile::Builder::new()
        .prefix("embed-cache")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap()
        .keep();
    tabula::files::set_cache_dir(Some(cache.clone()));
    // Settings no other test solves in this process: solved here, kept.
    let game = common::load("experior", &[], &[("wound_limit", 3), ("max_turns", 5)]);
    let start = State::new_quiet(&game, 0).unwrap();
    let me = start.first_waiting().unwrap();
    let mut best = bot::make("best", 1).unwrap();
    assert!(best.policy(&game, &start, me).is_some(), "solved");
    let kept = std::fs::read_dir(cache.join("equilibrium")).map_or(0, |d| d.count());
    assert_eq!(kept, 1, "one table in {}", cache.display());
}
