//! What the program takes from its environment and hands the library as
//! settings: the library reads no environment variable, writes nothing to
//! stderr and keeps nothing on disk unless told where.

use std::path::{Path, PathBuf};

/// The games folder: `--games-dir`, else `TABULA_GAMES`, else `./games`.
pub fn games_dir(flag: Option<&Path>) -> PathBuf {
    named_games_dir(flag).unwrap_or_else(|| PathBuf::from("games"))
}

/// The games folder the user named: `--games-dir`, else `TABULA_GAMES`.
pub fn named_games_dir(flag: Option<&Path>) -> Option<PathBuf> {
    if let Some(d) = flag {
        return Some(d.to_path_buf());
    }
    match std::env::var_os("TABULA_GAMES") {
        Some(d) if !d.is_empty() => Some(PathBuf::from(d)),
        _ => None,
    }
}

/// Where tabula keeps what it can compute again (the built-in games
/// written out, equilibrium tables): `$XDG_CACHE_HOME/tabula`, else
/// `~/.cache/tabula`, else the temporary folder.
pub fn cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("tabula")
}

/// The library's settings from the environment: the cache folder, where
/// scripts' `print` goes (stderr), the kind of bot `default` names
/// (`TABULA_BOT`), and the memo's figures after a sim's share
/// (`TABULA_MEMO_STATS`).
pub fn configure() {
    tabula::files::set_cache_dir(Some(cache_dir()));
    tabula::hooks::script::set_output(Some(std::sync::Arc::new(|line: &str| eprintln!("{line}"))));
    tabula::bot::set_default_kind(std::env::var(tabula::bot::DEFAULT_VAR).ok());
    if std::env::var_os("TABULA_MEMO_STATS").is_some() {
        tabula::sim::report_memo(|m| {
            eprintln!(
                "memo: {} replays, {} script runs, {} nodes {:?}",
                m.hits, m.misses, m.nodes, m.runs
            )
        });
    }
}
