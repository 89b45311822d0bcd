//! Cards: their names (a faction's own names by player), aliases, copies,
//! texts and attributes.

use super::Analyzer;
use super::names::Kind;
use crate::definition::format::GameFile;
use crate::definition::{Card, Player};

pub(super) fn analyze(
    a: &mut Analyzer,
    file: &GameFile,
    players: &[Player],
    listed: &[String],
) -> Vec<Card> {
    let mut cards = Vec::new();
    for (id, c) in &file.cards {
        for p in c.names.keys().filter(|p| !listed.contains(&p.value)) {
            a.invalid(
                format!(
                    "card `{id}`: `names` has no player `{}` (players: {})",
                    p.value,
                    listed.join(", ")
                ),
                &p.pos,
            );
        }
        cards.push(Card {
            id: id.clone(),
            name: c.name.clone().unwrap_or_else(|| id.clone()),
            aliases: c.aliases.clone(),
            copies: c.copies.unwrap_or(1),
            text: c.text.clone().unwrap_or_default(),
            attrs: c
                .attrs
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            names: players
                .iter()
                .map(|p| {
                    c.names
                        .iter()
                        .find(|(k, _)| k.value == p.id)
                        .map(|(_, n)| n.clone())
                        .unwrap_or_default()
                })
                .collect(),
        });
    }
    a.names
        .declare(Kind::Card, cards.iter().map(|c| c.id.clone()));
    cards
}
