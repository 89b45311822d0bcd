//! The functions a game script calls, registered one domain per file (see
//! docs/script-api.md). Each reaches the running state through `with_ctx`.

mod board;
pub(crate) mod cards;
mod chance;
mod dice;
mod faces;
pub(crate) mod flow;
pub(crate) mod grid;
pub(crate) mod kept_options;
mod knowledge;
mod lists;
mod pick;
pub(crate) mod plain_ask;
mod players;
mod stats;

use super::tier::natives::Api;
use super::{Ctx, Fallible};
use crate::definition::{CardIx, PlayerIx};

pub(crate) fn register(engine: &mut Api) {
    players::register(engine);
    stats::register(engine);
    cards::register(engine);
    faces::register(engine);
    flow::register(engine);
    chance::register(engine);
    dice::register(engine);
    board::register(engine);
    grid::register(engine);
    lists::register(engine);
}

/// "unknown stat `x` (known: a, b)".
fn unknown<T>(what: &str, word: &str, known: impl Iterator<Item = String>) -> Fallible<T> {
    let known: Vec<String> = known.collect();
    let hint = crate::error::did_you_mean(word, known.iter().map(String::as_str))
        .map(|h| format!("; {h}"))
        .unwrap_or_default();
    Err(format!(
        "unknown {what} `{word}` (known: {}){hint}",
        known.join(", ")
    )
    .into())
}

impl Ctx {
    fn player(&self, id: &str) -> Fallible<PlayerIx> {
        match self.def.player(id) {
            Some(p) => Ok(p),
            None => unknown("player", id, self.def.players.iter().map(|p| p.id.clone())),
        }
    }
    /// A grid cell by name (`a1`).
    fn cell(&self, name: &str) -> Fallible<usize> {
        let g = grid::grid(&self.def)?;
        g.cell(name)
            .ok_or_else(|| crate::definition::grid::unknown_cell(g, name).into())
    }
    fn stat(&self, id: &str) -> Fallible<usize> {
        match self.def.stat(id) {
            Some(s) => Ok(s),
            None => unknown("stat", id, self.def.stats.iter().map(|s| s.id.clone())),
        }
    }
    fn card(&self, id: &str) -> Fallible<CardIx> {
        match self.def.card(id) {
            Some(c) => Ok(c),
            None => unknown("card", id, self.def.cards.iter().map(|c| c.id.clone())),
        }
    }
    /// The slot of `owner`'s `zone` (owner ignored for a shared zone).
    fn slot(&self, owner: &str, zone: &str) -> Fallible<usize> {
        self.zone_slot(owner, zone).map(|(_, slot)| slot)
    }
    /// The index and slot of a zone cards leave for zone `to`, and the
    /// record they get there (`Zone::entry`): None when `to` records
    /// nothing.
    fn leaving(&self, owner: &str, zone: &str, to: usize) -> Fallible<(usize, usize, Option<u8>)> {
        let (z, slot) = self.zone_slot(owner, zone)?;
        let to = &self.def.zones[to];
        let by = match self.def.zones[z].per {
            _ if !to.records() => None,
            crate::definition::format::Per::Game | crate::definition::format::Per::Cell => {
                to.entry(0)
            }
            crate::definition::format::Per::Player => to.entry(self.player(owner)? as u8 + 1),
        };
        Ok((z, slot, by))
    }
    /// A zone's index by id.
    fn zone(&self, zone: &str) -> Fallible<usize> {
        match self.def.zone(zone) {
            Some(z) => Ok(z),
            None => unknown("zone", zone, self.def.zones.iter().map(|z| z.id.clone())),
        }
    }
    /// The zone's index and the slot of `owner`'s copy of it.
    fn zone_slot(&self, owner: &str, zone: &str) -> Fallible<(usize, usize)> {
        let z = self.zone(zone)?;
        let p = match self.def.zones[z].per {
            crate::definition::format::Per::Game => 0,
            crate::definition::format::Per::Player => self.player(owner)?,
            crate::definition::format::Per::Cell => self.cell(owner)?,
        };
        Ok((z, self.def.slot(z, p)))
    }
}
