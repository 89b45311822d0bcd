//! A script's runtime error in the designer's words: what went wrong,
//! where (file:line:column, or the function that was running), and the
//! functions it was called through.

use rhai::{AST, EvalAltResult};

use super::{
    MAX_ARRAY, MAX_HOOK_BYTES, MAX_MAP, MAX_OPERATIONS, MAX_STRING, RhaiHooks, budget, fn_position,
    texts,
};
use crate::error::{Error, ErrorKind, Pos};

impl RhaiHooks {
    /// Where `fn name(` is written.
    pub(super) fn definition(&self, name: &str) -> Option<Pos> {
        fn_position(&self.files, &texts(&self.files), name)
    }

    pub(super) fn runtime_error(&self, hook: &str, err: EvalAltResult) -> Error {
        // The innermost error says what went wrong and where.
        let mut chain = vec![];
        let mut e = &err;
        while let EvalAltResult::ErrorInFunctionCall(name, _, inner, _) = e {
            chain.push(name.clone());
            e = inner;
        }
        let p = e.position();
        let message = match e {
            EvalAltResult::ErrorRuntime(v, _) => v.to_string(),
            // Rhai lists its internal argument types; say it in ours.
            EvalAltResult::ErrorFunctionNotFound(sig, _) => {
                let (name, args) = sig.split_once(" (").unwrap_or((sig, ""));
                let n = if args.trim_end_matches(')').trim().is_empty() {
                    0
                } else {
                    args.matches(',').count() + 1
                };
                format!(
                    "no function `{name}` that takes {n} argument(s) (misspelt, or not defined?)"
                )
            }
            EvalAltResult::ErrorTooManyOperations(_) => format!(
                "the script ran more than {MAX_OPERATIONS} operations in one call (an endless loop?)"
            ),
            EvalAltResult::ErrorTerminated(t, _) if t.to_string() == budget::OPERATIONS => format!(
                "the script ran more than {MAX_OPERATIONS} operations in one call, counting {} charged for the values the game's helpers built or looked at and for functions called back (by `map`, `filter`, `sort_by`...) (an endless loop, or a helper such as `cells()` called in a loop?)",
                budget::charged()
            ),
            EvalAltResult::ErrorTerminated(t, _) if t.to_string() == budget::PRINTING => {
                budget::print_spent()
            }
            EvalAltResult::ErrorDataTooLarge(what, _) => data_too_large(what),
            EvalAltResult::ErrorTerminated(..) => format!(
                "the script took more than {} MiB of memory in one call (a list or map that grows without end?)",
                MAX_HOOK_BYTES >> 20
            ),
            other => other.to_string(),
        };
        let message = message
            .split(" (line ")
            .next()
            .unwrap_or(&message)
            .to_string();
        let mut error = Error::new(ErrorKind::Runtime, format!("in hook `{hook}`: {message}"));
        if let Some(file) = self.files.first()
            && !p.is_none()
        {
            error = error.at(Pos::new(
                file,
                p.line().unwrap_or(0) as u64,
                p.position().unwrap_or(1) as u64,
            ));
        } else {
            // Rhai gives no position for some errors (the operation limit):
            // point at the function that was running.
            let running = chain.last().map_or(hook, |f| f.as_str());
            if let Some(at) = self.definition(running) {
                error = error
                    .at(Some(at))
                    .note(format!("(somewhere in `{running}`, which starts here)"));
            }
        }
        let stopped = matches!(e, EvalAltResult::ErrorTooManyOperations(_))
            || matches!(e, EvalAltResult::ErrorTerminated(t, _) if t.to_string() == budget::OPERATIONS);
        if stopped && budget::printed_bytes() > 0 {
            error = error.note(format!(
                "it printed {} KiB before it was stopped (print output is shown up to {} MiB a run of tabula): a `print` in a loop that does not end?",
                budget::printed_bytes() >> 10,
                super::MAX_PRINT_BYTES >> 20
            ));
        }
        if chain.len() > 1 {
            error = error.note(format!("called through: {}", chain.join(" -> ")));
        }
        if let EvalAltResult::ErrorVariableNotFound(name, _) = e
            && top_level(&self.ast, name)
        {
            error = error.note(format!(
                "`{name}` is set at the top level of the script, which a function does not see (and which does not run): pass it as an argument, or make it a function, `fn {name}() {{ ... }}`, and call `{name}()`"
            ));
        }
        error
    }
}

/// Rhai's size limits in the designer's words (`what` is Rhai's name of
/// the limit).
fn data_too_large(what: &str) -> String {
    let said = if what.starts_with("Length of string") {
        format!("a text would pass {} KiB", MAX_STRING >> 10)
    } else if what.starts_with("Size of array") {
        format!(
            "a list would pass {} items (counting the items of lists inside it)",
            budget::thousands(MAX_ARRAY as u64)
        )
    } else if what.starts_with("Size of object map") {
        format!(
            "a map would pass {} entries (counting those of maps inside it)",
            budget::thousands(MAX_MAP as u64)
        )
    } else {
        format!("{what} is too large")
    };
    format!("{said}, the most a script value may hold")
}

/// Whether the script's top level declares `name` (`const` or `let`).
fn top_level(ast: &AST, name: &str) -> bool {
    ast.statements()
        .iter()
        .any(|s| matches!(s, rhai::Stmt::Var(v, ..) if v.0.name == name))
}
