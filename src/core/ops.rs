//! The operations through which a hook reads and changes a state: the
//! vocabulary of the script API, and what a trace of a hook run is made of
//! (a memo replays traces). Every write can be undone.

use std::sync::Arc;

use smallvec::SmallVec;

use super::knowledge::KnowAt;
use super::{Ask, Decision, Outcome, State};
use crate::definition::{CardIx, FACE_DOWN, PlayerIx};

/// Something a hook looked at.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Read {
    /// A stat, by flat index (player * nstats + stat).
    Stat(u32),
    Var(u32),
    Cards(u32),
    /// The distinct cards of a zone, in card order.
    Distinct(u32),
    Count(u32),
    Has(u32, CardIx),
    /// A zone's cards, each followed by where it came from (`by`).
    Entries(u32),
    /// Which of the `n` slots from `first` on (at most 64: `EMPTIES_MAX`)
    /// hold no card, as bits (bit i: slot `first + i`): one derived read
    /// for a board's worth of cells, where a look at each would be one
    /// read a cell.
    Empties {
        first: u32,
        n: u8,
    },
    Turn,
    /// In a match: the game being played (from 1), and a player's wins.
    GameNo,
    MatchWins(u8),
    Active,
    Order,
    IsOver,
    /// Whether any player's stat is at least `n`.
    AnyAtLeast {
        stat: u32,
        nstats: u16,
        n: i64,
    },
    /// The highest (or lowest) of the stats in `mask` (bit = stat index) of
    /// the player whose stats start at flat index `base`.
    Extreme {
        base: u32,
        mask: u32,
        max: bool,
    },
    /// The sign of stat `.0` minus stat `.1` (flat indices): -1, 0 or 1.
    Compare(u32, u32),
    /// A uniform draw in `0..n` from the game's chance (a read of which
    /// number, and a step of the RNG): a run that rolls a die is recorded
    /// and replayed like any other, branching on the number.
    Random(u64),
    /// Move the card at place `pos` from the bottom (0) of `from` to the
    /// top of `to` (a read of which card, -1 if there is none, and a
    /// write): a card chosen by its place (`move_at`).
    TakeAt {
        from: u32,
        pos: u32,
        to: u32,
        by: Option<u8>,
    },
    /// Move the top card (a read of which card, and a write).
    Draw {
        from: u32,
        to: u32,
        /// Where the card comes from, for a `to` that records it: the owner
        /// of `from` + 1, or 0.
        by: Option<u8>,
    },
}

/// Slots one `Read::Empties` covers at most (the bits of its value).
pub const EMPTIES_MAX: usize = 64;

/// The bits of `Read::Empties`: which of `n` slots from `first` hold no
/// card (bit i: slot `first + i`).
#[inline]
fn empties(state: &State, first: u32, n: u8) -> i64 {
    let slots = &state.zones[first as usize..first as usize + usize::from(n)];
    let mut bits = 0u64;
    for (i, z) in slots.iter().enumerate() {
        bits |= u64::from(z.is_empty()) << i;
    }
    bits as i64
}

/// Indices in reads are u32 so that a trie node stays within a cache line.
pub fn ix(i: usize) -> u32 {
    i as u32
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Val {
    Int(i64),
    /// Inline for small zones: reads are evaluated on every replay.
    Cards(SmallVec<[CardIx; 8]>),
}

/// Something a hook changed.
#[derive(Debug, Clone, PartialEq)]
pub enum Write {
    SetStat(usize, i64),
    AddStat(usize, i64),
    SetVar(usize, i64),
    AddVar(usize, i64),
    /// `by`, for a `to` that records where cards came from: the owner of
    /// `from` + 1, or 0 (a shared zone).
    MoveCard {
        card: CardIx,
        from: usize,
        to: usize,
        by: Option<u8>,
    },
    MoveAll {
        from: usize,
        to: usize,
        by: Option<u8>,
    },
    /// Lay a card of `slot` face down (`down`) or face up: the one `at`
    /// names, which must lie the other way.
    Turn {
        at: TurnAt,
        slot: usize,
        down: bool,
    },
    /// Lay every card of `slot` face down or face up.
    TurnAll {
        slot: usize,
        down: bool,
    },
    /// Make cards of `slot` known to `players` (a bit per player), as
    /// `at` says (`State::know`); the sets go with the cards as they move.
    Know {
        at: KnowAt,
        slot: usize,
        players: u64,
    },
    SetActive(PlayerIx),
    SetOrder(Vec<PlayerIx>),
    /// End the game, and why (a script's words: "deck ran out").
    End(Outcome, Option<Arc<str>>),
    RevealFirst(Option<PlayerIx>),
    /// Shared with the decisions it makes.
    Ask(Arc<Ask>),
}

/// Which card a `Turn` turns over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TurnAt {
    /// The bottom-most copy of this card that lies the other way.
    Card(CardIx),
    /// The card at this place, from the bottom (0).
    Index(u32),
}

#[derive(Debug, Clone)]
pub enum Op {
    Read(Read, Val),
    Write(Write),
}

/// How to take a write back (a replay that misses half way). Plain data,
/// dropped for free: what a record cannot hold inline (a zone's former
/// records, a former turn order) waits in the caller's stash, in the order
/// the writes were made; records are undone last first.
#[derive(Clone, Copy)]
pub struct Undo(UndoKind);

/// What undo records keep out of line (see `Undo`): bytes (former per-card
/// records, former turn orders) and former end reasons. Cleared by its
/// owner when no record made since is to be undone.
#[derive(Debug, Default)]
pub struct Stash {
    bytes: Vec<u8>,
    reasons: Vec<Option<Arc<str>>>,
    /// Former knowledge sets (`Write::Know`).
    masks: Vec<u64>,
}

impl Stash {
    pub fn new() -> Stash {
        Stash::default()
    }
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.reasons.clear();
        self.masks.clear();
    }
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty() && self.reasons.is_empty() && self.masks.is_empty()
    }
    /// The last `n` bytes, taken off.
    fn take(&mut self, n: usize) -> Vec<u8> {
        self.bytes.split_off(self.bytes.len() - n)
    }
}

#[derive(Clone, Copy)]
enum UndoKind {
    Stat(usize, i64),
    Var(usize, i64),
    /// A card left `from` at `pos` (where it had come from `by`, if
    /// `from` records it) for the end of `to` (which recorded it if
    /// `to_by`).
    Move {
        from: u32,
        pos: u32,
        to: u32,
        by: Option<u8>,
        to_by: bool,
    },
    /// `n` cards were appended to `to` from the (then emptied) `from`;
    /// `by`: their records in `from` are the stash's last `n` bytes.
    MoveAll {
        from: u32,
        to: u32,
        n: u32,
        to_by: bool,
        by: bool,
    },
    /// The card at `pos` of `slot` was turned over.
    Turn {
        slot: u32,
        pos: u32,
    },
    /// All cards of `slot` were turned: their records before are the
    /// stash's last bytes, one per card.
    TurnAll {
        slot: u32,
    },
    /// `n` cards of `slot` from `first` were made known to more players:
    /// their sets before are the stash's last `n` masks.
    Know {
        slot: u32,
        first: u32,
        n: u32,
    },
    Active(PlayerIx),
    /// The turn order before is the stash's last `n` bytes.
    Order(u8),
    Outcome(Option<Outcome>),
    Reveal(Option<PlayerIx>),
    Ask,
}

/// A zone's distinct cards, in card order (what a `from:` decision offers
/// and `card_types` returns).
#[inline]
pub fn distinct<A: smallvec::Array<Item = CardIx>>(cards: &[CardIx]) -> SmallVec<A> {
    let mut v = SmallVec::from_slice(cards);
    v.sort_unstable();
    v.dedup();
    v
}

/// The turn order as a card-list value.
#[inline]
pub fn order_cards<A: smallvec::Array<Item = CardIx>>(state: &State) -> SmallVec<A> {
    state.order().iter().map(|&p| p as CardIx).collect()
}

impl State {
    /// Evaluate a read (a draw also moves the card).
    #[inline]
    pub fn read(&mut self, key: &Read) -> Val {
        read(self, key)
    }
    /// A number read where it lies, for the reads that change nothing and
    /// give a number as `read` gives it; None for the others (draws,
    /// chance, card lists, the rarer questions).
    #[inline]
    pub fn peek_int(&self, key: &Read) -> Option<i64> {
        Some(match key {
            Read::Stat(i) => self.stats[*i as usize],
            Read::Var(i) => self.vars[*i as usize],
            Read::Count(s) => self.zones[*s as usize].len() as i64,
            Read::Has(s, c) => i64::from(self.zones[*s as usize].contains(c)),
            Read::Empties { first, n } => empties(self, *first, *n),
            Read::Turn => i64::from(self.turn),
            Read::Active => self.active as i64,
            _ => return None,
        })
    }
    /// A read that may change the state (a draw), and how to undo it.
    #[inline]
    pub fn read_undoable(&mut self, key: &Read) -> (Val, Option<Undo>) {
        // Where a drawn card had come from, before the draw moves it.
        let top_by = match key {
            Read::Draw { from, .. } if self.records(*from as usize) => {
                self.origins[*from as usize].last().copied()
            }
            Read::TakeAt { from, pos, .. } if self.records(*from as usize) => {
                self.origins[*from as usize].get(*pos as usize).copied()
            }
            _ => None,
        };
        let v = read(self, key);
        let u = undo_draw(self, key, &v, top_by).map(Undo);
        (v, u)
    }
    /// Apply a write for good; false if it cannot apply (a card not
    /// there), with the state unchanged.
    #[inline]
    pub fn write(&mut self, w: &Write) -> bool {
        apply(self, w, None).is_some()
    }
    /// Apply a write that may be taken back (`undo`, with the same stash);
    /// None if it cannot apply, with the state unchanged.
    #[inline]
    pub fn write_undoable(&mut self, w: &Write, stash: &mut Stash) -> Option<Undo> {
        apply(self, w, Some(stash)).map(Undo)
    }
    /// Take back a write or a read's move (the last not yet taken back).
    #[inline]
    pub fn undo(&mut self, u: Undo, stash: &mut Stash) {
        undo(self, u.0, stash)
    }
}

#[inline(always)]
fn read(state: &mut State, key: &Read) -> Val {
    match key {
        Read::Stat(i) => Val::Int(state.stats[*i as usize]),
        Read::Var(i) => Val::Int(state.vars[*i as usize]),
        Read::Cards(s) => Val::Cards(SmallVec::from_slice(&state.zones[*s as usize])),
        Read::Distinct(s) => Val::Cards(distinct(&state.zones[*s as usize])),
        Read::Count(s) => Val::Int(state.zones[*s as usize].len() as i64),
        Read::Entries(s) => Val::Cards(entries(state, *s as usize)),
        Read::Has(s, c) => Val::Int(i64::from(state.zones[*s as usize].contains(c))),
        Read::Empties { first, n } => Val::Int(empties(state, *first, *n)),
        Read::Turn => Val::Int(i64::from(state.turn)),
        Read::GameNo => Val::Int(i64::from(state.game_no)),
        Read::MatchWins(p) => Val::Int(i64::from(state.match_wins[*p as usize])),
        Read::Active => Val::Int(state.active as i64),
        Read::Order => Val::Cards(order_cards(state)),
        Read::IsOver => Val::Int(i64::from(state.outcome.is_some())),
        Read::Random(n) => Val::Int(state.random_below(*n) as i64),
        Read::AnyAtLeast { stat, nstats, n } => {
            let hit = state
                .stats
                .iter()
                .skip(*stat as usize)
                .step_by(usize::from(*nstats).max(1))
                .any(|v| v >= n);
            Val::Int(i64::from(hit))
        }
        Read::Extreme { base, mask, max } => {
            let vals = (0..32)
                .filter(|b| mask & (1 << b) != 0)
                .map(|b| state.stats[*base as usize + b]);
            Val::Int(if *max { vals.max() } else { vals.min() }.unwrap_or(0))
        }
        Read::Compare(a, b) => Val::Int(
            match state.stats[*a as usize].cmp(&state.stats[*b as usize]) {
                std::cmp::Ordering::Less => -1,
                std::cmp::Ordering::Equal => 0,
                std::cmp::Ordering::Greater => 1,
            },
        ),
        Read::TakeAt { from, pos, to, by } => {
            let (from, pos, to) = (*from as usize, *pos as usize, *to as usize);
            if pos >= state.zones[from].len() {
                return Val::Int(-1);
            }
            if state.records(from) {
                state.origins[from].remove(pos);
            }
            if !state.known.is_empty() {
                let m = state.known_take(from, pos);
                state.known_push(to, m);
            }
            let c = state.zones[from].remove(pos);
            state.zones[to].push(c);
            if let Some(b) = by {
                state.origins[to].push(*b);
            }
            Val::Int(i64::from(c))
        }
        Read::Draw { from, to, by } => {
            let (from, to) = (*from as usize, *to as usize);
            if state.records(from) {
                state.origins[from].pop();
            }
            match state.zones[from].pop() {
                Some(c) => {
                    if !state.known.is_empty() {
                        let m = state.known_pop(from);
                        state.known_push(to, m);
                    }
                    state.zones[to].push(c);
                    if let Some(b) = by {
                        state.origins[to].push(*b);
                    }
                    Val::Int(i64::from(c))
                }
                None => Val::Int(-1),
            }
        }
    }
}

/// A zone's cards, each followed by where it came from (0: nowhere known).
#[inline]
pub fn entries<A: smallvec::Array<Item = CardIx>>(state: &State, slot: usize) -> SmallVec<A> {
    let by = state.origins.get(slot).map_or(&[][..], |v| v.as_slice());
    state.zones[slot]
        .iter()
        .enumerate()
        .flat_map(|(i, &c)| [c, CardIx::from(by.get(i).copied().unwrap_or(0))])
        .collect()
}

#[inline]
fn undo_draw(state: &mut State, key: &Read, v: &Val, top_by: Option<u8>) -> Option<UndoKind> {
    match (key, v) {
        (Read::Draw { from, to, by }, Val::Int(c)) if *c >= 0 => Some(UndoKind::Move {
            from: *from,
            pos: ix(state.zones[*from as usize].len()),
            to: *to,
            by: top_by,
            to_by: by.is_some(),
        }),
        (Read::TakeAt { from, pos, to, by }, Val::Int(c)) if *c >= 0 => Some(UndoKind::Move {
            from: *from,
            pos: *pos,
            to: *to,
            by: top_by,
            to_by: by.is_some(),
        }),
        _ => None,
    }
}

/// Where a card moved by `MoveCard` came from, moved with it (before the
/// card itself moves): its old record in `from`, and whether `to` got one.
#[cold]
fn move_origin(
    state: &mut State,
    from: usize,
    pos: usize,
    to: usize,
    by: Option<u8>,
) -> (Option<u8>, bool) {
    let old = state.records(from).then(|| state.origins[from].remove(pos));
    if let Some(b) = by {
        state.origins[to].push(b);
    }
    (old, by.is_some())
}

/// Turn one card over: None if no copy of it lies the other way (or the
/// slot keeps no faces).
#[cold]
fn turn(state: &mut State, at: TurnAt, slot: usize, down: bool) -> Option<UndoKind> {
    if !state.records(slot) {
        return None;
    }
    let by = &mut state.origins[slot];
    let other_way = |b: u8| (b & FACE_DOWN != 0) != down;
    let pos = match at {
        TurnAt::Card(card) => state.zones[slot]
            .iter()
            .zip(by.iter())
            .position(|(&c, &b)| c == card && other_way(b))?,
        TurnAt::Index(i) => {
            Some(i as usize).filter(|&i| by.get(i).is_some_and(|&b| other_way(b)))?
        }
    };
    by[pos] ^= FACE_DOWN;
    Some(UndoKind::Turn {
        slot: ix(slot),
        pos: ix(pos),
    })
}

/// Turn every card of a slot one way (an empty slot: nothing to do).
#[cold]
fn turn_all(
    state: &mut State,
    slot: usize,
    down: bool,
    stash: Option<&mut Stash>,
) -> Option<UndoKind> {
    if state.records(slot) {
        let by = &mut state.origins[slot];
        if let Some(s) = stash {
            s.bytes.extend_from_slice(by);
        }
        for b in by.iter_mut() {
            *b = if down {
                *b | FACE_DOWN
            } else {
                *b & !FACE_DOWN
            };
        }
    } else if !state.zones[slot].is_empty() {
        return None;
    }
    Some(UndoKind::TurnAll { slot: ix(slot) })
}

/// Keep where the cards of `from` came from before they all leave.
#[cold]
fn stash_origins(state: &mut State, from: usize, stash: Option<&mut Stash>) -> bool {
    let by = std::mem::take(&mut state.origins[from]);
    if let Some(s) = stash {
        s.bytes.extend_from_slice(&by);
    }
    true
}

#[inline(always)]
fn apply(state: &mut State, w: &Write, stash: Option<&mut Stash>) -> Option<UndoKind> {
    Some(match w {
        Write::SetStat(i, v) => UndoKind::Stat(*i, std::mem::replace(&mut state.stats[*i], *v)),
        // An overflow does not apply (the hook fails, as Rhai's `+` would).
        Write::AddStat(i, d) => {
            let old = state.stats[*i];
            state.stats[*i] = old.checked_add(*d)?;
            UndoKind::Stat(*i, old)
        }
        Write::SetVar(i, v) => UndoKind::Var(*i, std::mem::replace(&mut state.vars[*i], *v)),
        Write::AddVar(i, d) => {
            let old = state.vars[*i];
            state.vars[*i] = old.checked_add(*d)?;
            UndoKind::Var(*i, old)
        }
        Write::MoveCard { card, from, to, by } => {
            let pos = state.zones[*from].iter().rposition(|x| x == card)?;
            // Most games record nowhere where cards came from.
            let (old, to_by) = if state.origins.is_empty() {
                (None, false)
            } else {
                move_origin(state, *from, pos, *to, *by)
            };
            if !state.known.is_empty() {
                let m = state.known_take(*from, pos);
                state.known_push(*to, m);
            }
            state.zones[*from].remove(pos);
            state.zones[*to].push(*card);
            UndoKind::Move {
                from: ix(*from),
                pos: ix(pos),
                to: ix(*to),
                by: old,
                to_by,
            }
        }
        Write::MoveAll { from, to, by } => {
            if from == to {
                UndoKind::MoveAll {
                    from: ix(*from),
                    to: ix(*to),
                    n: 0,
                    by: false,
                    to_by: false,
                }
            } else {
                let old = !state.origins.is_empty()
                    && state.records(*from)
                    && stash_origins(state, *from, stash);
                // Keep both zones' buffers: they fill again next turn.
                let mut moved = std::mem::take(&mut state.zones[*from]);
                let n = moved.len();
                state.known_move_all(*from, *to);
                state.zones[*to].extend_from_slice(&moved);
                moved.clear();
                state.zones[*from] = moved;
                if let Some(b) = by {
                    let to_by = &mut state.origins[*to];
                    to_by.resize(to_by.len() + n, *b);
                }
                UndoKind::MoveAll {
                    from: ix(*from),
                    to: ix(*to),
                    n: ix(n),
                    by: old,
                    to_by: by.is_some(),
                }
            }
        }
        Write::Turn { at, slot, down } => turn(state, *at, *slot, *down)?,
        Write::TurnAll { slot, down } => turn_all(state, *slot, *down, stash)?,
        Write::Know { at, slot, players } => {
            let (first, old) = state.know(*at, *slot, *players)?;
            let n = old.len();
            if let Some(s) = stash {
                s.masks.extend(old);
            }
            UndoKind::Know {
                slot: ix(*slot),
                first: ix(first),
                n: ix(n),
            }
        }
        Write::SetActive(p) => UndoKind::Active(std::mem::replace(&mut state.active, *p)),
        Write::SetOrder(o) => {
            let old = std::mem::replace(&mut state.order, o.clone());
            if let Some(s) = stash {
                s.bytes.extend(old.iter().map(|&p| p as u8));
            }
            UndoKind::Order(old.len() as u8)
        }
        Write::End(o, why) => {
            let old = std::mem::replace(&mut state.end_reason, why.clone());
            if let Some(s) = stash {
                s.reasons.push(old);
            }
            UndoKind::Outcome(state.outcome.replace(*o))
        }
        Write::RevealFirst(p) => UndoKind::Reveal(std::mem::replace(&mut state.reveal_first, *p)),
        Write::Ask(d) => {
            state.push_decision(Decision::new(d.clone()));
            UndoKind::Ask
        }
    })
}

#[inline]
fn undo(state: &mut State, u: UndoKind, stash: &mut Stash) {
    match u {
        UndoKind::Stat(i, v) => state.stats[i] = v,
        UndoKind::Var(i, v) => state.vars[i] = v,
        UndoKind::Move {
            from,
            pos,
            to,
            by,
            to_by,
        } => {
            let (from, pos, to) = (from as usize, pos as usize, to as usize);
            if let Some(c) = state.zones[to].pop() {
                if to_by {
                    state.origins[to].pop();
                }
                if !state.known.is_empty() {
                    let m = state.known_pop(to);
                    state.known_insert(from, pos, m);
                }
                state.zones[from].insert(pos, c);
                if let Some(b) = by {
                    state.origins[from].insert(pos, b);
                }
            }
        }
        UndoKind::MoveAll {
            from,
            to,
            n,
            by,
            to_by,
        } => {
            let (from, to, n) = (from as usize, to as usize, n as usize);
            if n > 0 {
                let at = state.zones[to].len() - n;
                let back = state.zones[to].split_off(at);
                state.zones[from] = back;
                state.known_move_back(from, to, n);
                if to_by {
                    state.origins[to].truncate(at);
                }
                if by {
                    state.origins[from] = stash.take(n);
                }
            }
        }
        UndoKind::Turn { slot, pos } => state.origins[slot as usize][pos as usize] ^= FACE_DOWN,
        UndoKind::TurnAll { slot } => {
            let n = state.zones[slot as usize].len();
            if n > 0 {
                state.origins[slot as usize] = stash.take(n);
            }
        }
        UndoKind::Know { slot, first, n } => {
            let at = stash.masks.len() - n as usize;
            let old = stash.masks.split_off(at);
            state.unknow(slot as usize, first as usize, &old);
        }
        UndoKind::Active(p) => state.active = p,
        UndoKind::Order(n) => {
            state.order = stash
                .take(n as usize)
                .into_iter()
                .map(PlayerIx::from)
                .collect();
        }
        UndoKind::Outcome(o) => {
            state.outcome = o;
            state.end_reason = stash.reasons.pop().flatten();
        }
        UndoKind::Reveal(p) => state.reveal_first = p,
        UndoKind::Ask => {
            state.pending.pop_back();
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn undo_records_stay_small() {
        // A replay pushes one per write it applies.
        assert!(
            std::mem::size_of::<super::UndoKind>() <= 32,
            "{}",
            std::mem::size_of::<super::UndoKind>()
        );
    }
}
