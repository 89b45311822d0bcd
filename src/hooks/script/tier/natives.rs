//! The script API as the compiled tier calls it: every function the API
//! registers with Rhai is kept here too, as the same Rust function, so a
//! compiled call reaches it directly instead of through Rhai's resolution.

use std::any::TypeId;
use std::collections::HashMap;

use rhai::{Dynamic, Engine, ImmutableString, RhaiFunc, RhaiNativeFunc, Shared};

/// Rhai's type of a native function (its `FnAny`, spelt out).
pub(crate) type NativeFn = dyn Fn(
        Option<rhai::NativeCallContext>,
        &mut [&mut Dynamic],
    ) -> Result<Dynamic, Box<rhai::EvalAltResult>>
    + Send
    + Sync;

/// One registered function: its parameter types (as Rhai matches them)
/// and the function itself.
pub(crate) struct Native {
    pub types: Vec<TypeId>,
    pub func: Shared<NativeFn>,
    /// Its first argument is a reference the function may change.
    pub method: bool,
    /// It takes Rhai's call context (to call a function it is handed).
    pub context: bool,
}

/// The API's functions by name and arity, in registration order.
#[derive(Default)]
pub(crate) struct Natives {
    by_name: HashMap<(String, usize), usize>,
    lists: Vec<Vec<Native>>,
}

impl Natives {
    /// The overloads of `name` with `arity` parameters, by index (a call
    /// site binds it once, as it is compiled).
    pub fn find(&self, name: &str, arity: usize) -> Option<usize> {
        self.by_name.get(&(name.to_string(), arity)).copied()
    }

    pub fn list(&self, ix: usize) -> &[Native] {
        &self.lists[ix]
    }
}

/// What the API files register into: Rhai's engine, and the same
/// functions for the compiled tier.
pub(crate) struct Api<'a> {
    pub engine: &'a mut Engine,
    pub natives: &'a mut Natives,
}

impl Api<'_> {
    /// `Engine::register_fn`, and kept for the tier.
    pub fn register_fn<A: 'static, const N: usize, const X: bool, R, const F: bool, FUNC>(
        &mut self,
        name: &str,
        func: FUNC,
    ) -> &mut Self
    where
        R: rhai::Variant + Clone,
        FUNC: RhaiNativeFunc<A, N, X, R, F> + Clone + Send + Sync + 'static,
    {
        self.engine.register_fn(name, func.clone());
        let types = FUNC::param_types();
        let (func, method, context) = match func.into_rhai_function(false, false) {
            RhaiFunc::Pure {
                func, has_context, ..
            } => (func, false, has_context),
            RhaiFunc::Method {
                func, has_context, ..
            } => (func, true, has_context),
            // `register_fn` makes only these two kinds.
            _ => return self,
        };
        let types: Vec<TypeId> = types
            .iter()
            .enumerate()
            .map(|(i, t)| {
                // Rhai matches text parameters as its own string type.
                let text = *t == TypeId::of::<&str>() || *t == TypeId::of::<String>();
                if text && (!method || i > 0) {
                    TypeId::of::<ImmutableString>()
                } else {
                    *t
                }
            })
            .collect();
        let n = self.natives.lists.len();
        let ix = *self
            .natives
            .by_name
            .entry((name.to_string(), N))
            .or_insert(n);
        if ix == n {
            self.natives.lists.push(Vec::new());
        }
        let list = &mut self.natives.lists[ix];
        // A later registration of the same types replaces the earlier one.
        list.retain(|n: &Native| n.types != types);
        list.push(Native {
            types,
            func,
            method,
            context,
        });
        self
    }
}

impl Native {
    /// Whether it takes these arguments: each of its type, or any type
    /// where it takes a `Dynamic`. Exact matches score higher.
    pub fn fits(&self, args: &[Dynamic]) -> Option<usize> {
        let mut exact = 0;
        for (t, a) in self.types.iter().zip(args) {
            if *t == a.type_id() {
                exact += 1;
            } else if *t != TypeId::of::<Dynamic>() {
                return None;
            }
        }
        Some(exact)
    }
}

/// The best fitting of `candidates` for `args`, Rhai's way: the most exact
/// types, the latest registered among equals.
pub(crate) fn choose<'a>(candidates: &'a [Native], args: &[Dynamic]) -> Option<&'a Native> {
    let mut best: Option<(usize, &Native)> = None;
    for n in candidates {
        if let Some(score) = n.fits(args)
            && best.is_none_or(|(b, _)| score >= b)
        {
            best = Some((score, n));
        }
    }
    best.map(|(_, n)| n)
}
