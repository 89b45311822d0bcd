//! A comparison of a value in a register with one the VM holds (`here ==
//! disc(p)`, `piece(from) != mine`): the held value is read where it is
//! (a local in the frame) or made by the VM into a slot, then compared in
//! a register where it is of the register's type, and by the VM's own
//! `binary` on both values otherwise. Values typed only as the script
//! runs: nothing is decided by a type proven at load but the register's.
//! And `x op= v` on a local `x` the VM holds, `v` made in a register (or
//! a call's value, calls.rs): the VM's own `op=` on the two (`held_op`).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{BlockArg, InstBuilder, Value, types::I64};

use super::super::ir::{S, SKind, TemplateFn, X, XKind};
use super::super::run::VmRun;
use super::super::value::V;
use super::Ctx;
use super::emit::{Emit, compare_cc};
use super::helpers::{failed, in_register, of_register, vm_parts};
use super::types::Ty;
use super::walk::writes;
use crate::hooks::script::tier::tree::Bin;

/// What `same` gives where the value is not of the type asked (a number
/// equal to it takes the VM's way too, which answers the same).
const OTHER: i64 = i64::MIN;

/// A comparison native code leaves to the VM where `same` does not give
/// the held value (not of the register's type, or the smallest number).
pub(crate) struct MixedUnit {
    pub x: *const X,
    /// The register's type.
    pub ty: Ty,
    /// Whether the register's operand is the left one.
    pub reg_left: bool,
}

/// A template function's call native code makes by the `template`
/// helper, on its argument in a register of this type.
pub(crate) struct TemplateUnit {
    pub t: *const TemplateFn,
    pub ty: Ty,
    pub pos: rhai::Position,
}

/// What `template` gives where the call's text is no symbol (equal to
/// no symbol, nor to `()`), and where it failed.
const NO_SYMBOL: i64 = -2;
const FAILED: i64 = i64::MIN;

/// Whether `op` on a value of type `t` in a register and one the VM
/// holds is compared natively: `==` and `!=` on numbers, truth values,
/// symbols (a symbol's number is its text's identity) and `()` (held
/// beside the symbols), the order of numbers.
pub(super) fn compares(op: Bin, t: Ty) -> bool {
    match op {
        Bin::Eq | Bin::Ne => matches!(t, Ty::Int | Ty::Bool | Ty::Sym | Ty::Unit),
        Bin::Lt | Bin::Le | Bin::Gt | Bin::Ge => t == Ty::Int,
        _ => false,
    }
}

impl Emit<'_, '_> {
    /// `a op c`, one of them `Val` (types.rs checked `compares`), in
    /// Rhai's order: the left operand made first.
    pub(super) fn mixed(&mut self, x: &X, op: Bin, a: &X, c: &X) -> Value {
        let reg_left = self.typed.of(a) != Ty::Val;
        let (r, held) = if reg_left { (a, c) } else { (c, a) };
        let ty = self.held_ty(r);
        let local = match &held.kind {
            XKind::Local(s) | XKind::Move(s) if self.typed.reg(*s).is_none() => Some(*s),
            _ => None,
        };
        let (rv, slot) = if reg_left {
            let rv = self.expr(r);
            (rv, self.held_slot(held, local))
        } else {
            // Read where it is only where the right operand cannot change it.
            let local = local.filter(|s| !writes(std::slice::from_ref(r), *s));
            let slot = self.held_slot(held, local);
            (self.expr(r), slot)
        };
        let k = self.b.ins().iconst(I64, slot as i64);
        let t = self.b.ins().iconst(I64, ty as i64);
        let call = self.b.ins().call(self.refs.same, &[self.ctx, k, t]);
        let got = self.b.inst_results(call)[0];
        let other = self.b.ins().icmp_imm_s(IntCC::Equal, got, OTHER);
        let (fast, slow, join) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        let out = self.b.append_block_param(join, I64);
        self.b.ins().brif(other, slow, &[], fast, &[]);
        self.go(fast);
        let (l, rr) = if reg_left { (rv, got) } else { (got, rv) };
        // `compares` let only comparisons through.
        let cc = compare_cc(op).unwrap_or(IntCC::Equal);
        let b = self.b.ins().icmp(cc, l, rr);
        let b = self.b.ins().uextend(I64, b);
        self.b.ins().jump(join, &[BlockArg::from(b)]);
        self.b.set_cold_block(slow);
        self.go(slow);
        self.units.mixed.push(MixedUnit {
            x: std::ptr::from_ref(x),
            ty,
            reg_left,
        });
        let u = self
            .b
            .ins()
            .iconst(I64, (self.units.mixed.len() - 1) as i64);
        let r = self.helper(self.refs.mixed, &[u, rv, k]);
        let bad = self.b.ins().icmp_imm_s(IntCC::Equal, r, 2);
        self.fail_to_err(bad);
        self.b.ins().jump(join, &[BlockArg::from(r)]);
        self.go(join);
        out
    }

    /// `a op c` where types.rs typed one side a template function's call
    /// as a symbol (`here == disc(p)`; types/calls.rs `operands`): the
    /// call made by the helper (counted and checked as a call), its
    /// symbol compared in a register, in Rhai's order. None for any
    /// other comparison.
    pub(super) fn template_cmp(&mut self, op: Bin, a: &X, c: &X) -> Option<Value> {
        let called = |x: &X| matches!(x.kind, XKind::TemplateFn(_)) && self.typed.of(x) == Ty::Sym;
        let (l, r) = if called(a) {
            let l = self.template_call(a);
            (l, self.expr(c))
        } else if called(c) {
            let l = self.expr(a);
            (l, self.template_call(c))
        } else {
            return None;
        };
        let cc = compare_cc(op).unwrap_or(IntCC::Equal);
        let b = self.b.ins().icmp(cc, l, r);
        Some(self.b.ins().uextend(I64, b))
    }

    /// Template function call `x` by the `template` helper: its symbol,
    /// or `NO_SYMBOL`.
    fn template_call(&mut self, x: &X) -> Value {
        let XKind::TemplateFn(t) = &x.kind else {
            unreachable!("template_cmp hands over only template calls")
        };
        let ty = self.reg_ty(&t.arg);
        let v = self.expr(&t.arg);
        self.units.templates.push(TemplateUnit {
            t: std::ptr::from_ref(&**t),
            ty,
            pos: x.pos,
        });
        let u = (self.b.ins()).iconst(I64, (self.units.templates.len() - 1) as i64);
        let r = self.helper(self.refs.template, &[u, v]);
        let bad = self.b.ins().icmp_imm_s(IntCC::Equal, r, FAILED);
        self.fail_to_err(bad);
        r
    }

    /// `x op= value` on a local `x` in the frame, `value` made in a
    /// register first (as the VM makes it before it reads `x`), or a
    /// call's value put in a slot.
    pub(super) fn held_op(&mut self, s: &S, value: &X) {
        let (ty, v) = if self.typed.of(value) == Ty::Val {
            // A call's value (calls.rs), put in a slot of its own.
            let k = self.delegated_to_tmp(value);
            (IN_SLOT, self.b.ins().iconst(I64, k as i64))
        } else {
            (self.held_ty(value) as i64, self.expr(value))
        };
        self.units.ss.push(std::ptr::from_ref(s));
        let u = self.b.ins().iconst(I64, (self.units.ss.len() - 1) as i64);
        let t = self.b.ins().iconst(I64, ty);
        let r = self.helper(self.refs.held_op, &[u, t, v]);
        self.fail_to_err(r);
    }

    /// The type the helpers take `x`'s register as (`()` is held beside
    /// the symbols).
    fn held_ty(&self, x: &X) -> Ty {
        match self.reg_ty(x) {
            Ty::Unit => Ty::Sym,
            t => t,
        }
    }

    /// The slot the held operand is read in: its local's, or one the VM
    /// makes it into.
    fn held_slot(&mut self, held: &X, local: Option<usize>) -> usize {
        match local {
            Some(s) => s,
            None => self.delegated_to_tmp(held),
        }
    }
}

/// The value in slot `k` of the frame as a register of type `t` holds
/// it, or `OTHER` where it is of another type.
pub(super) extern "C" fn same(ctx: *mut Ctx, k: i64, t: i64) -> i64 {
    // SAFETY: called only by native code, with its context.
    let (_, vm) = unsafe { vm_parts(ctx) };
    in_register(Ty::of_code(t), vm.local(k as usize)).unwrap_or(OTHER)
}

/// Comparison `unit` (of the units) by the VM's `binary`, on the
/// register's value `reg` and the one in slot `k`: 0 or 1, or 2 on an
/// error.
pub(super) extern "C" fn mixed(ctx: *mut Ctx, unit: i64, reg: i64, k: i64) -> i64 {
    // SAFETY: called only by native code, with its context.
    let (cx, vm) = unsafe { vm_parts(ctx) };
    super::note_compared();
    let u = &cx.jit().units.mixed[unit as usize];
    // SAFETY: the units point into the VM's forms, alive and unchanged
    // while the native code is.
    let x = unsafe { &*u.x };
    match compare(vm, x, u, reg, k as usize) {
        Ok(b) => i64::from(b),
        Err(f) => 2 * failed(cx, f),
    }
}

fn compare(
    vm: &mut VmRun<'_, '_>,
    x: &X,
    u: &MixedUnit,
    reg: i64,
    k: usize,
) -> Result<bool, super::super::run::Flow> {
    let (XKind::Binary(b) | XKind::Simple(b)) = &x.kind else {
        return Err(never("a comparison native code did not hand over", x.pos));
    };
    let (op, _, _, helper) = &**b;
    let (r, held) = (of_register(u.ty, reg), vm.local(k).copy());
    let (a, c) = if u.reg_left { (r, held) } else { (held, r) };
    match vm.binary(*op, a, c, helper, x.pos)? {
        V::Bool(b) => Ok(b),
        _ => Err(never("a comparison gave no truth value", x.pos)),
    }
}

/// Never expected: types.rs hands `mixed` only comparisons, which give
/// truth values, and `held_op` only `op=`.
#[cold]
fn never(what: &str, pos: rhai::Position) -> super::super::run::Flow {
    super::super::run::Flow::Err(rhai::EvalAltResult::ErrorRuntime(what.into(), pos).into())
}

/// `held_op`'s type code for a value in a slot of the frame (taken).
const IN_SLOT: i64 = -1;

/// Statement `unit` (of the units), `x op= value`, by the VM's `op=` on
/// the local `x` in the frame and `value`, of type `t`, made in a
/// register (or in the slot `v`, where `t` is `IN_SLOT`): 0, or 1 on an
/// error.
pub(super) extern "C" fn held_op(ctx: *mut Ctx, unit: i64, t: i64, v: i64) -> i64 {
    // SAFETY: called only by native code, with its context.
    let (cx, vm) = unsafe { vm_parts(ctx) };
    // SAFETY: the units point into the VM's forms, alive and unchanged
    // while the native code is.
    let s = unsafe { &*cx.jit().units.ss[unit as usize] };
    super::bump(&super::HELD_OPS);
    let SKind::OpAssign(x) = &s.kind else {
        return failed(cx, never("an `op=` native code did not hand over", s.pos));
    };
    let value = if t == IN_SLOT {
        std::mem::take(vm.slot(v as usize))
    } else {
        of_register(Ty::of_code(t), v)
    };
    match vm.op_assign(x, value) {
        Ok(v) => {
            super::super::run::discard(v);
            0
        }
        Err(f) => failed(cx, f),
    }
}

/// Template function call `unit` (of the units) on its argument `raw`,
/// as the VM makes it (templates.rs `template_fn_of`): its symbol, or
/// `NO_SYMBOL` where its text is none, or `FAILED`.
pub(super) extern "C" fn template(ctx: *mut Ctx, unit: i64, raw: i64) -> i64 {
    // SAFETY: called only by native code, with its context.
    let (cx, vm) = unsafe { vm_parts(ctx) };
    let u = &cx.jit().units.templates[unit as usize];
    // SAFETY: the units point into the VM's forms, alive and unchanged
    // while the native code is.
    let t = unsafe { &*u.t };
    super::bump(&super::TEMPLATES);
    match vm.template_fn_of(t, of_register(u.ty, raw), u.pos) {
        Ok(V::Sym(s)) => i64::from(s),
        Ok(v) => {
            super::super::run::discard(v);
            NO_SYMBOL
        }
        Err(f) => {
            failed(cx, f);
            FAILED
        }
    }
}
