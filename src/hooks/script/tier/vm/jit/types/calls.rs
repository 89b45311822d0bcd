//! The types of calls: of script functions (native code calls a
//! function with no frame directly, any other through the VM's call,
//! calls.rs) and of the API (by its typed entry point, helpers.rs).

use super::super::super::ir::*;
use super::{Check, Res, T, Ty, VAL, addr, passes};
use crate::hooks::script::tier::tree::Bin;

impl Check<'_> {
    /// Call `x` of script function `ix` on `args`.
    pub(super) fn script(&mut self, x: &X, ix: usize, args: &[X]) -> Res<T> {
        let refused = self.refused_call(x);
        let sig = if refused { None } else { self.sigs[ix].clone() };
        let framed = refused || sig.as_ref().is_some_and(|s| s.frame);
        let mut fit = true;
        // Whether each argument is now of its parameter's type (a call
        // through the VM's call then runs the callee's native code,
        // where it has some; where not, the VM gives a value of the same
        // type).
        let mut exact = !refused;
        for (i, a) in args.iter().enumerate() {
            let t = self.expr(a)?;
            if framed {
                // Called through the VM's call, which takes any
                // value: its parameters' types ask nothing of these.
                exact &= match sig
                    .as_ref()
                    .and_then(|s| s.params.get(i).copied().flatten())
                {
                    None | Some(Ty::Val) => true,
                    // Not known in this pass (the next one knows): not
                    // taken to be of another type for good.
                    Some(_) if t == T::Any => true,
                    // A parameter no use has typed yet is taken for the
                    // callee's type: the call is then exact (calls.rs).
                    Some(want) => match self.now(t) {
                        Some(k) => passes(k, want),
                        None => matches!(t, T::Param(_)) && self.fits(t, want),
                    },
                };
                continue;
            }
            match sig.as_ref().map(|s| s.params.get(i).copied().flatten()) {
                Some(Some(want)) => fit &= self.fits(t, want),
                // Not read by native code: only a plain value
                // passes without a frame.
                Some(None) => fit &= matches!(t, T::Known(Ty::Int | Ty::Bool | Ty::Sym)),
                None => self.pending = true,
            }
        }
        Ok(match sig {
            // Through the VM's call (calls.rs): of its type where
            // it runs native code, which its arguments' types say.
            _ if framed => {
                self.vm_calls.insert(addr(x));
                match sig {
                    Some(s) if exact && !matches!(s.ret, Ty::Val | Ty::Never) => T::Known(s.ret),
                    _ => VAL,
                }
            }
            Some(_) if !fit => {
                self.vm_calls.insert(addr(x));
                VAL
            }
            Some(s) => T::Known(s.ret),
            None => {
                self.pending = true;
                T::Any
            }
        })
    }

    /// API call `a`.
    pub(super) fn api(&mut self, a: &Api) -> Res<T> {
        Ok(match api_value(&a.name, a.args.len()) {
            // By its typed entry point, its arguments where they are
            // made (in registers, or by the VM in the frame).
            Some(t) if a.typed.is_some() && !(a.first_local.is_some() && a.writes_first) => {
                use super::super::super::api_regs::{Kind, regs};
                let kinds = regs(&a.name, a.args.len()).map(|r| r.params);
                for (i, arg) in a.args.iter().enumerate() {
                    // A template of a local number or symbol: its part
                    // in a register, the rest the helper's (its table).
                    match &arg.kind {
                        XKind::Named(n) if self.plain_local(n.parts.get(n.var)) => {
                            self.expr(&n.parts[n.var])?;
                        }
                        _ => {
                            let t = self.expr(arg)?;
                            // A parameter no use has typed yet is taken
                            // for what the form on registers takes there.
                            let want = match kinds.map(|k| k[i]) {
                                Some(Kind::Int) => Ty::Int,
                                Some(Kind::Sym) => Ty::Sym,
                                _ => continue,
                            };
                            if matches!(t, T::Param(_)) && self.now(t).is_none() {
                                self.fits(t, want);
                            }
                        }
                    }
                }
                // The Rhai form's way reads a local first argument
                // in the frame (written there first).
                self.frame |= a.first_local.is_some();
                T::Known(t)
            }
            _ => VAL,
        })
    }

    /// The operands of `a op b`, in Rhai's order. Where `op` is `==` or
    /// `!=` and one side a template function's call on a number or a
    /// symbol in a register, the other a symbol in a register (`here ==
    /// disc(p)`): the comparison's type, the call typed `Sym` (the
    /// helper makes it and gives its symbol, or none where its text is
    /// no symbol, which equals no symbol; mixed.rs `template_cmp`). Else
    /// each operand's type, a call that is not so made by the VM.
    pub(super) fn operands(&mut self, op: Bin, a: &X, b: &X) -> Res<Result<T, (T, T)>> {
        fn called(op: Bin, x: &X) -> Option<&TemplateFn> {
            match &x.kind {
                XKind::TemplateFn(t) if matches!(op, Bin::Eq | Bin::Ne) => Some(t),
                _ => None,
            }
        }
        let (call, t, other, left) = match (called(op, a), called(op, b)) {
            (Some(t), _) => (a, t, b, true),
            (None, Some(t)) => (b, t, a, false),
            _ => return Ok(Err((self.expr(a)?, self.expr(b)?))),
        };
        // The expressions native code makes in the argument, given back
        // where the VM makes the call.
        let made = |c: &mut Self| -> Res<(T, usize)> {
            let before = c.natives;
            Ok((c.expr(&t.arg)?, c.natives - before))
        };
        let ((targ, in_arg), tother) = if left {
            let p = made(self)?;
            (p, self.expr(other)?)
        } else {
            let o = self.expr(other)?;
            (made(self)?, o)
        };
        if targ == T::Any || tother == T::Any {
            // Not known in this pass (the next one knows).
            self.pending = true;
            return Ok(Ok(T::Known(Ty::Bool)));
        }
        // A parameter no use has typed yet is taken for a symbol, as
        // the ids templates make names of are.
        let mut of = |t: T, ok: &[Ty]| match self.now(t) {
            Some(k) => ok.contains(&k),
            None => matches!(t, T::Param(_)) && self.fits(t, Ty::Sym),
        };
        // The other side first: a parameter is typed only where the
        // comparison is then made natively.
        if of(tother, &[Ty::Sym, Ty::Unit]) && of(targ, &[Ty::Sym, Ty::Int]) {
            self.exprs.insert(addr(call), Ty::Sym);
            self.natives += 1;
            return Ok(Ok(T::Known(Ty::Bool)));
        }
        // Made by the VM, as any call of its (its argument's part too).
        self.natives -= in_arg;
        self.delegate(call)?;
        self.exprs.insert(addr(call), Ty::Val);
        Ok(Err(if left { (VAL, tother) } else { (tother, VAL) }))
    }
}

/// The type of the value API function `name` of `arity` gives, for those
/// with a typed entry point (api.rs) whose every outcome is of one type
/// (or an error): a form on registers (api_regs.rs), or `move_card`;
/// None for the others, which the VM runs whole. A value of another type
/// is an error in the helper (never a wrong value).
pub(super) fn api_value(name: &str, arity: usize) -> Option<Ty> {
    use super::super::super::api_regs::{Kind, regs};
    if let Some(r) = regs(name, arity) {
        return Some(match r.ret {
            Kind::Int => Ty::Int,
            Kind::Sym => Ty::Sym,
            Kind::Unit => Ty::Unit,
        });
    }
    (name == "move_card" && arity == 5).then_some(Ty::Unit)
}
