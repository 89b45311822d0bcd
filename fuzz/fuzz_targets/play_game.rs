//! Any bytes as a game file beside the shipped scripts: loaded, built and
//! played (a few short seeded games, every choice legal). Errors are fine;
//! a panic, a hang or a memory blowup is a bug. Start it from the shipped
//! games: `cp games/*.yaml fuzz/corpus/play_game/` (docs/cli.md, Fuzzing).
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tabula::{Build, Game, Settings, State};

/// The counting allocator the `tabula` binary installs: a script's memory
/// budget stops a blowup as it does in the program.
#[global_allocator]
static ALLOCATOR: tabula::memory::Counting = tabula::memory::Counting;

/// A folder with games/ (the input goes there) and a copy of scripts/.
fn folder() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("tabula-fuzz-{}", std::process::id()));
        let scripts = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts");
        std::fs::create_dir_all(dir.join("games")).expect("a temporary folder");
        std::fs::create_dir_all(dir.join("scripts")).expect("a temporary folder");
        for f in std::fs::read_dir(scripts).expect("the shipped scripts").flatten() {
            let _ = std::fs::copy(f.path(), dir.join("scripts").join(f.file_name()));
        }
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    let dir = folder();
    let path = dir.join("games/fuzz.yaml");
    if std::fs::write(&path, data).is_err() {
        return;
    }
    let Ok(game) = Game::load_path(&path, &dir.join("games"), &Settings::default(), Build::default())
    else {
        return;
    };
    for seed in 0..3u64 {
        let Ok(mut st) = State::new_quiet(&game, seed) else { return };
        let mut pick = seed;
        for _ in 0..300 {
            let Some(&p) = st.waiting().first() else { break };
            let legal = st.legal(p);
            if legal.is_empty() {
                break;
            }
            pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let c = legal[(pick >> 33) as usize % legal.len()].clone();
            if st.act(&game, p, c).is_err() {
                break;
            }
        }
    }
});
