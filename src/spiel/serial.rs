//! A state as text and back: its history in the replay format's terms,
//! as JSON: `{"game": "kuhn-poker", "history": [{"chance": 2},
//! {"moves": {"first": "bet"}}, {"sampled": 7}]}`. A move names each
//! player by id and each action by its text (as a replay's `moves`), so
//! the text outlives the ids of an open game; chance is an outcome's
//! index, or the seed a draw too large to list was made with.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::game::Spiel;
use super::state::{Entry, SpielState};
use crate::error::{Error, Illegal, Result};

impl SpielState {
    /// The state as text (`Spiel::deserialize_state` reads it back).
    pub fn serialize(&self) -> Result<String> {
        let def = self.spiel.game().def();
        let mut history = Vec::new();
        for e in self.history() {
            history.push(match e {
                Entry::Chance(i) => json!({ "chance": i }),
                Entry::Sampled(seed) => json!({ "sampled": seed }),
                Entry::Moves(moves) => {
                    let mut m = Map::new();
                    for (p, a) in moves {
                        let text = self.spiel.action_text(a)?;
                        m.insert(def.players[p].id.clone(), Value::from(&*text));
                    }
                    json!({ "moves": m })
                }
            });
        }
        Ok(json!({ "game": def.id, "history": history }).to_string())
    }
}

fn malformed(at: Option<usize>, why: impl std::fmt::Display) -> Error {
    let at = at.map_or(String::new(), |i| format!("history entry {}: ", i + 1));
    Error::illegal(Illegal::Malformed, format!("a serialised state: {at}{why}"))
}

impl Spiel {
    /// The state `serialize` wrote, replayed from the start (every step
    /// checked as `apply` checks it).
    pub fn deserialize_state(self: &Arc<Self>, text: &str) -> Result<SpielState> {
        let v: Value = serde_json::from_str(text).map_err(|e| malformed(None, e))?;
        let def = self.game().def();
        match v.get("game").and_then(Value::as_str) {
            Some(g) if g == def.id => {}
            Some(g) => {
                return Err(malformed(
                    None,
                    format!("a state of {g}, not of {}", def.id),
                ));
            }
            None => return Err(malformed(None, "no `game`")),
        }
        let Some(history) = v.get("history").and_then(Value::as_array) else {
            return Err(malformed(None, "no `history` list"));
        };
        let mut st = self.new_initial_state();
        for (i, e) in history.iter().enumerate() {
            let step = |r: Result<()>| r.map_err(|e| e.note(format!("at history entry {}", i + 1)));
            if let Some(c) = e.get("chance") {
                let Some(c) = c.as_u64().and_then(|c| usize::try_from(c).ok()) else {
                    return Err(malformed(Some(i), "`chance` is an outcome's index"));
                };
                if !st.is_chance_node() {
                    return Err(malformed(Some(i), "not a chance node there"));
                }
                step(st.apply(c))?;
            } else if let Some(s) = e.get("sampled") {
                let Some(seed) = s.as_u64() else {
                    return Err(malformed(Some(i), "`sampled` is a seed (0 or more)"));
                };
                step(st.apply_sampled(seed))?;
            } else if let Some(m) = e.get("moves").and_then(Value::as_object) {
                let mut moves = Vec::new();
                for (who, what) in m {
                    let Some(p) = def.player(who) else {
                        return Err(malformed(Some(i), format!("no player `{who}`")));
                    };
                    let Some(text) = what.as_str() else {
                        return Err(malformed(Some(i), format!("{who}'s action is not text")));
                    };
                    let a = st
                        .legal_action_id(p, text)
                        .map_err(|e| e.note(format!("at history entry {}", i + 1)))?;
                    moves.push((p, a));
                }
                step(st.apply_actions(&moves))?;
            } else {
                return Err(malformed(
                    Some(i),
                    "an entry is `chance`, `sampled` or `moves`",
                ));
            }
        }
        Ok(st)
    }
}
