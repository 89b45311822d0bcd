//! Hook memoisation for playouts: a script reaches the state only through
//! the API, so a hook run is a sequence of reads (with the values seen) and
//! writes. Recorded runs form a trie per (hook, arguments): replaying walks
//! it, doing each read on the state and following the branch of its value,
//! applying each write. A path not seen yet falls back to the script (and
//! is recorded). Only quiet states (bots' and simulations' playouts) use it;
//! a hook that draws from the RNG is never memoised.
//!
//! Reads and writes here are also how the API itself reads and changes the
//! state, so a replay means exactly what the script did.
//!
//! A record leaves out the reads its own earlier steps determine (elide.rs),
//! and a branch is labelled by one word (`Label`), so that a replay walks
//! few, small nodes: the walk is bound by memory latency, not arithmetic.

mod elide;

use std::hash::{Hash, Hasher};
use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHasher};
use smallvec::SmallVec;

use crate::game::{CardIx, PlayerIx};
use crate::state::{Args, Ask, Choice, Decision, Outcome, State};

/// Something a hook looked at.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Read {
    /// A stat, by flat index (player * nstats + stat).
    Stat(u32),
    Var(u32),
    Cards(u32),
    /// The distinct cards of a zone, in card order.
    Distinct(u32),
    Count(u32),
    Has(u32, CardIx),
    Turn,
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
    /// Move the top card (a read of which card, and a write).
    Draw {
        from: u32,
        to: u32,
    },
}

/// Indices in reads are u32 so that a trie node stays within a cache line.
pub(crate) fn ix(i: usize) -> u32 {
    i as u32
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Val {
    Int(i64),
    /// Inline for small zones: reads are evaluated on every replay.
    Cards(SmallVec<[CardIx; 8]>),
}

/// Something a hook changed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Write {
    SetStat(usize, i64),
    AddStat(usize, i64),
    SetVar(usize, i64),
    AddVar(usize, i64),
    MoveCard {
        card: CardIx,
        from: usize,
        to: usize,
    },
    MoveAll {
        from: usize,
        to: usize,
    },
    SetActive(PlayerIx),
    SetOrder(Vec<PlayerIx>),
    End(Outcome),
    RevealFirst(Option<PlayerIx>),
    /// Shared with the decisions it makes.
    Ask(Rc<Ask>),
}

#[derive(Debug, Clone)]
pub(crate) enum Op {
    Read(Read, Val),
    Write(Write),
}

/// How to take a write back when a replay misses half way.
enum Undo {
    Stat(usize, i64),
    Var(usize, i64),
    /// A card left `from` at `pos` for the end of `to`.
    Move {
        from: usize,
        pos: usize,
        to: usize,
    },
    /// `n` cards were appended to `to` from the (then emptied) `from`.
    MoveAll {
        from: usize,
        to: usize,
        n: usize,
    },
    Active(PlayerIx),
    Order(Vec<PlayerIx>),
    Outcome(Option<Outcome>),
    Reveal(Option<PlayerIx>),
    Ask,
}

/// A zone's distinct cards, in card order (what a `from:` decision offers
/// and `card_types` returns).
pub(crate) fn distinct<A: smallvec::Array<Item = CardIx>>(cards: &[CardIx]) -> SmallVec<A> {
    let mut v = SmallVec::from_slice(cards);
    v.sort_unstable();
    v.dedup();
    v
}

/// The turn order as a card-list value.
fn order_cards<A: smallvec::Array<Item = CardIx>>(state: &State) -> SmallVec<A> {
    state.order.iter().map(|&p| p as CardIx).collect()
}

/// Evaluate a read on the state (a draw also moves the card).
pub(crate) fn read(state: &mut State, key: &Read) -> Val {
    match key {
        Read::Stat(i) => Val::Int(state.stats[*i as usize]),
        Read::Var(i) => Val::Int(state.vars[*i as usize]),
        Read::Cards(s) => Val::Cards(SmallVec::from_slice(&state.zones[*s as usize])),
        Read::Distinct(s) => Val::Cards(distinct(&state.zones[*s as usize])),
        Read::Count(s) => Val::Int(state.zones[*s as usize].len() as i64),
        Read::Has(s, c) => Val::Int(i64::from(state.zones[*s as usize].contains(c))),
        Read::Turn => Val::Int(i64::from(state.turn)),
        Read::Active => Val::Int(state.active as i64),
        Read::Order => Val::Cards(order_cards(state)),
        Read::IsOver => Val::Int(i64::from(state.outcome.is_some())),
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
        Read::Draw { from, to } => match state.zones[*from as usize].pop() {
            Some(c) => {
                state.zones[*to as usize].push(c);
                Val::Int(i64::from(c))
            }
            None => Val::Int(-1),
        },
    }
}

fn undo_draw(state: &mut State, key: &Read, v: &Val) -> Option<Undo> {
    match (key, v) {
        (Read::Draw { from, to }, Val::Int(c)) if *c >= 0 => Some(Undo::Move {
            from: *from as usize,
            pos: state.zones[*from as usize].len(),
            to: *to as usize,
        }),
        _ => None,
    }
}

/// Do a read on the state for a replay and give its label: None for a card
/// list never recorded (so no branch can match). A draw moves its card and
/// leaves an undo record. Card lists are built on the stack, not as values.
fn label(lists: &Lists, state: &mut State, key: &Read, undos: &mut Vec<Undo>) -> Option<Label> {
    match key {
        Read::Cards(s) => label_of(lists, &state.zones[*s as usize]),
        Read::Distinct(s) => label_of(lists, &distinct::<[CardIx; 16]>(&state.zones[*s as usize])),
        Read::Order => label_of(lists, &order_cards::<[CardIx; 16]>(state)),
        _ => {
            let v = read(state, key);
            if let Some(u) = undo_draw(state, key, &v) {
                undos.push(u);
            }
            match v {
                Val::Int(i) => Some(i as u64),
                Val::Cards(_) => None,
            }
        }
    }
}

/// Apply a write; None if it cannot apply (a card not there), with the
/// state unchanged.
pub(crate) fn write(state: &mut State, w: &Write) -> Option<()> {
    apply(state, w).map(|_| ())
}

fn apply(state: &mut State, w: &Write) -> Option<Undo> {
    Some(match w {
        Write::SetStat(i, v) => Undo::Stat(*i, std::mem::replace(&mut state.stats[*i], *v)),
        Write::AddStat(i, d) => {
            let old = state.stats[*i];
            state.stats[*i] = old.saturating_add(*d);
            Undo::Stat(*i, old)
        }
        Write::SetVar(i, v) => Undo::Var(*i, std::mem::replace(&mut state.vars[*i], *v)),
        Write::AddVar(i, d) => {
            let old = state.vars[*i];
            state.vars[*i] = old.saturating_add(*d);
            Undo::Var(*i, old)
        }
        Write::MoveCard { card, from, to } => {
            let pos = state.zones[*from].iter().rposition(|x| x == card)?;
            state.zones[*from].remove(pos);
            state.zones[*to].push(*card);
            Undo::Move {
                from: *from,
                pos,
                to: *to,
            }
        }
        Write::MoveAll { from, to } => {
            if from == to {
                Undo::MoveAll {
                    from: *from,
                    to: *to,
                    n: 0,
                }
            } else {
                // Keep both zones' buffers: they fill again next turn.
                let mut moved = std::mem::take(&mut state.zones[*from]);
                let n = moved.len();
                state.zones[*to].extend_from_slice(&moved);
                moved.clear();
                state.zones[*from] = moved;
                Undo::MoveAll {
                    from: *from,
                    to: *to,
                    n,
                }
            }
        }
        Write::SetActive(p) => Undo::Active(std::mem::replace(&mut state.active, *p)),
        Write::SetOrder(o) => Undo::Order(std::mem::replace(&mut state.order, o.clone())),
        Write::End(o) => Undo::Outcome(state.outcome.replace(*o)),
        Write::RevealFirst(p) => Undo::Reveal(std::mem::replace(&mut state.reveal_first, *p)),
        Write::Ask(d) => {
            state.push_decision(Decision::new(d.clone()));
            Undo::Ask
        }
    })
}

fn undo(state: &mut State, u: Undo) {
    match u {
        Undo::Stat(i, v) => state.stats[i] = v,
        Undo::Var(i, v) => state.vars[i] = v,
        Undo::Move { from, pos, to } => {
            if let Some(c) = state.zones[to].pop() {
                state.zones[from].insert(pos, c);
            }
        }
        Undo::MoveAll { from, to, n } => {
            if n > 0 {
                let at = state.zones[to].len() - n;
                let back = state.zones[to].split_off(at);
                state.zones[from] = back;
            }
        }
        Undo::Active(p) => state.active = p,
        Undo::Order(o) => state.order = o,
        Undo::Outcome(o) => state.outcome = o,
        Undo::Reveal(p) => state.reveal_first = p,
        Undo::Ask => {
            state.pending.pop_back();
        }
    }
}

/// A read's value as a branch label: an int as itself; a card list packed
/// into the word when short (`pack`), else tagged with its number in the
/// memo's table of lists. All values of one read are of one kind, so the
/// two encodings never meet.
type Label = u64;

const LISTED: u64 = 1 << 63;

/// Up to three cards, with the length, in one word.
fn pack(cards: &[CardIx]) -> Option<Label> {
    if cards.len() > 3 {
        return None;
    }
    let mut k = cards.len() as u64;
    for (i, &c) in cards.iter().enumerate() {
        k |= u64::from(c) << (2 + 20 * i);
    }
    Some(k)
}

/// Longer card lists, numbered.
type Lists = FxHashMap<SmallVec<[CardIx; 8]>, u32>;

fn label_of(lists: &Lists, cards: &[CardIx]) -> Option<Label> {
    pack(cards).or_else(|| lists.get(cards).map(|&i| LISTED | u64::from(i)))
}

/// A read's branches: two inline (most reads have one or two), the rest in
/// a table. Inline labels save a pointer chase on every replayed read.
struct Branches {
    len: u8,
    labels: [Label; 2],
    next: [u32; 2],
    more: Option<Box<FxHashMap<Label, u32>>>,
}

impl Branches {
    fn one(l: Label, c: u32) -> Branches {
        Branches {
            len: 1,
            labels: [l, 0],
            next: [c, 0],
            more: None,
        }
    }
    fn get(&self, l: Label) -> Option<u32> {
        for i in 0..usize::from(self.len) {
            if self.labels[i] == l {
                return Some(self.next[i]);
            }
        }
        self.more.as_ref()?.get(&l).copied()
    }
    fn add(&mut self, l: Label, c: u32) {
        let i = usize::from(self.len);
        if i < 2 {
            self.labels[i] = l;
            self.next[i] = c;
            self.len += 1;
        } else {
            self.more.get_or_insert_default().insert(l, c);
        }
    }
}

enum Node {
    Unknown,
    Done,
    Read { key: Read, branches: Branches },
    Write { op: Write, next: u32 },
}

/// The recorded runs of a game's hooks.
pub(crate) struct Memo {
    nodes: Vec<Node>,
    lists: Lists,
    /// hash of (hook, args) -> (hook, args, root).
    roots: FxHashMap<u64, Vec<(String, Vec<Choice>, u32)>>,
    /// Undo records of the replay in progress (kept to reuse the buffer).
    undos: Vec<Undo>,
    /// Hooks found to use the RNG or to behave differently on equal reads.
    off: Vec<String>,
    pub hits: u64,
    pub misses: u64,
    /// Script runs by hook (for TABULA_MEMO_STATS).
    pub runs: FxHashMap<String, u64>,
    /// Asks of declared decision steps, by a hash of (step, deciders,
    /// cards): see `State::declared_ask`.
    pub(crate) asks: FxHashMap<u64, (usize, Rc<Ask>)>,
}

/// The arguments of a hook call as memo key parts: each decider (as a
/// reserved card index) then their choice; or a rolled face. `visit` sees
/// them in order, without building a list.
fn each_part(args: &Args, mut visit: impl FnMut(&Choice) -> bool) -> bool {
    match args {
        Args::None => true,
        Args::Face(f) => visit(&Choice::Word(f.as_str().into())),
        Args::Choices(players, chosen) => {
            for (p, c) in players.iter().zip(chosen.iter()) {
                if !visit(&Choice::Card(CardIx::MAX - *p as CardIx)) {
                    return false;
                }
                if let Some(c) = c
                    && !visit(c)
                {
                    return false;
                }
            }
            true
        }
    }
}

fn key_parts(args: &Args) -> Vec<Choice> {
    let mut out = Vec::new();
    each_part(args, |c| {
        out.push(c.clone());
        true
    });
    out
}

fn same_key(stored: &[Choice], args: &Args) -> bool {
    let mut i = 0;
    let prefix = each_part(args, |c| {
        let ok = stored.get(i) == Some(c);
        i += 1;
        ok
    });
    prefix && i == stored.len()
}

/// Asks of declared steps kept at most.
const MAX_ASKS: usize = 1 << 16;

/// Recorded nodes at most (memory bound); beyond, only replays.
const MAX_NODES: usize = 4_000_000;

fn key_hash(hook: &str, args: &Args) -> u64 {
    let mut h = FxHasher::default();
    hook.hash(&mut h);
    each_part(args, |c| {
        c.hash(&mut h);
        true
    });
    h.finish()
}

impl Memo {
    pub fn new() -> Memo {
        Memo {
            nodes: Vec::new(),
            lists: Lists::default(),
            roots: FxHashMap::default(),
            undos: Vec::new(),
            off: Vec::new(),
            hits: 0,
            misses: 0,
            runs: FxHashMap::default(),
            asks: FxHashMap::default(),
        }
    }

    /// Keep a declared step's ask for reuse (a bounded number of them).
    pub(crate) fn keep_ask(&mut self, key: u64, step: usize, ask: &Rc<Ask>) {
        if self.asks.len() < MAX_ASKS {
            self.asks.insert(key, (step, ask.clone()));
        }
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    pub fn enabled(&self, hook: &str) -> bool {
        !self.off.iter().any(|h| h == hook)
    }

    pub fn disable(&mut self, hook: &str) {
        if self.enabled(hook) {
            self.off.push(hook.to_string());
        }
    }

    fn root(&self, hook: &str, args: &Args) -> Option<u32> {
        self.roots
            .get(&key_hash(hook, args))?
            .iter()
            .find(|(h, a, _)| h == hook && same_key(a, args))
            .map(|(_, _, r)| *r)
    }

    /// Replay a recorded run on `state`: true if it went all the way; on a
    /// miss the state is as it was.
    pub fn replay(&mut self, hook: &str, args: &Args, state: &mut State) -> bool {
        let Some(mut n) = self.root(hook, args) else {
            self.misses += 1;
            *self.runs.entry(hook.to_string()).or_default() += 1;
            return false;
        };
        let mut undos = std::mem::take(&mut self.undos);
        undos.clear();
        let hit = loop {
            match &self.nodes[n as usize] {
                Node::Done => break true,
                Node::Unknown => break false,
                Node::Read { key, branches } => {
                    let Some(l) = label(&self.lists, state, key, &mut undos) else {
                        break false;
                    };
                    match branches.get(l) {
                        Some(c) => n = c,
                        None => break false,
                    }
                }
                Node::Write { op, next } => match apply(state, op) {
                    Some(u) => {
                        undos.push(u);
                        n = *next;
                    }
                    None => break false,
                },
            }
        };
        if hit {
            self.hits += 1;
        } else {
            self.misses += 1;
            *self.runs.entry(hook.to_string()).or_default() += 1;
            while let Some(u) = undos.pop() {
                undo(state, u);
            }
        }
        self.undos = undos;
        hit
    }

    /// The label of a recorded value (numbering a new long list).
    fn intern(&mut self, v: &Val) -> Label {
        match v {
            Val::Int(i) => *i as u64,
            Val::Cards(c) => pack(c).unwrap_or_else(|| {
                let n = self.lists.len() as u32;
                LISTED | u64::from(*self.lists.entry(c.clone()).or_insert(n))
            }),
        }
    }

    fn push(&mut self, node: Node) -> u32 {
        self.nodes.push(node);
        (self.nodes.len() - 1) as u32
    }

    /// Add a recorded run. A run that contradicts an earlier one (the same
    /// reads, other writes) turns memoisation off for that hook.
    pub fn insert(&mut self, hook: &str, args: &Args, ops: Vec<Op>) {
        let ops = elide::elide(ops);
        if self.nodes.len() + ops.len() + 1 > MAX_NODES || !self.enabled(hook) {
            return;
        }
        let mut n = match self.root(hook, args) {
            Some(r) => r,
            None => {
                let r = self.push(Node::Unknown);
                self.roots.entry(key_hash(hook, args)).or_default().push((
                    hook.to_string(),
                    key_parts(args),
                    r,
                ));
                r
            }
        };
        for op in ops {
            // Labelled first: numbering a long list needs the memo mutably.
            let l = match &op {
                Op::Read(_, v) => self.intern(v),
                Op::Write(_) => 0,
            };
            let next = match (&self.nodes[n as usize], op) {
                (Node::Unknown, Op::Read(key, _)) => {
                    let c = self.push(Node::Unknown);
                    self.nodes[n as usize] = Node::Read {
                        key,
                        branches: Branches::one(l, c),
                    };
                    c
                }
                (Node::Unknown, Op::Write(w)) => {
                    let c = self.push(Node::Unknown);
                    self.nodes[n as usize] = Node::Write { op: w, next: c };
                    c
                }
                (Node::Read { key, branches }, Op::Read(k, _)) if *key == k => {
                    match branches.get(l) {
                        Some(c) => c,
                        None => {
                            let c = self.push(Node::Unknown);
                            if let Node::Read { branches, .. } = &mut self.nodes[n as usize] {
                                branches.add(l, c);
                            }
                            c
                        }
                    }
                }
                (Node::Write { op, next }, Op::Write(w)) if *op == w => *next,
                _ => {
                    self.disable(hook);
                    return;
                }
            };
            n = next;
        }
        match self.nodes[n as usize] {
            Node::Unknown => self.nodes[n as usize] = Node::Done,
            Node::Done => {}
            _ => self.disable(hook),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn short_lists_pack_apart() {
        // Every list of up to three cards gets its own label, long lists none.
        let cards = [0, 1, 2, 1000, u16::MAX - 1, u16::MAX];
        let mut lists: Vec<Vec<u16>> = vec![vec![]];
        for _ in 0..3 {
            let longer: Vec<Vec<u16>> = lists
                .iter()
                .flat_map(|l| cards.iter().map(move |&c| [l.clone(), vec![c]].concat()))
                .collect();
            lists.extend(longer.into_iter().filter(|l| l.len() <= 3));
        }
        lists.sort();
        lists.dedup();
        let mut labels: Vec<u64> = lists.iter().filter_map(|l| super::pack(l)).collect();
        assert_eq!(labels.len(), lists.len());
        assert!(labels.iter().all(|l| l & super::LISTED == 0));
        labels.sort_unstable();
        labels.dedup();
        assert_eq!(labels.len(), lists.len());
        assert_eq!(super::pack(&[1, 2, 3, 4]), None);
    }

    #[test]
    fn nodes_stay_small() {
        // Replays walk many nodes: they must pack into cache lines.
        assert!(
            std::mem::size_of::<super::Node>() <= 64,
            "{}",
            std::mem::size_of::<super::Node>()
        );
    }
}
