//! The board as data: squares with terrain.

use rhai::ImmutableString;

use super::super::tier::natives::Api;
use super::super::with_ctx;

pub(super) fn register(engine: &mut Api) {
    engine.register_fn("board_size", || {
        with_ctx(|cx| Ok(cx.def.board.as_ref().map_or(0, |b| b.squares.len() as i64)))
    });
    // The terrain of a square; "" off the board or when the game has none.
    engine.register_fn("terrain", |square: i64| {
        with_ctx(|cx| {
            let t = cx
                .def
                .board
                .as_ref()
                .and_then(|b| usize::try_from(square).ok().and_then(|s| b.squares.get(s)));
            Ok(ImmutableString::from(t.map_or("", |s| s.as_str())))
        })
    });
}
