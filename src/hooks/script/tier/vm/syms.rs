//! The symbol table of a compiled script: every id the game defines (its
//! players, cards, zones, cells, columns, stats, vars and parameters) and
//! every text the script writes as a literal, each held once and named by
//! a small integer. Inside the VM a text that is a symbol stays that
//! integer: comparing two is comparing numbers, and an API function finds
//! the card or cell it names in an array, not a hash map. A text becomes a
//! Rhai string again only where it leaves the VM.

use rhai::ImmutableString;
use rustc_hash::FxHashMap;

use crate::definition::Def;
use crate::hooks::script::Keys;

/// Not of that kind.
pub(crate) const NONE: u32 = u32::MAX;

/// What a symbol names, kind by kind (`NONE` where it names none).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Kinds {
    pub player: u32,
    pub cell: u32,
    pub column: u32,
    pub stat: u32,
    pub var: u32,
    /// A card (by id or alias), a zone and a die.
    pub card: u32,
    pub zone: u32,
    pub die: u32,
}

pub(crate) struct Syms {
    texts: Vec<ImmutableString>,
    by_text: FxHashMap<Box<str>, u32>,
    kinds: Vec<Kinds>,
    /// Each player's, cell's and column's symbol, by index.
    pub players: Vec<u32>,
    pub cells: Vec<u32>,
    pub columns: Vec<u32>,
    pub cards: Vec<u32>,
    /// Each symbol as an ask's option makes it a choice (None where an
    /// ask refuses it), made once the script is lowered (`finish`).
    choices: Vec<Option<crate::core::Choice>>,
    /// The longest symbol's text, in bytes (a list of symbols within
    /// Rhai's limits is known so without adding up their texts).
    pub longest: usize,
    /// Each symbol's text's length in bytes (what Rhai's limits count).
    lens: Vec<u32>,
    /// Rhai's hash of each symbol's text as a `switch` value (the tree
    /// tier's `hash` of it as a Rhai string).
    hashes: Vec<u64>,
    /// The keys a map option of an ask reads (`text`, `label`), where
    /// the script has them (made by `finish`).
    pub key_text: Option<u32>,
    pub key_label: Option<u32>,
    /// The texts the game's data fixes (card names, attributes), as the
    /// VM's values (made by `finish`).
    pub data: super::texts::Texts,
    /// Each symbol's text as data shares it (`Value::Text`, a map's key),
    /// made by `finish`: what an ask's option holds without looking its
    /// texts up in the thread's (`interned::text`).
    shared: Vec<std::sync::Arc<str>>,
}

impl Syms {
    /// Every id of `def`, the strings `keys` already made reused (a symbol
    /// that leaves the VM shares its text, not a copy).
    pub fn new(def: &Def, keys: &Keys) -> Syms {
        let mut s = Syms {
            texts: Vec::new(),
            by_text: FxHashMap::default(),
            kinds: Vec::new(),
            players: Vec::new(),
            cells: Vec::new(),
            columns: Vec::new(),
            cards: Vec::new(),
            choices: Vec::new(),
            longest: 0,
            lens: Vec::new(),
            hashes: Vec::new(),
            key_text: None,
            key_label: None,
            data: super::texts::Texts::default(),
            shared: Vec::new(),
        };
        let players: Vec<u32> = keys.players.iter().map(|t| s.add(def, t.clone())).collect();
        let cards: Vec<u32> = keys.cards.iter().map(|t| s.add(def, t.clone())).collect();
        let cells: Vec<u32> = keys.cells.iter().map(|t| s.add(def, t.clone())).collect();
        let columns: Vec<u32> = keys.columns.iter().map(|t| s.add(def, t.clone())).collect();
        for z in &def.zones {
            s.intern(def, &z.id);
        }
        for x in &def.stats {
            s.intern(def, &x.id);
        }
        for x in &def.vars {
            s.intern(def, &x.id);
        }
        for x in &def.params {
            s.intern(def, &x.id);
        }
        // Every attribute's key: a text that is no symbol names none.
        for c in &def.cards {
            for (k, _) in &c.attrs {
                s.intern(def, k);
            }
        }
        s.players = players;
        s.cards = cards;
        s.cells = cells;
        s.columns = columns;
        s
    }

    /// The symbol of `text`, made if new (at load: a literal of the
    /// script).
    pub fn intern(&mut self, def: &Def, text: &str) -> u32 {
        match self.by_text.get(text) {
            Some(&s) => s,
            None => self.add(def, text.into()),
        }
    }

    fn add(&mut self, def: &Def, text: ImmutableString) -> u32 {
        if let Some(&s) = self.by_text.get(text.as_str()) {
            return s;
        }
        let n = u32::try_from(self.texts.len()).unwrap_or(NONE);
        let ix = |o: Option<usize>| o.map_or(NONE, |i| u32::try_from(i).unwrap_or(NONE));
        let grid = def.grid.as_ref();
        self.kinds.push(Kinds {
            player: ix(def.player(&text)),
            cell: ix(grid.and_then(|g| g.cell(&text))),
            column: ix(grid.and_then(|g| g.column(&text))),
            stat: ix(def.stat(&text)),
            var: ix(def.var(&text)),
            card: ix(def.card(&text).map(|c| c as usize)),
            zone: ix(def.zone(&text)),
            die: ix(def.die(&text)),
        });
        self.longest = self.longest.max(text.len());
        self.lens
            .push(u32::try_from(text.len()).unwrap_or(u32::MAX));
        (self.hashes).push(super::super::run::hash(&text.clone().into()));
        self.by_text.insert(text.as_str().into(), n);
        self.texts.push(text);
        n
    }

    /// Every symbol's choice made (after the last is interned).
    pub fn finish(&mut self, def: &Def) {
        self.choices = (self.texts.iter())
            .map(|t| crate::hooks::script::api::flow::plain_choice(def, t))
            .collect();
        self.key_text = self.find("text");
        self.key_label = self.find("label");
        self.data = super::texts::Texts::new(def, self);
        self.shared = (self.texts.iter())
            .map(|t| crate::hooks::script::interned::text(t))
            .collect();
    }

    /// Symbol `s`'s text as data shares it (made by `finish`).
    #[inline]
    pub fn shared(&self, s: u32) -> std::sync::Arc<str> {
        match self.shared.get(s as usize) {
            Some(t) => std::sync::Arc::clone(t),
            None => crate::hooks::script::interned::text(self.text(s)),
        }
    }

    /// A text as the VM holds it: its symbol, else a Rhai string (as
    /// `V::of` makes it).
    pub fn value(&self, text: &str) -> super::value::V {
        match self.find(text) {
            Some(s) => super::value::V::Sym(s),
            None => super::value::V::Dyn(rhai::Dynamic::from(ImmutableString::from(text))),
        }
    }

    /// Symbol `s` as an ask's option.
    #[inline]
    pub fn choice(&self, s: u32) -> Option<&crate::core::Choice> {
        self.choices.get(s as usize)?.as_ref()
    }

    /// The symbol of a text made as the script runs, if it is one.
    #[inline]
    pub fn find(&self, text: &str) -> Option<u32> {
        self.by_text.get(text).copied()
    }

    /// How many symbols there are (each below this count).
    pub fn count(&self) -> u32 {
        u32::try_from(self.texts.len()).unwrap_or(NONE)
    }

    #[inline]
    pub fn text(&self, s: u32) -> &ImmutableString {
        &self.texts[s as usize]
    }

    /// The length of symbol `s`'s text, in bytes.
    #[inline]
    pub fn len(&self, s: u32) -> usize {
        self.lens[s as usize] as usize
    }

    /// Rhai's hash of symbol `s` as a `switch` value.
    #[inline]
    pub fn hash(&self, s: u32) -> u64 {
        self.hashes[s as usize]
    }

    #[inline]
    pub fn kinds(&self, s: u32) -> &Kinds {
        &self.kinds[s as usize]
    }
}
