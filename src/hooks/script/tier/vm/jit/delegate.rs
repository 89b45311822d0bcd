//! What native code hands the VM (emit.rs): a condition that is no
//! truth value in a register, an expression or a statement on a value in
//! the frame, a `for` over a value the VM makes. The locals in registers
//! the unit reads are written to the frame first, and the count is
//! written back before and read again after, as around a call.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{FuncRef, InstBuilder, Value, types::I64};
use rhai::Position;

use super::super::api_regs::{Kind, Regs, regs};
use super::super::ir::*;
use super::super::value::V;
use super::emit::{Emit, Want};
use super::types::Ty;
use super::walk::{walk_s, walk_x, writes};
use super::{ApiUnit, Arg};

impl Emit<'_, '_> {
    /// A condition: a truth value in a register, or the VM's test of a
    /// value it makes (its error where that is no truth value).
    pub(super) fn cond(&mut self, x: &X) -> Value {
        if self.typed.of(x) != Ty::Val {
            return self.expr(x);
        }
        self.spill_x(x);
        let u = self.unit_x(x);
        let r = self.helper(self.refs.truth, &[u]);
        let bad = self.b.ins().icmp_imm_s(IntCC::Equal, r, 2);
        self.fail_to_err(bad);
        r
    }

    /// Expression `x`'s value put in slot `k` of the frame.
    pub(super) fn put_value(&mut self, x: &X, k: usize) {
        if self.typed.of(x) == Ty::Val {
            self.delegated(x, k as i64);
            return;
        }
        let t = self.reg_ty(x);
        let v = self.expr(x);
        self.put(k, t, v);
    }

    /// A value in a register written to slot `k` of the frame as the VM
    /// holds it.
    pub(super) fn put(&mut self, k: usize, t: Ty, v: Value) {
        let (k, tag) = (
            self.b.ins().iconst(I64, k as i64),
            self.b.ins().iconst(I64, t as i64),
        );
        self.b.ins().call(self.refs.put, &[self.ctx, k, tag, v]);
    }

    /// Expression `x` run by the VM, its value put in slot `dest` (or
    /// dropped, at -1): a call by the VM's call, its arguments made here
    /// where types.rs says so (calls.rs).
    pub(super) fn delegated(&mut self, x: &X, dest: i64) {
        if let XKind::Script(ix, args) = &x.kind
            && self.typed.by_vm_call(x)
        {
            self.vm_call(x, *ix, args, dest);
            return;
        }
        // A constant (`let l = [];`): copied into its slot, as the VM
        // reads it, by a helper that neither counts nor fails.
        if let XKind::Const(_) = x.kind {
            if dest >= 0 {
                let u = self.unit_x(x);
                let d = self.b.ins().iconst(I64, dest);
                self.b.ins().call(self.refs.constant, &[self.ctx, u, d]);
            }
            return;
        }
        // `xs.push(x)` of a value in a register (pushes.rs).
        if dest < 0 && self.push_reg(x) {
            return;
        }
        self.spill_x(x);
        let u = self.unit_x(x);
        let d = self.b.ins().iconst(I64, dest);
        let r = self.helper(self.refs.eval, &[u, d]);
        self.fail_to_err(r);
    }

    /// Statement `s` run whole by the VM (which counts it).
    pub(super) fn whole(&mut self, s: &S, want: Want) {
        let mut reads = Vec::new();
        walk_s(s, &mut |k, _| reads.push(k));
        self.spill(reads);
        self.units.ss.push(std::ptr::from_ref(s));
        let u = self.b.ins().iconst(I64, (self.units.ss.len() - 1) as i64);
        let dest = match want {
            Want::Slot(k) => k as i64,
            _ => -1,
        };
        let d = self.b.ins().iconst(I64, dest);
        let r = self.helper(self.refs.exec, &[u, d]);
        self.fail_to_err(r);
    }

    /// `for x in value` where the VM makes the value: its items kept in
    /// a slot of the frame, each put in the loop's variable in turn (as
    /// the VM's `for_loop` runs it).
    pub(super) fn for_items(&mut self, f: &For, pos: Position) {
        let tmp = self.tmp_slot();
        self.spill_x(&f.iter);
        self.units.fors.push(std::ptr::from_ref(f));
        let u = self.b.ins().iconst(I64, (self.units.fors.len() - 1) as i64);
        let t = self.b.ins().iconst(I64, tmp as i64);
        let r = self.helper(self.refs.for_begin, &[u, t]);
        self.fail_to_err(r);
        let i = self.b.declare_var(I64);
        let zero = self.b.ins().iconst(I64, 0);
        self.b.def_var(i, zero);
        let (head, run, next, exit) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().jump(head, &[]);
        self.go(head);
        let n = self.b.use_var(i);
        let (var, counter) = if f.body.is_empty() {
            (-1, -1)
        } else {
            (f.var as i64, f.counter.map_or(-1, |c| c as i64))
        };
        let (t, var, counter) = (
            self.b.ins().iconst(I64, tmp as i64),
            self.b.ins().iconst(I64, var),
            self.b.ins().iconst(I64, counter),
        );
        let c = self
            .b
            .ins()
            .call(self.refs.for_next, &[self.ctx, u, t, n, var, counter]);
        let more = self.b.inst_results(c)[0];
        self.b.ins().brif(more, run, &[], exit, &[]);
        self.go(run);
        if f.body.is_empty() {
            self.track(pos);
        } else {
            self.in_loop(&f.body, next, exit);
        }
        if !self.dead {
            self.b.ins().jump(next, &[]);
        }
        self.go(next);
        let n = self.b.use_var(i);
        let n1 = self.b.ins().iadd_imm_s(n, 1);
        self.b.def_var(i, n1);
        self.b.ins().jump(head, &[]);
        self.go(exit);
    }

    /// API call `x` (on `args`) by its typed entry point, as the VM
    /// calls it: the arguments in registers handed over as they are, the
    /// others made by the VM, in the order written (by the helper itself
    /// where the ones in registers are locals or constants, which nothing
    /// can change; else in slots of the frame first); its value of the
    /// type types.rs's table gives it.
    pub(super) fn api(&mut self, x: &X, args: &[X], first_local: Option<usize>) -> Value {
        let mut tags = Vec::with_capacity(args.len());
        let mut vals = Vec::with_capacity(args.len());
        // A template's part is made in a register, in the arguments' order.
        let by_helper = (args.iter())
            .all(|a| (self.typed.of(a) == Ty::Val && self.named(a).is_none()) || a.in_place());
        for (i, a) in args.iter().enumerate() {
            let t = self.typed.of(a);
            // A template the helper makes may count or fail where its
            // table has no symbol (its text built): only after arguments
            // that do neither (locals, constants), as the VM makes it.
            let rest_read = args[i + 1..].iter().all(X::in_place);
            if let Some((n, part, pt)) = self.named(a).filter(|_| rest_read) {
                tags.push(Arg::Named(std::ptr::from_ref(n), pt));
                vals.push(self.expr(part));
                continue;
            }
            // A local in the frame is read there by the helper, after the
            // arguments after it are made: where none of them writes it
            // (an item, counted as it is read, only where the helper makes
            // every argument in order).
            let read_there = |arg: &Arg| match arg {
                Arg::Frame(k) => by_helper || !writes(&args[i + 1..], *k),
                Arg::NamedFrame(..) => by_helper || rest_read,
                _ => by_helper,
            };
            if let Some(item) = self
                .in_frame(a)
                .filter(|arg| t == Ty::Val && read_there(arg))
            {
                tags.push(item);
                vals.push(self.b.ins().iconst(I64, 0));
            } else if t == Ty::Val && by_helper {
                self.spill_x(a);
                tags.push(Arg::Eval);
                vals.push(self.b.ins().iconst(I64, 0));
            } else if t == Ty::Val {
                let k = self.delegated_to_tmp(a);
                tags.push(Arg::Slot);
                vals.push(self.b.ins().iconst(I64, k as i64));
            } else {
                tags.push(Arg::Reg(self.reg_ty(a)));
                vals.push(self.expr(a));
            }
        }
        // A first argument the Rhai form's way reads in the frame
        // (`through_rhai`): a local in a register is written there by the
        // helper where the call may go that way (not before every call).
        let first = first_local
            .and_then(|k| Some((k, self.typed.reg(k)?)))
            .filter(|_| matches!(tags.first(), Some(Arg::Reg(_))));
        if first.is_none() {
            self.spill(first_local.into_iter().collect());
        }
        let argp = self.array(&vals);
        let plain = tags.len() <= super::helpers::PLAIN
            && (tags.iter()).all(|t| {
                matches!(
                    t,
                    Arg::Reg(_)
                        | Arg::Frame(_)
                        | Arg::Item(..)
                        | Arg::Named(..)
                        | Arg::NamedFrame(..)
                )
            });
        let regs = on_regs(x, &tags);
        let reads = regs.and_then(|r| Some((r, super::frame_args::reads(&tags, r)?)));
        let unit = ApiUnit {
            x: std::ptr::from_ref(x),
            ret: self.typed.of(x),
            plain,
            in_regs: tags.iter().all(|t| matches!(t, Arg::Reg(_))),
            first,
            regs,
            pos: x.pos,
            args: tags,
        };
        match reads {
            // Its arguments in the frame read by native code.
            Some((r, reads)) => self.frame_args(unit, r, &reads, argp),
            None => self.api_unit(unit, argp),
        }
    }

    /// An API call's argument that is a template of one computed part in
    /// a register (types.rs typed the part, a local of a number or a
    /// symbol): the template, the part and its type.
    fn named<'x>(&self, a: &'x X) -> Option<(&'x Named, &'x X, Ty)> {
        let XKind::Named(n) = &a.kind else {
            return None;
        };
        let part = n.parts.get(n.var)?;
        match self.typed.of(part) {
            t @ (Ty::Int | Ty::Sym) => Some((n, part, t)),
            _ => None,
        }
    }

    /// An API call's argument the helper reads in the frame itself: a
    /// local there, `xs[i]` of one by a constant number, or a template
    /// of one part that is a local there.
    fn in_frame(&self, a: &X) -> Option<Arg> {
        let in_frame = |s: usize| self.typed.reg(s).is_none();
        match &a.kind {
            XKind::Local(s) | XKind::Move(s) if in_frame(*s) => Some(Arg::Frame(*s)),
            // A template of one part that is a local in the frame.
            XKind::Named(n) => match n.parts.get(n.var).map(|p| &p.kind) {
                Some(XKind::Local(s) | XKind::Move(s)) if in_frame(*s) => {
                    Some(Arg::NamedFrame(std::ptr::from_ref(&**n), *s))
                }
                _ => None,
            },
            XKind::Item(c) => match (&c.root, c.steps.as_slice()) {
                (Root::Local(s), [Step::Index(k, _)]) if in_frame(*s) => match &k.kind {
                    XKind::Const(V::Int(i)) => Some(Arg::Item(*s, *i)),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// Expression `x` as a unit the helpers run, by number.
    pub(super) fn unit_x(&mut self, x: &X) -> Value {
        self.units.xs.push(std::ptr::from_ref(x));
        self.b.ins().iconst(I64, (self.units.xs.len() - 1) as i64)
    }

    /// The locals in registers that `x` reads, written to the frame.
    pub(super) fn spill_x(&mut self, x: &X) {
        let mut reads = Vec::new();
        walk_x(x, &mut |k, _| reads.push(k));
        self.spill(reads);
    }

    pub(super) fn spill(&mut self, mut slots: Vec<usize>) {
        slots.sort_unstable();
        slots.dedup();
        for k in slots {
            if let Some(t) = self.typed.reg(k) {
                let v = self.b.use_var(self.vars[k]);
                self.put(k, t, v);
            }
        }
    }

    /// A helper that may count and fail called on `args` after the
    /// context: the count written back before, read again after.
    pub(super) fn helper(&mut self, f: FuncRef, args: &[Value]) -> Value {
        self.save_count();
        let mut all = vec![self.ctx];
        all.extend_from_slice(args);
        let c = self.b.ins().call(f, &all);
        let r = self.b.inst_results(c)[0];
        self.load_count();
        r
    }

    /// To the way out on an error where `bad` (the helper kept it).
    pub(super) fn fail_to_err(&mut self, bad: Value) {
        let on = self.b.create_block();
        self.b.ins().brif(bad, self.err, &[], on, &[]);
        self.b.switch_to_block(on);
    }
}

/// The form on registers of API call `x` where every argument is where
/// it can take it: in a register of its parameter's type (a symbol's
/// register may hold `()`, which the form refuses; a register of `()`
/// alone goes the general way), read in the frame by the helper (and of
/// its type there, else the helper's other way), or a template's symbol
/// the helper makes by its table.
fn on_regs(x: &X, tags: &[Arg]) -> Option<&'static Regs> {
    let XKind::Api(a) = &x.kind else { return None };
    let r = a.typed.and(regs(&a.name, a.args.len()))?;
    let fits = |(tag, k): (&Arg, Kind)| {
        matches!(
            (tag, k),
            (Arg::Reg(Ty::Int), Kind::Int)
                | (Arg::Reg(Ty::Sym), Kind::Sym)
                | (Arg::Frame(_) | Arg::Item(..), _)
                | (Arg::Named(..) | Arg::NamedFrame(..), Kind::Sym)
        )
    };
    (tags.len() == r.arity && tags.iter().zip(r.params).all(fits)).then_some(r)
}
