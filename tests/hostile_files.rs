//! Files tabula reads back or writes, handled as a careful user expects
//! when they are hostile or damaged (issue #28): each is bounded and
//! checked before it is trusted, a FIFO or a device is never waited on,
//! nothing is written through a link nor outside where the user pointed,
//! and a write is whole or not at all.

#![cfg(unix)]

use crate::common;
use crate::common::Test;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `tabula args` in `dir`, with its home and cache in `home`, killed (and
/// the test failed) if it has not ended in `secs`: a FIFO must not block.
fn tabula_in(dir: &Path, home: &Path, args: &[&str], secs: u64) -> Output {
    Test::new()
        .current_dir(dir)
        .home(home)
        .cache(home.join("cache"))
        .env("TABULA_BOT", "mcts")
        // The written-out library, as an installed binary has it.
        .env("TABULA_LIBRARY", "embedded")
        .args(args)
        .timeout(secs)
        .run()
        .output
}

/// `tabula args` from the repository, home in `home`.
fn tabula(home: &Path, args: &[&str]) -> Output {
    tabula_in(&root(), home, args, 300)
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", err(o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

/// A regular file one byte past 16 MiB that takes no disk (sparse).
fn huge(path: &Path) {
    let f = std::fs::File::create(path).unwrap();
    f.set_len(tabula::files::MAX_FILE_BYTES + 1).unwrap();
}

#[test]
fn the_one_reader_refuses_a_fifo_a_device_and_a_huge_file_without_reading() {
    use tabula::files::{MAX_FILE_BYTES, read_bytes};
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("pipe");
    mkfifo(&fifo);
    let e = read_bytes(&fifo, MAX_FILE_BYTES, "a save").unwrap_err();
    assert_eq!(
        e.to_string(),
        "a named pipe (FIFO), not a file: a save is read from a regular file"
    );
    // A link to /dev/zero is a device, read not at all.
    let zero = tmp.path().join("zero.yaml");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let e = read_bytes(&zero, MAX_FILE_BYTES, "a save").unwrap_err();
    assert!(e.to_string().starts_with("a device, not a file"), "{e}");
    let e = read_bytes(tmp.path(), MAX_FILE_BYTES, "a save").unwrap_err();
    assert!(e.to_string().starts_with("a folder, not a file"), "{e}");
    let big = tmp.path().join("big.yaml");
    huge(&big);
    let e = read_bytes(&big, MAX_FILE_BYTES, "a save").unwrap_err();
    assert_eq!(e.to_string(), "longer than 16 MiB, the most a save may be");
    // The cap is the caller's; a file at the cap is read whole.
    std::fs::write(&big, b"12345").unwrap();
    assert!(read_bytes(&big, 4, "a table").is_err());
    assert_eq!(read_bytes(&big, 5, "a table").unwrap(), b"12345");
}

#[test]
fn saves_and_shards_that_are_fifos_or_huge_are_refused_at_once() {
    let home = tempfile::tempdir().unwrap();
    let fifo = home.path().join("part.json");
    mkfifo(&fifo);
    let big = home.path().join("big.json");
    huge(&big);
    let (fifo, big) = (fifo.to_str().unwrap(), big.to_str().unwrap());
    for (args, says) in [
        (vec!["replay", fifo], "named pipe (FIFO), not a file"),
        (vec!["merge", fifo], "named pipe (FIFO), not a file"),
        (
            vec!["merge", big],
            "longer than 16 MiB, the most a shard may be",
        ),
    ] {
        let o = tabula_in(&root(), home.path(), &args, 60);
        let e = err(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {e}");
        assert!(e.contains(says), "{args:?}: {e}");
        assert!(e.contains(args[1]), "names the file: {e}");
    }
}

/// The written-out library's folder in `home` (after one command).
fn library(home: &Path) -> PathBuf {
    let cache = home.join("cache/tabula");
    std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("library-")
        })
        .expect("the library is written out")
}

fn built_in(name: &str) -> String {
    std::fs::read_to_string(root().join(name)).unwrap()
}

#[test]
fn a_fifo_in_the_written_out_library_blocks_no_command() {
    let home = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    ok(&tabula_in(empty.path(), home.path(), &["list"], 120));
    let game = library(home.path()).join("games/braverats.yaml");
    std::fs::remove_file(&game).unwrap();
    mkfifo(&game);
    let o = tabula_in(empty.path(), home.path(), &["list"], 120);
    assert!(ok(&o).contains("braverats"));
    assert!(
        err(&o).contains("named pipe (FIFO), not the library's file; replaced by it"),
        "{}",
        err(&o)
    );
    assert!(std::fs::symlink_metadata(&game).unwrap().is_file());
    assert_eq!(
        std::fs::read_to_string(&game).unwrap(),
        built_in("games/braverats.yaml")
    );
}

#[test]
fn a_library_folder_replaced_by_a_link_is_never_written_through() {
    let home = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    ok(&tabula_in(empty.path(), home.path(), &["list"], 120));
    let games = library(home.path()).join("games");
    // The user's own folder, with a game of theirs under a built-in name.
    let mine = home.path().join("my-games");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("braverats.yaml"), "mine").unwrap();
    std::fs::remove_dir_all(&games).unwrap();
    std::os::unix::fs::symlink(&mine, &games).unwrap();
    // A file of the library replaced by a link to a user's file, too.
    let script = library(home.path()).join("scripts/experior.rhai");
    std::fs::write(home.path().join("notes.rhai"), "my notes").unwrap();
    std::fs::remove_file(&script).unwrap();
    std::os::unix::fs::symlink(home.path().join("notes.rhai"), &script).unwrap();
    let o = tabula_in(empty.path(), home.path(), &["list"], 120);
    assert!(ok(&o).contains("braverats"));
    let e = err(&o);
    assert!(e.contains("a link, not the library's own folder"), "{e}");
    assert!(e.contains("what it pointed to is untouched"), "{e}");
    assert!(
        e.contains("experior.rhai: a link, not the library's file"),
        "{e}"
    );
    assert_eq!(
        std::fs::read_to_string(mine.join("braverats.yaml")).unwrap(),
        "mine"
    );
    assert_eq!(std::fs::read_dir(&mine).unwrap().count(), 1);
    assert_eq!(
        std::fs::read_to_string(home.path().join("notes.rhai")).unwrap(),
        "my notes"
    );
    assert!(std::fs::symlink_metadata(&games).unwrap().is_dir());
    assert!(std::fs::symlink_metadata(&script).unwrap().is_file());
}

#[test]
fn an_edit_to_the_written_out_library_is_kept_aside_and_said() {
    let home = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let first = tabula_in(empty.path(), home.path(), &["list"], 120);
    assert!(!err(&first).contains("edited"), "{}", err(&first));
    let game = library(home.path()).join("games/braverats.yaml");
    let edit = built_in("games/braverats.yaml") + "# my edit\n";
    std::fs::write(&game, &edit).unwrap();
    let o = tabula_in(empty.path(), home.path(), &["list"], 120);
    let e = err(&o);
    assert!(
        e.contains("braverats.yaml: edited since it was written out; your edit is kept as "),
        "{e}"
    );
    assert!(e.contains("`tabula copy GAME DIR`"), "{e}");
    assert_eq!(
        std::fs::read_to_string(&game).unwrap(),
        built_in("games/braverats.yaml")
    );
    // The edit is not lost: it is the file the message names.
    let kept: Vec<PathBuf> = std::fs::read_dir(game.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            (p.file_name().unwrap().to_string_lossy()).starts_with("braverats.yaml.edited-")
        })
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert!(e.contains(&kept[0].display().to_string()), "{e}");
    assert_eq!(std::fs::read_to_string(&kept[0]).unwrap(), edit);
    // Said once: the next command finds the library as it was written.
    let again = tabula_in(empty.path(), home.path(), &["list"], 120);
    assert_eq!(err(&again), "", "{}", err(&again));
}

const TABLE_HEAD: usize = 8 + 8 + 16 + 8;

/// The one equilibrium table kept in `home`.
fn table(home: &Path) -> PathBuf {
    let dir = home.join("cache/tabula/equilibrium");
    let tables: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "bin"))
        .collect();
    assert_eq!(tables.len(), 1, "{tables:?}");
    tables[0].clone()
}

/// A table's checksum as the engine computes it (a hash of all before it).
fn checksum(bytes: &[u8]) -> [u8; 8] {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    h.write(bytes);
    h.finish().to_le_bytes()
}

/// A table's positions and values, sorted, if its checksum is right (a
/// solve writes them in no fixed order).
fn entries(table: &[u8]) -> Vec<(u128, f64)> {
    let (body, sum) = table.split_at(table.len() - 8);
    assert_eq!(checksum(body), sum, "a table as the engine writes it");
    let mut out: Vec<(u128, f64)> = body[TABLE_HEAD..]
        .chunks_exact(24)
        .map(|c| {
            let k = u128::from_le_bytes(c[..16].try_into().unwrap());
            (k, f64::from_le_bytes(c[16..].try_into().unwrap()))
        })
        .collect();
    out.sort_by_key(|e| e.0);
    out
}

/// `table` with each value changed by `f`, its checksum made right again.
fn with_values(table: &[u8], f: impl Fn(f64) -> f64) -> Vec<u8> {
    let mut t = table[..table.len() - 8].to_vec();
    for c in t[TABLE_HEAD..].chunks_exact_mut(24) {
        let v = f64::from_le_bytes(c[16..].try_into().unwrap());
        c[16..].copy_from_slice(&f(v).to_le_bytes());
    }
    let sum = checksum(&t);
    t.extend_from_slice(&sum);
    t
}

#[test]
fn an_equilibrium_table_damaged_cut_or_renamed_is_solved_again_never_trusted() {
    let home = tempfile::tempdir().unwrap();
    let sim = |max_turns: &str| {
        let turns = format!("max_turns={max_turns}");
        let args = [
            "sim",
            "experior",
            "--bot",
            "human=best",
            "--games",
            "30",
            "--json",
            "--set",
            "wound_limit=4",
            "--set",
            &turns,
        ];
        let o = tabula(home.path(), &args);
        // Said when a table was found to be no file.
        let fifo = format!(
            "{}: a named pipe (FIFO), not an equilibrium table: ignored",
            table(home.path()).display()
        );
        let said = err(&o).contains(&fifo);
        (ok(&o), said)
    };
    let (first, said) = sim("6");
    assert!(!said);
    let path = table(home.path());
    let good = std::fs::read(&path).unwrap();
    assert!(good.starts_with(b"TABEQ02\n"));
    let n = entries(&good).len();
    let sum = &good[good.len() - 8..];
    assert!(n > 10, "{n} positions");
    // Another setting's table, to be renamed into place.
    std::fs::rename(&path, home.path().join("kept.bin")).unwrap();
    sim("5");
    let other = std::fs::read(table(home.path())).unwrap();
    std::fs::remove_file(table(home.path())).unwrap();
    assert_ne!(other, good);
    // Every value negated (the bot would then lose), checksum left alone.
    let mut negated = good.clone();
    for i in 0..n {
        negated[TABLE_HEAD + 24 * i + 23] ^= 0x80;
    }
    // Half the positions, the count made to match, the checksum kept.
    let mut half = good[..TABLE_HEAD + 24 * (n / 2)].to_vec();
    half[32..40].copy_from_slice(&((n / 2) as u64).to_le_bytes());
    half.extend_from_slice(sum);
    // Values that are no numbers, though the checksum is right for them.
    let nan = with_values(&good, |_| f64::NAN);
    let cases: [(&str, Option<&[u8]>); 5] = [
        ("negated", Some(&negated)),
        ("cut in half", Some(&half)),
        ("not numbers", Some(&nan)),
        ("another setting's", Some(&other)),
        ("a FIFO", None),
    ];
    for (what, bytes) in cases {
        match bytes {
            Some(b) => std::fs::write(&path, b).unwrap(),
            None => {
                std::fs::remove_file(&path).unwrap();
                mkfifo(&path)
            }
        }
        let (out, said) = sim("6");
        assert_eq!(out, first, "{what}: plays as the fresh solve");
        assert_eq!(said, bytes.is_none(), "{what}: a FIFO is said");
        let again = std::fs::read(&path).unwrap();
        assert_eq!(again[..TABLE_HEAD], good[..TABLE_HEAD], "{what}: replaced");
        let (fresh, want) = (entries(&again), entries(&good));
        assert!(
            fresh.len() == want.len()
                && fresh
                    .iter()
                    .zip(&want)
                    .all(|(a, b)| a.0 == b.0 && (a.1 - b.1).abs() < 1e-9),
            "{what}: solved again, the same values"
        );
    }
}

#[test]
fn a_fifo_at_a_refusal_file_blocks_no_sim() {
    let home = tempfile::tempdir().unwrap();
    let args = [
        "sim",
        "experior",
        "--bot",
        "human=best:1000",
        "--games",
        "1",
    ];
    ok(&tabula(home.path(), &args));
    let dir = home.path().join("cache/tabula/equilibrium");
    let refusal = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    assert!(refusal.extension().is_some_and(|x| x == "refused"));
    std::fs::remove_file(&refusal).unwrap();
    mkfifo(&refusal);
    let o = tabula_in(&root(), home.path(), &args, 300);
    ok(&o);
    assert!(
        err(&o).contains(&format!(
            "{}: a named pipe (FIFO), not a kept refusal: ignored",
            refusal.display()
        )),
        "{}",
        err(&o)
    );
    let text = std::fs::read_to_string(&refusal).unwrap();
    assert!(text.starts_with("1000\n"), "kept again: {text}");
}

#[test]
fn a_chart_is_checked_before_the_run_and_never_written_through_a_link() {
    let home = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    // No such folder: said before any game is played.
    let o = tabula(
        home.path(),
        &[
            "sim",
            "braverats",
            "--games",
            "3000",
            "--chart",
            "no-such-folder/x.svg",
        ],
    );
    let e = err(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(
        e.contains("no folder no-such-folder to write a chart in"),
        "{e}"
    );
    assert!(!e.contains("games in"), "no game was played: {e}");
    // A link is refused before the run, and its target kept.
    let target = out.path().join("mine.svg");
    std::fs::write(&target, "keep me").unwrap();
    let link = out.path().join("x.svg");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let chart_to = |to: &Path| {
        let to = to.to_str().unwrap();
        tabula(
            home.path(),
            &["sim", "braverats", "--games", "10", "--chart", to],
        )
    };
    let o = chart_to(&link);
    let e = err(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("a link; a chart goes to a regular file"), "{e}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
    // A plain chart is written, whole, and leaves no temporary file, with
    // the mode the umask gives a new file (not a temporary file's 0600).
    // SAFETY: umask has no preconditions; files made meanwhile by other
    // tests get the usual mode.
    unsafe { libc::umask(0o022) };
    let chart = out.path().join("c.svg");
    let o = chart_to(&chart);
    assert!(ok(&o).contains("braverats"), "the report is printed");
    assert!(std::fs::read_to_string(&chart).unwrap().contains("</svg>"));
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 3);
    // With the permissions any new file there gets (the umask's), not a
    // temporary file's private 0600.
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&chart), 0o644);
    // A chart written again over one made private stays private.
    std::fs::set_permissions(&chart, std::fs::Permissions::from_mode(0o600)).unwrap();
    ok(&chart_to(&chart));
    assert_eq!(mode(&chart), 0o600);
}

#[test]
fn a_game_file_reads_only_a_script_in_its_own_folders() {
    let home = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let secret = "root:x:0:0:secret(";
    let check = |edits: &[(&str, &str)], link: bool| -> String {
        let tmp = common::every_section_copy(edits, None);
        std::fs::write(tmp.path().join("secret.txt"), secret).unwrap();
        if link {
            let script = tmp.path().join("scripts/every-section.rhai");
            std::fs::remove_file(&script).unwrap();
            std::os::unix::fs::symlink(tmp.path().join("secret.txt"), &script).unwrap();
        }
        let game = tmp.path().join("games/every-section.yaml");
        let o = tabula(home.path(), &["check", game.to_str().unwrap()]);
        let e = err(&o);
        assert_eq!(o.status.code(), Some(1), "{e}");
        assert!(!e.contains("root:x"), "no line of it is shown: {e}");
        e
    };
    let naming = |script: &str| format!("id: every-section\nscript: {script}");
    let e = check(&[("id: every-section", &naming("../secret.txt"))], false);
    assert!(
        e.contains("secret.txt is not a script (a .rhai file)"),
        "{e}"
    );
    // A .rhai name that is a link to another kind of file.
    let e = check(&[], true);
    assert!(e.contains("is not a script (a .rhai file)"), "{e}");
    // A script elsewhere on the disk.
    let far = outside.path().join("x.rhai");
    std::fs::write(&far, secret).unwrap();
    let e = check(
        &[("id: every-section", &naming(far.to_str().unwrap()))],
        false,
    );
    assert!(e.contains("outside the game's folders"), "{e}");
    // The game's own script, beside it or in ../scripts, still loads.
    let tmp = common::every_section_copy(&[], None);
    let game = tmp.path().join("games/every-section.yaml");
    assert!(
        tabula(home.path(), &["check", game.to_str().unwrap()])
            .status
            .success()
    );
}

#[test]
fn an_import_of_a_fifo_is_refused_not_waited_on() {
    let tmp = tempfile::tempdir().unwrap();
    for d in ["games", "scripts"] {
        std::fs::create_dir(tmp.path().join(d)).unwrap();
    }
    std::fs::copy(
        root().join("games/experior.yaml"),
        tmp.path().join("games/experior.yaml"),
    )
    .unwrap();
    std::fs::write(
        tmp.path().join("scripts/experior.rhai"),
        "fn resolve(plays) { import \"util\" as u; }\nfn end_of_turn() {}\n",
    )
    .unwrap();
    mkfifo(&tmp.path().join("scripts/util.rhai"));
    let games = tmp.path().join("games");
    let (tx, rx) = std::sync::mpsc::channel();
    // Imports are read as the game loads: refused then.
    std::thread::spawn(move || {
        if let Err(e) = tabula::load("experior", &games, &tabula::Settings::default()) {
            let _ = tx.send(e.to_string());
        }
    });
    let e = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the import is refused at once");
    assert!(
        e.contains("import `util`: a named pipe (FIFO), not a script file"),
        "{e}"
    );
}

#[test]
fn a_cache_that_cannot_be_written_leaves_the_built_in_games_playable() {
    let home = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let temp = tempfile::tempdir().unwrap();
    // The cache is a file, so no folder can be made in it (as a read-only
    // or full disk would refuse, whoever runs the test).
    std::fs::write(home.path().join("cache"), "not a folder").unwrap();
    let run = || {
        Test::new()
            .args(["check", "braverats", "--playouts", "2"])
            .current_dir(empty.path())
            .home(home.path())
            .cache(home.path().join("cache"))
            .env("TMPDIR", temp.path())
            .env("TABULA_LIBRARY", "embedded")
            .run()
            .output
    };
    for _ in 0..2 {
        let o = run();
        assert!(ok(&o).contains("ok braverats"));
        let e = err(&o);
        assert!(
            e.contains("the cache cannot take the built-in games (")
                && e.contains("they are written to")
                && e.contains("instead"),
            "{e}"
        );
        // One folder of the user's own, used again by the next run (a run
        // stopped by a signal leaves no other behind).
        let left: Vec<String> = std::fs::read_dir(temp.path())
            .unwrap()
            .map(|d| d.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left.len(), 1, "{left:?}");
        assert!(
            left[0].starts_with("tabula-") && left[0].contains("-library-"),
            "{left:?}"
        );
    }
}

#[test]
fn a_game_planted_in_the_written_out_library_is_no_built_in_game() {
    let home = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    ok(&tabula_in(empty.path(), home.path(), &["list"], 120));
    let games = library(home.path()).join("games");
    let planted = built_in("games/experior.yaml").replace("id: experior", "id: planted");
    std::fs::write(games.join("planted.yaml"), planted).unwrap();
    let o = tabula_in(empty.path(), home.path(), &["list"], 120);
    let list = ok(&o);
    assert!(
        list.contains("experior") && !list.contains("planted"),
        "{list}"
    );
    let o = tabula_in(empty.path(), home.path(), &["check", "planted"], 120);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("no game `planted` among the built-in games"),
        "{}",
        err(&o)
    );
}

#[test]
fn a_games_folder_found_here_that_shadows_a_built_in_game_is_said() {
    let home = tempfile::tempdir().unwrap();
    let here = tempfile::tempdir().unwrap();
    let games = here.path().join("games");
    std::fs::create_dir(&games).unwrap();
    let rats = built_in("games/braverats.yaml");
    std::fs::write(games.join("braverats.yaml"), &rats).unwrap();
    // The same rules: nothing to say.
    let scripts = here.path().join("scripts");
    std::fs::create_dir(&scripts).unwrap();
    let script = built_in("scripts/braverats.rhai");
    std::fs::write(scripts.join("braverats.rhai"), &script).unwrap();
    let o = tabula_in(here.path(), home.path(), &["list"], 120);
    assert!(!err(&o).contains("rules of its own"), "{}", err(&o));
    // The same game file running a script of this folder's own is said,
    // with the file that differs.
    std::fs::write(scripts.join("braverats.rhai"), script + "\n// mine\n").unwrap();
    let o = tabula_in(
        here.path(),
        home.path(),
        &["play", "braverats", "--as", "red"],
        120,
    );
    assert!(
        err(&o).contains(
            "./games here holds braverats (scripts/braverats.rhai) with rules of its own"
        ),
        "{}",
        err(&o)
    );
    std::fs::write(
        games.join("braverats.yaml"),
        rats.replace("round wins take", "round wins win"),
    )
    .unwrap();
    let o = tabula_in(here.path(), home.path(), &["list"], 120);
    assert!(
        err(&o)
            .contains("./games here holds braverats (games/braverats.yaml) with rules of its own"),
        "{}",
        err(&o)
    );
    // Named by --games-dir, the folder is the user's choice: nothing said.
    let o = tabula_in(
        here.path(),
        home.path(),
        &["--games-dir", "games", "list"],
        120,
    );
    assert!(!err(&o).contains("rules of its own"), "{}", err(&o));
}

#[test]
fn a_bundled_game_runs_the_bundled_text_whatever_its_copy_holds_now() {
    // A library folder whose files another process rewrote after they were
    // checked: the game is built from the binary's own text.
    let lib = tempfile::tempdir().unwrap();
    let root = lib.path().to_path_buf();
    std::fs::create_dir_all(root.join("games")).unwrap();
    std::fs::create_dir_all(root.join("scripts")).unwrap();
    const GAME: &str = "id: coin\nname: Coin\nplayers:\n  - {id: a}\n  - {id: b}\nzones:\n  box: {per: game, visibility: public}\nflow:\n  turn:\n    - hook: step\n";
    const SCRIPT: &str = "fn step() { end_game(\"a\", \"bundled\"); }\n";
    static FILES: &[(&str, &str)] = &[("games/coin.yaml", GAME), ("scripts/coin.rhai", SCRIPT)];
    std::fs::write(
        root.join("games/coin.yaml"),
        GAME.replace("Coin", "Rewritten"),
    )
    .unwrap();
    std::fs::write(
        root.join("scripts/coin.rhai"),
        SCRIPT.replace("\"a\", \"bundled\"", "\"b\", \"rewritten\""),
    )
    .unwrap();
    tabula::files::set_bundled(root.clone(), FILES);
    let games = root.join("games");
    let game = tabula::Game::load_path(
        &games.join("coin.yaml"),
        &games,
        &tabula::Settings::default(),
        tabula::Build::default(),
    )
    .unwrap();
    assert_eq!(game.def().name, "Coin");
    let st = tabula::State::new_quiet(&game, 1).unwrap();
    assert_eq!(
        st.end_reason().map(|r| r.to_string()).as_deref(),
        Some("bundled")
    );
}

#[test]
fn a_save_naming_its_game_by_a_path_elsewhere_says_which_file_is_played() {
    let home = tempfile::tempdir().unwrap();
    let here = tempfile::tempdir().unwrap();
    let other = here.path().join("other");
    for d in ["games", "scripts"] {
        std::fs::create_dir_all(other.join(d)).unwrap();
        let f = format!(
            "{d}/braverats.{}",
            if d == "games" { "yaml" } else { "rhai" }
        );
        std::fs::write(other.join(&f), built_in(&f)).unwrap();
    }
    let game = other.join("games/braverats.yaml");
    std::fs::create_dir(here.path().join("saves")).unwrap();
    let save = |name: &str, game: &str| {
        let path = here.path().join("saves").join(name);
        std::fs::write(&path, format!("game: {game}\nseed: 1\nmoves: []\n")).unwrap();
        format!("saves/{name}")
    };
    let by_path = save("by-path.yaml", &game.display().to_string());
    let by_id = save("by-id.yaml", "braverats");
    let o = tabula_in(here.path(), home.path(), &["replay", &by_path], 120);
    let e = err(&o);
    assert!(
        e.contains(&format!(
            "its game is named by path: {} is played, its rules and script",
            game.canonicalize().unwrap().display()
        )),
        "{e}"
    );
    assert!(e.contains("`braverats` alone would play "), "{e}");
    let o = tabula_in(here.path(), home.path(), &["replay", &by_id], 120);
    assert!(!err(&o).contains("named by path"), "{}", err(&o));
    // `load` in a game says so too.
    let o = Test::new()
        .args(["play", "braverats", "--as", "red", "--seed", "1"])
        .current_dir(here.path())
        .home(home.path())
        .cache(home.path().join("cache"))
        .stdin(format!("load {by_path}\nquit\n"))
        .timeout(120)
        .run()
        .output;
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("its game is named by path: "), "{out}");
}

#[test]
fn a_save_to_a_missing_folder_a_folder_a_device_or_a_fifo_is_said_never_waited_on() {
    let home = tempfile::tempdir().unwrap();
    let here = tempfile::tempdir().unwrap();
    std::fs::create_dir(here.path().join("a-folder")).unwrap();
    mkfifo(&here.path().join("a-fifo"));
    let o = Test::new()
        .args(["play", "braverats", "--as", "red", "--seed", "1"])
        .current_dir(here.path())
        .home(home.path())
        .cache(home.path().join("cache"))
        .stdin("spy\nsave nowhere/game.yaml\nsave a-folder\nsave /dev/null\nsave a-fifo\nsave game.yaml\nquit\n")
        .timeout(120)
        .run()
        .output;
    let out = String::from_utf8_lossy(&o.stdout);
    for said in [
        "nowhere/game.yaml: no folder nowhere to write a save in (make it first, or name another): nothing saved.",
        "a-folder: a folder; a save goes to a regular file (name another): nothing saved.",
        "/dev/null: a device; a save goes to a regular file (name another): nothing saved.",
        "a-fifo: a named pipe (FIFO); a save goes to a regular file (name another): nothing saved.",
        "Saved to game.yaml",
    ] {
        assert!(out.contains(said), "{said}\n{out}");
    }
    assert!(!here.path().join("nowhere").exists());
    assert!(here.path().join("a-folder").is_dir());
    assert_eq!(
        std::fs::read_dir(here.path().join("a-folder"))
            .unwrap()
            .count(),
        0
    );
}
