//! Setup: the steps run once before the first turn (cards put into zones,
//! shuffles, a random turn order, hooks).

use super::Analyzer;
use super::names::Kind;
use crate::definition::format::{At, CardSelection, GameFile, PutStep, SetupStep};
use crate::definition::{Card, CardIx, Setup};

pub(super) fn analyze(a: &mut Analyzer, file: &GameFile, cards: &[Card]) -> Vec<Setup> {
    let mut setup = Vec::new();
    for step in file.setup.iter().flatten() {
        let one = match step {
            SetupStep::Put(put) => put_step(a, put, cards),
            SetupStep::Shuffle(z) => a.find(Kind::Zone, z).map(|zone| Setup::Shuffle { zone }),
            SetupStep::Order(o) if o.value == "random" => Some(Setup::RandomOrder),
            SetupStep::Order(o) => {
                a.invalid(
                    format!(
                        "`order: {}`: the only order setup knows is `random`",
                        o.value
                    ),
                    &o.pos,
                );
                None
            }
            SetupStep::Hook(h) => {
                a.hook(h, 0);
                Some(Setup::Hook {
                    name: h.value.clone(),
                })
            }
        };
        setup.extend(one);
    }
    setup
}

/// `put`: the cards chosen (every unknown one reported), filtered, each
/// `copies` (or `count`) times.
fn put_step(a: &mut Analyzer, put: &PutStep, cards: &[Card]) -> Option<Setup> {
    let zone = a.find(Kind::Zone, &put.zone);
    // Inside the untagged selection names carry no position: point at the
    // selection itself.
    let mut card = |w: &At<String>| {
        let w = At {
            value: w.value.clone(),
            pos: w.pos.clone().or(put.cards.pos.clone()),
        };
        a.find(Kind::Card, &w)
    };
    let chosen: Vec<Option<usize>> = match &put.cards.value {
        CardSelection::Word(w) if w.value == "all" => (0..cards.len()).map(Some).collect(),
        CardSelection::Word(w) => vec![card(w)],
        CardSelection::List(l) => l.iter().map(card).collect(),
    };
    let chosen: Vec<usize> = chosen.into_iter().collect::<Option<_>>()?;
    let mut list = Vec::new();
    for c in chosen {
        let card = &cards[c];
        if put.filter.iter().all(|(k, v)| card.attr(k) == Some(v)) {
            for _ in 0..put.count.unwrap_or(card.copies) {
                list.push(c as CardIx);
            }
        }
    }
    Some(Setup::Put {
        zone: zone?,
        cards: list,
    })
}
