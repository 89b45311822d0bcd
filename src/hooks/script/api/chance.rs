//! The game's seeded RNG: every random draw of a script comes from here, so
//! seed + moves reproduce a game.

use super::super::tier::natives::Api;
use super::super::with_ctx;

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
    engine.register_fn("shuffle", |owner: &str, zone: &str| {
        with_ctx(|cx| {
            let slot = cx.slot(owner, zone)?;
            cx.shuffle(slot);
            Ok(())
        })
    });
}
