//! Shell completion of values, not only flags: game ids (the folder's and
//! the built-in ones), variant ids and `--set` parameter names, read from
//! the game files when the shell asks (`COMPLETE=bash tabula`).

use std::path::PathBuf;

use clap_complete::CompletionCandidate;
use tabula::definition::format::GameFile;
use tabula::definition::source;

/// Where games may be: the folder the user named or ./games, and the
/// built-in library (its folder, written out when the binary last ran).
fn folders() -> (Vec<PathBuf>, Option<super::library::Library>) {
    let mut dirs = vec![source::games_dir(None)];
    let library = super::library::games_folder().ok();
    dirs.extend(library.as_ref().map(|l| l.games.clone()));
    (dirs, library)
}

/// Every game id in `dirs`, each once.
fn ids(dirs: &[PathBuf]) -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = Vec::new();
    for dir in dirs {
        for id in source::list_ids(dir) {
            if !out.iter().any(|(i, _)| *i == id) {
                out.push((id, dir.clone()));
            }
        }
    }
    out
}

pub fn games() -> Vec<CompletionCandidate> {
    let (dirs, _library) = folders();
    ids(&dirs)
        .into_iter()
        .map(|(id, _)| CompletionCandidate::new(id))
        .collect()
}

/// Every game's file (merged over what it extends), with its id.
fn files() -> Vec<(String, GameFile)> {
    // The library is kept (a temporary one stays) while its files are read.
    let (dirs, _library) = folders();
    ids(&dirs)
        .into_iter()
        .filter_map(|(id, dir)| {
            let path = source::find(&id, &dir).ok()?;
            Some((id, source::read_merged(&path, &dir).ok()?))
        })
        .collect()
}

/// One candidate per word across the games (the first game's help wins).
fn each_once(words: impl Iterator<Item = (String, String)>) -> Vec<CompletionCandidate> {
    let mut seen: Vec<String> = Vec::new();
    words
        .filter(|(w, _)| {
            let new = !seen.contains(w);
            if new {
                seen.push(w.clone());
            }
            new
        })
        .map(|(w, help)| CompletionCandidate::new(w).help(Some(help.into())))
        .collect()
}

/// Each game's variants (the shell does not say which game was typed).
pub fn variants() -> Vec<CompletionCandidate> {
    each_once(files().into_iter().flat_map(|(id, file)| {
        file.variants
            .into_iter()
            .map(move |(v, def)| (v, format!("{id}: {}", def.name.unwrap_or_default())))
    }))
}

/// `NAME=` for each game's parameters, with its default.
pub fn sets() -> Vec<CompletionCandidate> {
    each_once(files().into_iter().flat_map(|(id, file)| {
        file.params.into_iter().map(move |(k, p)| {
            let default = p.default.map_or("0".into(), |d| d.value.to_string());
            let values: Vec<String> = p.values.iter().map(|v| v.value.clone()).collect();
            let one_of = if values.is_empty() {
                String::new()
            } else {
                format!(" (one of {})", values.join(", "))
            };
            (format!("{k}="), format!("{id}: default {default}{one_of}"))
        })
    }))
}
