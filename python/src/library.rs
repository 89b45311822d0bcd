//! The shipped games, embedded by build.rs and written out to a folder of
//! the cache when the package first loads a game, so that `extends`,
//! `import` and error positions see ordinary files. What runs is the
//! embedded text (`files::set_bundled`), whatever the written copy holds
//! later; a copy that differs is written again.

use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use tabula::error::{Error, Result};
use tabula::files;

include!(concat!(env!("OUT_DIR"), "/library.rs"));

/// The written-out library's games folder (once per process).
static GAMES: OnceLock<std::result::Result<PathBuf, Error>> = OnceLock::new();

/// The games folder of the shipped games, written out on the first call.
pub fn games() -> Result<PathBuf> {
    GAMES
        .get_or_init(|| {
            let root = cache_dir().join(format!("python-library-{:016x}", fingerprint()));
            write_out(&root).map_err(|e| {
                e.note("the package writes its games to a cache folder: set XDG_CACHE_HOME to a folder it can write, or load games from a folder of your own (games_dir=)")
            })?;
            files::set_bundled(root.clone(), FILES);
            let games = root.join("games");
            tabula::definition::source::set_built_in(games.clone(), ids());
            Ok(games)
        })
        .clone()
}

/// `$XDG_CACHE_HOME/tabula`, else `~/.cache/tabula`, else the temporary
/// folder: where the `tabula` program keeps its cache too.
pub fn cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("tabula")
}

/// The ids of the shipped games.
pub fn ids() -> Vec<String> {
    (FILES.iter())
        .filter_map(|(name, _)| name.strip_prefix("games/")?.strip_suffix(".yaml"))
        .map(str::to_string)
        .collect()
}

/// Each file under `root`, written where it is missing or differs.
fn write_out(root: &Path) -> Result<()> {
    for (name, text) in FILES {
        let path = root.join(name);
        let same = files::read_bytes(&path, text.len() as u64, "a library file")
            .is_ok_and(|b| b == text.as_bytes());
        if same {
            continue;
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        files::write_atomic(&path, text.as_bytes(), "a library file")
            .map_err(|e| Error::io(&path, e))?;
    }
    Ok(())
}

/// The library's content: another build writes a folder of its own.
fn fingerprint() -> u64 {
    let mut h = tabula_hash();
    for (name, text) in FILES {
        h.write(name.as_bytes());
        h.write(text.as_bytes());
    }
    h.finish()
}

/// A hasher whose output is the same in every process (FNV-1a).
fn tabula_hash() -> Fnv {
    Fnv(0xcbf2_9ce4_8422_2325)
}

struct Fnv(u64);

impl Hasher for Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}
