//! Cards and zones. A zone is named by its owner and id; the owner of a
//! shared zone (a deck) is ignored, so `""` is fine there.

use rhai::{Array, Dynamic, ImmutableString};

use super::super::tier::natives::Api;
use super::super::{Ctx, Fallible, with_ctx};
use crate::core::ops::{Read, Val, Write, ix};
use crate::definition::CardIx;
use crate::definition::format::AttrValue;

pub(super) fn register(engine: &mut Api) {
    engine.register_fn("cards", |owner: &str, zone: &str| {
        zone_ids(owner, zone, Read::Cards)
    });
    // Each card of a zone once, in the YAML's card order: a cheaper read
    // than `cards` when order and copies do not matter.
    engine.register_fn("card_types", |owner: &str, zone: &str| {
        zone_ids(owner, zone, Read::Distinct)
    });
    engine.register_fn("count", |owner: &str, zone: &str| {
        with_ctx(|cx| {
            let slot = cx.slot(owner, zone)?;
            Ok(cx.read_int(Read::Count(ix(slot))))
        })
    });
    engine.register_fn("has", |owner: &str, zone: &str, card: &str| {
        with_ctx(|cx| {
            let c = cx.card(card)?;
            let slot = cx.slot(owner, zone)?;
            Ok(cx.read_int(Read::Has(ix(slot), c)) != 0)
        })
    });
    engine.register_fn(
        "move_card",
        |card: &str, from_owner: &str, from: &str, to_owner: &str, to: &str| {
            with_ctx(|cx| {
                let c = cx.card(card)?;
                let (z, b) = cx.zone_slot(to_owner, to)?;
                let (a, by) = cx.leaving_slot(from_owner, from, z)?;
                may_hold(cx, z, &[c])?;
                // The write fails, the state kept, where the card is not
                // (a replay of a record fails there too, and runs the script).
                cx.write(Write::MoveCard {
                    card: c,
                    from: a,
                    to: b,
                    by,
                })
                .map_err(|_| format!("`{card}` is not in {from_owner} {from}").into())
            })
        },
    );
    engine.register_fn(
        "move_all",
        |from_owner: &str, from: &str, to_owner: &str, to: &str| {
            with_ctx(|cx| {
                let (z, b) = cx.zone_slot(to_owner, to)?;
                let (a, by) = cx.leaving_slot(from_owner, from, z)?;
                if cx.def.zones[z].holds.is_some() {
                    // A traced read: the memo replays this check exactly.
                    if let Val::Cards(cards) = cx.read(Read::Cards(ix(a))) {
                        may_hold(cx, z, &cards)?;
                    }
                }
                cx.write(Write::MoveAll { from: a, to: b, by })
            })
        },
    );
    // Move the top card; returns its id, or () when the zone is empty.
    engine.register_fn(
        "draw",
        |from_owner: &str, from: &str, to_owner: &str, to: &str| {
            with_ctx(|cx| {
                let (z, b) = cx.zone_slot(to_owner, to)?;
                let (a, by) = cx.leaving_slot(from_owner, from, z)?;
                Ok(
                    match cx.read_int(Read::Draw {
                        from: ix(a),
                        to: ix(b),
                        by,
                    }) {
                        c if c >= 0 => {
                            may_hold(cx, z, &[c as CardIx])?;
                            Dynamic::from(cx.keys.cards[c as usize].clone())
                        }
                        _ => Dynamic::UNIT,
                    },
                )
            })
        },
    );
    // Deal `each` cards to every player's `to` zone from the top of a pile,
    // one at a time in seat order, as a loop of `draw` would (the first
    // players get one more if the pile runs out part way). Solving, a deal
    // from a shuffled pile is one chance event of which cards each gets.
    engine.register_fn(
        "deal",
        |from_owner: &str, from: &str, to: &str, each: i64| {
            with_ctx(|cx| deal(cx, from_owner, from, to, each))
        },
    );
    // The name `owner`'s copy shows (a faction's own name for it).
    engine.register_fn("card_name", |card: &str, owner: &str| {
        with_ctx(|cx| {
            let c = cx.card(card)?;
            let p = cx.player(owner)?;
            Ok(ImmutableString::from(
                cx.def.cards[c as usize].name_for(Some(p)),
            ))
        })
    });
    engine.register_fn("card_name", |card: &str| {
        with_ctx(|cx| {
            let c = cx.card(card)?;
            Ok(ImmutableString::from(
                cx.def.cards[c as usize].name.as_str(),
            ))
        })
    });
    // A card attribute from the YAML, or () when the card has none by that key.
    engine.register_fn("attr", |card: &str, key: &str| {
        with_ctx(|cx| {
            let c = cx.card(card)?;
            Ok(match cx.def.cards[c as usize].attr(key) {
                Some(AttrValue::Int(i)) => Dynamic::from(*i),
                Some(AttrValue::Bool(b)) => Dynamic::from(*b),
                Some(AttrValue::Text(t)) => Dynamic::from(t.clone()),
                None => Dynamic::UNIT,
            })
        })
    });
}

/// `holds:`: every card may go into zone `z`, or an error naming one that
/// may not. (The card and the zone are in the traced write or read, so a
/// replayed run passes or fails this as the live one did.)
fn may_hold(cx: &Ctx, z: usize, cards: &[CardIx]) -> Fallible<()> {
    let zone = &cx.def.zones[z];
    if zone.holds.is_none() {
        return Ok(());
    }
    match cards
        .iter()
        .find(|&&c| !zone.fits(&cx.def.cards[c as usize]))
    {
        Some(&c) => Err(format!(
            "`{}` cannot go into `{}`: it holds only cards with {}",
            cx.def.cards[c as usize].id,
            zone.id,
            zone.holds_text()
        )
        .into()),
        None => Ok(()),
    }
}

/// A zone's cards as ids, through `read` (every card, or each once).
fn zone_ids(owner: &str, zone: &str, read: fn(u32) -> Read) -> Fallible<Array> {
    with_ctx(|cx| {
        let slot = cx.slot(owner, zone)?;
        let Val::Cards(cards) = cx.read(read(ix(slot))) else {
            return Ok(Array::new());
        };
        Ok(cards
            .iter()
            .map(|&c| Dynamic::from(cx.keys.cards[c as usize].clone()))
            .collect())
    })
}

/// `deal(from_owner, from, to, each)`.
fn deal(cx: &mut Ctx, from_owner: &str, from: &str, to: &str, each: i64) -> Fallible<()> {
    let Ok(each) = usize::try_from(each) else {
        return Err(format!("deal: {each} cards each: the number must be 0 or more").into());
    };
    let z = cx.zone(to)?;
    if cx.def.zones[z].per != crate::definition::format::Per::Player {
        return Err(format!(
            "deal: `{to}` is one zone for the game; deal goes to a zone each player has"
        )
        .into());
    }
    let players = cx.def.players.len();
    let (a, by) = cx.leaving_slot(from_owner, from, z)?;
    let left = cx.read_int(Read::Count(ix(a))) as usize;
    let shares = crate::core::deal_shares(left, players, each);
    let waits = cx.arrange_deal(a, &shares, !cx.def.zones[z].unordered);
    for round in 0..each {
        for (p, &share) in shares.iter().enumerate() {
            if round >= share {
                continue;
            }
            let b = cx.def.slot(z, p);
            let c = cx.read_int(Read::Draw {
                from: ix(a),
                to: ix(b),
                by,
            });
            if c >= 0 {
                may_hold(cx, z, &[c as CardIx])?;
            }
        }
    }
    if waits {
        cx.wait_again(a);
    }
    Ok(())
}
