//! tests/reference/games/pig's hooks in plain Rust: the same asks, options
//! and draws as its script, so a seed plays the same game both ways.

use std::sync::Arc;

use tabula::core::ops::{Read, Write};
use tabula::core::{Args, Ask, Call, Choice, Choices, Hooks, Value};
use tabula::{Def, Event, Outcome, State};

use super::{choice_of, no_hook, unit_text};

pub struct Pig {
    target: i64,
    horizon: i64,
    sides: u64,
    score: usize,
    nstats: usize,
    turn_total: usize,
    decisions: usize,
    roll_or_stop: Choices,
    stop_only: Choices,
    texts: [Arc<str>; 2],
    reasons: [Arc<str>; 2],
}

impl Pig {
    pub fn new(def: &Def) -> Pig {
        let param = |id: &str| def.param(id).expect("param").value;
        let word = |w: &str| Choice::Word(Arc::from(w));
        Pig {
            target: param("target"),
            horizon: param("horizon"),
            sides: param("sides") as u64,
            score: def.stat("score").expect("score"),
            nstats: def.stats.len(),
            turn_total: def.var("turn_total").expect("turn_total"),
            decisions: def.var("decisions").expect("decisions"),
            roll_or_stop: vec![word("roll"), word("stop")].into(),
            stop_only: vec![word("stop")].into(),
            texts: [unit_text("move"), unit_text("moved")],
            reasons: [unit_text("reached the target"), unit_text("the horizon")],
        }
    }

    fn score(&self, state: &State, p: usize) -> i64 {
        state
            .peek_int(&Read::Stat((p * self.nstats + self.score) as u32))
            .expect("a stat")
    }
}

impl Hooks for Pig {
    fn run(&self, state: &mut State, call: &Call, _: &mut Vec<Event>) -> tabula::Result<()> {
        match (call.hook, call.args) {
            ("decide", _) => {
                let p = state.active();
                let options = if self.score(state, p) + state.var(self.turn_total) >= self.target {
                    self.stop_only.clone()
                } else {
                    self.roll_or_stop.clone()
                };
                state.write(&Write::Ask(Arc::new(Ask {
                    name: self.texts[0].clone(),
                    prompt: self.texts[0].clone(),
                    players: [p].into_iter().collect(),
                    options: [options].into_iter().collect(),
                    then: self.texts[1].clone(),
                    labels: Vec::new(),
                    data: Value::Unit,
                    secret: false,
                    pick: None,
                })));
            }
            ("moved", Args::Choices(players, choices, _)) => {
                let p = players[0];
                let stop = choice_of(choices, 0) == &self.stop_only[0];
                state.write(&Write::AddVar(self.decisions, 1));
                if stop {
                    let total = state.var(self.turn_total);
                    state.write(&Write::AddStat(p * self.nstats + self.score, total));
                    state.write(&Write::SetVar(self.turn_total, 0));
                    if self.score(state, p) >= self.target {
                        state.write(&Write::End(Outcome::Win(p), Some(self.reasons[0].clone())));
                        return Ok(());
                    }
                    state.write(&Write::SetActive(1 - p));
                }
                if state.var(self.decisions) >= self.horizon {
                    state.write(&Write::End(Outcome::Draw, Some(self.reasons[1].clone())));
                    return Ok(());
                }
                if !stop {
                    let face = state.random_below(self.sides) as i64 + 1;
                    if face == 1 {
                        state.write(&Write::SetVar(self.turn_total, 0));
                        state.write(&Write::SetActive(1 - p));
                    } else {
                        state.write(&Write::AddVar(self.turn_total, face));
                    }
                }
            }
            _ => return no_hook(call),
        }
        Ok(())
    }

    fn defines(&self, name: &str, _arity: usize) -> bool {
        matches!(name, "decide" | "moved")
    }
}
