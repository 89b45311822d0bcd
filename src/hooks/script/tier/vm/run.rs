//! Running a function in the VM: the tree tier's meaning (run.rs there)
//! on unboxed values. Numbers, truth values and symbols never become Rhai
//! values; what has no fast path here is handed to the tree tier's own
//! machinery (its Rhai helpers, its native calls, its closures) as Rhai
//! values, and the result taken back. The operations counted are the
//! VM's own: one per statement, loop round and call (about a third of
//! Rhai's count), under the same limit and the same memory checks.

use rhai::{Array, Dynamic, EvalAltResult, FnPtr, ImmutableString, Position};
use smallvec::SmallVec;

use super::super::builtins::int_op;
use super::super::run::{Run, at};
use super::super::tree::{Bin, Helper, Un};
use super::Vm;
use super::ir::*;
use super::value::V;
use crate::hooks::script::MAX_CALL_LEVELS;

pub(super) type Error = Box<EvalAltResult>;

pub(crate) enum Flow {
    Err(Error),
    Break,
    Continue,
    Return(V),
}

impl From<Error> for Flow {
    fn from(e: Error) -> Flow {
        Flow::Err(e)
    }
}

pub(super) type R<T> = Result<T, Flow>;
pub(crate) type Args = SmallVec<[V; 4]>;

pub(crate) struct VmRun<'r, 'a> {
    /// The tree tier's run: the count, the call level, Rhai's helpers.
    pub run: &'r mut Run<'a>,
    pub(super) vm: &'a Vm,
    pub(super) stack: Vec<V>,
    pub(super) base: usize,
    /// The slot (on the stack) of the list the last `local.push(x)` was
    /// on (`pushes::NOT_KEPT`: none), and the sizes Rhai's limits count
    /// in it after: kept while nothing else reaches that slot (every way
    /// to it but `read` forgets it), so a list built by pushes is not
    /// counted whole each time (pushes.rs).
    pub(super) pushed_at: usize,
    pub(super) pushed_sizes: super::super::builtins::Sizes,
    /// Whether native code runs (jit/): not where the check sets it aside.
    #[cfg(feature = "jit")]
    native: bool,
}

/// An error in function `name` called at `pos`, as Rhai gives it: a
/// system exception moved to the call, any other wrapped.
pub(super) fn in_function(name: &str, mut e: Error, pos: Position) -> Error {
    if e.is_system_exception() {
        e.set_position(pos);
        e
    } else {
        EvalAltResult::ErrorInFunctionCall(name.to_string(), String::new(), e, pos).into()
    }
}

/// Drop a value, the plain ones (a number, a truth value, a symbol, `()`)
/// inline: dropping a `V` is otherwise a call, whatever it holds.
#[inline(always)]
pub(super) fn discard(v: V) {
    if v.is_plain() {
        std::mem::forget(v);
    }
}

/// Set a place, the old value dropped as `discard` drops it.
#[inline(always)]
pub(super) fn set(place: &mut V, v: V) {
    discard(std::mem::replace(place, v));
}

fn type_name(v: &V) -> &'static str {
    match v {
        V::Unit => "()",
        V::Bool(_) => "bool",
        V::Int(_) => "i64",
        V::Sym(_) => "string",
        V::List(_) => "array",
        V::Map(_) => "map",
        V::Dyn(d) => d.type_name(),
    }
}

thread_local! {
    /// The API calls that went the Rhai form's way (they have no typed
    /// form, or it gave None), by name, while `rhai_forms` notes them;
    /// None otherwise (nothing kept in a playout).
    static RHAI_FORMS: std::cell::RefCell<Option<Vec<String>>> =
        const { std::cell::RefCell::new(None) };
}

/// Note an API call that went the Rhai form's way (`rhai_forms`).
#[cold]
pub(super) fn note_rhai_form(name: &str) {
    RHAI_FORMS.with(|f| {
        if let Some(v) = f.borrow_mut().as_mut() {
            v.push(name.to_string());
        }
    });
}

/// `f`'s value, and the API calls that compiled runs on this thread made
/// through their Rhai forms while it ran (no typed form, or one refusing
/// its values), by name: what tests see of the typed paths taken.
pub fn rhai_forms<T>(f: impl FnOnce() -> T) -> (T, Vec<String>) {
    let outer = RHAI_FORMS.with(|r| r.replace(Some(Vec::new())));
    let v = f();
    let noted = RHAI_FORMS.with(|r| r.replace(outer)).unwrap_or_default();
    (v, noted)
}

#[cfg(test)]
thread_local! {
    /// What the VM handed to Rhai's own functions (a helper, a package's
    /// method) because it has no path of its own for those values.
    pub(super) static HANDED: std::cell::RefCell<Vec<String>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Note, in tests, an operation handed to Rhai (`HANDED`); nothing
/// otherwise.
#[inline(always)]
pub(super) fn handed(_what: &str) {
    #[cfg(test)]
    HANDED.with(|h| h.borrow_mut().push(_what.to_string()));
}

thread_local! {
    /// A run's stack, kept between runs (no allocation per hook call); a
    /// run inside a run makes its own.
    static STACK: std::cell::Cell<Vec<V>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Drop for VmRun<'_, '_> {
    fn drop(&mut self) {
        let mut s = std::mem::take(&mut self.stack);
        s.clear();
        // `try_with`: a run dropped while the thread's locals are torn
        // down keeps nothing.
        let _ = STACK.try_with(|k| k.set(s));
    }
}

impl<'r, 'a> VmRun<'r, 'a> {
    pub fn new(run: &'r mut Run<'a>, vm: &'a Vm) -> Self {
        VmRun {
            run,
            vm,
            stack: STACK.with(std::cell::Cell::take),
            base: 0,
            pushed_at: super::pushes::NOT_KEPT,
            pushed_sizes: (0, 0, 0),
            #[cfg(feature = "jit")]
            native: vm.jit.is_some() && super::jit::native_on(),
        }
    }

    pub(super) fn dynamic(&self, v: V) -> Dynamic {
        v.into_dynamic(&self.vm.syms)
    }

    pub(super) fn of(&self, d: Dynamic) -> V {
        V::of(d, &self.vm.syms)
    }

    /// Call function `ix` (the VM's form of it) as Rhai calls a script
    /// function.
    pub fn call_fn(&mut self, ix: usize, args: Args, pos: Position) -> Result<V, Error> {
        let base = self.stack.len();
        self.stack.extend(args);
        self.call_pushed(ix, base, pos)
    }

    /// Call function `ix` on the arguments pushed on the stack from `base`
    /// (taken off whatever happens).
    pub(super) fn call_pushed(
        &mut self,
        ix: usize,
        base: usize,
        pos: Position,
    ) -> Result<V, Error> {
        self.run.level += 1;
        #[cfg(feature = "jit")]
        let r = match &self.vm.jit {
            Some(j) if self.native => self.call_native(j, ix, base, pos),
            _ => self.call_inner(ix, base, pos),
        };
        #[cfg(not(feature = "jit"))]
        let r = self.call_inner(ix, base, pos);
        self.run.level -= 1;
        self.pop_to(base);
        r
    }

    /// `call_inner` by function `ix`'s native code, where it has native
    /// code for these arguments.
    #[cfg(feature = "jit")]
    #[inline(never)]
    fn call_native(
        &mut self,
        jit: &'a super::jit::Jit,
        ix: usize,
        base: usize,
        pos: Position,
    ) -> Result<V, Error> {
        let Some(args) = jit.args(ix, &self.stack[base..]) else {
            return self.call_inner(ix, base, pos);
        };
        self.enter(pos)?;
        jit.call(self, ix, base, &args, pos)
    }

    fn call_inner(&mut self, ix: usize, base: usize, pos: Position) -> Result<V, Error> {
        self.enter(pos)?;
        let vm = self.vm;
        let Some(code) = vm.codes[ix].as_ref() else {
            unreachable!("the VM calls only functions it compiled")
        };
        if code.body.is_empty() {
            return Ok(V::Unit);
        }
        // Pushes, not `resize` (a call, where a frame has a few slots).
        while self.stack.len() < base + code.slots {
            self.stack.push(V::Unit);
        }
        self.body(code, base, pos)
    }

    /// A call's start, as Rhai counts it: an operation, and the call
    /// levels' limit.
    #[inline(always)]
    pub(super) fn enter(&mut self, pos: Position) -> Result<(), Error> {
        self.run.track(pos)?;
        if self.run.level > MAX_CALL_LEVELS + 1 {
            return Err(EvalAltResult::ErrorStackOverflow(pos).into());
        }
        Ok(())
    }

    /// `code`'s body run in the frame at `base`: its value, or its error
    /// as Rhai gives a script function's (in the function's frame).
    #[inline(always)]
    pub(super) fn body(&mut self, code: &Code, base: usize, pos: Position) -> Result<V, Error> {
        let outer = std::mem::replace(&mut self.base, base);
        let r = self.block(&code.body);
        self.base = outer;
        match r {
            Ok(v) | Err(Flow::Return(v)) => Ok(v),
            Err(Flow::Err(e)) => Err(in_function(&code.name, e, pos)),
            Err(Flow::Break | Flow::Continue) => Ok(V::Unit),
        }
    }

    /// A local's or a constant's value where it is; None for any other
    /// expression (`X::in_place`).
    #[inline(always)]
    pub(super) fn read<'s>(&'s self, x: &'s X) -> Option<&'s V> {
        match &x.kind {
            XKind::Local(s) => Some(&self.stack[self.base + s]),
            XKind::Const(v) => Some(v),
            _ => None,
        }
    }

    /// A chain's root where it is (`Root::in_place`).
    #[inline(always)]
    pub(super) fn read_root<'s>(&'s self, r: &'s Root) -> Option<&'s V> {
        match r {
            Root::Local(s) => Some(&self.stack[self.base + s]),
            Root::Value(x) => self.read(x).filter(|_| matches!(x.kind, XKind::Const(_))),
        }
    }

    /// Local `s` read where it is: a read, so the sizes a push kept stay.
    #[cfg(feature = "jit")]
    #[inline(always)]
    pub(super) fn local(&self, s: usize) -> &V {
        &self.stack[self.base + s]
    }

    #[inline]
    pub(super) fn slot(&mut self, s: usize) -> &mut V {
        let at = self.base + s;
        if self.pushed_at == at {
            self.pushed_at = super::pushes::NOT_KEPT;
        }
        &mut self.stack[at]
    }

    fn block(&mut self, b: &[S]) -> R<V> {
        let mut last = V::Unit;
        for s in b {
            let v = self.stmt(s)?;
            set(&mut last, v);
        }
        Ok(last)
    }

    pub(super) fn truth(&mut self, x: &X) -> R<bool> {
        match self.expr(x)? {
            // A truth value has nothing to drop: `forget` spares the call
            // to the drop glue.
            v @ V::Bool(b) => {
                std::mem::forget(v);
                Ok(b)
            }
            other => Err(Flow::Err(
                EvalAltResult::ErrorMismatchDataType(
                    self.run.engine.map_type_name("bool").into(),
                    type_name(&other).into(),
                    x.pos,
                )
                .into(),
            )),
        }
    }

    pub(super) fn stmt(&mut self, s: &S) -> R<V> {
        self.run.track(s.pos)?;
        match &s.kind {
            SKind::Noop | SKind::Counted => Ok(V::Unit),
            SKind::Expr(x) => self.expr(x),
            SKind::Block(b) => self.block(b),
            SKind::Let(slot, x) | SKind::Assign(slot, x) => {
                let v = self.expr(x)?;
                set(self.slot(*slot), v);
                Ok(V::Unit)
            }
            SKind::OpAssign(x) => {
                let v = self.expr(&x.2)?;
                self.op_assign(x, v)
            }
            SKind::SetPart(x) => self.set_part(x),
            SKind::If(x) => {
                let (c, a, b) = &**x;
                if self.truth(c)? {
                    self.block(a)
                } else {
                    self.block(b)
                }
            }
            SKind::While(guard, body) => loop {
                if let Some(g) = guard
                    && !self.truth(g)?
                {
                    return Ok(V::Unit);
                }
                if body.is_empty() {
                    self.run.track(s.pos)?;
                    continue;
                }
                match self.block(body) {
                    Ok(v) => discard(v),
                    Err(Flow::Continue) => {}
                    Err(Flow::Break) => return Ok(V::Unit),
                    Err(e) => return Err(e),
                }
            },
            SKind::Do(body, cond, until) => loop {
                if body.is_empty() {
                    // A round of nothing is counted: an endless `do {}`
                    // stops at the limit.
                    self.run.track(s.pos)?;
                }
                match self.block(body) {
                    Ok(v) => discard(v),
                    // As Rhai runs it: `continue` starts the body again,
                    // the condition not tested.
                    Err(Flow::Continue) => continue,
                    Err(Flow::Break) => return Ok(V::Unit),
                    Err(e) => return Err(e),
                }
                if self.truth(cond)? == *until {
                    return Ok(V::Unit);
                }
            },
            SKind::For(f) => self.for_loop(f, s.pos),
            SKind::Switch(x) => self.switch(x),
            SKind::Break => Err(Flow::Break),
            SKind::Continue => Err(Flow::Continue),
            SKind::Return(x) => {
                let v = match x {
                    Some(x) => self.expr(x)?,
                    None => V::Unit,
                };
                Err(Flow::Return(v))
            }
            SKind::Throw(x) => {
                let v = match x {
                    Some(x) => self.expr(x)?,
                    None => V::Unit,
                };
                let d = self.dynamic(v);
                Err(Flow::Err(
                    EvalAltResult::ErrorRuntime(d.flatten(), s.pos).into(),
                ))
            }
        }
    }

    /// `slot op= v`, `v` made: on numbers where both are, a list's `+=`,
    /// else Rhai's operator (native code's `op=` on a local the VM holds
    /// comes here too, its value made in a register).
    #[inline]
    pub(super) fn op_assign(&mut self, x: &OpAssign, v: V) -> R<V> {
        let (slot, op, _, op_pos, helper) = x;
        if let (V::Int(a), V::Int(b)) = (&*self.slot(*slot), &v) {
            let (a, b) = (*a, *b);
            std::mem::forget(v);
            if let Some(r) = super::calls::int_fast(*op, a, b) {
                set(self.slot(*slot), r);
                return Ok(V::Unit);
            }
            if let Some(r) = int_op(*op, a, b) {
                let r = r.map_err(|e| at(e, *op_pos))?;
                *self.slot(*slot) = self.of(r);
                return Ok(V::Unit);
            }
            return self.op_assign_rhai(*slot, V::Int(b), helper, *op_pos);
        }
        if let (Bin::Add, V::List(_)) = (op, &*self.slot(*slot))
            && super::lists::adds(&v)
        {
            let at = self.base + *slot;
            self.pushed_at = super::pushes::NOT_KEPT;
            super::lists::add_to(&mut self.stack[at], v, &self.vm.syms, *op_pos)?;
            return Ok(V::Unit);
        }
        self.op_assign_rhai(*slot, v, helper, *op_pos)
    }

    /// `slot op= v` by Rhai's operator.
    fn op_assign_rhai(&mut self, slot: usize, v: V, helper: &Helper, pos: Position) -> R<V> {
        handed("op-assign");
        let mut this = self.take_dynamic(slot);
        let arg = self.dynamic(v);
        let r = self.run.helper(helper, Some(&mut this), vec![arg], pos);
        *self.slot(slot) = self.of(this);
        r.map(|_| V::Unit).map_err(Flow::Err)
    }

    pub(super) fn take_dynamic(&mut self, slot: usize) -> Dynamic {
        let v = std::mem::take(self.slot(slot));
        self.dynamic(v)
    }

    /// `x[k] (op)= v`, `x.name (op)= v`: a list's item set in place;
    /// anything else by Rhai.
    fn set_part(&mut self, x: &SetPart) -> R<V> {
        let mut value = self.expr(&x.value)?;
        let (key, k_pos) = match &x.key {
            Key::Index(k) => (Some(self.expr(k)?), k.pos),
            Key::Prop(_, sym) => (Some(V::Sym(*sym)), x.var_pos),
        };
        if let (Some(V::Sym(k)), V::Map(_)) = (&key, &*self.slot(x.slot)) {
            match self.set_in_map(x, *k, value)? {
                None => return Ok(V::Unit),
                Some(back) => value = back,
            }
        }
        if let (None, Key::Index(_), Some(V::Int(i)), V::List(l)) =
            (x.op, &x.key, &key, &mut *self.slot(x.slot))
        {
            let Some(at) = super::lists::at(l.len(), *i) else {
                return Err(Flow::Err(
                    EvalAltResult::ErrorArrayBounds(l.len(), *i, k_pos).into(),
                ));
            };
            l[at] = value;
            return Ok(V::Unit);
        }
        handed("set-part");
        let mut this = self.take_dynamic(x.slot);
        let k = match (&x.key, key) {
            (Key::Prop(name, _), _) => Dynamic::from(name.clone()),
            (_, k) => self.dynamic(k.unwrap_or_default()),
        };
        let v = self.dynamic(value);
        let prop = matches!(x.key, Key::Prop(..));
        let set =
            super::super::chain::set_fast(&mut this, &k, x.op, v.clone(), prop, (k_pos, x.op_pos));
        let r = match set {
            Some(r) => r,
            None => {
                let args = match x.key {
                    Key::Prop(..) => vec![v],
                    Key::Index(_) => vec![k, v],
                };
                self.run
                    .helper(&x.helper, Some(&mut this), args, x.op_pos)
                    .map(|_| ())
            }
        };
        *self.slot(x.slot) = self.of(this);
        r.map(|()| V::Unit).map_err(Flow::Err)
    }

    /// `m[k] (op)= v` / `m.k (op)= v` on a map of symbols, as the tree
    /// tier's `set_fast` does it on Rhai's map: the value given back where
    /// it is not an operation on numbers that this decides.
    fn set_in_map(&mut self, x: &SetPart, k: u32, value: V) -> R<Option<V>> {
        self.pushed_at = super::pushes::NOT_KEPT;
        let syms = &self.vm.syms;
        let V::Map(m) = &mut self.stack[self.base + x.slot] else {
            return Ok(Some(value));
        };
        match x.op {
            None => super::value::map_put(m, k, value, syms),
            Some(op) => {
                let place = m.iter_mut().find(|(key, _)| *key == k).map(|(_, v)| v);
                let Some(place) = place else {
                    return Ok(Some(value));
                };
                let (V::Int(a), V::Int(b)) = (&*place, &value) else {
                    return Ok(Some(value));
                };
                let Some(r) = int_op(op, *a, *b) else {
                    return Ok(Some(value));
                };
                *place = V::of(r.map_err(|e| at(e, x.op_pos))?, syms);
            }
        }
        // As Rhai checks it (eval/chaining.rs): `m[k] = v` the item set,
        // `m.k = v` the whole map.
        let m = &self.stack[self.base + x.slot];
        match (&x.key, m) {
            (Key::Index(_), V::Map(m)) => {
                let item = super::value::map_get(m, k).unwrap_or(&V::Unit);
                item.limit(syms, x.op_pos)?;
            }
            _ => m.limit(syms, x.op_pos)?,
        }
        Ok(None)
    }

    fn for_loop(&mut self, f: &For, pos: Position) -> R<V> {
        // A constant list (a literal, a function's constant value): its
        // items copied one at a time, the whole never cloned.
        let constant = match &f.iter.kind {
            XKind::Const(v) => Some(v),
            XKind::ConstFn(c) => {
                self.const_fn(c, f.iter.pos)?;
                Some(&c.value)
            }
            _ => None,
        };
        if let Some(V::List(items)) = constant {
            return self.for_items(f, pos, items.iter().map(V::copy));
        }
        let iter = match constant {
            Some(v) => v.clone(),
            None => self.expr(&f.iter)?,
        };
        match iter {
            V::List(items) => self.for_items(f, pos, items.into_iter()),
            V::Dyn(d) if d.is::<std::ops::Range<i64>>() => {
                let r = d.cast::<std::ops::Range<i64>>();
                self.for_items(f, pos, r.map(V::Int))
            }
            V::Dyn(d) if d.is::<std::ops::RangeInclusive<i64>>() => {
                let r = d.cast::<std::ops::RangeInclusive<i64>>();
                self.for_items(f, pos, r.map(V::Int))
            }
            other => {
                let items = self.other_items(other, f.iter.pos)?;
                self.for_items(f, pos, items.into_iter())
            }
        }
    }

    /// The items `for` runs over in a value that is no list the VM made
    /// and no range: a Rhai array's, a text's characters; anything else
    /// an error at `pos`.
    pub(super) fn other_items(&self, v: V, pos: Position) -> R<Vec<V>> {
        let chars = |s: &str| s.chars().map(|c| V::Dyn(Dynamic::from(c))).collect();
        Ok(match v {
            V::Dyn(d) if d.is_array() => {
                let syms = &self.vm.syms;
                (d.cast::<Array>().into_iter())
                    .map(|x| V::of(x, syms))
                    .collect()
            }
            V::Dyn(d) if d.is_string() => chars(&d.cast::<ImmutableString>()),
            V::Sym(s) => chars(self.vm.syms.text(s)),
            _ => return Err(Flow::Err(EvalAltResult::ErrorFor(pos).into())),
        })
    }

    fn for_items(&mut self, f: &For, pos: Position, items: impl Iterator<Item = V>) -> R<V> {
        let mut index: i64 = -1;
        for v in items {
            if f.body.is_empty() {
                self.run.track(pos)?;
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
                set(self.slot(c), V::Int(index));
            }
            set(self.slot(f.var), v);
            match self.block(&f.body) {
                Ok(v) => discard(v),
                Err(Flow::Continue) => {}
                Err(Flow::Break) => break,
                Err(e) => return Err(e),
            }
        }
        Ok(V::Unit)
    }

    /// An expression's value: a local's or a constant's read where it is
    /// wanted (most expressions are these), the rest in `compound`, whose
    /// frame is larger.
    #[inline(always)]
    pub(crate) fn expr(&mut self, x: &X) -> R<V> {
        match &x.kind {
            XKind::Const(v) => Ok(v.copy()),
            XKind::Local(s) => Ok(self.stack[self.base + s].copy()),
            XKind::Move(s) => Ok(std::mem::take(self.slot(*s))),
            XKind::Simple(b) => self.simple(b, x.pos),
            XKind::Item(c) => self.item(c),
            _ => self.compound(x),
        }
    }

    #[inline(never)]
    fn compound(&mut self, x: &X) -> R<V> {
        match &x.kind {
            XKind::Const(_)
            | XKind::Local(_)
            | XKind::Move(_)
            | XKind::Simple(_)
            | XKind::Item(_) => self.expr(x),
            XKind::Binary(b) => {
                let (op, a, b, helper) = &**b;
                let a = self.expr(a)?;
                let b = self.expr(b)?;
                self.binary(*op, a, b, helper, x.pos)
            }
            XKind::And(xs) => {
                for e in xs {
                    if !self.truth(e)? {
                        return Ok(V::Bool(false));
                    }
                }
                Ok(V::Bool(true))
            }
            XKind::Or(xs) => {
                for e in xs {
                    if self.truth(e)? {
                        return Ok(V::Bool(true));
                    }
                }
                Ok(V::Bool(false))
            }
            XKind::Unary(u) => {
                let (op, a, helper) = &**u;
                let a = self.expr(a)?;
                match (op, &a) {
                    (Un::Neg, V::Int(n)) => {
                        return n.checked_neg().map(V::Int).ok_or_else(|| {
                            Flow::Err(
                                EvalAltResult::ErrorArithmetic("integer overflow".into(), x.pos)
                                    .into(),
                            )
                        });
                    }
                    (Un::Not, V::Bool(b)) => return Ok(V::Bool(!b)),
                    _ => {}
                }
                let a = self.dynamic(a);
                let r = self.run.helper(helper, None, vec![a], x.pos)?;
                Ok(self.of(r))
            }
            XKind::Script(ix, args) => {
                let base = self.push_args(args)?;
                Ok(self.call_pushed(*ix, base, x.pos)?)
            }
            XKind::Api(api) => self.api(api, x.pos),
            XKind::Rhai(r) => self.rhai(r, x.pos),
            XKind::Interp(parts) => self.interp(parts),
            XKind::Named(n) => self.named(n),
            XKind::TemplateFn(t) => self.template_fn(t, x.pos),
            XKind::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    out.push(self.expr(item)?);
                }
                let list = V::List(out);
                list.limit(&self.vm.syms, x.pos)?;
                Ok(list)
            }
            XKind::SymMap(m) => {
                let mut map = m.keys.clone();
                for (at, ve) in &m.fields {
                    let v = self.expr(ve)?;
                    set(&mut map[*at].1, v);
                }
                let map = V::Map(map);
                map.limit(&self.vm.syms, x.pos)?;
                Ok(map)
            }
            XKind::Curry(c) => {
                let (f, args) = &**c;
                let mut p = f.clone().cast::<FnPtr>();
                for a in args {
                    let v = self.expr(a)?;
                    p.add_curry(self.dynamic(v));
                }
                Ok(V::Dyn(p.into()))
            }
            XKind::Chain(c) => self.chain(c),
            XKind::ConstFn(c) => {
                self.const_fn(c, x.pos)?;
                Ok(c.value.clone())
            }
            XKind::Block(b) => self.block(b),
            XKind::Log(to, text) => self.log(to.as_deref(), text),
        }
    }

    /// Each of `args` evaluated and pushed on the stack: where they start
    /// (nothing left pushed on an error).
    pub(super) fn push_args(&mut self, args: &[X]) -> R<usize> {
        let base = self.stack.len();
        for a in args {
            match self.expr(a) {
                Ok(v) => self.stack.push(v),
                Err(e) => {
                    self.pop_to(base);
                    return Err(e);
                }
            }
        }
        Ok(base)
    }

    /// The stack cut back to `base` (a loop of pops: `drain` costs more
    /// than the few values a call pushes).
    #[inline]
    pub(super) fn pop_to(&mut self, base: usize) {
        self.forget_from(base);
        while self.stack.len() > base {
            if let Some(v) = self.stack.pop() {
                discard(v);
            }
        }
    }

    fn log(&mut self, to: Option<&X>, text: &X) -> R<V> {
        if !crate::hooks::script::with_ctx(|cx| Ok(cx.logging()))? {
            return Ok(V::Unit);
        }
        let to = match to {
            Some(e) => {
                let v = self.expr(e)?;
                Some(
                    self.dynamic(v)
                        .into_immutable_string()
                        .map_err(|t| -> Error { t.into() })?,
                )
            }
            None => None,
        };
        let v = self.expr(text)?;
        let text = self.dynamic(v).to_string();
        crate::hooks::script::log_line(to.as_deref(), &text)?;
        Ok(V::Unit)
    }
}
