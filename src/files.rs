//! Reading the text files a user names (games, scripts, saves) within a
//! budget: `/dev/zero` or a huge file is refused, not read into memory.

use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest game file, script or save read: far above any real one.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// A file's text, if it is at most `MAX_FILE_BYTES` long and UTF-8.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "longer than {} MiB, the most a game, script or save may be",
                MAX_FILE_BYTES / (1024 * 1024)
            ),
        ));
    }
    String::from_utf8(bytes)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))
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
