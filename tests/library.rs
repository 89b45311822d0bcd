//! The built-in library and a designer's copy of a game (issue #58): an
//! edit to a game never recompiles the program, a binary run from its
//! clone plays the clone's live files, and `tabula copy` makes a game of
//! one's own from any game, built-in ones included.

use std::path::{Path, PathBuf};

use crate::common::Test;
use crate::common::root;

/// The files rustc says the binary was built from: the dep-info of the
/// binary under `deps/` that the tested one is (`cargo test` leaves the
/// uplifted `tabula.d` beside it as an earlier `cargo build` wrote it).
fn binary_inputs() -> Vec<PathBuf> {
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_tabula"));
    let same = |p: &Path| {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let (a, b) = (exe.metadata().unwrap(), p.metadata().unwrap());
            a.ino() == b.ino() && a.dev() == b.dev()
        }
        #[cfg(not(unix))]
        {
            std::fs::read(p).ok() == std::fs::read(&exe).ok()
        }
    };
    let deps = exe.parent().unwrap().join("deps");
    let built = std::fs::read_dir(&deps)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_none_or(|x| x == "exe"))
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("tabula-")
        })
        .find(|p| same(p))
        .expect("the tested binary is one of deps/tabula-*");
    let d = built.with_extension("d");
    let text = std::fs::read_to_string(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
    let first = text.lines().next().unwrap_or_default();
    let (_, inputs) = first.split_once(": ").expect("target: inputs");
    // Relative paths are the package's.
    inputs.split_whitespace().map(|w| root().join(w)).collect()
}

#[test]
fn editing_a_game_or_a_script_never_recompiles_the_program() {
    let (games, scripts) = (root().join("games"), root().join("scripts"));
    let inputs = binary_inputs();
    // rustc tracks what it read (include_str! of games/x.yaml would be a
    // rebuild at every edit): the library comes from copies in OUT_DIR.
    let tracked: Vec<&PathBuf> = (inputs.iter())
        .filter(|p| p.starts_with(&games) || p.starts_with(&scripts))
        .collect();
    assert!(tracked.is_empty(), "the binary is rebuilt for {tracked:?}");
    let library = (inputs.iter())
        .find(|p| p.ends_with("out/library.rs"))
        .expect("the binary embeds OUT_DIR/library.rs");
    // And the build script asks cargo to run again for itself alone.
    let output = library.parent().unwrap().parent().unwrap().join("output");
    let said = std::fs::read_to_string(&output).unwrap();
    let reruns: Vec<&str> = said
        .lines()
        .filter_map(|l| l.strip_prefix("cargo:rerun-if-changed="))
        .collect();
    assert_eq!(reruns, ["build.rs"], "{said}");
}

/// The folders in a cache whose names start `library-`.
fn written_out(cache: &Path) -> usize {
    std::fs::read_dir(cache.join("tabula"))
        .map(|d| {
            d.flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("library-"))
                .count()
        })
        .unwrap_or(0)
}

#[test]
fn a_binary_in_its_clone_plays_the_clones_files_and_an_installed_one_its_own() {
    let empty = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    // Run from elsewhere, the test binary (in the clone's target/) finds
    // its games in the clone: nothing is written out, and a copy of a
    // game is the clone's file as it is now. (A target folder outside the
    // clone makes a binary like an installed one.)
    let in_clone = (Path::new(env!("CARGO_BIN_EXE_tabula"))
        .canonicalize()
        .unwrap())
    .starts_with(root().canonicalize().unwrap());
    Test::new()
        .args(["copy", "braverats", "mine"])
        .current_dir(empty.path())
        .cache(cache.path())
        .stdout_has("tabula --games-dir mine/games play braverats")
        .run();
    assert_eq!(written_out(cache.path()), usize::from(!in_clone));
    let copied = std::fs::read_to_string(empty.path().join("mine/games/braverats.yaml")).unwrap();
    assert_eq!(
        copied,
        std::fs::read_to_string(root().join("games/braverats.yaml")).unwrap()
    );
    // As installed (or told so), the embedded library is written out.
    Test::new()
        .args(["list"])
        .current_dir(empty.path())
        .cache(cache.path())
        .env("TABULA_LIBRARY", "embedded")
        .stdout_has("braverats")
        .run();
    assert_eq!(written_out(cache.path()), 1);
}

#[test]
fn a_copy_of_a_game_plays_on_its_own_and_is_never_written_over() {
    let here = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let copy = |extra: &[&str]| {
        Test::new()
            .args(["copy", "imperio", "my games"])
            .args(extra)
            .current_dir(here.path())
            .cache(cache.path())
            .env("TABULA_LIBRARY", "embedded")
    };
    // imperio extends braverats and runs braverats's script: all three.
    copy(&[])
        .stdout_has("games/imperio.yaml, games/braverats.yaml, scripts/braverats.rhai")
        .stdout_has("tabula --games-dir 'my games/games' play imperio")
        .run();
    let dir = here.path().join("my games");
    let game = dir.join("games/imperio.yaml");
    let script = dir.join("scripts/braverats.rhai");
    assert!(dir.join("games/braverats.yaml").is_file());
    // The copy is the one played, edits and all: a renamed game, and a
    // script that no longer compiles.
    let yaml = std::fs::read_to_string(&game).unwrap();
    let renamed = yaml.replace("name: El Imperio Contraataca", "name: My Empire");
    assert_ne!(yaml, renamed);
    std::fs::write(&game, &renamed).unwrap();
    let run = |args: &[&str]| {
        Test::new()
            .games_dir(dir.join("games"))
            .args(args)
            .current_dir(here.path())
            .cache(cache.path())
            .env("TABULA_LIBRARY", "embedded")
    };
    run(&["rules", "imperio"])
        .stdout_has("My Empire (imperio)")
        .run();
    let rhai = std::fs::read_to_string(&script).unwrap();
    std::fs::write(&script, format!("{rhai}\nfn broken( {{\n")).unwrap();
    run(&["check", "imperio", "--playouts", "1"])
        .status(1)
        .stderr_has("my games/scripts/braverats.rhai")
        .run();
    std::fs::write(&script, &rhai).unwrap();
    // Copied again: refused, the edits kept; --force replaces them.
    copy(&[])
        .status(1)
        .stderr_has("already there")
        .stderr_has("--force")
        .run();
    assert_eq!(std::fs::read_to_string(&game).unwrap(), renamed);
    copy(&["--force"]).run();
    assert_eq!(std::fs::read_to_string(&game).unwrap(), yaml);
}

#[test]
fn reload_of_a_built_in_game_says_its_copy_is_not_read_and_how_to_copy_it() {
    let empty = tempfile::tempdir().unwrap();
    Test::new()
        .args(["play", "braverats", "--as", "red", "--seed", "1"])
        .current_dir(empty.path())
        .cache(empty.path().join("cache"))
        .env("TABULA_LIBRARY", "embedded")
        .stdin("reload\nquit\n")
        .stdout_has("braverats is a built-in game: its rules are the program's own, and an edit to its written-out copy (")
        .stdout_has("`tabula copy braverats DIR` writes a copy of your own to edit")
        .run();
    // A game of one's own reloads without the note.
    let o = Test::new()
        .args(["play", "braverats", "--as", "red", "--seed", "1"])
        .stdin("reload\nquit\n")
        .stdout_has("Reloaded")
        .run();
    let out = String::from_utf8_lossy(&o.output.stdout).into_owned();
    assert!(!out.contains("built-in game"), "{out}");
}

#[test]
fn a_copy_takes_the_scripts_a_game_imports() {
    let here = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| Test::new().args(args).current_dir(here.path());
    run(&["copy", "braverats", "src"]).run();
    let script = here.path().join("src/scripts/braverats.rhai");
    let text = std::fs::read_to_string(&script).unwrap();
    std::fs::write(&script, format!("import \"util\" as u;\n{text}")).unwrap();
    std::fs::write(
        here.path().join("src/scripts/util.rhai"),
        "fn helper() { 1 }\n",
    )
    .unwrap();
    run(&["--games-dir", "src/games", "copy", "braverats", "out"])
        .stdout_has("games/braverats.yaml, scripts/braverats.rhai, scripts/util.rhai.")
        .run();
    assert_eq!(
        std::fs::read_to_string(here.path().join("out/scripts/util.rhai")).unwrap(),
        "fn helper() { 1 }\n"
    );
}
