//! Shell completion of values, not only flags: game ids (the folder's and
//! the built-in ones), variant ids and `--set` parameter names, read from
//! the game files when the shell asks (`COMPLETE=bash tabula`).

use std::path::PathBuf;

use clap_complete::CompletionCandidate;
use tabula::definition::source;

/// Where games may be: the folder the user named or ./games, and the
/// built-in library (its folder, written out when the binary last ran).
fn folders() -> Vec<PathBuf> {
    let mut dirs = vec![source::games_dir(None)];
    if let Ok(lib) = super::library::games_folder() {
        dirs.push(lib);
    }
    dirs
}

/// Every game id, each once.
fn ids() -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = Vec::new();
    for dir in folders() {
        for id in source::list_ids(&dir) {
            if !out.iter().any(|(i, _)| *i == id) {
                out.push((id, dir.clone()));
            }
        }
    }
    out
}

pub fn games() -> Vec<CompletionCandidate> {
    ids()
        .into_iter()
        .map(|(id, _)| CompletionCandidate::new(id))
        .collect()
}

/// Each game's variants (the shell does not say which game was typed).
pub fn variants() -> Vec<CompletionCandidate> {
    let mut out: Vec<CompletionCandidate> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for (id, dir) in ids() {
        let Ok(path) = source::find(&id, &dir) else {
            continue;
        };
        let Ok(file) = source::read_merged(&path, &dir) else {
            continue;
        };
        for (v, def) in &file.variants {
            if !seen.contains(v) {
                seen.push(v.clone());
                let help = def.name.clone().unwrap_or_default();
                out.push(CompletionCandidate::new(v).help(Some(format!("{id}: {help}").into())));
            }
        }
    }
    out
}

/// `NAME=` for each game's parameters, with its default.
pub fn sets() -> Vec<CompletionCandidate> {
    let mut out: Vec<CompletionCandidate> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for (id, dir) in ids() {
        let Ok(path) = source::find(&id, &dir) else {
            continue;
        };
        let Ok(file) = source::read_merged(&path, &dir) else {
            continue;
        };
        for (k, p) in &file.params {
            if !seen.contains(k) {
                seen.push(k.clone());
                let default = p.default.as_ref().map_or(0, |d| d.value);
                let help = format!("{id}: default {default}");
                out.push(CompletionCandidate::new(format!("{k}=")).help(Some(help.into())));
            }
        }
    }
    out
}
