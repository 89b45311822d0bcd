//! The types of the VM's functions' native code (jit/), proven at load
//! from their constants, their operators and the functions they call:
//! numbers, truth values and symbols are kept in registers; any other
//! value (a list, a map, a text made, an API call's value) is `Val`,
//! kept in the function's frame on the VM's stack in the VM's own form,
//! and each expression or statement on one is run by the VM (a
//! "delegated" unit, through a helper). A parameter's type is the one
//! its uses ask for (a number unless it is used as a truth value or
//! compared with a symbol). A function with no `Val` at all has no frame
//! and is called directly by native code where the arguments are of
//! its parameters' types; any other call goes through the VM's call
//! (calls.rs), which runs the callee's native code where the values
//! passed are of those types, and the VM otherwise.

mod calls;

use rustc_hash::{FxHashMap, FxHashSet};

use super::super::ir::*;
use super::super::value::V;
use super::loops::{End, const_items, range};
use super::mixed::compares;
use super::walk::{walk_s, walk_x};
use crate::hooks::script::tier::tree::{Bin, Un};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    Int,
    Bool,
    /// A text of the symbol table (an id the game defines, a text
    /// constant), or `()`: compared, never taken apart (as `offset`
    /// gives a cell or `()`).
    Sym,
    Unit,
    /// Never has a value: a `return`, `break` or `continue`.
    Never,
    /// Any value, held in the frame in the VM's form.
    Val,
}

impl Ty {
    /// The type by its number (`Ty as i64`), as helpers are handed it.
    pub fn of_code(c: i64) -> Ty {
        [Ty::Int, Ty::Bool, Ty::Sym, Ty::Unit]
            .get(c as usize)
            .copied()
            .unwrap_or(Ty::Unit)
    }
}

/// A compiled function's types: each parameter's (None: no native use of
/// it, any value passes and stays in the frame), its value's, and
/// whether it has a frame on the VM's stack (anything `Val` in it).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Sig {
    pub params: Vec<Option<Ty>>,
    pub ret: Ty,
    pub frame: bool,
}

/// A function's types as the last pass found them.
pub(crate) struct Typed {
    pub sig: Sig,
    /// Each slot's type (None: never set).
    pub slots: Vec<Option<Ty>>,
    /// The type of each expression checked, by its address.
    pub exprs: FxHashMap<usize, Ty>,
    /// The statements the VM runs whole (by address): a part set, a
    /// `switch`, a `throw`, an `op=` not on numbers (but on a local the
    /// VM holds with a plain value: mixed.rs's `held_op`).
    pub whole: FxHashSet<usize>,
    /// How many expressions native code makes itself.
    pub natives: usize,
    /// The calls made through the VM's call, their arguments made by
    /// native code (calls.rs), by address.
    pub vm_calls: FxHashSet<usize>,
}

impl Typed {
    /// Expression `x`'s type (`Val` where it was not checked: run by the
    /// VM as part of a larger one).
    pub fn of(&self, x: &X) -> Ty {
        self.exprs.get(&addr(x)).copied().unwrap_or(Ty::Val)
    }

    /// Whether call `x` is made through the VM's call (calls.rs).
    pub fn by_vm_call(&self, x: &X) -> bool {
        self.vm_calls.contains(&addr(x))
    }

    pub fn is_whole(&self, s: &S) -> bool {
        self.whole.contains(&(std::ptr::from_ref(s) as usize))
    }

    /// A local's type in registers; None where it is in the frame.
    pub fn reg(&self, slot: usize) -> Option<Ty> {
        match self.slots.get(slot).copied().flatten() {
            Some(Ty::Val) | None => None,
            t => t,
        }
    }
}

fn addr(x: &X) -> usize {
    std::ptr::from_ref(x) as usize
}

/// What a pass found of one function: its types so far (None: its
/// value's type is not known yet), and whether a value's type was not
/// known in the pass; or why it has no native code.
enum Found {
    Typed(Option<Typed>, bool),
    Refused(String),
}

/// An expression's type while a function is checked.
#[derive(Clone, Copy, PartialEq, Debug)]
enum T {
    Known(Ty),
    /// A parameter no use has typed yet (its slot).
    Param(usize),
    /// A call's value whose type a later pass knows.
    Any,
}

const VAL: T = T::Known(Ty::Val);

/// Each function's types (None: it has no native code, with the reason
/// in `why`), given the VM's forms (`codes`) and each one's arity.
pub(crate) fn all(codes: &[Option<Code>], arity: &[usize]) -> (Vec<Option<Typed>>, Vec<String>) {
    let n = codes.len();
    let mut sigs: Vec<Option<Sig>> = vec![None; n];
    let mut refused: Vec<Option<String>> = codes
        .iter()
        .map(|c| c.is_none().then(|| "runs outside the VM".to_string()))
        .collect();
    // Each pass may learn a type (a recursive call's value, a callee's
    // parameter): passes run until none changes, then a last one keeps
    // the functions whose every type is known.
    let mut last = Vec::new();
    // Once no pass learns more, a function no way out of which gives a
    // value (`fn deep(n) { deep(n + 1) }`) is taken to give `()`.
    let mut never_unit = false;
    for round in 0..=16 {
        let mut changed = false;
        last.clear();
        for i in 0..n {
            let found = match &codes[i] {
                Some(_) if arity[i] > super::MAX_ARGS => {
                    Found::Refused(format!("has more than {} parameters", super::MAX_ARGS))
                }
                Some(code) if refused[i].is_none() => {
                    check(code, arity[i], &sigs, &refused, never_unit)
                }
                _ => Found::Refused(String::new()),
            };
            match found {
                Found::Refused(why) => {
                    if refused[i].is_none() {
                        refused[i] = Some(why);
                        changed = true;
                    }
                    last.push(None);
                }
                Found::Typed(t, pending) => {
                    let sig = t.as_ref().map(|t| t.sig.clone());
                    if sig.is_some() && sigs[i] != sig {
                        sigs[i] = sig;
                        changed = true;
                    }
                    last.push(t.filter(|_| !pending));
                }
            }
        }
        if !changed && never_unit {
            break;
        }
        if !changed {
            never_unit = true;
        }
        if round == 16 {
            last = (0..n).map(|_| None).collect();
        }
    }
    // A function with a frame and nothing for registers would only hand
    // the VM all of it: the VM runs it (its callers call it through the
    // VM whatever it has).
    for (i, t) in last.iter_mut().enumerate() {
        if t.as_ref().is_some_and(|t| t.sig.frame && t.natives == 0) {
            *t = None;
            refused[i] = Some("nothing in it runs in registers (the VM runs it whole)".into());
        }
    }
    let why = (0..n)
        .map(|i| match (&last[i], &refused[i]) {
            (Some(_), _) => String::new(),
            (None, Some(w)) => w.clone(),
            (None, None) => "the types of its values are not settled".to_string(),
        })
        .collect();
    (last, why)
}

/// One function's types: passes over its body until its locals' types
/// settle, each pass reading them as the last one set them (where they
/// do not, the function has no native code).
fn check(
    code: &Code,
    arity: usize,
    sigs: &[Option<Sig>],
    refused: &[Option<String>],
    never_unit: bool,
) -> Found {
    let fresh = |seed: &[Slot]| {
        let mut s = vec![Slot::Unset; code.slots];
        for (p, slot) in s.iter_mut().enumerate().take(arity) {
            *slot = match seed.get(p) {
                Some(Slot::Is(t)) => Slot::Is(*t),
                _ => Slot::Free,
            };
        }
        s
    };
    let mut seed = fresh(&[]);
    for pass in 0..4 * code.slots + 4 {
        let mut c = Check {
            never_unit,
            blocks: 0,
            slots: fresh(&seed),
            seed: seed.clone(),
            first: pass == 0,
            sigs,
            refused,
            loops: 0,
            returns: Vec::new(),
            pending: false,
            frame: false,
            exprs: FxHashMap::default(),
            param_reads: Vec::new(),
            natives: 0,
            whole: FxHashSet::default(),
            vm_calls: FxHashSet::default(),
        };
        let found = c.function(code, arity);
        if matches!(found, Found::Refused(_)) || c.slots == seed {
            return found;
        }
        // Read as this pass set them (after the first, a local read
        // before it was set was `Val` in this pass, which may have made
        // others `Val`).
        seed = c.slots;
    }
    Found::Refused("the types of its locals do not settle".into())
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Slot {
    Unset,
    /// A parameter whose type no use has asked for yet.
    Free,
    Is(Ty),
}

impl Slot {
    fn join(self, o: Slot) -> Slot {
        match (self, o) {
            (Slot::Unset, x) | (x, Slot::Unset) => x,
            (Slot::Free, x) | (x, Slot::Free) => x,
            (Slot::Is(a), Slot::Is(b)) if a == b => Slot::Is(a),
            _ => Slot::Is(Ty::Val),
        }
    }
}

struct Check<'a> {
    /// The locals' types this pass: what their reads are.
    seed: Vec<Slot>,
    /// Whether this is the first pass, whose reads of a local see no
    /// type yet: not known (the next pass knows), rather than `Val`,
    /// which would hold for good (`let s = 0; s = f(s)`).
    first: bool,
    /// The locals' types as this pass sets them.
    slots: Vec<Slot>,
    sigs: &'a [Option<Sig>],
    refused: &'a [Option<String>],
    loops: usize,
    returns: Vec<Ty>,
    /// Whether a value's type was not known in this pass.
    pending: bool,
    /// Whether a function with no value's type gives `()`.
    never_unit: bool,
    /// How deep in blocks used as values (where a jump is refused).
    blocks: usize,
    /// Whether anything is `Val` (the function needs a frame).
    frame: bool,
    exprs: FxHashMap<usize, Ty>,
    /// Reads of a parameter whose type no use had asked for yet.
    param_reads: Vec<(usize, usize)>,
    /// The expressions native code makes itself (not the VM's parts).
    natives: usize,
    whole: FxHashSet<usize>,
    vm_calls: FxHashSet<usize>,
}

type Res<T> = Result<T, String>;

/// Whether a value of type `k` is one of type `want` in a register (`()`
/// is among the symbols).
fn passes(k: Ty, want: Ty) -> bool {
    (k == want && k != Ty::Val) || (k, want) == (Ty::Unit, Ty::Sym)
}

/// The type of a value both branches may give.
fn join(a: Ty, b: Ty) -> Ty {
    match (a, b) {
        (Ty::Never, t) | (t, Ty::Never) => t,
        (a, b) if a == b => a,
        (Ty::Sym | Ty::Unit, Ty::Sym | Ty::Unit) => Ty::Sym,
        _ => Ty::Val,
    }
}

impl Check<'_> {
    fn function(&mut self, code: &Code, arity: usize) -> Found {
        let body = match self.block(&code.body, true) {
            Ok(t) => t,
            Err(why) => return Found::Refused(why),
        };
        let mut ret = body;
        for r in std::mem::take(&mut self.returns) {
            ret = join(ret, r);
        }
        if ret == Ty::Never && self.never_unit {
            ret = Ty::Unit;
        }
        if ret == Ty::Never {
            // Every way out is a call whose type is not known yet.
            return Found::Typed(None, true);
        }
        let slots: Vec<Option<Ty>> = self
            .slots
            .iter()
            .map(|s| match s {
                Slot::Is(t) => Some(*t),
                _ => None,
            })
            .collect();
        let params: Vec<Option<Ty>> = (0..arity)
            .map(|p| slots.get(p).copied().flatten())
            .collect();
        let frame = self.frame || ret == Ty::Val || slots.contains(&Some(Ty::Val));
        // A parameter's reads, resolved now its type is known (where no
        // use typed it, it stays in the frame).
        let mut exprs = std::mem::take(&mut self.exprs);
        for (a, p) in std::mem::take(&mut self.param_reads) {
            exprs.insert(a, slots.get(p).copied().flatten().unwrap_or(Ty::Val));
        }
        // A parameter read where no use typed it is read from the frame.
        let frame = frame || exprs.values().any(|t| *t == Ty::Val);
        let t = Typed {
            sig: Sig { params, ret, frame },
            slots,
            exprs,
            whole: std::mem::take(&mut self.whole),
            natives: self.natives,
            vm_calls: std::mem::take(&mut self.vm_calls),
        };
        Found::Typed(Some(t), self.pending)
    }

    /// A block's type: its last statement's where its value is used.
    fn block(&mut self, b: &[S], value: bool) -> Res<Ty> {
        let mut t = Ty::Unit;
        for (i, s) in b.iter().enumerate() {
            t = self.stmt(s, value && i + 1 == b.len())?;
            if t == Ty::Never {
                // What follows never runs.
                return Ok(Ty::Never);
            }
        }
        Ok(t)
    }

    /// Local `slot` set to a value of type `t`.
    fn set(&mut self, slot: usize, t: T) {
        let t = match t {
            T::Known(Ty::Never) => return,
            T::Known(Ty::Unit) => Ty::Sym,
            T::Known(t) => t,
            T::Param(p) => match self.seed[p] {
                Slot::Is(t) => t,
                // A parameter copied: a number unless a use said otherwise.
                _ => {
                    self.fits(T::Param(p), Ty::Int);
                    Ty::Int
                }
            },
            T::Any => {
                self.pending = true;
                return;
            }
        };
        if t == Ty::Val {
            self.frame = true;
        }
        self.slots[slot] = self.slots[slot].join(Slot::Is(t));
    }

    /// Whether a value of type `t` is a `want` (a parameter not typed yet
    /// becomes one); where not, the expression using it is run by the VM.
    fn fits(&mut self, t: T, want: Ty) -> bool {
        match t {
            T::Known(k) => passes(k, want),
            T::Param(_) if want == Ty::Val => false,
            T::Param(p) => match self.slots[p] {
                Slot::Free | Slot::Unset => {
                    self.slots[p] = Slot::Is(want);
                    true
                }
                Slot::Is(k) if k == want => true,
                Slot::Is(_) => {
                    self.slots[p] = Slot::Is(Ty::Val);
                    false
                }
            },
            T::Any => true,
        }
    }

    /// `x` (of type `t`) run by the VM: every local it writes is `Val`.
    fn delegate(&mut self, x: &X) -> Res<T> {
        self.handed(|f| walk_x(x, f), "an expression")?;
        Ok(VAL)
    }

    /// Statement `s` run whole by the VM.
    fn whole(&mut self, s: &S) -> Res<Ty> {
        self.handed(|f| walk_s(s, f), "a statement")?;
        self.whole.insert(std::ptr::from_ref(s) as usize);
        Ok(Ty::Unit)
    }

    /// A unit (`walk` walks it) handed to the VM: the function has a
    /// frame, and every local the unit may write is `Val`.
    fn handed(
        &mut self,
        walk: impl FnOnce(&mut dyn FnMut(usize, bool)) -> bool,
        what: &str,
    ) -> Res<()> {
        self.frame = true;
        let mut writes = Vec::new();
        if walk(&mut |k, w| {
            if w {
                writes.push(k);
            }
        }) {
            return Err(format!("jumps out of {what} the VM runs"));
        }
        for k in writes {
            self.set(k, VAL);
        }
        Ok(())
    }

    /// A condition: a truth value, or a value the VM tests.
    fn cond(&mut self, x: &X) -> Res<()> {
        let before = self.natives;
        let t = self.expr(x)?;
        if !self.fits(t, Ty::Bool) {
            self.natives = before;
            // Not a truth value: the VM runs it, and says so.
            self.delegate(x)?;
            self.exprs.insert(addr(x), Ty::Val);
        }
        Ok(())
    }

    fn stmt(&mut self, s: &S, value: bool) -> Res<Ty> {
        Ok(match &s.kind {
            SKind::Noop | SKind::Counted => Ty::Unit,
            SKind::Expr(x) => {
                let t = self.expr(x)?;
                match t {
                    T::Known(t) => t,
                    T::Param(_) if value => {
                        self.fits(t, Ty::Int);
                        Ty::Int
                    }
                    T::Param(_) => Ty::Unit,
                    T::Any => {
                        self.pending = true;
                        // Its type is a later pass's; as a value unused, none.
                        if value { Ty::Never } else { Ty::Unit }
                    }
                }
            }
            SKind::Let(slot, x) | SKind::Assign(slot, x) => {
                let t = self.expr(x)?;
                self.set(*slot, t);
                Ty::Unit
            }
            SKind::OpAssign(x) => {
                let (slot, op, value, _, _) = &**x;
                let t = self.expr(value)?;
                let native = matches!(op, Bin::Add | Bin::Sub | Bin::Mul | Bin::Div | Bin::Rem)
                    && self.seed[*slot] != Slot::Is(Ty::Val)
                    && self.fits(T::Param(*slot), Ty::Int)
                    && self.fits(t, Ty::Int);
                // On a local the VM holds, a plain value made in a
                // register: the VM's `op=` on the two (mixed.rs).
                // Or a value a call through the VM's call puts in a slot.
                let held = self.seed[*slot] == Slot::Is(Ty::Val)
                    && (matches!(t, T::Known(Ty::Int | Ty::Bool | Ty::Sym | Ty::Unit))
                        || (t == VAL && self.vm_calls.contains(&addr(value))));
                if held {
                    self.set(*slot, VAL);
                } else if !native {
                    return self.whole(s);
                }
                Ty::Unit
            }
            SKind::If(x) => {
                let (c, a, b) = &**x;
                self.cond(c)?;
                let ta = self.block(a, value)?;
                let tb = self.block(b, value)?;
                if value { join(ta, tb) } else { Ty::Unit }
            }
            SKind::While(guard, body) => {
                if let Some(g) = guard {
                    self.cond(g)?;
                }
                self.in_loop(body)?;
                Ty::Unit
            }
            SKind::Do(body, cond, _) => {
                self.in_loop(body)?;
                self.cond(cond)?;
                Ty::Unit
            }
            SKind::For(f) if let Some((t, _)) = const_items(&f.iter) => {
                // Over a constant list of plain values of one type: read
                // from a table in native code (emit.rs `for_range`).
                self.set(f.var, T::Known(t));
                if let Some(c) = f.counter {
                    self.set(c, T::Known(Ty::Int));
                }
                self.exprs.insert(addr(&f.iter), t);
                self.in_loop(&f.body)?;
                Ty::Unit
            }
            SKind::For(f) => {
                let mut native = false;
                if let Some((_, a, b)) = range(&f.iter) {
                    native = true;
                    for end in [a, b] {
                        if let End::X(x) = end {
                            let t = self.expr(x)?;
                            native &= self.fits(t, Ty::Int);
                        }
                    }
                }
                if native {
                    self.set(f.var, T::Known(Ty::Int));
                    if let Some(c) = f.counter {
                        self.set(c, T::Known(Ty::Int));
                    }
                    self.exprs.insert(addr(&f.iter), Ty::Int);
                } else {
                    // Over a value the VM makes: its items in the frame.
                    self.delegate(&f.iter)?;
                    self.exprs.insert(addr(&f.iter), Ty::Val);
                    self.set(f.var, VAL);
                    if let Some(c) = f.counter {
                        self.set(c, VAL);
                    }
                }
                self.in_loop(&f.body)?;
                Ty::Unit
            }
            SKind::Break | SKind::Continue | SKind::Return(_) if self.blocks > 0 => {
                return Err("jumps out of a block used as a value".into());
            }
            SKind::Break | SKind::Continue if self.loops > 0 => Ty::Never,
            SKind::Break | SKind::Continue => return Err("a `break` outside a loop".into()),
            SKind::Return(x) => {
                let t = match x {
                    None => Ty::Unit,
                    Some(x) => match self.expr(x)? {
                        T::Known(t) => t,
                        T::Param(p) => {
                            self.fits(T::Param(p), Ty::Int);
                            Ty::Int
                        }
                        T::Any => {
                            self.pending = true;
                            Ty::Never
                        }
                    },
                };
                self.returns.push(t);
                Ty::Never
            }
            SKind::Block(b) => self.block(b, value)?,
            SKind::SetPart(_) | SKind::Throw(_) => self.whole(s)?,
            // Its value is its arm's.
            SKind::Switch(_) => {
                self.whole(s)?;
                Ty::Val
            }
        })
    }

    fn in_loop(&mut self, body: &[S]) -> Res<()> {
        self.loops += 1;
        let r = self.block(body, false);
        self.loops -= 1;
        r.map(|_| ())
    }

    /// A value's type as far as this pass knows it (a parameter's, once
    /// a use typed it).
    fn now(&self, t: T) -> Option<Ty> {
        match t {
            T::Known(t) => Some(t),
            T::Param(p) => match self.slots[p] {
                Slot::Is(t) => Some(t),
                _ => None,
            },
            T::Any => None,
        }
    }

    /// Whether `x` is a local this pass holds a number or a symbol in.
    fn plain_local(&self, x: Option<&X>) -> bool {
        match x.map(|x| &x.kind) {
            Some(XKind::Local(s) | XKind::Move(s)) => {
                matches!(self.seed.get(*s), Some(Slot::Is(Ty::Int | Ty::Sym)))
            }
            _ => false,
        }
    }

    /// Whether `x` calls a function with no native code (the VM calls it).
    fn refused_call(&self, x: &X) -> bool {
        matches!(&x.kind, XKind::Script(ix, _) if self.refused[*ix].is_some())
    }

    /// Expression `x`'s type, noted by its address (where `Val`, the VM
    /// runs it whole).
    fn expr(&mut self, x: &X) -> Res<T> {
        let before = self.natives;
        let t = self.typed(x)?;
        let t = match t {
            // A call through the VM's call, its arguments made natively
            // (calls.rs). Where the VM makes it whole instead (an API
            // call's argument the helper makes), every local it may write
            // is `Val` all the same.
            T::Known(Ty::Val) if self.vm_calls.contains(&addr(x)) => {
                self.handed(|f| walk_x(x, f), "an expression")?;
                self.natives += 1;
                VAL
            }
            T::Known(Ty::Val) => {
                // Its parts are the VM's too.
                self.natives = before;
                self.delegate(x)?
            }
            t => {
                self.natives += 1;
                t
            }
        };
        let ty = match t {
            T::Known(t) => t,
            // Resolved once the pass ends, by its slot's type.
            T::Param(p) => {
                self.param_reads.push((addr(x), p));
                Ty::Int
            }
            T::Any => Ty::Int,
        };
        self.exprs.insert(addr(x), ty);
        Ok(t)
    }

    fn typed(&mut self, x: &X) -> Res<T> {
        Ok(match &x.kind {
            XKind::Const(V::Int(_)) => T::Known(Ty::Int),
            XKind::Const(V::Bool(_)) => T::Known(Ty::Bool),
            XKind::Const(V::Sym(_)) => T::Known(Ty::Sym),
            XKind::Const(V::Unit) => T::Known(Ty::Unit),
            XKind::Local(s) | XKind::Move(s) => match self.seed[*s] {
                Slot::Is(t) => T::Known(t),
                Slot::Free => T::Param(*s),
                // Not set in the last pass: the first sees no type yet
                // (the next pass knows); else never set before a read.
                Slot::Unset if self.first => {
                    self.pending = true;
                    T::Any
                }
                Slot::Unset => VAL,
            },
            XKind::Binary(b) | XKind::Simple(b) => {
                let (op, a, b, _) = &**b;
                let (ta, tb) = match self.operands(*op, a, b)? {
                    Ok(t) => return Ok(t),
                    Err(ts) => ts,
                };
                // One operand held by the VM, the other in a register:
                // compared where it is (mixed.rs).
                match (ta, tb) {
                    (VAL, T::Known(t)) | (T::Known(t), VAL) if compares(*op, t) => {
                        return Ok(T::Known(Ty::Bool));
                    }
                    _ => {}
                }
                let (want, out) = match op {
                    Bin::Add | Bin::Sub | Bin::Mul | Bin::Div | Bin::Rem => (Ty::Int, Ty::Int),
                    Bin::Lt | Bin::Le | Bin::Gt | Bin::Ge => (Ty::Int, Ty::Bool),
                    // A side not known in this pass (the next one knows):
                    // the other side not typed by it (a parameter would
                    // be taken for a number for good).
                    Bin::Eq | Bin::Ne if ta == T::Any || tb == T::Any => {
                        self.pending = true;
                        return Ok(T::Known(Ty::Bool));
                    }
                    Bin::Eq | Bin::Ne => {
                        // Of one type: the one either side is known to be.
                        let t = match (self.now(ta), self.now(tb)) {
                            (Some(t @ (Ty::Bool | Ty::Sym | Ty::Val)), _)
                            | (_, Some(t @ (Ty::Bool | Ty::Sym | Ty::Val))) => t,
                            (Some(Ty::Unit), _) | (_, Some(Ty::Unit)) => Ty::Sym,
                            _ => Ty::Int,
                        };
                        (t, Ty::Bool)
                    }
                    _ => return Ok(VAL),
                };
                let fit = self.fits(ta, want) & self.fits(tb, want);
                if fit { T::Known(out) } else { VAL }
            }
            XKind::Unary(u) => {
                let (op, a, _) = &**u;
                let t = self.expr(a)?;
                let want = match op {
                    Un::Neg => Ty::Int,
                    Un::Not => Ty::Bool,
                };
                if self.fits(t, want) {
                    T::Known(want)
                } else {
                    VAL
                }
            }
            XKind::And(xs) | XKind::Or(xs) => {
                let mut fit = true;
                for e in xs {
                    let t = self.expr(e)?;
                    fit &= self.fits(t, Ty::Bool);
                }
                if fit { T::Known(Ty::Bool) } else { VAL }
            }
            XKind::Script(ix, args) => self.script(x, *ix, args)?,
            XKind::Api(a) => self.api(a)?,
            XKind::Block(b) => {
                // A block as a value (an `if` as an expression): no way
                // out of it but its end.
                self.blocks += 1;
                let t = self.block(b, true);
                self.blocks -= 1;
                match t? {
                    // A call's value a later pass knows.
                    Ty::Never if self.pending => T::Any,
                    Ty::Never => VAL,
                    t => T::Known(t),
                }
            }
            _ => VAL,
        })
    }
}
