//! Reading the files a user names (games, scripts, saves, shards) and the
//! ones tabula reads back (its cache) within a budget, and writing files
//! whole: `/dev/zero`, a FIFO or a huge file is refused, not read into
//! memory nor waited on, and a write never goes through a link.

use std::io::{Error, ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

/// The largest game file, script, save or shard read: far above any real
/// one.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// What a file that is not a regular one is, in a user's words.
pub fn kind(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a folder"
    } else if t.is_symlink() {
        "a link"
    } else {
        "not a regular file"
    }
}

/// `n` bytes, as a person reads a size.
fn size(n: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    match n {
        n if n >= MIB && n % MIB == 0 => format!("{} MiB", n / MIB),
        n if n >= 1024 && n % 1024 == 0 => format!("{} KiB", n / 1024),
        n => format!("{n} bytes"),
    }
}

/// A file's bytes, if it is a regular file (or a link to one) of at most
/// `max` bytes; `what` names the file's kind in the message ("a save").
/// Anything else is refused before it is read: a FIFO would block, a
/// device never end. The caller names the path (`Error::io`).
pub fn read_bytes(path: &Path, max: u64, what: &str) -> std::io::Result<Vec<u8>> {
    let refuse = |t| {
        Error::new(
            ErrorKind::InvalidInput,
            format!(
                "{}, not a file: {what} is read from a regular file",
                kind(t)
            ),
        )
    };
    let too_long = || {
        Error::new(
            ErrorKind::InvalidData,
            format!("longer than {}, the most {what} may be", size(max)),
        )
    };
    let t = std::fs::metadata(path)?.file_type();
    if !t.is_file() {
        return Err(refuse(t));
    }
    // Opened without waiting and checked again: the file may have been
    // swapped for a FIFO since.
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        open.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = open.open(path)?;
    let meta = file.metadata()?;
    if !meta.file_type().is_file() {
        return Err(refuse(meta.file_type()));
    }
    if meta.len() > max {
        return Err(too_long());
    }
    // A file that grows while it is read stops at the cap all the same.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(too_long());
    }
    Ok(bytes)
}

/// A file's text, if `read_bytes` takes it and it is UTF-8.
pub fn read_utf8(path: &Path, max: u64, what: &str) -> std::io::Result<String> {
    let bytes = read_bytes(path, max, what)?;
    String::from_utf8(bytes).map_err(|_| Error::new(ErrorKind::InvalidData, "not UTF-8 text"))
}

/// A game file's, script's or save's text (at most `MAX_FILE_BYTES`). A
/// file of the bundled library is its bundled text, whatever its
/// written-out copy holds now: what runs is what the binary checked.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let text = match bundled(path) {
        Some(t) => t.to_string(),
        None => read_utf8(path, MAX_FILE_BYTES, "a game, script or save")?,
    };
    READ.with(|r| {
        if let Some(h) = r.borrow_mut().as_mut() {
            use std::hash::Hasher;
            h.write_usize(text.len());
            h.write(text.as_bytes());
        }
    });
    RECORD.with(|r| {
        if let Some(files) = r.borrow_mut().as_mut()
            && !files.iter().any(|(p, _)| p == path)
        {
            files.push((path.to_path_buf(), text.clone()));
        }
    });
    Ok(text)
}

thread_local! {
    /// The files `read_text` gave on this thread, while `record_reads`
    /// watches.
    static RECORD: std::cell::RefCell<Option<Vec<(PathBuf, String)>>> =
        const { std::cell::RefCell::new(None) };
}

/// `f`'s result and every file `read_text` gave while it ran on this
/// thread, each once with the text it gave (for a bundled file, the
/// binary's own): the files a game is made of (`tabula copy`).
pub fn record_reads<T>(f: impl FnOnce() -> T) -> (T, Vec<(PathBuf, String)>) {
    let outer = RECORD.with(|r| r.replace(Some(Vec::new())));
    let out = f();
    let files = RECORD.with(|r| r.replace(outer)).unwrap_or_default();
    (out, files)
}

thread_local! {
    /// The fingerprint of the texts `read_text` gave on this thread, while
    /// `fingerprint_reads` watches.
    static READ: std::cell::RefCell<Option<rustc_hash::FxHasher>> =
        const { std::cell::RefCell::new(None) };
}

/// `f`'s result and a fingerprint of every text `read_text` gave while it
/// ran on this thread (in order): the rules a game was built from, as they
/// were read, not as the files hold them a moment later.
pub fn fingerprint_reads<T>(f: impl FnOnce() -> T) -> (T, u64) {
    use std::hash::Hasher;
    let outer = READ.with(|r| r.replace(Some(rustc_hash::FxHasher::default())));
    let out = f();
    let h = READ.with(|r| r.replace(outer)).unwrap_or_default();
    (out, h.finish())
}

/// `games/../scripts/x.rhai` -> `scripts/x.rhai`, without touching the disk,
/// so that messages show short paths.
pub fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

/// The library the binary carries, and where it is written out.
static BUNDLED: std::sync::OnceLock<(PathBuf, &'static [(&'static str, &'static str)])> =
    std::sync::OnceLock::new();

/// The files under `root` (`files`: their names under it and texts) are
/// read from the binary, never from the folder: a copy rewritten by
/// another process between a check and a read is not run. Set once.
pub fn set_bundled(root: PathBuf, files: &'static [(&'static str, &'static str)]) {
    let _ = BUNDLED.set((normalize(&root), files));
}

/// Whether `path` is a file of the bundled library: read from the
/// binary, whatever its written-out copy holds.
pub fn is_bundled(path: &Path) -> bool {
    bundled(path).is_some()
}

/// A bundled file's text, for its path under the library's folder.
fn bundled(path: &Path) -> Option<&'static str> {
    let (root, files) = BUNDLED.get()?;
    // As the loader names a script (`games/../scripts/x.rhai`, `./c/...`).
    let path = normalize(path);
    let name = path.strip_prefix(root).ok()?;
    files
        .iter()
        .find(|(n, _)| Path::new(n) == name)
        .map(|(_, t)| *t)
}

/// Whether `write_atomic` can write `path` (`what`, e.g. "a chart"): its
/// folder exists and takes a new file, and the path is no link nor
/// anything but a regular file. Checked before a long run, not after it.
pub fn check_writable(path: &Path, what: &str) -> std::io::Result<()> {
    refuse_unless_file(path, what)?;
    let dir = folder(path);
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(m) => {
            return Err(Error::new(
                ErrorKind::NotADirectory,
                format!("{} is {}, not a folder", dir.display(), kind(m.file_type())),
            ));
        }
        Err(e) if e.kind() == ErrorKind::NotFound => {
            return Err(Error::new(
                ErrorKind::NotFound,
                format!(
                    "no folder {} to write {what} in (make it first, or name another)",
                    dir.display()
                ),
            ));
        }
        Err(e) => return Err(e),
    }
    // The one sure test of a folder's permissions: a file made there (and
    // removed at once).
    tempfile::NamedTempFile::new_in(dir).map(drop).map_err(|e| {
        Error::new(
            e.kind(),
            format!("{what} cannot be written there: {}", plain(&e)),
        )
    })
}

/// Write a file whole or not at all: a temporary file with an unpredictable
/// name, created exclusively beside the target (never through a link
/// planted there), synced, then renamed over the target. A target that is
/// a link or not a regular file (a device, a folder) is refused, not
/// replaced; `what` names the file in the message ("a chart").
pub fn write_atomic(path: &Path, bytes: &[u8], what: &str) -> std::io::Result<()> {
    refuse_unless_file(path, what)?;
    // The temporary file's random name is no business of the user's.
    let fail = |e: Error| Error::new(e.kind(), plain(&e));
    let mut tmp = temporary_beside(path).map_err(fail)?;
    // A file replaced keeps its permissions (a save made private stays so).
    if let Ok(m) = std::fs::symlink_metadata(path) {
        tmp.as_file()
            .set_permissions(m.permissions())
            .map_err(fail)?;
    }
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// How the temporary files of `write_atomic` begin: what an interrupted
/// write leaves is known by it.
pub const TEMPORARY_PREFIX: &str = ".tabula-tmp";

/// A temporary file in `path`'s folder, made as a new file there would be:
/// tempfile's own 0600 would make a chart or save unreadable to others
/// where the user's umask says they may read it.
fn temporary_beside(path: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let mut b = tempfile::Builder::new();
    b.prefix(TEMPORARY_PREFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // The mode a plain create gives (the umask still applies).
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    b.tempfile_in(folder(path))
}

/// An error for a target that exists and is not a regular file.
fn refuse_unless_file(path: &Path, what: &str) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if !meta.file_type().is_file() => Err(Error::new(
            ErrorKind::InvalidInput,
            format!(
                "{}; {what} goes to a regular file (name another)",
                kind(meta.file_type())
            ),
        )),
        _ => Ok(()),
    }
}

/// The folder a file is written in (`.` for a bare name).
fn folder(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// An error's message without the temporary file's path tempfile adds.
fn plain(e: &Error) -> String {
    let msg = e.to_string();
    msg.split(" at path ").next().unwrap_or(&msg).to_string()
}

/// The folder the program named for what the library can compute again
/// (equilibrium tables): none until `set_cache_dir`.
static CACHE_DIR: std::sync::RwLock<Option<PathBuf>> = std::sync::RwLock::new(None);

/// Where the library keeps what it can compute again (the `best` bot's
/// equilibrium tables): a folder the program names (the `tabula` binary:
/// `$XDG_CACHE_HOME/tabula`, else `~/.cache/tabula`), or None, the
/// default: nothing is kept on disk and each process solves again.
pub fn set_cache_dir(dir: Option<PathBuf>) {
    *CACHE_DIR.write().unwrap_or_else(|e| e.into_inner()) = dir;
}

/// The cache folder `set_cache_dir` named, if any.
pub fn cache_dir() -> Option<PathBuf> {
    CACHE_DIR.read().unwrap_or_else(|e| e.into_inner()).clone()
}
