//! Per-player stats, game-wide vars and parameters.

use super::super::tier::natives::Api;

use super::super::{Ctx, Fallible, with_ctx};
use super::unknown;
use crate::core::ops::{Read, Write, ix};

impl Ctx {
    fn stat_ix(&self, p: &str, s: &str) -> Fallible<usize> {
        Ok(self.player(p)? * self.def.stats.len() + self.stat(s)?)
    }
    fn var_ix(&self, v: &str) -> Fallible<usize> {
        match self.def.var(v) {
            Some(i) => Ok(i),
            None => unknown("var", v, self.def.vars.iter().map(|v| v.id.clone())),
        }
    }
}

pub(super) fn register(engine: &mut Api) {
    engine.register_fn("stat", |p: &str, s: &str| {
        with_ctx(|cx| {
            let i = cx.stat_ix(p, s)?;
            Ok(cx.read_int(Read::Stat(ix(i))))
        })
    });
    engine.register_fn("set_stat", |p: &str, s: &str, v: i64| {
        with_ctx(|cx| {
            let i = cx.stat_ix(p, s)?;
            cx.write(Write::SetStat(i, v))
        })
    });
    // Returns nothing: read the stat to branch on it (see memo.rs).
    engine.register_fn("add_stat", |p: &str, s: &str, d: i64| {
        with_ctx(|cx| {
            let i = cx.stat_ix(p, s)?;
            cx.write(Write::AddStat(i, d))
        })
    });
    // Whether any player's stat is at least `n`: an end condition that does
    // not depend on the exact values (playouts replay it faster).
    engine.register_fn("any_at_least", |s: &str, n: i64| {
        with_ctx(|cx| {
            let stat = cx.stat(s)?;
            let nstats = u16::try_from(cx.def.stats.len()).map_err(|_| "too many stats")?;
            let stat = ix(stat);
            Ok(cx.read_int(Read::AnyAtLeast { stat, nstats, n }) != 0)
        })
    });
    // The highest or lowest of some of a player's stats, and how two stats
    // compare: questions whose answers vary less than the values do, so
    // playouts replay the hooks that ask them more often.
    engine.register_fn("max_stat", |p: &str, stats: rhai::Array| {
        with_ctx(|cx| extreme(cx, p, stats, true))
    });
    engine.register_fn("min_stat", |p: &str, stats: rhai::Array| {
        with_ctx(|cx| extreme(cx, p, stats, false))
    });
    engine.register_fn("compare_stats", |p: &str, s: &str, q: &str, t: &str| {
        with_ctx(|cx| {
            let (a, b) = (cx.stat_ix(p, s)?, cx.stat_ix(q, t)?);
            Ok(cx.read_int(Read::Compare(ix(a), ix(b))))
        })
    });
    engine.register_fn("get_var", |v: &str| {
        with_ctx(|cx| {
            let i = cx.var_ix(v)?;
            Ok(cx.read_int(Read::Var(ix(i))))
        })
    });
    engine.register_fn("set_var", |v: &str, x: i64| {
        with_ctx(|cx| {
            let i = cx.var_ix(v)?;
            cx.write(Write::SetVar(i, x))
        })
    });
    engine.register_fn("add_var", |v: &str, d: i64| {
        with_ctx(|cx| {
            let i = cx.var_ix(v)?;
            cx.write(Write::AddVar(i, d))
        })
    });
    // Parameters are fixed for a game: no need to record them.
    engine.register_fn("param", |name: &str| {
        // A number, or a named parameter's name.
        with_ctx(|cx| match cx.def.param(name) {
            Some(p) if !p.values.is_empty() => Ok(rhai::Dynamic::from(
                rhai::ImmutableString::from(p.show(p.value)),
            )),
            Some(p) => Ok(rhai::Dynamic::from(p.value)),
            None => unknown(
                "parameter",
                name,
                cx.def.params.iter().map(|p| p.id.clone()),
            ),
        })
    });
}

fn extreme(cx: &mut Ctx, p: &str, stats: rhai::Array, max: bool) -> Fallible<i64> {
    let base = ix(cx.player(p)? * cx.def.stats.len());
    let mut mask = 0u32;
    for s in stats {
        let s = s.into_immutable_string()?;
        let i = cx.stat(&s)?;
        if i >= 32 {
            return Err(format!(
                "max_stat/min_stat: `{s}` is stat {}; they reach the first 32",
                i + 1
            )
            .into());
        }
        mask |= 1 << i;
    }
    if mask == 0 {
        return Err("max_stat/min_stat: name at least one stat".into());
    }
    Ok(cx.read_int(Read::Extreme { base, mask, max }))
}
