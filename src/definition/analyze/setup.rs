//! Setup: the steps run once before the first turn (cards put into zones,
//! shuffles, a random turn order, hooks).

use super::Analyzer;
use super::names::Kind;
use crate::definition::bounds::{self, MAX_SETUP_CARDS};
use crate::definition::format::{At, CardSelection, GameFile, PutStep, SetupStep};
use crate::definition::{Card, CardIx, Grid, Param, Setup, Zone};

pub(super) fn analyze(
    a: &mut Analyzer,
    file: &GameFile,
    cards: &[Card],
    zones: &[Zone],
    grid: Option<&Grid>,
    params: &[Param],
) -> Vec<Setup> {
    let mut setup = Vec::new();
    let mut put_so_far = 0;
    for step in file.setup.iter().flatten() {
        let one = match step {
            SetupStep::Put(put) => put_step(a, put, (cards, zones, params), grid, &mut put_so_far),
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
fn put_step(
    a: &mut Analyzer,
    put: &PutStep,
    (cards, zones, params): (&[Card], &[Zone], &[Param]),
    grid: Option<&Grid>,
    so_far: &mut u64,
) -> Option<Setup> {
    let zone = a.find(Kind::Zone, &put.zone);
    let what = |field: &str| format!("setup `put` into `{}`: `{field}`", put.zone.value);
    let count = match &put.count {
        None => None,
        Some(n) => Some(a.bounded(&what("count"), n, params, bounds::COPIES)? as u32),
    };
    let times = match &put.times {
        None => 1,
        Some(n) => a.bounded(&what("times"), n, params, bounds::TIMES)? as u32,
    };
    let cell = zone.and_then(|z| put_cell(a, put, z, grid));
    // A card id written as one word (`cards: guard`) has no position of
    // its own: point at the selection.
    let mut card = |w: &At<String>| {
        let w = At {
            value: w.value.clone(),
            pos: w.pos.clone().or(put.cards.pos.clone()),
        };
        a.find(Kind::Card, &w)
    };
    // A numbered family's id stands for all its cards.
    let mut one = |w: &At<String>| -> Vec<Option<usize>> {
        let family: Vec<Option<usize>> = (0..cards.len())
            .filter(|&c| cards[c].family.as_deref() == Some(w.value.as_str()))
            .map(Some)
            .collect();
        if family.is_empty() {
            vec![card(w)]
        } else {
            family
        }
    };
    let chosen: Vec<Option<usize>> = match &put.cards.value {
        CardSelection::Word(w) if w.value == "all" => (0..cards.len()).map(Some).collect(),
        CardSelection::Word(w) => one(w),
        CardSelection::List(l) => l.iter().flat_map(one).collect(),
    };
    let chosen: Vec<usize> = chosen.into_iter().collect::<Option<_>>()?;
    let chosen: Vec<usize> = chosen
        .into_iter()
        .filter(|&c| put.filter.iter().all(|(k, v)| cards[c].attr(k) == Some(v)))
        .collect();
    // Counted before any list is made: `copies: 1000000000` is refused, not built.
    *so_far += chosen
        .iter()
        .map(|&c| u64::from(count.unwrap_or(cards[c].copies)) * u64::from(times))
        .sum::<u64>();
    if *so_far > MAX_SETUP_CARDS {
        a.invalid(
            format!("setup puts {so_far} cards so far; at most {MAX_SETUP_CARDS} in all"),
            &put.cards.pos,
        );
        return None;
    }
    // A zone that holds only some cards (`holds:`) takes no other.
    if let Some(z) = zone.and_then(|z| zones.get(z))
        && let Some(&c) = chosen.iter().find(|&&c| !z.fits(&cards[c]))
    {
        a.invalid(
            format!(
                "`{}` cannot go into `{}`: it holds only cards with {}",
                cards[c].id,
                z.id,
                z.holds_text()
            ),
            &put.cards.pos,
        );
        return None;
    }
    let mut list = Vec::new();
    for c in chosen {
        let card = &cards[c];
        {
            for _ in 0..count.unwrap_or(card.copies) * times {
                list.push(c as CardIx);
            }
        }
    }
    if zone.is_some_and(|z| grid.is_some_and(|g| g.zone == z)) && cell.is_none() {
        return None;
    }
    Some(Setup::Put {
        zone: zone?,
        cards: list,
        cell,
    })
}

/// A put's `cell:`: given exactly when the zone is the grid, and a cell of
/// it (None, noted, otherwise).
fn put_cell(a: &mut Analyzer, put: &PutStep, zone: usize, grid: Option<&Grid>) -> Option<usize> {
    let grid = grid.filter(|g| g.zone == zone);
    match (&put.cell, grid) {
        (None, None) => None,
        (Some(c), None) => {
            a.invalid(
                format!(
                    "`cell: {}`: zone `{}` is not a grid",
                    c.value, put.zone.value
                ),
                &c.pos,
            );
            None
        }
        (None, Some(_)) => {
            a.invalid(
                format!(
                    "zone `{}` is a grid: say the cell to put the cards on (`cell: a1`)",
                    put.zone.value
                ),
                &put.zone.pos,
            );
            None
        }
        (Some(c), Some(g)) => {
            let found = g.cell(&c.value);
            if found.is_none() {
                a.invalid(crate::definition::grid::unknown_cell(g, &c.value), &c.pos);
            }
            found
        }
    }
}
