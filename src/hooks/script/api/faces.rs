//! What each card of a zone carries: where it came from (`records_from`)
//! and how it lies (`faces`); turning cards over.

use rhai::{Array, Dynamic};

use super::super::tier::natives::Api;
use super::super::{Ctx, Fallible, with_ctx};
use crate::core::ops::{Read, TurnAt, Val, Write, ix};
use crate::definition::FACE_DOWN;

pub(super) fn register(engine: &mut Api) {
    // Each card of a zone with its record: `#{card: "goblin", from: "p2"}`
    // where the zone `records_from` (from: the player whose zone it left;
    // () if it came from a shared zone or was put there at setup), and
    // `up: true/false` where it keeps `faces`.
    engine.register_fn("entries", |owner: &str, zone: &str| {
        with_ctx(|cx| {
            let (z, slot) = cx.zone_slot(owner, zone)?;
            let zd = &cx.def.zones[z];
            let (from, faces) = (zd.records_from, zd.faces.is_some());
            if !zd.records() {
                return Err(format!(
                    "entries: zone `{zone}` keeps no record of its cards (add `records_from: true` or `faces: up` to it)"
                )
                .into());
            }
            let Val::Cards(v) = cx.read(Read::Entries(ix(slot))) else {
                return Ok(Array::new());
            };
            let list = v
                .chunks(2)
                .map(|e| {
                    let mut m = rhai::Map::new();
                    m.insert("card".into(), cx.keys.cards[e[0] as usize].clone().into());
                    let b = e[1] as u8;
                    if from {
                        let by = match b & !FACE_DOWN {
                            0 => Dynamic::UNIT,
                            b => cx.keys.players[b as usize - 1].clone().into(),
                        };
                        m.insert("from".into(), by);
                    }
                    if faces {
                        m.insert("up".into(), (b & FACE_DOWN == 0).into());
                    }
                    Dynamic::from(m)
                })
                .collect::<Array>();
            super::super::budget::built("entries", list)
        })
    });
    // Turn a card over where the zone keeps `faces`: a copy of it that lies
    // the other way (the bottom-most), or the card at an index from the
    // bottom (0); an error if that card does not lie the other way.
    for (name, down) in [("reveal", false), ("conceal", true)] {
        engine.register_fn(name, move |owner: &str, zone: &str, card: &str| {
            with_ctx(|cx| {
                let c = cx.card(card)?;
                turn(cx, name, owner, zone, TurnAt::Card(c), down)
            })
        });
        engine.register_fn(name, move |owner: &str, zone: &str, i: i64| {
            let at = TurnAt::Index(u32::try_from(i).unwrap_or(u32::MAX));
            with_ctx(|cx| turn(cx, name, owner, zone, at, down))
        });
        let all = format!("{name}_all");
        let what = all.clone();
        engine.register_fn(&all, move |owner: &str, zone: &str| {
            with_ctx(|cx| {
                let slot = faces_slot(cx, &what, owner, zone)?;
                cx.write(Write::TurnAll { slot, down })
            })
        });
    }
}

/// `reveal` or `conceal` one card: it must lie the other way (the write
/// itself finds it, and fails with the state unchanged if none does).
fn turn(cx: &mut Ctx, what: &str, owner: &str, zone: &str, at: TurnAt, down: bool) -> Fallible<()> {
    let slot = faces_slot(cx, what, owner, zone)?;
    if cx.write(Write::Turn { at, slot, down }).is_ok() {
        return Ok(());
    }
    let n = cx.read_int(Read::Count(ix(slot))) as usize;
    let way = if down { "up" } else { "down" };
    Err(match at {
        TurnAt::Card(c) => format!(
            "{what}: no `{}` lies face {way} in {owner} {zone}",
            cx.def.cards[c as usize].id
        ),
        TurnAt::Index(i) if i as usize >= n => {
            format!("{what}: {owner} {zone} has no card at {i} (it holds {n}, counted from 0)")
        }
        TurnAt::Index(i) => {
            format!("{what}: the card at {i} in {owner} {zone} does not lie face {way}")
        }
    }
    .into())
}

/// The slot of a zone that keeps faces, or an error naming `what` asked.
fn faces_slot(cx: &Ctx, what: &str, owner: &str, zone: &str) -> Fallible<usize> {
    let (z, slot) = cx.zone_slot(owner, zone)?;
    if cx.def.zones[z].faces.is_none() {
        return Err(format!(
            "{what}: zone `{zone}` does not keep faces (add `faces: up` or `faces: down` to it)"
        )
        .into());
    }
    Ok(slot)
}
