//! Who knows which card (`core::knowledge`): `show_to`, and the
//! knowledge a card keeps when it is passed into a zone that declares
//! `known_by_passer`.

use rhai::{Array, Dynamic};

use super::super::tier::natives::Api;
use super::super::{Ctx, Fallible, with_ctx};
use crate::core::knowledge::{KnowAt, bit};
use crate::core::ops::{Read, Write, ix};
use crate::core::zone_visible;
use crate::definition::format::Per;

pub(super) fn register(engine: &mut Api) {
    // Show cards of a zone to players (an id, or a list of ids): from now
    // on they know those cards, wherever the cards go, until a shuffle of
    // the pile they are in. Every card of the zone; one card by id (a copy
    // not yet shown to them) or by place (0 at the bottom); or a list of
    // card ids.
    engine.register_fn("show_to", |to: &str, owner: &str, zone: &str| {
        with_ctx(|cx| {
            let players = viewers(cx, &[Dynamic::from(to.to_string())])?;
            show(cx, players, owner, zone, KnowAt::All)
        })
    });
    engine.register_fn("show_to", |to: Array, owner: &str, zone: &str| {
        with_ctx(|cx| {
            let players = viewers(cx, &to)?;
            show(cx, players, owner, zone, KnowAt::All)
        })
    });
    engine.register_fn(
        "show_to",
        |to: &str, owner: &str, zone: &str, what: Dynamic| {
            with_ctx(|cx| {
                let players = viewers(cx, &[Dynamic::from(to.to_string())])?;
                show_what(cx, players, owner, zone, what)
            })
        },
    );
    engine.register_fn(
        "show_to",
        |to: Array, owner: &str, zone: &str, what: Dynamic| {
            with_ctx(|cx| {
                let players = viewers(cx, &to)?;
                show_what(cx, players, owner, zone, what)
            })
        },
    );
}

/// The knowledge set of a player id or a list of them.
fn viewers(cx: &Ctx, to: &[Dynamic]) -> Fallible<u64> {
    let mut set = 0;
    for p in to {
        let Some(id) = p.read_lock::<rhai::ImmutableString>() else {
            return Err(format!(
                "show_to: players are named by id (\"{}\"), not {}",
                cx.def.players[0].id,
                p.type_name()
            )
            .into());
        };
        set |= bit(cx.player(&id)?);
    }
    Ok(set)
}

/// `show_to(to, owner, zone, what)`: a card id, a place, or a list of ids.
fn show_what(cx: &mut Ctx, players: u64, owner: &str, zone: &str, what: Dynamic) -> Fallible<()> {
    if let Some(i) = what.clone().try_cast::<i64>() {
        let Ok(i) = u32::try_from(i) else {
            return Err(format!("show_to: place {i}: places count from 0 at the bottom").into());
        };
        return show(cx, players, owner, zone, KnowAt::Index(i));
    }
    let list = match what.clone().try_cast::<Array>() {
        Some(list) => list,
        None => vec![what],
    };
    for c in list {
        let Some(id) = c
            .read_lock::<rhai::ImmutableString>()
            .map(|s| s.to_string())
        else {
            return Err(format!(
                "show_to: a card is named by id or by its place, not {}",
                c.type_name()
            )
            .into());
        };
        let card = cx.card(&id)?;
        show(cx, players, owner, zone, KnowAt::Card(card))?;
    }
    Ok(())
}

fn show(cx: &mut Ctx, players: u64, owner: &str, zone: &str, at: KnowAt) -> Fallible<()> {
    let slot = cx.slot(owner, zone)?;
    if at == KnowAt::All && cx.read_int(Read::Count(ix(slot))) == 0 {
        return Ok(());
    }
    cx.write(Write::Know { at, slot, players }).map_err(|_| {
        let n = cx.read_int(Read::Count(ix(slot)));
        // A shared zone by its id alone.
        let at_zone = match owner {
            "" => zone.to_string(),
            _ => format!("{owner} {zone}"),
        };
        match at {
            KnowAt::Card(c) => format!(
                "show_to: no `{}` in {at_zone}",
                cx.def.cards[c as usize].id
            ),
            KnowAt::Index(i) => format!(
                "show_to: {at_zone} has no card at place {i} (it holds {n}; places count from 0 at the bottom)"
            ),
            KnowAt::Top(_) | KnowAt::All => format!("show_to: {at_zone} holds no card"),
        }
        .into()
    })
}

/// The players who may pass cards from zone `from` (owned by `owner`,
/// when a player's) into zone `to` knowing them: the owner, where `to`
/// declares `known_by_passer` and the owner sees the cards of `from`.
pub(super) fn passer(cx: &Ctx, from: usize, owner: &str, to: usize) -> Fallible<u64> {
    let (f, t) = (&cx.def.zones[from], &cx.def.zones[to]);
    if !t.known_by_passer || f.per != Per::Player {
        return Ok(0);
    }
    let p = cx.player(owner)?;
    Ok(if zone_visible(f.visibility, Some(p), Some(p)) {
        bit(p)
    } else {
        0
    })
}

/// After `n` cards were passed onto the top of `slot`: known to `players`.
pub(super) fn passed(cx: &mut Ctx, slot: usize, n: usize, players: u64) -> Fallible<()> {
    if players == 0 || n == 0 {
        return Ok(());
    }
    let at = KnowAt::Top(ix(n));
    cx.write(Write::Know { at, slot, players })
}
