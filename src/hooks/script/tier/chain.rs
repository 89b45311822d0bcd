//! A dot and index chain (`a.b[c].d(e)`) run as Rhai runs it.

use rhai::{Array, Dynamic, EvalAltResult, Map, Position};

use smallvec::SmallVec;

use super::builtins::{index_fast, int_of, method_fast};
use super::run::{Args, Flow, Run};
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
        // Kept off the heap: a chain runs in most lines of a script.
        let mut vals: SmallVec<[Args; 3]> = SmallVec::with_capacity(c.steps.len());
        for step in &c.steps {
            if simple {
                vals.push(match step {
                    Step::Index(
                        Expr {
                            kind: ExprKind::Const(v),
                            ..
                        },
                        _,
                    ) => std::iter::once(v.clone()).collect(),
                    _ => Args::new(),
                });
                continue;
            }
            let (pos, args): (Position, &[Expr]) = match step {
                Step::Index(ix, pos) => (*pos, std::slice::from_ref(ix)),
                Step::Prop(_, pos, _) => (*pos, &[]),
                Step::Method { args, pos, .. } => (*pos, args),
            };
            self.track(pos)?;
            let mut v = Args::new();
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
        for (i, (step, mut args)) in c.steps.iter().zip(vals).enumerate() {
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
                    name,
                    pos,
                    helper,
                    native,
                    ..
                } => {
                    if let (Some(s), "push", [x]) = (on_var, name.as_str(), args.as_slice())
                        && let Some(r) = self.push_local(s, x, *pos)
                    {
                        r?;
                        value = Dynamic::UNIT;
                        continue;
                    }
                    let mut this = match (on_var, on_literal) {
                        (Some(s), _) => std::mem::take(self.slot(s)),
                        (_, Some(v)) => v.clone(),
                        _ => std::mem::take(&mut value),
                    };
                    let fast = method_fast(name, &mut this, &args, *pos)
                        .or_else(|| self.with_closure(name, &this, &args, *pos))
                        .or_else(|| {
                            let ix = (*native)?;
                            self.method_native(ix, name, &mut this, &mut args, *pos)
                        });
                    let r = match fast {
                        Some(r) => r,
                        None => self.helper(helper, Some(&mut this), args.into_vec(), *pos),
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

    /// `x[k] (op)= v`, `x.name (op)= v`: Rhai's order (the value, the
    /// key, the variable, the part) and its operations.
    pub(super) fn set_part(&mut self, x: &SetPart) -> R<()> {
        let v = self.expr(&x.value)?;
        let (k, k_pos) = match &x.key {
            Key::Prop(name) => (Dynamic::from(name.clone()), x.var_pos),
            Key::Index(Expr {
                kind: ExprKind::Const(k),
                pos,
            }) => (k.clone(), *pos),
            Key::Index(e) => {
                self.track(e.pos)?;
                (self.expr(e)?, e.pos)
            }
        };
        self.track(x.var_pos)?;
        self.track(Position::NONE)?;
        let mut this = std::mem::take(self.slot(x.slot));
        let prop = matches!(x.key, Key::Prop(_));
        let r = match set_fast(&mut this, &k, x.op, v.clone(), prop, (k_pos, x.op_pos)) {
            Some(r) => r,
            None => {
                let args = match x.key {
                    Key::Prop(_) => vec![v],
                    Key::Index(_) => vec![k, v],
                };
                self.helper(&x.helper, Some(&mut this), args, x.op_pos)
                    .map(|_| ())
            }
        };
        *self.slot(x.slot) = this;
        Ok(r?)
    }
}

/// A list's item by number or a map's field by text set or changed in
/// place, as Rhai does (a negative number counts from the end; a missing
/// field is added); None for what Rhai decides.
pub(super) fn set_fast(
    this: &mut Dynamic,
    k: &Dynamic,
    op: Option<Bin>,
    v: Dynamic,
    prop: bool,
    (k_pos, op_pos): (Position, Position),
) -> Option<Result<(), Box<EvalAltResult>>> {
    let apply = |item: &mut Dynamic| -> Option<Result<(), Box<EvalAltResult>>> {
        match op {
            None => *item = v.clone(),
            Some(bin) => {
                let (a, b) = (int_of(item)?, int_of(&v)?);
                match super::builtins::int_op(bin, a, b)? {
                    Ok(r) => *item = r,
                    Err(mut e) => {
                        e.set_position(op_pos);
                        return Some(Err(e));
                    }
                }
            }
        }
        Some(Ok(()))
    };
    if let (Some(mut a), Some(i)) = (this.write_lock::<Array>(), int_of(k)) {
        let len = a.len() as i64;
        let at = if i < 0 { len + i } else { i };
        if at < 0 || at >= len {
            return Some(Err(
                EvalAltResult::ErrorArrayBounds(a.len(), i, k_pos).into()
            ));
        }
        let item = &mut a[at as usize];
        return apply(item).map(|r| r.and_then(|()| within(item, op_pos)));
    }
    if this.is_map() && k.is_string() {
        let key = k.read_lock::<rhai::ImmutableString>()?.clone();
        let mut m = this.write_lock::<Map>()?;
        if op.is_some() && !m.contains_key(key.as_str()) {
            return None;
        }
        let item = m.entry(key.as_str().into()).or_default();
        let r = apply(item);
        // As Rhai checks it (eval/chaining.rs): `m[k] = v` the item set,
        // `m.k = v` the whole map.
        if !prop {
            return r.map(|r| r.and_then(|()| within(item, op_pos)));
        }
        drop(m);
        return r.map(|r| r.and_then(|()| within(this, op_pos)));
    }
    None
}

/// Rhai's size limits on a value just changed.
fn within(v: &Dynamic, pos: Position) -> Result<(), Box<EvalAltResult>> {
    super::builtins::limit(super::builtins::sizes_of(v), pos)
}
