#![allow(clippy::needless_range_loop)] // seats 0 and 1 index several arrays at once
//! An independent implementation of the BraveRats rules (B1-B11), written
//! from shared/rules/braverats.md without the engine or the script, to check
//! what the engine computes. Cards are their strengths 0-7.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Oracle {
    pub to_win: i64,
    pub victories: [i64; 2],
    pub held: i64,
    pub bonus: [i64; 2],
    /// The seat that must reveal first next round (Spy).
    pub first: Option<usize>,
    /// None: going on; Some(Some(i)): seat i won; Some(None): a draw.
    pub over: Option<Option<usize>>,
    pub hands: [Vec<u8>; 2],
}

/// What one round did, for the readable table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Round {
    Hold,
    Win { seat: usize, gain: i64 },
    Game { seat: usize },
}

pub const MUSICIAN: u8 = 0;
pub const PRINCESS: u8 = 1;
pub const SPY: u8 = 2;
pub const ASSASSIN: u8 = 3;
pub const AMBASSADOR: u8 = 4;
pub const WIZARD: u8 = 5;
pub const GENERAL: u8 = 6;
pub const PRINCE: u8 = 7;

impl Oracle {
    pub fn new(to_win: i64) -> Oracle {
        Oracle {
            to_win,
            victories: [0, 0],
            held: 0,
            bonus: [0, 0],
            first: None,
            over: None,
            hands: [(0..8).collect(), (0..8).collect()],
        }
    }

    /// Seat i's power works this round: no Wizard against it (B8), and not
    /// a pair of Princes or Spies (B5, B10).
    fn works(c: [u8; 2], i: usize) -> bool {
        let twin_cancel = c[0] == c[1] && (c[0] == PRINCE || c[0] == SPY);
        c[1 - i] != WIZARD && !twin_cancel
    }

    pub fn round(&mut self, c: [u8; 2]) -> Round {
        assert!(self.over.is_none(), "round after the end");
        for i in 0..2 {
            let at = self.hands[i]
                .iter()
                .position(|&x| x == c[i])
                .expect("card in hand");
            self.hands[i].remove(at);
        }
        let s = [c[0] as i64 + self.bonus[0], c[1] as i64 + self.bonus[1]];
        self.bonus = [0, 0];
        self.first = None;
        let w = |i| Oracle::works(c, i);

        let result = if (0..2).any(|i| c[i] == MUSICIAN && w(i)) {
            Round::Hold
        } else if let Some(i) = (0..2).find(|&i| c[i] == PRINCESS && c[1 - i] == PRINCE) {
            Round::Game { seat: i }
        } else if let Some(i) = (0..2).find(|&i| c[i] == PRINCE && w(i)) {
            Round::Win { seat: i, gain: 0 }
        } else if s[0] == s[1] {
            Round::Hold
        } else {
            let higher = if s[0] > s[1] { 0 } else { 1 };
            let assassin = (0..2).any(|i| c[i] == ASSASSIN && w(i));
            Round::Win {
                seat: if assassin { 1 - higher } else { higher },
                gain: 0,
            }
        };
        let result = match result {
            Round::Win { seat, .. } => {
                let gain = if c[seat] == AMBASSADOR && w(seat) {
                    2
                } else {
                    1
                } + self.held;
                self.held = 0;
                self.victories[seat] += gain;
                if self.victories[seat] >= self.to_win {
                    self.over = Some(Some(seat));
                }
                Round::Win { seat, gain }
            }
            Round::Hold => {
                self.held += 1;
                Round::Hold
            }
            Round::Game { seat } => {
                self.over = Some(Some(seat));
                Round::Game { seat }
            }
        };
        if self.over.is_none() {
            for i in 0..2 {
                if c[i] == GENERAL && w(i) {
                    self.bonus[i] = 2;
                }
                if c[i] == SPY && w(i) {
                    self.first = Some(1 - i);
                }
            }
            if self.hands[0].is_empty() {
                self.over = Some(None);
            }
        }
        result
    }
}
