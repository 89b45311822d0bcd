//! The game's seeded RNG: every random draw of a script comes from here, so
//! seed + moves reproduce a game.

use rhai::ImmutableString;

use super::super::tier::natives::Api;
use super::super::with_ctx;
use super::unknown;

pub(super) fn register(engine: &mut Api) {
    // A uniform integer in 0..n.
    engine.register_fn("random", |n: i64| {
        with_ctx(|cx| {
            if n <= 0 {
                return Err(format!("random({n}): n must be positive").into());
            }
            Ok(cx.random_below(n as u64) as i64)
        })
    });
    engine.register_fn("roll", |die: &str| {
        with_ctx(|cx| {
            let Some(d) = cx.def.die(die) else {
                return unknown("die", die, cx.def.dice.iter().map(|d| d.id.clone()));
            };
            let n = cx.def.dice[d].faces.len() as u64;
            let f = cx.random_below(n) as usize;
            Ok(ImmutableString::from(cx.def.dice[d].faces[f].as_str()))
        })
    });
    // Face `i` (0-based) of a die, as a flow step's `set:` stores it.
    engine.register_fn("die_face", |die: &str, i: i64| {
        with_ctx(|cx| {
            let Some(d) = cx.def.die(die) else {
                return unknown("die", die, cx.def.dice.iter().map(|d| d.id.clone()));
            };
            let faces = &cx.def.dice[d].faces;
            match usize::try_from(i).ok().and_then(|i| faces.get(i)) {
                Some(f) => Ok(ImmutableString::from(f.as_str())),
                None => Err(format!("die `{die}` has no face {i}").into()),
            }
        })
    });
    engine.register_fn("shuffle", |owner: &str, zone: &str| {
        with_ctx(|cx| {
            let slot = cx.slot(owner, zone)?;
            cx.shuffle(slot);
            Ok(())
        })
    });
}
