//! A dot and index chain (`a.b[c].d(e)`) run as Rhai runs it.

use rhai::{Dynamic, Map, Position};

use super::builtins::{index_fast, method_fast};
use super::run::{Flow, Run};
use super::tree::*;

type R<T> = Result<T, Flow>;

impl Run<'_> {
    /// Rhai's order: the steps' arguments first (left to right), then the
    /// root, then each step applied; one operation per step for its
    /// arguments (unless the chain is one simple step) and one for the
    /// step itself.
    pub(super) fn chain(&mut self, c: &Chain) -> R<Dynamic> {
        let simple = match c.steps.as_slice() {
            [Step::Prop(..)] => true,
            [Step::Index(ix, _)] => matches!(ix.kind, ExprKind::Const(_)),
            [Step::Method { args, .. }] => args.is_empty(),
            _ => false,
        };
        let mut vals: Vec<Vec<Dynamic>> = Vec::with_capacity(c.steps.len());
        for step in &c.steps {
            if simple {
                vals.push(match step {
                    Step::Index(
                        Expr {
                            kind: ExprKind::Const(v),
                            ..
                        },
                        _,
                    ) => vec![v.clone()],
                    _ => vec![],
                });
                continue;
            }
            let (pos, args): (Position, &[Expr]) = match step {
                Step::Index(ix, pos) => (*pos, std::slice::from_ref(ix)),
                Step::Prop(_, pos, _) => (*pos, &[]),
                Step::Method { args, pos, .. } => (*pos, args),
            };
            self.track(pos)?;
            let mut v = Vec::with_capacity(args.len());
            for a in args {
                v.push(self.expr(a)?);
            }
            vals.push(v);
        }
        // A literal root is read where it is, not copied (fold.rs).
        let literal = match &c.root {
            Root::Value(Expr {
                kind: ExprKind::Const(v),
                pos,
            }) => {
                self.track(*pos)?;
                Some(v)
            }
            _ => None,
        };
        let (mut value, root) = match &c.root {
            _ if literal.is_some() => (Dynamic::UNIT, None),
            Root::Local(s, p) => {
                self.track(*p)?;
                (Dynamic::UNIT, Some(*s))
            }
            Root::Value(e) => (self.expr(e)?, None),
        };
        for (i, (step, args)) in c.steps.iter().zip(vals).enumerate() {
            self.track(Position::NONE)?;
            // The first step works on the variable itself (a method may
            // change it); later ones on the value the step before gave.
            let on_var = if i == 0 { root } else { None };
            let on_literal = if i == 0 { literal } else { None };
            value = match step {
                Step::Index(_, pos) => {
                    let k = args.into_iter().next().unwrap_or_default();
                    let target = match (on_var, on_literal) {
                        (Some(s), _) => self.stack_ref(s),
                        (_, Some(v)) => v,
                        _ => &value,
                    };
                    match index_fast(target, &k, *pos) {
                        Some(r) => r?,
                        None => {
                            let mut this = target.clone();
                            let h = Helper {
                                name: super::INDEX.into(),
                                this: true,
                            };
                            self.helper(&h, Some(&mut this), vec![k], *pos)?
                        }
                    }
                }
                Step::Prop(name, pos, helper) => {
                    let target = match (on_var, on_literal) {
                        (Some(s), _) => self.stack_ref(s),
                        (_, Some(v)) => v,
                        _ => &value,
                    };
                    let field = target
                        .read_lock::<Map>()
                        .map(|m| m.get(name.as_str()).cloned().unwrap_or_default());
                    match field {
                        Some(v) => v,
                        None => {
                            let mut this = target.clone();
                            self.helper(helper, Some(&mut this), vec![], *pos)?
                        }
                    }
                }
                Step::Method {
                    name, pos, helper, ..
                } => {
                    let mut this = match (on_var, on_literal) {
                        (Some(s), _) => std::mem::take(self.slot(s)),
                        (_, Some(v)) => v.clone(),
                        _ => std::mem::take(&mut value),
                    };
                    let r = match method_fast(name, &mut this, &args, *pos) {
                        Some(r) => r,
                        None => self.helper(helper, Some(&mut this), args, *pos),
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
}
