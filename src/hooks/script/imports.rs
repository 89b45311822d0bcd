//! `import` in a game's scripts: only files of the scripts folder, each
//! read once (by the one reader, within its cap) when the game loads and
//! kept for as long as it is loaded, so that every thread and every call
//! runs the text the load checked.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rhai::{AST, Engine, EvalAltResult, Module, Scope, Shared};
use rustc_hash::FxHashMap;

use crate::error::{Error, ErrorKind, Pos};

type Fails<T> = std::result::Result<T, Box<EvalAltResult>>;

/// The modules of one script, by import path: their compiled text (which
/// the main script's self-contained compile walks for the imports inside
/// their functions) and the modules they make. Shared by every thread's
/// engine.
#[derive(Default)]
pub(super) struct Modules {
    asts: Mutex<FxHashMap<String, AST>>,
    made: Mutex<FxHashMap<String, Shared<Module>>>,
}

/// `import` resolves only to files in the scripts folder: a name, no path
/// that climbs out of it or starts elsewhere, and no link that leads out of
/// it; a module that imports itself (through others or not) is an error,
/// not an endless recursion.
pub(super) struct ScriptsOnly {
    dir: PathBuf,
    modules: Arc<Modules>,
}

thread_local! {
    /// The modules being imported on this thread, outermost first.
    static IMPORTING: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// A refusal Rhai passes on with its reason (not `ErrorModuleNotFound`,
/// which Rhai replaces by a bare "Module not found").
fn refuse(why: String, pos: rhai::Position) -> Box<EvalAltResult> {
    Box::new(EvalAltResult::ErrorRuntime(why.into(), pos))
}

impl ScriptsOnly {
    pub(super) fn new(dir: &Path, modules: Arc<Modules>) -> ScriptsOnly {
        ScriptsOnly {
            dir: dir.to_path_buf(),
            modules,
        }
    }

    /// The file `path` names, if it may be imported.
    fn file(&self, path: &str, pos: rhai::Position) -> Fails<PathBuf> {
        let p = Path::new(path);
        let outside = p.is_absolute()
            || p.components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)));
        if outside {
            return Err(refuse(
                format!("import `{path}`: imports come from the scripts folder only"),
                pos,
            ));
        }
        // A link inside the folder may lead out of it: compare real paths.
        let file = self.dir.join(format!("{path}.rhai"));
        if let (Ok(real), Ok(dir)) = (file.canonicalize(), self.dir.canonicalize())
            && !real.starts_with(&dir)
        {
            return Err(refuse(
                format!(
                    "import `{path}`: a link to {}, outside the scripts folder",
                    crate::error::path_text(&real)
                ),
                pos,
            ));
        }
        // Said in a script's terms before the one reader (which refuses a
        // FIFO or a device at once, and a file past its cap) reads it.
        match std::fs::metadata(&file) {
            Ok(m) if !m.is_file() => {
                let what = crate::files::kind(m.file_type());
                Err(refuse(
                    format!("import `{path}`: {what}, not a script file"),
                    pos,
                ))
            }
            Ok(_) => Ok(file),
            Err(_) => Err(refuse(
                format!("import `{path}`: no script {path}.rhai in the scripts folder"),
                pos,
            )),
        }
    }

    /// The compiled text of module `path`, read the first time only.
    fn ast(&self, engine: &Engine, path: &str, pos: rhai::Position) -> Fails<AST> {
        if let Some(ast) = lock(&self.modules.asts).get(path) {
            return Ok(ast.clone());
        }
        let file = self.file(path, pos)?;
        let src = crate::files::read_text(&file)
            .map_err(|e| refuse(format!("import `{path}`: {e}"), pos))?;
        let mut ast = engine.compile(&src).map_err(|e| {
            let p = e.position();
            refuse(
                format!(
                    "import `{path}`: {}:{}:{}: {}",
                    crate::error::path_text(&file),
                    p.line().unwrap_or(0),
                    p.position().unwrap_or(1),
                    e.err_type()
                ),
                pos,
            )
        })?;
        ast.set_source(path);
        lock(&self.modules.asts).insert(path.to_string(), ast.clone());
        Ok(ast)
    }
}

/// A lock whose holder cannot leave it broken: the maps only grow.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl rhai::ModuleResolver for ScriptsOnly {
    fn resolve(
        &self,
        engine: &Engine,
        _source: Option<&str>,
        path: &str,
        pos: rhai::Position,
    ) -> Fails<Shared<Module>> {
        if let Some(m) = lock(&self.modules.made).get(path) {
            return Ok(m.clone());
        }
        let cycle = IMPORTING.with(|i| {
            let mut i = i.borrow_mut();
            let seen = i.iter().any(|m| m == path);
            let chain = format!("{} -> {path}", i.join(" -> "));
            i.push(path.to_string());
            seen.then_some(chain)
        });
        let result = match cycle {
            Some(chain) => Err(refuse(
                format!("import `{path}`: an import cycle: {chain}"),
                pos,
            )),
            None => self.ast(engine, path, pos).and_then(|ast| {
                // An import that fails inside the module is said as the
                // chain of imports that led to it.
                Module::eval_ast_as_new(Scope::new(), &ast, engine).map_err(|e| {
                    let inner = reason(&e);
                    if inner.starts_with("import `") && !inner.contains("an import cycle") {
                        refuse(format!("import `{path}`: {inner}"), pos)
                    } else {
                        refuse(inner, pos)
                    }
                })
            }),
        };
        IMPORTING.with(|i| i.borrow_mut().pop());
        let module: Shared<Module> = result?.into();
        lock(&self.modules.made).insert(path.to_string(), module.clone());
        Ok(module)
    }

    /// The module's text, so that a self-contained compile finds the
    /// imports inside its functions too (and carries them).
    fn resolve_ast(
        &self,
        engine: &Engine,
        _source: Option<&str>,
        path: &str,
        pos: rhai::Position,
    ) -> Option<Fails<AST>> {
        Some(self.ast(engine, path, pos))
    }
}

/// What went wrong, in the refusal's own words where it is one of ours.
fn reason(e: &EvalAltResult) -> String {
    match e {
        EvalAltResult::ErrorRuntime(why, _) => why.to_string(),
        other => other.to_string(),
    }
}

/// An import that failed while the script was read, at the line of the
/// import it came from (Rhai gives none): the first import named in the
/// message's chain.
pub(super) fn error(file: &Path, src: &str, e: &EvalAltResult) -> Error {
    let message = reason(e);
    let path = message
        .strip_prefix("import `")
        .and_then(|m| m.split('`').next())
        .unwrap_or_default();
    let needle = format!("\"{path}\"");
    let at = (src.lines().enumerate())
        .find_map(|(i, l)| Some((i, l.find("import")?)).filter(|_| l.contains(&needle)))
        .map_or((1, 1), |(i, col)| (i + 1, col + 1));
    Error::new(ErrorKind::Script, message).at(Pos::new(file, at.0 as u64, at.1 as u64))
}
