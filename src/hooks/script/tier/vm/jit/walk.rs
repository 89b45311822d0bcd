//! The locals a unit of the VM's form names, read or written: what
//! native code writes to the frame before the VM runs the unit, and what
//! the unit makes `Val` (types.rs).

use super::super::ir::*;

/// Every local named in `x`, each with whether it may be written there
/// (set, or handed to a method that may change it in place); true where
/// `x` holds a `break`, `continue` or `return`.
pub(crate) fn walk_x(x: &X, f: &mut dyn FnMut(usize, bool)) -> bool {
    let mut jumps = false;
    let all = |xs: &[X], f: &mut dyn FnMut(usize, bool)| {
        let mut j = false;
        for x in xs {
            j |= walk_x(x, f);
        }
        j
    };
    match &x.kind {
        XKind::Const(_) | XKind::ConstFn(_) => {}
        XKind::Local(s) | XKind::Move(s) => f(*s, false),
        XKind::Interp(v) | XKind::Array(v) | XKind::And(v) | XKind::Or(v) => jumps |= all(v, f),
        XKind::Named(n) => jumps |= all(&n.parts, f),
        XKind::TemplateFn(t) => jumps |= walk_x(&t.arg, f),
        XKind::SymMap(m) => {
            for (_, x) in &m.fields {
                jumps |= walk_x(x, f);
            }
        }
        XKind::Binary(b) | XKind::Simple(b) => {
            jumps |= walk_x(&b.1, f);
            jumps |= walk_x(&b.2, f);
        }
        XKind::Unary(u) => jumps |= walk_x(&u.1, f),
        XKind::Script(_, args) => jumps |= all(args, f),
        XKind::Api(a) => {
            jumps |= all(&a.args, f);
            if let Some(t) = a.first_local {
                f(t, a.writes_first);
            }
        }
        XKind::Rhai(r) => {
            jumps |= all(&r.1, f);
            if let Some(t) = r.2 {
                f(t, true);
            }
        }
        XKind::Curry(c) => jumps |= all(&c.1, f),
        XKind::Chain(c) | XKind::Item(c) => {
            let method = c.steps.iter().any(|s| matches!(s, Step::Method { .. }));
            match &c.root {
                Root::Local(t) => f(*t, method),
                Root::Value(x) => jumps |= walk_x(x, f),
            }
            for step in &c.steps {
                match step {
                    Step::Index(k, _) => jumps |= walk_x(k, f),
                    Step::Prop(..) => {}
                    Step::Method { args, .. } => jumps |= all(args, f),
                }
            }
        }
        XKind::Log(to, text) => {
            if let Some(t) = to {
                jumps |= walk_x(t, f);
            }
            jumps |= walk_x(text, f);
        }
        XKind::Block(b) => {
            for s in b {
                jumps |= walk_s(s, f);
            }
        }
    }
    jumps
}

/// `walk_x` of a statement.
pub(crate) fn walk_s(st: &S, f: &mut dyn FnMut(usize, bool)) -> bool {
    let mut jumps = false;
    let body = |b: &[S], f: &mut dyn FnMut(usize, bool)| {
        let mut j = false;
        for s in b {
            j |= walk_s(s, f);
        }
        j
    };
    match &st.kind {
        SKind::Noop | SKind::Counted => {}
        SKind::Break | SKind::Continue | SKind::Return(_) => {
            jumps = true;
            if let SKind::Return(Some(x)) = &st.kind {
                walk_x(x, f);
            }
        }
        SKind::Expr(x) => jumps |= walk_x(x, f),
        SKind::Let(t, x) | SKind::Assign(t, x) => {
            jumps |= walk_x(x, f);
            f(*t, true);
        }
        SKind::OpAssign(o) => {
            jumps |= walk_x(&o.2, f);
            f(o.0, false);
            f(o.0, true);
        }
        SKind::SetPart(p) => {
            if let Key::Index(k) = &p.key {
                jumps |= walk_x(k, f);
            }
            jumps |= walk_x(&p.value, f);
            f(p.slot, false);
            f(p.slot, true);
        }
        SKind::If(x) => {
            jumps |= walk_x(&x.0, f);
            jumps |= body(&x.1, f);
            jumps |= body(&x.2, f);
        }
        SKind::While(g, b) => {
            if let Some(g) = g {
                jumps |= walk_x(g, f);
            }
            jumps |= body(b, f);
        }
        SKind::Do(b, c, _) => {
            jumps |= body(b, f);
            jumps |= walk_x(c, f);
        }
        SKind::For(x) => {
            jumps |= walk_x(&x.iter, f);
            f(x.var, true);
            if let Some(c) = x.counter {
                f(c, true);
            }
            // A loop's own `break` and `continue` stay in it; a
            // `return` does not (seen by the walk all the same).
            jumps |= body(&x.body, f);
        }
        SKind::Throw(x) => {
            if let Some(x) = x {
                jumps |= walk_x(x, f);
            }
        }
        SKind::Block(b) => jumps |= body(b, f),
        SKind::Switch(w) => {
            jumps |= walk_x(&w.value, f);
            for arm in &w.arms {
                if let Err(c) = &arm.cond {
                    jumps |= walk_x(c, f);
                }
                jumps |= walk_x(&arm.body, f);
            }
        }
    }
    jumps
}

/// Whether any of `xs` may write local `k` (as `walk_x` says).
pub(crate) fn writes(xs: &[X], k: usize) -> bool {
    let mut w = false;
    for x in xs {
        walk_x(x, &mut |s, write| w |= write && s == k);
    }
    w
}
