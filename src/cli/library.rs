//! The built-in library: the shipped games and scripts, embedded by
//! build.rs and written out to a cache folder when the binary starts, so
//! that loading, `extends`, `import` and error positions all see ordinary
//! files a player can open.

use std::hash::Hasher;
use std::path::PathBuf;

use tabula::error::{Error, Result};

include!(concat!(env!("OUT_DIR"), "/library.rs"));

/// The library's games folder, written out first (again, for any file
/// there that differs from the embedded one, e.g. edited by hand).
pub fn games_folder() -> Result<PathBuf> {
    let root = cache_root().join(format!("library-{:016x}", fingerprint()));
    for (name, text) in FILES {
        let path = root.join(name);
        if std::fs::read(&path).is_ok_and(|b| b == text.as_bytes()) {
            continue;
        }
        if let Some(d) = path.parent() {
            std::fs::create_dir_all(d).map_err(|e| Error::io(d, e))?;
        }
        tabula::replay::write_atomic(&path, text.as_bytes())?;
    }
    Ok(root.join("games"))
}

/// `$XDG_CACHE_HOME/tabula`, else `~/.cache/tabula`, else the temporary
/// folder.
fn cache_root() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("tabula")
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
