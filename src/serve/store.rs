//! Tables on disk, so that a server stopped and started again has them
//! back with the same links: per table, `ID.yaml` (the save, in the
//! replay format, written atomically after every change) and
//! `ID.table.json` (its tokens). A file that no longer loads is left where
//! it is and said so. What is read back is checked as strictly as a
//! request from the network (anyone who can write in the folder could
//! have planted it): a table's number is its files' name, its tokens are
//! tokens, its game one the server offers. The only files ever removed are
//! a table's closed by its host, and what an interrupted write, opening
//! or closing left: temporary files, a table's links with no save beside
//! them (written second, so no one ever had them), and a save with no
//! links beside it (no link leads to it).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

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
    /// The game was over when last saved: its save (the seed, every
    /// hidden card) has been everyone's to download since. Written after
    /// the save that ends the game and before anyone is shown the end.
    #[serde(default)]
    pub over: bool,
}

/// The highest table number: past it a number read from the folder is
/// refused, so that no planted name can wrap the numbering round.
pub const MOST_ID: u64 = 999_999_999_999;

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

/// Whether `t` is a token as `token` makes one: 32 lowercase hex digits.
pub fn is_token(t: &str) -> bool {
    t.len() == 32 && t.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The table number a file of the folder is named for (`N.yaml`,
/// `N.table.json`): N written plainly (no sign, no leading zero), 1 to
/// `MOST_ID`.
fn number_of(name: &str) -> Option<u64> {
    let n = name.split('.').next()?;
    let plain = !n.is_empty() && !n.starts_with('0') && n.bytes().all(|b| b.is_ascii_digit());
    n.parse::<u64>().ok().filter(|&x| plain && x <= MOST_ID)
}

impl Meta {
    /// What is wrong with links read back for table `number`, if anything.
    fn check(&self, number: u64) -> std::result::Result<(), String> {
        if self.id != number.to_string() {
            return Err(format!(
                "its links name table `{}`",
                crate::text::clip(&self.id)
            ));
        }
        let tokens = [&self.host, &self.spectator]
            .into_iter()
            .chain(self.seats.iter().flatten());
        if let Some(t) = tokens.into_iter().find(|t| !is_token(t)) {
            return Err(format!("`{}` is not a link's token", crate::text::clip(t)));
        }
        let plain = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
        if self.game.is_empty() || self.game.len() > 64 || !self.game.chars().all(plain) {
            return Err(format!(
                "`{}` is not a game's id",
                crate::text::clip(&self.game)
            ));
        }
        Ok(())
    }
}

/// A number for a new table: the next of `next` whose files do not exist
/// (a table not brought back keeps its files, and its number).
pub fn claim_id(dir: &Path, next: &AtomicU64) -> Result<String> {
    loop {
        let n = next.fetch_add(1, Ordering::Relaxed);
        if n == 0 || n > MOST_ID {
            return Err(Error::usage(format!(
                "no table number is left in {} (the most is {MOST_ID}): close tables there or give --state another folder",
                path_text(dir)
            )));
        }
        let id = n.to_string();
        if !save_path(dir, &id).exists() && !meta_path(dir, &id).exists() {
            return Ok(id);
        }
    }
}

fn save_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}.yaml"))
}

fn meta_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}.table.json"))
}

/// Write the table's save (and its tokens, the first time, after the
/// save: links found with no save beside them were never given out).
pub fn save(dir: &Path, meta: &Meta, s: &Session) -> Result<()> {
    s.to_replay().save(&save_path(dir, &meta.id))?;
    if !meta_path(dir, &meta.id).exists() {
        write_links(dir, meta)?;
    }
    Ok(())
}

/// Write the table's links file (again: to mark its game over).
pub fn write_links(dir: &Path, meta: &Meta) -> Result<()> {
    let m = meta_path(dir, &meta.id);
    let text = serde_json::to_string_pretty(meta).unwrap_or_default();
    crate::files::write_atomic(&m, text.as_bytes(), "a table's links")
        .map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", path_text(&m))))
}

/// Remove table `id`'s files: its links first (no token leads to it from
/// then on), then its save; a save left by an interruption between the
/// two is removed at the next start.
pub fn remove(dir: &Path, id: &str) -> Result<()> {
    for p in [meta_path(dir, id), save_path(dir, id)] {
        match std::fs::remove_file(&p) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(&p, e)),
        }
    }
    Ok(())
}

/// Remove table `n`'s files, if it has any (`--close N`): whether it had.
pub fn remove_table(dir: &Path, n: u64) -> Result<bool> {
    let id = n.to_string();
    let any = save_path(dir, &id).exists() || meta_path(dir, &id).exists();
    if any {
        remove(dir, &id)?;
    }
    Ok(any)
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
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let Some(number) = number_of(name) else {
            problems.push(format!(
                "{}: not a table's links (a table's files are named by its number, 1 to {MOST_ID})",
                path_text(&p)
            ));
            continue;
        };
        let meta = crate::files::read_text(&p)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str::<Meta>(&t).map_err(|e| e.to_string()))
            .and_then(|m| m.check(number).map(|()| m));
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
        .filter_map(|e| number_of(&e.file_name().into_string().ok()?))
        .max()
        .unwrap_or(0)
}

/// Remove what an interrupted write, opening or closing left in `dir`:
/// temporary files of atomic writes; links with no save beside them (a
/// save is written before its table's links, so those links were never
/// given out); and saves with no links beside them (written by an
/// opening killed before its links, or left by a closing killed after
/// removing them: no token leads to them any more). One sentence for
/// each kind removed.
pub fn clean(dir: &Path) -> Vec<String> {
    let (mut temporary, mut orphans, mut saves) = (0, Vec::new(), Vec::new());
    let names = std::fs::read_dir(dir).into_iter().flatten().flatten();
    for e in names {
        let Ok(name) = e.file_name().into_string() else {
            continue;
        };
        let file = e.file_type().is_ok_and(|t| t.is_file());
        if file && name.starts_with(crate::files::TEMPORARY_PREFIX) {
            temporary += usize::from(std::fs::remove_file(e.path()).is_ok());
        } else if file
            && name.ends_with(".table.json")
            && let Some(n) = number_of(&name)
            && !save_path(dir, &n.to_string()).exists()
            && std::fs::remove_file(e.path()).is_ok()
        {
            orphans.push(n);
        } else if file
            && name.ends_with(".yaml")
            && let Some(n) = number_of(&name)
            && name == format!("{n}.yaml")
            && !meta_path(dir, &n.to_string()).exists()
            && std::fs::remove_file(e.path()).is_ok()
        {
            saves.push(n);
        }
    }
    let mut said = Vec::new();
    if temporary > 0 {
        said.push(format!(
            "removed {temporary} temporary file(s) an interrupted write left in {}",
            path_text(dir)
        ));
    }
    if !orphans.is_empty() {
        orphans.sort_unstable();
        let list: Vec<String> = orphans.iter().map(u64::to_string).collect();
        said.push(format!(
            "removed the links of table(s) {} in {}: their opening was interrupted before any link was given out",
            list.join(", "),
            path_text(dir)
        ));
    }
    if !saves.is_empty() {
        saves.sort_unstable();
        let list: Vec<String> = saves.iter().map(u64::to_string).collect();
        said.push(format!(
            "removed the save(s) of table(s) {} in {}, which had no links beside them: no link leads to them (an opening interrupted before its links were written, or a closing after they were removed)",
            list.join(", "),
            path_text(dir)
        ));
    }
    said
}

/// What is wrong with a save's seats (`replay`'s, read from `dir`'s save
/// of table `meta`) against its links, for a game of `players`: each
/// player is named once; a person's seat has a link, a bot's a kind this
/// server plays and no link. A hand-edited save that makes a bot's seat
/// a person's would otherwise bring back a seat no one can play.
pub fn check_seats(dir: &Path, meta: &Meta, replay: &Replay, players: &[String]) -> Result<()> {
    let links = path_text(&meta_path(dir, &meta.id));
    let file = path_text(&save_path(dir, &meta.id));
    // At the seat's line when the save says where, else naming the file.
    let wrong = |text: String, i: usize| match replay.seat_positions.get(i).cloned().flatten() {
        Some(pos) => Error::usage(text).at(Some(pos)),
        None => Error::usage(format!("{file}: {text}")),
    };
    let again = "put back the seat it had, or open a new table from this save in the lobby";
    if meta.seats.len() != players.len() {
        return Err(Error::usage(format!(
            "{links}: its links are for {} seats, the game has {}",
            meta.seats.len(),
            players.len()
        )));
    }
    if replay.seats.is_empty() {
        return Err(Error::usage(format!(
            "{file}: the save says no seat's player (a table's save has `seats:`, e.g. `seats: {{{}: person}}`)",
            players[0]
        )));
    }
    let seats = replay.seats.iter().enumerate();
    if let Some((i, (p, _))) = seats.clone().find(|(_, (p, _))| !players.contains(p)) {
        let text = format!(
            "seat `{}` in the save is not a player of this game (players: {})",
            crate::text::clip(p),
            players.join(", ")
        );
        return Err(wrong(text, i).note(again));
    }
    for (p, token) in players.iter().zip(&meta.seats) {
        let Some((i, (_, kind))) = seats.clone().find(|(_, (q, _))| q == p) else {
            let text =
                format!("the save says nothing of seat `{p}` (give it `person` or a bot's kind)");
            return Err(wrong(text, 0).note(again));
        };
        let text = match (kind.as_str(), token) {
            ("person", Some(_)) => continue,
            ("person", None) => format!(
                "seat `{p}` is a person's in the save, but the table's links ({links}) give that seat no link: no one could play it and the game would wait forever"
            ),
            (_, Some(_)) => format!(
                "seat `{p}` is a bot's (`{}`) in the save, but the table's links ({links}) give that seat to a person",
                crate::text::clip(kind)
            ),
            (k, None) if !crate::analysis::bot::valid(k) => format!(
                "seat `{p}`: `{}` is not a bot's kind (kinds: {})",
                crate::text::clip(k),
                crate::analysis::bot::KINDS.join(", ")
            ),
            (k, None) => match super::bounded(k) {
                Ok(()) => continue,
                Err(e) => format!("seat `{p}`: {}", e.message),
            },
        };
        return Err(wrong(text, i).note(again));
    }
    Ok(())
}
