//! Calls from a compiled function: to a compiled function, to an API
//! function directly (the overload Rhai would pick, its size checks on the
//! result after), or through Rhai where the tier has no fast path.

use rhai::{CallFnOptions, Dynamic, EvalAltResult, Position, Scope};

use super::natives::choose;
use super::run::{Args, R, Run, at};
use super::tree::*;

type Error = Box<EvalAltResult>;

impl Run<'_> {
    pub(super) fn call(&mut self, c: &Call) -> R<Dynamic> {
        let mut args = Args::new();
        for a in &c.args {
            args.push(self.expr(a)?);
        }
        match &c.target {
            Target::Script(ix) => Ok(self.call_fn(*ix, args, c.pos)?),
            Target::Native(ix, helper) => {
                let tier = self.tier;
                let found = choose(tier.natives.list(*ix), &args);
                match found {
                    Some(n) => {
                        self.track(c.pos)?;
                        let by_ref = n.method && c.first_local.is_some();
                        let r = if by_ref {
                            let slot = c.first_local.unwrap_or_default();
                            args[0] = std::mem::take(self.slot(slot));
                            let r = self.native(n, &mut args, &c.name, c.pos);
                            *self.slot(slot) = std::mem::take(&mut args[0]);
                            r
                        } else {
                            self.native(n, &mut args, &c.name, c.pos)
                        };
                        let r = r.and_then(|v| {
                            self.engine.ensure_data_size_within_limits(&v)?;
                            if by_ref {
                                let slot = c.first_local.unwrap_or_default();
                                self.engine
                                    .ensure_data_size_within_limits(self.stack_ref(slot))?;
                            }
                            Ok(v)
                        });
                        Ok(r.map_err(|e| at(e, c.pos))?)
                    }
                    None => self.through_rhai(helper, c, args),
                }
            }
            Target::Rhai(helper) => self.through_rhai(helper, c, args),
        }
    }

    fn through_rhai(&mut self, helper: &Helper, c: &Call, args: Args) -> R<Dynamic> {
        let mut args = args.into_vec();
        if helper.this {
            let slot = c.first_local.unwrap_or_default();
            let mut this = std::mem::take(self.slot(slot));
            let _ = args.remove(0);
            let r = self.helper(helper, Some(&mut this), args, c.pos);
            *self.slot(slot) = this;
            Ok(r?)
        } else {
            Ok(self.helper(helper, None, args, c.pos)?)
        }
    }

    // Out of line: an anchor for where_time_goes.py.
    #[inline(never)]
    pub(super) fn native(
        &mut self,
        n: &super::natives::Native,
        args: &mut [Dynamic],
        name: &str,
        pos: Position,
    ) -> Result<Dynamic, Error> {
        with_refs(args, |refs| self.native_refs(n, refs, name, pos))
    }

    fn native_refs(
        &mut self,
        n: &super::natives::Native,
        refs: &mut [&mut Dynamic],
        name: &str,
        pos: Position,
    ) -> Result<Dynamic, Error> {
        if n.context {
            let mut global = self.engine.new_global_runtime_state();
            global.lib.push(self.tier.lib.clone());
            global.level = self.level.saturating_sub(1);
            // A function it calls back counts on from here, in a copy of the
            // count that Rhai then drops (`NativeCallContext::call_fn_raw`).
            global.num_operations = self.ops;
            let ctx = rhai::NativeCallContext::from((self.engine, name, None, &global, pos));
            super::super::LAST_OPS.with(|o| o.set(self.ops));
            let r = (n.func)(Some(ctx), refs);
            // Rhai's count for the hook is the last its progress callback
            // saw: the callback's, if no operation follows.
            let last = super::super::LAST_OPS.with(std::cell::Cell::get);
            if last > self.ops {
                self.peek = Some(last);
                // Charged, as Rhai's progress callback charges them at its
                // next operation (after an error there is none).
                if r.is_ok() {
                    super::super::budget::dropped(last - self.ops);
                }
            }
            r
        } else {
            // Where a helper charged for what it builds finds the count.
            super::super::LAST_OPS.with(|o| o.set(self.ops));
            (n.func)(None, refs)
        }
    }

    /// `this.name(args)` by the API function of list `ix` that fits, which
    /// takes `this` by reference (Rhai's size checks on the result and on
    /// `this` after); None, and `this` and `args` as they were, where none
    /// fits (Rhai decides).
    pub(super) fn method_native(
        &mut self,
        ix: usize,
        name: &str,
        this: &mut Dynamic,
        args: &mut Args,
        pos: Position,
    ) -> Option<Result<Dynamic, Error>> {
        let tier = self.tier;
        let mut all = Args::new();
        all.push(std::mem::take(this));
        all.extend(args.drain(..));
        let Some(n) = choose(tier.natives.list(ix), &all).filter(|n| n.method) else {
            let mut back = all.into_iter();
            *this = back.next().unwrap_or_default();
            args.extend(back);
            return None;
        };
        let r = self.native(n, &mut all, name, pos);
        *this = std::mem::take(&mut all[0]);
        let r = r.and_then(|v| {
            self.engine.ensure_data_size_within_limits(&v)?;
            self.engine.ensure_data_size_within_limits(this)?;
            Ok(v)
        });
        Some(r.map_err(|e| at(e, pos)))
    }

    /// A call made by Rhai: one function of the helper script, `this`
    /// bound if given; its errors put at `pos`, where the call is.
    pub fn helper(
        &mut self,
        h: &Helper,
        this: Option<&mut Dynamic>,
        args: Vec<Dynamic>,
        pos: Position,
    ) -> Result<Dynamic, Error> {
        self.helped = true;
        let mut options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        if let Some(t) = this {
            options = options.bind_this_ptr(t);
        }
        super::super::LAST_OPS.with(|o| o.set(0));
        // Rhai counts from 0 there: a helper's charge adds this run's.
        super::super::budget::set_base(self.ops);
        let r = self.engine.call_fn_with_options::<Dynamic>(
            options,
            &mut Scope::new(),
            &self.tier.helpers,
            &h.name,
            args,
        );
        super::super::budget::set_base(0);
        self.set_ops(self.ops + super::super::LAST_OPS.with(std::cell::Cell::get));
        let tier = self.tier;
        r.map_err(|e| match *e {
            // A script function's frame (a closure the helper's call made)
            // is the script's, called from where the helper is.
            EvalAltResult::ErrorInFunctionCall(name, source, inner, _) if tier.defines(&name) => {
                EvalAltResult::ErrorInFunctionCall(name, source, inner, pos).into()
            }
            // The frame of what the helper called is not the script's.
            EvalAltResult::ErrorInFunctionCall(_, _, mut inner, _) => {
                if let EvalAltResult::ErrorInFunctionCall(.., p) = &mut *inner {
                    *p = pos;
                } else {
                    inner.set_position(pos);
                }
                inner
            }
            mut other => {
                other.set_position(pos);
                other.into()
            }
        })
    }
}

/// `args` as Rhai's calling convention has them (a list of references),
/// on the stack: most calls take a few.
fn with_refs<T>(args: &mut [Dynamic], f: impl FnOnce(&mut [&mut Dynamic]) -> T) -> T {
    match args {
        [] => f(&mut []),
        [a] => f(&mut [a]),
        [a, b] => f(&mut [a, b]),
        [a, b, c] => f(&mut [a, b, c]),
        [a, b, c, d] => f(&mut [a, b, c, d]),
        [a, b, c, d, e] => f(&mut [a, b, c, d, e]),
        more => f(&mut more.iter_mut().collect::<Vec<_>>()),
    }
}
