//! Every hint the program prints that names a flag names one the command
//! printing it takes (or the command it names takes: `` `solve --shard
//! K/N --json` ``), checked against the commands' own definitions. The
//! library's messages name no flag, since several commands print them (a
//! refusal of the solver reaches `solve`, `sweep --solve` and the best
//! bot of `play`) and it knows no command line; a command adds its own
//! hint to them (`solve::hints`, `sweep::hint`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use clap::CommandFactory;

/// Each command's long flags (with the global ones); "" for the
/// program itself.
fn flags() -> BTreeMap<String, BTreeSet<String>> {
    let mut cli = super::Cli::command();
    cli.build();
    let longs = |c: &clap::Command| -> BTreeSet<String> {
        c.get_arguments()
            .filter_map(|a| a.get_long())
            .map(str::to_string)
            .collect()
    };
    let mut out = BTreeMap::new();
    out.insert(String::new(), longs(&cli));
    // (`help` is clap's own, which prints nothing of ours.)
    for sub in cli.get_subcommands().filter(|s| s.get_name() != "help") {
        out.insert(sub.get_name().to_string(), longs(sub));
    }
    out
}

/// Who prints the strings of a source file: the commands whose code it
/// is. A file every command may run (the library, the shared parts
/// of the command line) is printed by all of them, so its hints may
/// name only a flag every command takes.
fn printed_by(file: &str, commands: &[String]) -> Vec<String> {
    let own: &[&str] = match file {
        "cli/solve.rs" => &["solve"],
        "cli/sweep.rs" => &["sweep"],
        // RunArgs and OutputArgs are sweep's too.
        "cli/sim.rs" | "cli/report.rs" => &["sim", "sweep", "merge"],
        "cli/chart.rs" => &["sim", "sweep", "merge"],
        "cli/merge.rs" => &["merge"],
        "cli/serve.rs" => &["serve"],
        "cli/rules.rs" => &["rules"],
        "cli/check.rs" => &["check"],
        "cli/replay.rs" => &["replay"],
        "cli/copy.rs" => &["copy"],
        // `list` shows each variant with the flag that picks it, for
        // the commands that load a game.
        "cli/list.rs" => &["play", "rules", "serve", "sim", "solve", "sweep"],
        f if f.starts_with("cli/play/") => &["play"],
        f if f.starts_with("serve/") => &["serve"],
        _ => &[],
    };
    if own.is_empty() {
        commands.to_vec()
    } else {
        own.iter().map(|c| c.to_string()).collect()
    }
}

/// The string literals of Rust source outside comments and test
/// modules, escapes read (`\n` a line break, a `\` line continuation
/// joined).
fn literals(src: &str) -> Vec<String> {
    let src = match src.find("\n#[cfg(test)]") {
        Some(i) => &src[..i],
        None => src,
    };
    let b: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == '*' && b[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == 'r' && (i == 0 || !ident(b[i - 1])) && matches!(next, Some('"') | Some('#'))
        {
            let hashes = b[i + 1..].iter().take_while(|&&h| h == '#').count();
            let open = i + 1 + hashes;
            if b.get(open) != Some(&'"') {
                i += 1;
                continue;
            }
            let mut j = open + 1;
            let end = loop {
                if j >= b.len() {
                    break b.len();
                }
                if b[j] == '"'
                    && b[j + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == '#')
                        .count()
                        == hashes
                {
                    break j;
                }
                j += 1;
            };
            out.push(b[open + 1..end].iter().collect());
            i = end + 1 + hashes;
        } else if c == '"' {
            let mut s = String::new();
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                    match b.get(i).copied() {
                        Some('n') => s.push('\n'),
                        Some('\n') => {
                            while i + 1 < b.len() && b[i + 1].is_whitespace() {
                                i += 1;
                            }
                        }
                        Some(e) => s.push(e),
                        None => {}
                    }
                } else {
                    s.push(b[i]);
                }
                i += 1;
            }
            out.push(s);
            i += 1;
        } else if c == '\'' {
            // A char literal ('"', '\''), or a lifetime.
            match (next, b.get(i + 2).copied()) {
                (Some('\\'), _) => {
                    i += 3;
                    while i < b.len() && b[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                }
                (Some(_), Some('\'')) => i += 3,
                _ => i += 1,
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The flags a text names (`--max-states`), each with the commands it
/// is for: the one it names (`` `solve --seed S` ``, `tabula sim
/// GAME --games N`), else `printers`.
fn named_flags(text: &str, commands: &[String], printers: &[String]) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices("--") {
        let before_ok = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'-');
        let flag: String = text[i + 2..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if !before_ok || !flag.starts_with(|c: char| c.is_ascii_lowercase()) {
            continue;
        }
        let line = &text[text[..i].rfind('\n').map_or(0, |n| n + 1)..i];
        let command_named = |at: &str| {
            let at = at.trim_start().trim_start_matches("tabula ");
            let word: String = at.chars().take_while(|c| c.is_ascii_lowercase()).collect();
            commands.contains(&word).then_some(word)
        };
        let named = if line.matches('`').count() % 2 == 1 {
            // Inside a `code span`: the command it starts with.
            command_named(&line[line.rfind('`').map_or(0, |n| n + 1)..])
        } else {
            line.rfind("tabula ")
                .and_then(|n| command_named(&line[n..]))
        };
        let for_ = named.map_or_else(|| printers.to_vec(), |c| vec![c]);
        out.push((flag, for_));
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every flag named in `texts`, checked against the commands it is for.
fn check(
    texts: &[(String, Vec<String>, String)],
    flags: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<String> {
    let commands: Vec<String> = flags.keys().filter(|k| !k.is_empty()).cloned().collect();
    let mut wrong = Vec::new();
    for (text, printers, place) in texts {
        for (flag, for_) in named_flags(text, &commands, printers) {
            let lacking: Vec<String> = (for_.iter())
                .filter(|c| !flags[*c].contains(&flag))
                .map(|c| format!("`{c}`"))
                .collect();
            if !lacking.is_empty() {
                let who = lacking.join(", ");
                wrong.push(format!("{place}: --{flag}, which {who} lack(s): {text:?}"));
            }
        }
        // A command named as one to run is one.
        for (n, _) in text.match_indices("`tabula ") {
            let word: String = text[n + 8..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase())
                .collect();
            if !commands.contains(&word) {
                wrong.push(format!("{place}: no command `tabula {word}`: {text:?}"));
            }
        }
    }
    wrong
}

#[test]
fn every_hint_names_flags_its_command_takes() {
    let flags = flags();
    let commands: Vec<String> = flags.keys().filter(|k| !k.is_empty()).cloned().collect();
    let mut texts: Vec<(String, Vec<String>, String)> = Vec::new();
    // What the program prints: its sources' strings...
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    for f in &files {
        let rel = f
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        // This file is the test: it prints nothing.
        if rel == "cli/hints.rs" {
            continue;
        }
        let printers = printed_by(&rel, &commands);
        for s in literals(&std::fs::read_to_string(f).unwrap()) {
            texts.push((s, printers.clone(), format!("src/{rel}")));
        }
    }
    // ...and its help texts, each printed by its command.
    let mut cli = super::Cli::command();
    cli.build();
    let helps = |c: &clap::Command| -> Vec<String> {
        let mut h: Vec<String> = [c.get_about(), c.get_long_about(), c.get_after_help()]
            .into_iter()
            .flatten()
            .map(|s| s.to_string())
            .collect();
        for a in c.get_arguments() {
            h.extend(
                [a.get_help(), a.get_long_help()]
                    .into_iter()
                    .flatten()
                    .map(|s| s.to_string()),
            );
        }
        h
    };
    for h in helps(&cli) {
        texts.push((h, commands.clone(), "tabula --help".into()));
    }
    for sub in cli.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = sub.get_name().to_string();
        for h in helps(sub) {
            texts.push((h, vec![name.clone()], format!("tabula {name} --help")));
        }
    }
    assert!(
        texts.len() > 500,
        "{} texts: the scan found too few",
        texts.len()
    );
    let wrong = check(&texts, &flags);
    assert!(
        wrong.is_empty(),
        "hints naming a flag their command lacks:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn a_hint_naming_another_commands_flag_is_caught() {
    let flags = flags();
    let case = |text: &str, printer: &str| {
        check(
            &[(text.to_string(), vec![printer.to_string()], "case".into())],
            &flags,
        )
    };
    // The hints #58 found: `play` and `sweep` told to raise --max-states.
    assert_eq!(
        case("raise --max-states", "play"),
        ["case: --max-states, which `play` lack(s): \"raise --max-states\""]
    );
    assert_eq!(case("raise --max-states", "sweep").len(), 1);
    assert!(case("raise --max-states", "solve").is_empty());
    assert!(case("raise --solve-states", "sweep").is_empty());
    // A command named in the hint is the one its flags are checked for.
    assert!(case("run `solve --shard K/N --json`", "merge").is_empty());
    assert_eq!(case("run `sim --max-states 9`", "merge").len(), 1);
    assert!(case("  tabula sim GAME --games 10000", "list").is_empty());
    assert_eq!(case("see `tabula simulate`", "sim").len(), 1);
    // A hint of the library is printed by every command.
    let all: Vec<String> = flags.keys().filter(|k| !k.is_empty()).cloned().collect();
    assert_eq!(printed_by("analysis/solve/search.rs", &all), all);
    assert!(
        !check(
            &[("raise --max-states".into(), all.clone(), "lib".into())],
            &flags
        )
        .is_empty()
    );
    // Strings are read as the program holds them.
    assert_eq!(
        literals(
            "let a = \"x --y\\\n    z\"; // \"--no\"\nlet c = '\"'; let r = r#\"q \"--w\"\"#;"
        ),
        ["x --yz", "q \"--w\""]
    );
}
