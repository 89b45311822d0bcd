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

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHasher};
use smallvec::SmallVec;

use crate::game::{CardIx, PlayerIx};
use crate::state::{Args, Choice, Decision, Outcome, State};

/// Something a hook looked at.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Read {
    /// A stat, by flat index (player * nstats + stat).
    Stat(usize),
    Var(usize),
    Cards(usize),
    /// The distinct cards of a zone, in card order.
    Distinct(usize),
    Count(usize),
    Has(usize, CardIx),
    Turn,
    Active,
    Order,
    IsOver,
    /// Whether any player's stat is at least `n`.
    AnyAtLeast {
        stat: usize,
        nstats: usize,
        n: i64,
    },
    /// Move the top card (a read of which card, and a write).
    Draw {
        from: usize,
        to: usize,
    },
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
    /// Boxed: it is large and rare, and nodes should be small.
    Ask(Box<Decision>),
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

/// Evaluate a read on the state (a draw also moves the card).
pub(crate) fn read(state: &mut State, key: &Read) -> Val {
    match key {
        Read::Stat(i) => Val::Int(state.stats[*i]),
        Read::Var(i) => Val::Int(state.vars[*i]),
        Read::Cards(s) => Val::Cards(SmallVec::from_slice(&state.zones[*s])),
        Read::Distinct(s) => {
            let mut v: SmallVec<[CardIx; 8]> = SmallVec::from_slice(&state.zones[*s]);
            v.sort_unstable();
            v.dedup();
            Val::Cards(v)
        }
        Read::Count(s) => Val::Int(state.zones[*s].len() as i64),
        Read::Has(s, c) => Val::Int(i64::from(state.zones[*s].contains(c))),
        Read::Turn => Val::Int(i64::from(state.turn)),
        Read::Active => Val::Int(state.active as i64),
        Read::Order => Val::Cards(state.order.iter().map(|&p| p as CardIx).collect()),
        Read::IsOver => Val::Int(i64::from(state.outcome.is_some())),
        Read::AnyAtLeast { stat, nstats, n } => {
            let hit = state
                .stats
                .iter()
                .skip(*stat)
                .step_by((*nstats).max(1))
                .any(|v| v >= n);
            Val::Int(i64::from(hit))
        }
        Read::Draw { from, to } => match state.zones[*from].pop() {
            Some(c) => {
                state.zones[*to].push(c);
                Val::Int(i64::from(c))
            }
            None => Val::Int(-1),
        },
    }
}

fn undo_draw(state: &mut State, key: &Read, v: &Val) -> Option<Undo> {
    match (key, v) {
        (Read::Draw { from, to }, Val::Int(c)) if *c >= 0 => Some(Undo::Move {
            from: *from,
            pos: state.zones[*from].len(),
            to: *to,
        }),
        _ => None,
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
                let moved = std::mem::take(&mut state.zones[*from]);
                let n = moved.len();
                state.zones[*to].extend(moved);
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
            state.push_decision((**d).clone());
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

/// A read's branches: a short list, or a table once there are many.
enum Children {
    Few(Vec<(Val, u32)>),
    Many(FxHashMap<Val, u32>),
}

impl Children {
    fn get(&self, v: &Val) -> Option<u32> {
        match self {
            Children::Few(l) => l.iter().find(|(cv, _)| cv == v).map(|(_, c)| *c),
            Children::Many(m) => m.get(v).copied(),
        }
    }
    fn add(&mut self, v: Val, c: u32) {
        match self {
            Children::Few(l) if l.len() < 8 => l.push((v, c)),
            Children::Few(l) => {
                let mut m: FxHashMap<Val, u32> = l.drain(..).collect();
                m.insert(v, c);
                *self = Children::Many(m);
            }
            Children::Many(m) => {
                m.insert(v, c);
            }
        }
    }
}

enum Node {
    Unknown,
    Done,
    Read { key: Read, children: Children },
    Write { op: Write, next: u32 },
}

/// The recorded runs of a game's hooks.
pub(crate) struct Memo {
    nodes: Vec<Node>,
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
            roots: FxHashMap::default(),
            undos: Vec::new(),
            off: Vec::new(),
            hits: 0,
            misses: 0,
            runs: FxHashMap::default(),
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
                Node::Read { key, children } => {
                    let v = read(state, key);
                    if let Some(u) = undo_draw(state, key, &v) {
                        undos.push(u);
                    }
                    match children.get(&v) {
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

    fn push(&mut self, node: Node) -> u32 {
        self.nodes.push(node);
        (self.nodes.len() - 1) as u32
    }

    /// Add a recorded run. A run that contradicts an earlier one (the same
    /// reads, other writes) turns memoisation off for that hook.
    pub fn insert(&mut self, hook: &str, args: &Args, ops: Vec<Op>) {
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
            let next = match (&self.nodes[n as usize], op) {
                (Node::Unknown, Op::Read(key, v)) => {
                    let c = self.push(Node::Unknown);
                    self.nodes[n as usize] = Node::Read {
                        key,
                        children: Children::Few(vec![(v, c)]),
                    };
                    c
                }
                (Node::Unknown, Op::Write(w)) => {
                    let c = self.push(Node::Unknown);
                    self.nodes[n as usize] = Node::Write { op: w, next: c };
                    c
                }
                (Node::Read { key, children }, Op::Read(k, v)) if *key == k => {
                    match children.get(&v) {
                        Some(c) => c,
                        None => {
                            let c = self.push(Node::Unknown);
                            if let Node::Read { children, .. } = &mut self.nodes[n as usize] {
                                children.add(v, c);
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
    fn nodes_stay_small() {
        // Replays walk many nodes: they must pack into cache lines.
        assert!(
            std::mem::size_of::<super::Node>() <= 64,
            "{}",
            std::mem::size_of::<super::Node>()
        );
    }
}
