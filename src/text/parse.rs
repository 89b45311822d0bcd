//! Moves as people type them: a card id or alias, a word, or an
//! unambiguous prefix of a legal choice.

use crate::core::{AsDef, Choice, State};
use crate::definition::{CardIx, Def, PlayerIx};
use crate::error::{Error, Illegal, Result, did_you_mean};

impl State {
    /// Parse a typed action for `player`: a card id or alias, or a word, or
    /// an unambiguous prefix of one of the legal choices.
    pub fn parse(
        &self,
        game: &(impl AsDef + ?Sized),
        player: PlayerIx,
        text: &str,
    ) -> Result<Choice> {
        let text = text.trim();
        let legal = self.legal(player);
        let names = || {
            super::cards::offered(game, self, player, legal)
                .into_iter()
                .map(|c| option_label(game, self, c, player))
                .collect::<Vec<_>>()
        };
        let illegal = |why: Illegal, msg: String| {
            Error::illegal(why, msg).note(format!("legal: {}", names().join(", ")))
        };
        Error::check_player(player, game.def().nplayers())?;
        if legal.is_empty() {
            let why = match self.is_over() {
                true => Illegal::Over,
                false => Illegal::NotTheirs,
            };
            return Err(Error::illegal(
                why,
                format!(
                    "{} has no decision to make now",
                    game.def().players[player].id
                ),
            ));
        }
        // As written (a card's id or alias, a word); then in any case, and a
        // card also by its name and by `player`'s faction name.
        let def = game.def();
        let as_written = legal.iter().find(|c| match c {
            Choice::Card(ix) => def.card(text) == Some(*ix),
            Choice::Word(w) => &**w == text,
            Choice::Data(d) => &*d.text == text,
        });
        if let Some(c) = as_written {
            return Ok(c.clone());
        }
        let typed = text.to_lowercase();
        let exact = legal
            .iter()
            .find(|c| words(def, c, player).contains(&typed));
        if let Some(c) = exact {
            return Ok(c.clone());
        }
        // Several options at once (an ask's `pick`), typed by their ids,
        // aliases or names, in any order when the order does not count.
        if let Some(c) = picked(def, legal, &typed, player) {
            return Ok(c);
        }
        let known = def.card(text).is_some()
            || (0..def.cards.len())
                .any(|ix| words(def, &Choice::Card(ix as CardIx), player).contains(&typed));
        if known {
            // A card played with more said (a word option that plays it,
            // as "play harpia on p2"): the one such option, or the list.
            // The card an option plays is the first card it names: typing
            // `baron` never plays "guard baron" (a guard guessing a baron).
            let ids: Vec<CardIx> = (0..def.cards.len())
                .filter(|&ix| words(def, &Choice::Card(ix as CardIx), player).contains(&typed))
                .map(|ix| ix as CardIx)
                .collect();
            let with: Vec<&Choice> = legal
                .iter()
                .filter(|c| match c {
                    Choice::Card(_) => false,
                    other => other
                        .text(game)
                        .split_whitespace()
                        .find_map(|x| def.card(x).filter(|&c| def.cards[c as usize].id == x))
                        .is_some_and(|first| ids.contains(&first)),
                })
                .collect();
            return match with.as_slice() {
                [one] => Ok((*one).clone()),
                [] => Err(illegal(
                    Illegal::NotLegal,
                    format!("`{}` is not playable now", clip(text)),
                )),
                many => Err(Error::illegal(
                    Illegal::Ambiguous,
                    format!(
                        "`{}` needs more: {}",
                        clip(text),
                        many.iter()
                            .map(|c| option_label(game, self, c, player))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )),
            };
        }
        // An unambiguous prefix of a legal choice's id, alias or name.
        let prefixed: Vec<&Choice> = legal
            .iter()
            .filter(|c| {
                !typed.is_empty() && words(def, c, player).iter().any(|w| w.starts_with(&typed))
            })
            .collect();
        match prefixed.as_slice() {
            [one] => Ok((*one).clone()),
            [] => {
                let mut e = illegal(
                    Illegal::NotLegal,
                    format!("`{}` is not a legal choice", clip(text)),
                );
                // What a save writes (the ids), and what the prompt shows.
                let mut all: Vec<String> = legal.iter().map(|c| c.text(game).to_string()).collect();
                all.extend(legal.iter().map(|c| label(game, c, player)));
                if let Some(hint) = did_you_mean(text, all.iter().map(|s| s.as_str())) {
                    e = e.note(hint);
                }
                Err(e)
            }
            many => Err(illegal(
                Illegal::Ambiguous,
                format!(
                    "`{}` is ambiguous: {}",
                    clip(text),
                    many.iter()
                        .map(|c| c.text(game))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }
}

/// How `player` knows a choice: a card by its name (their faction's name
/// for it when the game gives one), with its id in brackets when the name
/// is not plain to type (a letter off the keyboard) and does not begin
/// with the id or an alias (`7♣ [7c]`, but `Musician`); a numbered card by
/// its name; a word as it is.
pub fn label(game: &(impl AsDef + ?Sized), c: &Choice, player: PlayerIx) -> String {
    match c {
        Choice::Card(ix) => {
            let card = &game.def().cards[*ix as usize];
            let name = card.name_for(Some(player));
            // A numbered card by its name (`7`), not its id (`bid-7`).
            if card.family.is_some() {
                return name.to_string();
            }
            let plain = |w: &str| w.to_lowercase().replace(['-', '_'], " ");
            let typed = plain(name);
            let typeable = name.is_ascii()
                || std::iter::once(&card.id)
                    .chain(&card.aliases)
                    .any(|w| typed.starts_with(&plain(w)));
            match typeable {
                true => name.to_string(),
                false => format!("{name} [{}]", card.id),
            }
        }
        Choice::Word(w) => w.to_string(),
        Choice::Data(d) => d.text.to_string(),
    }
}

/// A choice of the decision now as offered to `player`: how they know it,
/// with what the asker says it means (`back (3 squares: 5 -> 2)`).
pub fn option_label(
    game: &(impl AsDef + ?Sized),
    state: &State,
    c: &Choice,
    player: PlayerIx,
) -> String {
    let name = label(game, c, player);
    match state.decision().and_then(|d| d.label(c)) {
        Some(meaning) => format!("{name} ({meaning})"),
        None => name,
    }
}

/// Every way `player` may type a choice, lower case: a card's id, aliases,
/// name and the player's own (faction) name for it; a word as it is; a
/// structured option's text and its `aliases`.
fn words(def: &Def, c: &Choice, player: PlayerIx) -> Vec<String> {
    match c {
        Choice::Card(ix) => {
            let card = &def.cards[*ix as usize];
            [
                card.id.as_str(),
                card.name.as_str(),
                card.name_for(Some(player)),
            ]
            .into_iter()
            .chain(card.aliases.iter().map(String::as_str))
            .map(str::to_lowercase)
            .collect()
        }
        Choice::Word(w) => vec![w.to_lowercase()],
        // A structured option's own `aliases: [...]`, if it declares any.
        Choice::Data(d) => {
            let mut out = vec![d.text.to_lowercase()];
            if let Some(crate::core::Value::List(l)) = d.value.field("aliases") {
                out.extend(l.iter().filter_map(|a| match a {
                    crate::core::Value::Text(t) => Some(t.to_lowercase()),
                    _ => None,
                }));
            }
            out
        }
    }
}

/// The choice of several options (`pick`) that `typed` names, word for
/// word: the one in the order typed, else the one set of them (an
/// unordered pick lists each set once, in the hand's order).
fn picked(def: &Def, legal: &[Choice], typed: &str, player: PlayerIx) -> Option<Choice> {
    let typed: Vec<&str> = typed.split_whitespace().collect();
    if typed.len() < 2 {
        return None;
    }
    // Whether the word typed names the option `part` (a card's id, or a
    // word as it is).
    let names = |part: &crate::core::Value, word: &str| match part {
        crate::core::Value::Text(t) => {
            t.to_lowercase() == word
                || def.card(t).is_some_and(|ix| {
                    def.cards[ix as usize].id == **t
                        && words(def, &Choice::Card(ix), player)
                            .iter()
                            .any(|w| w == word)
                })
        }
        crate::core::Value::Int(i) => i.to_string() == word,
        _ => false,
    };
    let parts = |c: &Choice| match c {
        Choice::Data(d) => match &d.value {
            crate::core::Value::List(l) if l.len() == typed.len() => Some(l.clone()),
            _ => None,
        },
        _ => None,
    };
    let in_order = legal
        .iter()
        .find(|c| parts(c).is_some_and(|l| l.iter().zip(&typed).all(|(p, w)| names(p, w))));
    if let Some(c) = in_order {
        return Some(c.clone());
    }
    let any_order: Vec<&Choice> = legal
        .iter()
        .filter(|c| {
            parts(c).is_some_and(|l| {
                // Each typed word matched to a different part.
                let mut used = vec![false; l.len()];
                typed.iter().all(|w| {
                    let free = (0..l.len()).find(|&i| !used[i] && names(&l[i], w));
                    free.map(|i| used[i] = true).is_some()
                })
            })
        })
        .collect();
    match any_order.as_slice() {
        [one] => Some((*one).clone()),
        _ => None,
    }
}

/// What a person typed, cut for a message: a pasted megabyte is not echoed.
pub fn clip(text: &str) -> std::borrow::Cow<'_, str> {
    const MAX: usize = 60;
    match text.char_indices().nth(MAX) {
        None => text.into(),
        Some((at, _)) => format!("{}... ({} characters)", &text[..at], text.chars().count()).into(),
    }
}
