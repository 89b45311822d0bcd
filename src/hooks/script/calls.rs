//! What a script calls, read off its syntax trees when it is compiled, and
//! checked against what exists without a playout having to reach it: a
//! function neither the script nor the API defines (`add_stats`, with the
//! nearest name), a script function called with the wrong number of
//! arguments, and `attr(card, "mood")` where no card has the attribute.

use std::path::{Path, PathBuf};

use rhai::{AST, ASTNode, Engine, Expr};

use crate::definition::Def;
use crate::error::{Error, ErrorKind, Pos, did_you_mean};

/// One call written in a script.
#[derive(Debug, Clone)]
pub struct Call {
    pub name: String,
    /// Arguments, the object of a method call included.
    pub args: usize,
    pub method: bool,
    /// `attr(.., "key")`: the key, when written as text.
    pub attr: Option<String>,
    pub file: PathBuf,
    pub line: u64,
    pub col: u64,
}

/// The calls written in one file's tree (function bodies included);
/// calls into modules (`m::f`) and operators are left out.
pub fn calls(ast: &AST, file: &Path) -> Vec<Call> {
    let mut out = Vec::new();
    // Names that hold values: a call by one of them may be a function
    // pointer's (`f(x)` with `let f = Fn("g")`), which is not checked.
    let mut vars: std::collections::HashSet<String> = ast
        .iter_functions()
        .flat_map(|f| f.params.into_iter().map(str::to_string))
        .collect();
    ast.walk(&mut |path: &[ASTNode]| {
        match path.last() {
            Some(ASTNode::Expr(Expr::Variable(v, ..))) => {
                vars.insert(v.1.to_string());
            }
            Some(ASTNode::Stmt(rhai::Stmt::Var(v, ..))) => {
                vars.insert(v.0.name.to_string());
            }
            _ => {}
        }
        true
    });
    ast.walk(&mut |path: &[ASTNode]| {
        let (f, pos, method) = match path.last() {
            Some(ASTNode::Expr(Expr::FnCall(f, pos))) => (f, *pos, false),
            Some(ASTNode::Expr(Expr::MethodCall(f, pos))) => (f, *pos, true),
            // A call on its own as a statement.
            Some(ASTNode::Stmt(rhai::Stmt::FnCall(f, pos))) => (f, *pos, false),
            _ => return true,
        };
        let name = f.name.as_str();
        let ident = name
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_');
        if !f.namespace.is_empty()
            || f.op_token.is_some()
            || !ident
            || name.starts_with("anon$")
            || (!method && vars.contains(name))
        {
            return true;
        }
        let attr = match (name, f.args.as_slice()) {
            ("attr", [_, Expr::StringConstant(k, _)]) if !method => Some(k.to_string()),
            _ => None,
        };
        out.push(Call {
            name: name.to_string(),
            args: f.args.len() + usize::from(method),
            method,
            attr,
            file: file.to_path_buf(),
            line: pos.line().unwrap_or(0) as u64,
            col: pos.position().unwrap_or(1) as u64,
        });
        true
    });
    out
}

/// Names Rhai's parser treats as calls that no package registers.
const KEYWORDS: [&str; 10] = [
    "Fn",
    "call",
    "curry",
    "type_of",
    "print",
    "debug",
    "is_def_var",
    "is_def_fn",
    "is_shared",
    "eval",
];

/// The API's and Rhai's functions by name, each with the argument counts
/// it takes (from the engine's own signatures: `name(a: T, b: U) -> R`).
fn registered(engine: &Engine) -> Vec<(String, usize)> {
    engine
        .gen_fn_signatures(true)
        .iter()
        .filter_map(|s| {
            let (name, rest) = s.split_once('(')?;
            // Up to the `)` that closes the list (a return type has its own).
            let (mut depth, mut n, mut any) = (0i32, 0, false);
            for ch in rest.chars() {
                match ch {
                    '(' | '<' | '[' => depth += 1,
                    ')' if depth == 0 => break,
                    ')' | '>' | ']' => depth -= 1,
                    ',' if depth == 0 => n += 1,
                    c if !c.is_whitespace() => any = true,
                    _ => {}
                }
            }
            let n = if any { n + 1 } else { 0 };
            let name = name.rsplit(' ').next().unwrap_or(name);
            Some((
                name.trim_start_matches("get$")
                    .trim_start_matches("set$")
                    .to_string(),
                n,
            ))
        })
        .collect()
}

/// The problems among `calls`: each a warning at the call (a branch no
/// game takes may hold a mistake that never runs, so none stops a load).
pub fn check(calls: &[Call], script: &AST, engine: &Engine, def: &Def) -> Vec<Error> {
    let own: Vec<(String, usize)> = script
        .iter_functions()
        .filter(|f| !f.name.starts_with("anon$"))
        .map(|f| (f.name.to_string(), f.params.len()))
        .collect();
    let api = registered(engine);
    let mut attrs: Vec<&str> = def
        .cards
        .iter()
        .flat_map(|c| c.attrs.iter().map(|(k, _)| k.as_str()))
        .collect();
    attrs.sort_unstable();
    attrs.dedup();
    let mut out = Vec::new();
    let at = |c: &Call| Pos::new(&c.file, c.line, c.col);
    for c in calls {
        let known = |list: &[(String, usize)]| list.iter().any(|(n, _)| *n == c.name);
        let fits =
            |list: &[(String, usize)]| list.iter().any(|(n, a)| *n == c.name && *a == c.args);
        if KEYWORDS.contains(&c.name.as_str()) || fits(&own) || fits(&api) {
            if let Some(k) = &c.attr
                && !attrs.contains(&k.as_str())
            {
                let mut e = Error::new(
                    ErrorKind::Lint,
                    format!(
                        "no card has an attribute `{k}`, so `attr(.., \"{k}\")` is always `()` (the cards' attributes: {})",
                        if attrs.is_empty() { "none".to_string() } else { attrs.join(", ") }
                    ),
                )
                .at(at(c));
                if let Some(h) = did_you_mean(k, attrs.iter().copied()) {
                    e = e.note(h);
                }
                out.push(e);
            }
            continue;
        }
        let message = if known(&own) || known(&api) {
            let takes: Vec<String> = own
                .iter()
                .chain(&api)
                .filter(|(n, _)| *n == c.name)
                .map(|(_, a)| a.to_string())
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            format!(
                "`{}` is called with {} argument(s){}; it takes {}",
                c.name,
                c.args,
                if c.method {
                    " (the object before the dot counts)"
                } else {
                    ""
                },
                takes.join(" or ")
            )
        } else {
            format!(
                "no function `{}` in the script or the API (misspelt, or not defined?)",
                c.name
            )
        };
        let mut e = Error::new(ErrorKind::Lint, message).at(at(c));
        if !known(&own) && !known(&api) {
            let names = own.iter().chain(&api).map(|(n, _)| n.as_str());
            if let Some(h) = did_you_mean(&c.name, names) {
                e = e.note(h);
            }
        }
        out.push(e);
    }
    out
}
