//! Moves as people type them: a card id or alias, a word, or an
//! unambiguous prefix of a legal choice.

use crate::core::{AsDef, Choice, State};
use crate::definition::{Def, PlayerIx};
use crate::error::{Error, ErrorKind, Result, did_you_mean};

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
            legal
                .iter()
                .map(|c| c.text(game).to_string())
                .collect::<Vec<_>>()
        };
        let illegal = |msg: String| {
            Error::new(ErrorKind::Move, msg).note(format!("legal: {}", names().join(", ")))
        };
        if legal.is_empty() {
            return Err(Error::new(
                ErrorKind::Move,
                format!(
                    "{} has no decision to make now",
                    game.def().players[player].id
                ),
            ));
        }
        let exact = legal.iter().find(|c| match c {
            Choice::Card(ix) => game.def().card(text) == Some(*ix),
            Choice::Word(w) => &**w == text,
        });
        if let Some(c) = exact {
            return Ok(c.clone());
        }
        if game.def().card(text).is_some() {
            return Err(illegal(format!("`{}` is not playable now", clip(text))));
        }
        // An unambiguous prefix of a legal choice's id or of one of its aliases.
        fn words<'a>(def: &'a Def, c: &'a Choice) -> Vec<&'a str> {
            match c {
                Choice::Card(ix) => {
                    let card = &def.cards[*ix as usize];
                    std::iter::once(card.id.as_str())
                        .chain(card.aliases.iter().map(String::as_str))
                        .collect()
                }
                Choice::Word(w) => vec![&**w],
            }
        }
        let prefixed: Vec<&Choice> = legal
            .iter()
            .filter(|c| {
                !text.is_empty() && words(game.def(), c).iter().any(|w| w.starts_with(text))
            })
            .collect();
        match prefixed.as_slice() {
            [one] => Ok((*one).clone()),
            [] => {
                let mut e = illegal(format!("`{}` is not a legal choice", clip(text)));
                let all = names();
                if let Some(hint) = did_you_mean(text, all.iter().map(|s| s.as_str())) {
                    e = e.note(hint);
                }
                Err(e)
            }
            many => Err(illegal(format!(
                "`{}` is ambiguous: {}",
                clip(text),
                many.iter()
                    .map(|c| c.text(game))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
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
