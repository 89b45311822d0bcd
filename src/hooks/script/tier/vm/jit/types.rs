//! Which of the VM's functions have native code, and their types: a
//! function is compiled where every value it makes is a number, a truth
//! value, a symbol or `()`, proven at load from its constants, its
//! operators and the functions it calls. A parameter's type is the one
//! its uses ask for (a number unless it is used as a truth value or
//! compared with a symbol); a call whose arguments are not of those
//! types runs in the VM.

use super::super::ir::*;
use super::super::value::V;
use crate::hooks::script::tier::tree::{Bin, Un};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    Int,
    Bool,
    /// A text of the symbol table (an id the game defines, a text
    /// constant): compared, never taken apart.
    Sym,
    Unit,
    /// Never has a value: a `return`, `break` or `continue`.
    Never,
}

/// A compiled function's types: each parameter's (None: never read, any
/// value passes) and its value's.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Sig {
    pub params: Vec<Option<Ty>>,
    pub ret: Ty,
}

/// A function's types as one pass found them.
pub(crate) struct Typed {
    pub sig: Sig,
    /// Each slot's type (None: never set).
    pub slots: Vec<Option<Ty>>,
}

/// What a pass found of one function: its types so far (None: its
/// value's type is not known yet), and whether a value's type was not
/// known in the pass; or why it has no native code.
enum Found {
    Typed(Option<Typed>, bool),
    Refused(String),
    /// Refused where a type was not known yet: a later pass looks again.
    Later(String),
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
    let mut later: Vec<Option<String>> = vec![None; n];
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
                Found::Later(why) => {
                    later[i] = Some(why);
                    last.push(None);
                }
                Found::Typed(t, pending) => {
                    later[i] = None;
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
    let why = (0..n)
        .map(|i| match (&last[i], &refused[i]) {
            (Some(_), _) => String::new(),
            (None, Some(w)) => w.clone(),
            (None, None) => later[i]
                .clone()
                .unwrap_or_else(|| "the types of its values are not settled".to_string()),
        })
        .collect();
    (last, why)
}

fn check(
    code: &Code,
    arity: usize,
    sigs: &[Option<Sig>],
    refused: &[Option<String>],
    never_unit: bool,
) -> Found {
    let mut c = Check {
        never_unit,
        blocks: 0,
        slots: vec![Slot::Unset; code.slots],
        sigs,
        refused,
        loops: 0,
        returns: Vec::new(),
        pending: false,
    };
    for p in 0..arity.min(code.slots) {
        c.slots[p] = Slot::Free;
    }
    c.function(code, arity)
}

#[derive(Clone, Copy, PartialEq)]
enum Slot {
    Unset,
    /// A parameter whose type no use has asked for yet.
    Free,
    Is(Ty),
}

struct Check<'a> {
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
}

type Res<T> = Result<T, String>;

/// The type of a value both branches may give.
fn join(a: Ty, b: Ty) -> Res<Ty> {
    match (a, b) {
        (Ty::Never, t) | (t, Ty::Never) => Ok(t),
        (a, b) if a == b => Ok(a),
        (a, b) => Err(format!("its value is {a:?} or {b:?}")),
    }
}

impl Check<'_> {
    fn function(&mut self, code: &Code, arity: usize) -> Found {
        let body = match self.block(&code.body, true) {
            Ok(t) => t,
            // What was refused may have met a type not known yet (a local
            // set from a call): a later pass, knowing more, decides.
            Err(why) if self.pending => return Found::Later(why),
            Err(why) => return Found::Refused(why),
        };
        let mut ret = body;
        for r in std::mem::take(&mut self.returns) {
            ret = match join(ret, r) {
                Ok(t) => t,
                Err(why) => return Found::Refused(why),
            };
        }
        if ret == Ty::Never && self.never_unit {
            ret = Ty::Unit;
        }
        if ret == Ty::Never {
            // Every way out is a call whose type is not known yet.
            return Found::Typed(None, true);
        }
        let params = (0..arity)
            .map(|p| match self.slots.get(p) {
                Some(Slot::Is(t)) => Some(*t),
                _ => None,
            })
            .collect();
        let slots = self
            .slots
            .iter()
            .map(|s| match s {
                Slot::Is(t) => Some(*t),
                _ => None,
            })
            .collect();
        let t = Typed {
            sig: Sig { params, ret },
            slots,
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

    fn set(&mut self, slot: usize, t: T) -> Res<()> {
        let t = match t {
            T::Known(t @ (Ty::Int | Ty::Bool | Ty::Sym)) => t,
            T::Known(other) => return Err(format!("a local is set to {other:?}")),
            T::Param(p) => {
                // A parameter copied: a number unless a use said otherwise.
                self.expect(T::Param(p), Ty::Int)?;
                Ty::Int
            }
            T::Any => {
                self.pending = true;
                return Ok(());
            }
        };
        match self.slots[slot] {
            Slot::Unset | Slot::Free => self.slots[slot] = Slot::Is(t),
            Slot::Is(u) if u == t => {}
            Slot::Is(u) => return Err(format!("a local holds {u:?} and {t:?}")),
        }
        Ok(())
    }

    fn expect(&mut self, t: T, want: Ty) -> Res<()> {
        match t {
            T::Known(k) if k == want => Ok(()),
            T::Known(k) => Err(format!("{k:?} where {want:?} is wanted")),
            T::Param(p) => match self.slots[p] {
                Slot::Free => {
                    self.slots[p] = Slot::Is(want);
                    Ok(())
                }
                Slot::Is(k) if k == want => Ok(()),
                _ => Err(format!("a parameter used as {want:?} and otherwise")),
            },
            T::Any => Ok(()),
        }
    }

    fn stmt(&mut self, s: &S, value: bool) -> Res<Ty> {
        Ok(match &s.kind {
            SKind::Noop | SKind::Counted => Ty::Unit,
            SKind::Expr(x) => {
                let t = self.expr(x)?;
                match t {
                    T::Known(t) => t,
                    T::Param(_) if value => {
                        self.expect(t, Ty::Int)?;
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
                self.set(*slot, t)?;
                Ty::Unit
            }
            SKind::OpAssign(x) => {
                let (slot, op, value, _, _) = &**x;
                if !matches!(op, Bin::Add | Bin::Sub | Bin::Mul | Bin::Div | Bin::Rem) {
                    return Err(format!("uses `{op:?}=`"));
                }
                if self.slots[*slot] != Slot::Is(Ty::Int) {
                    self.expect(T::Param(*slot), Ty::Int)
                        .map_err(|_| "an `op=` on a local that is not a number".to_string())?;
                }
                let t = self.expr(value)?;
                self.expect(t, Ty::Int)?;
                Ty::Unit
            }
            SKind::If(x) => {
                let (c, a, b) = &**x;
                let t = self.expr(c)?;
                self.expect(t, Ty::Bool)?;
                let ta = self.block(a, value)?;
                let tb = self.block(b, value)?;
                if value { join(ta, tb)? } else { Ty::Unit }
            }
            SKind::While(guard, body) => {
                if let Some(g) = guard {
                    let t = self.expr(g)?;
                    self.expect(t, Ty::Bool)?;
                }
                self.in_loop(body)?;
                Ty::Unit
            }
            SKind::Do(body, cond, _) => {
                self.in_loop(body)?;
                let t = self.expr(cond)?;
                self.expect(t, Ty::Bool)?;
                Ty::Unit
            }
            SKind::For(f) => {
                let Some((_, a, b)) = range(&f.iter) else {
                    return Err("a `for` over anything but a range of numbers".into());
                };
                for end in [a, b] {
                    if let End::X(x) = end {
                        let t = self.expr(x)?;
                        self.expect(t, Ty::Int)?;
                    }
                }
                self.set(f.var, T::Known(Ty::Int))?;
                if let Some(c) = f.counter {
                    self.set(c, T::Known(Ty::Int))?;
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
                            self.expect(T::Param(p), Ty::Int)?;
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
            SKind::SetPart(_) => return Err("sets a part of a list or a map".into()),
            SKind::Switch(_) => return Err("uses `switch`".into()),
            SKind::Throw(_) => return Err("uses `throw`".into()),
        })
    }

    fn in_loop(&mut self, body: &[S]) -> Res<()> {
        self.loops += 1;
        let r = self.block(body, false);
        self.loops -= 1;
        r.map(|_| ())
    }

    fn expr(&mut self, x: &X) -> Res<T> {
        Ok(match &x.kind {
            XKind::Const(V::Int(_)) => T::Known(Ty::Int),
            XKind::Const(V::Bool(_)) => T::Known(Ty::Bool),
            XKind::Const(V::Sym(_)) => T::Known(Ty::Sym),
            XKind::Const(V::Unit) => T::Known(Ty::Unit),
            XKind::Const(_) => return Err("a constant that is a list, a map or a text".into()),
            XKind::Local(s) | XKind::Move(s) => match self.slots[*s] {
                Slot::Is(t) => T::Known(t),
                Slot::Free => T::Param(*s),
                // Set by a value a later pass knows the type of.
                Slot::Unset if self.pending => T::Any,
                Slot::Unset => return Err("reads a local never set".into()),
            },
            XKind::Binary(b) | XKind::Simple(b) => {
                let (op, a, b, _) = &**b;
                let (ta, tb) = (self.expr(a)?, self.expr(b)?);
                match op {
                    Bin::Add | Bin::Sub | Bin::Mul | Bin::Div | Bin::Rem => {
                        self.expect(ta, Ty::Int)?;
                        self.expect(tb, Ty::Int)?;
                        T::Known(Ty::Int)
                    }
                    Bin::Lt | Bin::Le | Bin::Gt | Bin::Ge => {
                        self.expect(ta, Ty::Int)?;
                        self.expect(tb, Ty::Int)?;
                        T::Known(Ty::Bool)
                    }
                    Bin::Eq | Bin::Ne => {
                        // Of one type: the one either side is known to be.
                        let t = match (ta, tb) {
                            (T::Known(t @ (Ty::Bool | Ty::Sym)), _)
                            | (_, T::Known(t @ (Ty::Bool | Ty::Sym))) => t,
                            _ => Ty::Int,
                        };
                        self.expect(ta, t)?;
                        self.expect(tb, t)?;
                        T::Known(Ty::Bool)
                    }
                    _ => return Err(format!("uses the operator {op:?}")),
                }
            }
            XKind::Unary(u) => {
                let (op, a, _) = &**u;
                let t = self.expr(a)?;
                let want = match op {
                    Un::Neg => Ty::Int,
                    Un::Not => Ty::Bool,
                };
                self.expect(t, want)?;
                T::Known(want)
            }
            XKind::And(xs) | XKind::Or(xs) => {
                for e in xs {
                    let t = self.expr(e)?;
                    self.expect(t, Ty::Bool)?;
                }
                T::Known(Ty::Bool)
            }
            XKind::Script(ix, args) => {
                if self.refused[*ix].is_some() {
                    return Err("calls a function with no native code".into());
                }
                let params = self.sigs[*ix].as_ref().map(|s| s.params.clone());
                for (i, a) in args.iter().enumerate() {
                    let t = self.expr(a)?;
                    match params.as_ref().and_then(|p| p.get(i).copied().flatten()) {
                        Some(want) => self.expect(t, want)?,
                        None if params.is_none() => {
                            // The callee's types are a later pass's.
                            self.pending = true;
                        }
                        None => {}
                    }
                    if let T::Known(Ty::Unit | Ty::Never) = t {
                        return Err("passes `()` to a function".into());
                    }
                }
                match self.sigs[*ix].as_ref().map(|s| s.ret) {
                    Some(t) => T::Known(t),
                    None => {
                        self.pending = true;
                        T::Any
                    }
                }
            }
            XKind::Api(a) => return Err(format!("calls the API function `{}`", a.name)),
            XKind::Chain(_) | XKind::Item(_) => {
                return Err("reads a part of a value, or calls a method".into());
            }
            XKind::Rhai(_) => return Err("calls a function of Rhai's".into()),
            XKind::Interp(_) | XKind::Named(_) => return Err("makes a text".into()),
            XKind::Array(_) | XKind::SymMap(_) => return Err("makes a list or a map".into()),
            XKind::ConstFn(_) => return Err("calls a function whose value is a table".into()),
            XKind::Curry(_) => return Err("makes a closure".into()),
            XKind::Block(b) => {
                // A block as a value (an `if` as an expression): no way
                // out of it but its end.
                self.blocks += 1;
                let t = self.block(b, true);
                self.blocks -= 1;
                match t? {
                    // A call's value a later pass knows.
                    Ty::Never if self.pending => T::Any,
                    Ty::Never => return Err("a value that never comes".into()),
                    t => T::Known(t),
                }
            }
            XKind::Log(..) => return Err("writes to the log".into()),
        })
    }
}

/// A range's end: an expression, or a number where the range is a
/// constant (Rhai folds `0..3`).
pub(crate) enum End<'x> {
    X(&'x X),
    N(i64),
}

/// `a..b` or `a..=b` (whether inclusive, and its ends).
pub(crate) fn range(x: &X) -> Option<(bool, End<'_>, End<'_>)> {
    match &x.kind {
        XKind::Binary(b) | XKind::Simple(b) => match b.0 {
            Bin::Range => Some((false, End::X(&b.1), End::X(&b.2))),
            Bin::RangeInclusive => Some((true, End::X(&b.1), End::X(&b.2))),
            _ => None,
        },
        XKind::Const(V::Dyn(d)) => {
            if let Some(r) = d.read_lock::<std::ops::Range<i64>>() {
                return Some((false, End::N(r.start), End::N(r.end)));
            }
            let r = d.read_lock::<std::ops::RangeInclusive<i64>>()?;
            Some((true, End::N(*r.start()), End::N(*r.end())))
        }
        _ => None,
    }
}
