//! A position's worth to the first player of a two-player game, with the
//! chances of each result: what solvers and evaluators report.

use serde::{Deserialize, Serialize};

use crate::core::{Outcome, State};
use crate::game::Game;

/// A position's worth: the first player's payoff, and the chances of each
/// result under the equilibrium found.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Worth {
    pub value: f64,
    pub win: f64,
    pub draw: f64,
    pub loss: f64,
}

impl Worth {
    pub(crate) const ZERO: Worth = Worth {
        value: 0.0,
        win: 0.0,
        draw: 0.0,
        loss: 0.0,
    };

    /// An ended game's worth: the first player's payoff (half the margin of
    /// a declared payoff stat: their return in a zero-sum game), and the
    /// result.
    pub(crate) fn at(game: &Game, st: &State) -> Worth {
        let mut w = Worth::of(st.outcome());
        if let Some(r) = st.payoff(game) {
            w.value = (r[0] - r.get(1).copied().unwrap_or(0)) as f64 / 2.0;
        }
        // Half the margin of the returns (`tree::returns`), worked out
        // here without a list: this runs at every leaf of every solve.
        debug_assert!({
            let r = super::tree::returns(game, st);
            (w.value - (r[0] - r.get(1).copied().unwrap_or(0.0)) / 2.0).abs() < 1e-9
        });
        w
    }
    pub(crate) fn of(outcome: Option<Outcome>) -> Worth {
        match outcome {
            Some(Outcome::Win(0)) => Worth {
                value: 1.0,
                win: 1.0,
                draw: 0.0,
                loss: 0.0,
            },
            Some(Outcome::Win(_)) => Worth {
                value: -1.0,
                win: 0.0,
                draw: 0.0,
                loss: 1.0,
            },
            _ => Worth {
                value: 0.0,
                win: 0.0,
                draw: 1.0,
                loss: 0.0,
            },
        }
    }
    pub(crate) fn mix(parts: impl Iterator<Item = (f64, Worth)>) -> Worth {
        let mut w = Worth {
            value: 0.0,
            win: 0.0,
            draw: 0.0,
            loss: 0.0,
        };
        for (p, x) in parts {
            w.value += p * x.value;
            w.win += p * x.win;
            w.draw += p * x.draw;
            w.loss += p * x.loss;
        }
        w
    }
}
