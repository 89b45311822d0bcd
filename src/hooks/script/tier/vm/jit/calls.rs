//! Calls native code makes through the VM's own call (`call_pushed`):
//! of a function with a frame, of one with no native code, or of one
//! whose arguments are not all of its types. The arguments are made
//! where they are (in registers, read in the frame, or made by the VM
//! into a slot), in the order written; the call then counts, checks its
//! level and runs native code or the VM exactly as a call in the VM does.
//! Its value comes back in a register where types.rs knows its type,
//! else in a slot of the frame.

use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Value, types::I64};
use rhai::Position;

use super::super::ir::{X, XKind};
use super::super::run::{Error, Flow, discard, in_function};
use super::super::value::V;
use super::emit::Emit;
use super::emit::UNIT;
use super::helpers::{failed, in_register, keep, of_register, unexpected, vm_parts};
use super::types::Ty;
use super::walk::writes;
use super::{CTX_ERR, Ctx, Jit};

const FLAGS: MemFlagsData = MemFlagsData::trusted();

/// Where an argument of a call through the VM is.
#[derive(Clone, Copy)]
pub(crate) enum CallArg {
    /// In a register, of this type.
    Reg(Ty),
    /// A local in the frame, at this slot: copied, as the VM reads it.
    Frame(usize),
    /// In this slot of the frame, taken: a local at its last use (as the
    /// VM moves it: lasts.rs makes a move only where the statement names
    /// the local once, so no later argument reads it), or a value the VM
    /// made there for the call.
    Take(usize),
}

/// A call native code makes through the `call` helper.
pub(crate) struct CallUnit {
    /// The function called, by the tier's index.
    pub ix: usize,
    pub args: Vec<CallArg>,
    /// Its value's type (`Val`: put in the slot the code names).
    pub ret: Ty,
    pub pos: Position,
    /// Whether every argument is where the callee's native code takes
    /// it, and its value of this call's type (set once every function is
    /// compiled, `settle`): then no argument is checked or converted.
    pub exact: bool,
}

impl CallUnit {
    /// Whether this call's arguments are each of callee `e`'s types as
    /// they are (a register of its parameter's type; any value for a
    /// parameter its frame holds) and its value of this call's type.
    pub(super) fn settle(&mut self, e: Option<&super::Entry>) {
        self.exact = e.is_some_and(|e| {
            e.sig.params.len() == self.args.len()
                && (e.sig.ret == self.ret || self.ret == Ty::Val)
                && self.ret != Ty::Never
                && (e.sig.params.iter().zip(&self.args)).all(|(want, a)| match (want, a) {
                    (None | Some(Ty::Val), _) => true,
                    (Some(t), CallArg::Reg(k)) => t == k,
                    _ => false,
                })
        });
    }
}

impl Emit<'_, '_> {
    /// Call `x` (of function `ix` on `args`) through the VM's call: its
    /// value in a register, or put in slot `dest` where it is `Val`.
    pub(super) fn vm_call(&mut self, x: &X, ix: usize, args: &[X], dest: i64) -> Value {
        let mut tags = Vec::with_capacity(args.len());
        let mut vals = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            if self.typed.of(a) != Ty::Val {
                tags.push(CallArg::Reg(self.reg_ty(a)));
                vals.push(self.expr(a));
                continue;
            }
            // A local in the frame is read there by the helper, after the
            // arguments after it are made: where none of them writes it.
            let tag = match &a.kind {
                XKind::Local(k) if self.typed.reg(*k).is_none() && !writes(&args[i + 1..], *k) => {
                    CallArg::Frame(*k)
                }
                XKind::Move(k) if self.typed.reg(*k).is_none() && !writes(&args[i + 1..], *k) => {
                    CallArg::Take(*k)
                }
                _ => CallArg::Take(self.delegated_to_tmp(a)),
            };
            tags.push(tag);
            vals.push(self.b.ins().iconst(I64, 0));
        }
        let argp = self.array(&vals);
        self.units.calls.push(CallUnit {
            ix,
            args: tags,
            ret: self.typed.of(x),
            pos: x.pos,
            exact: false,
        });
        let u = self
            .b
            .ins()
            .iconst(I64, (self.units.calls.len() - 1) as i64);
        let d = self.b.ins().iconst(I64, dest);
        let r = self.helper(self.refs.call, &[u, argp, d]);
        let e = self.b.ins().load(I64, FLAGS, self.ctx, CTX_ERR);
        self.fail_to_err(e);
        r
    }
}

/// Call `unit` (of the units) on the arguments at `args`, by the VM's
/// `call_pushed` (by the callee's native code in this context where its
/// arguments are of its types): its value in a register of the unit's
/// type, or put in slot `dest` where that is `Val`; or the error kept.
pub(super) extern "C" fn call(ctx: *mut Ctx, unit: i64, args: *const i64, dest: i64) -> i64 {
    // SAFETY: called only by native code, with its context; the Jit
    // outlives the call.
    let jit = unsafe { &*(*ctx).jit };
    let u = &jit.units.calls[unit as usize];
    if u.exact {
        return exact(ctx, jit, u, args, dest);
    }
    let r = {
        // SAFETY: as above; on the native arm this borrow is not used
        // once the callee runs (`native` makes its own); on the VM's arm
        // the callee runs through it, as any call in the VM does.
        let (_, vm) = unsafe { vm_parts(ctx) };
        // Above the caller's frame, as the VM's `push_args` pushes them.
        let base = vm.stack.len();
        push_args(vm, u, args);
        match jit.args(u.ix, &vm.stack[base..]) {
            Some(raw) => native(ctx, jit, u, base, &raw),
            None => vm.call_pushed(u.ix, base, u.pos),
        }
    };
    // SAFETY: as above; the callee has returned.
    let (cx, vm) = unsafe { vm_parts(ctx) };
    let v = match r {
        Ok(v) => v,
        Err(e) => return failed(cx, Flow::Err(e)),
    };
    if u.ret == Ty::Val {
        keep(vm, dest, v);
        return 0;
    }
    let Some(n) = in_register(u.ret, &v) else {
        discard(v);
        return failed(cx, Flow::Err(unexpected(&jit.names[u.ix], u.pos)));
    };
    discard(v);
    n
}

/// Call `u`'s arguments pushed on the VM's stack, each made where its
/// tag says (a value taken from the caller's frame, or copied).
#[inline(always)]
fn push_args(vm: &mut super::super::run::VmRun<'_, '_>, u: &CallUnit, args: *const i64) {
    for (i, a) in u.args.iter().enumerate() {
        let v = match *a {
            // SAFETY: native code passes one value for each argument.
            CallArg::Reg(t) => of_register(t, unsafe { *args.add(i) }),
            CallArg::Frame(k) => vm.local(k).copy(),
            CallArg::Take(k) => std::mem::take(vm.slot(k)),
        };
        vm.stack.push(v);
    }
}

/// Call `u` by its native code, on its arguments pushed at `base` (`raw`
/// as `Jit::args` made them), as the VM's `call_pushed` and `Jit::call`
/// make it (its level, its count, its frame, its error in the function)
/// but in the caller's context: native code calling native code.
fn native(ctx: *mut Ctx, jit: &Jit, u: &CallUnit, base: usize, raw: &[i64]) -> Result<V, Error> {
    let Some(e) = jit.entries[u.ix].as_ref() else {
        unreachable!("`Jit::args` gives arguments only to a function with native code")
    };
    // SAFETY: as `call`'s; each borrow ends before the callee runs.
    let outer = {
        let (_, vm) = unsafe { vm_parts(ctx) };
        vm.run.level += 1;
        if let Err(err) = vm.enter(u.pos) {
            vm.run.level -= 1;
            vm.pop_to(base);
            return Err(err);
        }
        super::bump(&super::FRAMED);
        e.enter_frame(vm, base)
    };
    // SAFETY: the code was compiled for this context (the caller's, which
    // `Jit::call` made for this run) and these arguments.
    let r = unsafe { (e.f)(ctx, raw.as_ptr()) };
    // SAFETY: as above; the callee has returned.
    let (cx, vm) = unsafe { vm_parts(ctx) };
    vm.base = outer;
    vm.run.level -= 1;
    let v = match cx.err.take() {
        Some(err) => Err(in_function(&jit.names[u.ix], err, u.pos)),
        None => Ok(e.value(vm, base, r)),
    };
    vm.pop_to(base);
    v
}

/// Call `u`, whose arguments are each where its callee's native code
/// takes them (`CallUnit::exact`), as `native` makes it: the registers
/// handed over as native code passed them, the callee's frame made with
/// its arguments in their slots, its value in a register as it gave it.
fn exact(ctx: *mut Ctx, jit: &Jit, u: &CallUnit, args: *const i64, dest: i64) -> i64 {
    let Some(e) = jit.entries[u.ix].as_ref() else {
        unreachable!("an exact call is of a function with native code")
    };
    // SAFETY: as `call`'s; each borrow ends before the callee runs.
    let (base, outer) = {
        let (cx, vm) = unsafe { vm_parts(ctx) };
        vm.run.level += 1;
        if let Err(err) = vm.enter(u.pos) {
            vm.run.level -= 1;
            return failed(cx, Flow::Err(err));
        }
        super::bump(&super::FRAMED);
        super::note_exact();
        let base = vm.stack.len();
        let outer = vm.base;
        if e.frame > 0 {
            // Its arguments in its first slots, as `call_pushed` has
            // them: a register's as the VM holds it (native code reads
            // it in its register; the VM, once it is written there).
            vm.stack.reserve(e.frame.max(u.args.len()));
            push_args(vm, u, args);
            while vm.stack.len() < base + e.frame {
                vm.stack.push(V::Unit);
            }
            vm.base = base;
        } else {
            // No frame: a value taken from the caller's is dropped, as
            // the callee's frame would drop it.
            for a in &u.args {
                if let CallArg::Take(k) = *a {
                    discard(std::mem::take(vm.slot(k)));
                }
            }
        }
        (base, outer)
    };
    // SAFETY: the code was compiled for this context and arguments of
    // these types (`settle`), which native code passes as registers.
    let r = unsafe { (e.f)(ctx, args) };
    // SAFETY: as above; the callee has returned.
    let (cx, vm) = unsafe { vm_parts(ctx) };
    vm.base = outer;
    vm.run.level -= 1;
    if let Some(err) = cx.err.take() {
        vm.pop_to(base);
        return failed(cx, Flow::Err(in_function(&jit.names[u.ix], err, u.pos)));
    }
    if u.ret == Ty::Val {
        let v = e.value(vm, base, r);
        vm.pop_to(base);
        keep(vm, dest, v);
        return 0;
    }
    vm.pop_to(base);
    match u.ret {
        // As `of_register` then `in_register` give it.
        Ty::Bool => i64::from(r != 0),
        Ty::Sym if u32::try_from(r).is_err() => UNIT,
        Ty::Unit => UNIT,
        _ => r,
    }
}
