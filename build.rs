//! Embeds the shipped games and scripts in the binary: its built-in
//! library, written out to a cache folder when used (src/cli/library.rs).

use std::fmt::Write;
use std::path::Path;

fn main() {
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let mut out = String::from(
        "/// (path inside the library, contents)\npub const FILES: &[(&str, &str)] = &[\n",
    );
    for dir in ["games", "scripts"] {
        // A folder named here is scanned whole for changes.
        println!("cargo:rerun-if-changed={dir}");
        let mut names: Vec<String> = std::fs::read_dir(Path::new(&root).join(dir))
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().is_file())
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| n.ends_with(".yaml") || n.ends_with(".yml") || n.ends_with(".rhai"))
            .collect();
        names.sort();
        for n in names {
            let full = Path::new(&root).join(dir).join(&n);
            let _ = writeln!(
                out,
                "    ({:?}, include_str!({:?})),",
                format!("{dir}/{n}"),
                full
            );
        }
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("library.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}
