//! Per-player stats, game-wide vars and parameters.

use rhai::Engine;

use super::unknown;
use crate::script::with_ctx;

pub(super) fn register(engine: &mut Engine) {
    engine.register_fn("stat", |p: &str, s: &str| {
        with_ctx(|cx| {
            let i = cx.player(p)? * cx.def.stats.len() + cx.stat(s)?;
            Ok(cx.state.stats[i])
        })
    });
    engine.register_fn("set_stat", |p: &str, s: &str, v: i64| {
        with_ctx(|cx| {
            let i = cx.player(p)? * cx.def.stats.len() + cx.stat(s)?;
            cx.state.stats[i] = v;
            Ok(())
        })
    });
    engine.register_fn("add_stat", |p: &str, s: &str, d: i64| {
        with_ctx(|cx| {
            let i = cx.player(p)? * cx.def.stats.len() + cx.stat(s)?;
            cx.state.stats[i] = cx.state.stats[i].saturating_add(d);
            Ok(cx.state.stats[i])
        })
    });
    engine.register_fn("get_var", |v: &str| {
        with_ctx(|cx| match cx.def.var(v) {
            Some(i) => Ok(cx.state.vars[i]),
            None => unknown("var", v, cx.def.vars.iter().map(|v| v.id.clone())),
        })
    });
    engine.register_fn("set_var", |v: &str, x: i64| {
        with_ctx(|cx| match cx.def.var(v) {
            Some(i) => {
                cx.state.vars[i] = x;
                Ok(())
            }
            None => unknown("var", v, cx.def.vars.iter().map(|v| v.id.clone())),
        })
    });
    engine.register_fn("add_var", |v: &str, d: i64| {
        with_ctx(|cx| match cx.def.var(v) {
            Some(i) => {
                cx.state.vars[i] = cx.state.vars[i].saturating_add(d);
                Ok(cx.state.vars[i])
            }
            None => unknown("var", v, cx.def.vars.iter().map(|v| v.id.clone())),
        })
    });
    engine.register_fn("param", |name: &str| {
        with_ctx(|cx| match cx.def.param(name) {
            Some(p) => Ok(p.value),
            None => unknown(
                "parameter",
                name,
                cx.def.params.iter().map(|p| p.id.clone()),
            ),
        })
    });
}
