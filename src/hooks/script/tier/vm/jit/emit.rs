//! One function's machine code, through Cranelift, from the VM's form of
//! it and the types types.rs proved: numbers, truth values and symbols
//! in registers (truth values as 0 and 1, symbols as their numbers),
//! every operation counted and every call's level checked as the VM
//! does it (run.rs), and each error made by a helper (helpers.rs) with
//! the VM's own words and position. What is `Val` the VM runs, in the
//! function's frame, through helpers (`delegated`): the locals in
//! registers it reads are written to the frame first.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    AbiParam, Block, BlockArg, FuncRef, InstBuilder, MemFlagsData, Signature, StackSlotData,
    StackSlotKind, Value, types::I64,
};
use cranelift_codegen::isa::TargetFrontendConfig;
use cranelift_frontend::{FunctionBuilder, Variable};
use rhai::Position;

use super::super::ir::*;
use super::super::value::V;
use super::loops::{End, const_items, range};
use super::types::{Ty, Typed};
use super::{CTX_CHECK_AT, CTX_ERR, CTX_LEVEL, CTX_OPS, Positions, Units, helpers};
use crate::hooks::script::MAX_CALL_LEVELS;
use crate::hooks::script::tier::tree::{Bin, Un};

/// Every native function's signature: the context and its arguments (a
/// pointer to them, each 8 bytes), its value (0 where it failed, the
/// error in the context).
pub(super) fn signature(call_conv: cranelift_codegen::isa::CallConv) -> Signature {
    let mut s = Signature::new(call_conv);
    s.params.push(AbiParam::new(I64));
    s.params.push(AbiParam::new(I64));
    s.returns.push(AbiParam::new(I64));
    s
}

/// The helpers and the functions one function calls, as it refers to them.
pub(super) struct Refs {
    pub track: FuncRef,
    pub arith: FuncRef,
    pub levels: FuncRef,
    pub wrap: FuncRef,
    pub eval: FuncRef,
    pub truth: FuncRef,
    pub exec: FuncRef,
    pub put: FuncRef,
    pub for_begin: FuncRef,
    pub for_next: FuncRef,
    pub api: FuncRef,
    pub api_regs: FuncRef,
    pub same: FuncRef,
    pub mixed: FuncRef,
    pub held_op: FuncRef,
    pub call: FuncRef,
    pub template: FuncRef,
    pub constant: FuncRef,
    pub frame_arg: FuncRef,
    pub push_reg: FuncRef,
    /// By the tier's index: the functions it calls.
    pub fns: Vec<Option<FuncRef>>,
}

/// Where a statement's value goes: a register, a slot of the frame, or
/// nowhere.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Want {
    Value,
    Slot(usize),
    Drop,
}

pub(super) struct Emit<'b, 'p> {
    pub b: FunctionBuilder<'b>,
    pub refs: Refs,
    pub positions: &'p mut Positions,
    pub(super) units: &'p mut Units,
    pub(super) typed: &'p Typed,
    /// The frame's slot for a `Val` function's value, then one slot for
    /// each `for` over a value (its items).
    pub(super) ret_slot: usize,
    pub(super) tmps: usize,
    pub(super) ctx: Value,
    ops: Value,
    check_at: Value,
    level: Value,
    /// The run's count and its next check, kept in registers: written
    /// back before anything that reads them (a helper's check, a call,
    /// the way out), read again after a call.
    count: Variable,
    cap: Variable,
    pub(super) vars: Vec<Variable>,
    /// The innermost loop last: where `continue` and `break` go.
    loops: Vec<(Block, Block)>,
    ret: Block,
    pub(super) err: Block,
    /// Whether the block being filled has ended (a jump made): what
    /// follows in the script never runs.
    pub(super) dead: bool,
    tc: TargetFrontendConfig,
    /// What types.rs should have refused and did not (never expected):
    /// the function then has no native code.
    broken: Option<&'static str>,
}

const FLAGS: MemFlagsData = MemFlagsData::trusted();

/// `()` in a register: a symbol's type holds it beside the symbols (as
/// `offset` gives a cell or `()`), so it is no symbol's number.
pub(super) use super::super::api_regs::UNIT;

/// The condition of comparison `op` on numbers (and on truth values and
/// symbols, `==` and `!=`), None for any other operator.
pub(super) fn compare_cc(op: Bin) -> Option<IntCC> {
    Some(match op {
        Bin::Eq => IntCC::Equal,
        Bin::Ne => IntCC::NotEqual,
        Bin::Lt => IntCC::SignedLessThan,
        Bin::Le => IntCC::SignedLessThanOrEqual,
        Bin::Gt => IntCC::SignedGreaterThan,
        Bin::Ge => IntCC::SignedGreaterThanOrEqual,
        _ => return None,
    })
}

impl<'b, 'p> Emit<'b, 'p> {
    /// Start `code`'s function: its parameters read into their locals,
    /// every other local 0 (each is set before it is read).
    pub fn new(
        mut b: FunctionBuilder<'b>,
        refs: Refs,
        positions: &'p mut Positions,
        units: &'p mut Units,
        typed: &'p Typed,
        ret_slot: usize,
        tc: TargetFrontendConfig,
    ) -> Self {
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        b.seal_block(entry);
        let (ctx, args) = (b.block_params(entry)[0], b.block_params(entry)[1]);
        let ops = b.ins().load(I64, FLAGS, ctx, CTX_OPS);
        let check_at = b.ins().load(I64, FLAGS, ctx, CTX_CHECK_AT);
        let level = b.ins().load(I64, FLAGS, ctx, CTX_LEVEL);
        let mut vars = Vec::with_capacity(typed.slots.len());
        for (i, _) in typed.slots.iter().enumerate() {
            let v = b.declare_var(I64);
            let init = match typed.sig.params.get(i) {
                Some(Some(t)) if *t != Ty::Val => b.ins().load(I64, FLAGS, args, (8 * i) as i32),
                _ => b.ins().iconst(I64, 0),
            };
            b.def_var(v, init);
            vars.push(v);
        }
        let (count, cap) = (b.declare_var(I64), b.declare_var(I64));
        let n = b.ins().load(I64, FLAGS, ops, 0);
        b.def_var(count, n);
        let at = b.ins().load(I64, FLAGS, check_at, 0);
        b.def_var(cap, at);
        let ret = b.create_block();
        b.append_block_param(ret, I64);
        let err = b.create_block();
        Emit {
            count,
            cap,
            b,
            refs,
            positions,
            units,
            typed,
            ret_slot,
            tmps: 0,
            ctx,
            ops,
            check_at,
            level,
            vars,
            loops: Vec::new(),
            ret,
            err,
            dead: false,
            tc,
            broken: None,
        }
    }

    /// The body, then the way out and the way out on an error: the
    /// frame's size (its slots with the value's and the loops'), or what
    /// types.rs missed.
    pub fn finish(mut self, body: &[S]) -> Result<usize, &'static str> {
        let want = if self.typed.sig.ret == Ty::Val {
            Want::Slot(self.ret_slot)
        } else {
            Want::Value
        };
        let v = self.block(body, want);
        if !self.dead {
            let v = v.unwrap_or_else(|| self.b.ins().iconst(I64, UNIT));
            self.b.ins().jump(self.ret, &[BlockArg::from(v)]);
        }
        self.b.switch_to_block(self.ret);
        self.save_count();
        let v = self.b.block_params(self.ret)[0];
        self.b.ins().return_(&[v]);
        self.b.switch_to_block(self.err);
        self.save_count();
        let zero = self.b.ins().iconst(I64, 0);
        self.b.ins().return_(&[zero]);
        self.b.seal_all_blocks();
        self.b.finalize(self.tc);
        let slots = self.ret_slot + 1 + self.tmps;
        self.broken.map_or(Ok(slots), Err)
    }

    /// A slot of the frame of its own (after the value's), for a value
    /// native code hands the VM or the VM hands it.
    pub(super) fn tmp_slot(&mut self) -> usize {
        self.tmps += 1;
        self.ret_slot + self.tmps
    }

    /// Expression `x` made by the VM into a slot of its own: that slot.
    pub(super) fn delegated_to_tmp(&mut self, x: &X) -> usize {
        let k = self.tmp_slot();
        self.delegated(x, k as i64);
        k
    }

    /// Note what types.rs should have refused; a value to go on with.
    fn broken(&mut self, why: &'static str) -> Value {
        self.broken.get_or_insert(why);
        self.b.ins().iconst(I64, 0)
    }

    fn pos(&mut self, p: Position) -> i64 {
        self.positions.push(p);
        (self.positions.len() - 1) as i64
    }

    /// Go on in a new block (after a jump, or at a join).
    pub(super) fn go(&mut self, to: Block) {
        self.b.switch_to_block(to);
        self.dead = false;
    }

    /// An operation counted, as `Run::track` counts it: the count's
    /// check past the limit or at a multiple of 256 made by the helper.
    pub(super) fn track(&mut self, pos: Position) {
        self.track_to(pos, self.err);
    }

    /// The statements of a block: its last one's value where wanted in
    /// a register, if it has one.
    fn block(&mut self, b: &[S], want: Want) -> Option<Value> {
        let mut last = None;
        for (i, s) in b.iter().enumerate() {
            if self.dead {
                break;
            }
            last = self.stmt(s, if i + 1 == b.len() { want } else { Want::Drop });
        }
        last
    }

    fn stmt(&mut self, s: &S, want: Want) -> Option<Value> {
        if self.typed.is_whole(s) {
            // The VM's `stmt` counts it.
            self.whole(s, want);
            return None;
        }
        self.track(s.pos);
        match &s.kind {
            SKind::Noop | SKind::Counted => None,
            SKind::Expr(x) => match want {
                Want::Slot(k) => {
                    self.put_value(x, k);
                    None
                }
                Want::Drop if self.typed.of(x) == Ty::Val => {
                    self.delegated(x, -1);
                    None
                }
                _ => Some(self.expr(x)),
            },
            SKind::Block(b) => self.block(b, want),
            SKind::Let(slot, x) | SKind::Assign(slot, x) => {
                if self.typed.reg(*slot).is_some() {
                    let v = self.expr(x);
                    self.b.def_var(self.vars[*slot], v);
                } else {
                    self.put_value(x, *slot);
                }
                None
            }
            SKind::OpAssign(x) => {
                let (slot, op, value, op_pos, _) = &**x;
                if self.typed.reg(*slot).is_none() {
                    self.held_op(s, value);
                    return None;
                }
                let v = self.expr(value);
                let a = self.b.use_var(self.vars[*slot]);
                let r = self.arith(*op, a, v, *op_pos);
                self.b.def_var(self.vars[*slot], r);
                None
            }
            SKind::If(x) => {
                let (c, then, other) = &**x;
                let c = self.cond(c);
                let (bt, be, join) = (
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                );
                let out = self.b.append_block_param(join, I64);
                self.b.ins().brif(c, bt, &[], be, &[]);
                let mut joined = false;
                for (blk, body) in [(bt, then), (be, other)] {
                    self.go(blk);
                    let v = self.block(body, want);
                    if !self.dead {
                        let v = v.unwrap_or_else(|| self.b.ins().iconst(I64, UNIT));
                        self.b.ins().jump(join, &[BlockArg::from(v)]);
                        joined = true;
                    }
                }
                if joined {
                    self.go(join);
                    Some(out)
                } else {
                    self.dead = true;
                    None
                }
            }
            SKind::While(guard, body) => {
                self.while_loop(guard.as_ref(), body, s.pos);
                None
            }
            SKind::Do(body, cond, until) => {
                self.do_loop(body, cond, *until, s.pos);
                None
            }
            SKind::For(f) if self.typed.of(&f.iter) == Ty::Val => {
                self.for_items(f, s.pos);
                None
            }
            SKind::For(f) => {
                self.for_range(f, s.pos);
                None
            }
            SKind::Break | SKind::Continue => {
                let Some(&(next, exit)) = self.loops.last() else {
                    self.broken("a `break` outside a loop");
                    return None;
                };
                let to = if matches!(s.kind, SKind::Break) {
                    exit
                } else {
                    next
                };
                self.b.ins().jump(to, &[]);
                self.dead = true;
                None
            }
            SKind::Return(x) => {
                let v = match x {
                    Some(x) if self.typed.sig.ret == Ty::Val => {
                        self.put_value(x, self.ret_slot);
                        self.b.ins().iconst(I64, 0)
                    }
                    Some(x) => self.expr(x),
                    None => self.b.ins().iconst(I64, UNIT),
                };
                if !self.dead {
                    self.b.ins().jump(self.ret, &[BlockArg::from(v)]);
                }
                self.dead = true;
                None
            }
            SKind::SetPart(_) | SKind::Switch(_) | SKind::Throw(_) => {
                Some(self.broken("a statement it does not compile"))
            }
        }
    }

    /// `while guard { body }` (`loop` where it has no guard), an
    /// empty body one operation a round.
    fn while_loop(&mut self, guard: Option<&X>, body: &[S], pos: Position) {
        let (head, run, exit) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().jump(head, &[]);
        self.go(head);
        match guard {
            Some(g) => {
                let c = self.cond(g);
                self.b.ins().brif(c, run, &[], exit, &[]);
            }
            None => {
                self.b.ins().jump(run, &[]);
            }
        }
        self.go(run);
        if body.is_empty() {
            self.track(pos);
        } else {
            self.in_loop(body, head, exit);
        }
        if !self.dead {
            self.b.ins().jump(head, &[]);
        }
        self.go(exit);
    }

    /// `do { body } while cond` (`until cond`).
    fn do_loop(&mut self, body: &[S], cond: &X, until: bool, pos: Position) {
        let (run, test, exit) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().jump(run, &[]);
        self.go(run);
        if body.is_empty() {
            self.track(pos);
        }
        // As Rhai runs it: `continue` starts the body again, the
        // condition not tested.
        self.in_loop(body, run, exit);
        if !self.dead {
            self.b.ins().jump(test, &[]);
        }
        self.go(test);
        let c = self.cond(cond);
        // Out when the condition is `until`: `do .. until c` ends
        // on true, `do .. while c` on false.
        if until {
            self.b.ins().brif(c, exit, &[], run, &[]);
        } else {
            self.b.ins().brif(c, run, &[], exit, &[]);
        }
        self.go(exit);
    }

    pub(super) fn in_loop(&mut self, body: &[S], next: Block, exit: Block) {
        self.loops.push((next, exit));
        self.block(body, Want::Drop);
        self.loops.pop();
    }

    /// `for x in a..b` (`..=b`), as the VM's `for_items` runs a range:
    /// its ends evaluated once, the counter set before the variable, an
    /// empty body one operation a round. Over a constant list of plain
    /// values (`const_items`), the same over its indexes, each item read
    /// from a table the code keeps.
    fn for_range(&mut self, f: &For, pos: Position) {
        let (inclusive, from, to, table) = if let Some((_, items)) = const_items(&f.iter) {
            let n = self.b.ins().iconst(I64, items.len() as i64);
            let table: Box<[i64]> = items.into();
            let at = self.b.ins().iconst(I64, table.as_ptr() as i64);
            self.units.tables.push(table);
            (false, self.b.ins().iconst(I64, 0), n, Some(at))
        } else if let Some((inclusive, a, b)) = range(&f.iter) {
            let mut end = |e| match e {
                End::X(x) => self.expr(x),
                End::N(n) => self.b.ins().iconst(I64, n),
            };
            let (from, to) = (end(a), end(b));
            (inclusive, from, to, None)
        } else {
            self.broken("a `for` over anything but a range or a constant list");
            return;
        };
        let i = self.b.declare_var(I64);
        let k = self.b.declare_var(I64);
        self.b.def_var(i, from);
        let zero = self.b.ins().iconst(I64, 0);
        self.b.def_var(k, zero);
        let (head, run, next, exit) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        // `a..=b` ends after b (never past it, where b is the largest
        // number): the test is made before the step.
        let first = if inclusive {
            self.b.ins().icmp(IntCC::SignedLessThanOrEqual, from, to)
        } else {
            self.b.ins().icmp(IntCC::SignedLessThan, from, to)
        };
        self.b.ins().brif(first, head, &[], exit, &[]);
        self.go(head);
        let mut x = self.b.use_var(i);
        if let Some(at) = table {
            // In bounds: `i` runs over the table's indexes, and the table
            // lives as long as the code (`Units::tables`).
            let off = self.b.ins().ishl_imm_u(x, 3);
            let addr = self.b.ins().iadd(at, off);
            x = self.b.ins().load(I64, FLAGS, addr, 0);
        }
        if f.body.is_empty() {
            self.track(pos);
        } else {
            // In registers, or in the frame where the body makes them
            // `Val` (`for i in 0..n { i = "x"; }`).
            if let Some(c) = f.counter {
                let n = self.b.use_var(k);
                self.set_local(c, n);
            }
            self.set_local(f.var, x);
        }
        self.b.ins().jump(run, &[]);
        self.go(run);
        if !f.body.is_empty() {
            self.in_loop(&f.body, next, exit);
        }
        if !self.dead {
            self.b.ins().jump(next, &[]);
        }
        self.go(next);
        let x = self.b.use_var(i);
        let more = if inclusive {
            self.b.ins().icmp(IntCC::SignedLessThan, x, to)
        } else {
            let x1 = self.b.ins().iadd_imm_s(x, 1);
            self.b.ins().icmp(IntCC::SignedLessThan, x1, to)
        };
        let x1 = self.b.ins().iadd_imm_s(x, 1);
        self.b.def_var(i, x1);
        let n = self.b.use_var(k);
        let n1 = self.b.ins().iadd_imm_s(n, 1);
        self.b.def_var(k, n1);
        self.b.ins().brif(more, head, &[], exit, &[]);
        self.go(exit);
    }

    pub(super) fn expr(&mut self, x: &X) -> Value {
        if self.typed.of(x) == Ty::Val {
            return self.broken("a value the VM holds, read in a register");
        }
        match &x.kind {
            XKind::Const(V::Int(n)) => self.b.ins().iconst(I64, *n),
            XKind::Const(V::Bool(t)) => self.b.ins().iconst(I64, i64::from(*t)),
            XKind::Const(V::Sym(s)) => self.b.ins().iconst(I64, i64::from(*s)),
            XKind::Const(_) => self.b.ins().iconst(I64, UNIT),
            XKind::Local(s) | XKind::Move(s) if self.typed.reg(*s).is_some() => {
                self.b.use_var(self.vars[*s])
            }
            XKind::Binary(b) | XKind::Simple(b) => {
                let (op, a, c, _) = &**b;
                if let Some(v) = self.template_cmp(*op, a, c) {
                    return v;
                }
                if self.typed.of(a) == Ty::Val || self.typed.of(c) == Ty::Val {
                    return self.mixed(x, *op, a, c);
                }
                let (a, c) = (self.expr(a), self.expr(c));
                self.arith(*op, a, c, x.pos)
            }
            XKind::Unary(u) => {
                let (op, a, _) = &**u;
                let a = self.expr(a);
                match op {
                    Un::Not => {
                        let z = self.b.ins().icmp_imm_s(IntCC::Equal, a, 0);
                        self.b.ins().uextend(I64, z)
                    }
                    Un::Neg => {
                        let bad = self.b.ins().icmp_imm_s(IntCC::Equal, a, i64::MIN);
                        self.fail_if(bad, helpers::NEG, a, a, x.pos);
                        self.b.ins().ineg(a)
                    }
                }
            }
            XKind::And(xs) | XKind::Or(xs) => {
                let and = matches!(x.kind, XKind::And(_));
                let join = self.b.create_block();
                let out = self.b.append_block_param(join, I64);
                let short = self.b.ins().iconst(I64, i64::from(!and));
                for e in xs {
                    let c = self.expr(e);
                    let next = self.b.create_block();
                    if and {
                        self.b
                            .ins()
                            .brif(c, next, &[], join, &[BlockArg::from(short)]);
                    } else {
                        self.b
                            .ins()
                            .brif(c, join, &[BlockArg::from(short)], next, &[]);
                    }
                    self.go(next);
                }
                let all = self.b.ins().iconst(I64, i64::from(and));
                self.b.ins().jump(join, &[BlockArg::from(all)]);
                self.go(join);
                out
            }
            // (A `Val` call never reaches here: the check above.)
            XKind::Script(ix, args) if self.typed.by_vm_call(x) => self.vm_call(x, *ix, args, -1),
            XKind::Script(ix, args) if self.typed.of(x) != Ty::Val => self.call(*ix, args, x.pos),
            XKind::Api(a) => self.api(x, &a.args, a.first_local),
            XKind::Block(b) => match self.block(b, Want::Value) {
                Some(v) => v,
                None => self.b.ins().iconst(I64, UNIT),
            },
            _ => self.broken("an expression it does not compile"),
        }
    }

    /// The type `x`'s value has in a register: a local's, its register's
    /// (`()` where it has none: such a local is never read into one).
    pub(super) fn reg_ty(&self, x: &X) -> Ty {
        match &x.kind {
            XKind::Local(s) | XKind::Move(s) => self.typed.reg(*s).unwrap_or(Ty::Unit),
            _ => self.typed.of(x),
        }
    }

    /// `a op c` on numbers (or on truth values, `==` and `!=`), an
    /// overflow or a division by zero an error as `int_op` words it.
    fn arith(&mut self, op: Bin, a: Value, c: Value, pos: Position) -> Value {
        if let Some(cc) = compare_cc(op) {
            let t = self.b.ins().icmp(cc, a, c);
            return self.b.ins().uextend(I64, t);
        }
        let code = helpers::op_code(op);
        match op {
            Bin::Add | Bin::Sub | Bin::Mul => {
                let (r, over) = match op {
                    Bin::Add => self.b.ins().sadd_overflow(a, c),
                    Bin::Sub => self.b.ins().ssub_overflow(a, c),
                    _ => self.b.ins().smul_overflow(a, c),
                };
                self.fail_if(over, code, a, c, pos);
                r
            }
            _ => {
                // `/` and `%`: by 0, or the smallest number by -1.
                let zero = self.b.ins().icmp_imm_s(IntCC::Equal, c, 0);
                let min = self.b.ins().icmp_imm_s(IntCC::Equal, a, i64::MIN);
                let minus = self.b.ins().icmp_imm_s(IntCC::Equal, c, -1);
                let both = self.b.ins().band(min, minus);
                let bad = self.b.ins().bor(zero, both);
                self.fail_if(bad, code, a, c, pos);
                if op == Bin::Div {
                    self.b.ins().sdiv(a, c)
                } else {
                    self.b.ins().srem(a, c)
                }
            }
        }
    }

    /// Where `bad`, the error of operation `code` on `a` and `c` at `pos`.
    fn fail_if(&mut self, bad: Value, code: i64, a: Value, c: Value, pos: Position) {
        let (slow, on) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(bad, slow, &[], on, &[]);
        self.b.set_cold_block(slow);
        self.b.switch_to_block(slow);
        let p = self.pos(pos);
        let (code, p) = (self.b.ins().iconst(I64, code), self.b.ins().iconst(I64, p));
        self.b
            .ins()
            .call(self.refs.arith, &[self.ctx, code, a, c, p]);
        self.b.ins().jump(self.err, &[]);
        self.b.switch_to_block(on);
    }

    /// Local `slot` set to a number: its register, or its slot in the
    /// frame.
    fn set_local(&mut self, slot: usize, v: Value) {
        if self.typed.reg(slot).is_some() {
            self.b.def_var(self.vars[slot], v);
        } else {
            self.put(slot, Ty::Int, v);
        }
    }

    /// `vals` in an array on the native stack: its address (what a call
    /// of a function or a helper takes its arguments by).
    pub(super) fn array(&mut self, vals: &[Value]) -> Value {
        let slot = self.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            (8 * vals.len().max(1)) as u32,
            3,
        ));
        for (i, v) in vals.iter().enumerate() {
            self.b.ins().stack_store(I64, *v, slot, (8 * i) as i32);
        }
        self.b.ins().stack_addr(I64, slot, 0)
    }

    /// A call of compiled function `ix`, as `call_pushed` makes it: the
    /// arguments, then the level up, the call counted, the levels'
    /// limit; an error in it wrapped as Rhai wraps a function's.
    fn call(&mut self, ix: usize, args: &[X], pos: Position) -> Value {
        let vals: Vec<Value> = args.iter().map(|a| self.expr(a)).collect();
        let argp = self.array(&vals);
        let l = self.b.ins().load(I64, FLAGS, self.level, 0);
        let up = self.b.ins().iadd_imm_s(l, 1);
        self.b.ins().store(FLAGS, up, self.level, 0);
        // A failed count or level check: the level back, no wrapping.
        let (back, on) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(back);
        self.track_to(pos, back);
        let deep =
            self.b
                .ins()
                .icmp_imm_s(IntCC::UnsignedGreaterThan, up, (MAX_CALL_LEVELS + 1) as i64);
        let (over, call) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(deep, over, &[], call, &[]);
        self.b.set_cold_block(over);
        self.b.switch_to_block(over);
        let p = self.pos(pos);
        let p = self.b.ins().iconst(I64, p);
        self.b.ins().call(self.refs.levels, &[self.ctx, p]);
        self.b.ins().jump(back, &[]);
        self.b.switch_to_block(back);
        self.b.ins().store(FLAGS, l, self.level, 0);
        self.b.ins().jump(self.err, &[]);
        self.b.switch_to_block(call);
        let Some(f) = self.refs.fns.get(ix).copied().flatten() else {
            return self.broken("a call of a function with no native code");
        };
        self.save_count();
        let c = self.b.ins().call(f, &[self.ctx, argp]);
        let r = self.b.inst_results(c)[0];
        self.load_count();
        self.b.ins().store(FLAGS, l, self.level, 0);
        let e = self.b.ins().load(I64, FLAGS, self.ctx, CTX_ERR);
        let wrap = self.b.create_block();
        self.b.ins().brif(e, wrap, &[], on, &[]);
        self.b.set_cold_block(wrap);
        self.b.switch_to_block(wrap);
        let p = self.pos(pos);
        let (fi, p) = (
            self.b.ins().iconst(I64, ix as i64),
            self.b.ins().iconst(I64, p),
        );
        self.b.ins().call(self.refs.wrap, &[self.ctx, fi, p]);
        self.b.ins().jump(self.err, &[]);
        self.b.switch_to_block(on);
        r
    }

    /// `track`, failing to `to`.
    fn track_to(&mut self, pos: Position, to: Block) {
        let n = self.b.use_var(self.count);
        let n = self.b.ins().iadd_imm_s(n, 1);
        self.b.def_var(self.count, n);
        let at = self.b.use_var(self.cap);
        let rare = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, n, at);
        let (slow, on) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(rare, slow, &[], on, &[]);
        self.b.set_cold_block(slow);
        self.b.switch_to_block(slow);
        self.save_count();
        let p = self.pos(pos);
        let p = self.b.ins().iconst(I64, p);
        let call = self.b.ins().call(self.refs.track, &[self.ctx, p]);
        let failed = self.b.inst_results(call)[0];
        // The check moved the next one.
        let at = self.b.ins().load(I64, FLAGS, self.check_at, 0);
        self.b.def_var(self.cap, at);
        self.b.ins().brif(failed, to, &[], on, &[]);
        self.b.switch_to_block(on);
    }

    /// The count in registers written back to the run.
    pub(super) fn save_count(&mut self) {
        let n = self.b.use_var(self.count);
        self.b.ins().store(FLAGS, n, self.ops, 0);
    }

    /// The count and its next check read again (after a call).
    pub(super) fn load_count(&mut self) {
        let n = self.b.ins().load(I64, FLAGS, self.ops, 0);
        self.b.def_var(self.count, n);
        let at = self.b.ins().load(I64, FLAGS, self.check_at, 0);
        self.b.def_var(self.cap, at);
    }
}
