//! `xs.push(x)` as a statement, `xs` a list in the frame and `x` a local
//! or a constant in a register (Othello's `run.push(c)`): pushed by the
//! `push_reg` helper as the VM's chain pushes it (the step counted, then
//! the push, checked against Rhai's limits), without the VM evaluating
//! the statement. Where `xs` holds no list, the VM runs it as before.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value, types::I64};
use rhai::Position;

use super::super::ir::{Chain, Root, Step, X, XKind};
use super::super::run::Flow;
use super::super::value::V;
use super::Ctx;
use super::emit::Emit;
use super::helpers::{failed, of_register, vm_parts};
use super::types::Ty;

/// What `push_reg` gives where the local holds no list.
const NOT_A_LIST: i64 = 2;

/// The local pushed onto, the value pushed and the push's position,
/// where `x` is such a push.
fn push_of(x: &X) -> Option<(usize, &X, Position)> {
    let XKind::Chain(c) = &x.kind else {
        return None;
    };
    let Chain { root, steps } = &**c;
    match (root, steps.as_slice()) {
        (
            Root::Local(s),
            [
                Step::Method {
                    name,
                    args,
                    closure: None,
                    pos,
                    ..
                },
            ],
        ) if name == "push" && args.len() == 1 && args[0].in_place() => Some((*s, &args[0], *pos)),
        _ => None,
    }
}

impl Emit<'_, '_> {
    /// Statement `x` made by `push_reg` where it is a push of a value in
    /// a register onto a local in the frame: true, else false (nothing
    /// emitted).
    pub(super) fn push_reg(&mut self, x: &X) -> bool {
        let Some((s, a, _)) = push_of(x) else {
            return false;
        };
        if self.typed.reg(s).is_some() {
            return false;
        }
        // The statement is the VM's (types.rs typed nothing in it): its
        // value is a local's register or a constant.
        let (t, v): (Ty, Value) = match &a.kind {
            XKind::Local(k) => match self.typed.reg(*k) {
                Some(t @ (Ty::Int | Ty::Bool | Ty::Sym | Ty::Unit)) => {
                    (t, self.b.use_var(self.vars[*k]))
                }
                _ => return false,
            },
            XKind::Const(V::Int(n)) => (Ty::Int, self.b.ins().iconst(I64, *n)),
            XKind::Const(V::Bool(b)) => (Ty::Bool, self.b.ins().iconst(I64, i64::from(*b))),
            XKind::Const(V::Sym(n)) => (Ty::Sym, self.b.ins().iconst(I64, i64::from(*n))),
            XKind::Const(V::Unit) => (Ty::Sym, self.b.ins().iconst(I64, super::emit::UNIT)),
            _ => return false,
        };
        let t = if t == Ty::Unit { Ty::Sym } else { t };
        let u = self.unit_x(x);
        let t = self.b.ins().iconst(I64, t as i64);
        let r = self.helper(self.refs.push_reg, &[u, t, v]);
        let bad = self.b.ins().icmp_imm_s(IntCC::Equal, r, 1);
        self.fail_to_err(bad);
        let (slow, join) = (self.b.create_block(), self.b.create_block());
        let other = self.b.ins().icmp_imm_s(IntCC::Equal, r, NOT_A_LIST);
        self.b.ins().brif(other, slow, &[], join, &[]);
        self.b.set_cold_block(slow);
        self.go(slow);
        // Nothing counted yet: the VM runs the statement whole (its
        // argument read again where it is, a local or a constant).
        self.spill_x(x);
        let d = self.b.ins().iconst(I64, -1);
        let r = self.helper(self.refs.eval, &[u, d]);
        self.fail_to_err(r);
        self.b.ins().jump(join, &[]);
        self.go(join);
        true
    }
}

/// Push statement `x` (of the units) of the value `v`, of type code `t`:
/// 0, or 1 on an error (kept), or `NOT_A_LIST` (nothing counted).
pub(super) extern "C" fn push_reg(ctx: *mut Ctx, x: i64, t: i64, v: i64) -> i64 {
    // SAFETY: called only by native code, with its context.
    let (cx, vm) = unsafe { vm_parts(ctx) };
    // SAFETY: the units point into the VM's forms, alive and unchanged
    // while the native code is.
    let x = unsafe { &*cx.jit().units.xs[x as usize] };
    let Some((s, _, pos)) = push_of(x) else {
        return NOT_A_LIST;
    };
    if !matches!(vm.local(s), V::List(_)) {
        return NOT_A_LIST;
    }
    // As the VM's chain: the step counted, then the push (its argument
    // would be above the frame's top, where no kept push is).
    if let Err(e) = vm.run.track(Position::NONE) {
        return failed(cx, Flow::Err(e));
    }
    let top = vm.stack.len();
    vm.forget_from(top);
    let at = vm.base + s;
    match vm.push_local(at, of_register(Ty::of_code(t), v), pos) {
        Ok(()) => 0,
        Err(e) => failed(cx, Flow::Err(e)),
    }
}
