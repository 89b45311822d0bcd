//! The typed VM (issue 54): the tier's compiled functions run on unboxed
//! values, with every id the game defines a symbol (an integer) from load
//! on and the hot API functions called through typed entry points. It
//! sits on the tree tier: each function it cannot run (syms.rs, lower.rs
//! say what it takes) runs in the tree tier as before, and
//! `tabula check --compile` lists it with the reason; whatever has no
//! fast path in a function it runs is handed to the tree tier's machinery
//! value by value.
//!
//! Modules, each using only those before it: syms, value, api, ask_data
//! and ask (the typed entry points), lists (a list's and a map's own
//! operations), ir, lower, run, then calls (operators, API calls, Rhai's
//! functions), chain, methods and switch (which add to run's `VmRun`).

mod api;
mod api_board;
mod api_cards;
mod api_game;
mod api_regs;
mod ask;
mod ask_data;
mod calls;
mod chain;
mod ir;
#[cfg(feature = "jit")]
mod jit;
mod lasts;
mod lists;
mod lower;
mod methods;
mod pushes;
mod run;
mod switch;
mod syms;
mod templates;
#[cfg(test)]
mod tests;
mod texts;
mod value;

use rhai::Position;

#[cfg(feature = "jit")]
pub use jit::{
    exact_native_calls, frame_arg_reads, framed_native_calls, general_api_calls, held_ops,
    native_calls, pushed_api_calls, regs_api_calls, template_calls, vm_compares,
};
#[cfg(feature = "jit")]
pub(crate) use jit::{last_ops, without_native};
pub use run::rhai_forms;
use value::V;

use super::{Fallback, Ran, Tier};
use crate::definition::Def;
use crate::hooks::script::Keys;

pub(crate) struct Vm {
    syms: syms::Syms,
    /// By the tier's function index; None where it runs in the tree tier.
    codes: Vec<Option<ir::Code>>,
    pub fallbacks: Vec<Fallback>,
    /// Each template's table (templates.rs).
    names: Vec<templates::Table>,
    /// Native code for the functions it compiles (jit/), when asked for.
    #[cfg(feature = "jit")]
    jit: Option<jit::Jit>,
}

impl Vm {
    /// Every function the tree tier compiled that the VM runs; with
    /// `native`, also machine code for those it can compile (jit/).
    pub fn compile(tier: &Tier, def: &Def, keys: &Keys, native: bool) -> Vm {
        let mut syms = syms::Syms::new(def, keys);
        let n = tier.fns.len();
        let mut codes: Vec<Option<ir::Code>> = Vec::with_capacity(n);
        let mut calls: Vec<Vec<usize>> = Vec::with_capacity(n);
        let mut why: Vec<Option<String>> = Vec::with_capacity(n);
        let mut templates = Vec::new();
        for f in &tier.fns {
            let Some(f) = f else {
                codes.push(None);
                calls.push(Vec::new());
                why.push(None);
                continue;
            };
            let mut l = lower::Lowering {
                tier,
                def,
                syms: &mut syms,
                calls: Vec::new(),
                templates: &mut templates,
            };
            match l.function(f) {
                Ok(code) => {
                    calls.push(std::mem::take(&mut l.calls));
                    codes.push(Some(code));
                    why.push(None);
                }
                Err(reason) => {
                    calls.push(Vec::new());
                    codes.push(None);
                    why.push(Some(reason));
                }
            }
        }
        // A function that calls one the VM does not run is not run either.
        loop {
            let mut changed = false;
            for i in 0..codes.len() {
                if codes[i].is_none() {
                    continue;
                }
                if let Some(&j) = calls[i].iter().find(|&&j| codes[j].is_none()) {
                    codes[i] = None;
                    let name = tier.fns[j].as_ref().map_or("?", |f| f.name.as_str());
                    why[i] = Some(format!("calls `{name}`, which the VM does not run"));
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut fallbacks: Vec<Fallback> = Vec::new();
        for (i, w) in why.iter().enumerate() {
            let (Some(w), Some(f)) = (w, tier.fns[i].as_ref()) else {
                continue;
            };
            if f.name.starts_with("anon$") {
                continue;
            }
            fallbacks.push(Fallback {
                name: f.name.to_string(),
                arity: tier.arity(i),
                why: w.clone(),
            });
        }
        fallbacks.sort_by(|a, b| (&a.name, a.arity).cmp(&(&b.name, b.arity)));
        syms.finish(def);
        #[cfg(feature = "jit")]
        let jit = native.then(|| {
            let arity: Vec<usize> = (0..n).map(|i| tier.arity(i)).collect();
            jit::Jit::compile(&codes, &arity)
        });
        #[cfg(not(feature = "jit"))]
        let _ = native;
        Vm {
            names: templates::tables(&templates, &syms),
            syms,
            codes,
            fallbacks,
            #[cfg(feature = "jit")]
            jit,
        }
    }

    /// The functions the VM runs with no native code, and why (None:
    /// native code was not asked for, or is not built in).
    pub fn native_fallbacks(&self) -> Option<Vec<super::Fallback>> {
        #[cfg(feature = "jit")]
        return self.jit.as_ref().map(|j| j.fallbacks.clone());
        #[cfg(not(feature = "jit"))]
        None
    }

    /// Whether the VM runs function `ix`.
    pub fn runs(&self, ix: usize) -> bool {
        self.codes.get(ix).is_some_and(Option::is_some)
    }

    /// Run hook `ix` in the VM within the tree tier's run `run` (a hook's
    /// value is not used: dropped, not made a Rhai value).
    pub(super) fn call<'a>(
        &'a self,
        run: &mut super::run::Run<'a>,
        ix: usize,
        args: &crate::core::Args,
    ) -> Ran {
        let vals = self.args(args);
        let mut vm = run::VmRun::new(run, self);
        let r = vm.call_fn(ix, vals, Position::NONE);
        #[cfg(feature = "jit")]
        if self.jit.is_some() {
            jit::note_ops(vm.run.ops);
        }
        r.map(run::discard)
    }

    /// A hook's arguments as VM values, as `value::hook_args` makes them
    /// for Rhai: a decision's choices a map decider -> choice.
    fn args(&self, args: &crate::core::Args) -> run::Args {
        use crate::core::{Args, Choice};
        use crate::hooks::script::{interned, value::to_dynamic};
        let syms = &self.syms;
        let mut out = run::Args::new();
        match *args {
            Args::None => {}
            Args::Face(f) => out.push(V::of(rhai::ImmutableString::from(f).into(), syms)),
            Args::Number(n) => out.push(V::Int(n)),
            Args::Choices(players, chosen, data) => {
                let mut map = Vec::with_capacity(players.len());
                for (p, c) in players.iter().zip(chosen.iter().flatten()) {
                    let v = match c {
                        Choice::Card(k) => V::Sym(syms.cards[*k as usize]),
                        // A word that is a symbol is that symbol (as `V::of` makes it).
                        Choice::Word(w) => syms
                            .find(w)
                            .map_or_else(|| V::Dyn(interned::script_text(w).into()), V::Sym),
                        Choice::Data(d) => V::of(to_dynamic(&d.value), syms),
                    };
                    value::map_put(&mut map, syms.players[*p], v, syms);
                }
                out.push(V::Map(map));
                if *data != crate::core::Value::Unit {
                    out.push(V::of(to_dynamic(data), syms));
                }
            }
        }
        out
    }
}
