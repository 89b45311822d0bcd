//! Whether the memo pays for a hook, measured as the game runs on this
//! thread, once the hook has missed often (before, it is trusted). Where positions are many (Connect Four), most calls miss, and
//! recording a long run costs more than replaying the few that hit saves;
//! where they are few (tic-tac-toe), replays win by far. So each hook
//! alternates: calls through the memo, then a short probe of plain runs,
//! and the two mean times (one call in `SAMPLE` timed) decide the next
//! stretch: the memo again, for longer each time it wins, or plain runs,
//! for longer each time it loses, then the memo tried again (its records
//! may have grown to cover the positions). Results never depend on this:
//! a replay is the run it recorded.

use std::time::Instant;

/// Memo calls in a window (the first, filling the records, is not
/// judged), and plain calls in a probe (each
/// timed: plain runs are the slow ones, so a probe is kept short).
const WINDOW: u32 = 1024;
const PROBE: u32 = 16;
/// One memo call in this many is timed.
const SAMPLE: u32 = 32;
/// A memo that wins runs long enough that its next probe costs about
/// this share of its time or less: `PROBE * plain / memo * SPAN` calls.
const SPAN: u64 = 64;
/// The longest stretch, in windows, and the longest memo stretch, in
/// calls.
const MAX_STRETCH: u32 = 64;
const MAX_CALLS: u64 = 1 << 30;
/// Script runs through the memo before a hook is measured at all: a
/// hook whose records settle within them (most hooks of small games)
/// pays no clock.
const TRUST_MISSES: u32 = 4096;

/// Where a hook's positions are many (Connect Four), most calls miss,
/// and tracing and recording every miss cost more than the few replays
/// save. So once a hook has missed `SPARSE_AFTER` times with fewer than
/// one call in `SPARSE_SHARE` a hit, only one miss in `SPARSE` is traced
/// and recorded, until the hits come back to that share. What is
/// recorded still replays, and records still grow where the positions
/// are few, only slower. Counted in calls, not time: a run records the
/// same runs each time.
const SPARSE_AFTER: u64 = 512;
const SPARSE_SHARE: u64 = 3;
const SPARSE: u64 = 8;

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
    /// Not measured yet: few runs missed.
    trusted: bool,
    misses: u32,
    phase: Phase,
    /// Calls left in this phase.
    left: u64,
    /// Phases so far (a sample from an earlier one is dropped).
    epoch: u32,
    /// The next stretch's length in windows, for each outcome.
    memo_stretch: u32,
    rest_stretch: u32,
    tick: u32,
    memo: Mean,
    plain: Mean,
    /// Calls through the memo that replayed, and that missed.
    hits: u64,
    missed: u64,
}

#[derive(Default)]
struct Mean {
    ns: u64,
    n: u64,
}

impl Mean {
    fn add(&mut self, ns: u64) {
        self.ns = self.ns.saturating_add(ns);
        self.n += 1;
    }
}

/// A call as `Pays` sees it: whether it goes through the memo, and the
/// clock if it is timed.
pub(super) struct Ticket {
    pub memo: bool,
    start: Option<(Instant, u32)>,
}

impl Ticket {
    /// Whether `Pays::end` wants to hear of the call.
    pub fn timed(&self) -> bool {
        self.start.is_some()
    }
}

impl Pays {
    pub fn new() -> Pays {
        Pays {
            trusted: true,
            misses: 0,
            phase: Phase::Memo,
            left: u64::from(WINDOW),
            epoch: 0,
            memo_stretch: 1,
            rest_stretch: 1,
            tick: 0,
            memo: Mean::default(),
            plain: Mean::default(),
            hits: 0,
            missed: 0,
        }
    }

    /// The next call: through the memo or plain, timed or not.
    pub fn start(&mut self) -> Ticket {
        if self.trusted {
            return Ticket {
                memo: true,
                start: None,
            };
        }
        if self.left == 0 {
            self.next_phase();
        }
        self.left -= 1;
        self.tick = self.tick.wrapping_add(1);
        let timed = match self.phase {
            Phase::Memo => self.tick.is_multiple_of(SAMPLE),
            Phase::Probe => true,
            Phase::Rest => false,
        };
        Ticket {
            memo: self.phase == Phase::Memo,
            start: timed.then(|| (Instant::now(), self.epoch)),
        }
    }

    /// A call through the memo replayed a record.
    pub fn hit(&mut self) {
        self.hits += 1;
    }

    /// A call through the memo missed: whether its run is to be recorded
    /// (see `SPARSE`).
    pub fn records(&mut self) -> bool {
        self.missed += 1;
        let calls = self.hits + self.missed;
        self.missed < SPARSE_AFTER
            || self.hits * SPARSE_SHARE >= calls
            || self.missed.is_multiple_of(SPARSE)
    }

    /// A call through the memo ran the script.
    pub fn missed(&mut self) {
        if self.trusted {
            self.misses += 1;
            self.trusted = self.misses < TRUST_MISSES;
        }
    }

    /// A timed call is done: its time counted.
    pub fn end(&mut self, t: Ticket) {
        if let Some((s, epoch)) = t.start {
            self.count(epoch, s.elapsed().as_nanos() as u64);
        }
    }

    fn count(&mut self, epoch: u32, ns: u64) {
        if epoch != self.epoch {
            return;
        }
        match self.phase {
            Phase::Memo => self.memo.add(ns),
            Phase::Probe => self.plain.add(ns),
            Phase::Rest => {}
        }
    }

    fn next_phase(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        match self.phase {
            // The first window fills the records: a cost paid once, not
            // judged.
            Phase::Memo if self.epoch == 1 => {
                self.memo = Mean::default();
                self.left = u64::from(WINDOW);
            }
            Phase::Memo => {
                self.phase = Phase::Probe;
                self.left = u64::from(PROBE);
            }
            Phase::Probe => {
                let (memo, plain) = (&self.memo, &self.plain);
                // Means compared without division, with a margin for the
                // memo (its records grow more useful as they grow):
                // memo.ns/memo.n <= 5/4 * plain.ns/plain.n.
                let pays = memo.n == 0
                    || plain.n == 0
                    || 4 * u128::from(memo.ns) * u128::from(plain.n)
                        <= 5 * u128::from(plain.ns) * u128::from(memo.n);
                if pays {
                    // How many memo calls one plain run costs.
                    let ratio = (u128::from(plain.ns) * u128::from(memo.n.max(1))
                        / u128::from(memo.ns.max(1) * plain.n.max(1)))
                    .min(u128::from(MAX_CALLS)) as u64;
                    let calls = (u64::from(PROBE) * ratio * SPAN).max(u64::from(WINDOW));
                    self.phase = Phase::Memo;
                    self.left = (calls * u64::from(self.memo_stretch)).min(MAX_CALLS);
                    self.memo_stretch = (self.memo_stretch * 2).min(MAX_STRETCH);
                    self.rest_stretch = 1;
                } else {
                    self.phase = Phase::Rest;
                    self.left = u64::from(WINDOW * self.rest_stretch);
                    self.rest_stretch = (self.rest_stretch * 2).min(MAX_STRETCH);
                    self.memo_stretch = 1;
                }
                self.memo = Mean::default();
                self.plain = Mean::default();
            }
            Phase::Rest => {
                self.phase = Phase::Memo;
                self.left = u64::from(WINDOW);
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
        for _ in 0..TRUST_MISSES {
            p.missed();
        }
        let mut through = 0;
        for _ in 0..calls {
            let t = p.start();
            through += u32::from(t.memo);
            // Stand in for the clock: the time the call would take.
            if let Some((_, epoch)) = t.start {
                p.count(epoch, if t.memo { memo_ns } else { plain_ns });
            }
        }
        through
    }

    /// Misses recorded of `calls` calls through the memo, one in `every`
    /// a hit.
    fn recorded(calls: u64, every: u64) -> u64 {
        let mut p = Pays::new();
        let mut n = 0;
        for i in 1..=calls {
            if i % every == 0 {
                p.hit();
            } else if p.records() {
                n += 1;
            }
        }
        n
    }

    #[test]
    fn a_hook_whose_replays_seldom_hit_records_one_miss_in_several() {
        // One hit in five calls: past the first misses, one in eight.
        let seldom = recorded(20_000, 5);
        let misses = 16_000;
        assert!(seldom < SPARSE_AFTER + misses / SPARSE + 1, "{seldom}");
        assert!(
            seldom >= SPARSE_AFTER + (misses - SPARSE_AFTER) / SPARSE,
            "{seldom}"
        );
        // One hit in two: every miss.
        assert_eq!(recorded(20_000, 2), 10_000);
        // No more than `SPARSE_AFTER` misses: all, whatever the hits.
        assert_eq!(recorded(SPARSE_AFTER, u64::MAX), SPARSE_AFTER);
    }

    #[test]
    fn a_memo_that_pays_is_kept_and_one_that_costs_is_mostly_left() {
        let calls = 200_000;
        let kept = run(calls, 100, 1_000);
        assert!(kept > calls * 99 / 100, "{kept}");
        let left = run(calls, 1_000, 100);
        assert!(left < calls * 15 / 100, "{left}");
    }
}
