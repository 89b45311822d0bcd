//! `switch` in the VM, as Rhai runs it (and the tree tier, run.rs there):
//! Rhai's hash of the value picks the cases written for it (their
//! conditions tried in order), then integer ranges, then the default; a
//! value Rhai cannot hash takes the default. A symbol's hash is the
//! symbol table's, made at load; a number's, a truth value's and `()`'s
//! are made here without a Rhai value; anything else is hashed as the Rhai
//! value it is.

use rhai::Dynamic;

use super::super::run::{hash, hashable};
use super::ir::{Arm, Switch, X};
use super::run::{Flow, VmRun};
use super::value::V;

type R<T> = Result<T, Flow>;

impl VmRun<'_, '_> {
    /// The arm `x` picks for its value, run: its body's value (`()` where
    /// none is picked).
    pub(super) fn switch(&mut self, x: &Switch) -> R<V> {
        let value = self.expr(&x.value)?;
        let chosen = self.pick(x, &value)?;
        match chosen.or(x.default) {
            Some(i) => self.expr(&x.arms[i].body),
            None => Ok(V::Unit),
        }
    }

    /// The arm written for `value` whose condition holds, if any (the
    /// default not looked at).
    fn pick(&mut self, x: &Switch, value: &V) -> R<Option<usize>> {
        let Some(h) = self.case_hash(value) else {
            return Ok(None);
        };
        if let Some(list) = x.cases.get(&h) {
            for &i in list {
                if self.cond(&x.arms[i])? {
                    return Ok(Some(i));
                }
            }
        }
        if x.ranges.is_empty() {
            return Ok(None);
        }
        // Rhai's ranges hold only numbers: a symbol, a truth value, `()`,
        // a list or a map is in none.
        let n = match value {
            V::Int(n) => Dynamic::from_int(*n),
            V::Dyn(d) => d.flatten_clone(),
            _ => return Ok(None),
        };
        for r in x.ranges.iter().filter(|r| r.contains(&n)) {
            if self.cond(&x.arms[r.index()])? {
                return Ok(Some(r.index()));
            }
        }
        Ok(None)
    }

    /// Rhai's hash of `value` as a switch value; None where Rhai cannot
    /// hash it.
    fn case_hash(&self, value: &V) -> Option<u64> {
        match value {
            V::Sym(s) => Some(self.vm.syms.hash(*s)),
            V::Int(n) => Some(hash(&Dynamic::from_int(*n))),
            V::Bool(b) => Some(hash(&Dynamic::from_bool(*b))),
            V::Unit => Some(hash(&Dynamic::UNIT)),
            _ => {
                let d = self.dynamic(value.clone());
                hashable(&d, 0).then(|| hash(&d))
            }
        }
    }

    /// An arm's condition: a literal one as it is (not evaluated), else
    /// its value, which must be a truth value (Rhai's error if not).
    fn cond(&mut self, arm: &Arm) -> R<bool> {
        let c: &X = match &arm.cond {
            Ok(b) => return Ok(*b),
            Err(c) => c,
        };
        self.truth(c)
    }
}
