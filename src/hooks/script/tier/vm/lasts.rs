//! A local's last read made a move of it: a function's value or `return`
//! read from a local, and a read as an argument of a call: `for d in directions() { all += outflanked_toward(p, cell, d); }`
//! hands `d` to the function without copying it (a list's copy is an
//! allocation). In a loop's body over `d`, the loop sets `d` afresh each
//! round, so a read that no later statement of the round follows with
//! another is its last in the round; in a function's own body (no loop
//! around it), a read no later statement follows is its last. Anything
//! this does not see through counts as a read (`None`): then nothing is
//! moved.

use super::ir::*;

/// A function's body with its locals' last reads made moves: its value
/// read from a local (the frame goes with the call), `return local`, and
/// each local's last read as a call's argument.
pub(super) fn function_moves(body: &mut [S], slots: usize) {
    if let Some(S {
        kind: SKind::Expr(x),
        ..
    }) = body.last_mut()
    {
        moved(x);
    }
    returns_moved(body);
    // A statement of the body itself runs once: a local's read there that
    // no later statement follows is its last.
    for slot in 0..slots {
        move_last_read(slot, body);
    }
}

/// A read of a local made a move of it.
fn moved(x: &mut X) {
    if let XKind::Local(s) = x.kind {
        x.kind = XKind::Move(s);
    }
}

/// `return local` made a move of the local, in every statement of a
/// function (a closure is a function of its own).
fn returns_moved(body: &mut [S]) {
    for s in body {
        match &mut s.kind {
            SKind::Return(Some(x)) => moved(x),
            SKind::If(x) => {
                returns_moved(&mut x.1);
                returns_moved(&mut x.2);
            }
            SKind::While(_, b) | SKind::Do(b, _, _) | SKind::Block(b) => returns_moved(b),
            SKind::For(f) => returns_moved(&mut f.body),
            _ => {}
        }
    }
}

/// In the body of a `for` over `var`, or a function's body: the one read
/// of `var` in the last statement that names it moved, where that
/// statement is a call (alone, or a value assigned) taking `var` as one
/// of its arguments, and names it nowhere else.
pub(super) fn move_last_read(var: usize, body: &mut [S]) {
    let Some(k) = body.iter().rposition(|s| stmt_reads(s, var) != Some(0)) else {
        return;
    };
    let x = match &mut body[k].kind {
        SKind::Expr(x) => x,
        SKind::Let(t, x) | SKind::Assign(t, x) if *t != var => x,
        SKind::OpAssign(o) if o.0 != var => &mut o.2,
        _ => return,
    };
    if reads(x, var) != Some(1) {
        return;
    }
    if let XKind::Script(_, args) = &mut x.kind
        && let Some(a) = args
            .iter_mut()
            .find(|a| matches!(a.kind, XKind::Local(s) if s == var))
    {
        a.kind = XKind::Move(var);
    }
}

fn sum<'a>(xs: impl IntoIterator<Item = &'a X>, s: usize) -> Option<usize> {
    xs.into_iter().map(|x| reads(x, s)).sum()
}

fn is(t: usize, s: usize) -> usize {
    usize::from(t == s)
}

/// How often expression `x` names local `s`; None where this does not
/// look.
fn reads(x: &X, s: usize) -> Option<usize> {
    Some(match &x.kind {
        XKind::Const(_) | XKind::ConstFn(_) => 0,
        XKind::Local(t) | XKind::Move(t) => is(*t, s),
        XKind::Interp(v) | XKind::Array(v) | XKind::And(v) | XKind::Or(v) => sum(v, s)?,
        XKind::Named(n) => sum(&n.parts, s)?,
        XKind::TemplateFn(t) => reads(&t.arg, s)?,
        XKind::SymMap(m) => sum(m.fields.iter().map(|(_, x)| x), s)?,
        XKind::Binary(b) | XKind::Simple(b) => reads(&b.1, s)? + reads(&b.2, s)?,
        XKind::Unary(u) => reads(&u.1, s)?,
        XKind::Script(_, args) => sum(args, s)?,
        XKind::Api(a) => sum(&a.args, s)? + a.first_local.map_or(0, |t| is(t, s)),
        XKind::Rhai(r) => sum(&r.1, s)? + r.2.map_or(0, |t| is(t, s)),
        XKind::Curry(c) => sum(&c.1, s)?,
        XKind::Chain(c) | XKind::Item(c) => {
            let root = match &c.root {
                Root::Local(t) => is(*t, s),
                Root::Value(x) => reads(x, s)?,
            };
            let mut n = root;
            for step in &c.steps {
                n += match step {
                    Step::Index(k, _) => reads(k, s)?,
                    Step::Prop(..) => 0,
                    Step::Method { args, .. } => sum(args, s)?,
                };
            }
            n
        }
        XKind::Log(to, text) => to.as_deref().map_or(Some(0), |t| reads(t, s))? + reads(text, s)?,
        XKind::Block(_) => return None,
    })
}

fn block_reads(b: &[S], s: usize) -> Option<usize> {
    b.iter().map(|x| stmt_reads(x, s)).sum()
}

/// How often statement `st` names local `s` (read or written); None
/// where this does not look.
fn stmt_reads(st: &S, s: usize) -> Option<usize> {
    Some(match &st.kind {
        SKind::Noop | SKind::Counted | SKind::Break | SKind::Continue => 0,
        SKind::Expr(x) => reads(x, s)?,
        SKind::Let(t, x) | SKind::Assign(t, x) => is(*t, s) + reads(x, s)?,
        SKind::OpAssign(o) => is(o.0, s) + reads(&o.2, s)?,
        SKind::SetPart(p) => {
            let key = match &p.key {
                Key::Index(k) => reads(k, s)?,
                Key::Prop(..) => 0,
            };
            is(p.slot, s) + key + reads(&p.value, s)?
        }
        SKind::If(x) => reads(&x.0, s)? + block_reads(&x.1, s)? + block_reads(&x.2, s)?,
        SKind::While(g, b) => g.as_ref().map_or(Some(0), |g| reads(g, s))? + block_reads(b, s)?,
        SKind::Do(b, c, _) => block_reads(b, s)? + reads(c, s)?,
        SKind::For(f) => {
            is(f.var, s)
                + f.counter.map_or(0, |c| is(c, s))
                + reads(&f.iter, s)?
                + block_reads(&f.body, s)?
        }
        SKind::Return(x) | SKind::Throw(x) => x.as_ref().map_or(Some(0), |x| reads(x, s))?,
        SKind::Block(b) => block_reads(b, s)?,
        SKind::Switch(_) => return None,
    })
}
