//! Players, seats and turns.

use rhai::{Array, Dynamic, ImmutableString};

use super::super::tier::natives::Api;
use super::super::with_ctx;
use crate::core::ops::{Read, Write};

pub(super) fn register(engine: &mut Api) {
    engine.register_fn("players", || {
        with_ctx(|cx| {
            let list = cx.keys.players.iter().map(|p| Dynamic::from(p.clone()));
            super::super::budget::built("players", list.collect())
        })
    });
    // The next player in seat order: `opponent` in a two-player game,
    // `next_player` in others.
    fn next_in_seat(p: &str) -> super::super::Fallible<ImmutableString> {
        with_ctx(|cx| {
            let i = cx.player(p)?;
            Ok(cx.keys.players[(i + 1) % cx.def.nplayers()].clone())
        })
    }
    engine.register_fn("opponent", next_in_seat);
    engine.register_fn("next_player", next_in_seat);
    engine.register_fn("player_name", |p: &str| {
        with_ctx(|cx| {
            Ok(ImmutableString::from(
                cx.def.players[cx.player(p)?].name.as_str(),
            ))
        })
    });
    engine.register_fn("active", || {
        with_ctx(|cx| {
            let a = cx.read_int(Read::Active) as usize;
            Ok(cx.keys.players[a].clone())
        })
    });
    engine.register_fn("set_active", |p: &str| {
        with_ctx(|cx| {
            let p = cx.player(p)?;
            cx.write(Write::SetActive(p))
        })
    });
    engine.register_fn("turn", || with_ctx(|cx| Ok(cx.read_int(Read::Turn))));
    // In a match: the game being played (1 for the first, and outside a
    // match), and the games a player has won so far.
    engine.register_fn("game_no", || with_ctx(|cx| Ok(cx.read_int(Read::GameNo))));
    engine.register_fn("match_wins", |p: &str| {
        with_ctx(|cx| {
            let p = cx.player(p)?;
            Ok(cx.read_int(Read::MatchWins(p as u8)))
        })
    });
    // The turn order of `turns: rotate` (seat order unless set).
    engine.register_fn("order", || {
        with_ctx(|cx| {
            let crate::core::ops::Val::Cards(o) = cx.read(Read::Order) else {
                return Ok(Array::new());
            };
            let list = o
                .iter()
                .map(|&p| Dynamic::from(cx.keys.players[p as usize].clone()));
            super::super::budget::built("order", list.collect())
        })
    });
    // Set the turn order: every player once.
    engine.register_fn("set_order", |players: Array| {
        with_ctx(|cx| {
            let mut order = Vec::new();
            for p in players {
                let id = p.into_immutable_string()?;
                let i = cx.player(&id)?;
                if order.contains(&i) {
                    return Err(format!("set_order: `{id}` twice").into());
                }
                order.push(i);
            }
            if order.len() != cx.def.nplayers() {
                return Err("set_order: give every player once".into());
            }
            cx.write(Write::SetOrder(order))
        })
    });
}
