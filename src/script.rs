//! The Rhai side: one sandboxed engine per game, the compiled script, and how
//! a hook is called. The state stays in Rust: while a hook runs it is parked in
//! a thread-local `Ctx` that the registered API functions (api/*.rs) reach.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use rhai::{
    AST, CallFnOptions, Dynamic, Engine, EvalAltResult, FuncArgs, OptimizationLevel, Scope,
};

use crate::error::{Error, ErrorKind, Pos, Result};
use crate::game::Def;
use crate::memo::{self, Op, Read, Val, Write};
use crate::state::{Event, State};

/// Sandbox limits, set explicitly (Rhai's defaults differ between debug and
/// release builds).
pub const MAX_OPERATIONS: u64 = 2_000_000;
pub const MAX_CALL_LEVELS: usize = 48;
pub const MAX_STRING: usize = 64 * 1024;
pub const MAX_ARRAY: usize = 10_000;
pub const MAX_MAP: usize = 10_000;

pub struct Script {
    pub(crate) engine: Engine,
    pub(crate) ast: AST,
    /// The script files, main first, for error positions.
    pub files: Vec<PathBuf>,
}

/// What a running hook can reach.
pub(crate) struct Ctx {
    pub def: Rc<Def>,
    pub state: State,
    pub events: Vec<Event>,
    /// The reads and writes of this run, when it is being recorded.
    pub trace: Option<Vec<Op>>,
}

impl Ctx {
    /// Read the state (recorded for the memo).
    pub fn read(&mut self, key: Read) -> Val {
        let v = memo::read(&mut self.state, &key);
        if let Some(t) = &mut self.trace {
            t.push(Op::Read(key, v.clone()));
        }
        v
    }

    pub fn read_int(&mut self, key: Read) -> i64 {
        match self.read(key) {
            Val::Int(i) => i,
            Val::Cards(c) => c.len() as i64,
        }
    }

    /// Change the state (recorded for the memo).
    pub fn write(&mut self, w: Write) -> Fallible<()> {
        if memo::write(&mut self.state, &w).is_none() {
            return Err(format!("cannot apply {w:?}").into());
        }
        if let Some(t) = &mut self.trace {
            t.push(Op::Write(w));
        }
        Ok(())
    }

    /// The run drew from the RNG: it cannot be replayed from a record.
    pub fn impure(&mut self) {
        self.trace = None;
    }
}

thread_local! {
    static CTX: RefCell<Option<Ctx>> = const { RefCell::new(None) };
}

pub(crate) type Fallible<T> = std::result::Result<T, Box<EvalAltResult>>;

/// Run `f` on the state of the hook that is running on this thread.
pub(crate) fn with_ctx<T>(f: impl FnOnce(&mut Ctx) -> Fallible<T>) -> Fallible<T> {
    CTX.with(|c| match c.borrow_mut().as_mut() {
        Some(cx) => f(cx),
        None => Err("this function can only be called while the game runs a hook".into()),
    })
}

pub fn new_engine(scripts_dir: &Path) -> Engine {
    let mut engine = Engine::new();
    engine.set_optimization_level(OptimizationLevel::Simple);
    engine.set_max_operations(MAX_OPERATIONS);
    engine.set_max_call_levels(MAX_CALL_LEVELS);
    engine.set_max_expr_depths(64, 32);
    engine.set_max_string_size(MAX_STRING);
    engine.set_max_array_size(MAX_ARRAY);
    engine.set_max_map_size(MAX_MAP);
    engine.disable_symbol("eval");
    engine.set_module_resolver(ScriptsOnly(
        rhai::module_resolvers::FileModuleResolver::new_with_path(scripts_dir),
    ));
    engine.on_print(|s| eprintln!("[script] {s}"));
    engine.on_debug(|s, _, pos| eprintln!("[script debug {pos}] {s}"));
    crate::api::register(&mut engine);
    engine
}

/// `import` resolves only to files in the scripts folder: a name, no path
/// that climbs out of it or starts elsewhere.
struct ScriptsOnly(rhai::module_resolvers::FileModuleResolver);

impl rhai::ModuleResolver for ScriptsOnly {
    fn resolve(
        &self,
        engine: &Engine,
        source: Option<&str>,
        path: &str,
        pos: rhai::Position,
    ) -> std::result::Result<rhai::Shared<rhai::Module>, Box<EvalAltResult>> {
        let p = Path::new(path);
        let outside = p.is_absolute()
            || p.components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)));
        if outside {
            return Err(Box::new(EvalAltResult::ErrorModuleNotFound(
                format!("{path} (imports come from the scripts folder only)"),
                pos,
            )));
        }
        self.0.resolve(engine, source, path, pos)
    }
}

impl Script {
    /// Compile the main script and any extra ones (a variant's), later files'
    /// functions replacing earlier ones of the same name and arity.
    pub fn compile(files: &[PathBuf]) -> Result<Script> {
        let dir = files
            .first()
            .and_then(|f| f.parent())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        let engine = new_engine(&dir);
        let mut ast = AST::empty();
        for file in files {
            let src = std::fs::read_to_string(file).map_err(|e| Error::io(file, e))?;
            let one = engine.compile(&src).map_err(|e| {
                let p = e.position();
                Error::new(ErrorKind::Script, e.err_type().to_string()).at(Pos::new(
                    file,
                    p.line().unwrap_or(0) as u64,
                    p.position().unwrap_or(1) as u64,
                ))
            })?;
            ast = ast.merge(&one);
        }
        Ok(Script {
            engine,
            ast,
            files: files.to_vec(),
        })
    }

    /// Whether the script defines `name` with `arity` parameters.
    pub fn has_fn(&self, name: &str, arity: usize) -> bool {
        self.ast
            .iter_functions()
            .any(|f| f.name == name && f.params.len() == arity)
    }

    /// Call `hook` with the state parked where the API can reach it. The state
    /// comes back whatever happens; on error the caller drops it. With
    /// `record`, also the run's reads and writes (None if it used the RNG).
    pub(crate) fn call(
        &self,
        def: &Rc<Def>,
        state: State,
        events: &mut Vec<Event>,
        hook: &str,
        args: impl FuncArgs,
        record: bool,
    ) -> (State, Result<Dynamic>, Option<Vec<Op>>) {
        CTX.with(|c| {
            *c.borrow_mut() = Some(Ctx {
                def: def.clone(),
                state,
                events: std::mem::take(events),
                trace: record.then(Vec::new),
            })
        });
        let mut scope = Scope::new();
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        let result = self
            .engine
            .call_fn_with_options::<Dynamic>(options, &mut scope, &self.ast, hook, args);
        let cx = CTX.with(|c| c.borrow_mut().take());
        // The context was put there above and nothing else takes it.
        let Some(cx) = cx else {
            unreachable!("hook context vanished")
        };
        *events = cx.events;
        (
            cx.state,
            result.map_err(|e| self.runtime_error(hook, *e)),
            cx.trace,
        )
    }

    fn runtime_error(&self, hook: &str, err: EvalAltResult) -> Error {
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
            EvalAltResult::ErrorTooManyOperations(_) => format!(
                "the script ran more than {MAX_OPERATIONS} operations in one call (an endless loop?)"
            ),
            other => other.to_string(),
        };
        let message = message
            .split(" (line ")
            .next()
            .unwrap_or(&message)
            .to_string();
        let mut error = Error::new(ErrorKind::Runtime, format!("in hook `{hook}`: {message}"));
        if let Some(file) = self.files.first() {
            error = error.at(Pos::new(
                file,
                p.line().unwrap_or(0) as u64,
                p.position().unwrap_or(1) as u64,
            ));
        }
        if chain.len() > 1 {
            error = error.note(format!("called through: {}", chain.join(" -> ")));
        }
        error
    }
}
