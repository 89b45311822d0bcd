//! Any bytes as a replay file, then played against the shipped games: errors
//! are fine, panics are not.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let path = std::path::Path::new("fuzz-replay.yaml");
    if let Ok(r) = tabula::replay::Replay::parse(path, src) {
        let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games");
        let _ = tabula::replay::play(&r, None, &games);
    }
});
