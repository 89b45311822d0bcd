//! The Rhai implementation of `Hooks`: the script compiled once, one
//! sandboxed engine per thread, and how a hook is called. The state stays in
//! Rust: while a hook runs it is parked in a thread-local `Ctx` that the
//! registered API functions (api/*.rs) reach; they read and change it only
//! through the core's operations, so a run can be traced.

mod api;
mod braces;
pub(crate) mod budget;
mod calls;
#[cfg(feature = "jit")]
mod check_native;
mod compile;
mod ctx;
mod errors;
mod imports;
mod interned;
mod observes;
mod shadowing;
mod tier;
mod value;

pub(crate) use api::flow::log_line;
pub use compile::Compile;
pub(crate) use ctx::Ctx;
pub use tier::Fallback;
pub use tier::vm::rhai_forms;
#[cfg(feature = "jit")]
pub use tier::vm::{
    exact_native_calls, frame_arg_reads, framed_native_calls, general_api_calls, held_ops,
    native_calls, pushed_api_calls, regs_api_calls, template_calls, vm_compares,
};

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rhai::{
    AST, CallFnOptions, Dynamic, Engine, EvalAltResult, ImmutableString, OptimizationLevel, Scope,
};
use thread_local::ThreadLocal;

use crate::core::ops::Op;
use crate::core::{Call, Event, Hooks, State, Traceable};
use crate::definition::{Def, ScriptRef};
use crate::error::{Error, ErrorKind, Pos, Result};

/// Sandbox limits, set explicitly (Rhai's defaults differ between debug and
/// release builds).
pub const MAX_OPERATIONS: u64 = 2_000_000;
pub const MAX_CALL_LEVELS: usize = 48;
pub const MAX_STRING: usize = 64 * 1024;
pub const MAX_ARRAY: usize = 10_000;
pub const MAX_MAP: usize = 10_000;
/// Memory one hook run may take (what it allocates less what it frees):
/// the limits above leave map keys and the sum over many values uncapped.
pub const MAX_HOOK_BYTES: i64 = 64 << 20;

thread_local! {
    /// `memory::thread_bytes` when this thread's running hook began (None
    /// while no hook runs: a module run as a game loads is not held to it).
    static HOOK_FLOOR: std::cell::Cell<Option<i64>> = const { std::cell::Cell::new(None) };
    /// The operations the last Rhai run on this thread had counted, as
    /// its progress callback last saw them.
    static LAST_OPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Where this thread's running hook's memory began (None: no hook runs).
pub(crate) fn hook_floor() -> Option<i64> {
    HOOK_FLOOR.with(std::cell::Cell::get)
}

/// A game's hooks as a Rhai script: `Send + Sync`; the compiled script is
/// shared, each thread that runs a hook gets its own engine (one engine
/// shared by threads would serialise on its string interner).
pub struct RhaiHooks {
    def: Arc<Def>,
    ast: Arc<AST>,
    keys: Arc<Keys>,
    engines: ThreadLocal<Engine>,
    /// The compiled functions, if compiling.
    tier: Option<Arc<tier::Tier>>,
    check: bool,
    /// `Compile::CheckJit`: native code checked against the VM too.
    #[cfg(feature = "jit")]
    check_native: bool,
    /// The scripts folder: imports resolve only inside it.
    dir: PathBuf,
    /// The script files, main first, for error positions.
    pub files: Vec<PathBuf>,
    /// The modules imported, for each thread's engine.
    modules: Arc<imports::Modules>,
}

/// A compiled script: the main file, then any a variant adds (later
/// files' functions replace earlier ones of the same name and arity).
pub struct Script {
    engine: Engine,
    ast: AST,
    dir: PathBuf,
    files: Vec<PathBuf>,
    /// The modules it imports, read once.
    modules: Arc<imports::Modules>,
    natives: Arc<tier::natives::Natives>,
}

impl Script {
    pub fn compile(files: &[PathBuf]) -> Result<Script> {
        let dir = files
            .first()
            .and_then(|f| f.parent())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        let modules = Arc::new(imports::Modules::default());
        let (engine, natives) = new_engine(&dir, &modules);
        let mut ast = AST::empty();
        let mut shadowed = Vec::new();
        for file in files {
            let src = crate::files::read_text(file).map_err(|e| Error::io(file, e))?;
            // Imports are read now, once, and carried in the script: every
            // thread and every later call runs the text read here.
            let one = engine.compile_into_self_contained(&Scope::new(), &src);
            let one = match one {
                Ok(ast) => Ok(ast),
                Err(e) => match *e {
                    EvalAltResult::ErrorParsing(kind, pos) => {
                        Err(rhai::ParseError(kind.into(), pos))
                    }
                    other => return Err(imports::error(file, &src, &other)),
                },
            };
            let one = one.map_err(|e| {
                let p = e.position();
                let message = e.err_type().to_string();
                let reserved = message.contains("is a reserved keyword")
                    || message.contains("is a reserved symbol");
                let error = Error::new(ErrorKind::Script, message).at(Pos::new(
                    file,
                    p.line().unwrap_or(0) as u64,
                    p.position().unwrap_or(1) as u64,
                ));
                let error = match braces::unpaired(&src) {
                    Some((l, c, true)) => {
                        error.note(format!("the `{{` at line {l}, column {c} is never closed"))
                    }
                    Some((l, c, false)) => {
                        error.note(format!("the `}}` at line {l}, column {c} closes nothing"))
                    }
                    None => error,
                };
                if reserved {
                    error.note("Rhai keeps this word for itself: choose another name")
                } else {
                    error
                }
            })?;
            shadowed.extend(shadowing::shadowing(&one, file, &src, &natives));
            ast = ast.merge(&one);
        }
        if !shadowed.is_empty() {
            return Err(Error::collect(shadowed));
        }
        Ok(Script {
            engine,
            ast,
            dir,
            files: files.to_vec(),
            modules,
            natives: Arc::new(natives),
        })
    }

    /// Calls that cannot work, found without a playout: a function that
    /// does not exist, a wrong number of arguments, an attribute no card
    /// of `def` has (warnings: `check` shows them).
    pub fn call_problems(&self, def: &crate::definition::Def) -> Vec<Error> {
        // Each file's tree again, for the file each call is in (the merged
        // tree has lost it): only `check` asks, so a load walks nothing.
        let mut written = Vec::new();
        for file in &self.files {
            let Ok(src) = crate::files::read_text(file) else {
                continue;
            };
            if let Ok(one) = self.engine.compile_into_self_contained(&Scope::new(), &src) {
                written.extend(calls::calls(&one, file));
            }
        }
        calls::check(&written, &self.ast, &self.engine, def)
    }

    /// The functions the compiled tier leaves to Rhai, and why.
    pub fn fallbacks(&self) -> Vec<Fallback> {
        tier::Tier::compile(&self.ast, &self.engine, self.natives.clone()).fallbacks
    }

    /// Whether the script may read the turn number: it calls `turn()`,
    /// names `"turn"` as text (a function pointer's or `call`'s), or
    /// imports a module (not looked into). Read off its syntax, for the
    /// state's key (`Def::reads_turn`).
    pub fn reads_turn(&self) -> bool {
        observes::reads_turn(&self.ast)
    }

    /// Whether the script defines `name` with `arity` parameters.
    pub fn defines(&self, name: &str, arity: usize) -> bool {
        defines(&self.ast, name, arity)
    }

    /// The hooks the game file names that the script lacks, each a problem
    /// at the place that names it.
    pub fn missing_hooks(&self, wanted: &ScriptRef) -> Vec<Error> {
        wanted
            .hooks
            .iter()
            .filter(|h| !self.defines(&h.name, h.arity))
            .map(|h| {
                let what = if h.arity == 0 {
                    "no arguments"
                } else {
                    "one argument"
                };
                Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "the script {} has no function `{}` taking {what}",
                        crate::error::path_text(&self.files[0]),
                        h.name
                    ),
                )
                .at(h.pos.clone())
            })
            .collect()
    }
}

impl Script {
    /// What is likely a mistake though the script runs (`check --lint`):
    /// a function named like a built-in one (`x.push(y)` would call it),
    /// and a function nothing calls, the YAML does not name and no ask
    /// names as its continuation.
    pub fn lint(&self, wanted: &ScriptRef) -> Vec<Error> {
        let builtins: std::collections::HashSet<String> = self
            .engine
            .gen_fn_signatures(true)
            .iter()
            .filter_map(|s| s.split('(').next())
            .map(|n| {
                n.trim_start_matches("get$")
                    .trim_start_matches("set$")
                    .to_string()
            })
            .collect();
        let texts = texts(&self.files);
        let mut out = shadowing::near_api(
            &self.ast,
            &self.files,
            &texts,
            &shadowing::api_names(&self.engine),
        );
        let mut seen = std::collections::HashSet::new();
        for f in self.ast.iter_functions() {
            let name = f.name;
            // Closures (`|x| ...`) compile to anonymous functions.
            if name.starts_with("anon$") || !seen.insert(name.to_string()) {
                continue;
            }
            // At the name, not at `fn`.
            let at = fn_position(&self.files, &texts, name).map(|mut p| {
                p.col += 3;
                p
            });
            if builtins.contains(name) {
                out.push(
                    Error::new(
                        ErrorKind::Lint,
                        format!(
                            "function `{name}` has the name of a built-in function: a call such as `x.{name}(...)` may reach yours instead; rename it"
                        ),
                    )
                    .at(at.clone()),
                );
            }
            let named = wanted.hooks.iter().any(|h| h.name == name);
            let quoted = format!("\"{name}\"");
            let called = texts.iter().any(|t| {
                t.matches(&format!("{name}(")).count() > t.matches(&format!("fn {name}(")).count()
                    || t.contains(&quoted)
            });
            if !named && !called {
                out.push(
                    Error::new(
                        ErrorKind::Lint,
                        format!(
                            "function `{name}` is never called, named as a hook in the game file, or given to an ask"
                        ),
                    )
                    .at(at),
                );
            }
        }
        out
    }
}

/// Where `fn name(` is written (at `fn`): the last file first, since a
/// later file's function replaces an earlier one's.
fn fn_position(files: &[PathBuf], texts: &[String], name: &str) -> Option<Pos> {
    let needle = format!("fn {name}(");
    files.iter().zip(texts).rev().find_map(|(file, src)| {
        src.lines().enumerate().find_map(|(i, line)| {
            let col = line.find(&needle)?;
            Pos::new(file, i as u64 + 1, col as u64 + 1)
        })
    })
}

/// The script files' texts (unreadable ones as empty).
fn texts(files: &[PathBuf]) -> Vec<String> {
    files
        .iter()
        .map(|f| crate::files::read_text(f).unwrap_or_default())
        .collect()
}

fn defines(ast: &AST, name: &str, arity: usize) -> bool {
    ast.iter_functions()
        .any(|f| f.name == name && f.params.len() == arity)
}

/// Player and card ids and grid cell names as Rhai strings, made once.
pub(crate) struct Keys {
    pub players: Vec<ImmutableString>,
    pub cards: Vec<ImmutableString>,
    pub cells: Vec<ImmutableString>,
    /// The grid's column letters.
    pub columns: Vec<ImmutableString>,
}

impl Keys {
    pub(crate) fn of(def: &Def) -> Keys {
        Keys {
            players: def.players.iter().map(|p| p.id.as_str().into()).collect(),
            cards: def.cards.iter().map(|c| c.id.as_str().into()).collect(),
            cells: def
                .grid
                .iter()
                .flat_map(|g| g.names.iter().map(|n| n.as_str().into()))
                .collect(),
            columns: def
                .grid
                .iter()
                .flat_map(|g| {
                    (0..g.columns).map(|c| crate::definition::column_name(c).to_string().into())
                })
                .collect(),
        }
    }
}

/// Log text one hook run may write.
pub const MAX_LOG_BYTES: usize = 1024 * 1024;
/// Text `print` and `debug` may show in one process (`log` has its own
/// budget per hook run, and so do they: `budget::MAX_PRINT_RUN_BYTES`): a
/// script printing in a loop fills no disk.
pub const MAX_PRINT_BYTES: usize = 1024 * 1024;
static PRINTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Where scripts' `print` and `debug` lines go: a line at a time, without
/// its newline. The program owns its output: the `tabula` binary sends
/// them to stderr; a program that embeds the library names its own sink
/// (`set_output`), else they are dropped.
pub type Output = std::sync::Arc<dyn Fn(&str) + Send + Sync>;

static OUTPUT: std::sync::RwLock<Option<Output>> = std::sync::RwLock::new(None);

/// Send scripts' `print` and `debug` lines to `sink` (None: drop them),
/// for every game of the process from now on.
pub fn set_output(sink: Option<Output>) {
    *OUTPUT.write().unwrap_or_else(|e| e.into_inner()) = sink;
}

fn emit(line: &str) {
    let sink = OUTPUT.read().unwrap_or_else(|e| e.into_inner()).clone();
    if let Some(sink) = sink {
        sink(line);
    }
}

/// A `print` or `debug` line to the program's sink, escaped (it may hold
/// a terminal's escape sequences), until the budget is spent; then one
/// note.
fn script_output(head: &str, s: &str) {
    let n = head.len() + s.len() + 2;
    budget::printed(n);
    let before = PRINTED.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
    if before + n <= MAX_PRINT_BYTES {
        emit(&format!("{head} {}", crate::error::printable(s)));
    } else if before <= MAX_PRINT_BYTES {
        emit(&format!(
            "[script] print output cut at {} MiB: the rest of print and debug is not shown",
            MAX_PRINT_BYTES >> 20
        ));
    }
}

/// A hook run's result and, if recorded, its reads and writes.
type Traced = (Result<()>, Option<Vec<Op>>);

/// Options (summed over deciders) one hook run may ask for.
pub const MAX_ASKED_OPTIONS: usize = 100_000;

thread_local! {
    static CTX: RefCell<Option<Ctx>> = const { RefCell::new(None) };
    /// This thread's `CTX` while a run is live, else null: reached in a
    /// typed API call without the look a thread-local with a destructor
    /// takes (`with_live`).
    static LIVE: std::cell::Cell<*const RefCell<Option<Ctx>>> =
        const { std::cell::Cell::new(std::ptr::null()) };
}

pub(crate) type Fallible<T> = std::result::Result<T, Box<EvalAltResult>>;

/// The caller's state while a run holds it (lent to the context, which
/// reaches it through a pointer): given back by `end`, or, should the run
/// panic, as the stack unwinds, so that no later API call on the thread
/// finds a live context pointing at a state that is not its run's. The
/// exclusive borrow is held here (as its lifetime: no reference is kept,
/// so moving the guard leaves the context's pointer valid) for as long as
/// the context may use it.
struct Lent<'s>(std::marker::PhantomData<&'s mut State>);

impl<'s> Lent<'s> {
    /// Lend `state` to this thread's context for a run (`Ctx::begin`), and
    /// set the hook's memory floor.
    fn begin(
        state: &'s mut State,
        def: &Arc<Def>,
        keys: &Arc<Keys>,
        events: Vec<Event>,
        record: bool,
    ) -> Lent<'s> {
        let at: *mut State = state;
        let lent = Lent(std::marker::PhantomData);
        CTX.with(|c| {
            c.borrow_mut()
                .get_or_insert_with(|| Ctx::idle(def.clone(), keys.clone()))
                .begin(def, keys, at, events, record);
            LIVE.set(c);
        });
        HOOK_FLOOR.with(|f| f.set(Some(crate::memory::thread_bytes())));
        lent
    }

    /// The run's end: the state back, its events and trace.
    fn end(self) -> Option<(Vec<Event>, Option<Vec<Op>>)> {
        LIVE.set(std::ptr::null());
        let r = CTX.with(|c| c.borrow_mut().as_mut().filter(|cx| cx.live()).map(Ctx::end));
        HOOK_FLOOR.with(|f| f.set(None));
        // Ended: nothing left for the guard to do.
        std::mem::forget(self);
        r
    }
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        let _ = LIVE.try_with(|l| l.set(std::ptr::null()));
        let _ = CTX.try_with(|c| {
            if let Ok(mut c) = c.try_borrow_mut()
                && let Some(cx) = c.as_mut()
                && cx.live()
            {
                cx.abandon();
            }
        });
        let _ = HOOK_FLOOR.try_with(|f| f.set(None));
    }
}

/// Run `f` on the state of the hook that is running on this thread.
pub(crate) fn with_ctx<T>(f: impl FnOnce(&mut Ctx) -> Fallible<T>) -> Fallible<T> {
    CTX.with(|c| match c.borrow_mut().as_mut() {
        Some(cx) if cx.live() => f(cx),
        _ => Err(NOT_IN_A_HOOK.into()),
    })
}

/// `f` on the running hook's context, for a typed API call from the VM
/// at the count `ops` (where a helper's charge finds it, as `LAST_OPS`):
/// None where no hook runs. Inlined into the call: the API's typed forms
/// are called often, and most do little.
#[inline(always)]
pub(crate) fn with_live<T>(ops: u64, f: impl FnOnce(&mut Ctx) -> T) -> Option<T> {
    LAST_OPS.with(|o| o.set(ops));
    let at = LIVE.get();
    if at.is_null() {
        return None;
    }
    // SAFETY: `LIVE` is set only while a run is live (`Lent::begin` to
    // `Lent::end` or its drop), to this thread's `CTX`, which lives as
    // long as the thread; the borrow is checked as `with_ctx` checks it.
    let c = unsafe { &*at };
    match c.borrow_mut().as_mut() {
        Some(cx) if cx.live() => Some(f(cx)),
        _ => None,
    }
}

/// What an API call made while no hook runs says.
pub(crate) const NOT_IN_A_HOOK: &str =
    "this function can only be called while the game runs a hook";

fn new_engine(
    scripts_dir: &Path,
    modules: &Arc<imports::Modules>,
) -> (Engine, tier::natives::Natives) {
    let mut engine = Engine::new();
    engine.set_optimization_level(OptimizationLevel::Simple);
    engine.set_max_operations(MAX_OPERATIONS);
    engine.set_max_call_levels(MAX_CALL_LEVELS);
    engine.set_max_expr_depths(64, 32);
    engine.set_max_string_size(MAX_STRING);
    engine.set_max_array_size(MAX_ARRAY);
    engine.set_max_map_size(MAX_MAP);
    engine.disable_symbol("eval");
    // Every 256 operations: a run past its budget is stopped within 256
    // operations more (each makes at most a string's cap).
    engine.on_progress(|ops| {
        // A count that goes down: a copy of it (a function called back)
        // was dropped after its last operation, the one seen last. (The
        // same count twice is Rhai making a copy of a copy to call the
        // function: what the compiled tier counts of a call back is the
        // function's own operations.)
        let last = LAST_OPS.with(|o| o.replace(ops));
        if ops < last {
            budget::dropped(last + 1 - ops);
        }
        if ops % 256 != 0 {
            return None;
        }
        // The helpers' charges, a print past its budget, the memory.
        if let Some(token) = budget::check(ops) {
            return Some(Dynamic::from(token));
        }
        let floor = HOOK_FLOOR.with(std::cell::Cell::get)?;
        let used = crate::memory::thread_bytes() - floor;
        (used > MAX_HOOK_BYTES).then(|| Dynamic::from(used))
    });
    engine.set_module_resolver(imports::ScriptsOnly::new(scripts_dir, modules.clone()));
    engine.on_print(|s| script_output("[script]", s));
    // `print` of a text (what nearly every print is) says at its own line
    // that the run printed past its budget (Rhai then hands the text it
    // gives back to `on_print`); other values, and `debug`, are stopped
    // at the next operation.
    engine.register_fn("print", |s: ImmutableString| -> Fallible<ImmutableString> {
        budget::may_print()?;
        Ok(s)
    });
    engine.on_debug(|s, _, pos| script_output(&format!("[script debug {pos}]"), s));
    let mut natives = tier::natives::Natives::default();
    api::register(&mut tier::natives::Api {
        engine: &mut engine,
        natives: &mut natives,
    });
    (engine, natives)
}

impl RhaiHooks {
    /// Hooks running `script` on states of `def`.
    pub fn new(def: Arc<Def>, script: Script, compile: Compile) -> RhaiHooks {
        let keys = Keys::of(&def);
        let tier = match compile {
            Compile::Off => None,
            Compile::Tree | Compile::CheckTree => Some(Arc::new(tier::Tier::compile(
                &script.ast,
                &script.engine,
                script.natives,
            ))),
            Compile::On | Compile::Check | Compile::Jit | Compile::CheckJit => {
                Some(Arc::new(tier::Tier::compile_vm(
                    &script.ast,
                    &script.engine,
                    script.natives,
                    &def,
                    &keys,
                    matches!(compile, Compile::Jit | Compile::CheckJit),
                )))
            }
        };
        let engines = ThreadLocal::new();
        engines.get_or(|| script.engine);
        RhaiHooks {
            def,
            tier,
            #[cfg(feature = "jit")]
            check_native: compile == Compile::CheckJit,
            check: matches!(
                compile,
                Compile::Check | Compile::CheckTree | Compile::CheckJit
            ),
            ast: Arc::new(script.ast),
            keys: Arc::new(keys),
            engines,
            dir: script.dir,
            modules: script.modules,
            files: script.files,
        }
    }

    /// Call the hook with the state parked where the API can reach it; with
    /// `record`, also the run's operations (None if it used the RNG).
    // Out of line: an anchor for where_time_goes.py.
    #[inline(never)]
    fn call(
        &self,
        state: &mut State,
        call: &Call,
        events: &mut Vec<Event>,
        record: bool,
    ) -> (Result<()>, Option<Vec<Op>>) {
        if !self.check {
            return self
                .call_as(state, call, events, record, self.tier.is_some())
                .0;
        }
        // Both ways, from the same state (its RNG included).
        let (mut rhai_state, mut rhai_events) = (state.clone(), events.clone());
        #[cfg(feature = "jit")]
        let vm_copy = self.check_native.then(|| (state.clone(), events.clone()));
        let (rhai, rhai_ops) = self.call_as(&mut rhai_state, call, &mut rhai_events, true, false);
        let (tier, tier_ops) = self.call_as(state, call, events, true, true);
        #[cfg(feature = "jit")]
        if let Some((st, ev)) = vm_copy
            && let Some(e) = self.native_against_vm(st, ev, call, &tier.0)
        {
            return (Err(e), None);
        }
        let differs = |what: &str, a: String, b: String| {
            Error::new(
                ErrorKind::Runtime,
                format!(
                    "the compiled hook `{}` differs from Rhai in its {what}:\n  Rhai:     {a}\n  compiled: {b}",
                    call.hook
                ),
            )
        };
        let text = |r: &Result<()>| match r {
            Ok(()) => "ok".to_string(),
            Err(e) => format!("{e:?}"),
        };
        let found = if text(&rhai.0) != text(&tier.0) {
            Some(differs("result", text(&rhai.0), text(&tier.0)))
        } else if format!("{:?}", rhai.1) != format!("{:?}", tier.1) {
            Some(differs(
                "reads and writes",
                format!("{:?}", rhai.1),
                format!("{:?}", tier.1),
            ))
        } else if rhai_events != *events {
            Some(differs(
                "events",
                format!("{rhai_events:?}"),
                format!("{events:?}"),
            ))
        } else if format!("{rhai_state:?}") != format!("{state:?}") {
            Some(differs(
                "state",
                format!("{rhai_state:?}"),
                format!("{state:?}"),
            ))
        } else if let (Some(a), Some(b)) = (rhai_ops, tier_ops)
            && a != b
        {
            Some(differs("operations", a.to_string(), b.to_string()))
        } else {
            None
        };
        match found {
            Some(e) => (Err(e), None),
            None => (tier.0, if record { tier.1 } else { None }),
        }
    }

    /// `call`, compiled or not; also the operations counted (None where
    /// the count is not comparable: a run in Rhai whose count the
    /// callback saw last, or a compiled run that asked Rhai's help).
    /// Inlined into `call`: what it gives is built where `call` gives it.
    #[inline(always)]
    fn call_as(
        &self,
        state: &mut State,
        call: &Call,
        events: &mut Vec<Event>,
        record: bool,
        compiled: bool,
    ) -> (Traced, Option<u64>) {
        let engine = self
            .engines
            .get_or(|| new_engine(&self.dir, &self.modules).0);
        let lent = Lent::begin(state, &self.def, &self.keys, std::mem::take(events), record);
        budget::begin();
        let (result, ops) = self.invoke(engine, call, compiled);
        // `end` also lifts the hook's memory floor.
        let ended = lent.end();
        // The context was put there above and nothing else takes it.
        let Some((run_events, trace)) = ended else {
            unreachable!("hook context vanished")
        };
        *events = run_events;
        ((result, trace), ops)
    }

    #[inline(always)]
    fn invoke(&self, engine: &Engine, call: &Call, compiled: bool) -> (Result<()>, Option<u64>) {
        let hook = call.hook;
        if let Some(tier) = &self.tier
            && compiled
            && let Some((r, ops)) = tier.call(engine, hook, &call.args, &self.keys)
        {
            return (r.map_err(|e| self.runtime_error(hook, *e)), ops);
        }
        let args = value::hook_args(&self.keys, &call.args);
        let mut scope = Scope::new();
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        LAST_OPS.with(|o| o.set(0));
        budget::set_base(0);
        let r = engine
            .call_fn_with_options::<Dynamic>(options, &mut scope, &self.ast, hook, args)
            .map(|_| ())
            .map_err(|e| self.runtime_error(hook, *e));
        (r, Some(LAST_OPS.with(std::cell::Cell::get)))
    }
}

impl Hooks for RhaiHooks {
    fn run(&self, state: &mut State, call: &Call, events: &mut Vec<Event>) -> Result<()> {
        self.call(state, call, events, false).0
    }

    fn defines(&self, name: &str, arity: usize) -> bool {
        defines(&self.ast, name, arity)
    }
}

impl Traceable for RhaiHooks {
    fn run_traced(
        &self,
        state: &mut State,
        call: &Call,
        events: &mut Vec<Event>,
    ) -> (Result<()>, Option<Vec<Op>>) {
        self.call(state, call, events, true)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_run_given_up_gives_its_state_back_and_closes_the_api() {
        // Any game will do: a pile, a token and a turn that ends the game.
        let (def, mut scripts) = crate::hooks::test_game::load(
            "id: lent\nscript: game.rhai\nplayers: [{id: a, name: A}, {id: b, name: B}]\n\
             cards: {token: {name: Token}}\nzones: {pile: {per: game}}\n\
             setup: [{put: {zone: pile, cards: all}}]\n\
             flow: {turns: rotate, turn: [{hook: play_turn}]}\n",
            "fn play_turn() { end_game(\"\", \"done\"); }\n",
            1,
        );
        let script = scripts.remove(0);
        let rules = crate::hooks::test_game::Game(
            def.clone(),
            RhaiHooks::new(def.clone(), script, Compile::On),
        );
        let keys = rules.1.keys.clone();
        let mut state = State::new_quiet(&rules, 7).unwrap();
        let before = format!("{state:?}");
        let lent = Lent::begin(&mut state, &def, &keys, vec![], true);
        assert!(with_ctx(|_| Ok(())).is_ok(), "a live run reaches the API");
        // As a panic in the run would: the guard dropped without `end`.
        drop(lent);
        assert_eq!(format!("{state:?}"), before, "the state is back");
        let e = with_ctx(|_| Ok(())).unwrap_err();
        assert!(
            e.to_string()
                .contains("only be called while the game runs a hook"),
            "{e}"
        );
    }
}
