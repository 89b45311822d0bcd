//! Native code for the VM's functions (issue 55): every function is
//! compiled at load to machine code through Cranelift (emit.rs), its
//! numbers, truth values and symbols in registers (types.rs), any other
//! value in its frame on the VM's stack, where the VM runs what is done
//! to it (helpers.rs). A call whose arguments are of the function's
//! types runs that code; any other call runs in the VM as before. A
//! function with nothing but numbers, truth values and symbols has no
//! frame, and native code calls it directly. The code counts operations
//! and checks call levels as the VM does, and makes each error with the
//! VM's own words and position.

mod calls;
mod delegate;
mod emit;
mod frame_args;
mod helpers;
mod loops;
mod mixed;
mod pushes;
mod types;
mod walk;

use cranelift_codegen::ir::{AbiParam, Signature, types::I64};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{ArenaMemoryProvider, JITBuilder, JITModule};
use cranelift_module::{FuncId, Linkage, Module};
use rhai::{ImmutableString, Position};

use super::ir::{Code, For, S, X};
use super::run::{Error, VmRun, in_function};
use super::value::V;
use crate::hooks::script::tier::Fallback;
use crate::hooks::script::tier::run::Run;
use types::{Sig, Ty};

pub(super) type Positions = Vec<Position>;

/// The address space reserved for a script's native code (reserved,
/// not used: a few kilobytes a function).
const ARENA_BYTES: usize = 16 << 20;

/// The most parameters a function with native code has.
pub(crate) const MAX_ARGS: usize = 8;

thread_local! {
    /// Calls entered into native code from the VM on this thread, while
    /// `native_calls` counts them.
    static CALLS: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
    /// API calls from native code whose arguments the VM made or pushed
    /// (`helpers::pushed`), while `pushed_api_calls` counts them.
    static PUSHED: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
    /// API calls from native code by the `api` helper (not by a form on
    /// registers, `helpers::api_regs`, or refused by it), while
    /// `general_api_calls` counts them.
    static GENERAL: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
    /// API calls from native code made by a form on registers, while
    /// `regs_api_calls` counts them (in builds with debug assertions).
    static REGS: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
    /// Comparisons native code left to the VM (`mixed::mixed`), while
    /// `vm_compares` counts them.
    static COMPARED: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
    /// `op=` on a local the VM holds that native code handed the VM
    /// (`mixed::held_op`), while `held_ops` counts them.
    static HELD_OPS: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
    /// Calls native code made through the VM's call that ran the callee's
    /// native code in the caller's context (calls.rs), while
    /// `framed_native_calls` counts them.
    static FRAMED: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
    /// Those of them whose arguments were each where the callee takes
    /// them (calls.rs `exact`), while `exact_native_calls` counts them
    /// (in builds with debug assertions).
    static EXACT: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
    /// Template function calls native code made by the `template` helper
    /// (mixed.rs), while `template_calls` counts them.
    static TEMPLATES: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
    /// API call arguments native code read in the frame (frame_args.rs),
    /// while `frame_arg_reads` counts them (in builds with debug
    /// assertions).
    static FRAME_ARGS: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

thread_local! {
    /// Whether native code is set aside on this thread (`without_native`).
    static OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The operations the last hook run in the VM on this thread counted.
    static LAST_OPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// `f` run with native code set aside on this thread: every call in the
/// VM (what `Compile::CheckJit` compares native code with).
pub(crate) fn without_native<T>(f: impl FnOnce() -> T) -> T {
    let outer = OFF.with(|o| o.replace(true));
    let v = f();
    OFF.with(|o| o.set(outer));
    v
}

/// Whether native code runs on this thread (read once a hook run).
pub(crate) fn native_on() -> bool {
    !OFF.with(std::cell::Cell::get)
}

/// Note the operations a hook run in the VM counted.
pub(crate) fn note_ops(ops: u64) {
    LAST_OPS.with(|o| o.set(ops));
}

/// The operations the last hook run in the VM on this thread counted.
pub(crate) fn last_ops() -> u64 {
    LAST_OPS.with(std::cell::Cell::get)
}

/// A count tests read (`native_calls`, `pushed_api_calls`): None where
/// nothing counts.
type Counter = std::thread::LocalKey<std::cell::Cell<Option<u64>>>;

/// `f`'s value, and how far it moved `counter` on this thread.
fn counting<T>(counter: &'static Counter, f: impl FnOnce() -> T) -> (T, u64) {
    let outer = counter.with(|c| c.replace(Some(0)));
    let v = f();
    let n = counter.with(|c| c.replace(outer)).unwrap_or(0);
    (v, n)
}

/// One more on `counter`, where something counts (on each entry into
/// native code: inlined).
#[inline(always)]
fn bump(counter: &'static Counter) {
    counter.with(|c| {
        if let Some(n) = c.get() {
            c.set(Some(n + 1));
        }
    });
}

/// `f`'s value, and how many calls it made into native code on this
/// thread (from the VM; native code's calls of its own not counted):
/// what tests see of the native path taken.
pub fn native_calls<T>(f: impl FnOnce() -> T) -> (T, u64) {
    counting(&CALLS, f)
}

/// `f`'s value, and how many API calls native code made on this thread
/// with arguments the VM made or pushed, not read by the helper itself
/// (`helpers::plain`): what tests see of the API path taken.
pub fn pushed_api_calls<T>(f: impl FnOnce() -> T) -> (T, u64) {
    counting(&PUSHED, f)
}

/// `f`'s value, and how many API calls native code made on this thread
/// by the `api` helper rather than by a form on registers (api_regs.rs):
/// what tests see of the API path taken.
pub fn general_api_calls<T>(f: impl FnOnce() -> T) -> (T, u64) {
    counting(&GENERAL, f)
}

/// `f`'s value, and how many API calls native code made on this thread
/// by a form on registers (api_regs.rs): what tests see of the API path
/// taken. Counted only in builds with debug assertions (the tests'),
/// where a count costs nothing on the short way of release builds.
pub fn regs_api_calls<T>(f: impl FnOnce() -> T) -> (T, u64) {
    counting(&REGS, f)
}

/// One more API call by a form on registers, where `regs_api_calls`
/// counts (in builds with debug assertions).
#[inline(always)]
fn note_regs() {
    #[cfg(debug_assertions)]
    bump(&REGS);
}

/// One more API call by the `api` helper, where `general_api_calls`
/// counts.
fn note_general() {
    bump(&GENERAL);
}

/// One more API call by the VM's stack, where `pushed_api_calls` counts.
fn note_pushed() {
    bump(&PUSHED);
}

/// `f`'s value, and how many comparisons of a value in a register with
/// one the VM holds native code left to the VM's `binary` on this thread
/// (the held value not of the register's type, or the smallest number):
/// what tests see of the comparison's path.
pub fn vm_compares<T>(f: impl FnOnce() -> T) -> (T, u64) {
    counting(&COMPARED, f)
}

/// One more comparison left to the VM, where `vm_compares` counts.
fn note_compared() {
    bump(&COMPARED);
}

/// `f`'s value, and how many `x op= v` on a local `x` the VM holds native
/// code handed the VM with `v` made in a register, on this thread.
pub fn held_ops<T>(f: impl FnOnce() -> T) -> (T, u64) {
    counting(&HELD_OPS, f)
}

/// `f`'s value, and how many calls native code made through the VM's call
/// (of a function with a frame, or on arguments not all of its types)
/// that ran the callee's native code without the VM, on this thread.
pub fn framed_native_calls<T>(f: impl FnOnce() -> T) -> (T, u64) {
    counting(&FRAMED, f)
}

/// `f`'s value, and how many of the calls `framed_native_calls` counts
/// took the short way, their arguments handed over as they are (calls.rs
/// `exact`), on this thread. Counted only in builds with debug
/// assertions (the tests').
pub fn exact_native_calls<T>(f: impl FnOnce() -> T) -> (T, u64) {
    counting(&EXACT, f)
}

/// `f`'s value, and how many template function calls compared with a
/// symbol native code made by the `template` helper, on this thread.
pub fn template_calls<T>(f: impl FnOnce() -> T) -> (T, u64) {
    counting(&TEMPLATES, f)
}

/// `f`'s value, and how many API call arguments native code read in the
/// frame on this thread (frame_args.rs; in builds with debug assertions).
pub fn frame_arg_reads<T>(f: impl FnOnce() -> T) -> (T, u64) {
    counting(&FRAME_ARGS, f)
}

/// One more argument read in the frame, where `frame_arg_reads` counts
/// (in builds with debug assertions).
#[inline(always)]
fn note_frame_arg() {
    #[cfg(debug_assertions)]
    bump(&FRAME_ARGS);
}

/// One more call by the short way, where `exact_native_calls` counts (in
/// builds with debug assertions).
#[inline(always)]
fn note_exact() {
    #[cfg(debug_assertions)]
    bump(&EXACT);
}

/// What native code is given: where the run's count, its next check and
/// its call level are, where an error goes, and the run and the code's
/// tables for the helpers. Native code reads and writes the first four
/// at the offsets below.
#[repr(C)]
pub(crate) struct Ctx {
    ops: *mut u64,
    check_at: *const u64,
    level: *mut usize,
    /// An error, once one is made (null while none is: native code tests
    /// it after each call).
    err: Option<Error>,
    /// The run the three fields above point into, and the VM's run
    /// it is part of: every pointer to them is made from `vm`, and
    /// nothing else touches them while the native code runs.
    run: *mut Run<'static>,
    vm: *mut VmRun<'static, 'static>,
    jit: *const Jit,
}

// The context's pointers and the count are 8 bytes to native code.
const _: () = assert!(std::mem::size_of::<usize>() == 8);

const CTX_OPS: i32 = std::mem::offset_of!(Ctx, ops) as i32;
const CTX_CHECK_AT: i32 = std::mem::offset_of!(Ctx, check_at) as i32;
const CTX_LEVEL: i32 = std::mem::offset_of!(Ctx, level) as i32;
const CTX_ERR: i32 = std::mem::offset_of!(Ctx, err) as i32;

impl Ctx {
    fn jit(&self) -> &Jit {
        // SAFETY: the Jit that made this context outlives the call.
        unsafe { &*self.jit }
    }

    fn position(&self, p: i64) -> Position {
        self.jit()
            .positions
            .get(p as usize)
            .copied()
            .unwrap_or(Position::NONE)
    }

    fn name(&self, f: i64) -> &str {
        self.jit().names.get(f as usize).map_or("?", |n| n.as_str())
    }
}

type NativeFn = unsafe extern "C" fn(*mut Ctx, *const i64) -> i64;

struct Entry {
    f: NativeFn,
    sig: Sig,
    /// Its frame's size (slots), where it has one.
    frame: usize,
    /// Where its value is, in a `Val` function's frame.
    ret_slot: usize,
}

impl Entry {
    /// Its frame made at `base` where it has one (the arguments pushed
    /// there, every other slot `()`): the VM's base before, to put back.
    fn enter_frame(&self, vm: &mut VmRun<'_, '_>, base: usize) -> usize {
        let outer = vm.base;
        if self.frame > 0 {
            // Pushes, not `resize` (a few slots, as `call_inner` makes them).
            while vm.stack.len() < base + self.frame {
                vm.stack.push(V::Unit);
            }
            vm.base = base;
        }
        outer
    }

    /// Its value, once its code (its frame at `base`) returned `r`.
    fn value(&self, vm: &mut VmRun<'_, '_>, base: usize, r: i64) -> V {
        match self.sig.ret {
            Ty::Val => {
                vm.forget_from(base);
                std::mem::take(&mut vm.stack[base + self.ret_slot])
            }
            t => helpers::of_register(t, r),
        }
    }
}

/// What native code hands the VM to run, by number: expressions,
/// statements and `for` loops of the VM's forms (in `Vm::codes`, which
/// are never changed once compiled and live as long as the native code).
#[derive(Default)]
pub(super) struct Units {
    pub xs: Vec<*const X>,
    pub ss: Vec<*const S>,
    pub fors: Vec<*const For>,
    pub apis: Vec<ApiUnit>,
    /// The items of each constant list a `for` runs over natively, as
    /// registers hold them (read by the code where they are).
    pub tables: Vec<Box<[i64]>>,
    pub mixed: Vec<mixed::MixedUnit>,
    pub calls: Vec<calls::CallUnit>,
    pub templates: Vec<mixed::TemplateUnit>,
}

/// An API call native code makes through the `api` helper.
pub(super) struct ApiUnit {
    pub x: *const X,
    /// Where each argument is.
    pub args: Vec<Arg>,
    /// Its value's type (types.rs's table).
    pub ret: Ty,
    /// Whether every argument is read without the VM (`Reg`, `Frame`,
    /// `Item`), at most `helpers::PLAIN` of them: the helper then hands
    /// them to the typed form from its own array.
    pub plain: bool,
    /// The first argument's local, in a register of this type, that the
    /// Rhai form's way reads in the frame: written there before it.
    pub first: Option<(usize, Ty)>,
    /// The form on registers, where every argument is in a register of
    /// its parameter's type or made by the helper (`Frame`, `Item`,
    /// `Named`, `NamedFrame`): the helper calls it on them as they are.
    pub regs: Option<&'static super::api_regs::Regs>,
    /// Whether each argument is in a register (`regs` then takes them
    /// from native code's array as they are).
    pub in_regs: bool,
    /// The call's position.
    pub pos: Position,
}

/// Where an argument of an API call from native code is.
#[derive(Clone, Copy)]
pub(super) enum Arg {
    /// In a register, of this type.
    Reg(Ty),
    /// In the frame, at the slot the register holds.
    Slot,
    /// Made by the helper (the VM evaluates it).
    Eval,
    /// A local in the frame, at this slot: read there by the helper where
    /// it is a plain value (a number, a truth value, a symbol or `()`),
    /// else made as `Eval` makes it.
    Frame(usize),
    /// `xs[i]` of a list in the frame's slot, `i` a constant number: read
    /// as `Frame` reads a local.
    Item(usize, i64),
    /// A template of one computed part (`` `pit-${i}` ``), the part's
    /// value in a register of this type: the symbol its table makes of
    /// it, else its text built by the VM in the helper (never the part
    /// evaluated again; only where every later argument is a local or a
    /// constant, so that building it, which may count, comes in order).
    Named(*const super::ir::Named, Ty),
    /// A template of one computed part that is a local in the frame, at
    /// this slot: read by the helper, then made as `Named` is (where the
    /// helper makes every argument, or every later one is a local or a
    /// constant).
    NamedFrame(*const super::ir::Named, usize),
}

/// The native code of a script's functions.
pub(crate) struct Jit {
    /// Owns the code's memory (freed on drop).
    module: Option<JITModule>,
    /// By the tier's index.
    entries: Vec<Option<Entry>>,
    positions: Positions,
    units: Units,
    names: Vec<ImmutableString>,
    /// Each VM function with no native code, and why.
    pub fallbacks: Vec<Fallback>,
}

// SAFETY: after `compile` the module is never touched but to free it on
// drop; the entries are plain function pointers into its memory, which
// any thread may call (each with its own context).
unsafe impl Send for Jit {}
unsafe impl Sync for Jit {}

impl Drop for Jit {
    fn drop(&mut self) {
        if let Some(m) = self.module.take() {
            // SAFETY: the Jit is dropped, so none of its code runs.
            unsafe { m.free_memory() };
        }
    }
}

/// Helpers native code calls, by the name it imports them under.
fn helper_sigs(cc: cranelift_codegen::isa::CallConv) -> [(&'static str, *const u8, Signature); 20] {
    let sig = |params: usize, ret: bool| {
        let mut s = Signature::new(cc);
        s.params.extend((0..params).map(|_| AbiParam::new(I64)));
        if ret {
            s.returns.push(AbiParam::new(I64));
        }
        s
    };
    [
        ("tabula_track", helpers::track as *const u8, sig(2, true)),
        ("tabula_arith", helpers::arith as *const u8, sig(5, false)),
        ("tabula_levels", helpers::levels as *const u8, sig(2, false)),
        ("tabula_wrap", helpers::wrap as *const u8, sig(3, false)),
        ("tabula_eval", helpers::eval as *const u8, sig(3, true)),
        ("tabula_truth", helpers::truth as *const u8, sig(2, true)),
        ("tabula_exec", helpers::exec as *const u8, sig(3, true)),
        ("tabula_put", helpers::put as *const u8, sig(4, false)),
        (
            "tabula_for_begin",
            helpers::for_begin as *const u8,
            sig(3, true),
        ),
        (
            "tabula_for_next",
            helpers::for_next as *const u8,
            sig(6, true),
        ),
        ("tabula_api", helpers::api as *const u8, sig(3, true)),
        (
            "tabula_api_regs",
            helpers::api_regs as *const u8,
            sig(3, true),
        ),
        ("tabula_same", mixed::same as *const u8, sig(3, true)),
        ("tabula_mixed", mixed::mixed as *const u8, sig(4, true)),
        ("tabula_held_op", mixed::held_op as *const u8, sig(4, true)),
        ("tabula_call", calls::call as *const u8, sig(4, true)),
        (
            "tabula_template",
            mixed::template as *const u8,
            sig(3, true),
        ),
        (
            "tabula_constant",
            helpers::put_constant as *const u8,
            sig(3, false),
        ),
        (
            "tabula_frame_arg",
            frame_args::frame_arg as *const u8,
            sig(5, true),
        ),
        (
            "tabula_push_reg",
            pushes::push_reg as *const u8,
            sig(4, true),
        ),
    ]
}

impl Jit {
    /// Native code for every function of `codes` (by the tier's index,
    /// with each one's arity) whose types types.rs proves.
    pub fn compile(codes: &[Option<Code>], arity: &[usize]) -> Jit {
        let (typed, why) = types::all(codes, arity);
        let names = codes
            .iter()
            .map(|c| {
                c.as_ref()
                    .map_or_else(ImmutableString::new, |c| c.name.clone())
            })
            .collect();
        let mut jit = Jit {
            module: None,
            entries: (0..codes.len()).map(|_| None).collect(),
            positions: Vec::new(),
            units: Units::default(),
            names,
            fallbacks: Vec::new(),
        };
        let mut reasons = why;
        if typed.iter().any(Option::is_some)
            && let Err(e) = jit.build(codes, &typed)
        {
            for (i, t) in typed.iter().enumerate() {
                if t.is_some() {
                    reasons[i] = format!("no native code: {e}");
                }
            }
        }
        for (i, w) in reasons.into_iter().enumerate() {
            let name = &jit.names[i];
            if jit.entries[i].is_some() || codes[i].is_none() || name.starts_with("anon$") {
                continue;
            }
            jit.fallbacks.push(Fallback {
                name: name.to_string(),
                arity: arity[i],
                why: w,
            });
        }
        jit.fallbacks
            .sort_by(|a, b| (&a.name, a.arity).cmp(&(&b.name, b.arity)));
        jit
    }

    fn build(
        &mut self,
        codes: &[Option<Code>],
        typed: &[Option<types::Typed>],
    ) -> Result<(), String> {
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").map_err(|e| e.to_string())?;
        // The IR verifier checks this emitter, not the script: on where
        // debug assertions are (every test), off in release builds.
        if !cfg!(debug_assertions) {
            (flags.set("enable_verifier", "false")).map_err(|e| e.to_string())?;
        }
        let isa = cranelift_native::builder()
            .map_err(|e| format!("this machine: {e}"))?
            .finish(settings::Flags::new(flags))
            .map_err(|e| e.to_string())?;
        let cc = isa.default_call_conv();
        let mut jb = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
        let helpers = helper_sigs(cc);
        for (name, ptr, _) in &helpers {
            jb.symbol(*name, *ptr);
        }
        // One reservation for all the code: calls between the functions
        // are near calls, which code placed apart could not reach.
        let arena = ArenaMemoryProvider::new_with_size(ARENA_BYTES).map_err(|e| e.to_string())?;
        jb.memory_provider(Box::new(arena));
        let mut module = JITModule::new(jb);
        let defined = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.define(&mut module, cc, &helpers, codes, typed)
        }));
        let defined = match defined {
            Ok(r) => r,
            Err(_) => Err("Cranelift stopped".to_string()),
        };
        match defined {
            Ok(()) => {
                self.module = Some(module);
                Ok(())
            }
            Err(e) => {
                self.entries.iter_mut().for_each(|e| *e = None);
                // SAFETY: none of its code is referred to any more.
                unsafe { module.free_memory() };
                Err(e)
            }
        }
    }

    /// Every typed function compiled into `module`, and its entry kept.
    fn define(
        &mut self,
        module: &mut JITModule,
        cc: cranelift_codegen::isa::CallConv,
        helpers: &[(&'static str, *const u8, Signature)],
        codes: &[Option<Code>],
        typed: &[Option<types::Typed>],
    ) -> Result<(), String> {
        let err = |e: cranelift_module::ModuleError| e.to_string();
        let mut helper_ids = Vec::new();
        for (name, _, sig) in helpers {
            helper_ids.push(
                module
                    .declare_function(name, Linkage::Import, sig)
                    .map_err(err)?,
            );
        }
        let sig = emit::signature(cc);
        let mut ids: Vec<Option<FuncId>> = Vec::with_capacity(typed.len());
        for (i, t) in typed.iter().enumerate() {
            ids.push(match t {
                Some(_) => Some(
                    module
                        .declare_function(&format!("f{i}"), Linkage::Local, &sig)
                        .map_err(err)?,
                ),
                None => None,
            });
        }
        let mut fbc = FunctionBuilderContext::new();
        let mut frames = vec![0; typed.len()];
        let mut cx = module.make_context();
        for (i, t) in typed.iter().enumerate() {
            let (Some(t), Some(id), Some(code)) = (t, ids[i], &codes[i]) else {
                continue;
            };
            cx.func.signature = sig.clone();
            let mut h = helper_ids
                .iter()
                .map(|id| module.declare_func_in_func(*id, &mut cx.func));
            let mut next = || h.next().ok_or("a helper missing");
            let refs = emit::Refs {
                track: next()?,
                arith: next()?,
                levels: next()?,
                wrap: next()?,
                eval: next()?,
                truth: next()?,
                exec: next()?,
                put: next()?,
                for_begin: next()?,
                for_next: next()?,
                api: next()?,
                api_regs: next()?,
                same: next()?,
                mixed: next()?,
                held_op: next()?,
                call: next()?,
                template: next()?,
                constant: next()?,
                frame_arg: next()?,
                push_reg: next()?,
                fns: ids
                    .iter()
                    .map(|id| id.map(|id| module.declare_func_in_func(id, &mut cx.func)))
                    .collect(),
            };
            let b = FunctionBuilder::new(&mut cx.func, &mut fbc);
            let ret_slot = code.slots;
            let tc = module.target_config();
            let slots = emit::Emit::new(
                b,
                refs,
                &mut self.positions,
                &mut self.units,
                t,
                ret_slot,
                tc,
            )
            .finish(&code.body)
            .map_err(|e| format!("{}: {e}", code.name))?;
            frames[i] = if t.sig.frame { slots } else { 0 };
            module
                .define_function(id, &mut cx)
                .map_err(|e| format!("{}: {e:?}", code.name))?;
            module.clear_context(&mut cx);
        }
        module.finalize_definitions().map_err(err)?;
        for (i, t) in typed.iter().enumerate() {
            let (Some(t), Some(id)) = (t, ids[i]) else {
                continue;
            };
            let ptr = module.get_finalized_function(id);
            // SAFETY: compiled with `emit::signature`, which is this type.
            let f = unsafe { std::mem::transmute::<*const u8, NativeFn>(ptr) };
            self.entries[i] = Some(Entry {
                f,
                sig: t.sig.clone(),
                frame: frames[i],
                ret_slot: codes[i].as_ref().map_or(0, |c| c.slots),
            });
        }
        for u in &mut self.units.calls {
            u.settle(self.entries[u.ix].as_ref());
        }
        Ok(())
    }

    /// Function `ix`'s arguments as its native code takes them; None
    /// where it has none, or they are not of its types.
    #[inline]
    pub fn args(&self, ix: usize, args: &[V]) -> Option<[i64; MAX_ARGS]> {
        let e = self.entries.get(ix)?.as_ref()?;
        if e.sig.params.len() != args.len() {
            return None;
        }
        let mut raw = [0; MAX_ARGS];
        for ((t, a), r) in e.sig.params.iter().zip(args).zip(raw.iter_mut()) {
            *r = match (t, a) {
                (None | Some(Ty::Val), _) => 0,
                (Some(Ty::Int), V::Int(n)) => *n,
                (Some(Ty::Bool), V::Bool(b)) => i64::from(*b),
                (Some(Ty::Sym), V::Sym(s)) => i64::from(*s),
                (Some(Ty::Sym), V::Unit) => emit::UNIT,
                _ => return None,
            };
        }
        Some(raw)
    }

    /// Run function `ix`'s native code on `args` (as `args` made them),
    /// its call counted and its level checked by the caller as
    /// the VM does: its value, or its error as the VM's `body` gives it.
    pub fn call(
        &self,
        vm: &mut VmRun<'_, '_>,
        ix: usize,
        base: usize,
        args: &[i64],
        pos: Position,
    ) -> Result<V, Error> {
        let Some(e) = self.entries[ix].as_ref() else {
            unreachable!("Jit::call only where `args` made them")
        };
        bump(&CALLS);
        let outer = e.enter_frame(vm, base);
        let vmp: *mut VmRun<'_, '_> = vm;
        // SAFETY: field pointers of the live run, all made from one
        // pointer to the VM's run.
        let mut cx = unsafe {
            let run: *mut Run<'_> = &raw mut *(*vmp).run;
            Ctx {
                ops: &raw mut (*run).ops,
                check_at: &raw const (*run).check_at,
                level: &raw mut (*run).level,
                err: None,
                run: run.cast(),
                vm: vmp.cast(),
                jit: self,
            }
        };
        // SAFETY: the code was compiled for this context and these
        // arguments (`args`), and reads and writes nothing else; the
        // helpers reach the VM's run only through the context.
        let r = unsafe { (e.f)(&mut cx, args.as_ptr()) };
        // SAFETY: the native code has returned; `vmp` is `vm`.
        let vm = unsafe { &mut *vmp };
        vm.base = outer;
        if let Some(err) = cx.err {
            return Err(in_function(&self.names[ix], err, pos));
        }
        Ok(e.value(vm, base, r))
    }
}
