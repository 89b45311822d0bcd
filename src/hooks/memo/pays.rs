//! Whether the memo pays for a hook, measured as the game runs on this
//! thread. Where positions are many (Connect Four), most calls miss, and
//! recording a long run costs more than replaying the few that hit saves;
//! where they are few (tic-tac-toe), replays win by far. So each hook
//! alternates: calls through the memo, then a short probe of plain runs,
//! and the two mean times (one call in `SAMPLE` timed) decide the next
//! stretch: the memo again, for longer each time it wins, or plain runs,
//! for longer each time it loses, then the memo tried again (its records
//! may have grown to cover the positions). Results never depend on this:
//! a replay is the run it recorded.

use std::time::Instant;

/// Memo calls in the first window, and plain calls in a probe.
const WINDOW: u32 = 1024;
const PROBE: u32 = 128;
/// One call in this many is timed.
const SAMPLE: u32 = 8;
/// The longest stretch, in windows.
const MAX_STRETCH: u32 = 64;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// Through the memo, timed.
    Memo,
    /// Plain runs, timed, to compare.
    Probe,
    /// Plain runs, untimed: the memo lost.
    Rest,
}

pub(super) struct Pays {
    phase: Phase,
    /// Calls left in this phase.
    left: u32,
    /// The next stretch's length in windows, for each outcome.
    memo_stretch: u32,
    rest_stretch: u32,
    tick: u32,
    memo: Mean,
    plain: Mean,
}

#[derive(Default)]
struct Mean {
    ns: u64,
    n: u64,
}

impl Mean {
    fn add(&mut self, ns: u64) {
        self.ns += ns;
        self.n += 1;
    }
}

/// A call as `Pays` sees it: whether it goes through the memo, and the
/// clock if it is timed.
pub(super) struct Ticket {
    pub memo: bool,
    start: Option<Instant>,
}

impl Pays {
    pub fn new() -> Pays {
        Pays {
            phase: Phase::Memo,
            left: WINDOW,
            memo_stretch: 1,
            rest_stretch: 1,
            tick: 0,
            memo: Mean::default(),
            plain: Mean::default(),
        }
    }

    /// The next call: through the memo or plain.
    pub fn start(&mut self) -> Ticket {
        self.tick = self.tick.wrapping_add(1);
        let timed = self.phase != Phase::Rest && self.tick.is_multiple_of(SAMPLE);
        Ticket {
            memo: self.phase == Phase::Memo,
            start: timed.then(Instant::now),
        }
    }

    /// The call is done: its time counted, and the phase moved on.
    pub fn end(&mut self, t: Ticket) {
        self.finish(t.start.map(|s| s.elapsed().as_nanos() as u64));
    }

    fn finish(&mut self, ns: Option<u64>) {
        if let Some(ns) = ns {
            match self.phase {
                Phase::Memo => self.memo.add(ns),
                Phase::Probe => self.plain.add(ns),
                Phase::Rest => {}
            }
        }
        self.left -= 1;
        if self.left > 0 {
            return;
        }
        match self.phase {
            Phase::Memo => {
                self.phase = Phase::Probe;
                self.left = PROBE;
            }
            Phase::Probe => {
                // Means compared without division: memo.ns/memo.n <= plain.ns/plain.n.
                let pays = self.memo.n == 0
                    || self.plain.n == 0
                    || u128::from(self.memo.ns) * u128::from(self.plain.n)
                        <= u128::from(self.plain.ns) * u128::from(self.memo.n);
                if pays {
                    self.phase = Phase::Memo;
                    self.left = WINDOW * self.memo_stretch;
                    self.memo_stretch = (self.memo_stretch * 2).min(MAX_STRETCH);
                    self.rest_stretch = 1;
                } else {
                    self.phase = Phase::Rest;
                    self.left = WINDOW * self.rest_stretch;
                    self.rest_stretch = (self.rest_stretch * 2).min(MAX_STRETCH);
                    self.memo_stretch = 1;
                }
                self.memo = Mean::default();
                self.plain = Mean::default();
            }
            Phase::Rest => {
                self.phase = Phase::Memo;
                self.left = WINDOW;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Drive `calls` calls whose memo and plain times are given: how many
    /// went through the memo.
    fn run(calls: u32, memo_ns: u64, plain_ns: u64) -> u32 {
        let mut p = Pays::new();
        let mut through = 0;
        for _ in 0..calls {
            let t = p.start();
            through += u32::from(t.memo);
            // Stand in for the clock: the time the call would take.
            let ns = if t.memo { memo_ns } else { plain_ns };
            p.finish(t.start.is_some().then_some(ns));
        }
        through
    }

    #[test]
    fn a_memo_that_pays_is_kept_and_one_that_costs_is_mostly_left() {
        let calls = 200_000;
        let kept = run(calls, 100, 1_000);
        assert!(kept > calls * 95 / 100, "{kept}");
        let left = run(calls, 1_000, 100);
        assert!(left < calls * 15 / 100, "{left}");
    }
}
