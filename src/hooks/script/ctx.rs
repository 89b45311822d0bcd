//! What a running hook can reach: the definition, its log and budgets, and
//! the state behind a door (the caller's own, reached through a pointer
//! while the run lasts: nothing is moved or copied to lend it). The state
//! is private to this file, so every
//! API function reaches it through `read` and `write` (traced for the
//! memo) or through a chance draw (which marks the run as not replayable):
//! the memo's rule, "a hook reaches the state only through the
//! operations", is a type, not a convention.

use std::sync::Arc;

use super::{Fallible, Keys};
use crate::core::ops::{Op, Read, Val, Write};
use crate::core::{Event, State};
use crate::definition::Def;

/// A recorded run's first room for operations: most runs fit, and one that
/// reads a board cell by cell grows it a few times, not many.
const TRACE_ROOM: usize = 32;

pub(crate) struct Ctx {
    pub def: Arc<Def>,
    pub keys: Arc<Keys>,
    /// The running hook's state, lent by `begin` until `end` or `abandon`
    /// (null between runs). Only `st` and `st_mut` reach it, and only
    /// while `live`.
    state: *mut State,
    pub events: Vec<Event>,
    /// The reads and writes of this run, when it is being recorded.
    trace: Option<Vec<Op>>,
    /// What this run has logged and asked so far, against its budgets.
    pub spent: Spent,
    /// Waiting piles of `unordered` zones whose order this run drew: they
    /// wait again when it ends (their order never matters to the rules).
    rewait: Vec<usize>,
    /// Between `begin` and `end`.
    live: bool,
}

/// A hook run's use of the budgets that keep a runaway script from filling
/// memory before the operation limit stops it.
#[derive(Default)]
pub(crate) struct Spent {
    pub log_bytes: usize,
    pub options: usize,
}

impl Ctx {
    /// A thread's context before its first run.
    pub fn idle(def: Arc<Def>, keys: Arc<Keys>) -> Ctx {
        Ctx {
            def,
            keys,
            state: std::ptr::null_mut(),
            events: Vec::new(),
            trace: None,
            spent: Spent::default(),
            rewait: Vec::new(),
            live: false,
        }
    }

    /// Whether a run is under way (the API works only then).
    #[inline(always)]
    pub fn live(&self) -> bool {
        self.live
    }

    /// The running hook's state.
    #[inline(always)]
    fn st(&self) -> &State {
        assert!(!self.state.is_null(), "no hook runs");
        // SAFETY: while `live`, `state` is the `&mut State` that `begin`
        // was given, which the caller (`Lent`) holds unused until `end` or
        // `abandon` clears `live`; the API reaches a context only while it
        // is live (`with_ctx`), one borrow of the context at a time.
        unsafe { &*self.state }
    }

    #[inline(always)]
    fn st_mut(&mut self) -> &mut State {
        assert!(!self.state.is_null(), "no hook runs");
        // SAFETY: as `st`; `&mut self` is the only way to it.
        unsafe { &mut *self.state }
    }

    /// A run on `state`, lent until `end` or `abandon` (the caller holds
    /// the borrow it came from, unused, until then: `Lent`); with
    /// `record`, its operations are traced.
    pub fn begin(
        &mut self,
        def: &Arc<Def>,
        keys: &Arc<Keys>,
        state: *mut State,
        events: Vec<Event>,
        record: bool,
    ) {
        // One run at a time on a thread: a run begun inside another would
        // end the outer's context with its own (nothing nests today).
        debug_assert!(!self.live, "a hook run began inside another on this thread");
        // The same game's as the last run on this thread, nearly always:
        // no count to raise and lower.
        if !Arc::ptr_eq(&self.def, def) {
            self.def = def.clone();
        }
        if !Arc::ptr_eq(&self.keys, keys) {
            self.keys = keys.clone();
        }
        self.state = state;
        self.events = events;
        self.trace = record.then(|| Vec::with_capacity(TRACE_ROOM));
        self.spent = Spent::default();
        self.rewait.clear();
        self.live = true;
    }

    /// The run's end: the state given back (every waiting pile drawn, so
    /// that a position holds its cards in an order, but for those of
    /// `unordered` zones, which stay sets), and its events and trace
    /// (None if it drew from the RNG).
    pub fn end(&mut self) -> (Vec<Event>, Option<Vec<Op>>) {
        assert!(!self.state.is_null(), "no hook runs");
        // SAFETY: as `st_mut` (the run is live until below).
        let state = unsafe { &mut *self.state };
        state.settle_all(&*self.def);
        for s in self.rewait.drain(..) {
            state.shuffle_later(s);
        }
        self.state = std::ptr::null_mut();
        self.live = false;
        (std::mem::take(&mut self.events), self.trace.take())
    }

    /// A run given up (it panicked): the state given back as it stands,
    /// and the run's events and trace dropped.
    pub fn abandon(&mut self) {
        self.state = std::ptr::null_mut();
        self.live = false;
        self.events.clear();
        self.trace = None;
    }

    /// Read the state (recorded for the memo).
    pub fn read(&mut self, key: Read) -> Val {
        let mut one_drawn = None;
        if self.st().any_waiting() {
            one_drawn = self.settle_read(&key);
        }
        let v = self.st_mut().read(&key);
        if let Some(s) = one_drawn {
            self.st_mut().shuffle_later(s);
        }
        if let Some(t) = &mut self.trace {
            t.push(Op::Read(key, v.clone()));
        }
        v
    }

    pub fn read_int(&mut self, key: Read) -> i64 {
        // Nothing to trace and no pile waiting: straight from the state.
        if self.trace.is_none()
            && !self.st().any_waiting()
            && let Some(i) = self.st().peek_int(&key)
        {
            return i;
        }
        match self.read(key) {
            Val::Int(i) => i,
            Val::Cards(c) => c.len() as i64,
        }
    }

    /// A zone's cards where they lie, when nothing is traced and no pile
    /// waits (else None: `read` them).
    pub fn untraced_cards(&self, slot: usize) -> Option<&[crate::definition::CardIx]> {
        (self.trace.is_none() && !self.st().any_waiting()).then(|| self.st().slot(slot))
    }

    /// A zone's cards where they lie, untraced: only for an error's text
    /// (the run fails with it, so nothing replays the look).
    pub fn peek_cards(&self, slot: usize) -> &[crate::definition::CardIx] {
        self.st().slot(slot)
    }

    /// Change the state (recorded for the memo).
    pub fn write(&mut self, w: Write) -> Fallible<()> {
        if self.st().any_waiting() {
            self.settle_write(&w);
        }
        if !self.st_mut().write(&w) {
            let why = match &w {
                Write::AddStat(..) => "add_stat: the stat would leave the 64-bit integer range",
                Write::AddVar(..) => "add_var: the var would leave the 64-bit integer range",
                Write::MoveCard { .. } => "move_card: the card is not in that zone",
                _ => "the change cannot apply to this state",
            };
            return Err(why.into());
        }
        if let Some(t) = &mut self.trace {
            t.push(Op::Write(w));
        }
        Ok(())
    }

    /// A uniform draw in `0..n` from the game's RNG, recorded as a read
    /// (a replay draws it the same way and branches on the number).
    pub fn random_below(&mut self, n: u64) -> u64 {
        match self.read(Read::Random(n)) {
            Val::Int(v) => v as u64,
            Val::Cards(_) => unreachable!("a random draw reads a number"),
        }
    }

    /// Shuffle a pile (while solve lists chance, the shuffle waits until
    /// its order is looked at: `State::shuffle_later`).
    pub fn shuffle(&mut self, slot: usize) {
        self.impure();
        self.st_mut().shuffle_later(slot);
    }

    /// For a deal of `shares` from `slot`: when the pile's shuffle waits,
    /// draw once which cards each player gets and put them on top in the
    /// order the deal takes them (`ordered`: whether the hands keep an
    /// order). True if the rest of the pile waits again after the deal.
    pub fn arrange_deal(&mut self, slot: usize, shares: &[usize], ordered: bool) -> bool {
        if !self.st().waits_shuffle(slot) {
            return false;
        }
        self.impure();
        self.st_mut().arrange_deal(slot, shares, ordered)
    }

    /// The rest of a pile dealt from waits again (see `arrange_deal`).
    pub fn wait_again(&mut self, slot: usize) {
        self.impure();
        self.st_mut().shuffle_later(slot);
    }

    /// Whether the game is watched (its log lines kept). The memo replays
    /// only runs on quiet states, so a script may branch on it.
    pub fn logging(&self) -> bool {
        self.st().logging()
    }

    /// The run drew from the RNG: it cannot be replayed from a record.
    pub fn impure(&mut self) {
        self.trace = None;
    }

    /// A read of the order of a pile whose shuffle waits draws it first
    /// (`State::shuffle_later`); which cards it holds, and how many, do
    /// not need it.
    ///
    /// A draw from the waiting pile of an `unordered` zone draws only its
    /// top card (one chance event of as many outcomes as cards): the rest
    /// waits on, and its slot is returned, to wait again after the draw.
    fn settle_read(&mut self, key: &Read) -> Option<usize> {
        match *key {
            Read::Cards(s) | Read::Entries(s) => self.settle(s as usize),
            Read::TakeAt { from, to, .. } => {
                self.settle(from as usize);
                self.settle(to as usize);
            }
            Read::Draw { from, to, .. } => {
                let from = from as usize;
                self.settle(to as usize);
                if self.unordered(from) && self.st().waits_shuffle(from) {
                    self.impure();
                    self.st_mut().arrange_deal(from, &[1], true);
                    return Some(from);
                }
                self.settle(from);
            }
            _ => {}
        }
        None
    }

    /// So does a change to such a pile, but for what needs no order of
    /// an `unordered` one: a card named by id leaving it, cards joining it.
    fn settle_write(&mut self, w: &Write) {
        match *w {
            Write::MoveCard { from, to, .. } => {
                if !self.unordered(from) {
                    self.settle(from);
                }
                if !self.unordered(to) {
                    self.settle(to);
                }
            }
            // The cards keep their order where they go, unless it is a set
            // too.
            Write::MoveAll { from, to, .. } if !self.unordered(to) => {
                self.settle(from);
                self.settle(to);
            }
            Write::Turn { slot, .. } | Write::TurnAll { slot, .. } => self.settle(slot),
            _ => {}
        }
    }

    fn settle(&mut self, slot: usize) {
        if self.unordered(slot) && self.st().waits_shuffle(slot) {
            self.rewait.push(slot);
        }
        self.st_mut().settle(slot);
    }

    fn unordered(&self, slot: usize) -> bool {
        self.def.zones[self.def.zone_of_slot(slot)].unordered
    }
}
