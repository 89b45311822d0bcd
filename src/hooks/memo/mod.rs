//! Hook memoisation, a decorator around any `Traceable` hooks: a hook
//! reaches the state only through the core's operations, so a run is a
//! sequence of reads (with the values seen) and writes. Recorded runs form a
//! trie per (hook, arguments): replaying walks it, doing each read on the
//! state and following the branch of its value, applying each write. A path
//! not seen yet falls back to the inner hooks (and is recorded). Records
//! hold no log lines, so only runs on states that do not log are replayed.
//! A number drawn from chance (`random`) is a read like any other: the
//! replay draws it from the state's chance the same way, and follows the
//! branch of the number drawn, so a hook that rolls a die replays too (on
//! a miss, chance is put back where it stood). A run that shuffles is
//! never recorded.
//!
//! A record leaves out the reads its own earlier steps determine (elide.rs),
//! and a branch is labelled by one word (`Label`), so that a replay walks
//! few, small nodes: the walk is bound by memory latency, not arithmetic.
//! Each thread has its own trie, so one game serves every thread.

mod elide;
mod key;
mod pays;

use key::{Hashes, Owned, key_hash, key_parts, same_key};

use std::cell::RefCell;

use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use thread_local::ThreadLocal;

use crate::core::ops::{Op, Read, Stash, Undo, Val, Write, distinct, entries, order_cards};
use crate::core::{Args, Call, ChanceMark, Event, Hooks, MemoStats, Miss, State, Traceable};
use crate::definition::CardIx;
use crate::error::Result;

/// Do a read on the state for a replay and give its label: None for a card
/// list never recorded (so no branch can match). A draw moves its card and
/// leaves an undo record. Card lists are built on the stack, not as values.
fn label(
    lists: &Lists,
    state: &mut State,
    key: &Read,
    undos: &mut Vec<Undo>,
    chance: &mut Option<ChanceMark>,
) -> Option<Label> {
    match key {
        Read::Cards(s) => label_of(lists, state.slot(*s as usize)),
        Read::Distinct(s) => label_of(lists, &distinct::<[CardIx; 16]>(state.slot(*s as usize))),
        Read::Order => label_of(lists, &order_cards::<[CardIx; 16]>(state)),
        Read::Entries(s) => label_of(lists, &entries::<[CardIx; 16]>(state, *s as usize)),
        _ => {
            if let Read::Random(_) = key {
                // The first draw of the replay marks where chance stood.
                chance.get_or_insert_with(|| state.chance_mark());
            }
            let (v, u) = state.read_undoable(key);
            if let Some(u) = u {
                undos.push(u);
            }
            match v {
                Val::Int(i) => Some(i as u64),
                Val::Cards(_) => None,
            }
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

/// The recorded runs of a game's hooks, on one thread.
struct Trie {
    /// Nodes at most (`MAX_NODES`), and whether the records are full (a
    /// run did not fit in the last eighth): no run is recorded (nor
    /// traced) after.
    bound: usize,
    full: bool,
    nodes: Vec<Node>,
    lists: Lists,
    /// hash of (hook, args) -> (hook, args, root).
    roots: FxHashMap<u64, Vec<(String, Vec<Owned>, u32)>>,
    /// Undo records of the replay in progress, and the bytes they keep
    /// out of line (kept to reuse the buffers).
    undos: Vec<Undo>,
    stash: Stash,
    /// Hooks found to use the RNG or to behave differently on equal reads.
    off: Vec<String>,
    hits: u64,
    misses: u64,
    /// Script runs by hook (for TABULA_MEMO_STATS).
    runs: FxHashMap<String, u64>,
    /// Script runs by hook and reason (`check --memo`).
    why: FxHashMap<String, FxHashMap<Miss, u64>>,
    /// Whether the memo pays, by hook (a game has few: a scan, the last
    /// one first, is cheaper than hashing the name), with where its name
    /// lay the last time.
    pays: Vec<(Box<str>, (usize, usize), pays::Pays)>,
    last_pays: usize,
    hashes: Hashes,
}

/// Recorded nodes at most (a memory bound: some 15 MB a thread for
/// Connect Four's records, about 110 bytes a node with the tables around
/// them; more where records hold asks: a run of The Path with four
/// players peaks at ~65 MB). Past it, runs are not recorded, nor traced, and what is recorded
/// still replays. Most games settle far below it (the timing table's
/// others under 60k nodes after their runs); The Path with four players
/// reaches it after some 5,000 games, at the same speed as with no bound.
/// Connect Four reaches it within 2,000 games: with no bound its records
/// kept growing (115 MB at 5,000 games, 181 MB at 30,000) for replays
/// that saved less than recording cost.
const MAX_NODES: usize = 1 << 17;

impl Trie {
    fn new(bound: usize) -> Trie {
        Trie {
            bound,
            full: false,
            nodes: Vec::new(),
            lists: Lists::default(),
            roots: FxHashMap::default(),
            undos: Vec::new(),
            stash: Stash::new(),
            off: Vec::new(),
            hits: 0,
            misses: 0,
            runs: FxHashMap::default(),
            why: FxHashMap::default(),
            pays: Vec::new(),
            last_pays: 0,
            hashes: Hashes::default(),
        }
    }

    fn pays(&mut self, hook: &str) -> &mut pays::Pays {
        // Found by where the name lies, as the last call saw it: a hook's
        // name comes from the game's definition or an ask's interned
        // text, so the place repeats and the text need not be compared
        // (twice a call, on every replay). A place another name took over
        // once the first was freed would share a hook's timings, never
        // change a result.
        let at = (hook.as_ptr() as usize, hook.len());
        let ix = if self.pays.get(self.last_pays).is_some_and(|e| e.1 == at) {
            self.last_pays
        } else if let Some(i) = self.pays.iter().position(|e| e.1 == at) {
            i
        } else if let Some(i) = self.pays.iter().position(|e| &*e.0 == hook) {
            self.pays[i].1 = at;
            i
        } else {
            self.pays.push((hook.into(), at, pays::Pays::new()));
            self.pays.len() - 1
        };
        self.last_pays = ix;
        &mut self.pays[ix].2
    }

    fn node_count(&self) -> usize {
        self.nodes.len()
    }

    fn enabled(&self, hook: &str) -> bool {
        !self.off.iter().any(|h| h == hook)
    }

    fn disable(&mut self, hook: &str) {
        if self.enabled(hook) {
            self.off.push(hook.to_string());
        }
    }

    fn root(&mut self, hook: &str, args: &Args) -> Option<u32> {
        let key = key_hash(hook, args, &self.hashes);
        self.roots
            .get(&key)?
            .iter()
            .find(|(h, a, _)| h == hook && same_key(a, args))
            .map(|(_, _, r)| *r)
    }

    /// A run of the script, and why.
    fn ran(&mut self, hook: &str, why: Miss) {
        self.misses += 1;
        // Looked up before inserting: a run allocates no key once its hook is known.
        match self.runs.get_mut(hook) {
            Some(n) => *n += 1,
            None => {
                self.runs.insert(hook.to_string(), 1);
            }
        }
        let per = match self.why.get_mut(hook) {
            Some(per) => per,
            None => self.why.entry(hook.to_string()).or_default(),
        };
        *per.entry(why).or_default() += 1;
    }

    /// Replay a recorded run on `state`: None if it went all the way; on a
    /// miss (why) the state is as it was.
    // Out of line: an anchor for where_time_goes.py.
    #[inline(never)]
    fn replay(&mut self, hook: &str, args: &Args, state: &mut State) -> Option<Miss> {
        let Some(mut n) = self.root(hook, args) else {
            return Some(Miss::NewArguments);
        };
        let mut undos = std::mem::take(&mut self.undos);
        undos.clear();
        self.stash.clear();
        let mut chance = None;
        let missed = loop {
            match &self.nodes[n as usize] {
                Node::Done => break None,
                Node::Unknown => break Some(Miss::Other),
                Node::Read { key, branches } => {
                    let Some(l) = label(&self.lists, state, key, &mut undos, &mut chance) else {
                        break Some(Miss::NewValue(key.clone()));
                    };
                    match branches.get(l) {
                        Some(c) => n = c,
                        None => break Some(Miss::NewValue(key.clone())),
                    }
                }
                Node::Write { op, next } => match state.write_undoable(op, &mut self.stash) {
                    Some(u) => {
                        undos.push(u);
                        n = *next;
                    }
                    None => break Some(Miss::Other),
                },
            }
        };
        match missed {
            None => self.hits += 1,
            Some(_) => {
                while let Some(u) = undos.pop() {
                    state.undo(u, &mut self.stash);
                }
                if let Some(m) = chance {
                    state.restore_chance(m);
                }
            }
        }
        self.undos = undos;
        missed
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
    // Out of line: an anchor for where_time_goes.py.
    #[inline(never)]
    fn insert(&mut self, hook: &str, args: &Args, ops: Vec<Op>) {
        if !self.enabled(hook) {
            return;
        }
        let ops = elide::elide(ops);
        if self.nodes.len() + ops.len() + 1 > self.bound {
            // Full once the records are near the bound; a single run too
            // long for the room left is only skipped.
            self.full = self.nodes.len() >= self.bound - self.bound / 8;
            return;
        }
        let mut n = match self.root(hook, args) {
            Some(r) => r,
            None => {
                let r = self.push(Node::Unknown);
                let key = key_hash(hook, args, &self.hashes);
                let parts = key_parts(args);
                self.hashes.note(&parts);
                self.roots
                    .entry(key)
                    .or_default()
                    .push((hook.to_string(), parts, r));
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

/// The memo decorator: replays recorded runs of `H`'s hooks on states that
/// do not log, and records the runs it could not replay.
pub struct Memo<H> {
    inner: H,
    tries: ThreadLocal<RefCell<Trie>>,
    /// Each thread's bound on its records, in nodes.
    bound: usize,
}

impl<H: Traceable> Memo<H> {
    pub fn new(inner: H) -> Memo<H> {
        Memo::bounded(inner, MAX_NODES)
    }

    /// With records of at most `bound` nodes a thread.
    fn bounded(inner: H, bound: usize) -> Memo<H> {
        Memo {
            inner,
            tries: ThreadLocal::new(),
            bound,
        }
    }
}

impl<H: Traceable> Memo<H> {
    /// A call through the memo: replayed, or run traced and recorded.
    fn through(
        &self,
        trie: &RefCell<Trie>,
        state: &mut State,
        call: &Call,
        events: &mut Vec<Event>,
    ) -> Result<()> {
        let mut t = trie.borrow_mut();
        let missed = match t.replay(call.hook, &call.args, state) {
            None => {
                t.pays(call.hook).hit();
                return Ok(());
            }
            Some(why) => why,
        };
        // Nothing more is recorded (the records are full, or the hook's
        // replays seldom hit): the run is not traced either.
        let unrecorded = if t.full {
            Some(Miss::Full)
        } else if !t.pays(call.hook).records() {
            Some(Miss::Unrecorded)
        } else {
            None
        };
        if let Some(why) = unrecorded {
            t.ran(call.hook, why);
            t.pays(call.hook).missed();
            drop(t);
            return self.inner.run(state, call, events);
        }
        drop(t);
        let (result, trace) = self.inner.run_traced(state, call, events);
        let mut t = trie.borrow_mut();
        // A traced run that gave no record drew from the RNG.
        let why = if trace.is_none() {
            Miss::Chance
        } else {
            missed
        };
        t.ran(call.hook, why);
        t.pays(call.hook).missed();
        result?;
        if let Some(ops) = trace {
            t.insert(call.hook, &call.args, ops);
        }
        Ok(())
    }
}

impl<H: Traceable> Hooks for Memo<H> {
    // Out of line, as an anchor for tests/reference/where_time_goes.py
    // (fat LTO would inline it; one call of this size costs nothing seen).
    #[inline(never)]
    fn run(&self, state: &mut State, call: &Call, events: &mut Vec<Event>) -> Result<()> {
        if state.logging() || state.any_waiting() {
            // Records hold no log lines; and a pile whose shuffle waits
            // (`State::shuffle_later`) is drawn when a live run looks at
            // it, which a replay would not do.
            return self.inner.run(state, call, events);
        }
        let trie = self.tries.get_or(|| RefCell::new(Trie::new(self.bound)));
        let ticket = {
            let mut t = trie.borrow_mut();
            if !t.enabled(call.hook) {
                None
            } else {
                Some(t.pays(call.hook).start())
            }
        };
        let Some(ticket) = ticket else {
            trie.borrow_mut().ran(call.hook, Miss::Off);
            return self.inner.run(state, call, events);
        };
        let r = if ticket.memo {
            self.through(trie, state, call, events)
        } else {
            trie.borrow_mut().ran(call.hook, Miss::Unpaid);
            self.inner.run(state, call, events)
        };
        if ticket.timed() {
            trie.borrow_mut().pays(call.hook).end(ticket);
        }
        r
    }

    fn defines(&self, name: &str, arity: usize) -> bool {
        self.inner.defines(name, arity)
    }

    fn memo_stats(&self) -> Option<MemoStats> {
        let trie = self.tries.get_or(|| RefCell::new(Trie::new(self.bound)));
        let t = trie.borrow();
        let mut runs: Vec<(String, u64)> = t.runs.iter().map(|(k, n)| (k.clone(), *n)).collect();
        runs.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
        let mut why: Vec<(String, Miss, u64)> = t
            .why
            .iter()
            .flat_map(|(h, per)| per.iter().map(move |(w, n)| (h.clone(), w.clone(), *n)))
            .filter(|(_, _, n)| *n > 0)
            .collect();
        why.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
        Some(MemoStats {
            hits: t.hits,
            misses: t.misses,
            runs,
            why,
            nodes: t.node_count(),
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
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
    fn a_full_memo_records_no_more_and_replays_what_it_holds() {
        use crate::core::{Hooks, Miss, State};
        use crate::hooks::script::{Compile, RhaiHooks};
        use crate::hooks::test_game::{Game, load};
        // A count that goes up each turn (a new position every turn) to 30.
        let (def, mut scripts) = load(
            "id: count\nscript: game.rhai\nplayers: [{id: a, name: A}, {id: b, name: B}]\n\
             vars: {n: {name: N, start: 0}}\n\
             flow: {turns: rotate, turn: [{hook: play_turn}]}\n",
            "fn play_turn() { ask(active(), \"go\", [1, 2], \"went\", #{}); }\n\
             fn went(choice) { add_var(\"n\", 1); if get_var(\"n\") >= 30 { end_game(\"\", \"done\"); } }\n",
            2,
        );
        let (script, again) = (scripts.remove(0), scripts.remove(0));
        let plain = Game(def.clone(), RhaiHooks::new(def.clone(), again, Compile::On));
        let bound = 25;
        let memo = Game(
            def.clone(),
            super::Memo::bounded(RhaiHooks::new(def.clone(), script, Compile::On), bound),
        );
        // Each player takes the first option.
        fn play(rules: &impl crate::core::Rules) -> String {
            let mut st = State::new_quiet(rules, 3).unwrap();
            while let Some(p) = st.first_waiting() {
                let c = st.legal(p)[0].clone();
                st.apply_unchecked(rules, p, c).unwrap();
            }
            format!("{st:?}")
        }
        let want = play(&plain);
        // The first game fills the records; the second replays its first
        // turns and runs the rest plainly.
        let first = play(&memo);
        let after_one = memo.1.memo_stats().unwrap();
        let second = play(&memo);
        let m = memo.1.memo_stats().unwrap();
        assert_eq!(first, want);
        assert_eq!(second, want);
        assert!(m.nodes <= bound, "{} nodes", m.nodes);
        assert!(after_one.nodes > bound / 2, "{} nodes", after_one.nodes);
        assert_eq!(m.nodes, after_one.nodes, "nothing recorded once full");
        assert!(m.hits > after_one.hits, "the second game replays");
        let full = m
            .why
            .iter()
            .find(|(h, w, _)| h == "went" && *w == Miss::Full);
        assert!(full.is_some_and(|(_, _, n)| *n > 0), "{:?}", m.why);
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
