//! The built-in library: the shipped games and scripts, embedded by
//! build.rs and written out to a cache folder when the binary starts, so
//! that loading, `extends`, `import` and error positions all see ordinary
//! files a player can open. A binary run from its own source clone (under
//! the clone's folder, as `cargo run` runs it) plays the clone's live
//! `games/` and `scripts/` instead: an edit there is played at once, and
//! the program is never rebuilt for it (build.rs does not track them).

use std::hash::Hasher;
use std::path::{Path, PathBuf};

use tabula::error::{Error, Result, path_text};
use tabula::files;

include!(concat!(env!("OUT_DIR"), "/library.rs"));

/// The written-out library, while it is in use: its games folder, what
/// was found there and replaced (for the user to be told), and the
/// temporary folder it was written to when the cache could not take it
/// (removed when the library is dropped).
pub struct Library {
    pub games: PathBuf,
    pub said: Vec<String>,
    /// The ids of its games.
    pub ids: Vec<String>,
    _temporary: Option<tempfile::TempDir>,
}

/// The setting that makes a binary in its clone use its embedded library
/// all the same, as an installed one does (`TABULA_LIBRARY=embedded`).
pub const LIBRARY_VAR: &str = "TABULA_LIBRARY";

/// The source clone this binary was built from, when the binary runs from
/// inside it (its `target/`) and it still has its games: its root.
fn own_clone() -> Option<PathBuf> {
    if std::env::var_os(LIBRARY_VAR).is_some_and(|v| v == "embedded") {
        return None;
    }
    let clone = Path::new(env!("CARGO_MANIFEST_DIR")).canonicalize().ok()?;
    let exe = std::env::current_exe().ok()?.canonicalize().ok()?;
    let ours = exe.starts_with(&clone)
        && clone.join("games").is_dir()
        && clone.join("scripts").is_dir()
        && clone.join("build.rs").is_file();
    ours.then_some(clone)
}

/// The library's games folder, written out first (again, for any file
/// there that differs from the embedded one), and what was found there and
/// replaced: an edit to the written-out copy, or a link or a FIFO where a
/// file or a folder of the library belongs. A cache that cannot be
/// written (read-only, full) leaves the built-in games playable: they are
/// written to a private temporary folder for this run instead.
pub fn games_folder() -> Result<Library> {
    if let Some(clone) = own_clone() {
        let games = clone.join("games");
        return Ok(Library {
            ids: tabula::definition::source::list_ids(&games),
            games,
            said: Vec::new(),
            _temporary: None,
        });
    }
    let library = write_somewhere()?;
    // What runs is the binary's own copy, whatever the folder holds later.
    let root = library.games.parent().unwrap_or(&library.games);
    files::set_bundled(root.to_path_buf(), FILES);
    Ok(library)
}

/// The library written out to the cache, else to a temporary folder.
fn write_somewhere() -> Result<Library> {
    let root = super::env::cache_dir().join(format!("library-{:016x}", fingerprint()));
    let mut said = Vec::new();
    match write_out(&root, &mut said) {
        Ok(()) => Ok(Library {
            games: root.join("games"),
            said,
            ids: game_ids(),
            _temporary: None,
        }),
        Err(e) => {
            let cache = e.render(false);
            let cache = cache.trim_start_matches("error: ");
            let lost = |t: String| {
                e.clone()
                    .note(format!("nor could a temporary folder take them: {t}"))
            };
            let (root, temporary) = private_folder().map_err(|t| lost(t.to_string()))?;
            write_out(&root, &mut Vec::new()).map_err(|t| lost(t.render(false)))?;
            said.push(format!(
                "the cache cannot take the built-in games ({cache}); they are written to {} instead",
                path_text(&root)
            ));
            Ok(Library {
                games: root.join("games"),
                said,
                ids: game_ids(),
                _temporary: temporary,
            })
        }
    }
}

/// A folder of this user's own for the library when the cache cannot take
/// it: one per user and library in the temporary folder (kept, like the
/// cache, so that a run stopped by a signal leaves nothing more behind),
/// else, where another user holds that name, a fresh one removed at exit.
fn private_folder() -> std::io::Result<(PathBuf, Option<tempfile::TempDir>)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, MetadataExt};
        // SAFETY: getuid has no preconditions and cannot fail.
        let uid = unsafe { libc::getuid() };
        let dir = std::env::temp_dir().join(format!("tabula-{uid}-library-{:016x}", fingerprint()));
        let made = std::fs::DirBuilder::new().mode(0o700).create(&dir);
        let ours = std::fs::symlink_metadata(&dir)
            .is_ok_and(|m| m.is_dir() && m.uid() == uid && m.mode() & 0o077 == 0);
        if (made.is_ok() || dir.exists()) && ours {
            return Ok((dir, None));
        }
    }
    let tmp = tempfile::Builder::new()
        .prefix("tabula-library-")
        .tempdir()?;
    Ok((tmp.path().to_path_buf(), Some(tmp)))
}

/// The ids of the embedded games (the library's `games/*.yaml`).
fn game_ids() -> Vec<String> {
    (FILES.iter())
        .filter_map(|(name, _)| name.strip_prefix("games/")?.strip_suffix(".yaml"))
        .map(str::to_string)
        .collect()
}

/// Write the library's files under `root`, each only where it differs.
fn write_out(root: &Path, said: &mut Vec<String>) -> Result<()> {
    own_folder(root, said)?;
    let mut folders: Vec<PathBuf> = Vec::new();
    for (name, text) in FILES {
        let path = root.join(name);
        let Some(dir) = path.parent() else { continue };
        if !folders.iter().any(|f| f == dir) {
            own_folder(dir, said)?;
            folders.push(dir.to_path_buf());
        }
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_file() => {
                // Read no more than the file should hold.
                let cap = text.len() as u64;
                if files::read_bytes(&path, cap, "a library file")
                    .is_ok_and(|b| b == text.as_bytes())
                {
                    continue;
                }
                // The edit is kept beside it, never written over.
                let kept = keep_aside(&path).map_err(|e| Error::io(&path, e))?;
                said.push(format!(
                    "{}: edited since it was written out; your edit is kept as {} and the built-in copy is written again (a built-in game always plays the binary's own rules: `tabula copy GAME DIR` makes a copy of your own to edit and play)",
                    path_text(&path),
                    path_text(&kept)
                ));
            }
            Ok(m) => {
                // The entry goes (a link: never what it points to); a
                // folder there that is not empty stays, and the write says so.
                let _ = std::fs::remove_file(&path).or_else(|_| std::fs::remove_dir(&path));
                said.push(format!(
                    "{}: {}, not the library's file; replaced by it",
                    path_text(&path),
                    files::kind(m.file_type())
                ));
            }
            Err(_) => {}
        }
        files::write_atomic(&path, text.as_bytes(), "a library file")
            .map_err(|e| Error::io(&path, e))?;
    }
    Ok(())
}

/// Make `dir` a folder of the library's own: created if missing; a link
/// there (a games folder replaced by a link to a user's folder) or a file
/// is removed, never written through, and what it pointed to is untouched.
fn own_folder(dir: &Path, said: &mut Vec<String>) -> Result<()> {
    match std::fs::symlink_metadata(dir) {
        Ok(m) if m.is_dir() => return Ok(()),
        Ok(m) => {
            // Another process may have replaced it already: checked below.
            let _ = std::fs::remove_file(dir);
            said.push(format!(
                "{}: {}, not the library's own folder; replaced by it (what it pointed to is untouched)",
                path_text(dir),
                files::kind(m.file_type())
            ));
        }
        Err(_) => {}
    }
    if let Err(e) = std::fs::create_dir_all(dir)
        && e.kind() != std::io::ErrorKind::AlreadyExists
    {
        return Err(Error::io(dir, e));
    }
    match std::fs::symlink_metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(m) => Err(Error::io(
            dir,
            std::io::Error::other(format!(
                "{}, not a folder; remove it and run again",
                files::kind(m.file_type())
            )),
        )),
        Err(e) => Err(Error::io(dir, e)),
    }
}

/// The library's content, so that another build writes its own folder.
fn fingerprint() -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    for (name, text) in FILES {
        h.write(name.as_bytes());
        h.write(text.as_bytes());
    }
    h.finish()
}

/// Move an edited library file aside, to `NAME.edited-YYYYMMDD-HHMMSS`
/// (with `-2`, `-3`... if that is taken) in its folder: where it went.
fn keep_aside(path: &Path) -> std::io::Result<PathBuf> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let stamp = utc_stamp(std::time::SystemTime::now());
    for n in 1..1000 {
        let more = if n == 1 {
            String::new()
        } else {
            format!("-{n}")
        };
        let kept = path.with_file_name(format!("{name}.edited-{stamp}{more}"));
        if std::fs::symlink_metadata(&kept).is_ok() {
            continue;
        }
        std::fs::rename(path, &kept)?;
        return Ok(kept);
    }
    Err(std::io::Error::other(
        "too many kept edits beside it: move them away and run again",
    ))
}

/// `t` as `YYYYMMDD-HHMMSS`, in UTC.
pub fn utc_stamp(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    // Days since 1970-01-01 to a civil date (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}{month:02}{day:02}-{:02}{:02}{:02}",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_stamp_is_the_utc_date_and_time() {
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_765_000_000);
        assert_eq!(super::utc_stamp(t), "20251206-054640");
        assert_eq!(super::utc_stamp(std::time::UNIX_EPOCH), "19700101-000000");
    }
}
