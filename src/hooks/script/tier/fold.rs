//! Locals that only ever hold the literal they were declared with (`let
//! lines = [[1, 2, 3], ...]` never changed) read as that literal: Rhai
//! copies the value into the variable and again at each read; the tier
//! reads the one in the tree (a loop over it borrows it). The operations
//! counted stay Rhai's: the declaration still counts its two.

use std::collections::{HashMap, HashSet};

use rhai::Dynamic;

use super::tree::*;

/// Fold the locals of `body` declared once from a literal and never
/// changed.
pub(super) fn fold(body: &mut Block) {
    let mut lets: HashMap<usize, Option<Dynamic>> = HashMap::new();
    let mut changed = HashSet::new();
    scan_block(body, &mut lets, &mut changed);
    let consts: HashMap<usize, Dynamic> = lets
        .into_iter()
        .filter(|(s, _)| !changed.contains(s))
        .filter_map(|(s, v)| v.map(|v| (s, v)))
        .collect();
    if !consts.is_empty() {
        rewrite_block(body, &consts);
    }
}

fn scan_block(b: &Block, lets: &mut HashMap<usize, Option<Dynamic>>, changed: &mut HashSet<usize>) {
    for s in &b.0 {
        scan_stmt(s, lets, changed);
    }
}

fn scan_stmt(s: &Stmt, lets: &mut HashMap<usize, Option<Dynamic>>, changed: &mut HashSet<usize>) {
    match &s.kind {
        StmtKind::Noop | StmtKind::Break | StmtKind::Continue | StmtKind::Counted(_) => {}
        StmtKind::Expr(e) | StmtKind::Bare(e) => scan_expr(e, changed),
        StmtKind::Let(slot, e) => {
            scan_expr(e, changed);
            // A slot declared twice (a loop body) is never folded.
            let literal = match &e.kind {
                ExprKind::Const(v) => Some(v.clone()),
                _ => None,
            };
            if lets.insert(*slot, literal).is_some() {
                changed.insert(*slot);
            }
        }
        StmtKind::Assign(slot, e, _) => {
            changed.insert(*slot);
            scan_expr(e, changed);
        }
        StmtKind::OpAssign(x) => {
            changed.insert(x.slot);
            scan_expr(&x.value, changed);
        }
        StmtKind::SetPart(x) => {
            changed.insert(x.slot);
            scan_expr(&x.value, changed);
            if let Key::Index(k) = &x.key {
                scan_expr(k, changed);
            }
        }
        StmtKind::If(x) => {
            scan_expr(&x.0, changed);
            scan_block(&x.1, lets, changed);
            scan_block(&x.2, lets, changed);
        }
        StmtKind::While(g, b) => {
            if let Some(g) = g {
                scan_expr(g, changed);
            }
            scan_block(b, lets, changed);
        }
        StmtKind::Do(b, c, _) => {
            scan_block(b, lets, changed);
            scan_expr(c, changed);
        }
        StmtKind::For(f) => {
            changed.insert(f.var);
            if let Some(c) = f.counter {
                changed.insert(c);
            }
            scan_expr(&f.iter, changed);
            scan_block(&f.body, lets, changed);
        }
        StmtKind::Return(e) => {
            if let Some(e) = e {
                scan_expr(e, changed);
            }
        }
        StmtKind::Block(b) => scan_block(b, lets, changed),
        StmtKind::Switch(x) => {
            scan_expr(&x.value, changed);
            for a in &x.arms {
                if let Err(c) = &a.cond {
                    scan_expr(c, changed);
                }
                scan_expr(&a.body, changed);
            }
        }
    }
}

fn scan_expr(e: &Expr, changed: &mut HashSet<usize>) {
    match &e.kind {
        ExprKind::Const(_) | ExprKind::Local(_) => {}
        ExprKind::Interp(xs) | ExprKind::Array(xs) | ExprKind::And(xs) | ExprKind::Or(xs) => {
            xs.iter().for_each(|x| scan_expr(x, changed))
        }
        ExprKind::Map(m) => m.1.iter().for_each(|(_, x)| scan_expr(x, changed)),
        ExprKind::Binary(x) => {
            scan_expr(&x.1, changed);
            scan_expr(&x.2, changed);
        }
        ExprKind::Unary(x) => scan_expr(&x.1, changed),
        ExprKind::Call(c) => {
            // A function handed a variable first may change it in place.
            if let Some(s) = c.first_local {
                changed.insert(s);
            }
            c.args.iter().for_each(|x| scan_expr(x, changed));
        }
        ExprKind::Chain(c) => {
            match &c.root {
                // A method on a variable may change it.
                Root::Local(s, _) => {
                    if matches!(c.steps.first(), Some(Step::Method { .. })) {
                        changed.insert(*s);
                    }
                }
                Root::Value(v) => scan_expr(v, changed),
            }
            for s in &c.steps {
                match s {
                    Step::Index(x, _) => scan_expr(x, changed),
                    Step::Method { args, .. } => args.iter().for_each(|x| scan_expr(x, changed)),
                    Step::Prop(..) => {}
                }
            }
        }
        ExprKind::Block(b) => {
            // Declarations inside are scanned as statements.
            let mut lets = HashMap::new();
            scan_block(b, &mut lets, changed);
            changed.extend(lets.into_keys());
        }
        ExprKind::Log(to, text) => {
            if let Some(t) = to {
                scan_expr(t, changed);
            }
            scan_expr(text, changed);
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
        StmtKind::Return(e) => {
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
