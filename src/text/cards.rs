//! Cards as players read them: a zone listed in its `sort:` order (a hand
//! in the game's card order, not deal order), and a decision's card
//! options in the order of the hand they come from.

use crate::core::{AsDef, Choice, State};
use crate::definition::display::sorted_positions;
use crate::definition::format::Per;
use crate::definition::{CardIx, Def, PlayerIx};

/// The positions of a zone's cards (`cards`, owned by `owner`) in the
/// order players read them: the zone's `sort:` keys, else as they lie.
pub fn listed(def: &Def, zone: usize, cards: &[CardIx], owner: Option<PlayerIx>) -> Vec<usize> {
    sorted_positions(cards, &def.cards, &def.zones[zone].sort, |c| {
        c.name_for(owner).to_string()
    })
}

/// `player`'s legal choices in the order they are offered: the cards in
/// the order of the zone that holds them (theirs first, then a shared
/// one) as it is listed (a hand's `sort:`), each word or structured
/// option where the script put it. Cards held by no such zone leave the
/// script's order as it is.
pub fn offered<'a>(
    game: &(impl AsDef + ?Sized),
    state: &State,
    player: PlayerIx,
    legal: &'a [Choice],
) -> Vec<&'a Choice> {
    let def = game.def();
    let mut out: Vec<&Choice> = legal.iter().collect();
    // The zone (and place in it as listed) of each card option.
    let place = |ix: CardIx| -> Option<(usize, usize)> {
        let zones = || def.zones.iter().enumerate().filter(|(_, zone)| zone.show);
        let mine = zones().filter(|(_, zone)| zone.per == Per::Player);
        let shared = zones().filter(|(_, zone)| zone.per == Per::Game);
        mine.chain(shared).find_map(|(z, zone)| {
            let owner = (zone.per == Per::Player).then_some(player);
            let cards = state.zone(game, z, owner.unwrap_or(0));
            let at = cards.iter().position(|&c| c == ix)?;
            let order = listed(def, z, cards, owner);
            Some((z, order.iter().position(|&i| i == at).unwrap_or(at)))
        })
    };
    let slots: Vec<usize> = (0..legal.len())
        .filter(|&i| matches!(legal[i], Choice::Card(_)))
        .collect();
    if slots.len() < 2 {
        return out;
    }
    let mut keyed = Vec::with_capacity(slots.len());
    for &i in &slots {
        let Choice::Card(ix) = legal[i] else {
            continue;
        };
        match place(ix) {
            Some(p) => keyed.push((p, &legal[i])),
            None => return out,
        }
    }
    keyed.sort_by_key(|(p, _)| *p);
    for (i, (_, c)) in slots.into_iter().zip(keyed) {
        out[i] = c;
    }
    out
}

/// A pick (`pick: K`) as `player` is asked it: how many, whether the order
/// counts, and the options to pick from (cards in their hand's order),
/// rather than every set of them. None for any other decision.
pub fn pick_of(
    game: &(impl AsDef + ?Sized),
    state: &State,
    player: PlayerIx,
) -> Option<(crate::definition::Pick, Vec<Choice>)> {
    let d = state.decision()?;
    let pick = d.pick?;
    let legal = state.legal(player);
    if legal.is_empty() {
        return None;
    }
    let parts = crate::core::pick::parts(game.def(), legal)?;
    let ordered: Vec<Choice> = offered(game, state, player, &parts)
        .into_iter()
        .cloned()
        .collect();
    Some((pick, ordered))
}

/// What a pick asks for, in a prompt: "pick 3 cards, in any order:
/// type them with spaces between, e.g. `3c jc kc`".
pub fn pick_said(
    game: &(impl AsDef + ?Sized),
    pick: crate::definition::Pick,
    parts: &[Choice],
    player: PlayerIx,
) -> String {
    let k = pick.k;
    let what = if parts.iter().all(|c| matches!(c, Choice::Card(_))) {
        if k == 1 { " card" } else { " cards" }
    } else {
        ""
    };
    let order = if pick.ordered {
        "in the order they count"
    } else {
        "in any order"
    };
    // Each as the list shows it where that is one typeable word, else
    // its id.
    let example: Vec<String> = (parts.iter().take(k as usize))
        .map(|c| {
            let shown = super::label(game, c, player);
            match shown.is_ascii() && !shown.contains(' ') {
                true => shown,
                false => c.text(game).to_string(),
            }
        })
        .collect();
    format!(
        "pick {k}{what}, {order}: type them with spaces between, e.g. `{}`",
        example.join(" ")
    )
}
