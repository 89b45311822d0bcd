//! Text templates (`` `${p}-disc` ``, `` `${x}` ``): built in a kept
//! buffer, a text that is a symbol becoming it. A template with one part
//! computed and the rest written (`Named`) is an id's name made of
//! another's: the symbol it makes of each symbol is a table made at load
//! (`tables`), and of each number, so no text is built for it where the
//! part is a symbol or a number.

use rhai::{ImmutableString, Position};
use rustc_hash::FxHashMap;

use super::super::run::TEXT;
use super::ir::{ConstFn, Named, TemplateFn, X};
use super::run::{Flow, R, VmRun, in_function};
use super::syms::Syms;
use super::value::V;

#[cfg(test)]
thread_local! {
    /// How many templates' texts were built (in tests).
    pub(super) static BUILT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A template's written texts around its one computed part.
pub(crate) struct Template {
    pub before: String,
    pub after: String,
}

/// The written text of a template's part, if the part is written.
pub(super) fn written(x: &X, syms: &Syms) -> Option<String> {
    match &x.kind {
        super::ir::XKind::Const(V::Sym(s)) => Some(syms.text(*s).to_string()),
        super::ir::XKind::Const(V::Int(i)) => Some(i.to_string()),
        super::ir::XKind::Const(V::Bool(b)) => Some(b.to_string()),
        // A text the symbols do not hold (`"1"` in `` `${w}1` ``).
        super::ir::XKind::Const(V::Dyn(d)) if d.is_string() => d.clone().into_string().ok(),
        _ => None,
    }
}

/// The symbol a template makes of each symbol and each number it makes
/// one of.
#[derive(Default)]
pub(crate) struct Table {
    syms: FxHashMap<u32, u32>,
    ints: FxHashMap<i64, u32>,
}

/// Each template's table (the symbols are all known at load: a text made
/// as the script runs is a symbol only if it is one of them).
pub(super) fn tables(templates: &[Template], syms: &Syms) -> Vec<Table> {
    use crate::hooks::script::MAX_STRING;
    let table = |t: &Template| {
        let mut m = Table::default();
        for made in 0..syms.count() {
            let text = syms.text(made).as_str();
            // Within Rhai's limit, as each part is added.
            if text.len() > MAX_STRING
                || text.len() < t.before.len() + t.after.len()
                || !text.starts_with(&t.before)
                || !text.ends_with(&t.after)
            {
                continue;
            }
            let Some(middle) = text.get(t.before.len()..text.len() - t.after.len()) else {
                continue;
            };
            if let Some(s) = syms.find(middle) {
                m.syms.insert(s, made);
            }
            // A number as a template writes it (`07` is no number's text).
            if let Ok(i) = middle.parse::<i64>()
                && itoa::Buffer::new().format(i) == middle
            {
                m.ints.insert(i, made);
            }
        }
        m
    };
    templates.iter().map(table).collect()
}

impl VmRun<'_, '_> {
    /// `XKind::ConstFn`: a call of a function whose body is one constant,
    /// counted and checked as `call_pushed` runs it (the call, then the
    /// statement), no frame made.
    pub(super) fn const_fn(&mut self, c: &ConstFn, pos: Position) -> R<()> {
        self.entered(&c.name, c.at, pos)
    }

    /// A call of function `name`, whose body is one statement at `at`,
    /// counted and checked as `call_pushed` runs it: the call, then the
    /// statement (its error the function's).
    fn entered(&mut self, name: &str, at: Position, pos: Position) -> R<()> {
        self.run.level += 1;
        let r = self.enter(pos);
        self.run.level -= 1;
        r?;
        if let Err(e) = self.run.track(at) {
            return Err(Flow::Err(in_function(name, e, pos)));
        }
        Ok(())
    }

    /// `XKind::TemplateFn`: its argument made, then the call counted and
    /// checked, and its template made of the argument (by its table where
    /// it can), no frame made.
    pub(super) fn template_fn(&mut self, t: &TemplateFn, pos: Position) -> R<V> {
        let v = self.expr(&t.arg)?;
        self.template_fn_of(t, v, pos)
    }

    /// Template function call `t` on its argument's value `v`.
    pub(super) fn template_fn_of(&mut self, t: &TemplateFn, v: V, pos: Position) -> R<V> {
        self.entered(&t.name, t.at, pos)?;
        match self.named_of(&t.named, v) {
            Err(Flow::Err(e)) => Err(Flow::Err(in_function(&t.name, e, pos))),
            r => r,
        }
    }

    /// A template: its text built in the tree tier's kept buffer (no
    /// allocation per template); a text that is a symbol becomes it.
    pub(super) fn interp(&mut self, parts: &[X]) -> R<V> {
        self.interp_given(parts, None)
    }

    /// A template with one computed part: its table, else its text built.
    /// (Rhai's limit on a text's length needs no check on the table's way:
    /// no symbol is longer.)
    pub(super) fn named(&mut self, n: &Named) -> R<V> {
        let v = self.expr(&n.parts[n.var])?;
        self.named_of(n, v)
    }

    /// The symbol template `n`'s table makes of `v`, if it makes one.
    #[inline]
    pub(super) fn named_sym(&self, n: &Named, v: &V) -> Option<u32> {
        let table = &self.vm.names[n.table];
        match v {
            V::Sym(s) => table.syms.get(s).copied(),
            V::Int(i) => table.ints.get(i).copied(),
            _ => None,
        }
    }

    /// Template `n` with its computed part's value `v` (evaluated once,
    /// already): its table's symbol, else its text built.
    pub(super) fn named_of(&mut self, n: &Named, v: V) -> R<V> {
        if let Some(made) = self.named_sym(n, &v) {
            return Ok(V::Sym(made));
        }
        self.interp_given(&n.parts, Some((n.var, v)))
    }

    /// `parts` built, part `given.0` (if any) already evaluated as
    /// `given.1` (its evaluation not repeated).
    fn interp_given(&mut self, parts: &[X], given: Option<(usize, V)>) -> R<V> {
        #[cfg(test)]
        BUILT.with(|b| b.set(b.get() + 1));
        let mut out = TEXT.with(|t| std::mem::take(&mut *t.borrow_mut()));
        out.clear();
        let r = self.interp_into(parts, given, &mut out);
        let v = r.map(|()| match self.vm.syms.find(&out) {
            Some(s) => V::Sym(s),
            None => V::Dyn(crate::hooks::script::interned::script_text(&out).into()),
        });
        TEXT.with(|t| *t.borrow_mut() = out);
        v
    }

    fn interp_into(
        &mut self,
        parts: &[X],
        mut given: Option<(usize, V)>,
        out: &mut String,
    ) -> R<()> {
        for (i, p) in parts.iter().enumerate() {
            let v = match given.take_if(|(at, _)| *at == i) {
                Some((_, v)) => v,
                None => self.expr(p)?,
            };
            match &v {
                V::Sym(s) => out.push_str(self.vm.syms.text(*s)),
                V::Int(i) => out.push_str(itoa::Buffer::new().format(*i)),
                V::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                V::Dyn(d) if d.is_string() => {
                    if let Some(t) = d.read_lock::<ImmutableString>() {
                        out.push_str(&t);
                    }
                }
                _ => {
                    let d = self.dynamic(v);
                    let text = self.run.text_of(d, p.pos)?;
                    out.push_str(&text);
                }
            }
            super::super::builtins::limit((0, 0, out.len()), p.pos)?;
        }
        Ok(())
    }
}
