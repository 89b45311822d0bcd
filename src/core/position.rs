//! A position as data: a state at rest, about to run a flow step, with
//! nothing pending. Its decision is not stored: running the flow from the
//! step asks it again (a hook's ask is a function of the state, and the
//! RNG's place is part of the position), so a position can never hold a
//! decision its rules would not ask. Reading and writing one as a file is
//! the play layer's (`play::position`).

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use super::{AsDef, Event, Rules, State};
use crate::definition::{CardIx, PlayerIx};
use crate::error::{Error, Result};

/// A state at rest before flow step `step` of turn `turn`, by indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// Per-player stats, `player * nstats + stat`.
    pub stats: Vec<i64>,
    pub vars: Vec<i64>,
    /// Cards by slot (`Def::slot`), bottom to top.
    pub zones: Vec<Vec<CardIx>>,
    /// Each card's record (where it came from, `FACE_DOWN`) in the slots
    /// of zones that keep one (`Zone::records`), else empty.
    pub records: Vec<Vec<u8>>,
    /// Who knows each card (`State::known`: a bit per player), in the
    /// slots' order and the cards' places; empty when nobody knows any.
    pub known: Vec<Vec<u64>>,
    /// The flow step to run next (an index into the turn's steps).
    pub step: usize,
    pub turn: u32,
    pub active: PlayerIx,
    pub order: Vec<PlayerIx>,
    /// The next simultaneous decision's ordered reveal, if a hook set one.
    pub reveal_first: Option<PlayerIx>,
    /// In a match: the game being played (from 1), each player's wins and
    /// who began this game.
    pub game_no: u32,
    pub match_wins: Vec<u32>,
    pub starter: PlayerIx,
    /// The chance that follows: the RNG seeded with `seed`, `draws` words
    /// drawn.
    pub seed: u64,
    pub draws: u128,
}

impl Position {
    /// The empty position of a game: start stats and vars, no cards, the
    /// first step of turn 1, the first player active.
    pub fn empty(game: &(impl AsDef + ?Sized)) -> Position {
        let def = game.def();
        let n = def.nplayers();
        let mut stats = vec![0; n * def.stats.len()];
        for (s, stat) in def.stats.iter().enumerate() {
            for p in 0..n {
                stats[p * def.stats.len() + s] = stat.start[p];
            }
        }
        Position {
            stats,
            vars: def.vars.iter().map(|v| v.start).collect(),
            zones: vec![Vec::new(); def.slots],
            records: vec![Vec::new(); def.slots],
            known: Vec::new(),
            step: 0,
            turn: 1,
            active: 0,
            order: (0..n).collect(),
            reveal_first: None,
            game_no: 1,
            match_wins: vec![0; n],
            starter: 0,
            seed: 0,
            draws: 0,
        }
    }

    /// Whether its sizes fit `game` (a position built by hand may not).
    fn check(&self, game: &(impl AsDef + ?Sized)) -> Result<()> {
        let def = game.def();
        let n = def.nplayers();
        let bad = |what: &str| {
            Err(Error::usage(format!(
                "the position does not fit `{}`: {what}",
                def.id
            )))
        };
        if self.stats.len() != n * def.stats.len() {
            return bad("stats");
        }
        if self.vars.len() != def.vars.len() {
            return bad("vars");
        }
        if self.zones.len() != def.slots || self.records.len() != def.slots {
            return bad("zones");
        }
        if self.step >= def.flow.len() {
            return bad("no such step");
        }
        let player = |p: PlayerIx| p < n;
        if !player(self.active)
            || !player(self.starter)
            || !self.reveal_first.is_none_or(player)
            || self.match_wins.len() != n
            || self.order.len() != n
            || !(0..n).all(|p| self.order.contains(&p))
        {
            return bad("players");
        }
        let most = |b: crate::definition::bounds::Bound| u32::try_from(b.max).unwrap_or(u32::MAX);
        if self.turn == 0
            || self.game_no == 0
            || self.turn > most(crate::definition::bounds::MAX_TURNS)
            || self.game_no > most(crate::definition::bounds::MAX_GAMES)
        {
            return bad("turn");
        }
        for (slot, cards) in self.zones.iter().enumerate() {
            let z = &def.zones[def.zone_of_slot(slot)];
            let recs = &self.records[slot];
            if !(recs.is_empty() || z.records() && recs.len() == cards.len()) {
                return bad("records");
            }
            if cards.iter().any(|&c| c as usize >= def.cards.len()) {
                return bad("cards");
            }
        }
        if !self.known.is_empty() {
            let everyone = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
            if self.known.len() != def.slots
                || (self.known.iter().zip(&self.zones)).any(|(k, z)| k.len() != z.len())
                || self.known.iter().flatten().any(|&m| m & !everyone != 0)
            {
                return bad("who knows which card");
            }
        }
        Ok(())
    }
}

impl State {
    /// A game from a position: its flow runs from the position's step to
    /// the next decision (with what happened on the way, when `logging`).
    pub fn from_position(
        game: &(impl Rules + ?Sized),
        pos: &Position,
        logging: bool,
    ) -> Result<(State, Vec<Event>)> {
        pos.check(game)?;
        let def = game.def();
        let mut rng = ChaCha8Rng::seed_from_u64(pos.seed);
        rng.set_word_pos(pos.draws);
        let records = def.zones.iter().any(|z| z.records());
        let origins = if records {
            let mut o = pos.records.clone();
            for (slot, r) in o.iter_mut().enumerate() {
                let z = &def.zones[def.zone_of_slot(slot)];
                if r.is_empty()
                    && let Some(b) = z.entry(0)
                {
                    *r = vec![b; pos.zones[slot].len()];
                }
            }
            o
        } else {
            Vec::new()
        };
        let mut state = State {
            stats: pos.stats.clone(),
            vars: pos.vars.clone(),
            zones: pos.zones.clone(),
            origins,
            known: if pos.known.iter().flatten().any(|&m| m != 0) {
                pos.known.clone()
            } else {
                Vec::new()
            },
            rng,
            forced: None,
            unshuffled: Vec::new(),
            cursor: pos.step,
            turn: pos.turn,
            active: pos.active,
            order: pos.order.clone(),
            pending: Default::default(),
            reveal_first: pos.reveal_first,
            outcome: None,
            end_reason: None,
            logging,
            game_no: pos.game_no,
            match_wins: pos.match_wins.clone(),
            starter: pos.starter,
            completed: 0,
        };
        let mut events = Vec::new();
        state.advance(game, &mut events)?;
        if def.auto_forced {
            state.play_forced(game, &mut events, &mut |_| {})?;
        }
        Ok((state, events))
    }

    /// This state as a position, with chance seeded by `seed` (the seed
    /// this state's RNG was made from: a replay's): None unless at rest
    /// (nothing pending, the game not over), as the states `new_noting`
    /// and `act_noting` hand on are. Who knows which card goes with it.
    pub fn position(&self, seed: u64) -> Option<Position> {
        if !self.pending.is_empty() || self.outcome.is_some() {
            return None;
        }
        let known = (0..self.known.len()).any(|s| self.any_known(s));
        let mut records = self.origins.clone();
        records.resize(self.zones.len(), Vec::new());
        Some(Position {
            stats: self.stats.clone(),
            vars: self.vars.clone(),
            zones: self.zones.clone(),
            records,
            known: if known {
                (0..self.zones.len())
                    .map(|s| self.known_sets(s).collect())
                    .collect()
            } else {
                Vec::new()
            },
            step: self.cursor,
            turn: self.turn,
            active: self.active,
            order: self.order.clone(),
            reveal_first: self.reveal_first,
            game_no: self.game_no,
            match_wins: self.match_wins.clone(),
            starter: self.starter,
            seed,
            draws: self.rng.get_word_pos(),
        })
    }
}
