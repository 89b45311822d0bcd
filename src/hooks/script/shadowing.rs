//! A script function named like an API function: Rhai calls the script's
//! own function first, so `fn turn()` would silently replace the API's
//! `turn()` for every call in the script. The same name and arity is an
//! error at load; a name one edit away is a lint warning.

use std::path::Path;

use rhai::{AST, Engine};

use super::tier::natives::Natives;
use crate::error::{Error, ErrorKind, Pos};

/// The API's function names (what the engine registers in its own
/// namespace: the API, and `print`), sorted.
pub(crate) fn api_names(engine: &Engine) -> Vec<String> {
    let mut names: Vec<String> = engine
        .gen_fn_signatures(false)
        .iter()
        .filter_map(|s| s.split('(').next())
        .filter(|n| !n.contains('$'))
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Every function of `one` (compiled from `file`, text `src`) that takes
/// an API function's name and arity, as an error at its name.
pub(crate) fn shadowing(one: &AST, file: &Path, src: &str, natives: &Natives) -> Vec<Error> {
    let defined: Vec<&str> = one.iter_functions().map(|f| f.name).collect();
    one.iter_functions()
        .filter(|f| natives.find(f.name, f.params.len()).is_some())
        .map(|f| {
            let name = f.name;
            let arity = f.params.len();
            let suggestion = suggest(name, &defined);
            let args = vec!["_"; arity].join(", ");
            Error::new(
                ErrorKind::Script,
                format!(
                    "function `{name}({args})` has the name and arity of the API function `{name}({args})`: every call `{name}({args})` in the script would run this function instead of the API's"
                ),
            )
            .at(position(file, src, name, arity))
            .note(format!(
                "rename it (`fn {suggestion}`, say), and if the game file names it as a hook (`hook: {name}`), give the hook the new name there too"
            ))
        })
        .collect()
}

/// Script functions whose name is one edit from an API function's (a
/// typo away from calling the other one): lint warnings.
pub(crate) fn near_api(
    ast: &AST,
    files: &[std::path::PathBuf],
    texts: &[String],
    api: &[String],
) -> Vec<Error> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for f in ast.iter_functions() {
        let name = f.name;
        if name.starts_with("anon$") || !seen.insert(name.to_string()) {
            continue;
        }
        let Some(near) = api
            .iter()
            .find(|a| a.as_str() != name && strsim::levenshtein(a, name) == 1)
        else {
            continue;
        };
        let at = files
            .iter()
            .zip(texts)
            .rev()
            .find_map(|(file, src)| position(file, src, name, f.params.len()));
        out.push(
            Error::new(
                ErrorKind::Lint,
                format!(
                    "function `{name}` is one letter from the API function `{near}`: a call to one written as the other is not an error; a name further from it is safer"
                ),
            )
            .at(at),
        );
    }
    out
}

/// A name for the function that no API function or script function has.
fn suggest(name: &str, defined: &[&str]) -> String {
    let base = format!("play_{name}");
    let mut candidate = base.clone();
    let mut n = 2;
    while defined.contains(&candidate.as_str()) {
        candidate = format!("{base}{n}");
        n += 1;
    }
    candidate
}

/// Where `fn name(` with `arity` parameters is written in `src`, at the
/// name (the first such definition).
pub(crate) fn position(file: &Path, src: &str, name: &str, arity: usize) -> Option<Pos> {
    let needle = format!("fn {name}(");
    let mut offset = 0;
    while let Some(i) = src[offset..].find(&needle) {
        let at = offset + i;
        offset = at + needle.len();
        // At a line's start (or after `private`): not in a comment or
        // a text.
        let line_start = src[..at].rfind('\n').map_or(0, |j| j + 1);
        let before = src[line_start..at].trim();
        if !before.is_empty() && before != "private" {
            continue;
        }
        let params = src[offset..].split(')').next().unwrap_or("");
        let n = params.split(',').filter(|p| !p.trim().is_empty()).count();
        if n != arity {
            continue;
        }
        let line = src[..at].matches('\n').count();
        let col = src[line_start..at].chars().count() + 4;
        return Pos::new(file, line as u64 + 1, col as u64);
    }
    None
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn position_is_at_the_name_of_the_definition_with_that_arity() {
        let src = "// fn turn(\nfn turn(a, b) {}\n  fn turn() { 1 }\n";
        let p = position(Path::new("x.rhai"), src, "turn", 0).expect("found");
        assert_eq!((p.line, p.col), (3, 6));
        let p = position(Path::new("x.rhai"), src, "turn", 2).expect("found");
        assert_eq!((p.line, p.col), (2, 4));
        assert!(position(Path::new("x.rhai"), src, "turn", 1).is_none());
    }

    #[test]
    fn a_suggestion_is_a_name_the_script_does_not_use() {
        assert_eq!(suggest("turn", &["turn"]), "play_turn");
        assert_eq!(suggest("turn", &["turn", "play_turn"]), "play_turn2");
    }
}
