//! Embeds the shipped games and scripts in the binary: its built-in
//! library, written out to a cache folder when used (src/cli/library.rs).
//!
//! The files are copied into OUT_DIR and embedded from there, and this
//! script runs again only when it changes itself: cargo tracks neither
//! `games/` nor `scripts/`, so editing a game never recompiles the
//! program (issue #58). A binary run from its own clone's `target/` plays
//! the clone's live files instead (src/cli/library.rs); an installed one
//! carries them as this script copied them (`touch build.rs` before
//! `cargo install` takes in edits made since the last build).

use std::fmt::Write;
use std::path::Path;

fn main() {
    // Only this file: a folder named here would make cargo rebuild the
    // whole package at every edit of a game (and include_str! of the
    // sources themselves would make rustc track them).
    println!("cargo:rerun-if-changed=build.rs");
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let copies = Path::new(&out_dir).join("library");
    let _ = std::fs::remove_dir_all(&copies);
    let mut out = String::from(
        "/// (path inside the library, contents)\npub const FILES: &[(&str, &str)] = &[\n",
    );
    for dir in ["games", "scripts"] {
        let mut names: Vec<String> = std::fs::read_dir(Path::new(&root).join(dir))
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().is_file())
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| n.ends_with(".yaml") || n.ends_with(".yml") || n.ends_with(".rhai"))
            .collect();
        names.sort();
        std::fs::create_dir_all(copies.join(dir)).expect("OUT_DIR is writable");
        for n in names {
            let copy = copies.join(dir).join(&n);
            std::fs::copy(Path::new(&root).join(dir).join(&n), &copy)
                .expect("the library's files are readable");
            let _ = writeln!(
                out,
                "    ({:?}, include_str!({:?})),",
                format!("{dir}/{n}"),
                copy
            );
        }
    }
    out.push_str("];\n");
    std::fs::write(Path::new(&out_dir).join("library.rs"), out).expect("OUT_DIR is writable");
}
