//! Game files on disk: where games are found, reading one with positions,
//! and following `extends:` into one merged file.

use std::path::{Path, PathBuf};

use super::format::{self, At, GameFile};
use crate::error::{Error, ErrorKind, Pos, Result, did_you_mean};

/// What to load: a game and the settings a command line or a replay gives.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    pub variants: Vec<String>,
    /// Parameter settings: a number, or a named value.
    pub sets: Vec<(String, crate::definition::format::ParamValue)>,
}

/// The built-in library's folder and the ids of its games.
static BUILT_IN: std::sync::OnceLock<(PathBuf, Vec<String>)> = std::sync::OnceLock::new();

/// Where a game that is not in the chosen folder is looked for next: a
/// program's built-in library (the `tabula` binary's shipped games, `ids`
/// naming them: a file planted beside them is no built-in game). Set once
/// per process; later calls are ignored.
pub fn set_built_in(dir: PathBuf, ids: Vec<String>) {
    let _ = BUILT_IN.set((dir, ids));
}

/// The built-in library's folder, if a program set one.
pub fn built_in() -> Option<&'static Path> {
    BUILT_IN.get().map(|(d, _)| d.as_path())
}

/// Whether `dir` is the built-in library and `id` none of its games.
fn planted(dir: &Path, id: &str) -> bool {
    BUILT_IN
        .get()
        .is_some_and(|(d, ids)| d == dir && !ids.iter().any(|i| i == id))
}

/// A game file named `game` (.yaml or .yml) directly in `dir`.
fn in_folder(game: &str, dir: &Path) -> Option<PathBuf> {
    if planted(dir, game) {
        return None;
    }
    ["yaml", "yml"]
        .iter()
        .map(|ext| dir.join(format!("{game}.{ext}")))
        .find(|p| p.is_file())
}

/// The ids of the games in a folder, sorted.
pub fn list_ids(dir: &Path) -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let p = e.path();
            let yaml = p.extension().is_some_and(|x| x == "yaml" || x == "yml");
            yaml.then(|| p.file_stem()?.to_str().map(str::to_string))?
        })
        .filter(|id| !planted(dir, id))
        .collect();
    ids.sort();
    ids
}

/// A game id in `dir` (else in the built-in library), or a path to a YAML
/// file.
pub fn find(game: &str, dir: &Path) -> Result<PathBuf> {
    find_from(game, dir, None)
}

/// As [`find`], with a path looked for first relative to `beside` (a
/// replay's folder), then to the current directory; a bare word is still a
/// game's id first.
pub fn find_from(game: &str, dir: &Path, beside: Option<&Path>) -> Result<PathBuf> {
    let as_path = Path::new(game);
    // A bare word is a game's id before it is a file of that name here
    // (`./braverats` names the file): a stray file does not shadow a game.
    let bare = as_path.components().count() == 1 && as_path.extension().is_none();
    let other = built_in().filter(|b| *b != dir);
    let by_id = || in_folder(game, dir).or_else(|| other.and_then(|b| in_folder(game, b)));
    if bare && let Some(p) = by_id() {
        return Ok(p);
    }
    let near = beside.map(|b| b.join(game)).filter(|p| p.is_file());
    if let Some(p) = near {
        return Ok(p);
    }
    if as_path.is_file() {
        return Ok(as_path.to_path_buf());
    }
    if let Some(p) = by_id() {
        return Ok(p);
    }
    let mut ids = list_ids(dir);
    let place = if built_in() == Some(dir) {
        "among the built-in games".to_string()
    } else {
        let folder = crate::error::path_text(dir);
        match other {
            Some(b) => {
                ids.extend(list_ids(b));
                ids.sort();
                ids.dedup();
                format!("in {folder} nor among the built-in games")
            }
            None => format!("in {folder}"),
        }
    };
    let mut e = Error::usage(format!("no game `{game}` {place} (and no such file)"));
    if let Some(h) = did_you_mean(game, ids.iter().map(String::as_str)) {
        e = e.note(h);
    }
    Err(e.note(format!("games there: {}", ids.join(", "))))
}

/// Parse one YAML file as a game file, with positions.
pub fn parse_file(path: &Path) -> Result<(GameFile, String)> {
    let src = crate::files::read_text(path).map_err(|e| Error::io(path, e))?;
    let file = parse_source(path, &src)?;
    Ok((file, src))
}

/// Parse game-file text (named `path` in errors). Never panics, whatever
/// the input (fuzzed: fuzz/fuzz_targets/load_game.rs).
pub fn parse_source(path: &Path, src: &str) -> Result<GameFile> {
    // YAML 1.2 booleans (`true`, `false`): a card or player id `y`, `no`
    // or `on` stays text, as a designer means it.
    let options = serde_saphyr::options! { strict_booleans: true };
    format::with_file(path, || {
        serde_saphyr::from_str_with_options::<GameFile>(src, options)
    })
    .map_err(|e| yaml_error(path, src, &e))
}

/// A YAML parser's message in a user's words: its advice to its own
/// callers (`DuplicateKeyPolicy`, `from_str_multiple`) taken out.
pub(crate) fn parser_words(msg: String) -> String {
    if let Some(key) = msg.strip_prefix("duplicate mapping key: ") {
        let key = key.split(", set DuplicateKeyPolicy").next().unwrap_or(key);
        return format!("`{key}` is given twice in one mapping (each key once)");
    }
    if msg.starts_with("multiple YAML documents detected") {
        return "a second YAML document (after `---`): a file holds one".into();
    }
    msg
}

fn yaml_error(path: &Path, src: &str, e: &serde_saphyr::Error) -> Error {
    let loc = e.location();
    let options = serde_saphyr::render_options! { snippets: serde_saphyr::SnippetMode::Off };
    let mut msg = e.render_with_options(options);
    // The position is rendered by us, with the source line.
    if let Some(i) = msg.rfind(" at line ") {
        msg.truncate(i);
    }
    msg = parser_words(msg);
    if msg == "expected mapping start" {
        msg = "expected a mapping here (`key: value` lines or `{key: value}`)".into();
    }
    // A number too large to read, or not whole: said as the analyzer says
    // a number out of its range, with the field's range.
    if let Some(l) = loc
        && let Some(said) = unreadable_number(&msg, src, l.line() as usize, l.column() as usize)
    {
        msg = said;
    }
    // Serde's words for a value of none of the allowed forms, in ours.
    if let Some(name) = msg.strip_prefix("data did not match any variant of untagged enum ") {
        let forms = match name.trim() {
            "StartValue" => {
                "a number, `{param: NAME}`, `{expr: \"2 * NAME + 1\"}`, or a number per player (`{red: 1, blue: 2}`)"
            }
            "CardSelection" => "`all`, a card id, or a list of card ids",
            "AttrValue" => "a number, true or false, or text",
            "FacesDef" => {
                "a number of sides, `{param: NAME}`, `{expr: TEXT}`, or a list of faces (all numbers or all words)"
            }
            "FaceValue" => "a number or a word",
            _ => "one of the forms docs/format.md gives for it",
        };
        msg = format!("this value has none of the allowed forms: give {forms}");
    }
    let mut notes = Vec::new();
    if let Some(l) = loc
        && let Some((said, n)) =
            super::yaml_words::explain(&msg, src, l.line() as usize, l.column() as usize)
    {
        msg = said;
        notes = n;
    }
    let mut err = Error::new(ErrorKind::Yaml, msg.clone());
    for n in notes {
        err = err.note(n);
    }
    if let Some(field) = msg
        .strip_prefix("unknown field `")
        .and_then(|r| r.split('`').next())
    {
        let known = msg.split("expected one of ").nth(1).unwrap_or("");
        let names: Vec<&str> = known
            .split(", ")
            .map(|s| s.trim_matches(|c| c == '`' || c == '.'))
            .collect();
        if let Some(h) = did_you_mean(field, names) {
            err = err.note(h);
        }
    }
    err.at(loc.and_then(|l| Pos::new(path, l.line(), l.column())))
}

/// The parser's "invalid u32" (a number field given what it cannot read)
/// or "none of the forms" for a number, in a designer's words: the field,
/// the value as written, and the range the analyzer would check it
/// against (`` `wins` is 99999999999999999999: give 1 to 1000 ``).
fn unreadable_number(msg: &str, src: &str, line: usize, col: usize) -> Option<String> {
    let typed = msg.strip_prefix("invalid ").is_some_and(|t| {
        let bits = t.trim_start_matches(['i', 'u']);
        t.len() > bits.len() && (bits == "size" || bits.parse::<u32>().is_ok())
    });
    let untagged = msg.starts_with("data did not match any variant of untagged enum");
    if !typed && !untagged {
        return None;
    }
    let text = scalar_at(src, line, col)?;
    let numeric = text
        .trim_start_matches(['-', '+'])
        .starts_with(|c: char| c.is_ascii_digit());
    let start_value = msg.trim_end().ends_with("StartValue");
    if !typed && !numeric && !start_value {
        return None;
    }
    let keys = super::yaml_words::keys_at(src, line, col);
    let (field, bound) = super::bounds::of_field(&keys);
    let whole = text
        .trim_start_matches(['-', '+'])
        .bytes()
        .all(|b| b.is_ascii_digit());
    // An open end ("0 or more") is said as the end a number can reach.
    let range =
        if bound != super::bounds::INTEGER && (bound.min == i64::MIN || bound.max == i64::MAX) {
            format!("{} to {}", bound.min, bound.max)
        } else {
            bound.allowed()
        };
    let give = if whole || bound == super::bounds::INTEGER {
        range.clone()
    } else {
        format!("a whole number, {range}")
    };
    if untagged && !numeric {
        // A word where a number, a parameter or an expression goes.
        let per_player = if keys.first().is_some_and(|k| k == "stats") {
            ", or a number per player"
        } else {
            ""
        };
        return Some(format!(
            "{field} is {text}: give a whole number ({range}), `{{param: NAME}}` or `{{expr: TEXT}}`{per_player}"
        ));
    }
    Some(format!("{field} is {text}: give {give}"))
}

/// The plain scalar that starts at `line`:`col` (1-based), as written; None
/// for a quoted one or a collection.
fn scalar_at(src: &str, line: usize, col: usize) -> Option<String> {
    let l = src.lines().nth(line.checked_sub(1)?)?;
    let rest: String = l.chars().skip(col.saturating_sub(1)).collect();
    if rest.starts_with(['"', '\'', '{', '[']) {
        return None;
    }
    let end = rest
        .find([',', '}', ']'])
        .into_iter()
        .chain(rest.find(" #"))
        .min()
        .unwrap_or(rest.len());
    let text = rest[..end].trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// How many files an `extends:` chain may hold (docs/format.md).
pub const MAX_EXTENDS: usize = 8;

/// Read a game file and what it extends, merged, with the script path made
/// absolute relative to the file that names it.
pub fn read_merged(path: &Path, dir: &Path) -> Result<GameFile> {
    read_chain(path, dir, &mut Vec::new())
}

/// `read_merged`, with the files of the chain so far (to find a cycle).
fn read_chain(path: &Path, dir: &Path, chain: &mut Vec<PathBuf>) -> Result<GameFile> {
    // Only a game file is read: any other file's first line would be
    // echoed in the parse error (a replay naming `game: /etc/passwd`).
    if !path.extension().is_some_and(|x| x == "yaml" || x == "yml") {
        return Err(Error::usage(format!(
            "{} is not a game file (a .yaml or .yml file)",
            crate::error::path_text(path)
        )));
    }
    chain.push(path.canonicalize().unwrap_or_else(|_| path.to_path_buf()));
    let (mut file, _) = parse_file(path)?;
    let here = path.parent().unwrap_or(Path::new("."));
    if let Some(s) = &mut file.script {
        s.value = crate::files::normalize(&here.join(&s.value));
        guard_script(s, here)?;
    }
    for v in file.variants.values_mut() {
        if let Some(s) = v.overlay.as_mut().and_then(|o| o.script.as_mut()) {
            s.value = crate::files::normalize(&here.join(&s.value));
            guard_script(s, here)?;
        }
    }
    let Some(parent) = file.extends.take() else {
        if file.script.is_none()
            && let Some(id) = &file.id
        {
            let p = crate::files::normalize(
                &here.join("../scripts").join(format!("{}.rhai", id.value)),
            );
            let s = At::new(p);
            guard_script(&s, here)?;
            file.script = Some(s);
        }
        return Ok(file);
    };
    let base_path = match find(&parent.value, here) {
        Ok(p) => p,
        Err(_) => find(&parent.value, dir).map_err(|e| {
            Error::new(ErrorKind::Invalid, format!("extends: {}", e.message)).at(parent.pos.clone())
        })?,
    };
    let real = base_path
        .canonicalize()
        .unwrap_or_else(|_| base_path.clone());
    if chain.contains(&real) {
        let names: Vec<String> = chain
            .iter()
            .chain([&real])
            .map(|p| {
                p.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        return Err(Error::new(
            ErrorKind::Invalid,
            format!("`extends` makes a cycle: {}", names.join(" -> ")),
        )
        .at(parent.pos.clone()));
    }
    if chain.len() >= MAX_EXTENDS {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!("`extends` chains more than {MAX_EXTENDS} files (the limit)"),
        )
        .at(parent.pos.clone()));
    }
    let base = read_chain(&base_path, dir, chain)?;
    Ok(format::merge(base, file))
}

/// Only a script is read for a game, and only from the game's folders
/// (the game file's folder and the one above it, where `scripts/` sits
/// beside `games/`): a game file naming `script: ~/.ssh/id_rsa` would
/// otherwise have its first line echoed in the parse error. A link is
/// followed (a scripts folder may be one) to a .rhai file only.
fn guard_script(s: &At<PathBuf>, here: &Path) -> Result<()> {
    let is_script = |p: &Path| p.extension().is_some_and(|x| x == "rhai");
    let refuse = |why: &str| {
        Err(Error::new(
            ErrorKind::Invalid,
            format!("script: {} is {why}", crate::error::path_text(&s.value)),
        )
        .at(s.pos.clone()))
    };
    if !is_script(&s.value) || std::fs::canonicalize(&s.value).is_ok_and(|p| !is_script(&p)) {
        return refuse("not a script (a .rhai file)");
    }
    let here = if here.as_os_str().is_empty() {
        Path::new(".")
    } else {
        here
    };
    let absolute = |p: &Path| std::path::absolute(p).map(|a| crate::files::normalize(&a));
    if let (Ok(folder), Ok(script)) = (absolute(here), absolute(&s.value)) {
        let root = folder.parent().unwrap_or(&folder);
        if !script.starts_with(root) {
            return refuse(&format!(
                "outside the game's folders ({} and the folder above it): a game's script goes beside it or in ../scripts",
                crate::error::path_text(here)
            ));
        }
    }
    Ok(())
}
