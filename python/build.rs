//! Embeds the shipped games and scripts (../games, ../scripts) in the
//! extension, as build.rs does in the binary: the package writes them out
//! to a folder when first asked for a game (python/src/library.rs), so
//! that a wheel carries its games whatever folder it is installed in.

use std::fmt::Write;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("..");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let mut out = String::from(
        "/// (path inside the library, contents)\npub const FILES: &[(&str, &str)] = &[\n",
    );
    for dir in ["games", "scripts"] {
        let folder = root.join(dir);
        // Only this crate is rebuilt for an edited game: it is small.
        println!("cargo:rerun-if-changed={}", folder.display());
        let mut names: Vec<String> = std::fs::read_dir(&folder)
            .expect("the games and scripts folders beside python/")
            .flatten()
            .filter(|e| e.path().is_file())
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| n.ends_with(".yaml") || n.ends_with(".yml") || n.ends_with(".rhai"))
            .collect();
        names.sort();
        for n in names {
            let file = folder.join(&n);
            println!("cargo:rerun-if-changed={}", file.display());
            let full = file.canonicalize().expect("a readable library file");
            let _ = writeln!(
                out,
                "    ({:?}, include_str!({:?})),",
                format!("{dir}/{n}"),
                full
            );
        }
    }
    out.push_str("];\n");
    std::fs::write(Path::new(&out_dir).join("library.rs"), out).expect("OUT_DIR is writable");
}
