//! Setting a position by ids: for rule scenarios in tests and for tools
//! that start from a given position.

use super::{AsDef, State};
use crate::definition::format::Per;
use crate::definition::{FACE_DOWN, PlayerIx};
use crate::error::{Error, Result};

impl State {
    /// Set a stat by ids: for scenarios and tools that start from a position.
    pub fn set_stat(
        &mut self,
        game: &(impl AsDef + ?Sized),
        player: &str,
        stat: &str,
        value: i64,
    ) -> Result<()> {
        let def = game.def();
        let (Some(p), Some(s)) = (def.player(player), def.stat(stat)) else {
            return Err(Error::usage(format!(
                "no player `{player}` or no stat `{stat}`"
            )));
        };
        self.stats[p * def.stats.len() + s] = value;
        Ok(())
    }
    /// Replace a zone's cards by ids (for scenarios that start from a
    /// position). `owner` is ignored for a shared zone.
    pub fn set_zone(
        &mut self,
        game: &(impl AsDef + ?Sized),
        owner: &str,
        zone: &str,
        cards: &[&str],
    ) -> Result<()> {
        self.put_zone(game, owner, zone, cards, None)
    }

    /// `set_zone`, with every card recorded as come from player `from`
    /// (what `entries` reports), as if that player had played them there.
    pub fn set_zone_from(
        &mut self,
        game: &(impl AsDef + ?Sized),
        owner: &str,
        zone: &str,
        cards: &[&str],
        from: &str,
    ) -> Result<()> {
        let by = game
            .def()
            .player(from)
            .ok_or_else(|| Error::usage(format!("no player `{from}`")))?;
        self.put_zone(game, owner, zone, cards, Some(by))
    }

    /// Lay each card of a zone that keeps faces face down (true) or up,
    /// bottom to top.
    pub fn set_faces(
        &mut self,
        game: &(impl AsDef + ?Sized),
        owner: &str,
        zone: &str,
        down: &[bool],
    ) -> Result<()> {
        let def = game.def();
        let Some(z) = def.zone(zone).filter(|&z| def.zones[z].faces.is_some()) else {
            return Err(Error::usage(format!("no zone `{zone}` that keeps faces")));
        };
        let slot = slot_of(def, z, owner)?;
        if down.len() != self.zones[slot].len() {
            return Err(Error::usage(format!(
                "{owner} {zone} holds {} card(s), not {}",
                self.zones[slot].len(),
                down.len()
            )));
        }
        for (b, &d) in self.origins[slot].iter_mut().zip(down) {
            *b = if d { *b | FACE_DOWN } else { *b & !FACE_DOWN };
        }
        Ok(())
    }

    /// The one body of both: the zone's cards, and where they came from
    /// (`from`: a player; only a zone that records it may say one).
    fn put_zone(
        &mut self,
        game: &(impl AsDef + ?Sized),
        owner: &str,
        zone: &str,
        cards: &[&str],
        from: Option<PlayerIx>,
    ) -> Result<()> {
        let def = game.def();
        let Some(z) = def.zone(zone) else {
            return Err(Error::usage(format!("no zone `{zone}`")));
        };
        if from.is_some() && !def.zones[z].records_from {
            return Err(Error::usage(format!(
                "zone `{zone}` does not record where cards came from"
            )));
        }
        let slot = slot_of(def, z, owner)?;
        let mut ixs = Vec::new();
        for c in cards {
            ixs.push(
                def.card(c)
                    .ok_or_else(|| Error::usage(format!("no card `{c}`")))?,
            );
        }
        if let Some(b) = def.zones[z].entry(from.map_or(0, |f| f as u8 + 1)) {
            self.origins[slot] = vec![b; ixs.len()];
        }
        self.zones[slot] = ixs;
        self.forget_known(slot);
        Ok(())
    }

    /// Set a game-wide var by id (for scenarios).
    pub fn set_var(&mut self, game: &(impl AsDef + ?Sized), var: &str, value: i64) -> Result<()> {
        let i = game
            .def()
            .var(var)
            .ok_or_else(|| Error::usage(format!("no var `{var}`")))?;
        self.vars[i] = value;
        Ok(())
    }

    /// Card ids in a zone.
    pub fn zone_ids(&self, game: &(impl AsDef + ?Sized), owner: &str, zone: &str) -> Vec<String> {
        let def = game.def();
        let Some(z) = def.zone(zone) else {
            return Vec::new();
        };
        let p = def.place(z, owner).unwrap_or(0);
        self.zone(game, z, p)
            .iter()
            .map(|&c| def.cards[c as usize].id.clone())
            .collect()
    }
}

/// The slot of `owner`'s copy of zone `z` (the owner of a shared zone is
/// ignored).
fn slot_of(def: &crate::definition::Def, z: usize, owner: &str) -> Result<usize> {
    let p = def.place(z, owner).ok_or_else(|| match def.zones[z].per {
        Per::Cell => Error::usage(format!("no cell `{owner}`")),
        _ => Error::usage(format!("no player `{owner}`")),
    })?;
    Ok(def.slot(z, p))
}
