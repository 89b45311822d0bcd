//! Cards: their names (a faction's own names by player), aliases, copies,
//! texts and attributes.

use indexmap::IndexMap;

use super::Analyzer;
use super::names::Kind;
use crate::definition::bounds;
use crate::definition::format::{At, AttrValue, GameFile, NumberedDef};
use crate::definition::{Card, Param, Player};

/// Card kinds a game may define: a card is a 16-bit index, and the memo
/// keeps the top of that range for seats (docs/format.md, limits).
pub const MAX_CARD_TYPES: usize = 65_000;

pub(super) fn analyze(
    a: &mut Analyzer,
    file: &GameFile,
    players: &[Player],
    listed: &[String],
    params: &[Param],
) -> Vec<Card> {
    let mut cards = Vec::new();
    for (id, c) in &file.cards {
        if let Some(w) = &c.when
            && a.find(Kind::Param, &w.param)
                .is_some_and(|i| params[i].value == 0)
        {
            continue;
        }
        let names = faction_names(a, &format!("card `{id}`"), &c.names, players, listed);
        let card = Card {
            id: id.clone(),
            name: c.name.clone().unwrap_or_else(|| id.clone()),
            aliases: c.aliases.iter().map(|a| a.value.clone()).collect(),
            copies: copies(a, id, c, params),
            text: c.text.clone().unwrap_or_default(),
            attrs: c
                .attrs
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            names,
            family: None,
            symbol: symbol(a, id, c),
        };
        match &c.numbered {
            None => cards.push(card),
            Some(range) => numbered(a, id, &card, range, params, &mut cards),
        }
    }
    if cards.len() > MAX_CARD_TYPES {
        let at = a.top();
        a.invalid(
            format!(
                "the game defines {} cards; at most {MAX_CARD_TYPES}",
                cards.len()
            ),
            &at,
        );
        cards.truncate(MAX_CARD_TYPES);
    }
    a.names
        .declare(Kind::Card, cards.iter().map(|c| c.id.clone()));
    words_stay_apart(a, file);
    cards
}

/// `copies:`, a number or a parameter's value (default 1).
fn copies(
    a: &mut Analyzer,
    id: &str,
    c: &crate::definition::format::CardDef,
    params: &[Param],
) -> u32 {
    let Some(at) = &c.copies else { return 1 };
    a.bounded(
        &format!("card `{id}`: `copies`"),
        at,
        params,
        bounds::COPIES,
    )
    .map_or(1, |n| n as u32)
}

/// The character that shows a card on a grid: its `symbol:` (one
/// character), else the first of its name.
fn symbol(a: &mut Analyzer, id: &str, c: &crate::definition::format::CardDef) -> char {
    if let Some(s) = &c.symbol {
        let mut chars = s.value.chars();
        match (chars.next(), chars.next()) {
            (Some(ch), None) if !ch.is_control() && !ch.is_whitespace() => return ch,
            _ => a.invalid(
                format!(
                    "card `{id}`: `symbol` is one character to draw it with, not `{}`",
                    s.value
                ),
                &s.pos,
            ),
        }
    }
    c.name
        .as_deref()
        .unwrap_or(id)
        .chars()
        .find(|ch| !ch.is_whitespace() && !ch.is_control())
        .unwrap_or('?')
}

/// A numbered family's cards: `ID-n` for each n in the range, with the
/// attribute `n` and `{n}` in the name and text replaced.
fn numbered(
    a: &mut Analyzer,
    id: &str,
    card: &Card,
    range: &NumberedDef,
    params: &[Param],
    out: &mut Vec<Card>,
) {
    let what = format!("card `{id}`: `numbered`");
    let (Some(from), Some(to)) = (
        a.number(&format!("{what} `from`"), &range.from, params),
        a.number(&format!("{what} `to`"), &range.to, params),
    ) else {
        return;
    };
    // As many cards as numbers from `from` to `to`: 1 to the kinds of card
    // a game may define.
    let cards = i128::from(to) - i128::from(from) + 1;
    if !(1..=MAX_CARD_TYPES as i128).contains(&cards) {
        let give = if cards < 1 {
            "give `to` at least `from`".to_string()
        } else {
            format!("give at most {MAX_CARD_TYPES}")
        };
        a.invalid(
            format!(
                "{what} from {from} to {to} makes {} cards: {give}",
                cards.max(0)
            ),
            &range.to.pos,
        );
        return;
    }
    let fill = |t: &str, n: i64| t.replace("{n}", &n.to_string());
    for n in from..=to {
        let mut c = card.clone();
        c.id = format!("{id}-{n}");
        c.name = if card.name.contains("{n}") {
            fill(&card.name, n)
        } else {
            format!("{} {n}", card.name)
        };
        c.text = fill(&card.text, n);
        c.names = card.names.iter().map(|x| fill(x, n)).collect();
        c.aliases.clear();
        c.attrs.push(("n".into(), AttrValue::Int(n)));
        c.family = Some(id.to_string());
        out.push(c);
    }
}

/// `names:` (by player id: each faction's own name) as one name per seat,
/// "" where none is given; an unknown player is a problem at its key.
pub(super) fn faction_names(
    a: &mut Analyzer,
    what: &str,
    names: &IndexMap<At<String>, String>,
    players: &[Player],
    listed: &[String],
) -> Vec<String> {
    for p in names.keys().filter(|p| !listed.contains(&p.value)) {
        a.invalid(
            format!(
                "{what}: `names` has no player `{}` (players: {})",
                p.value,
                listed.join(", ")
            ),
            &p.pos,
        );
    }
    players
        .iter()
        .map(|p| {
            names
                .iter()
                .find(|(k, _)| k.value == p.id)
                .map(|(_, n)| n.clone())
                .unwrap_or_default()
        })
        .collect()
}

/// A word a player types names one card: an alias may not be another
/// card's id or alias, and must be typeable (no spaces at its ends).
fn words_stay_apart(a: &mut Analyzer, file: &GameFile) {
    let mut seen: Vec<(&str, &str)> = file
        .cards
        .keys()
        .map(|id| (id.as_str(), id.as_str()))
        .collect();
    for (id, c) in &file.cards {
        for alias in &c.aliases {
            let w = alias.value.as_str();
            if !super::typeable(w) {
                a.invalid(
                    format!(
                        "card `{}`: alias `{}` has spaces at its ends or a control character (or is empty): no one can type it",
                        id.escape_debug(),
                        w.escape_debug()
                    ),
                    &alias.pos,
                );
            } else if let Some((_, other)) =
                seen.iter().find(|(word, owner)| *word == w && owner != id)
            {
                a.invalid(
                    format!("card `{id}`: alias `{w}` already names card `{other}`"),
                    &alias.pos,
                );
            } else {
                seen.push((w, id));
            }
        }
    }
}
