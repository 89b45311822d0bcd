//! Rhai's list methods that call a closure (`filter`, `map`, `all`,
//! `some`, `find`, `find_map`, `index_of`, `reduce`), run with the closure
//! compiled, in the meaning of Rhai's array package: the closure is handed
//! the item (and its index, if it takes one more parameter), each call
//! counts its operations on from the count the method started at (Rhai
//! calls it on a copy of its state, then drops the copy), and an error
//! comes wrapped in the method's frame, at the method's position.

use rhai::{Array, Dynamic, EvalAltResult, FnPtr, Position};

use super::run::{Args, Run};

type Error = Box<EvalAltResult>;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Method {
    Filter,
    Map,
    All,
    Some,
    Find,
    FindMap,
    IndexOf,
    Reduce,
}

impl Method {
    fn of(name: &str, args: usize) -> Option<Method> {
        Some(match (name, args) {
            ("filter", 1) => Method::Filter,
            ("map", 1) => Method::Map,
            ("all", 1) => Method::All,
            ("some", 1) => Method::Some,
            ("find", 1) => Method::Find,
            ("find_map", 1) => Method::FindMap,
            ("index_of", 1) => Method::IndexOf,
            ("reduce", 1 | 2) => Method::Reduce,
            _ => return None,
        })
    }

    /// The frame Rhai's error names (`find` is `index_of` inside).
    fn frame(self) -> &'static str {
        match self {
            Method::Filter => "filter",
            Method::Map => "map",
            Method::All => "all",
            Method::Some => "some",
            Method::Find | Method::IndexOf => "index_of",
            Method::FindMap => "find_map",
            Method::Reduce => "reduce",
        }
    }
}

/// How a closure is called: its compiled function, and whether it takes
/// the index too.
struct Callee {
    ix: usize,
    curry: Args,
    with_index: bool,
}

impl Run<'_> {
    /// `this.name(args)` with a compiled closure; None where Rhai decides
    /// (not a list, not a closure the tier compiled, a closure that binds
    /// `this` or takes other parameters).
    pub(super) fn with_closure(
        &mut self,
        name: &str,
        this: &Dynamic,
        args: &[Dynamic],
        pos: Position,
    ) -> Option<Result<Dynamic, Error>> {
        let method = Method::of(name, args.len())?;
        let list = this.read_lock::<Array>()?;
        let callee = {
            let ptr = args[0].read_lock::<FnPtr>()?;
            let (ix, params) = self.tier.closure(ptr.fn_name())?;
            let curry: Args = ptr.curry().iter().cloned().collect();
            // Rhai tries `this` bound first, then the item, then the item
            // and its index (`FnPtr::call_raw_with_extra_args`); reduce
            // hands the result so far before the item.
            let lead = curry.len() + usize::from(method == Method::Reduce);
            let with_index = match params.checked_sub(lead)? {
                1 => false,
                2 => true,
                _ => return None,
            };
            Callee {
                ix,
                curry,
                with_index,
            }
        };
        let base = self.ops;
        // Rhai calls the closure a level below the method's own frame.
        self.level += 1;
        let r = self.each(method, &list, args.get(1), &callee, base, pos);
        self.level -= 1;
        // What Rhai's progress callback saw last, from the dropped copy.
        let last = self.peek.unwrap_or(self.ops);
        // The last call's operations, charged as Rhai's callback charges
        // them at its next operation (an API function's own, inside, were
        // charged as it returned); after an error there is none.
        if r.is_ok() {
            crate::hooks::script::budget::dropped(self.ops.saturating_sub(base));
        }
        self.set_ops(base);
        if last > base {
            self.peek = Some(last);
        }
        Some(
            r.map_err(|e| -> Error {
                EvalAltResult::ErrorInFunctionCall(method.frame().into(), String::new(), e, pos)
                    .into()
            })
            .and_then(|v| {
                self.engine.ensure_data_size_within_limits(&v)?;
                Ok(v)
            })
            .map_err(|mut e| {
                if e.position().is_none() {
                    e.set_position(pos);
                }
                e
            }),
        )
    }

    fn each(
        &mut self,
        method: Method,
        list: &Array,
        initial: Option<&Dynamic>,
        callee: &Callee,
        base: u64,
        pos: Position,
    ) -> Result<Dynamic, Error> {
        let mut out = Array::new();
        let mut acc = initial.cloned().unwrap_or_default();
        if method == Method::Map {
            out.reserve(list.len());
        }
        for (i, item) in list.iter().enumerate() {
            let mut args = callee.curry.clone();
            if method == Method::Reduce {
                args.push(std::mem::take(&mut acc));
            }
            args.push(item.clone());
            if callee.with_index {
                args.push(Dynamic::from_int(i64::try_from(i).unwrap_or(i64::MAX)));
            }
            // The call before this one's operations, charged (see `call`).
            crate::hooks::script::budget::dropped(self.ops.saturating_sub(base));
            self.set_ops(base);
            let v = self.call_fn(callee.ix, args, pos)?;
            let yes = || v.as_bool().unwrap_or(false);
            match method {
                Method::Filter if yes() => out.push(item.clone()),
                Method::Map => out.push(v),
                Method::All if !yes() => return Ok(Dynamic::FALSE),
                Method::Some if yes() => return Ok(Dynamic::TRUE),
                Method::Find if yes() => return Ok(item.clone()),
                Method::IndexOf if yes() => {
                    return Ok(Dynamic::from_int(i64::try_from(i).unwrap_or(i64::MAX)));
                }
                Method::FindMap if !v.is_unit() => return Ok(v),
                Method::Reduce => acc = v,
                _ => {}
            }
        }
        Ok(match method {
            Method::Filter | Method::Map => Dynamic::from_array(out),
            Method::All => Dynamic::TRUE,
            Method::Some => Dynamic::FALSE,
            Method::IndexOf => Dynamic::from_int(-1),
            Method::Find | Method::FindMap => Dynamic::UNIT,
            Method::Reduce => acc,
        })
    }
}
