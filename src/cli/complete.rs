//! Shell completion of values, not only flags: game ids (the folder's and
//! the built-in ones), variant ids and `--set` parameter names, read from
//! the game files when the shell asks (`COMPLETE=bash tabula`). Variants
//! and parameters are the named game's (`tabula play GAME --variant
//! <Tab>`), every game's only while no game is typed yet.

use std::path::PathBuf;

use clap_complete::CompletionCandidate;
use tabula::definition::format::GameFile;
use tabula::definition::source;

/// Where games may be: the folder the user named (`--games-dir` on the
/// line being completed, else $TABULA_GAMES) or ./games, and the built-in
/// library (its folder, written out when the binary last ran).
fn folders() -> (Vec<PathBuf>, Option<super::library::Library>) {
    let line = Line::typed();
    let mut dirs = vec![super::env::games_dir(line.games_dir.as_deref())];
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

/// The games whose variants and parameters are offered, with their ids:
/// those the line names (by id or path), else every game's.
fn files() -> Vec<(String, GameFile)> {
    // The library is kept (a temporary one stays) while its files are read.
    let (dirs, _library) = folders();
    let read = |id: &str, dir: &PathBuf| {
        let path = source::find(id, dir).ok()?;
        Some((id.to_string(), source::read_merged(&path, dir).ok()?))
    };
    let named: Vec<(String, GameFile)> = Line::typed()
        .games
        .iter()
        .filter_map(|g| read(g, &dirs[0]))
        .collect();
    if !named.is_empty() {
        return named;
    }
    ids(&dirs)
        .into_iter()
        .filter_map(|(id, dir)| read(&id, &dir))
        .collect()
}

/// What the line being completed says so far: the games it names (the
/// subcommand's positional words) and its `--games-dir`.
#[derive(Debug, Default, PartialEq)]
struct Line {
    games: Vec<String>,
    games_dir: Option<PathBuf>,
}

impl Line {
    /// The shell's words (`COMPLETE=bash tabula -- tabula play ...`), up to
    /// the one being completed.
    fn typed() -> Line {
        let mut words: Vec<String> = std::env::args_os()
            .skip_while(|a| a != "--")
            .skip(2)
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        if let Some(i) = std::env::var("_CLAP_COMPLETE_INDEX")
            .ok()
            .and_then(|i| i.parse::<usize>().ok())
        {
            // The index counts the program's name.
            words.truncate(i.saturating_sub(1));
        }
        Line::read(&<super::Cli as clap::CommandFactory>::command(), &words)
    }

    /// The positional words of the subcommand in `words` (after the
    /// program's name), skipping every option's value as clap would.
    fn read(cli: &clap::Command, words: &[String]) -> Line {
        let mut line = Line::default();
        let mut sub: Option<&clap::Command> = None;
        let mut it = words.iter();
        while let Some(w) = it.next() {
            let cmd = sub.unwrap_or(cli);
            if let Some(flag) = w.strip_prefix("--") {
                let (name, inline) = match flag.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_string())),
                    None => (flag, None),
                };
                let arg = (cmd.get_arguments().chain(cli.get_arguments()))
                    .find(|a| a.get_long() == Some(name));
                let takes = arg.is_some_and(|a| a.get_action().takes_values());
                let value = match inline {
                    Some(v) => Some(v),
                    None if takes => it.next().cloned(),
                    None => None,
                };
                if name == "games-dir" {
                    line.games_dir = value.map(PathBuf::from);
                }
            } else if let Some(short) = w.strip_prefix('-').filter(|s| !s.is_empty()) {
                let c = short.chars().next();
                let arg =
                    (cmd.get_arguments().chain(cli.get_arguments())).find(|a| a.get_short() == c);
                if arg.is_some_and(|a| a.get_action().takes_values()) && short.len() == 1 {
                    it.next();
                }
            } else if sub.is_none() {
                sub = cli.find_subcommand(w);
                if sub.is_none() {
                    return line;
                }
            } else {
                line.games.push(w.clone());
            }
        }
        line
    }
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

/// The named game's variants (every game's while none is named).
pub fn variants() -> Vec<CompletionCandidate> {
    each_once(files().into_iter().flat_map(|(id, file)| {
        file.variants
            .into_iter()
            .map(move |(v, def)| (v, format!("{id}: {}", def.name.unwrap_or_default())))
    }))
}

/// `NAME=` for the named game's parameters (every game's while none is
/// named), with its default.
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

#[cfg(test)]
mod tests {
    use super::Line;
    use std::path::PathBuf;

    fn read(words: &[&str]) -> Line {
        let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        Line::read(
            &<crate::cli::Cli as clap::CommandFactory>::command(),
            &words,
        )
    }

    #[test]
    fn the_line_names_its_game_past_every_option_value() {
        let l = read(&[
            "--games-dir",
            "g",
            "play",
            "--seed",
            "3",
            "--as",
            "red",
            "--hot-seat",
            "some-game",
            "--variant",
        ]);
        assert_eq!(l.games, ["some-game"]);
        assert_eq!(l.games_dir, Some(PathBuf::from("g")));
        let l = read(&["sim", "--bot=red=random", "x.yaml", "--games-dir=d"]);
        assert_eq!(l.games, ["x.yaml"]);
        assert_eq!(l.games_dir, Some(PathBuf::from("d")));
        assert_eq!(
            read(&["play", "--variant", "some-variant"]).games,
            Vec::<String>::new()
        );
    }
}
