//! What a player knows at a state, as OpenSpiel asks for it: an
//! observation string (what they see now), an information-state string
//! (perfect recall: what they saw at every position along the line, and
//! their own actions), and a tensor of numbers derived from the view,
//! whose shape is fixed for a game and its parameters.

use super::state::{At, Entry, SpielState};
use crate::analysis::tree;
use crate::core::State;
use crate::definition::PlayerIx;
use crate::definition::format::Per;
use crate::error::Result;
use crate::game::Game;
use crate::text::view::{self, ZoneView};

/// One named part of the tensor, in order: its shape (its numbers are
/// the product, in row-major order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub name: String,
    pub shape: Vec<usize>,
}

impl Segment {
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }
}

/// The tensor's parts: `player` (the viewer, one-hot), `to_move` (who
/// chooses now, one-hot each), `over`, `turn`, `stats` (player x stat),
/// `vars`, then a plane per zone: `zone:ID` of places x (each card's
/// count seen there, then the count of cards there the viewer cannot
/// see); a grid's zone is rows x columns x (cards + 1).
pub fn layout(game: &Game) -> Vec<Segment> {
    let def = game.def();
    let n = def.nplayers();
    let cards = def.cards.len() + 1;
    let seg = |name: &str, shape: Vec<usize>| Segment {
        name: name.to_string(),
        shape,
    };
    let mut out = vec![
        seg("player", vec![n]),
        seg("to_move", vec![n]),
        seg("over", vec![1]),
        seg("turn", vec![1]),
        seg("stats", vec![n, def.stats.len()]),
        seg("vars", vec![def.vars.len()]),
    ];
    for (z, zone) in def.zones.iter().enumerate() {
        let shape = match (&def.grid, zone.per) {
            (Some(g), Per::Cell) => vec![g.rows, g.columns, cards],
            _ => vec![def.owners(z).len(), cards],
        };
        out.push(seg(&format!("zone:{}", zone.id), shape));
    }
    out
}

/// What `p` sees at `st`, in one line: the cards (`tree::label`), every
/// stat and var, the turn, who chooses now, and the end.
pub(super) fn observation(game: &Game, st: &State, p: PlayerIx) -> String {
    let def = game.def();
    let mut out = tree::label(game, st, p);
    out.push_str(" |");
    for (q, pl) in def.players.iter().enumerate() {
        for (s, stat) in def.stats.iter().enumerate() {
            out.push_str(&format!(" {}.{}={}", pl.id, stat.id, st.stat(game, q, s)));
        }
    }
    out.push_str(" |");
    for (v, var) in def.vars.iter().enumerate() {
        out.push_str(&format!(" {}={}", var.id, st.var(v)));
    }
    out.push_str(&format!(" | turn {}", st.turn()));
    match st.outcome() {
        Some(crate::core::Outcome::Win(w)) => {
            out.push_str(&format!(" | won by {}", def.players[w].id))
        }
        Some(crate::core::Outcome::Draw) => out.push_str(" | drawn"),
        None => {
            let waiting: Vec<&str> = (st.waiting().into_iter())
                .map(|w| def.players[w].id.as_str())
                .collect();
            out.push_str(&format!(" | to move: {}", waiting.join(" ")));
            if let Some(d) = st.decision() {
                out.push_str(&format!(" ({})", d.name));
            }
        }
    }
    out
}

impl SpielState {
    /// What `player` sees now, as a string (empty before the start).
    pub fn observation_string(&self, player: PlayerIx) -> Result<String> {
        self.spiel.check_player(player)?;
        Ok(match self.position() {
            Some(st) => observation(self.spiel.game(), st, player),
            None => String::new(),
        })
    }

    /// What `player` knows now: what they saw at each position along the
    /// line, and each action of theirs (`> bet`), separated by ` / `.
    /// Equal for two states exactly when the player cannot tell them
    /// apart (perfect recall).
    pub fn information_state_string(&self, player: PlayerIx) -> Result<String> {
        self.spiel.check_player(player)?;
        let game = self.spiel.game();
        let mut steps = Vec::new();
        let mut at = Some(&self.step);
        while let Some(s) = at {
            steps.push(s);
            at = s.parent.as_ref();
        }
        let mut parts = Vec::new();
        for s in steps.into_iter().rev() {
            if let Some(Entry::Moves(moves)) = &s.by {
                for &(q, a) in moves {
                    if q == player {
                        parts.push(format!("> {}", self.spiel.action_text(a)?));
                    }
                }
            }
            if let At::Rest(st, _) = &*s.at {
                parts.push(observation(game, st, player));
            }
        }
        Ok(parts.join(" / "))
    }

    /// The tensor's parts and shapes (`layout`): the same for every state
    /// of a game.
    pub fn tensor_layout(&self) -> Vec<Segment> {
        layout(self.spiel.game())
    }

    /// `player`'s observation as numbers, from their view (`view::view`),
    /// laid out as `tensor_layout` says.
    pub fn observation_tensor(&self, player: PlayerIx) -> Result<Vec<f32>> {
        self.spiel.check_player(player)?;
        let game = self.spiel.game();
        let def = game.def();
        let n = def.nplayers();
        let size: usize = layout(game).iter().map(Segment::size).sum();
        let mut out = Vec::with_capacity(size);
        let one_hot = |who: &[PlayerIx], out: &mut Vec<f32>| {
            out.extend((0..n).map(|q| f32::from(u8::from(who.contains(&q)))));
        };
        one_hot(&[player], &mut out);
        let Some(st) = self.position() else {
            out.resize(size, 0.0);
            return Ok(out);
        };
        let to_move = match self.current() {
            super::Current::One(p) => vec![p],
            super::Current::Simultaneous(ps) => ps,
            _ => Vec::new(),
        };
        one_hot(&to_move, &mut out);
        let v = view::view(game, st, Some(player))?;
        out.push(f32::from(u8::from(v.over)));
        out.push(v.turn as f32);
        for pl in &def.players {
            for stat in &def.stats {
                let x = v.players.get(&pl.id).and_then(|s| s.get(&stat.id));
                out.push(x.map_or(0.0, |&x| x as f32));
            }
        }
        for var in &def.vars {
            out.push(v.vars.get(&var.id).map_or(0.0, |&x| x as f32));
        }
        let cards = def.cards.len() + 1;
        for (z, zone) in def.zones.iter().enumerate() {
            let places = v.zones.get(&zone.id);
            for o in def.owners(z) {
                let key = match (zone.per, &def.grid) {
                    (Per::Player, _) => def.players[o].id.as_str(),
                    (Per::Cell, Some(g)) => g.names[o].as_str(),
                    _ => "",
                };
                let start = out.len();
                out.resize(start + cards, 0.0);
                let plane = &mut out[start..];
                let mut count = |id: Option<&String>| match id.and_then(|i| def.card(i)) {
                    Some(c) => plane[c as usize] += 1.0,
                    None => plane[cards - 1] += 1.0,
                };
                match places.and_then(|p| p.get(key)) {
                    Some(ZoneView::Cards(ids)) => ids.iter().for_each(|i| count(Some(i))),
                    Some(ZoneView::Faces(ids)) => ids.iter().for_each(|i| count(i.as_ref())),
                    Some(ZoneView::Count { count: k }) => plane[cards - 1] += *k as f32,
                    Some(ZoneView::Known { count: k, known }) => {
                        known.iter().for_each(|i| count(Some(i)));
                        plane[cards - 1] += k.saturating_sub(known.len()) as f32;
                    }
                    None => {}
                }
            }
        }
        Ok(out)
    }
}
