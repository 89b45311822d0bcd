//! Several options chosen at once (`pick: K`, on a script's ask or a
//! flow `decide:` step): every set of K (or, ordered, every arrangement)
//! is one legal choice, its text the options' texts separated by spaces
//! (`2c 7h qs`) and its value the list of them. The listing and counting
//! shared by both, and a decision's pick seen back from its options (what
//! the REPL and the page show: the K to choose and the options to choose
//! them from, not every combination).

use std::sync::Arc;

use super::{Choice, Choices, Datum, Value};
use crate::definition::{CardIx, Def, Pick};

pub use crate::definition::pick_count as count;

/// The most choices a pick may make in one decision (as a hook's asks
/// may offer in one run).
pub const MAX_CHOICES: usize = Pick::MAX_CHOICES;

/// Every choice of `pick.k` indices below `n`, in order: increasing
/// indices, or, ordered, every arrangement of distinct ones.
pub fn walk<E>(
    n: usize,
    pick: Pick,
    at: &mut Vec<usize>,
    f: &mut dyn FnMut(&[usize]) -> Result<(), E>,
) -> Result<(), E> {
    if at.len() == pick.k as usize {
        return f(at);
    }
    let from = if pick.ordered {
        0
    } else {
        at.last().map_or(0, |&l| l + 1)
    };
    for i in from..n {
        if pick.ordered && at.contains(&i) {
            continue;
        }
        at.push(i);
        walk(n, pick, at, f)?;
        at.pop();
    }
    Ok(())
}

/// The choices of picking from distinct `cards` (a flow step's zone):
/// each a list of card ids.
pub fn of_cards(def: &Def, cards: &[CardIx], pick: Pick) -> Choices {
    let ids: Vec<Arc<str>> = cards
        .iter()
        .map(|&c| Arc::from(def.cards[c as usize].id.as_str()))
        .collect();
    of_texts(&ids, pick)
}

/// The choices of picking from distinct words (a flow step's `options`).
pub fn of_texts(parts: &[Arc<str>], pick: Pick) -> Choices {
    let mut out = Vec::with_capacity(count(parts.len(), pick.k as usize, pick.ordered) as usize);
    let _ = walk::<()>(parts.len(), pick, &mut Vec::new(), &mut |at| {
        let text: Vec<&str> = at.iter().map(|&i| &*parts[i]).collect();
        out.push(Choice::Data(Arc::new(Datum {
            text: text.join(" ").into(),
            value: Value::List(at.iter().map(|&i| Value::Text(parts[i].clone())).collect()),
        })));
        Ok(())
    });
    out.into()
}

/// What a pick's choices are made of: each part (a card, a word, a
/// number) as often as one choice holds it at most, in the order they
/// first appear among the choices (the order they were offered in).
/// None when a choice is no list (not a pick's).
pub fn parts(def: &Def, legal: &[Choice]) -> Option<Vec<Choice>> {
    let mut out: Vec<(Value, usize)> = Vec::new();
    for c in legal {
        let Choice::Data(d) = c else {
            return None;
        };
        let Value::List(l) = &d.value else {
            return None;
        };
        let mut here: Vec<(&Value, usize)> = Vec::new();
        for v in l.iter() {
            match here.iter_mut().find(|(w, _)| *w == v) {
                Some((_, n)) => *n += 1,
                None => here.push((v, 1)),
            }
        }
        for (v, n) in here {
            match out.iter_mut().find(|(w, _)| w == v) {
                Some((_, m)) => *m = (*m).max(n),
                None => out.push((v.clone(), n)),
            }
        }
    }
    let mut parts = Vec::new();
    for (v, n) in out {
        let c = match &v {
            Value::Text(t) => match def.card(t) {
                Some(ix) if def.cards[ix as usize].id == **t => Choice::Card(ix),
                _ => Choice::Word(t.clone()),
            },
            Value::Int(i) => Choice::Data(Arc::new(Datum {
                text: i.to_string().into(),
                value: v.clone(),
            })),
            _ => return None,
        };
        parts.extend(std::iter::repeat_n(c, n));
    }
    Some(parts)
}

/// Whether `ask`'s choices for a decider are those `of_cards` makes of
/// `cards` (a kept ask still fits the hand): the cards in the order they
/// first appear, and as many choices as the pick makes.
pub(crate) fn is_of_cards(def: &Def, choices: &[Choice], cards: &[CardIx], pick: Pick) -> bool {
    if choices.len() as u128 != count(cards.len(), pick.k as usize, pick.ordered) {
        return false;
    }
    let mut seen: Vec<&str> = Vec::with_capacity(cards.len());
    for c in choices {
        let Choice::Data(d) = c else {
            return false;
        };
        let Value::List(l) = &d.value else {
            return false;
        };
        for v in l.iter() {
            let Value::Text(t) = v else {
                return false;
            };
            let t: &str = t;
            if !seen.contains(&t) {
                seen.push(t);
            }
        }
    }
    seen.len() == cards.len()
        && seen
            .iter()
            .zip(cards)
            .all(|(t, &c)| *t == def.cards[c as usize].id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(n: usize, k: u32, ordered: bool) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        walk::<()>(n, Pick { k, ordered }, &mut Vec::new(), &mut |a| {
            out.push(a.to_vec());
            Ok(())
        })
        .unwrap_or_default();
        out
    }

    #[test]
    fn sets_and_arrangements_are_listed_and_counted() {
        assert_eq!(
            all(4, 2, false),
            [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
        );
        assert_eq!(all(3, 2, true).len(), 6);
        assert_eq!(all(13, 3, false).len() as u128, count(13, 3, false));
        assert_eq!(count(13, 3, false), 286);
        assert_eq!(count(13, 3, true), 1716);
        assert_eq!(count(2, 3, false), 0);
    }
}
