//! Running a compiled function: Rhai's meaning, step for step. Every
//! operation Rhai counts is counted here at the same place (so the limit
//! and the memory check fall where they would), errors are Rhai's own
//! errors at the same positions, and what has no fast path here is handed
//! to Rhai itself, through the helper script.

use std::hash::{BuildHasher, Hash, Hasher};

use rhai::{Array, Dynamic, Engine, EvalAltResult, FnPtr, ImmutableString, Map, Position};

use super::Tier;
use super::builtins::{bool_of, fast_binary, int_of, int_op, sizes_of};
use super::tree::*;
use crate::hooks::script::{MAX_CALL_LEVELS, MAX_HOOK_BYTES, MAX_OPERATIONS};

type Error = Box<EvalAltResult>;

/// How a statement ends other than by running on.
pub(super) enum Flow {
    Err(Error),
    Break,
    Continue,
    Return(Dynamic),
}

impl From<Error> for Flow {
    fn from(e: Error) -> Flow {
        Flow::Err(e)
    }
}

pub(super) type R<T> = Result<T, Flow>;

/// An operator's operand: a value made, or a local or a constant read
/// where it is (`Run::at_hand`).
enum Operand<'a> {
    Value(Dynamic),
    Here(&'a Expr),
}

/// A call's arguments (held inline: most calls take a few).
pub(super) type Args = rhai::FnArgsVec<Dynamic>;

pub(super) struct Run<'a> {
    pub tier: &'a Tier,
    pub engine: &'a Engine,
    stack: Vec<Dynamic>,
    base: usize,
    /// Operations so far, as Rhai counts them (changed only by `track`
    /// and `set_ops`, which keep `check_at` with it).
    pub(super) ops: u64,
    /// The count at which `track` next looks further: the next multiple
    /// of 256 (the memory budget) or the limit, whichever comes first
    /// (native code, vm/jit, counts as `track` does and calls
    /// `track_rare` here).
    pub(super) check_at: u64,
    /// The count a function called back from the API reached, where no
    /// operation has followed it (what Rhai reports for the hook).
    pub peek: Option<u64>,
    pub(super) level: usize,
    /// Whether a call went through Rhai (whose operations are its own).
    pub helped: bool,
    /// The list a push last grew, and its sizes then (see `push_local`).
    pushed: Option<Pushed>,
}

/// A local list's sizes as its last push counted them: good while the
/// variable is not touched otherwise (every change goes through `slot`,
/// which forgets it) and its frame lives (its return forgets it).
#[derive(Clone, Copy)]
struct Pushed {
    /// Where on the stack.
    at: usize,
    sizes: super::builtins::Sizes,
}

thread_local! {
    /// The text an interpolation is being built in (kept: no allocation
    /// per interpolation).
    pub(super) static TEXT: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    /// A run's stack, kept between runs (no allocation per hook call); a
    /// run inside a run makes its own.
    static STACK: std::cell::Cell<Vec<Dynamic>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Drop for Run<'_> {
    fn drop(&mut self) {
        let mut s = std::mem::take(&mut self.stack);
        s.clear();
        // `try_with`: a run dropped while the thread's locals are torn
        // down keeps nothing.
        let _ = STACK.try_with(|k| k.set(s));
    }
}

/// Where `track` next looks after `ops`: the next multiple of 256, or one
/// past the limit if that comes first.
fn next_check(ops: u64) -> u64 {
    ((ops / 256 + 1) * 256).min(MAX_OPERATIONS + 1)
}

/// `err` at `pos` unless it has a position.
pub(super) fn at(mut err: Error, pos: Position) -> Error {
    if err.position().is_none() {
        err.set_position(pos);
    }
    err
}

fn mismatch(engine: &Engine, want: &str, got: &str, pos: Position) -> Error {
    EvalAltResult::ErrorMismatchDataType(engine.map_type_name(want).into(), got.into(), pos).into()
}

impl<'a> Run<'a> {
    pub fn new(tier: &'a Tier, engine: &'a Engine) -> Self {
        Run {
            tier,
            engine,
            stack: {
                let mut s = STACK.with(std::cell::Cell::take);
                s.reserve(64);
                s
            },
            base: 0,
            ops: 0,
            check_at: next_check(0),
            peek: None,
            level: 0,
            helped: false,
            pushed: None,
        }
    }

    /// One operation at `pos`: the limit, and every 256 the memory budget
    /// (as the engine's progress callback does).
    /// (Inlined: it runs before nearly every step; the rare parts are not.)
    #[inline(always)]
    pub(super) fn track(&mut self, pos: Position) -> Result<(), Error> {
        self.ops += 1;
        self.peek = None;
        // One comparison: past the limit, or at a multiple of 256.
        if self.ops >= self.check_at {
            return self.track_rare(pos);
        }
        Ok(())
    }

    /// The count set where it is not counted up one at a time (a
    /// callback's count dropped, Rhai's added).
    pub(super) fn set_ops(&mut self, ops: u64) {
        self.ops = ops;
        self.check_at = next_check(ops);
    }

    #[cold]
    #[inline(never)]
    pub(super) fn track_rare(&mut self, pos: Position) -> Result<(), Error> {
        self.check_at = next_check(self.ops);
        if self.ops > MAX_OPERATIONS {
            return Err(EvalAltResult::ErrorTooManyOperations(pos).into());
        }
        // The helpers' charges, where Rhai's progress callback looks.
        if let Some(token) = crate::hooks::script::budget::past(self.ops) {
            let token = Dynamic::from(token);
            return Err(EvalAltResult::ErrorTerminated(token, pos).into());
        }
        if let Some(floor) = super::super::hook_floor() {
            let used = crate::memory::thread_bytes() - floor;
            if used > MAX_HOOK_BYTES {
                return Err(EvalAltResult::ErrorTerminated(Dynamic::from(used), pos).into());
            }
        }
        Ok(())
    }

    pub(super) fn slot(&mut self, s: usize) -> &mut Dynamic {
        let at = self.base + s;
        if self.pushed.is_some_and(|p| p.at == at) {
            self.pushed = None;
        }
        &mut self.stack[at]
    }

    pub(super) fn stack_ref(&self, s: usize) -> &Dynamic {
        &self.stack[self.base + s]
    }

    /// `local.push(x)`: Rhai's push and its check of the list's sizes
    /// after, counted from the sizes the last push onto this local found
    /// where nothing else has changed it since (a list built by pushes in
    /// a loop is then counted once, not once a push). None: not a list.
    pub(super) fn push_local(
        &mut self,
        s: usize,
        x: &Dynamic,
        pos: Position,
    ) -> Option<Result<(), Error>> {
        let at = self.base + s;
        let kept = self.pushed.filter(|p| p.at == at);
        let this = self.slot(s);
        // A shared list or item can change where this variable is not
        // touched: counted whole each time.
        let plain = !this.is_shared() && !x.is_shared();
        let before = kept.filter(|_| plain).map(|p| p.sizes);
        let r = super::builtins::push(this, x, before, pos)?;
        if let (true, Ok(sizes)) = (plain, &r) {
            self.pushed = Some(Pushed { at, sizes: *sizes });
        }
        Some(r.map(|_| ()))
    }

    /// Call compiled function `ix` as Rhai calls a script function.
    pub fn call_fn(&mut self, ix: usize, args: Args, pos: Position) -> Result<Dynamic, Error> {
        self.level += 1;
        let r = self.call_fn_inner(ix, args, pos);
        self.level -= 1;
        r
    }

    fn call_fn_inner(&mut self, ix: usize, args: Args, pos: Position) -> Result<Dynamic, Error> {
        self.track(pos)?;
        // The hook runs at Rhai's level 0 (`call_fn` does not count it).
        if self.level > MAX_CALL_LEVELS + 1 {
            return Err(EvalAltResult::ErrorStackOverflow(pos).into());
        }
        let tier = self.tier;
        let Some(f) = tier.fns[ix].as_ref() else {
            unreachable!("a compiled function calls only compiled functions")
        };
        if f.body.0.is_empty() {
            return Ok(Dynamic::UNIT);
        }
        let base = self.stack.len();
        self.stack.extend(args);
        self.stack.resize(base + f.slots, Dynamic::UNIT);
        let outer = std::mem::replace(&mut self.base, base);
        let r = self.block(&f.body);
        self.base = outer;
        self.stack.truncate(base);
        // A later frame may reuse these places.
        if self.pushed.is_some_and(|p| p.at >= base) {
            self.pushed = None;
        }
        match r {
            Ok(v) | Err(Flow::Return(v)) => Ok(v),
            Err(Flow::Err(mut e)) => {
                if e.is_system_exception() {
                    e.set_position(pos);
                    Err(e)
                } else {
                    Err(EvalAltResult::ErrorInFunctionCall(
                        f.name.to_string(),
                        String::new(),
                        e,
                        pos,
                    )
                    .into())
                }
            }
            // The parser allows `break` and `continue` only inside loops.
            Err(Flow::Break | Flow::Continue) => Ok(Dynamic::UNIT),
        }
    }

    fn block(&mut self, b: &Block) -> R<Dynamic> {
        let mut last = Dynamic::UNIT;
        for s in &b.0 {
            let v = self.stmt(s)?;
            discard(std::mem::replace(&mut last, v));
        }
        Ok(last)
    }

    pub(super) fn truth(&mut self, e: &Expr) -> R<bool> {
        let v = self.expr(e)?;
        let b = v.as_bool();
        discard(v);
        b.map_err(|t| mismatch(self.engine, "bool", t, e.pos).into())
    }

    fn stmt(&mut self, s: &Stmt) -> R<Dynamic> {
        self.track(s.pos)?;
        match &s.kind {
            StmtKind::Noop => Ok(Dynamic::UNIT),
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::Bare(e) => self.value(e),
            StmtKind::Block(b) => self.block(b),
            StmtKind::Counted(pos) => {
                self.track(*pos)?;
                Ok(Dynamic::UNIT)
            }
            StmtKind::Let(slot, e) => {
                let v = self.expr(e)?;
                discard(std::mem::replace(self.slot(*slot), v));
                Ok(Dynamic::UNIT)
            }
            StmtKind::Assign(slot, e, var_pos) => {
                let v = self.expr(e)?;
                self.track(*var_pos)?;
                discard(std::mem::replace(self.slot(*slot), v));
                Ok(Dynamic::UNIT)
            }
            StmtKind::OpAssign(x) => {
                let v = self.expr(&x.value)?;
                self.track(x.var_pos)?;
                let old = self.slot(x.slot);
                if let (Some(a), Some(b)) = (int_of(old), int_of(&v))
                    && let Some(r) = int_op(x.op, a, b)
                {
                    let r = r.map_err(|e| at(e, x.op_pos))?;
                    discard(std::mem::replace(self.slot(x.slot), r));
                    return Ok(Dynamic::UNIT);
                }
                let mut this = std::mem::take(self.slot(x.slot));
                let r = self.helper(&x.helper, Some(&mut this), vec![v], x.op_pos);
                *self.slot(x.slot) = this;
                r.map(|_| Dynamic::UNIT).map_err(Flow::Err)
            }
            StmtKind::SetPart(x) => self.set_part(x).map(|()| Dynamic::UNIT),
            StmtKind::Switch(x) => self.switch(x),
            StmtKind::If(x) => {
                let (cond, then, els) = &**x;
                if self.truth(cond)? {
                    self.block(then)
                } else {
                    self.block(els)
                }
            }
            StmtKind::While(guard, body) => loop {
                if let Some(g) = guard
                    && !self.truth(g)?
                {
                    return Ok(Dynamic::UNIT);
                }
                if body.0.is_empty() {
                    if guard.is_none() {
                        self.track(s.pos)?;
                    }
                    continue;
                }
                match self.block(body) {
                    Ok(_) | Err(Flow::Continue) => {}
                    Err(Flow::Break) => return Ok(Dynamic::UNIT),
                    Err(e) => return Err(e),
                }
            },
            StmtKind::Do(body, cond, until) => loop {
                match self.block(body) {
                    Ok(_) => {}
                    // As Rhai runs it: `continue` starts the body again,
                    // the condition not tested.
                    Err(Flow::Continue) => continue,
                    Err(Flow::Break) => return Ok(Dynamic::UNIT),
                    Err(e) => return Err(e),
                }
                if self.truth(cond)? == *until {
                    return Ok(Dynamic::UNIT);
                }
            },
            StmtKind::For(f) => self.for_loop(f, s.pos),
            StmtKind::Break => Err(Flow::Break),
            StmtKind::Continue => Err(Flow::Continue),
            StmtKind::Throw(e) => {
                let v = match e {
                    Some(e) => self.expr(e)?,
                    None => Dynamic::UNIT,
                };
                Err(Flow::Err(
                    EvalAltResult::ErrorRuntime(v.flatten(), s.pos).into(),
                ))
            }
            StmtKind::Return(e) => {
                let v = match e {
                    Some(e) => self.expr(e)?,
                    None => Dynamic::UNIT,
                };
                Err(Flow::Return(v))
            }
        }
    }

    fn for_loop(&mut self, f: &For, pos: Position) -> R<Dynamic> {
        // A literal list is read where it is (Rhai copies it first).
        if let ExprKind::Const(v) = &f.iter.kind
            && let Some(list) = v.read_lock::<Array>()
        {
            self.track(f.iter.pos)?;
            return self.for_items(f, pos, list.iter().cloned());
        }
        let iter = self.expr(&f.iter)?;
        if iter.is::<std::ops::Range<i64>>() {
            let r = iter.cast::<std::ops::Range<i64>>();
            self.for_items(f, pos, r.map(Dynamic::from_int))
        } else if iter.is::<std::ops::RangeInclusive<i64>>() {
            let r = iter.cast::<std::ops::RangeInclusive<i64>>();
            self.for_items(f, pos, r.map(Dynamic::from_int))
        } else if iter.is_array() {
            self.for_items(f, pos, iter.cast::<Array>().into_iter())
        } else if iter.is_string() {
            let s = iter.cast::<ImmutableString>();
            self.for_items(f, pos, s.chars().map(Dynamic::from))
        } else {
            Err(Flow::Err(EvalAltResult::ErrorFor(f.iter.pos).into()))
        }
    }

    fn for_items(
        &mut self,
        f: &For,
        pos: Position,
        items: impl Iterator<Item = Dynamic>,
    ) -> R<Dynamic> {
        let mut index: i64 = -1;
        for v in items {
            if f.body.0.is_empty() {
                self.track(pos)?;
                continue;
            }
            index = index.checked_add(1).ok_or_else(|| -> Error {
                EvalAltResult::ErrorArithmetic(
                    format!("for-loop counter overflow: {index}"),
                    f.var_pos,
                )
                .into()
            })?;
            if let Some(c) = f.counter {
                discard(std::mem::replace(self.slot(c), Dynamic::from_int(index)));
            }
            discard(std::mem::replace(self.slot(f.var), v));
            match self.block(&f.body) {
                Ok(_) | Err(Flow::Continue) => {}
                Err(Flow::Break) => break,
                Err(e) => return Err(e),
            }
        }
        Ok(Dynamic::UNIT)
    }

    /// `switch` as Rhai runs it (tree.rs): the value's hash picks the
    /// cases written for it (their conditions tried in order), then integer
    /// ranges, then the default; a value Rhai cannot hash takes the default.
    fn switch(&mut self, x: &Switch) -> Result<Dynamic, Flow> {
        let value = self.expr(&x.value)?;
        let mut chosen = None;
        if hashable(&value, 0) {
            if let Some(list) = x.cases.get(&hash(&value)) {
                for &i in list {
                    if self.cond(&x.arms[i].cond)? {
                        chosen = Some(i);
                        break;
                    }
                }
            }
            if chosen.is_none() && !x.ranges.is_empty() {
                let value = value.flatten();
                for r in x.ranges.iter().filter(|r| r.contains(&value)) {
                    if self.cond(&x.arms[r.index()].cond)? {
                        chosen = Some(r.index());
                        break;
                    }
                }
            }
        }
        match chosen.or(x.default) {
            Some(i) => self.expr(&x.arms[i].body),
            None => Ok(Dynamic::UNIT),
        }
    }

    fn cond(&mut self, c: &Result<bool, Expr>) -> Result<bool, Flow> {
        match c {
            Ok(b) => Ok(*b),
            Err(e) => self.truth(e),
        }
    }

    /// Whether `e` is a local or a constant: read where it is.
    fn at_hand(e: &Expr) -> bool {
        matches!(e.kind, ExprKind::Local(_) | ExprKind::Const(_))
    }

    /// The value a local or a constant holds, where it is.
    fn here<'o>(&'o self, e: &'o Expr) -> &'o Dynamic {
        match &e.kind {
            ExprKind::Local(s) => &self.stack[self.base + *s],
            ExprKind::Const(v) => v,
            _ => unreachable!("only a local or a constant is read where it is"),
        }
    }

    fn operand<'o>(&'o self, o: &'o Operand<'o>) -> &'o Dynamic {
        match o {
            Operand::Value(v) => v,
            Operand::Here(e) => self.here(e),
        }
    }

    fn owned(&self, o: Operand) -> Dynamic {
        match o {
            Operand::Value(v) => v,
            Operand::Here(e) => self.here(e).clone(),
        }
    }

    pub(super) fn expr(&mut self, e: &Expr) -> R<Dynamic> {
        self.track(e.pos)?;
        // The commonest first, here: `value` is large, its entry dear.
        match &e.kind {
            ExprKind::Const(v) => Ok(v.clone()),
            ExprKind::Local(s) => Ok(self.slot(*s).clone()),
            _ => self.value(e),
        }
    }

    /// An expression's value, its own operation not counted.
    fn value(&mut self, e: &Expr) -> R<Dynamic> {
        match &e.kind {
            ExprKind::Const(v) => Ok(v.clone()),
            ExprKind::Local(s) => Ok(self.slot(*s).clone()),
            ExprKind::Interp(parts) => self.interp(parts),
            ExprKind::Array(items) => {
                let mut out = Array::with_capacity(items.len());
                let mut sizes = (0, 0, 0);
                for item in items {
                    let v = self.expr(item)?;
                    let s = sizes_of(&v);
                    sizes = (sizes.0 + s.0 + 1, sizes.1 + s.1, sizes.2 + s.2);
                    self.within(sizes, item.pos)?;
                    out.push(v);
                }
                Ok(Dynamic::from_array(out))
            }
            ExprKind::Map(x) => {
                let mut map: Map = x.0.clone();
                let mut sizes = (0, 0, 0);
                for (k, ve) in &x.1 {
                    let v = self.expr(ve)?;
                    let s = sizes_of(&v);
                    sizes = (sizes.0 + s.0, sizes.1 + s.1 + 1, sizes.2 + s.2);
                    self.within(sizes, ve.pos)?;
                    map.insert(k.clone(), v);
                }
                Ok(Dynamic::from_map(map))
            }
            ExprKind::And(xs) => {
                for x in xs {
                    if !self.truth(x)? {
                        return Ok(Dynamic::FALSE);
                    }
                }
                Ok(Dynamic::TRUE)
            }
            ExprKind::Or(xs) => {
                for x in xs {
                    if self.truth(x)? {
                        return Ok(Dynamic::TRUE);
                    }
                }
                Ok(Dynamic::FALSE)
            }
            ExprKind::Binary(x) => {
                let (op, a, b, helper) = &**x;
                // A local or a constant is read where it is, not copied: the
                // second operand always (nothing runs after it to change
                // it), the first when the second is one too. Counted as
                // Rhai counts it: one operation each, in order.
                let (a, b) = match (Self::at_hand(a), Self::at_hand(b)) {
                    (true, true) => {
                        self.track(a.pos)?;
                        self.track(b.pos)?;
                        (Operand::Here(a), Operand::Here(b))
                    }
                    (_, true) => {
                        let a = self.expr(a)?;
                        self.track(b.pos)?;
                        (Operand::Value(a), Operand::Here(b))
                    }
                    _ => (Operand::Value(self.expr(a)?), Operand::Value(self.expr(b)?)),
                };
                let fast = fast_binary(self.engine, *op, self.operand(&a), self.operand(&b));
                if let Some(r) = fast {
                    return Ok(r.map_err(|err| at(err, e.pos))?);
                }
                let (a, b) = (self.owned(a), self.owned(b));
                Ok(self.helper(helper, None, vec![a, b], e.pos)?)
            }
            ExprKind::Unary(x) => {
                let (op, a, helper) = &**x;
                let a = self.expr(a)?;
                match (op, int_of(&a), bool_of(&a)) {
                    (Un::Neg, Some(n), _) => {
                        return Ok(n.checked_neg().map(Dynamic::from_int).ok_or_else(
                            || -> Error {
                                EvalAltResult::ErrorArithmetic("integer overflow".into(), e.pos)
                                    .into()
                            },
                        )?);
                    }
                    (Un::Not, _, Some(b)) => return Ok((!b).into()),
                    _ => {}
                }
                Ok(self.helper(helper, None, vec![a], e.pos)?)
            }
            ExprKind::Call(c) => self.call(c),
            ExprKind::Chain(c) => self.chain(c),
            ExprKind::Block(b) => self.block(b),
            ExprKind::Curry(x) => {
                // Rhai counts the pointer and each captured value, not a call.
                let (_, f, args) = &**x;
                let mut p = self.expr(f)?.cast::<rhai::FnPtr>();
                for a in args {
                    p.add_curry(self.expr(a)?);
                }
                Ok(p.into())
            }
            ExprKind::Log(to, text) => self.log(to.as_deref(), text),
        }
    }

    fn within(&self, sizes: (usize, usize, usize), pos: Position) -> Result<(), Error> {
        super::builtins::limit(sizes, pos)
    }

    fn interp(&mut self, parts: &[Expr]) -> R<Dynamic> {
        let mut out = TEXT.with(|t| std::mem::take(&mut *t.borrow_mut()));
        out.clear();
        let r = self.interp_into(parts, &mut out);
        // Kept, as Rhai's interner keeps short texts: `s${i}` builds the
        // same few names again and again.
        let text = r.map(|()| super::super::interned::script_text(&out));
        TEXT.with(|t| *t.borrow_mut() = out);
        Ok(text?.into())
    }

    fn interp_into(&mut self, parts: &[Expr], out: &mut String) -> R<()> {
        for p in parts {
            let v = self.expr(p)?;
            if v.is_string() {
                out.push_str(&v.into_immutable_string().unwrap_or_default());
            } else {
                // Rhai calls `to_string`, a native call.
                self.track(p.pos)?;
                if let Some(i) = int_of(&v) {
                    out.push_str(itoa::Buffer::new().format(i));
                } else if let Some(b) = bool_of(&v) {
                    out.push_str(if b { "true" } else { "false" });
                } else if let Ok(c) = v.as_char() {
                    out.push(c);
                } else {
                    let text = self.text_of(v, p.pos)?;
                    out.push_str(&text);
                }
            }
            self.within((0, 0, out.len()), p.pos)?;
        }
        Ok(())
    }

    /// A value as an interpolation writes it, through Rhai.
    pub(super) fn text_of(&mut self, v: Dynamic, pos: Position) -> Result<String, Error> {
        let h = Helper {
            name: super::TO_TEXT.into(),
            this: false,
        };
        let r = self.helper(&h, None, vec![v], pos)?;
        Ok(r.to_string())
    }

    fn log(&mut self, to: Option<&Expr>, text: &Expr) -> R<Dynamic> {
        if !crate::hooks::script::with_ctx(|cx| Ok(cx.logging()))? {
            return Ok(Dynamic::UNIT);
        }
        let to = match to {
            Some(e) => Some(
                self.expr(e)?
                    .into_immutable_string()
                    .map_err(|t| -> Error { t.into() })?,
            ),
            None => None,
        };
        let text = self.expr(text)?.to_string();
        crate::hooks::script::log_line(to.as_deref(), &text)?;
        Ok(Dynamic::UNIT)
    }
}

/// Drop a value, letting the plain ones (a number, a truth value, `()`)
/// go inline: dropping a `Dynamic` is otherwise a call, whatever it holds.
/// (A shared value is never plain: it holds a reference.)
#[inline(always)]
fn discard(v: Dynamic) {
    if !v.is_shared() && (v.is::<rhai::INT>() || v.is::<bool>() || v.is::<()>()) {
        std::mem::forget(v);
    }
}

/// Rhai's hash of a switch value (`calc_switch_value_hash`): the value's
/// `Hash` with ahash's fixed keys, or the seed Rhai was configured with.
pub(super) fn hash(v: &Dynamic) -> u64 {
    let mut h = match rhai::config::hashing::get_hashing_seed() {
        Some([a, b, c, d]) if (a | b | c | d) != 0 => {
            ahash::RandomState::with_seeds(*a, *b, *c, *d).build_hasher()
        }
        _ => ahash::AHasher::default(),
    };
    v.hash(&mut h);
    h.finish()
}

/// Rhai's `is_hashable` (not public): the types a switch can match.
/// Shared values are read through, to a depth (Rhai guards against a
/// value that holds itself; no value the tier makes does).
pub(super) fn hashable(v: &Dynamic, depth: usize) -> bool {
    if depth > 64 {
        return false;
    }
    if v.is_shared() {
        return hashable(&v.flatten_clone(), depth + 1);
    }
    if v.is_unit() || v.is_bool() || v.is_string() || v.is_char() || v.is_int() || v.is_float() {
        return true;
    }
    if let Some(a) = v.read_lock::<Array>() {
        return a.iter().all(|x| hashable(x, depth + 1));
    }
    if v.is_blob() {
        return true;
    }
    if let Some(m) = v.read_lock::<Map>() {
        return m.values().all(|x| hashable(x, depth + 1));
    }
    if let Some(f) = v.read_lock::<FnPtr>() {
        return f.curry().iter().all(|x| hashable(x, depth + 1));
    }
    v.is::<u8>()
        || v.is::<u16>()
        || v.is::<u32>()
        || v.is::<u64>()
        || v.is::<i8>()
        || v.is::<i16>()
        || v.is::<i32>()
        || v.is::<u128>()
        || v.is::<i128>()
        || v.is::<f32>()
        || v.is::<std::ops::Range<i64>>()
        || v.is::<std::ops::RangeInclusive<i64>>()
}
