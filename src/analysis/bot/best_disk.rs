//! The equilibrium bot's tables on disk (best.rs): the values solved
//! from a position, and the refusals, under the cache folder the program
//! names, each file checked before it is trusted.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The file of the values solved from position `key` (None: the program
/// named no cache folder, `files::set_cache_dir`).
pub(super) fn cache_file(id: u64, key: u128) -> Option<PathBuf> {
    Some(
        crate::files::cache_dir()?
            .join("equilibrium")
            .join(format!("{id:016x}-{key:032x}.bin")),
    )
}

/// The file that says a solve from `key` was refused, with the budget it
/// had (a bigger budget tries again) and why.
fn refused_file(id: u64, key: u128) -> Option<PathBuf> {
    Some(cache_file(id, key)?.with_extension("refused"))
}

/// What was found in the cache where a table or a refusal belongs and is
/// no file (a FIFO, a device, a folder): never read nor waited on, and
/// said by the program (which owns stderr) through `cache_notes`.
static FOUND: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Notes on cache files found to be no files since the last call.
pub fn cache_notes() -> Vec<String> {
    std::mem::take(&mut *FOUND.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Note `path` (`what` belongs there) if it is there and no file.
fn note_if_no_file(path: &Path, what: &str) {
    if let Ok(m) = std::fs::metadata(path)
        && !m.is_file()
    {
        let note = format!(
            "{}: {}, not {what}: ignored (the equilibrium is worked out again)",
            crate::error::path_text(path),
            crate::files::kind(m.file_type())
        );
        let mut found = FOUND.lock().unwrap_or_else(|e| e.into_inner());
        if !found.contains(&note) {
            found.push(note);
        }
    }
}

/// The longest refusal file read (a budget and a sentence).
const MAX_REFUSAL_BYTES: u64 = 64 * 1024;

/// Why a solve from this position was refused, if it was with a budget at
/// least `budget`.
pub(super) fn read_refusal(id: u64, key: u128, budget: usize) -> Option<String> {
    let path = refused_file(id, key)?;
    note_if_no_file(&path, "a kept refusal");
    let text = crate::files::read_utf8(&path, MAX_REFUSAL_BYTES, "a refusal file").ok()?;
    let (had, why) = text.split_once('\n')?;
    (had.parse::<usize>().ok()? >= budget).then(|| why.to_string())
}

/// Keep a refusal, so that the next run plays at once instead of
/// spending its budget again (a game too big takes about a minute).
pub(super) fn write_refusal(id: u64, key: u128, budget: usize, why: &str) {
    let Some(path) = refused_file(id, key) else {
        return;
    };
    if let Some(dir) = tables_folder(&path) {
        keep(&path, dir, format!("{budget}\n{why}").as_bytes());
    }
}

/// The tables' folder, made if missing; None if it cannot be or is a link
/// (to a user's folder, say: the cache writes nowhere it was not put).
fn tables_folder(path: &Path) -> Option<&Path> {
    let dir = path.parent()?;
    std::fs::create_dir_all(dir).ok()?;
    std::fs::symlink_metadata(dir)
        .is_ok_and(|m| m.is_dir())
        .then_some(dir)
}

/// Write a cache file whole (a reader never sees half of it): a rename
/// replaces whatever is there, a bad table or a FIFO or a link planted,
/// and never writes through it.
fn keep(path: &Path, dir: &Path, bytes: &[u8]) {
    if let Ok(mut f) = tempfile::NamedTempFile::new_in(dir)
        && f.write_all(bytes).is_ok()
    {
        let _ = f.persist(path);
    }
}

/// A table: the magic, the game and setting (`identity`) and the position
/// (`State::key`) it was solved for, the count, each position's key and
/// value, then a checksum of all that: a table damaged, cut short or
/// renamed from another setting's is solved again, never trusted.
const MAGIC: &[u8; 8] = b"TABEQ02\n";
const HEAD: usize = 8 + 8 + 16 + 8;

/// A hash of a table's bytes: any edit to them changes it.
fn checksum(bytes: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    h.write(bytes);
    h.finish()
}

/// Values solved from `root` for game `id`, if the file holds them, whole
/// and unedited, and each is a finite number.
pub(super) fn read(path: &Path, id: u64, root: u128) -> Option<Vec<(u128, f64)>> {
    // More than a bot keeps in memory is no table of ours.
    let max = (HEAD + 24 * KEPT_IN_MEMORY + 8) as u64;
    note_if_no_file(path, "an equilibrium table");
    let bytes = crate::files::read_bytes(path, max, "an equilibrium table").ok()?;
    let (table, sum) = bytes.split_at_checked(bytes.len().checked_sub(8)?)?;
    let (head, body) = table.split_at_checked(HEAD)?;
    let word = |at: usize| u64::from_le_bytes(head[at..at + 8].try_into().unwrap_or_default());
    let root_here = u128::from_le_bytes(head[16..32].try_into().ok()?);
    let n = usize::try_from(word(32)).ok()?;
    if &head[..8] != MAGIC
        || word(8) != id
        || root_here != root
        || body.len() != n.checked_mul(24)?
        || sum != checksum(table).to_le_bytes()
    {
        return None;
    }
    body.chunks_exact(24)
        .map(|c| {
            let k = u128::from_le_bytes(c[..16].try_into().ok()?);
            let v = f64::from_le_bytes(c[16..].try_into().ok()?);
            v.is_finite().then_some((k, v))
        })
        .collect()
}

/// Tables kept on disk per game and setting: a game dealt at random is
/// solved per deal (BraveRats' random-deal), and a sim of many deals must
/// not fill the disk; the first deals are kept, the others solved again.
const KEPT_PER_GAME: usize = 16;

/// Positions' values kept in memory per game before the oldest solves are
/// forgotten (about 40 bytes each: 20 million is under a gigabyte).
pub(super) const KEPT_IN_MEMORY: usize = 20_000_000;

/// Write the values atomically (a reader never sees half a file); a
/// cache that cannot be written only costs a solve next time.
pub(super) fn write(id: u64, root: u128, values: &[(u128, f64)]) {
    let Some(path) = cache_file(id, root) else {
        return;
    };
    let Some(dir) = tables_folder(&path) else {
        return;
    };
    let game = format!("{id:016x}-");
    // A bad table this one replaces does not count.
    let kept = std::fs::read_dir(dir).map_or(0, |d| {
        d.filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().starts_with(&game) && e.path() != path)
            .count()
    });
    if kept >= KEPT_PER_GAME {
        return;
    }
    let mut bytes = Vec::with_capacity(HEAD + 24 * values.len() + 8);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&id.to_le_bytes());
    bytes.extend_from_slice(&root.to_le_bytes());
    bytes.extend_from_slice(&(values.len() as u64).to_le_bytes());
    for (k, v) in values {
        bytes.extend_from_slice(&k.to_le_bytes());
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    bytes.extend_from_slice(&checksum(&bytes).to_le_bytes());
    keep(&path, dir, &bytes);
}
