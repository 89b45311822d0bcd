//! What native code calls: on its rare paths, the count's check and each
//! error made as the VM makes it (run.rs, calls.rs), kept in the context
//! for the code to return through; and the VM's own running of what is
//! done to a value held in the frame (`eval`, `truth`, `exec`, the items
//! of a `for`). None of them panics (a panic cannot cross native frames).

use std::ops::{Range, RangeInclusive};

use rhai::EvalAltResult;

use super::super::api_regs::{MOST, Regs, held};
use super::super::calls::{counted_call, typed_on};
use super::super::ir::{Api, For, XKind};
use super::super::run::{Flow, VmRun, discard, in_function, set};
use super::super::value::V;
use super::types::Ty;
use super::{Arg, Ctx};
use crate::hooks::script::tier::builtins::int_op;
use crate::hooks::script::tier::run::{Run, at};
use crate::hooks::script::tier::tree::Bin;

/// `-x` of the smallest number, beside `op_code`'s operators.
pub(super) const NEG: i64 = 5;

/// The code the helper `arith` takes for operator `op` (of those that
/// can fail: `+`, `-`, `*`, `/`, `%`).
pub(super) fn op_code(op: Bin) -> i64 {
    match op {
        Bin::Add => 0,
        Bin::Sub => 1,
        Bin::Mul => 2,
        Bin::Div => 3,
        Bin::Rem => 4,
        // Not reached (emit.rs asks only for those above): no code.
        _ => -1,
    }
}

/// The context, and the run it was made in.
///
/// # Safety
/// `ctx` is the context `Jit::call` made, alive for the native call.
unsafe fn parts<'c>(ctx: *mut Ctx) -> (&'c mut Ctx, &'c mut Run<'c>) {
    // SAFETY: `Jit::call` passes its own context, whose `run` is the run
    // that called it, not touched by anything else while the native
    // code runs (native code reaches it only through this context).
    unsafe {
        let cx = &mut *ctx;
        let run = &mut *cx.run.cast::<Run<'c>>();
        (cx, run)
    }
}

/// The count reached its next check (`Run::track_rare`): 1 where it
/// stops the run, the error kept.
pub(super) extern "C" fn track(ctx: *mut Ctx, pos: i64) -> i64 {
    // SAFETY: called only by native code, with its context.
    let (cx, run) = unsafe { parts(ctx) };
    let pos = cx.position(pos);
    match run.track_rare(pos) {
        Ok(()) => 0,
        Err(e) => {
            cx.err = Some(e);
            1
        }
    }
}

/// Operation `code` overflowed on `a` and `b` (or divided by 0): its
/// error as `int_op` words it, at `pos`.
pub(super) extern "C" fn arith(ctx: *mut Ctx, code: i64, a: i64, b: i64, pos: i64) {
    // SAFETY: called only by native code, with its context.
    let (cx, _) = unsafe { parts(ctx) };
    let pos = cx.position(pos);
    let op = match code {
        0 => Bin::Add,
        1 => Bin::Sub,
        2 => Bin::Mul,
        3 => Bin::Div,
        4 => Bin::Rem,
        _ => Bin::Other,
    };
    let e = match (code, int_op(op, a, b)) {
        (NEG, _) => EvalAltResult::ErrorArithmetic("integer overflow".into(), pos).into(),
        (_, Some(Err(e))) => at(e, pos),
        // Not reached: the code calls this only where `int_op` fails.
        _ => EvalAltResult::ErrorArithmetic(format!("{a} {op:?} {b}"), pos).into(),
    };
    cx.err = Some(e);
}

/// A call past the levels' limit.
pub(super) extern "C" fn levels(ctx: *mut Ctx, pos: i64) {
    // SAFETY: called only by native code, with its context.
    let (cx, _) = unsafe { parts(ctx) };
    let pos = cx.position(pos);
    cx.err = Some(EvalAltResult::ErrorStackOverflow(pos).into());
}

/// An error in function `f` called at `pos`, wrapped as Rhai wraps it.
pub(super) extern "C" fn wrap(ctx: *mut Ctx, f: i64, pos: i64) {
    // SAFETY: called only by native code, with its context.
    let (cx, _) = unsafe { parts(ctx) };
    let pos = cx.position(pos);
    if let Some(e) = cx.err.take() {
        cx.err = Some(in_function(cx.name(f), e, pos));
    }
}

/// The context, and the VM's run it was made in.
///
/// # Safety
/// As `parts`.
pub(super) unsafe fn vm_parts<'c>(ctx: *mut Ctx) -> (&'c mut Ctx, &'c mut VmRun<'c, 'c>) {
    // SAFETY: as `parts`: `vm` is the VM's run that called the native
    // code, reached only through this context while it runs.
    unsafe {
        let cx = &mut *ctx;
        let vm = &mut *cx.vm.cast::<VmRun<'c, 'c>>();
        (cx, vm)
    }
}

/// A unit's failure kept for the native code: 1.
#[cold]
#[inline(never)]
pub(super) fn failed(cx: &mut Ctx, f: Flow) -> i64 {
    cx.err = Some(match f {
        Flow::Err(e) => e,
        // types.rs gives the VM no unit with a jump out of it.
        _ => EvalAltResult::ErrorRuntime(
            "a jump out of what native code hands the VM".into(),
            rhai::Position::NONE,
        )
        .into(),
    });
    1
}

/// A value put in slot `dest` of the frame (dropped at -1).
pub(super) fn keep(vm: &mut VmRun<'_, '_>, dest: i64, v: V) {
    match usize::try_from(dest) {
        Ok(k) => set(vm.slot(k), v),
        Err(_) => discard(v),
    }
}

/// Expression `x` (of the units) run by the VM in the frame, its value
/// put in slot `dest`: 0, or 1 on an error.
pub(super) extern "C" fn eval(ctx: *mut Ctx, x: i64, dest: i64) -> i64 {
    // SAFETY: called only by native code, with its context.
    let (cx, vm) = unsafe { vm_parts(ctx) };
    // SAFETY: the units point into the VM's forms, alive and unchanged
    // while the native code is.
    let x = unsafe { &*cx.jit().units.xs[x as usize] };
    match vm.expr(x) {
        Ok(v) => {
            keep(vm, dest, v);
            0
        }
        Err(f) => failed(cx, f),
    }
}

/// Constant `x` (of the units) put in slot `dest` as the VM reads it (a
/// copy): nothing is counted, nothing can fail.
pub(super) extern "C" fn put_constant(ctx: *mut Ctx, x: i64, dest: i64) {
    // SAFETY: as `eval`.
    let (cx, vm) = unsafe { vm_parts(ctx) };
    let x = unsafe { &*cx.jit().units.xs[x as usize] };
    match &x.kind {
        // `let l = [];`: no call to clone nothing.
        XKind::Const(V::List(l)) if l.is_empty() => keep(vm, dest, V::List(Vec::new())),
        XKind::Const(v) => keep(vm, dest, v.copy()),
        _ => {}
    }
}

/// Condition `x` tested by the VM: 0 or 1, or 2 on an error (not a truth
/// value, as the VM says it).
pub(super) extern "C" fn truth(ctx: *mut Ctx, x: i64) -> i64 {
    // SAFETY: as `eval`.
    let (cx, vm) = unsafe { vm_parts(ctx) };
    let x = unsafe { &*cx.jit().units.xs[x as usize] };
    match vm.truth(x) {
        Ok(b) => i64::from(b),
        Err(f) => 2 * failed(cx, f),
    }
}

/// Statement `s` run by the VM (counted there), its value put in slot
/// `dest`.
pub(super) extern "C" fn exec(ctx: *mut Ctx, s: i64, dest: i64) -> i64 {
    // SAFETY: as `eval`.
    let (cx, vm) = unsafe { vm_parts(ctx) };
    let s = unsafe { &*cx.jit().units.ss[s as usize] };
    match vm.stmt(s) {
        Ok(v) => {
            keep(vm, dest, v);
            0
        }
        Err(f) => failed(cx, f),
    }
}

/// A value in a register put in slot `k` of the frame: `tag` says of
/// which type (`Ty::of_code`).
pub(super) extern "C" fn put(ctx: *mut Ctx, k: i64, tag: i64, v: i64) {
    // SAFETY: as `eval`.
    let (_, vm) = unsafe { vm_parts(ctx) };
    set(vm.slot(k as usize), of_register(Ty::of_code(tag), v));
}

/// A value of type `t` in a register as the VM holds it (`()` for any
/// type not held in one).
pub(super) fn of_register(t: Ty, r: i64) -> V {
    match t {
        Ty::Int => V::Int(r),
        Ty::Bool => V::Bool(r != 0),
        Ty::Sym => sym(r),
        _ => V::Unit,
    }
}

/// The value `for` loop `f` runs over, as the VM's `for_loop` makes it,
/// put in slot `tmp` as its items (a list, or a range of numbers).
pub(super) extern "C" fn for_begin(ctx: *mut Ctx, f: i64, tmp: i64) -> i64 {
    // SAFETY: as `eval`.
    let (cx, vm) = unsafe { vm_parts(ctx) };
    let f = unsafe { &*cx.jit().units.fors[f as usize] };
    match items(vm, f) {
        Ok(v) => {
            set(vm.slot(tmp as usize), v);
            0
        }
        Err(e) => failed(cx, e),
    }
}

/// A constant list a `for` runs over (its items read where they are).
fn constant(f: &For) -> Option<&[V]> {
    match &f.iter.kind {
        XKind::Const(V::List(l)) => Some(l),
        XKind::ConstFn(c) => match &c.value {
            V::List(l) => Some(l),
            _ => None,
        },
        _ => None,
    }
}

fn items(vm: &mut VmRun<'_, '_>, f: &For) -> Result<V, Flow> {
    let v = match &f.iter.kind {
        XKind::ConstFn(c) => {
            vm.const_fn(c, f.iter.pos)?;
            if constant(f).is_some() {
                return Ok(V::Unit);
            }
            c.value.clone()
        }
        _ if constant(f).is_some() => return Ok(V::Unit),
        XKind::Const(v) => v.clone(),
        _ => vm.expr(&f.iter)?,
    };
    Ok(match v {
        V::List(_) => v,
        V::Dyn(d) if d.is::<Range<i64>>() || d.is::<RangeInclusive<i64>>() => V::Dyn(d),
        other => V::List(vm.other_items(other, f.iter.pos)?),
    })
}

/// Item `i` of loop `f`'s items (its constant list, or the items in
/// slot `tmp`) put in the loop's variable `var` (and `i` in its
/// counter), each at -1 where it has none: 1, or 0 where the items have
/// ended.
pub(super) extern "C" fn for_next(
    ctx: *mut Ctx,
    f: i64,
    tmp: i64,
    i: i64,
    var: i64,
    counter: i64,
) -> i64 {
    // SAFETY: as `eval`.
    let (cx, vm) = unsafe { vm_parts(ctx) };
    let f = unsafe { &*cx.jit().units.fors[f as usize] };
    let at = |items: &[V]| {
        usize::try_from(i)
            .ok()
            .and_then(|i| items.get(i))
            .map(V::copy)
    };
    let item = match (constant(f), &mut *vm.slot(tmp as usize)) {
        (Some(items), _) => at(items),
        // The loop's own copy: each item taken, not copied (as the VM's
        // `for_loop` moves them out of the list).
        (None, V::List(items)) => usize::try_from(i)
            .ok()
            .and_then(|i| items.get_mut(i))
            .map(std::mem::take),
        (None, V::Dyn(d)) => {
            if let Some(r) = d.read_lock::<Range<i64>>() {
                r.start.checked_add(i).filter(|n| *n < r.end).map(V::Int)
            } else if let Some(r) = d.read_lock::<RangeInclusive<i64>>() {
                r.start()
                    .checked_add(i)
                    .filter(|n| n <= r.end())
                    .map(V::Int)
            } else {
                None
            }
        }
        (None, _) => None,
    };
    let Some(v) = item else { return 0 };
    if let Ok(c) = usize::try_from(counter) {
        set(vm.slot(c), V::Int(i));
    }
    match usize::try_from(var) {
        Ok(k) => set(vm.slot(k), v),
        Err(_) => discard(v),
    }
    1
}

/// A value the VM holds as a register of type `t` holds it (`()` beside
/// the symbols), None where it is of another type.
#[inline(always)]
pub(super) fn in_register(t: Ty, v: &V) -> Option<i64> {
    Some(match (t, v) {
        (Ty::Int, V::Int(n)) => *n,
        (Ty::Bool, V::Bool(b)) => i64::from(*b),
        (Ty::Sym, V::Sym(s)) => i64::from(*s),
        (Ty::Sym | Ty::Unit, V::Unit) => super::emit::UNIT,
        _ => return None,
    })
}

/// A symbol in a register as the VM holds it (`()` where it is `UNIT`).
pub(super) fn sym(r: i64) -> V {
    u32::try_from(r).map_or(V::Unit, V::Sym)
}

/// API call `unit` (of the units) by its form on registers
/// (`ApiUnit::regs`, where native code calls this), else as `api` makes
/// it. Apart from `api`: this way is short.
pub(super) extern "C" fn api_regs(ctx: *mut Ctx, unit: i64, args: *const i64) -> i64 {
    // SAFETY: as `eval`.
    let (cx, vm) = unsafe { vm_parts(ctx) };
    let u = &cx.jit().units.apis[unit as usize];
    let Some(r) = u.regs else {
        return api(ctx, unit, args);
    };
    if !u.in_regs {
        return read_regs(ctx, unit, args, r);
    }
    // SAFETY: native code passes one value for each argument.
    let regs = unsafe { std::slice::from_raw_parts(args, u.args.len()) };
    let syms = &vm.vm.syms;
    match counted_call(vm.run, u.pos, |cx| (r.f)(cx, syms, regs)) {
        Ok(Some(n)) => {
            super::note_regs();
            n
        }
        Err(f) => failed(cx, f),
        Ok(None) => api(ctx, unit, args),
    }
}

/// `api_regs` where an argument is read in the frame (`Frame`, `Item`)
/// or made by its template's table (`Named`, `NamedFrame`):
/// the call on them where each is of its parameter's kind there and the
/// form takes them, else as `api` makes it (with nothing counted: on a
/// refusal the items' count and the call's are given back).
#[inline(never)]
fn read_regs(ctx: *mut Ctx, unit: i64, args: *const i64, r: &Regs) -> i64 {
    // SAFETY: as `eval`.
    let (cx, vm) = unsafe { vm_parts(ctx) };
    let u = &cx.jit().units.apis[unit as usize];
    let mut regs = [0; MOST];
    let mut items = 0;
    for (i, (tag, k)) in u.args.iter().zip(r.params).enumerate() {
        let read = match *tag {
            // SAFETY: native code passes one value for each argument.
            Arg::Reg(_) => Some(unsafe { *args.add(i) }),
            // `regs` takes a template only where its parameter is a symbol.
            _ => read_arg(vm, *tag, (args, i), &mut items, |v| held(k, v)),
        };
        let Some(n) = read else {
            return api(ctx, unit, args);
        };
        regs[i] = n;
    }
    if let Err(e) = track_items(vm, items) {
        return failed(cx, Flow::Err(e));
    }
    let syms = &vm.vm.syms;
    match counted_call(vm.run, u.pos, |cx| (r.f)(cx, syms, &regs[..u.args.len()])) {
        Ok(Some(n)) => {
            super::note_regs();
            n
        }
        Err(f) => failed(cx, f),
        Ok(None) => {
            // Refused: the items' count given back, for `api`'s ways.
            vm.run.set_ops(vm.run.ops - items);
            api(ctx, unit, args)
        }
    }
}

/// API call `unit` (of the units) on the arguments at `args`, by the
/// VM's way (its typed entry point, else its Rhai form): its value in a
/// register as types.rs's table types it, or the error kept.
#[inline(never)]
pub(super) extern "C" fn api(ctx: *mut Ctx, unit: i64, args: *const i64) -> i64 {
    super::note_general();
    // SAFETY: as `eval`.
    let (cx, vm) = unsafe { vm_parts(ctx) };
    let u = &cx.jit().units.apis[unit as usize];
    // SAFETY: as `eval`'s unit.
    let x = unsafe { &*u.x };
    let XKind::Api(a) = &x.kind else {
        return failed(cx, Flow::Err(unexpected("an API call", x.pos)));
    };
    let r = match plain(vm, u, a, args, x.pos) {
        Some(r) => r,
        None => pushed(vm, u, a, args, x.pos),
    };
    let v = match r {
        Ok(v) => v,
        Err(f) => return failed(cx, f),
    };
    let Some(n) = in_register(u.ret, &v) else {
        discard(v);
        return failed(cx, Flow::Err(unexpected(&a.name, x.pos)));
    };
    discard(v);
    n
}

/// The most arguments `plain` holds (`ApiUnit::plain` says no more).
pub(super) const PLAIN: usize = 4;

/// The call by its typed form on arguments that are all plain values
/// read without the VM (`ApiUnit::plain`), from the helper's own array:
/// None where it is not so (an item that is no plain value, or not
/// there), before anything is counted; else the value, or its error.
#[inline(always)]
fn plain(
    vm: &mut VmRun<'_, '_>,
    u: &super::ApiUnit,
    a: &Api,
    args: *const i64,
    pos: rhai::Position,
) -> Option<Result<V, Flow>> {
    let typed = a.typed.filter(|_| u.plain)?;
    // Only values that own nothing: the array needs no drop.
    let mut vals = std::mem::ManuallyDrop::new([V::Unit, V::Unit, V::Unit, V::Unit]);
    let mut items = 0;
    for (i, tag) in u.args.iter().enumerate() {
        let v = match *tag {
            // SAFETY: native code passes one value for each argument.
            Arg::Reg(t) => of_register(t, unsafe { *args.add(i) }),
            _ => read_arg(vm, *tag, (args, i), &mut items, plain_value)?,
        };
        set(&mut vals[i], v);
    }
    if let Err(e) = track_items(vm, items) {
        return Some(Err(Flow::Err(e)));
    }
    Some(
        match typed_on(vm.run, &vm.vm.syms, typed, &vals[..u.args.len()], pos) {
            Ok(Some(v)) => Ok(v),
            Err(f) => Err(f),
            // The typed form refused them (its count given back): the Rhai
            // form's way.
            Ok(None) => {
                let base = vm.stack.len();
                vm.stack.extend(vals[..u.args.len()].iter().map(V::copy));
                on_stack(vm, u, a, args, (base, pos), false)
            }
        },
    )
}

/// Argument `i` where the helper reads it (`Frame`, `Item`, `Named`,
/// `NamedFrame`; `args[i]` a template's part), as `take` makes it of the
/// value there (`plain`'s copy, `read_regs`' register): None where `take`
/// does not (or it is made otherwise), before anything is counted. Each
/// item read is added to `items`.
#[inline(always)]
fn read_arg<T>(
    vm: &mut VmRun<'_, '_>,
    tag: Arg,
    (args, i): (*const i64, usize),
    items: &mut u64,
    take: impl Fn(&V) -> Option<T>,
) -> Option<T> {
    match tag {
        Arg::Frame(k) => take(vm.local(k)),
        Arg::Item(k, at) => {
            *items += 1;
            let V::List(l) = vm.local(k) else {
                return None;
            };
            take(l.get(super::super::lists::at(l.len(), at)?)?)
        }
        Arg::Named(n, t) => {
            // A register's value owns nothing: no drop to call.
            // SAFETY: native code passes one value for each argument.
            let part = std::mem::ManuallyDrop::new(of_register(t, unsafe { *args.add(i) }));
            // SAFETY: as `eval`'s unit.
            let s = vm.named_sym(unsafe { &*n }, &part)?;
            take(&V::Sym(s))
        }
        Arg::NamedFrame(n, k) => {
            let part = std::mem::ManuallyDrop::new(plain_value(vm.local(k))?);
            // SAFETY: as `eval`'s unit.
            let s = vm.named_sym(unsafe { &*n }, &part)?;
            take(&V::Sym(s))
        }
        _ => None,
    }
}

/// The `items` read counted, each as the VM's `item` counts it.
#[inline(always)]
fn track_items(vm: &mut VmRun<'_, '_>, items: u64) -> Result<(), super::super::run::Error> {
    for _ in 0..items {
        vm.run.track(rhai::Position::NONE)?;
    }
    Ok(())
}

/// A copy of `v` where it owns nothing (one match: `is_plain` then
/// `copy` would be two on this path).
#[inline(always)]
fn plain_value(v: &V) -> Option<V> {
    match *v {
        V::Unit => Some(V::Unit),
        V::Bool(b) => Some(V::Bool(b)),
        V::Int(n) => Some(V::Int(n)),
        V::Sym(s) => Some(V::Sym(s)),
        _ => None,
    }
}

/// The call with its arguments pushed on the VM's stack, each made where
/// its tag says.
fn pushed(
    vm: &mut VmRun<'_, '_>,
    u: &super::ApiUnit,
    a: &Api,
    args: *const i64,
    pos: rhai::Position,
) -> Result<V, Flow> {
    super::note_pushed();
    let base = vm.stack.len();
    for (i, tag) in u.args.iter().enumerate() {
        // SAFETY: native code passes one value for each argument.
        let raw = unsafe { *args.add(i) };
        let v = match tag {
            Arg::Reg(t) => of_register(*t, raw),
            Arg::Slot => std::mem::take(vm.slot(raw as usize)),
            Arg::Eval | Arg::Frame(_) | Arg::Item(..) | Arg::Named(..) | Arg::NamedFrame(..) => {
                let made = match *tag {
                    // SAFETY: as `eval`'s unit.
                    Arg::Named(n, t) => vm.named_of(unsafe { &*n }, of_register(t, raw)),
                    _ => vm.expr(&a.args[i]),
                };
                match made {
                    Ok(v) => v,
                    Err(f) => {
                        vm.pop_to(base);
                        return Err(f);
                    }
                }
            }
        };
        vm.stack.push(v);
    }
    on_stack(vm, u, a, args, (base, pos), true)
}

/// The call on the arguments pushed from `base` (the VM's `api_pushed`,
/// its typed form tried first where `try_typed`), then taken off; the
/// first argument's local written to the frame from its register before
/// (`ApiUnit::first`: the Rhai form's way reads it there).
fn on_stack(
    vm: &mut VmRun<'_, '_>,
    u: &super::ApiUnit,
    a: &Api,
    args: *const i64,
    (base, pos): (usize, rhai::Position),
    try_typed: bool,
) -> Result<V, Flow> {
    if let Some((k, t)) = u.first {
        // SAFETY: the first argument is in a register (`ApiUnit::first`).
        set(vm.slot(k), of_register(t, unsafe { *args }));
    }
    let r = vm.api_pushed(a, base, pos, try_typed);
    vm.pop_to(base);
    r
}

/// What the table of API values (types.rs) did not foresee: an error,
/// never a value of another type in a register.
#[cold]
pub(super) fn unexpected(what: &str, pos: rhai::Position) -> super::super::run::Error {
    EvalAltResult::ErrorRuntime(
        format!("native code: `{what}` gave a value of a type it did not expect").into(),
        pos,
    )
    .into()
}
