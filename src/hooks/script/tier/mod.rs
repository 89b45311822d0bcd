//! The compiled tier: each script function lowered once, at load, from
//! Rhai's syntax tree to a tree with its names resolved (locals in slots,
//! calls bound to the script function or the API function they reach), and
//! run without Rhai's per-call resolution. Its meaning is Rhai's: the same
//! values, errors, positions, counted operations and limits (see run.rs);
//! what it does not compile runs in Rhai, function by function, and
//! `tabula check --compile` lists it with the reason.
//!
//! Modules, each using only those before it: tree, natives, builtins,
//! fold, lower, capture, run, call, chain, callbacks (capture adds methods
//! to `Lowering`, and call, chain and callbacks to `Run`). This file, above
//! them all, holds `Tier` and the helper names that run and chain read.

pub(crate) mod builtins;
mod call;
mod callbacks;
mod capture;
mod chain;
mod fold;
mod lower;
pub(crate) mod natives;
mod run;
mod tree;
pub(crate) mod vm;

use std::collections::HashMap;
use std::sync::Arc;

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use rhai::{AST, ASTNode, Engine, EvalAltResult, Position};

use natives::Natives;
use tree::Func;

/// The helper that writes a value as an interpolation does.
const TO_TEXT: &str = "__tabula_tier_text";
/// The helper that indexes a value Rhai's way.
const INDEX: &str = "__tabula_tier_index";

/// A script function the tier leaves to Rhai, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fallback {
    pub name: String,
    pub arity: usize,
    pub why: String,
}

pub(crate) struct Tier {
    /// By the index of `index`; None where the function runs in Rhai.
    fns: Vec<Option<Func>>,
    index: HashMap<(String, usize), usize>,
    /// `index` by name alone, each arity's index: a hook is found without
    /// building a key (once a hook call).
    by_name: FxHashMap<String, SmallVec<[(usize, usize); 1]>>,
    /// The closures compiled (`anon$...`): their index and parameters.
    closures: FxHashMap<String, (usize, usize)>,
    natives: Arc<Natives>,
    /// One-line functions through which the tier asks Rhai, with the
    /// script's own functions (closures handed to them resolve).
    helpers: AST,
    /// The script's functions, for API functions that call one.
    lib: rhai::Shared<rhai::Module>,
    pub fallbacks: Vec<Fallback>,
    /// The typed VM over these functions, when asked for (`Compile::Vm`).
    pub(crate) vm: Option<vm::Vm>,
}

/// What a compiled hook run gives: nothing (a hook's value is not used)
/// or Rhai's error.
pub(crate) type Ran = Result<(), Box<EvalAltResult>>;

/// The statements of one function's body.
fn body(ast: &AST, name: &str, arity: usize) -> Vec<rhai::Stmt> {
    // (`clone_functions_only_filtered` keeps them all when it starts empty.)
    let mut one = ast.clone_functions_only();
    one.retain_functions(|_, _, n, a| n == name && a == arity);
    let mut out = Vec::new();
    one.walk(&mut |path: &[ASTNode]| {
        if let [ASTNode::Stmt(s)] = path {
            out.push((*s).clone());
        }
        true
    });
    out
}

impl Tier {
    /// Lower every function of `ast` that the tier handles.
    pub fn compile(ast: &AST, engine: &Engine, natives: Arc<Natives>) -> Tier {
        let list: Vec<(String, Vec<rhai::ImmutableString>)> = ast
            .iter_functions()
            .map(|f| {
                (
                    f.name.to_string(),
                    f.params.iter().map(|p| (*p).into()).collect(),
                )
            })
            .collect();
        let index: HashMap<(String, usize), usize> = list
            .iter()
            .enumerate()
            .map(|(i, (n, p))| ((n.clone(), p.len()), i))
            .collect();
        let base = format!("fn {TO_TEXT}(a0) {{ `${{a0}}` }}\nfn {INDEX}(a0) {{ this[a0] }}");
        // Both are fixed and valid Rhai.
        let mut helpers = (engine.compile(&base).unwrap_or_default(), 0);
        let mut fns: Vec<Option<Func>> = Vec::new();
        let mut calls: Vec<Vec<usize>> = Vec::new();
        let mut why: Vec<Option<String>> = Vec::new();
        for (name, params) in &list {
            let stmts = body(ast, name, params.len());
            let lowering = lower::Lowering::new(&index, &natives, engine, &mut helpers);
            match lowering.function(name, params, &stmts) {
                Ok((f, c)) => {
                    fns.push(Some(f));
                    calls.push(c);
                    why.push(None);
                }
                Err(reason) => {
                    fns.push(None);
                    calls.push(Vec::new());
                    why.push(Some(reason));
                }
            }
        }
        capture::closure_copies(&list, &mut fns, &mut why);
        // A function that calls one left to Rhai is left to Rhai too.
        loop {
            let mut changed = false;
            for i in 0..fns.len() {
                if fns[i].is_none() {
                    continue;
                }
                if let Some(&j) = calls[i].iter().find(|&&j| fns[j].is_none()) {
                    fns[i] = None;
                    why[i] = Some(format!("calls `{}`, which runs in Rhai", list[j].0));
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let closures = (list.iter().enumerate())
            .filter(|&(i, (n, _))| n.starts_with("anon$") && fns[i].is_some())
            .map(|(i, (n, p))| (n.clone(), (i, p.len())))
            .collect();
        let helpers = ast.clone_functions_only().merge(&helpers.0);
        let mut fallbacks: Vec<Fallback> = list
            .iter()
            .zip(&why)
            .filter(|((n, _), _)| !n.starts_with("anon$"))
            .filter_map(|((n, p), w)| {
                w.clone().map(|why| Fallback {
                    name: n.clone(),
                    arity: p.len(),
                    why,
                })
            })
            .collect();
        fallbacks.sort_by(|a, b| (&a.name, a.arity).cmp(&(&b.name, b.arity)));
        let mut by_name: FxHashMap<String, SmallVec<[(usize, usize); 1]>> = FxHashMap::default();
        for ((n, arity), &i) in &index {
            by_name.entry(n.clone()).or_default().push((*arity, i));
        }
        Tier {
            fns,
            index,
            by_name,
            closures,
            natives,
            helpers,
            lib: ast.shared_lib().clone(),
            fallbacks,
            vm: None,
        }
    }

    /// The same, with the typed VM over what it runs (the rest in the tree
    /// tier, the rest of that in Rhai).
    pub fn compile_vm(
        ast: &AST,
        engine: &Engine,
        natives: Arc<Natives>,
        def: &crate::definition::Def,
        keys: &crate::hooks::script::Keys,
        native: bool,
    ) -> Tier {
        let mut tier = Tier::compile(ast, engine, natives);
        tier.vm = Some(vm::Vm::compile(&tier, def, keys, native));
        tier
    }

    /// The number of parameters of function `ix`.
    fn arity(&self, ix: usize) -> usize {
        (self.index.iter())
            .find(|&(_, &i)| i == ix)
            .map_or(0, |((_, a), _)| *a)
    }

    /// Whether `name` is one of the script's functions (its closures too).
    fn defines(&self, name: &str) -> bool {
        self.index.keys().any(|(n, _)| n == name)
    }

    /// A compiled closure by its name: its index and parameters.
    fn closure(&self, name: &str) -> Option<(usize, usize)> {
        self.closures.get(name).copied()
    }

    /// Run `hook` compiled, if it is: its result, and the operations it
    /// counted (None where a call went through Rhai, whose count differs
    /// by the helper's own few).
    pub fn call(
        &self,
        engine: &Engine,
        hook: &str,
        args: &crate::core::Args,
        keys: &crate::hooks::script::Keys,
    ) -> Option<(Ran, Option<u64>)> {
        use crate::core::Args;
        let arity = match args {
            Args::None => 0,
            Args::Face(_) | Args::Number(_) => 1,
            Args::Choices(_, _, data) => 1 + usize::from(**data != crate::core::Value::Unit),
        };
        // Not compiled: None, for Rhai.
        let ix = self.by_name.get(hook).and_then(|fs| {
            let (_, ix) = fs.iter().find(|(a, _)| *a == arity)?;
            Some(*ix)
        })?;
        self.fns[ix].as_ref()?;
        let mut run = run::Run::new(self, engine);
        if let Some(vm) = self.vm.as_ref().filter(|vm| vm.runs(ix)) {
            let r = vm.call(&mut run, ix, args).map_err(|e| match *e {
                EvalAltResult::ErrorInFunctionCall(name, _, inner, _) if name == hook => inner,
                other => other.into(),
            });
            // The VM counts its own operations (vm/run.rs): not Rhai's.
            return Some((r, None));
        }
        let args = crate::hooks::script::value::hook_args(keys, args);
        let r = run
            .call_fn(ix, args.into_iter().collect(), Position::NONE)
            // A hook's value is not used.
            .map(|_| ())
            // As `call_fn` does, the hook's own frame is not in the chain.
            .map_err(|e| match *e {
                EvalAltResult::ErrorInFunctionCall(name, _, inner, _) if name == hook => inner,
                other => other.into(),
            });
        // Rhai's progress callback never sees the operation past the limit.
        let ops = (!run.helped).then_some(
            run.peek
                .unwrap_or(run.ops)
                .min(crate::hooks::script::MAX_OPERATIONS),
        );
        Some((r, ops))
    }
}
