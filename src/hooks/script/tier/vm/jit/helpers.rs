//! What native code calls on its rare paths: the count's check, and each
//! error made as the VM makes it (run.rs, calls.rs), kept in the context
//! for the code to return through. None of them panics (a panic cannot
//! cross native frames).

use rhai::EvalAltResult;

use super::super::run::in_function;
use super::Ctx;
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
