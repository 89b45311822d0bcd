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

/// A zone's copy, its names resolved: the zone's index, its slot, and
/// its owner where it is a player's.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Spot {
    pub z: usize,
    pub slot: usize,
    pub player: Option<usize>,
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
        let at = self.spot(owner, zone)?;
        Ok((at.z, at.slot, self.entry(at, to)))
    }
    /// The record cards leaving `from` get in zone `to` (`Zone::entry`):
    /// None when `to` records nothing.
    fn entry(&self, from: Spot, to: usize) -> Option<u8> {
        let to = &self.def.zones[to];
        match from.player {
            _ if !to.records() => None,
            None => to.entry(0),
            Some(p) => to.entry(p as u8 + 1),
        }
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
        self.spot(owner, zone).map(|at| (at.z, at.slot))
    }
    /// `owner`'s copy of `zone`.
    fn spot(&self, owner: &str, zone: &str) -> Fallible<Spot> {
        let z = self.zone(zone)?;
        let (p, player) = match self.def.zones[z].per {
            crate::definition::format::Per::Game => (0, None),
            crate::definition::format::Per::Player => {
                let p = self.player(owner)?;
                (p, Some(p))
            }
            crate::definition::format::Per::Cell => (self.cell(owner)?, None),
        };
        Ok(Spot {
            z,
            slot: self.def.slot(z, p),
            player,
        })
    }
}
