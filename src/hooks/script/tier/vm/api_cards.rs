//! The typed forms of the card API (cards.rs of the API): a zone's cards
//! as a list of symbols, its count, a card's attributes and names from
//! the tables made at load (texts.rs), and the moves whose Rhai forms
//! take texts (`draw`, `move_all`, `deal`) on their symbols' texts. As in
//! api.rs, each answers through the same traced reads and writes as its
//! Rhai form, and gives None where its arguments are not what it types.

use crate::core::ops::{Read, Val, ix};
use crate::hooks::script::api::cards;
use crate::hooks::script::budget;
use crate::hooks::script::{Ctx, Fallible, MAX_STRING};

use super::api::{Typed, player, spot};
use super::syms::{NONE, Syms};
use super::value::V;

pub(super) fn typed(name: &str, arity: usize) -> Option<Typed> {
    Some(match (name, arity) {
        ("cards", 2) => cards,
        ("card_types", 2) => card_types,
        ("count", 2) => count,
        ("has", 3) => has,
        ("attr", 2) => attr,
        ("card_name", 1) => card_name,
        ("card_name", 2) => card_name_for,
        ("player_name", 1) => player_name,
        ("draw", 4) => draw,
        ("move_all", 4) => move_all,
        ("deal", 4) => deal,
        _ => return None,
    })
}

/// The card a symbol names (by id or alias).
fn card(syms: &Syms, v: &V) -> Option<usize> {
    let V::Sym(s) = v else { return None };
    let c = syms.kinds(*s).card;
    (c != NONE).then_some(c as usize)
}

/// A symbol's text.
fn text<'a>(syms: &'a Syms, v: &V) -> Option<&'a str> {
    match v {
        V::Sym(s) => Some(syms.text(*s).as_str()),
        _ => None,
    }
}

/// A list of symbols an API function built, held to what `budget::built`
/// holds its Rhai form's to: Rhai's limits on a value, one operation an
/// item, the hook's memory.
pub(super) fn built(name: &str, syms: &Syms, out: Vec<V>) -> Fallible<V> {
    // The texts are added up only where they might pass the limit.
    let text = if out.len().saturating_mul(syms.longest) <= MAX_STRING {
        0
    } else {
        (out.iter())
            .map(|v| match v {
                V::Sym(s) => syms.len(*s),
                _ => 0,
            })
            .sum()
    };
    budget::limits(name, out.len(), 0, text)?;
    budget::charge(name, out.len(), "values it built")?;
    budget::memory(name)?;
    Ok(V::List(out))
}

fn cards(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let slot = spot(cx, syms, &a[0], &a[1])?.slot;
    let sym = |c: &crate::definition::CardIx| V::Sym(syms.cards[usize::from(*c)]);
    let out = match cx.untraced_cards(slot) {
        Some(cs) => cs.iter().map(sym).collect(),
        None => match cx.read(Read::Cards(ix(slot))) {
            Val::Cards(cs) => cs.iter().map(sym).collect(),
            Val::Int(_) => Vec::new(),
        },
    };
    Some(built("cards", syms, out))
}

fn card_types(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let slot = spot(cx, syms, &a[0], &a[1])?.slot;
    let out = match cx.read(Read::Distinct(ix(slot))) {
        Val::Cards(cs) => (cs.iter())
            .map(|&c| V::Sym(syms.cards[usize::from(c)]))
            .collect(),
        Val::Int(_) => Vec::new(),
    };
    Some(built("card_types", syms, out))
}

fn count(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let slot = spot(cx, syms, &a[0], &a[1])?.slot;
    Some(Ok(V::Int(cx.read_int(Read::Count(ix(slot))))))
}

fn has(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let c = card(syms, &a[2])?;
    let slot = spot(cx, syms, &a[0], &a[1])?.slot;
    let c = crate::definition::CardIx::try_from(c).ok()?;
    Some(Ok(V::Bool(cx.read_int(Read::Has(ix(slot), c)) != 0)))
}

/// `attr(card, key)`: every key of the game is a symbol (`Syms::new`), so
/// a symbol names the key or none (then `()`, as the Rhai form says).
fn attr(_: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let c = card(syms, &a[0])?;
    let V::Sym(key) = &a[1] else { return None };
    Some(Ok(syms.data.attr(c, *key)))
}

fn card_name(_: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let c = card(syms, &a[0])?;
    Some(Ok(syms.data.card_name(c, None)))
}

fn card_name_for(_: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let (c, p) = (card(syms, &a[0])?, player(syms, &a[1])?);
    Some(Ok(syms.data.card_name(c, Some(p))))
}

fn player_name(_: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let p = player(syms, &a[0])?;
    Some(Ok(syms.data.player_name(p)))
}

/// The four texts of a move's zones (owner, zone, owner, zone).
fn zones<'a>(syms: &'a Syms, a: &[V]) -> Option<[[&'a str; 2]; 2]> {
    Some([
        [text(syms, &a[0])?, text(syms, &a[1])?],
        [text(syms, &a[2])?, text(syms, &a[3])?],
    ])
}

fn draw(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let [from, to] = zones(syms, a)?;
    Some(cards::draw(cx, from, to).map(|c| c.map_or(V::Unit, |c| V::Sym(syms.cards[c as usize]))))
}

fn move_all(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let [from, to] = zones(syms, a)?;
    Some(cards::move_all(cx, from, to).map(|()| V::Unit))
}

fn deal(cx: &mut Ctx, syms: &Syms, a: &[V]) -> Option<Fallible<V>> {
    let (owner, from, to) = (text(syms, &a[0])?, text(syms, &a[1])?, text(syms, &a[2])?);
    let V::Int(each) = &a[3] else { return None };
    Some(cards::deal(cx, owner, from, to, *each).map(|()| V::Unit))
}
