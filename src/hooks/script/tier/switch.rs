//! `switch`, lowered and run as Rhai does: the value's hash picks the
//! cases written for it (their conditions tried in order), then integer
//! ranges, then the default; a value Rhai cannot hash takes the default.

use std::hash::{BuildHasher, Hash, Hasher};

use rhai::{Array, Dynamic, FnPtr, Map, RangeCase, SwitchCasesCollection};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::lower::{Lowering, Refusal};
use super::run::{Flow, Run};
use super::tree::{Expr, StmtKind};

pub(super) struct Switch {
    pub value: Expr,
    /// A case value's hash to its arms, in the order written.
    pub cases: FxHashMap<u64, SmallVec<[usize; 2]>>,
    /// Integer ranges, each naming its arm.
    pub ranges: Vec<RangeCase>,
    pub arms: Vec<Arm>,
    pub default: Option<usize>,
}

pub(super) struct Arm {
    /// A literal `true` or `false` is not evaluated (nor counted).
    pub cond: Result<bool, Expr>,
    pub body: Expr,
}

impl Lowering<'_> {
    pub(super) fn switch(
        &mut self,
        value: &rhai::Expr,
        c: &SwitchCasesCollection,
    ) -> Result<StmtKind, Refusal> {
        let value = self.expr(value)?;
        let mut arms = Vec::with_capacity(c.expressions.len());
        for e in &c.expressions {
            let cond = match &e.lhs {
                rhai::Expr::BoolConstant(b, _) => Ok(*b),
                other => Err(self.expr(other)?),
            };
            arms.push(Arm {
                cond,
                body: self.expr(&e.rhs)?,
            });
        }
        let cases = (c.cases.iter())
            .map(|(h, list)| (*h, list.blocks.iter().copied().collect()))
            .collect();
        Ok(StmtKind::Switch(Box::new(Switch {
            value,
            cases,
            ranges: c.ranges.iter().cloned().collect(),
            arms,
            default: c.def_case,
        })))
    }
}

impl Run<'_> {
    pub(super) fn switch(&mut self, x: &Switch) -> Result<Dynamic, Flow> {
        let value = self.expr(&x.value)?;
        let mut chosen = None;
        if hashable(&value, 0) {
            if let Some(list) = x.cases.get(&hash(&value)) {
                for &i in list {
                    if self.cond(&x.arms[i].cond)? {
                        chosen = Some(i);
                        break;
                    }
                }
            }
            if chosen.is_none() && !x.ranges.is_empty() {
                let value = value.flatten();
                for r in x.ranges.iter().filter(|r| r.contains(&value)) {
                    if self.cond(&x.arms[r.index()].cond)? {
                        chosen = Some(r.index());
                        break;
                    }
                }
            }
        }
        match chosen.or(x.default) {
            Some(i) => self.expr(&x.arms[i].body),
            None => Ok(Dynamic::UNIT),
        }
    }

    fn cond(&mut self, c: &Result<bool, Expr>) -> Result<bool, Flow> {
        match c {
            Ok(b) => Ok(*b),
            Err(e) => self.truth(e),
        }
    }
}

/// Rhai's hash of a switch value (`calc_switch_value_hash`): the value's
/// `Hash` with ahash's fixed keys, or the seed Rhai was configured with.
fn hash(v: &Dynamic) -> u64 {
    let mut h = match rhai::config::hashing::get_hashing_seed() {
        Some([a, b, c, d]) if (a | b | c | d) != 0 => {
            ahash::RandomState::with_seeds(*a, *b, *c, *d).build_hasher()
        }
        _ => ahash::AHasher::default(),
    };
    v.hash(&mut h);
    h.finish()
}

/// Rhai's `is_hashable` (not public): the types a switch can match.
/// Shared values are read through, to a depth (Rhai guards against a
/// value that holds itself; no value the tier makes does).
fn hashable(v: &Dynamic, depth: usize) -> bool {
    if depth > 64 {
        return false;
    }
    if v.is_shared() {
        return hashable(&v.flatten_clone(), depth + 1);
    }
    if v.is_unit() || v.is_bool() || v.is_string() || v.is_char() || v.is_int() || v.is_float() {
        return true;
    }
    if let Some(a) = v.read_lock::<Array>() {
        return a.iter().all(|x| hashable(x, depth + 1));
    }
    if v.is_blob() {
        return true;
    }
    if let Some(m) = v.read_lock::<Map>() {
        return m.values().all(|x| hashable(x, depth + 1));
    }
    if let Some(f) = v.read_lock::<FnPtr>() {
        return f.curry().iter().all(|x| hashable(x, depth + 1));
    }
    v.is::<u8>()
        || v.is::<u16>()
        || v.is::<u32>()
        || v.is::<u64>()
        || v.is::<i8>()
        || v.is::<i16>()
        || v.is::<i32>()
        || v.is::<u128>()
        || v.is::<i128>()
        || v.is::<f32>()
        || v.is::<std::ops::Range<i64>>()
        || v.is::<std::ops::RangeInclusive<i64>>()
}
