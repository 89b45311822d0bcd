//! Tables on disk, so that a server stopped and started again has them
//! back with the same links: per table, `ID.yaml` (the save, in the
//! replay format, written atomically after every change) and
//! `ID.table.json` (its tokens). A file that no longer loads is left where
//! it is and said so; nothing here ever deletes one.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Result, path_text};
use crate::play::replay::Replay;
use crate::play::session::Session;

/// A table's name and links.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Meta {
    pub id: String,
    /// The game's id, for the server's own messages.
    pub game: String,
    pub host: String,
    pub spectator: String,
    /// By seat: the seat's token, or null for a bot's seat.
    pub seats: Vec<Option<String>>,
}

/// 128 bits from the operating system's generator, as hex: a link that
/// cannot be guessed.
pub fn token() -> Result<String> {
    let mut b = [0u8; 16];
    getrandom::fill(&mut b).map_err(|e| {
        Error::new(
            ErrorKind::Io,
            format!("no random numbers for a link's token: {e}"),
        )
    })?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

fn save_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}.yaml"))
}

fn meta_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}.table.json"))
}

/// Write the table's save (and its tokens, the first time).
pub fn save(dir: &Path, meta: &Meta, s: &Session) -> Result<()> {
    let m = meta_path(dir, &meta.id);
    if !m.exists() {
        let text = serde_json::to_string_pretty(meta).unwrap_or_default();
        crate::files::write_atomic(&m, text.as_bytes(), "a table's links")
            .map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", path_text(&m))))?;
    }
    s.to_replay().save(&save_path(dir, &meta.id))
}

/// Every table saved in `dir`, as (tokens, replay, where it is); and what
/// could not be read, one sentence each.
pub fn saved(dir: &Path) -> (Vec<(Meta, Replay, PathBuf)>, Vec<String>) {
    let (mut found, mut problems) = (Vec::new(), Vec::new());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (found, problems);
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_str().is_some_and(|s| s.ends_with(".table.json")))
        .collect();
    paths.sort();
    for p in paths {
        let meta = crate::files::read_text(&p)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str::<Meta>(&t).map_err(|e| e.to_string()));
        let meta = match meta {
            Ok(m) => m,
            Err(e) => {
                problems.push(format!("{}: not a table's links: {e}", path_text(&p)));
                continue;
            }
        };
        let sp = save_path(dir, &meta.id);
        match Replay::read(&sp) {
            Ok(r) => found.push((meta, r, sp)),
            Err(e) => problems.push(format!("table {}: {}", meta.id, e.render(false))),
        }
    }
    (found, problems)
}

/// The highest table number any file in `dir` is named for (0: none).
pub fn highest_id(dir: &Path) -> u64 {
    let names = std::fs::read_dir(dir).into_iter().flatten().flatten();
    names
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            name.split('.').next()?.parse::<u64>().ok()
        })
        .max()
        .unwrap_or(0)
}
