//! Dice: a face rolled on its own (`roll`), and dice rolled into zones
//! (`roll_into`, `reroll`): a die with a `count` is a card per face, so a
//! roll moves a card of the rolled face out of the die's hidden zone.
//! Every roll is a draw from the game's seeded RNG, a read the memo
//! branches on and solve lists as chance.

use rhai::{Array, Dynamic};

use super::super::tier::natives::Api;
use super::super::{Ctx, Fallible, with_ctx};
use super::unknown;
use crate::core::ops::{Read, Val, Write, ix};
use crate::definition::CardIx;
use crate::definition::format::FaceValue;

/// A face as a script gets it: an integer, or the word.
fn to_dynamic(f: &FaceValue) -> Dynamic {
    match f {
        FaceValue::Number(n) => Dynamic::from(*n),
        FaceValue::Word(w) => Dynamic::from(rhai::ImmutableString::from(w.as_str())),
    }
}

pub(super) fn register(engine: &mut Api) {
    // A face: an integer on a die of numbers, else the word.
    engine.register_fn("roll", |die: &str| {
        with_ctx(|cx| {
            let d = die_ix(cx, die)?;
            let f = cx.random_below(cx.def.dice[d].faces.len() as u64) as usize;
            Ok(to_dynamic(&cx.def.dice[d].values[f]))
        })
    });
    // Face `i` (0-based) of a die, as a flow step's `set:` stores a word
    // die's roll.
    engine.register_fn("die_face", |die: &str, i: i64| {
        with_ctx(|cx| {
            let d = die_ix(cx, die)?;
            match usize::try_from(i)
                .ok()
                .and_then(|i| cx.def.dice[d].values.get(i))
            {
                Some(v) => Ok(to_dynamic(v)),
                None => Err(format!("die `{die}` has no face {i}").into()),
            }
        })
    });
    // Roll `n` dice of a kind into a zone (each on top); their faces.
    engine.register_fn(
        "roll_into",
        |owner: &str, zone: &str, die: &str, n: i64| {
            with_ctx(|cx| {
                let d = die_ix(cx, die)?;
                let (z, slot) = cx.zone_slot(owner, zone)?;
                let home = home(cx, d)?;
                let count = cx.def.dice[d].count as i64;
                let out = count * faces_held(cx, d) - cx.read_int(Read::Count(ix(home)));
                if n < 0 || out + n > count {
                    return Err(format!(
                        "roll_into: {n} dice `{die}` asked for, and {out} of the game's {count} are out of their box (return_dice puts dice back)"
                    )
                    .into());
                }
                if let Some(&c) = cx.def.dice[d].cards.first() {
                    super::cards::may_hold(cx, z, &[c])?;
                }
                let mut faces = Array::new();
                for _ in 0..n {
                    faces.push(roll_one(cx, d, home, slot)?);
                }
                Ok(faces)
            })
        },
    );
    // Roll again every die in a zone; the zone's new faces, as rolled
    // (the dice go back on top, in that order).
    engine.register_fn("reroll", |owner: &str, zone: &str| {
        with_ctx(|cx| {
            let slot = cx.slot(owner, zone)?;
            let dice = dice_in(cx, slot);
            let mut faces = Array::new();
            for (c, d) in dice {
                let home = home(cx, d)?;
                put_back(cx, c, slot, home)?;
                faces.push(roll_one(cx, d, home, slot)?);
            }
            Ok(faces)
        })
    });
    // The faces of the dice in a zone, bottom first (other cards left out).
    engine.register_fn("dice", |owner: &str, zone: &str| {
        with_ctx(|cx| {
            let slot = cx.slot(owner, zone)?;
            let list = dice_in(cx, slot)
                .into_iter()
                .map(|(c, d)| face_value(cx, c, d))
                .collect::<Array>();
            super::super::budget::built("dice", list)
        })
    });
    // Put every die of a zone back in its box; how many.
    engine.register_fn("return_dice", |owner: &str, zone: &str| {
        with_ctx(|cx| {
            let slot = cx.slot(owner, zone)?;
            let dice = dice_in(cx, slot);
            for &(c, d) in &dice {
                let home = home(cx, d)?;
                put_back(cx, c, slot, home)?;
            }
            Ok(dice.len() as i64)
        })
    });
}

fn die_ix(cx: &Ctx, die: &str) -> Fallible<usize> {
    match cx.def.die(die) {
        Some(d) => Ok(d),
        None => unknown("die", die, cx.def.dice.iter().map(|d| d.id.clone())),
    }
}

/// The slot of the zone that holds a die's dice not rolled.
fn home(cx: &Ctx, d: usize) -> Fallible<usize> {
    let die = &cx.def.dice[d];
    match die.home {
        Some(z) => Ok(cx.def.slot(z, 0)),
        None => Err(format!(
            "die `{}` has no `count:` in the game file, so there are no dice of it to roll into a zone (roll() gives a face)",
            die.id
        )
        .into()),
    }
}

/// Cards in the box per die not rolled: one per distinct face.
fn faces_held(cx: &Ctx, d: usize) -> i64 {
    let cards = &cx.def.dice[d].cards;
    cards
        .iter()
        .enumerate()
        .filter(|(i, c)| !cards[..*i].contains(c))
        .count() as i64
}

/// Roll one die of kind `d` from its box onto `slot`: its face.
fn roll_one(cx: &mut Ctx, d: usize, home: usize, slot: usize) -> Fallible<Dynamic> {
    let f = cx.random_below(cx.def.dice[d].faces.len() as u64) as usize;
    let card = cx.def.dice[d].cards[f];
    cx.write(Write::MoveCard {
        card,
        from: home,
        to: slot,
        by: None,
    })
    .map_err(|_| {
        format!(
            "every die `{}` showing {} is out of its box",
            cx.def.dice[d].id, cx.def.dice[d].faces[f]
        )
    })?;
    Ok(to_dynamic(&cx.def.dice[d].values[f]))
}

fn put_back(cx: &mut Ctx, card: CardIx, slot: usize, home: usize) -> Fallible<()> {
    cx.write(Write::MoveCard {
        card,
        from: slot,
        to: home,
        by: None,
    })
}

/// The dice in a slot, bottom first: each card and its die.
fn dice_in(cx: &mut Ctx, slot: usize) -> Vec<(CardIx, usize)> {
    let Val::Cards(cards) = cx.read(Read::Cards(ix(slot))) else {
        return Vec::new();
    };
    cards
        .iter()
        .filter_map(|&c| Some((c, cx.def.die_of(c)?)))
        .collect()
}

fn face_value(cx: &Ctx, card: CardIx, d: usize) -> Dynamic {
    let die = &cx.def.dice[d];
    let f = die.cards.iter().position(|&c| c == card).unwrap_or(0);
    to_dynamic(&die.values[f])
}
