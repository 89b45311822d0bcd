//! What a VM run hands on: operators on values (the VM's own on plain
//! values, Rhai's on the rest), API calls (their typed entry points,
//! else their Rhai forms) and the functions of Rhai's packages.

use rhai::{Dynamic, Position};

use super::super::builtins::int_op;
use super::super::natives::choose;
use super::super::run::at;
use super::super::tree::{Bin, Helper};
use super::ir::*;
use super::run::{Args, Flow, R, VmRun, discard, handed};
use super::value::V;

/// `x op y` on numbers where it is one machine operation: checked as
/// Rhai checks them (an overflow is None, and goes to `int_op` for its
/// error).
#[inline(always)]
pub(super) fn int_fast(op: Bin, x: i64, y: i64) -> Option<V> {
    Some(match op {
        Bin::Add => V::Int(x.checked_add(y)?),
        Bin::Sub => V::Int(x.checked_sub(y)?),
        Bin::Mul => V::Int(x.checked_mul(y)?),
        // None where y is 0 too: `int_op` has Rhai's error for each.
        Bin::Div => V::Int(x.checked_div(y)?),
        Bin::Rem => V::Int(x.checked_rem(y)?),
        Bin::Eq => V::Bool(x == y),
        Bin::Ne => V::Bool(x != y),
        Bin::Lt => V::Bool(x < y),
        Bin::Le => V::Bool(x <= y),
        Bin::Gt => V::Bool(x > y),
        Bin::Ge => V::Bool(x >= y),
        _ => return None,
    })
}

/// `a op b` on plain values read in place, where it needs nothing of the
/// run: as `binary` and `binary_plain` decide it (an overflow is None).
#[inline(always)]
fn plain_ref(op: Bin, a: &V, b: &V) -> Option<V> {
    match (a, b) {
        (V::Int(x), V::Int(y)) => int_fast(op, *x, *y),
        (V::Sym(x), V::Sym(y)) => match op {
            Bin::Eq => Some(V::Bool(x == y)),
            Bin::Ne => Some(V::Bool(x != y)),
            _ => None,
        },
        (V::Bool(x), V::Bool(y)) => match op {
            Bin::Eq => Some(V::Bool(x == y)),
            Bin::Ne => Some(V::Bool(x != y)),
            _ => None,
        },
        (V::Unit, _) | (_, V::Unit) => {
            let both = matches!(a, V::Unit) && matches!(b, V::Unit);
            match op {
                Bin::Eq => Some(V::Bool(both)),
                Bin::Ne => Some(V::Bool(!both)),
                Bin::Lt | Bin::Le | Bin::Gt | Bin::Ge => Some(V::Bool(false)),
                _ => None,
            }
        }
        _ => None,
    }
}

impl VmRun<'_, '_> {
    /// `XKind::Simple`: both operands read in place; what `plain_ref`
    /// does not decide goes to `binary` on copies.
    #[inline(never)]
    pub(super) fn simple(&mut self, x: &(Bin, X, X, Helper), pos: Position) -> R<V> {
        let (op, a, b, helper) = x;
        let (va, vb) = match (self.read(a), self.read(b)) {
            (Some(va), Some(vb)) => {
                if let Some(r) = plain_ref(*op, va, vb) {
                    return Ok(r);
                }
                (va.copy(), vb.copy())
            }
            // Never made so (`X::in_place`): evaluated as `Binary` is.
            _ => return self.binary_evaluated(x, pos),
        };
        self.binary(*op, va, vb, helper, pos)
    }

    /// `a op b`, each operand evaluated.
    #[cold]
    #[inline(never)]
    fn binary_evaluated(&mut self, x: &(Bin, X, X, Helper), pos: Position) -> R<V> {
        let (op, a, b, helper) = x;
        let (a, b) = (self.expr(a)?, self.expr(b)?);
        self.binary(*op, a, b, helper, pos)
    }

    #[inline(always)]
    pub(super) fn binary(&mut self, op: Bin, a: V, b: V, helper: &Helper, pos: Position) -> R<V> {
        if let (V::Int(x), V::Int(y)) = (&a, &b)
            && let Some(r) = int_fast(op, *x, *y)
        {
            // Numbers have nothing to drop: `forget` spares two calls to
            // the drop glue.
            std::mem::forget(a);
            std::mem::forget(b);
            return Ok(r);
        }
        let r = self.binary_plain(op, &a, &b, pos);
        if let Some(r) = r {
            discard(a);
            discard(b);
            return r;
        }
        self.binary_rhai(op, a, b, helper, pos)
    }

    /// `a op b` on plain values, where the VM decides it.
    fn binary_plain(&mut self, op: Bin, a: &V, b: &V, pos: Position) -> Option<R<V>> {
        match (a, b) {
            (V::Int(x), V::Int(y)) => {
                let r = int_op(op, *x, *y)?;
                return Some(match r {
                    Ok(d) => Ok(self.of(d)),
                    Err(e) => Err(Flow::Err(at(e, pos))),
                });
            }
            (V::Sym(x), V::Sym(y)) => match op {
                Bin::Eq => return Some(Ok(V::Bool(x == y))),
                Bin::Ne => return Some(Ok(V::Bool(x != y))),
                _ => {}
            },
            (V::Bool(x), V::Bool(y)) => match op {
                Bin::Eq => return Some(Ok(V::Bool(x == y))),
                Bin::Ne => return Some(Ok(V::Bool(x != y))),
                _ => {}
            },
            (V::Unit, _) | (_, V::Unit) => {
                let both = matches!(a, V::Unit) && matches!(b, V::Unit);
                match op {
                    Bin::Eq => return Some(Ok(V::Bool(both))),
                    Bin::Ne => return Some(Ok(V::Bool(!both))),
                    Bin::Lt | Bin::Le | Bin::Gt | Bin::Ge => return Some(Ok(V::Bool(false))),
                    _ => {}
                }
            }
            _ => {}
        }
        None
    }

    /// `a op b` by Rhai's operators (its fast ones, else its helper).
    #[inline(never)]
    fn binary_rhai(&mut self, op: Bin, a: V, b: V, helper: &Helper, pos: Position) -> R<V> {
        let (a, b) = (self.dynamic(a), self.dynamic(b));
        let fast = super::super::builtins::fast_binary(self.run.engine, op, &a, &b);
        let d = match fast {
            Some(r) => r.map_err(|e| at(e, pos))?,
            None => self.run.helper(helper, None, vec![a, b], pos)?,
        };
        Ok(self.of(d))
    }

    /// A function of Rhai's packages: `x in y` on the VM's values where
    /// lists.rs answers it, the rest through Rhai.
    pub(super) fn rhai(
        &mut self,
        r: &(Helper, Vec<X>, Option<usize>, bool),
        pos: Position,
    ) -> R<V> {
        let (helper, args, first_local, contains) = r;
        let mut vals: Args = Args::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            // `this` is read where it is (through_rhai takes the local).
            if i == 0 && helper.this {
                vals.push(V::Unit);
                continue;
            }
            vals.push(self.expr(a)?);
        }
        if *contains && let [target, x] = vals.as_slice() {
            let target = match first_local {
                Some(s) if helper.this => &self.stack[self.base + s],
                _ => target,
            };
            if let Some(b) = super::lists::contains(target, x) {
                return Ok(V::Bool(b));
            }
        }
        handed("rhai");
        let vals = vals.into_iter().map(|v| self.dynamic(v)).collect();
        self.through_rhai(helper, vals, *first_local, pos)
    }

    /// A call through Rhai, `this` bound to the first local if it takes it.
    pub(super) fn through_rhai(
        &mut self,
        helper: &Helper,
        mut args: Vec<Dynamic>,
        first_local: Option<usize>,
        pos: Position,
    ) -> R<V> {
        if helper.this {
            let slot = first_local.unwrap_or_default();
            let mut this = self.take_dynamic(slot);
            let _ = args.remove(0);
            let r = self.run.helper(helper, Some(&mut this), args, pos);
            *self.slot(slot) = self.of(this);
            Ok(self.of(r?))
        } else {
            let r = self.run.helper(helper, None, args, pos)?;
            Ok(self.of(r))
        }
    }

    pub(super) fn api(&mut self, api: &Api, pos: Position) -> R<V> {
        // No argument (`active()`, `turn()`): the typed form on none, no
        // arguments pushed.
        if let (Some(typed), []) = (api.typed, api.args.as_slice()) {
            let at = self.stack.len();
            if let Some(v) = self.typed(typed, at..at, pos)? {
                return Ok(v);
            }
            return self.api_pushed(api, at, pos, false);
        }
        // One local as the argument: the typed form reads it where it is.
        if let (Some(typed), [a]) = (api.typed, api.args.as_slice())
            && let XKind::Local(s) = a.kind
        {
            let at = self.base + s;
            if let Some(v) = self.typed(typed, at..at + 1, pos)? {
                return Ok(v);
            }
            // Not its types: the Rhai form's way, the typed form not tried
            // again.
            let base = self.push_args(&api.args)?;
            let r = self.api_pushed(api, base, pos, false);
            self.pop_to(base);
            return r;
        }
        let base = self.push_args(&api.args)?;
        let r = self.api_pushed(api, base, pos, true);
        self.pop_to(base);
        r
    }

    /// The API call of `api` on the arguments pushed from `base`.
    pub(super) fn api_pushed(
        &mut self,
        api: &Api,
        base: usize,
        pos: Position,
        try_typed: bool,
    ) -> R<V> {
        if let Some(typed) = api.typed.filter(|_| try_typed)
            && let Some(v) = self.typed(typed, base..self.stack.len(), pos)?
        {
            return Ok(v);
        }
        super::run::note_rhai_form(&api.name);
        self.forget_from(base);
        let vals: Vec<V> = self.stack.drain(base..).collect();
        let mut args: super::super::run::Args = vals.into_iter().map(|v| self.dynamic(v)).collect();
        let tier = self.run.tier;
        let Some(n) = choose(tier.natives.list(api.native), &args) else {
            return self.through_rhai(&api.helper, args.into_vec(), api.first_local, pos);
        };
        self.run.track(pos)?;
        let by_ref = n.method && api.first_local.is_some() && api.writes_first;
        let r = if by_ref {
            let slot = api.first_local.unwrap_or_default();
            args[0] = self.take_dynamic(slot);
            let r = self.run.native(n, &mut args, &api.name, pos);
            let back = std::mem::take(&mut args[0]);
            *self.slot(slot) = self.of(back);
            r
        } else {
            self.run.native(n, &mut args, &api.name, pos)
        };
        let v = r
            .and_then(|v| {
                self.run.engine.ensure_data_size_within_limits(&v)?;
                Ok(v)
            })
            .map_err(|e| at(e, pos))?;
        Ok(self.of(v))
    }

    /// The typed form of `api` on the stack's values `vals`: None where
    /// they are not its types (then nothing is counted: the Rhai form's
    /// way counts the call, and `rhai_forms` notes it).
    #[inline(always)]
    fn typed(
        &mut self,
        typed: super::api::Typed,
        vals: std::ops::Range<usize>,
        pos: Position,
    ) -> R<Option<V>> {
        typed_on(self.run, &self.vm.syms, typed, &self.stack[vals], pos)
    }
}

/// `VmRun::typed` on values anywhere (native code's API helper holds its
/// own). Inlined where it is called: the API call's overhead is this.
#[inline(always)]
pub(super) fn typed_on(
    run: &mut super::super::run::Run<'_>,
    syms: &super::syms::Syms,
    typed: super::api::Typed,
    vals: &[V],
    pos: Position,
) -> R<Option<V>> {
    counted_call(run, pos, |cx| typed(cx, syms, vals))
}

/// A typed form's call `f` on the running hook's context, counted as one
/// operation at `pos` (given back where the form refuses its arguments:
/// the Rhai form's way counts the call), its error placed there.
#[inline(always)]
pub(super) fn counted_call<T>(
    run: &mut super::super::run::Run<'_>,
    pos: Position,
    f: impl FnOnce(&mut crate::hooks::script::Ctx) -> Option<crate::hooks::script::Fallible<T>>,
) -> R<Option<T>> {
    run.track(pos)?;
    match crate::hooks::script::with_live(run.ops, f) {
        Some(Some(Ok(v))) => Ok(Some(v)),
        Some(Some(Err(e))) => Err(Flow::Err(at(e, pos))),
        Some(None) => {
            run.set_ops(run.ops - 1);
            Ok(None)
        }
        None => Err(Flow::Err(at(
            crate::hooks::script::NOT_IN_A_HOOK.into(),
            pos,
        ))),
    }
}
