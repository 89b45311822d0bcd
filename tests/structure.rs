//! The shape of the library, checked: its top-level modules form layers
//! (each uses only the ones before it, no circle), no function in src/ is
//! longer than 150 lines, and a game crosses threads.

use std::path::{Path, PathBuf};

/// The layers, in order: a module may use itself and those before it.
const LAYERS: &[&str] = &[
    "memory",
    "files",
    "error",
    "definition",
    "core",
    "hooks",
    "game",
    "text",
    "analysis",
    "play",
    "spiel",
    "serve",
];

fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every .rs file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The library's top-level module a file belongs to (None: the crate root
/// or the binary).
fn module_of(file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src()).unwrap();
    let first = rel.components().next()?.as_os_str().to_str()?.to_string();
    let name = first.trim_end_matches(".rs").to_string();
    (!["lib", "main", "cli"].contains(&name.as_str())).then_some(name)
}

/// The top-level modules a file names as `crate::x`.
fn crate_uses(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("crate::") {
        let before = text[..i].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue; // `$crate::` in a macro, or another word ending in crate
        }
        let name: String = text[i + 7..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

fn rank(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| *l == module)
}

#[test]
fn modules_use_only_earlier_layers() {
    let mut wrong = Vec::new();
    for file in rust_files(&src()) {
        let Some(me) = module_of(&file) else { continue };
        let Some(mine) = rank(&me) else {
            wrong.push(format!(
                "{}: module `{me}` is in no layer (add it to LAYERS)",
                file.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(&file).unwrap();
        for used in crate_uses(&text) {
            match rank(&used) {
                Some(r) if r <= mine => {}
                Some(_) => wrong.push(format!(
                    "{}: `{me}` uses `crate::{used}`, a later layer",
                    file.display()
                )),
                // A re-export of the crate root (crate::Result): name the
                // module instead, so that the layer shows.
                None => wrong.push(format!(
                    "{}: `crate::{used}` is not a layer's module",
                    file.display()
                )),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The analysis layer's own order: the tree and what a position is worth
/// at the bottom, the solvers over them, the bots, then what plays bots
/// against each other. A file may use its own module and earlier ones.
const ANALYSIS: &[&str] = &[
    "shard", "tree", "estimate", "worth", "solve", "evaluate", "cfr", "bot", "mccfr", "method",
    "response", "sim", "sweep", "chart",
];

/// The analysis modules a file names, as `super::x` (from a file of
/// analysis itself) or `crate::analysis::x`.
fn analysis_uses(text: &str, top: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut prefixes = vec!["crate::analysis::"];
    if top {
        prefixes.push("super::");
    }
    for prefix in prefixes {
        for (i, _) in text.match_indices(prefix) {
            let name: String = text[i + prefix.len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if ANALYSIS.contains(&name.as_str()) && !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

#[test]
fn analysis_modules_use_only_earlier_ones() {
    let dir = src().join("analysis");
    let mut wrong = Vec::new();
    let mut seen = Vec::new();
    for file in rust_files(&dir) {
        let rel = file.strip_prefix(&dir).unwrap();
        let me = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_str()
            .unwrap();
        let me = me.trim_end_matches(".rs");
        if me == "mod" {
            continue;
        }
        let Some(mine) = ANALYSIS.iter().position(|m| *m == me) else {
            wrong.push(format!(
                "{}: `{me}` is in no place of ANALYSIS",
                file.display()
            ));
            continue;
        };
        seen.push(me.to_string());
        // `super::` names a sibling only from a top-level file of analysis.
        let top = rel.components().count() == 1;
        let text = std::fs::read_to_string(&file).unwrap();
        for used in analysis_uses(&text, top) {
            let r = ANALYSIS.iter().position(|m| *m == used).unwrap();
            if r > mine {
                wrong.push(format!(
                    "{}: `{me}` uses `{used}`, a later one",
                    file.display()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    for m in ANALYSIS {
        assert!(
            seen.iter().any(|s| s == m),
            "no module `{m}` in src/analysis"
        );
    }
    assert_eq!(
        analysis_uses(
            "use super::solve::X; crate::analysis::bot::make; super::super::y",
            true
        ),
        vec!["bot", "solve"]
    );
}

#[test]
fn analysis_files_stay_under_about_600_lines() {
    let mut long = Vec::new();
    for file in rust_files(&src().join("analysis")) {
        let n = std::fs::read_to_string(&file).unwrap().lines().count();
        if n > 650 {
            long.push(format!("{}: {n} lines", file.display()));
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
}

/// Every layer's files, not only analysis's: small files named after what
/// they hold. (The binary's `cli/` too.)
#[test]
fn no_file_in_src_passes_800_lines() {
    let mut long = Vec::new();
    for file in rust_files(&src()) {
        let n = std::fs::read_to_string(&file).unwrap().lines().count();
        if n > 800 {
            long.push(format!("{}: {n} lines", file.display()));
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
    assert!(
        rust_files(&src()).len() > 100,
        "the files of src/ are found"
    );
}

#[test]
fn the_layer_check_catches_an_upward_use() {
    assert_eq!(
        crate_uses("use crate::game::Game;\nlet x = crate::core::ops::ix(1); $crate::no"),
        vec!["game", "core"]
    );
    assert!(rank("core") < rank("game"));
}

/// Functions in src/ and their length in lines (rustfmt's layout: the
/// closing brace at the `fn` line's indentation).
fn functions(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        let indent = &l[..l.len() - t.len()];
        let t = t
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub(super) ")
            .trim_start_matches("pub ")
            .trim_start_matches("const ")
            .trim_start_matches("unsafe ");
        let Some(rest) = t.strip_prefix("fn ") else {
            continue;
        };
        if l.trim_end().ends_with(';') {
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let close = format!("{indent}}}");
        if let Some(j) = lines[i + 1..].iter().position(|m| *m == close) {
            out.push((name, j + 2));
        }
    }
    out
}

#[test]
fn no_function_is_over_150_lines() {
    let mut long = Vec::new();
    for file in rust_files(&src()) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (name, n) in functions(&text) {
            if n > 150 {
                long.push(format!("{}: fn {name} is {n} lines", file.display()));
            }
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
    let sample = "fn a() {\n    x;\n}\n    pub fn b(\n        y: u8,\n    ) {\n    }\n";
    assert_eq!(functions(sample), vec![("a".into(), 3), ("b".into(), 4)]);
}

#[test]
fn games_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    send_sync::<tabula::Game>();
    send_sync::<tabula::Def>();
    send::<tabula::State>();
    // One game, built once, played on several threads at once.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games");
    let game = tabula::load("braverats", &dir, &tabula::Settings::default()).unwrap();
    let over: Vec<bool> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..3)
            .map(|seed| {
                let game = &game;
                s.spawn(move || {
                    let mut st = tabula::State::new_quiet(game, seed).unwrap();
                    let mut bot = tabula::bot::RandomBot::new(seed);
                    while let Some(p) = st.first_waiting() {
                        let c = tabula::bot::Bot::choose(&mut bot, game, &st, p).unwrap();
                        st.apply_unchecked(game, p, c).unwrap();
                    }
                    st.is_over()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(over, vec![true; 3]);
}

/// The process is the program's (issue 56): the library (all of src/ but
/// the binary, main.rs and cli/, and the server, serve/) reads no
/// environment variable, writes nothing to stdout or stderr, and installs
/// no global allocator (but for its own unit tests): a program hands it
/// settings instead (src/cli/env.rs).
#[test]
fn the_library_leaves_the_process_to_the_program() {
    let mut wrong = Vec::new();
    for file in rust_files(&src()) {
        let rel = file.strip_prefix(src()).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_str()
            .unwrap();
        if ["main.rs", "cli", "serve"].contains(&first) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            let unit_test = i > 0 && lines[i - 1].contains("cfg(all(test");
            let found = [
                "std::env::",
                "env::var",
                "eprintln!",
                "eprint!",
                "println!",
                "print!(",
            ]
            .into_iter()
            .find(|w| code.contains(w))
            .or((code.contains("#[global_allocator]") && !unit_test)
                .then_some("a global allocator"));
            if let Some(w) = found {
                wrong.push(format!("{}:{}: {w}", rel.display(), i + 1));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
