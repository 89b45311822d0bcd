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
    let root = tabula::files::cache_dir().join(format!("library-{:016x}", fingerprint()));
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

/// The library's content, so that another build writes its own folder.
fn fingerprint() -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    for (name, text) in FILES {
        h.write(name.as_bytes());
        h.write(text.as_bytes());
    }
    h.finish()
}
