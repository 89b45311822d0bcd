//! A chain of steps in the VM (`a.b[c].d(e)`): indexes, properties and
//! methods on VM values where they have a fast path here, the rest as the
//! tree tier runs them.

use rhai::{Dynamic, EvalAltResult, Map, Position};
use smallvec::SmallVec;

use super::super::builtins::index_fast;
use super::super::tree::Helper;
use super::ir::{Chain, Root, Step};
use super::run::{Args, Error, R, VmRun};
use super::value::V;

impl VmRun<'_, '_> {
    /// `a.b[c].d(e)`: the steps' arguments first, then the root, then each
    /// step, on VM values where the step has a fast path here.
    pub(super) fn chain(&mut self, c: &Chain) -> R<V> {
        // `xs[i]` of a local or a constant (a list literal folded, a
        // function's constant value): read in place, nothing pushed or
        // copied (as `chain_on` runs it: the key, then the step counted,
        // then the index).
        if let [Step::Index(k, pos)] = c.steps.as_slice()
            && c.root.in_place()
        {
            let k = self.expr(k)?;
            self.run.track(Position::NONE)?;
            let Some(target) = self.read_root(&c.root) else {
                unreachable!("a root read in place (`Root::in_place`)")
            };
            if let Some(r) = self.index_in(target, &k, *pos) {
                super::run::discard(k);
                return Ok(r?);
            }
            let target = target.clone();
            return self.index(target, k, *pos);
        }
        self.chain_pushed(c)
    }

    /// `XKind::Item`: a list's item by a number in range read in place,
    /// anything else as `chain` runs it.
    #[inline(never)]
    pub(super) fn item(&mut self, c: &Chain) -> R<V> {
        if let [Step::Index(k, _)] = c.steps.as_slice()
            && let (Some(V::List(l)), Some(V::Int(i))) = (self.read_root(&c.root), self.read(k))
            && let Some(at) = super::lists::at(l.len(), *i)
        {
            let v = l[at].copy();
            // As `chain` counts it, once the key is read.
            self.run.track(Position::NONE)?;
            return Ok(v);
        }
        self.chain(c)
    }

    /// `chain` with its steps' arguments pushed.
    fn chain_pushed(&mut self, c: &Chain) -> R<V> {
        let base = self.stack.len();
        let r = self.chain_on(c, base);
        self.pop_to(base);
        r
    }

    /// `chain` with the steps' arguments pushed on the stack from `base`,
    /// step by step (step i's end where `ends[i]` says).
    fn chain_on(&mut self, c: &Chain, base: usize) -> R<V> {
        let mut ends: SmallVec<[usize; 4]> = SmallVec::with_capacity(c.steps.len());
        for step in &c.steps {
            match step {
                Step::Index(k, _) => {
                    let v = self.expr(k)?;
                    self.stack.push(v);
                }
                Step::Prop(..) => {}
                Step::Method { args, .. } => {
                    for x in args {
                        let v = self.expr(x)?;
                        self.stack.push(v);
                    }
                }
            }
            ends.push(self.stack.len());
        }
        let (mut value, root) = match &c.root {
            Root::Local(s) => (V::Unit, Some(*s)),
            Root::Value(e) => (self.expr(e)?, None),
        };
        let mut start = base;
        for (i, step) in c.steps.iter().enumerate() {
            let (from, to) = (start, ends[i]);
            start = to;
            self.run.track(Position::NONE)?;
            let on_var = if i == 0 { root } else { None };
            value = match step {
                Step::Index(_, pos) => {
                    self.forget_from(from);
                    let k = std::mem::take(&mut self.stack[from]);
                    let target = match on_var {
                        Some(s) => &self.stack[self.base + s],
                        None => &value,
                    };
                    // A local is read where it is, not copied.
                    match self.index_in(target, &k, *pos) {
                        Some(r) => r?,
                        None => {
                            let target = match on_var {
                                Some(s) => self.stack[self.base + s].clone(),
                                None => std::mem::take(&mut value),
                            };
                            self.index(target, k, *pos)?
                        }
                    }
                }
                Step::Prop(name, sym, pos, helper) => {
                    let target = match on_var {
                        Some(s) => &self.stack[self.base + s],
                        None => &value,
                    };
                    let field = match target {
                        V::Map(m) => {
                            let f = super::value::map_get(m, *sym).cloned();
                            value = f.unwrap_or_default();
                            continue;
                        }
                        V::Dyn(d) => d
                            .read_lock::<Map>()
                            .map(|m| m.get(name.as_str()).cloned().unwrap_or_default()),
                        _ => None,
                    };
                    match field {
                        Some(f) => self.of(f),
                        None => {
                            let target = target.clone();
                            let mut this = self.dynamic(target);
                            let r = self.run.helper(helper, Some(&mut this), vec![], *pos)?;
                            self.of(r)
                        }
                    }
                }
                Step::Method {
                    name,
                    pos,
                    helper,
                    native,
                    closure,
                    ..
                } => {
                    if let Some(s) = on_var
                        && closure.is_none()
                        && to == from + 1
                        && name == "push"
                        && matches!(self.stack[self.base + s], V::List(_))
                    {
                        self.forget_from(from);
                        let x = std::mem::take(&mut self.stack[from]);
                        self.push_local(self.base + s, x, *pos)?;
                        value = V::Unit;
                        continue;
                    }
                    let mut this = match on_var {
                        Some(s) => std::mem::take(self.slot(s)),
                        None => std::mem::take(&mut value),
                    };
                    let r = match closure {
                        Some(c) => {
                            let (p, h) = (*pos, helper);
                            self.method_closure(name, c, &mut this, from..to, p, h, *native)
                        }
                        None => {
                            self.forget_from(from);
                            let args: Args = (self.stack[from..to].iter_mut())
                                .map(std::mem::take)
                                .collect();
                            self.method(name, &mut this, args, *pos, helper, *native)
                        }
                    };
                    if let Some(s) = on_var {
                        *self.slot(s) = this;
                    }
                    r?
                }
            };
        }
        Ok(value)
    }

    /// `target[k]` where the VM answers it on the value in place: a list
    /// by number, a map by a symbol, a Rhai list by number.
    fn index_in(&self, target: &V, k: &V, pos: Position) -> Option<Result<V, Error>> {
        let syms = &self.vm.syms;
        match (target, k) {
            (V::List(l), V::Int(i)) => {
                let Some(at) = super::lists::at(l.len(), *i) else {
                    return Some(Err(EvalAltResult::ErrorArrayBounds(l.len(), *i, pos).into()));
                };
                Some(Ok(l[at].copy()))
            }
            (V::Map(m), V::Sym(s)) => Some(Ok(super::value::map_get(m, *s)
                .cloned()
                .unwrap_or_default())),
            (V::Dyn(d), V::Sym(s)) if d.is_map() => {
                let m = d.read_lock::<Map>()?;
                let got = m.get(syms.text(*s).as_str()).cloned();
                Some(Ok(got.map_or(V::Unit, |g| V::of(g, syms))))
            }
            (V::Dyn(d), V::Int(i)) if d.is_array() => {
                let r = index_fast(d, &Dynamic::from_int(*i), pos)?;
                Some(r.map(|g| V::of(g, syms)))
            }
            _ => None,
        }
    }

    /// `target[k]` as Rhai has it, where `index_in` does not answer.
    fn index(&mut self, target: V, k: V, pos: Position) -> R<V> {
        let (t, k) = (self.dynamic(target), self.dynamic(k));
        let d = match index_fast(&t, &k, pos) {
            Some(r) => r?,
            None => {
                let mut this = t;
                let h = Helper {
                    name: super::super::INDEX.into(),
                    this: true,
                };
                self.run.helper(&h, Some(&mut this), vec![k], pos)?
            }
        };
        Ok(self.of(d))
    }
}
