//! Closures that capture variables. Rhai shares a captured variable
//! between the function and its closure: a write on either side, or in a
//! function the shared value is handed to, is seen on the other. The tier
//! copies the value into the closure instead, which means the same while
//! nothing writes it; a function where something might is left to Rhai.

use std::collections::HashMap;

use rhai::ImmutableString;

use super::fold::{Scan, scan};
use super::lower::{Lowering, Refusal};
use super::tree::{Expr, ExprKind, Func};

impl Lowering<'_> {
    /// A closure that captures variables, as Rhai's parser writes it:
    /// `curry(Fn("anon$..."), captured, ...)` after a `Share` of them.
    pub(super) fn closure(
        &mut self,
        x: &rhai::FnCallExpr,
        pos: rhai::Position,
    ) -> Result<Option<Expr>, Refusal> {
        if x.name != "curry" || !x.namespace.is_empty() || x.args.len() < 2 {
            return Ok(None);
        }
        let f = self.expr(&x.args[0])?;
        let name = match &f.kind {
            ExprKind::Const(v) => match v.read_lock::<rhai::FnPtr>() {
                Some(p) if p.fn_name().starts_with("anon$") => p.fn_name().into(),
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        if !x.args[1..]
            .iter()
            .all(|a| matches!(a, rhai::Expr::Variable(..)))
        {
            return Ok(None);
        }
        let args = self.exprs(&x.args[1..])?;
        Ok(Some(Expr {
            kind: ExprKind::Curry(Box::new((name, f, args))),
            pos,
        }))
    }
}

/// Leave to Rhai (`fns[i] = None`, with the reason) each function whose
/// closures could tell a copy from a shared variable.
pub(super) fn closure_copies(
    list: &[(String, Vec<ImmutableString>)],
    fns: &mut [Option<Func>],
    why: &mut [Option<String>],
) {
    let scans: Vec<Option<Scan>> = fns
        .iter()
        .map(|f| f.as_ref().map(|f| scan(&f.body)))
        .collect();
    if scans.iter().flatten().all(|s| s.closures.is_empty()) {
        return;
    }
    let by_name: HashMap<&str, usize> = (list.iter().enumerate())
        .map(|(i, (n, _))| (n.as_str(), i))
        .collect();
    let writes = param_writes(list, &scans, &by_name);
    for i in 0..fns.len() {
        let Some(s) = &scans[i] else { continue };
        let problem = s.closures.iter().find_map(|(anon, slots)| {
            let a = by_name.get(anon.as_str()).copied();
            slots.iter().enumerate().find_map(|(c, slot)| {
                // The closure's own parameter for the captured value.
                if a.is_none_or(|a| writes[a].get(c).copied().unwrap_or(true)) {
                    return Some("makes a closure that may change a variable it captures");
                }
                let slot = (*slot)?;
                if s.changed.contains(&slot) {
                    return Some("changes a variable that a closure captures");
                }
                let handed = (s.passed.iter())
                    .any(|&(f, k, v)| v == slot && writes[f].get(k).copied().unwrap_or(true));
                handed.then_some(
                    "hands a variable a closure captures to a function that may change it",
                )
            })
        });
        if let Some(p) = problem {
            fns[i] = None;
            why[i] = Some(p.into());
        }
    }
}

/// For each function, whether it may write each parameter: in place, or
/// by handing it to a function that may, or by capturing it in a closure
/// that may (functions run in Rhai: any).
fn param_writes(
    list: &[(String, Vec<ImmutableString>)],
    scans: &[Option<Scan>],
    by_name: &HashMap<&str, usize>,
) -> Vec<Vec<bool>> {
    // Parameters take the first slots.
    let mut writes: Vec<Vec<bool>> = (list.iter().zip(scans))
        .map(|((_, params), s)| {
            (0..params.len())
                .map(|k| s.as_ref().is_none_or(|s| s.changed.contains(&k)))
                .collect()
        })
        .collect();
    loop {
        let mut more = false;
        for (i, s) in scans.iter().enumerate() {
            let Some(s) = s else { continue };
            // A captured value is handed to the closure's first parameters.
            let captured = s.closures.iter().flat_map(|(anon, slots)| {
                let f = by_name.get(anon.as_str()).copied();
                (slots.iter().enumerate()).filter_map(move |(c, v)| Some((f?, c, (*v)?)))
            });
            let handed: Vec<(usize, usize, usize)> =
                s.passed.iter().copied().chain(captured).collect();
            for (f, k, slot) in handed {
                let hands_on = writes[f].get(k).copied().unwrap_or(true);
                if hands_on && writes[i].get(slot) == Some(&false) {
                    writes[i][slot] = true;
                    more = true;
                }
            }
        }
        if !more {
            return writes;
        }
    }
}
