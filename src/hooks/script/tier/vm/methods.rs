//! A method called in the VM (`this.name(args)`): a VM list's own methods
//! and the closures handed to `filter`, `map`, `all` and `some` run here,
//! the rest as the tree tier runs them.

use rhai::{EvalAltResult, FnPtr, Position};

use super::ir::{Code, Inline};
use super::run::{Args, Flow, VmRun};
use super::value::V;
use crate::hooks::script::tier::builtins::method_fast;
use crate::hooks::script::tier::tree::Helper;

type R<T> = Result<T, Flow>;

impl VmRun<'_, '_> {
    /// `this.name(args)`: a list's own methods here (a compiled closure
    /// called in the VM), the rest as the tree tier runs them.
    pub(super) fn method(
        &mut self,
        name: &str,
        this: &mut V,
        args: Args,
        pos: Position,
        helper: &Helper,
        native: Option<usize>,
    ) -> R<V> {
        if let V::List(l) = this {
            match (name, args.as_slice()) {
                ("len", []) => return Ok(V::Int(l.len() as i64)),
                ("is_empty", []) => return Ok(V::Bool(l.is_empty())),
                ("push", [_]) => {
                    let mut args = args;
                    l.push(args.pop().unwrap_or_default());
                    // Rhai's limits on the whole list after.
                    this.limit(&self.vm.syms, pos)?;
                    return Ok(V::Unit);
                }
                _ => {}
            }
            if let Some(v) = super::lists::method(l, name, &args) {
                return Ok(v);
            }
            if let Some(r) = self.list_closure(name, l, &args, pos) {
                return r;
            }
        }
        if let V::Map(m) = this {
            match (name, args.as_slice()) {
                ("len", []) => return Ok(V::Int(m.len() as i64)),
                ("is_empty", []) => return Ok(V::Bool(m.is_empty())),
                ("keys", []) => return Ok(V::List(m.iter().map(|(k, _)| V::Sym(*k)).collect())),
                ("values", []) => return Ok(V::List(m.iter().map(|(_, v)| v.clone()).collect())),
                ("contains", [x]) => {
                    if let Some(b) = super::lists::contains(this, x) {
                        return Ok(V::Bool(b));
                    }
                }
                _ => {}
            }
        }
        if matches!(this, V::List(_) | V::Map(_)) {
            super::run::handed(name);
        }
        let mut d = self.dynamic(std::mem::take(this));
        let dargs: super::super::run::Args = args.into_iter().map(|v| self.dynamic(v)).collect();
        let mut dargs = dargs;
        let fast = method_fast(name, &mut d, &dargs, pos)
            .or_else(|| self.run.with_closure(name, &d, &dargs, pos))
            .or_else(|| {
                let ix = native?;
                self.run.method_native(ix, name, &mut d, &mut dargs, pos)
            });
        let r = match fast {
            Some(r) => r,
            None => self.run.helper(helper, Some(&mut d), dargs.into_vec(), pos),
        };
        *this = self.of(d);
        Ok(self.of(r?))
    }

    /// `filter`, `map`, `all` and `some` of a VM list with a closure the
    /// VM compiled: each item handed to it as a VM value. None where the
    /// closure is not one (the tree tier's way then).
    fn list_closure(&mut self, name: &str, list: &[V], args: &[V], pos: Position) -> Option<R<V>> {
        let [V::Dyn(f)] = args else { return None };
        let kind = kind(name)?;
        let vm = self.vm;
        let (code, curry) = {
            let ptr = f.read_lock::<FnPtr>()?;
            let (ix, params) = self.run.tier.closure(ptr.fn_name())?;
            let code = vm.codes[ix].as_ref()?;
            let curry: Args = ptr.curry().iter().map(|d| self.of(d.clone())).collect();
            if params != curry.len() + 1 {
                return None;
            }
            (code, curry)
        };
        Some(self.closure_loop(kind, list, code, curry, pos))
    }

    /// `this.name(|x| ...)` with the closure written there (`Inline`), its
    /// captured values on the stack at `captured`: a loop on a VM list,
    /// else the closure made as a function value, as Rhai has it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn method_closure(
        &mut self,
        name: &str,
        c: &Inline,
        this: &mut V,
        captured: std::ops::Range<usize>,
        pos: Position,
        helper: &Helper,
        native: Option<usize>,
    ) -> R<V> {
        self.forget_from(captured.start);
        let values: Args = (self.stack[captured].iter_mut())
            .map(std::mem::take)
            .collect();
        let vm = self.vm;
        if let (V::List(l), Some(code), Some(kind)) = (&*this, vm.codes[c.ix].as_ref(), kind(name))
        {
            return self.closure_loop(kind, l, code, values, pos);
        }
        // As `XKind::Curry` makes it.
        let mut p = c.ptr.clone().cast::<FnPtr>();
        for v in values {
            p.add_curry(self.dynamic(v));
        }
        let args: Args = [V::Dyn(p.into())].into_iter().collect();
        self.method(name, this, args, pos, helper, native)
    }

    /// The closure `code` called on each item of `list` (after its
    /// captured values `curry`) as Rhai's `filter` (kind 0), `map` (1),
    /// `all` (2) or `some` (3) calls it, in one frame kept from item to
    /// item (a call's locals are written before they are read, so what
    /// one item leaves there is never seen by the next; its parameters
    /// are set for each).
    fn closure_loop(
        &mut self,
        kind: usize,
        list: &[V],
        code: &Code,
        curry: Args,
        pos: Position,
    ) -> R<V> {
        let base = self.stack.len();
        let item_slot = base + curry.len();
        while self.stack.len() < base + code.slots.max(curry.len() + 1) {
            self.stack.push(V::Unit);
        }
        self.run.level += 1;
        let mut out = Vec::new();
        let mut r = Ok(None);
        for item in list {
            // As `call_pushed` calls a function.
            self.run.level += 1;
            let one = match self.enter(pos) {
                Err(e) => Err(e),
                Ok(()) if code.body.is_empty() => Ok(V::Unit),
                Ok(()) => {
                    // The captured values afresh: the body may have moved
                    // one out as its value (`|x| p`).
                    self.forget_from(base);
                    for (i, v) in curry.iter().enumerate() {
                        super::run::set(&mut self.stack[base + i], v.copy());
                    }
                    super::run::set(&mut self.stack[item_slot], item.copy());
                    self.body(code, base, pos)
                }
            };
            self.run.level -= 1;
            let v = match one {
                Err(e) => {
                    r = Err(e);
                    break;
                }
                Ok(v) => v,
            };
            let yes = matches!(v, V::Bool(true));
            match kind {
                0 if yes => out.push(item.copy()),
                1 => out.push(v),
                2 if !yes => {
                    r = Ok(Some(V::Bool(false)));
                    break;
                }
                3 if yes => {
                    r = Ok(Some(V::Bool(true)));
                    break;
                }
                _ => {}
            }
        }
        self.run.level -= 1;
        self.pop_to(base);
        match r {
            Ok(Some(v)) => Ok(v),
            Ok(None) if kind < 2 => {
                let list = V::List(out);
                match list.limit(&self.vm.syms, pos) {
                    Ok(()) => Ok(list),
                    Err(e) => Err(Flow::Err(e)),
                }
            }
            Ok(None) => Ok(V::Bool(kind == 2)),
            Err(e) => {
                let frame = ["filter", "map", "all", "some"][kind];
                Err(Flow::Err(
                    EvalAltResult::ErrorInFunctionCall(frame.into(), String::new(), e, pos).into(),
                ))
            }
        }
    }
}

/// Which of the list methods with a closure the VM runs: `filter`, `map`,
/// `all`, `some`.
fn kind(name: &str) -> Option<usize> {
    ["filter", "map", "all", "some"]
        .iter()
        .position(|k| *k == name)
}
