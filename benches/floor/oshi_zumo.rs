//! examples/oshi-zumo's hooks in plain Rust: the same asks, options and
//! moves as its script, so a seed plays the same game both ways.

use std::sync::Arc;

use tabula::core::ops::{Read, Write};
use tabula::core::{Args, Ask, Call, Choice, Choices, Datum, Hooks, Value};
use tabula::{Def, Event, Outcome, State};

use super::{no_hook, unit_text};

pub struct OshiZumo {
    size: i64,
    horizon: i64,
    min_bid: i64,
    coins: usize,
    nstats: usize,
    wrestler: usize,
    /// `numbers[n]`: the option `n` (0 to the most coins a player holds).
    numbers: Vec<Choice>,
    texts: [Arc<str>; 2],
}

impl OshiZumo {
    pub fn new(def: &Def) -> OshiZumo {
        let param = |id: &str| def.param(id).expect("param").value;
        let numbers = (0..=param("coins"))
            .map(|n| {
                Choice::Data(Arc::new(Datum {
                    text: n.to_string().into(),
                    value: Value::Int(n),
                }))
            })
            .collect();
        OshiZumo {
            size: param("size"),
            horizon: param("horizon"),
            min_bid: param("min_bid"),
            coins: def.stat("coins").expect("coins"),
            nstats: def.stats.len(),
            wrestler: def.var("wrestler").expect("wrestler"),
            numbers,
            texts: [unit_text("bid"), unit_text("push")],
        }
    }

    fn coins(&self, state: &State, p: usize) -> i64 {
        state
            .peek_int(&Read::Stat((p * self.nstats + self.coins) as u32))
            .expect("a stat")
    }

    fn bid(choice: &Choice) -> i64 {
        match choice {
            Choice::Data(d) => match d.value {
                Value::Int(n) => n,
                _ => unreachable!("bids are numbers"),
            },
            _ => unreachable!("bids are numbers"),
        }
    }
}

impl Hooks for OshiZumo {
    fn run(&self, state: &mut State, call: &Call, _: &mut Vec<Event>) -> tabula::Result<()> {
        match (call.hook, call.args) {
            ("ask_bids", _) => {
                let bids = (0..2).map(|p| -> Choices {
                    let coins = self.coins(state, p);
                    if coins < self.min_bid {
                        vec![self.numbers[coins as usize].clone()].into()
                    } else {
                        self.numbers[self.min_bid as usize..=coins as usize].into()
                    }
                });
                let options = bids.collect();
                state.write(&Write::Ask(Arc::new(Ask {
                    name: self.texts[0].clone(),
                    prompt: self.texts[0].clone(),
                    players: [0, 1].into_iter().collect(),
                    options,
                    then: self.texts[1].clone(),
                    labels: Vec::new(),
                    data: Value::Unit,
                    secret: false,
                    pick: None,
                })));
            }
            ("push", Args::Choices(_, choices, _)) => {
                let bid = |i: usize| Self::bid(choices[i].as_ref().expect("a bid"));
                let (w, e) = (bid(0), bid(1));
                state.write(&Write::AddStat(self.coins, -w));
                state.write(&Write::AddStat(self.nstats + self.coins, -e));
                let mut at = state.var(self.wrestler);
                at += (w > e) as i64 - (e > w) as i64;
                state.write(&Write::SetVar(self.wrestler, at));
                let edge = self.size + 1;
                let end = |state: &mut State, o: Outcome| state.write(&Write::End(o, None));
                if at >= edge {
                    end(state, Outcome::Win(0));
                } else if at <= -edge {
                    end(state, Outcome::Win(1));
                } else if self.coins(state, 0) == 0 && self.coins(state, 1) == 0
                    || i64::from(state.turn()) >= self.horizon
                {
                    end(
                        state,
                        match at.signum() {
                            1 => Outcome::Win(0),
                            -1 => Outcome::Win(1),
                            _ => Outcome::Draw,
                        },
                    );
                }
            }
            _ => return no_hook(call),
        }
        Ok(())
    }

    fn defines(&self, name: &str, _arity: usize) -> bool {
        matches!(name, "ask_bids" | "push")
    }
}
