//! The tier's tree of a function (tree.rs) lowered to the VM's (ir.rs):
//! constants become VM values (texts symbols), `param("x")` of a number
//! the number (parameters are fixed for a built game), and API calls are
//! bound to their typed entry points. What the VM does not run is refused
//! with the reason; that function runs in the tree tier.

use crate::definition::Def;

use super::super::tree::*;
use super::api;
use super::ir::{self, SKind, XKind};
use super::syms::Syms;
use super::value::V;

pub(crate) type Refusal = String;

pub(crate) struct Lowering<'a> {
    pub tier: &'a super::super::Tier,
    pub def: &'a Def,
    pub syms: &'a mut Syms,
    /// The script functions called (by the tier's index).
    pub calls: Vec<usize>,
    /// The templates with one computed part, for the whole script.
    pub templates: &'a mut Vec<super::templates::Template>,
}

impl<'a> Lowering<'a> {
    pub fn function(&mut self, f: &Func) -> Result<ir::Code, Refusal> {
        let mut body = self.block(&f.body)?;
        super::lasts::function_moves(&mut body, f.slots);
        Ok(ir::Code {
            name: f.name.clone(),
            slots: f.slots,
            body,
        })
    }

    fn block(&mut self, b: &Block) -> Result<Vec<ir::S>, Refusal> {
        b.0.iter().map(|s| self.stmt(s)).collect()
    }

    /// A constant as the VM holds it: a text a symbol (made if new), a
    /// list of constants a VM list.
    fn value(&mut self, d: &rhai::Dynamic) -> V {
        if d.is_string()
            && let Some(t) = d.read_lock::<rhai::ImmutableString>()
        {
            return V::Sym(self.syms.intern(self.def, &t));
        }
        if !d.is_shared()
            && let Some(items) = d.read_lock::<rhai::Array>()
        {
            return V::List(items.iter().map(|x| self.value(x)).collect());
        }
        if !d.is_shared()
            && let Some(m) = d.read_lock::<rhai::Map>()
        {
            let mut out = Vec::with_capacity(m.len());
            for (k, v) in m.iter() {
                let key = self.syms.intern(self.def, k);
                let v = self.value(v);
                super::value::map_put(&mut out, key, v, self.syms);
            }
            return V::Map(out);
        }
        V::of(d.clone(), self.syms)
    }

    /// A template: `Named` where one part is computed and the others
    /// written, with text around it.
    fn template(&mut self, parts: Vec<ir::X>) -> XKind {
        let written: Vec<Option<String>> = (parts.iter())
            .map(|p| super::templates::written(p, self.syms))
            .collect();
        let mut computed = written.iter().enumerate().filter(|(_, w)| w.is_none());
        let (Some((var, _)), None) = (computed.next(), computed.next()) else {
            return XKind::Interp(parts);
        };
        let text = |w: &[Option<String>]| w.iter().flatten().map(String::as_str).collect();
        let (before, after): (String, String) = (text(&written[..var]), text(&written[var + 1..]));
        if before.is_empty() && after.is_empty() {
            return XKind::Interp(parts);
        }
        self.templates
            .push(super::templates::Template { before, after });
        let table = self.templates.len() - 1;
        XKind::Named(Box::new(ir::Named { parts, var, table }))
    }

    fn stmt(&mut self, s: &Stmt) -> Result<ir::S, Refusal> {
        let kind = match &s.kind {
            StmtKind::Noop => SKind::Noop,
            StmtKind::Expr(e) | StmtKind::Bare(e) => SKind::Expr(self.expr(e)?),
            StmtKind::Let(slot, e) => SKind::Let(*slot, self.expr(e)?),
            StmtKind::Counted(_) => SKind::Counted,
            StmtKind::Assign(slot, e, _) => SKind::Assign(*slot, self.expr(e)?),
            StmtKind::OpAssign(x) => SKind::OpAssign(Box::new((
                x.slot,
                x.op,
                self.expr(&x.value)?,
                x.op_pos,
                x.helper.clone(),
            ))),
            StmtKind::SetPart(x) => SKind::SetPart(Box::new(ir::SetPart {
                slot: x.slot,
                key: match &x.key {
                    Key::Index(e) => ir::Key::Index(self.expr(e)?),
                    Key::Prop(p) => ir::Key::Prop(p.clone(), self.syms.intern(self.def, p)),
                },
                op: x.op,
                value: self.expr(&x.value)?,
                op_pos: x.op_pos,
                var_pos: x.var_pos,
                helper: x.helper.clone(),
            })),
            StmtKind::If(x) => {
                let (c, a, b) = &**x;
                SKind::If(Box::new((self.expr(c)?, self.block(a)?, self.block(b)?)))
            }
            StmtKind::While(g, body) => SKind::While(
                match g {
                    Some(g) => Some(self.expr(g)?),
                    None => None,
                },
                self.block(body)?,
            ),
            StmtKind::Do(body, c, until) => SKind::Do(self.block(body)?, self.expr(c)?, *until),
            StmtKind::For(f) => {
                let mut body = self.block(&f.body)?;
                super::lasts::move_last_read(f.var, &mut body);
                SKind::For(Box::new(ir::For {
                    var: f.var,
                    counter: f.counter,
                    var_pos: f.var_pos,
                    iter: self.expr(&f.iter)?,
                    body,
                }))
            }
            StmtKind::Switch(x) => SKind::Switch(Box::new(self.switch(x)?)),
            StmtKind::Break => SKind::Break,
            StmtKind::Continue => SKind::Continue,
            StmtKind::Return(e) => SKind::Return(self.opt(e.as_ref())?),
            StmtKind::Throw(e) => SKind::Throw(self.opt(e.as_ref())?),
            StmtKind::Block(b) => SKind::Block(self.block(b)?),
        };
        Ok(ir::S { kind, pos: s.pos })
    }

    /// `switch`: its value, each arm's condition and body as VM
    /// expressions, and Rhai's tables that pick an arm as they are.
    fn switch(&mut self, x: &Switch) -> Result<ir::Switch, Refusal> {
        let value = self.expr(&x.value)?;
        let mut arms = Vec::with_capacity(x.arms.len());
        for a in &x.arms {
            let cond = match &a.cond {
                Ok(b) => Ok(*b),
                Err(e) => Err(self.expr(e)?),
            };
            arms.push(ir::Arm {
                cond,
                body: self.expr(&a.body)?,
            });
        }
        Ok(ir::Switch {
            value,
            cases: x.cases.clone(),
            ranges: x.ranges.clone(),
            arms,
            default: x.default,
        })
    }

    fn opt(&mut self, e: Option<&Expr>) -> Result<Option<ir::X>, Refusal> {
        e.map(|e| self.expr(e)).transpose()
    }

    fn exprs(&mut self, es: &[Expr]) -> Result<Vec<ir::X>, Refusal> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    fn expr(&mut self, e: &Expr) -> Result<ir::X, Refusal> {
        let kind = match &e.kind {
            ExprKind::Const(d) => XKind::Const(self.value(d)),
            ExprKind::Local(s) => XKind::Local(*s),
            ExprKind::Interp(parts) => {
                let parts = self.exprs(parts)?;
                self.template(parts)
            }
            ExprKind::Array(items) => XKind::Array(self.exprs(items)?),
            ExprKind::Map(x) => {
                let mut consts: Vec<(u32, V)> = Vec::new();
                for (k, v) in &x.0 {
                    let key = self.syms.intern(self.def, k);
                    let v = self.value(v);
                    super::value::map_put(&mut consts, key, v, self.syms);
                }
                // The computed fields' places, found once here: a map keeps
                // its keys in the order of their texts.
                let mut written = Vec::new();
                for (k, v) in &x.1 {
                    let key = self.syms.intern(self.def, k);
                    if super::value::map_get(&consts, key).is_none() {
                        super::value::map_put(&mut consts, key, V::Unit, self.syms);
                    }
                    written.push((key, self.expr(v)?));
                }
                let fields = written
                    .into_iter()
                    .map(|(key, x)| {
                        (
                            consts
                                .iter()
                                .position(|(k, _)| *k == key)
                                .unwrap_or_default(),
                            x,
                        )
                    })
                    .collect();
                XKind::SymMap(Box::new(ir::SymMap {
                    keys: consts,
                    fields,
                }))
            }
            ExprKind::And(xs) => XKind::And(self.exprs(xs)?),
            ExprKind::Or(xs) => XKind::Or(self.exprs(xs)?),
            ExprKind::Binary(x) => {
                let (op, a, b, h) = &**x;
                let (a, b) = (self.expr(a)?, self.expr(b)?);
                if a.in_place() && b.in_place() {
                    XKind::Simple(Box::new((*op, a, b, h.clone())))
                } else {
                    XKind::Binary(Box::new((*op, a, b, h.clone())))
                }
            }
            ExprKind::Unary(x) => {
                let (op, a, h) = &**x;
                XKind::Unary(Box::new((*op, self.expr(a)?, h.clone())))
            }
            ExprKind::Call(c) => return self.call(c),
            ExprKind::Curry(x) => {
                let (_, f, args) = &**x;
                let ExprKind::Const(p) = &f.kind else {
                    return Err("makes a closure of a computed function".into());
                };
                XKind::Curry(Box::new((p.clone(), self.exprs(args)?)))
            }
            ExprKind::Chain(c) => match self.tested(c) {
                Some(x) => return Ok(x),
                None => {
                    let c = self.chain(c)?;
                    match c.steps.as_slice() {
                        [ir::Step::Index(k, _)] if c.root.in_place() && k.in_place() => {
                            XKind::Item(Box::new(c))
                        }
                        _ => XKind::Chain(Box::new(c)),
                    }
                }
            },
            ExprKind::Block(b) => XKind::Block(self.block(b)?),
            ExprKind::Log(to, text) => XKind::Log(
                match to {
                    Some(t) => Some(Box::new(self.expr(t)?)),
                    None => None,
                },
                Box::new(self.expr(text)?),
            ),
        };
        Ok(ir::X { kind, pos: e.pos })
    }

    /// Function `ix` called with `args`, if it takes none and its body is
    /// one constant (`fn directions() { [[1, 0], [0, 1]] }`).
    fn constant_fn(&mut self, ix: usize, args: &[ir::X]) -> Option<ir::ConstFn> {
        let (f, at, e) = self.one_value(ix).filter(|_| args.is_empty())?;
        let ExprKind::Const(d) = &e.kind else {
            return None;
        };
        Some(ir::ConstFn {
            name: f.name.clone(),
            value: self.value(d),
            at,
        })
    }

    /// Function `ix`, if its body is one statement giving a value: the
    /// function, where the statement is, and the value's expression.
    fn one_value(&self, ix: usize) -> Option<(&'a Func, rhai::Position, &'a Expr)> {
        let tier: &'a super::super::Tier = self.tier;
        let f = tier.fns.get(ix)?.as_ref()?;
        let [s] = f.body.0.as_slice() else {
            return None;
        };
        match &s.kind {
            StmtKind::Expr(e) | StmtKind::Bare(e) | StmtKind::Return(Some(e)) => {
                Some((f, s.pos, e))
            }
            _ => None,
        }
    }

    /// Function `ix` called with `args`, if it takes one and its body is
    /// one template whose one computed part is its parameter (`fn
    /// disc(p) { `${p}-disc` }`): its argument taken from `args`.
    fn template_fn(&mut self, ix: usize, args: &mut Vec<ir::X>) -> Option<ir::TemplateFn> {
        let (f, at, e) = self
            .one_value(ix)
            .filter(|(f, ..)| args.len() == 1 && f.slots == 1)?;
        let ExprKind::Interp(parts) = &e.kind else {
            return None;
        };
        // Written parts and one read of the parameter, nothing else: a
        // call there (of this function, say) is never lowered from here.
        let is_param = |p: &Expr| matches!(p.kind, ExprKind::Local(0));
        if parts.iter().filter(|p| is_param(p)).count() != 1
            || !(parts.iter()).all(|p| is_param(p) || matches!(p.kind, ExprKind::Const(_)))
        {
            return None;
        }
        let parts = self.exprs(parts).ok()?;
        let XKind::Named(mut named) = self.template(parts) else {
            return None;
        };
        let part = &mut named.parts[named.var];
        if !matches!(part.kind, XKind::Local(0)) {
            return None;
        }
        // Never evaluated (the argument is given): no local of the caller.
        part.kind = XKind::Const(V::Unit);
        Some(ir::TemplateFn {
            name: f.name.clone(),
            arg: args.pop()?,
            named: *named,
            at,
        })
    }

    fn call(&mut self, c: &Call) -> Result<ir::X, Refusal> {
        let mut args = self.exprs(&c.args)?;
        let kind = match &c.target {
            Target::Script(ix) => match self.constant_fn(*ix, &args) {
                Some(c) => XKind::ConstFn(Box::new(c)),
                None => match self.template_fn(*ix, &mut args) {
                    Some(t) => XKind::TemplateFn(Box::new(t)),
                    None => {
                        self.calls.push(*ix);
                        XKind::Script(*ix, args)
                    }
                },
            },
            Target::Native(ix, helper) => {
                if let Some(v) = self.folded(&c.name, &args) {
                    return Ok(ir::X {
                        kind: XKind::Const(v),
                        pos: c.pos,
                    });
                }
                XKind::Api(Box::new(ir::Api {
                    typed: api::typed(&c.name, args.len()),
                    native: *ix,
                    helper: helper.clone(),
                    args,
                    first_local: c.first_local,
                    writes_first: c.writes_first,
                    name: c.name.clone(),
                }))
            }
            Target::Rhai(helper) => {
                let contains = c.name == "contains" && args.len() == 2;
                XKind::Rhai(Box::new((helper.clone(), args, c.first_local, contains)))
            }
        };
        Ok(ir::X { kind, pos: c.pos })
    }

    /// A call whose value the game fixes at load: `param` of a literal
    /// name (a parameter that does not exist stays a call, for its error).
    fn folded(&mut self, name: &str, args: &[ir::X]) -> Option<V> {
        match (name, args) {
            (
                "param",
                [
                    ir::X {
                        kind: XKind::Const(V::Sym(s)),
                        ..
                    },
                ],
            ) => {
                let p = self.def.param(self.syms.text(*s))?;
                Some(if p.values.is_empty() {
                    V::Int(p.value)
                } else {
                    let shown = p.show(p.value);
                    V::Sym(self.syms.intern(self.def, &shown))
                })
            }
            _ => None,
        }
    }

    /// `f().m()` where the API's `f` answers `m` of its list without
    /// building it (api::tested): one typed call.
    fn tested(&mut self, c: &Chain) -> Option<ir::X> {
        let (Root::Value(root), [Step::Method { name, args, .. }]) = (&c.root, &c.steps[..]) else {
            return None;
        };
        let ExprKind::Call(call) = &root.kind else {
            return None;
        };
        let (Target::Native(ix, helper), true, true) =
            (&call.target, call.args.is_empty(), args.is_empty())
        else {
            return None;
        };
        let typed = api::tested(&call.name, name)?;
        Some(ir::X {
            kind: XKind::Api(Box::new(ir::Api {
                typed: Some(typed),
                native: *ix,
                helper: helper.clone(),
                args: Vec::new(),
                first_local: None,
                writes_first: false,
                name: call.name.clone(),
            })),
            pos: root.pos,
        })
    }

    fn chain(&mut self, c: &Chain) -> Result<ir::Chain, Refusal> {
        let root = match &c.root {
            Root::Local(s, _) => ir::Root::Local(*s),
            Root::Value(e) => ir::Root::Value(self.expr(e)?),
        };
        let mut steps = Vec::new();
        for s in &c.steps {
            steps.push(match s {
                Step::Index(e, pos) => ir::Step::Index(self.expr(e)?, *pos),
                Step::Prop(name, pos, h) => {
                    let sym = self.syms.intern(self.def, name);
                    ir::Step::Prop(name.clone(), sym, *pos, h.clone())
                }
                Step::Method {
                    name,
                    args,
                    pos,
                    helper,
                    native,
                } => {
                    let (args, closure) = match self.inline(name, args)? {
                        Some((captures, closure)) => (captures, Some(closure)),
                        None => (self.exprs(args)?, None),
                    };
                    ir::Step::Method {
                        name: name.clone(),
                        args,
                        pos: *pos,
                        helper: helper.clone(),
                        native: *native,
                        closure,
                    }
                }
            });
        }
        Ok(ir::Chain { root, steps })
    }
}

impl Lowering<'_> {
    /// `xs.filter(|x| ...)` (`map`, `all`, `some`) with the closure
    /// written there: its captured values' expressions and the closure.
    #[allow(clippy::type_complexity)]
    fn inline(
        &mut self,
        name: &str,
        args: &[Expr],
    ) -> Result<Option<(Vec<ir::X>, Box<ir::Inline>)>, Refusal> {
        let ("filter" | "map" | "all" | "some", [arg]) = (name, args) else {
            return Ok(None);
        };
        let ExprKind::Curry(x) = &arg.kind else {
            return Ok(None);
        };
        let (_, f, captured) = &**x;
        let ExprKind::Const(p) = &f.kind else {
            return Ok(None);
        };
        let Some(fn_name) = p
            .read_lock::<rhai::FnPtr>()
            .map(|f| f.fn_name().to_string())
        else {
            return Ok(None);
        };
        match self.tier.closure(&fn_name) {
            Some((ix, params)) if params == captured.len() + 1 => Ok(Some((
                self.exprs(captured)?,
                Box::new(ir::Inline { ix, ptr: p.clone() }),
            ))),
            _ => Ok(None),
        }
    }
}
