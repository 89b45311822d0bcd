//! Cards and zones. A zone is named by its owner and id; the owner of a
//! shared zone (a deck) is ignored, so `""` is fine there.

use rhai::{Array, Dynamic, ImmutableString};

use super::super::budget::built;
use super::super::tier::natives::Api;
use super::super::{Ctx, Fallible, with_ctx};
use super::Spot;
use super::knowledge::{passed, passer};
use crate::core::ops::{Read, Val, Write, ix};
use crate::definition::CardIx;
use crate::definition::format::AttrValue;

pub(super) fn register(engine: &mut Api) {
    register_move_at(engine);
    // `show_to(players, owner, zone[, what])`: who knows which card.
    super::knowledge::register(engine);
    engine.register_fn("cards", |owner: &str, zone: &str| {
        zone_ids(owner, zone, Read::Cards).and_then(|l| built("cards", l))
    });
    // Each card of a zone once, in the YAML's card order: a cheaper read
    // than `cards` when order and copies do not matter.
    engine.register_fn("card_types", |owner: &str, zone: &str| {
        zone_ids(owner, zone, Read::Distinct).and_then(|l| built("card_types", l))
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
            with_ctx(|cx| move_card(cx, card, [from_owner, from], [to_owner, to]))
        },
    );
    engine.register_fn(
        "move_all",
        |from_owner: &str, from: &str, to_owner: &str, to: &str| {
            with_ctx(|cx| move_all(cx, [from_owner, from], [to_owner, to]))
        },
    );
    // Move the top card; returns its id, or () when the zone is empty.
    engine.register_fn(
        "draw",
        |from_owner: &str, from: &str, to_owner: &str, to: &str| {
            with_ctx(|cx| {
                let c = draw(cx, [from_owner, from], [to_owner, to])?;
                Ok(c.map_or(Dynamic::UNIT, |c| {
                    Dynamic::from(cx.keys.cards[c as usize].clone())
                }))
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

/// `move_card(card, from_owner, from, to_owner, to)`: also the typed VM's
/// form (tier/vm/api.rs), on the symbols' texts.
pub(crate) fn move_card(cx: &mut Ctx, card: &str, from: [&str; 2], to: [&str; 2]) -> Fallible<()> {
    let c = cx.card(card)?;
    let to = cx.spot(to[0], to[1])?;
    let at = cx.spot(from[0], from[1])?;
    move_card_at(cx, c, (at, from), to)
}

/// `move_card` of card `c` from `from` (the zone's copy and the names
/// that gave it, for errors) to `to`: the typed VM's form, its names
/// resolved at load.
pub(crate) fn move_card_at(
    cx: &mut Ctx,
    c: CardIx,
    (at, [from_owner, from]): (Spot, [&str; 2]),
    to: Spot,
) -> Fallible<()> {
    let by = cx.entry(at, to.z);
    may_hold(cx, to.z, &[c])?;
    one_way(cx, c, (at.z, at.slot), from_owner, from)?;
    let passer = passer(cx, at.z, from_owner, to.z)?;
    // The write fails, the state kept, where the card is not (a replay of
    // a record fails there too, and runs the script).
    cx.write(Write::MoveCard {
        card: c,
        from: at.slot,
        to: to.slot,
        by,
    })
    .map_err(|_| -> Box<rhai::EvalAltResult> { not_there(cx, c, from_owner, from).into() })?;
    passed(cx, to.slot, 1, passer)
}

/// `move_all(from_owner, from, to_owner, to)`: also the typed VM's form.
pub(crate) fn move_all(cx: &mut Ctx, from: [&str; 2], to: [&str; 2]) -> Fallible<()> {
    let ([from_owner, from], [to_owner, to]) = (from, to);
    let (z, b) = cx.zone_slot(to_owner, to)?;
    let (y, a, by) = cx.leaving(from_owner, from, z)?;
    if cx.def.zones[z].holds.is_some() {
        // A traced read: the memo replays this check exactly.
        if let Val::Cards(cards) = cx.read(Read::Cards(ix(a))) {
            may_hold(cx, z, &cards)?;
        }
    }
    let passer = passer(cx, y, from_owner, z)?;
    let n = match passer {
        0 => 0,
        _ if a == b => 0,
        _ => cx.read_int(Read::Count(ix(a))) as usize,
    };
    cx.write(Write::MoveAll { from: a, to: b, by })?;
    passed(cx, b, n, passer)
}

/// `draw(from_owner, from, to_owner, to)`: the card drawn, None from an
/// empty zone. Also the typed VM's form.
pub(crate) fn draw(cx: &mut Ctx, from: [&str; 2], to: [&str; 2]) -> Fallible<Option<CardIx>> {
    let ([from_owner, from], [to_owner, to]) = (from, to);
    let (z, b) = cx.zone_slot(to_owner, to)?;
    let (y, a, by) = cx.leaving(from_owner, from, z)?;
    let passer = passer(cx, y, from_owner, z)?;
    match cx.read_int(Read::Draw {
        from: ix(a),
        to: ix(b),
        by,
    }) {
        c if c >= 0 => {
            may_hold(cx, z, &[c as CardIx])?;
            passed(cx, b, 1, passer)?;
            Ok(Some(c as CardIx))
        }
        _ => Ok(None),
    }
}

fn register_move_at(engine: &mut Api) {
    // Move the card at place `i` from the bottom (0) of a zone: a card
    // chosen by where it lies (one of several copies, a face-down one).
    // Returns its id; an error if there is none there.
    engine.register_fn(
        "move_at",
        |i: i64, from_owner: &str, from: &str, to_owner: &str, to: &str| {
            with_ctx(|cx| {
                let (z, b) = cx.zone_slot(to_owner, to)?;
                let (y, a, by) = cx.leaving(from_owner, from, z)?;
                let pos = u32::try_from(i).map_err(|_| {
                    format!("move_at: place {i}: places count from 0 at the bottom")
                })?;
                let passer = passer(cx, y, from_owner, z)?;
                match cx.read_int(Read::TakeAt { from: ix(a), pos, to: ix(b), by }) {
                    c if c >= 0 => {
                        may_hold(cx, z, &[c as CardIx])?;
                        passed(cx, b, 1, passer)?;
                        Ok(Dynamic::from(cx.keys.cards[c as usize].clone()))
                    }
                    _ => {
                        let n = cx.read_int(Read::Count(ix(a)));
                        Err(format!(
                            "move_at: {from_owner} {from} has no card at place {i} (it holds {n}; places count from 0 at the bottom)"
                        )
                        .into())
                    }
                }
            })
        },
    );
}

/// In a zone that keeps faces, `move_card` of a card whose copies lie
/// both ways would pick one silently (the top-most): an error that says
/// to pick by place. (A traced read: a replay checks it as the run did.)
/// "`dot` is not in `supply` (its 3 copies: 2 in `board` at a1, c1; 1
/// in red's `hand`)": where the card was looked for, and where each of its
/// copies is. (Read untraced: the hook fails with this text.)
fn not_there(cx: &Ctx, card: CardIx, owner: &str, zone: &str) -> String {
    let def = &cx.def;
    let id = &def.cards[card as usize].id;
    let at = |z: usize, o: usize| match def.zones[z].per {
        crate::definition::format::Per::Game => format!("`{}`", def.zones[z].id),
        crate::definition::format::Per::Player => {
            format!("{}'s `{}`", def.players[o].id, def.zones[z].id)
        }
        crate::definition::format::Per::Cell => {
            let cell = def.grid.as_ref().and_then(|g| g.names.get(o));
            format!(
                "`{}` at {}",
                def.zones[z].id,
                cell.map_or("?", |c| c.as_str())
            )
        }
    };
    let looked = match def.zone(zone) {
        Some(z) => match def.place(z, owner) {
            Some(o) => at(z, o),
            None => format!("{owner} `{zone}`"),
        },
        None => format!("`{zone}`"),
    };
    // Per zone: how many copies, and at which places.
    let mut total = 0;
    let mut parts = Vec::new();
    for (z, zone) in def.zones.iter().enumerate() {
        let mut places = Vec::new();
        let mut n = 0;
        for o in def.owners(z) {
            let here = (cx.peek_cards(def.slot(z, o)).iter())
                .filter(|&&x| x == card)
                .count();
            if here > 0 {
                n += here;
                places.push(match zone.per {
                    crate::definition::format::Per::Game => String::new(),
                    crate::definition::format::Per::Player => def.players[o].id.clone(),
                    crate::definition::format::Per::Cell => def
                        .grid
                        .as_ref()
                        .and_then(|g| g.names.get(o).cloned())
                        .unwrap_or_default(),
                });
            }
        }
        if n == 0 {
            continue;
        }
        total += n;
        parts.push(match zone.per {
            crate::definition::format::Per::Game => format!("{n} in `{}`", zone.id),
            crate::definition::format::Per::Player => {
                format!("{n} in `{}` ({})", zone.id, places.join(", "))
            }
            crate::definition::format::Per::Cell => {
                let shown = places.len().min(6);
                let more = if places.len() > shown { ", ..." } else { "" };
                format!(
                    "{n} in `{}` at {}{more}",
                    zone.id,
                    places[..shown].join(", ")
                )
            }
        });
    }
    let copies = match total {
        0 => format!("no copy of `{id}` is in any zone"),
        1 => format!("its one copy: {}", parts.join("")),
        _ => format!("its {total} copies: {}", parts.join("; ")),
    };
    format!("move_card: `{id}` is not in {looked} ({copies})")
}

fn one_way(
    cx: &mut Ctx,
    card: CardIx,
    (z, slot): (usize, usize),
    owner: &str,
    zone: &str,
) -> Fallible<()> {
    if cx.def.zones[z].faces.is_none() {
        return Ok(());
    }
    let Val::Cards(v) = cx.read(Read::Entries(ix(slot))) else {
        return Ok(());
    };
    let mut ways = v
        .chunks(2)
        .filter(|e| e[0] == card)
        .map(|e| e[1] as u8 & crate::definition::FACE_DOWN != 0);
    let first = ways.next();
    if first.is_some() && ways.any(|w| Some(w) != first) {
        return Err(format!(
            "move_card: copies of `{}` in {owner} {zone} lie face up and face down, and move_card would take the top-most; say which with move_at(place, ...) (places count from 0 at the bottom; entries() shows how each lies)",
            cx.def.cards[card as usize].id
        )
        .into());
    }
    Ok(())
}

/// `holds:`: every card may go into zone `z`, or an error naming one that
/// may not. (The card and the zone are in the traced write or read, so a
/// replayed run passes or fails this as the live one did.)
pub(super) fn may_hold(cx: &Ctx, z: usize, cards: &[CardIx]) -> Fallible<()> {
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

/// `deal(from_owner, from, to, each)`: also the typed VM's form.
pub(crate) fn deal(
    cx: &mut Ctx,
    from_owner: &str,
    from: &str,
    to: &str,
    each: i64,
) -> Fallible<()> {
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
    let (y, a, by) = cx.leaving(from_owner, from, z)?;
    let passer = passer(cx, y, from_owner, z)?;
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
                passed(cx, b, 1, passer)?;
            }
        }
    }
    if waits {
        cx.wait_again(a);
    }
    Ok(())
}
