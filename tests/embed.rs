//! The library as another program embeds it: scripts' `print` goes to the
//! sink the program names, and the `best` bot keeps its tables in the
//! folder the program names.

use std::sync::{Arc, Mutex};

use tabula::bot;
use tabula::{Settings, State};

use crate::common;

#[test]
fn a_scripts_print_goes_to_the_sink_the_program_names() {
    let tmp = tempfile::tempdir().unwrap();
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(tmp.path().join("games")).unwrap();
    std::fs::create_dir_all(tmp.path().join("scripts")).unwrap();
    std::fs::copy(
        root.join("games/experior.yaml"),
        tmp.path().join("games/experior.yaml"),
    )
    .unwrap();
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
