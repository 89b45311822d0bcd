//! Locals that only ever hold the literal they were declared with (`let
//! lines = [[1, 2, 3], ...]` never changed) read as that literal: Rhai
//! copies the value into the variable and again at each read; the tier
//! reads the one in the tree (a loop over it borrows it). The operations
//! counted stay Rhai's: the declaration still counts its two.

use std::collections::{HashMap, HashSet};

use rhai::Dynamic;

use super::tree::*;

/// What a function does with its locals, as far as the tier needs to know.
#[derive(Default)]
pub(super) struct Scan {
    /// Slots written after their declaration (or possibly, in place).
    pub changed: HashSet<usize>,
    /// (script function, argument position, slot): a local handed on.
    pub passed: Vec<(usize, usize, usize)>,
    /// Closures made: the function and, for each captured value, its slot.
    pub closures: Vec<(rhai::ImmutableString, Vec<Option<usize>>)>,
}

/// Scan a function's body.
pub(super) fn scan(body: &Block) -> Scan {
    let mut sc = Scan::default();
    scan_block(body, &mut HashMap::new(), &mut sc);
    sc
}

/// Whether any of `xs` may change local `slot` (as `scan` sees a write:
/// set, handed first to what may change it in place, a method on it).
pub(super) fn changes(xs: &[Expr], slot: usize) -> bool {
    let mut sc = Scan::default();
    xs.iter().for_each(|x| scan_expr(x, &mut sc));
    sc.changed.contains(&slot)
}

/// Fold the locals of `body` declared once from a literal and never
/// changed.
pub(super) fn fold(body: &mut Block) {
    let mut lets: HashMap<usize, Option<Dynamic>> = HashMap::new();
    let mut sc = Scan::default();
    scan_block(body, &mut lets, &mut sc);
    // A captured variable stays a variable: capture.rs follows where it goes.
    let mut changed = sc.changed;
    changed.extend(
        sc.closures
            .iter()
            .flat_map(|(_, slots)| slots.iter().flatten()),
    );
    let consts: HashMap<usize, Dynamic> = lets
        .into_iter()
        .filter(|(s, _)| !changed.contains(s))
        .filter_map(|(s, v)| v.map(|v| (s, v)))
        .collect();
    if !consts.is_empty() {
        rewrite_block(body, &consts);
    }
}

fn scan_block(b: &Block, lets: &mut HashMap<usize, Option<Dynamic>>, sc: &mut Scan) {
    for s in &b.0 {
        scan_stmt(s, lets, sc);
    }
}

fn scan_stmt(s: &Stmt, lets: &mut HashMap<usize, Option<Dynamic>>, sc: &mut Scan) {
    match &s.kind {
        StmtKind::Noop | StmtKind::Break | StmtKind::Continue | StmtKind::Counted(_) => {}
        StmtKind::Expr(e) | StmtKind::Bare(e) => scan_expr(e, sc),
        StmtKind::Let(slot, e) => {
            scan_expr(e, sc);
            // A slot declared twice (a loop body) is never folded.
            let literal = match &e.kind {
                ExprKind::Const(v) => Some(v.clone()),
                _ => None,
            };
            if lets.insert(*slot, literal).is_some() {
                sc.changed.insert(*slot);
            }
        }
        StmtKind::Assign(slot, e, _) => {
            sc.changed.insert(*slot);
            scan_expr(e, sc);
        }
        StmtKind::OpAssign(x) => {
            sc.changed.insert(x.slot);
            scan_expr(&x.value, sc);
        }
        StmtKind::SetPart(x) => {
            sc.changed.insert(x.slot);
            scan_expr(&x.value, sc);
            if let Key::Index(k) = &x.key {
                scan_expr(k, sc);
            }
        }
        StmtKind::If(x) => {
            scan_expr(&x.0, sc);
            scan_block(&x.1, lets, sc);
            scan_block(&x.2, lets, sc);
        }
        StmtKind::While(g, b) => {
            if let Some(g) = g {
                scan_expr(g, sc);
            }
            scan_block(b, lets, sc);
        }
        StmtKind::Do(b, c, _) => {
            scan_block(b, lets, sc);
            scan_expr(c, sc);
        }
        StmtKind::For(f) => {
            sc.changed.insert(f.var);
            if let Some(c) = f.counter {
                sc.changed.insert(c);
            }
            scan_expr(&f.iter, sc);
            scan_block(&f.body, lets, sc);
        }
        StmtKind::Return(e) | StmtKind::Throw(e) => {
            if let Some(e) = e {
                scan_expr(e, sc);
            }
        }
        StmtKind::Block(b) => scan_block(b, lets, sc),
        StmtKind::Switch(x) => {
            scan_expr(&x.value, sc);
            for a in &x.arms {
                if let Err(c) = &a.cond {
                    scan_expr(c, sc);
                }
                scan_expr(&a.body, sc);
            }
        }
    }
}

fn scan_expr(e: &Expr, sc: &mut Scan) {
    match &e.kind {
        ExprKind::Const(_) | ExprKind::Local(_) => {}
        ExprKind::Curry(x) => {
            let (name, _, args) = &**x;
            sc.closures.push((
                name.clone(),
                args.iter()
                    .map(|a| match a.kind {
                        ExprKind::Local(s) => Some(s),
                        _ => None,
                    })
                    .collect(),
            ));
            args.iter().for_each(|a| scan_expr(a, sc));
        }
        ExprKind::Interp(xs) | ExprKind::Array(xs) | ExprKind::And(xs) | ExprKind::Or(xs) => {
            xs.iter().for_each(|x| scan_expr(x, sc))
        }
        ExprKind::Map(m) => m.1.iter().for_each(|(_, x)| scan_expr(x, sc)),
        ExprKind::Binary(x) => {
            scan_expr(&x.1, sc);
            scan_expr(&x.2, sc);
        }
        ExprKind::Unary(x) => scan_expr(&x.1, sc),
        ExprKind::Call(c) => {
            // A function handed a variable first may change it in place.
            if let Some(s) = c.first_local
                && c.writes_first
            {
                sc.changed.insert(s);
            }
            if let Target::Script(f) = c.target {
                for (k, a) in c.args.iter().enumerate() {
                    if let ExprKind::Local(s) = a.kind {
                        sc.passed.push((f, k, s));
                    }
                }
            }
            c.args.iter().for_each(|x| scan_expr(x, sc));
        }
        ExprKind::Chain(c) => {
            match &c.root {
                // A method on a variable may change it (unless Rhai's
                // says it never does: a script function of its name is
                // never called as a method, lower.rs).
                Root::Local(s, _) => {
                    if matches!(c.steps.first(), Some(Step::Method { name, .. })
                        if !PURE_METHODS.contains(&name.as_str()))
                    {
                        sc.changed.insert(*s);
                    }
                }
                Root::Value(v) => scan_expr(v, sc),
            }
            for s in &c.steps {
                match s {
                    Step::Index(x, _) => scan_expr(x, sc),
                    Step::Method { args, .. } => args.iter().for_each(|x| scan_expr(x, sc)),
                    Step::Prop(..) => {}
                }
            }
        }
        ExprKind::Block(b) => {
            // Declarations inside are scanned as statements.
            let mut lets = HashMap::new();
            scan_block(b, &mut lets, sc);
            sc.changed.extend(lets.into_keys());
        }
        ExprKind::Log(to, text) => {
            if let Some(t) = to {
                scan_expr(t, sc);
            }
            scan_expr(text, sc);
        }
    }
}

fn rewrite_block(b: &mut Block, consts: &HashMap<usize, Dynamic>) {
    for s in &mut b.0 {
        rewrite_stmt(s, consts);
    }
}

fn rewrite_stmt(s: &mut Stmt, consts: &HashMap<usize, Dynamic>) {
    match &mut s.kind {
        StmtKind::Let(slot, e) if consts.contains_key(slot) => {
            // Counted as Rhai counts it (the statement and its literal).
            let pos = e.pos;
            s.kind = StmtKind::Counted(pos);
        }
        StmtKind::Noop | StmtKind::Break | StmtKind::Continue | StmtKind::Counted(_) => {}
        StmtKind::Expr(e) | StmtKind::Bare(e) | StmtKind::Let(_, e) | StmtKind::Assign(_, e, _) => {
            rewrite_expr(e, consts)
        }
        StmtKind::OpAssign(x) => rewrite_expr(&mut x.value, consts),
        StmtKind::SetPart(x) => {
            rewrite_expr(&mut x.value, consts);
            if let Key::Index(k) = &mut x.key {
                rewrite_expr(k, consts);
            }
        }
        StmtKind::If(x) => {
            rewrite_expr(&mut x.0, consts);
            rewrite_block(&mut x.1, consts);
            rewrite_block(&mut x.2, consts);
        }
        StmtKind::While(g, b) => {
            if let Some(g) = g {
                rewrite_expr(g, consts);
            }
            rewrite_block(b, consts);
        }
        StmtKind::Do(b, c, _) => {
            rewrite_block(b, consts);
            rewrite_expr(c, consts);
        }
        StmtKind::For(f) => {
            rewrite_expr(&mut f.iter, consts);
            rewrite_block(&mut f.body, consts);
        }
        StmtKind::Return(e) | StmtKind::Throw(e) => {
            if let Some(e) = e {
                rewrite_expr(e, consts);
            }
        }
        StmtKind::Block(b) => rewrite_block(b, consts),
        StmtKind::Switch(x) => {
            rewrite_expr(&mut x.value, consts);
            for a in &mut x.arms {
                if let Err(c) = &mut a.cond {
                    rewrite_expr(c, consts);
                }
                rewrite_expr(&mut a.body, consts);
            }
        }
    }
}

fn rewrite_expr(e: &mut Expr, consts: &HashMap<usize, Dynamic>) {
    match &mut e.kind {
        ExprKind::Local(s) => {
            if let Some(v) = consts.get(s) {
                e.kind = ExprKind::Const(v.clone());
            }
        }
        ExprKind::Const(_) => {}
        ExprKind::Interp(xs) | ExprKind::Array(xs) | ExprKind::And(xs) | ExprKind::Or(xs) => {
            xs.iter_mut().for_each(|x| rewrite_expr(x, consts))
        }
        ExprKind::Map(m) => m.1.iter_mut().for_each(|(_, x)| rewrite_expr(x, consts)),
        ExprKind::Binary(x) => {
            rewrite_expr(&mut x.1, consts);
            rewrite_expr(&mut x.2, consts);
        }
        ExprKind::Unary(x) => rewrite_expr(&mut x.1, consts),
        ExprKind::Call(c) => c.args.iter_mut().for_each(|x| rewrite_expr(x, consts)),
        ExprKind::Curry(x) => x.2.iter_mut().for_each(|a| rewrite_expr(a, consts)),
        ExprKind::Chain(c) => {
            if let Root::Local(s, pos) = c.root
                && let Some(v) = consts.get(&s)
            {
                c.root = Root::Value(Expr {
                    kind: ExprKind::Const(v.clone()),
                    pos,
                });
            }
            if let Root::Value(v) = &mut c.root {
                rewrite_expr(v, consts);
            }
            for s in &mut c.steps {
                match s {
                    Step::Index(x, _) => rewrite_expr(x, consts),
                    Step::Method { args, .. } => {
                        args.iter_mut().for_each(|x| rewrite_expr(x, consts))
                    }
                    Step::Prop(..) => {}
                }
            }
        }
        ExprKind::Block(b) => rewrite_block(b, consts),
        ExprKind::Log(to, text) => {
            if let Some(t) = to {
                rewrite_expr(t, consts);
            }
            rewrite_expr(text, consts);
        }
    }
}
