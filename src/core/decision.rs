//! Decisions: what a player can choose, what a decision asks, and the
//! choices made so far.

use std::cell::RefCell;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use thread_local::ThreadLocal;

use super::{AsDef, Value};
use crate::definition::{CardIx, PlayerIx};

/// One thing a player can choose: a card, a word (`pass`, `back`), or an
/// option a script built from data (a number, a card and a target).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Choice {
    Card(CardIx),
    /// Shared: decisions are cloned often in playouts.
    Word(Arc<str>),
    Data(Arc<Datum>),
}

/// A structured option: the text a player types and a replay records
/// (unique among a decider's options), and the value its continuation
/// receives.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Datum {
    pub text: Arc<str>,
    pub value: Value,
}

impl Choice {
    /// The stable text form: a card's id, or the word.
    pub fn text<'a>(&'a self, game: &'a (impl AsDef + ?Sized)) -> &'a str {
        match self {
            Choice::Card(c) => &game.def().cards[*c as usize].id,
            Choice::Word(w) => w,
            Choice::Data(d) => &d.text,
        }
    }
    /// Whether its text form is `text`, without building it.
    pub fn text_is(&self, text: &str) -> bool {
        match self {
            Choice::Card(_) => false,
            Choice::Word(w) => &**w == text,
            Choice::Data(d) => &*d.text == text,
        }
    }
    /// As players read it: a card's name (as `owner`'s copy shows it), or
    /// the word.
    pub fn name<'a>(&'a self, game: &'a (impl AsDef + ?Sized), owner: Option<PlayerIx>) -> &'a str {
        match self {
            Choice::Card(ix) => game.def().cards[*ix as usize].name_for(owner),
            Choice::Word(w) => w,
            Choice::Data(d) => &d.text,
        }
    }
}

/// One decider's legal choices. Shared: the same cards in hand give the
/// same list, kept from one ask to the next (`AskCache::choices`).
pub type Choices = Arc<[Choice]>;

/// What a decision asks. Shared: a recorded ask is replayed (cloned into
/// the state) in every playout that reaches it.
#[derive(Debug, PartialEq)]
pub struct Ask {
    pub name: Arc<str>,
    pub prompt: Arc<str>,
    /// Who decides; several players decide simultaneously.
    pub players: SmallVec<[PlayerIx; 4]>,
    /// Each decider's legal choices, by position in `players`.
    pub options: SmallVec<[Choices; 2]>,
    /// The script function that receives the choices.
    pub then: Arc<str>,
    /// What an option means, shown with it (`back 3: square 5 -> 2`); not
    /// part of a position (two asks that differ only here are the same).
    pub labels: Vec<(Choice, Arc<str>)>,
    /// What the asker hands on to `then` (Unit: nothing).
    pub data: Value,
    /// The choices are never shown to the other deciders (cards laid face
    /// down); otherwise they are revealed together once all have chosen.
    pub secret: bool,
    /// Each choice is several options at once (`pick: K`): the REPL and
    /// the page offer the options to pick from rather than every set.
    pub pick: Option<crate::definition::Pick>,
}

impl Ask {
    /// The label the asker gave `choice`, if any.
    pub fn label(&self, choice: &Choice) -> Option<&str> {
        self.labels
            .iter()
            .find(|(c, _)| c == choice)
            .map(|(_, l)| &**l)
    }
}

/// A decision the game waits for: the ask, and the choices made so far.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub ask: Arc<Ask>,
    /// Inline for up to four deciders: a decision is made every turn.
    pub chosen: SmallVec<[Option<Choice>; 4]>,
    /// Must choose and reveal before the others (an ordered reveal).
    pub first: Option<PlayerIx>,
}

impl std::ops::Deref for Decision {
    type Target = Ask;
    fn deref(&self) -> &Ask {
        &self.ask
    }
}

impl Decision {
    #[inline]
    pub fn new(ask: Arc<Ask>) -> Decision {
        // Pushed, not `smallvec![None; n]`: that goes through a generic
        // `extend`, several times the cost for two or four deciders.
        let mut chosen = SmallVec::new();
        for _ in 0..ask.players.len() {
            chosen.push(None);
        }
        Decision {
            chosen,
            ask,
            first: None,
        }
    }

    /// The players who may choose now, in seat order: in an ordered reveal
    /// the one who reveals first until they have chosen, else everyone who
    /// has not chosen yet. The one statement of that rule.
    #[inline]
    pub(crate) fn waiting_now(&self) -> impl Iterator<Item = PlayerIx> + '_ {
        let undecided = || {
            self.players
                .iter()
                .zip(&self.chosen)
                .filter(|(_, c)| c.is_none())
                .map(|(&p, _)| p)
        };
        let first = self.first.filter(|&f| undecided().any(|p| p == f));
        undecided().filter(move |&p| first.is_none_or(|f| f == p))
    }
    /// The players who may choose now.
    pub fn waiting(&self) -> Vec<PlayerIx> {
        self.waiting_now().collect()
    }
    /// Whether `player` may choose now (`waiting` without the allocation).
    #[inline]
    pub fn may_choose(&self, player: PlayerIx) -> bool {
        self.waiting_now().any(|p| p == player)
    }

    /// `player`'s options if they may choose now (`may_choose`), else none:
    /// in one pass, for playouts.
    #[inline]
    pub fn options_now(&self, player: PlayerIx) -> &[Choice] {
        let Some(i) = self.players.iter().position(|&p| p == player) else {
            return &[];
        };
        if self.chosen[i].is_some() {
            return &[];
        }
        // In an ordered reveal, the others wait until the first has chosen.
        if let Some(f) = self.first
            && f != player
            && let Some(j) = self.players.iter().position(|&p| p == f)
            && self.chosen[j].is_none()
        {
            return &[];
        }
        &self.options[i]
    }

    #[inline]
    pub fn options_of(&self, player: PlayerIx) -> &[Choice] {
        match self.players.iter().position(|&p| p == player) {
            Some(i) => &self.options[i],
            None => &[],
        }
    }
    /// A choice already made that `viewer` may see: their own, or one
    /// revealed first.
    pub fn visible_choice(&self, player: PlayerIx, viewer: Option<PlayerIx>) -> Option<&Choice> {
        let i = self.players.iter().position(|&p| p == player)?;
        let c = self.chosen[i].as_ref()?;
        (viewer == Some(player) || self.first == Some(player)).then_some(c)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Outcome {
    Win(PlayerIx),
    Draw,
}

/// Asks of declared decision steps, shared between states: the same step,
/// deciders and cards give the same ask, so that playouts do not build (and
/// free) one every turn. One table per thread, bounded.
#[derive(Default)]
pub struct AskCache {
    tables: ThreadLocal<RefCell<AskTable>>,
}

/// A hash of (step, deciders, cards) -> (step, ask); a hash of one
/// decider's cards -> their choices (for asks not kept: hands that seldom
/// come back as a whole, but each decider's often does); and the options
/// both hold.
#[derive(Default)]
struct AskTable {
    asks: FxHashMap<u64, (usize, Arc<Ask>)>,
    choices: FxHashMap<u64, Choices>,
    options: usize,
}

impl AskTable {
    /// Whether a table of `len` entries may keep one more of `added`
    /// options in place of one of `freed`; if so, counted.
    fn room(&mut self, len: usize, freed: usize, added: usize) -> bool {
        let options = self.options - freed + added;
        let fits = len < MAX_ASKS && options <= MAX_KEPT_OPTIONS;
        if fits {
            self.options = options;
        }
        fits
    }
}

/// Whether `choices` are `cards`, one for one.
pub(crate) fn are_cards(choices: &[Choice], cards: &[CardIx]) -> bool {
    choices.len() == cards.len()
        && choices
            .iter()
            .zip(cards)
            .all(|(c, x)| *c == Choice::Card(*x))
}

/// Asks kept at most, per thread.
const MAX_ASKS: usize = 1 << 16;
/// Options the kept asks hold at most, per thread (16 to 24 bytes each): a
/// hand of thousands of cards makes asks of thousands of options, and as
/// many hands as it has cards.
const MAX_KEPT_OPTIONS: usize = 1 << 20;

impl AskCache {
    /// The ask kept under `key` for step `step` if `same` accepts it, else
    /// the one `build` makes (kept, while the table has room).
    #[inline]
    pub(crate) fn get_or_build<E>(
        &self,
        key: u64,
        step: usize,
        same: impl Fn(&Ask) -> bool,
        build: impl FnOnce() -> Result<Arc<Ask>, E>,
    ) -> Result<Arc<Ask>, E> {
        let table = self.tables.get_or_default();
        if let Some((s, ask)) = table.borrow().asks.get(&key)
            && *s == step
            && same(ask)
        {
            return Ok(ask.clone());
        }
        // Not borrowed while building: `build` takes choices from the table.
        let ask = build()?;
        let mut t = table.borrow_mut();
        let size = |a: &Ask| a.options.iter().map(|o| o.len()).sum::<usize>();
        // What a kept ask of the same key (another step's) gives back.
        let freed = t.asks.get(&key).map_or(0, |(_, a)| size(a));
        let len = t.asks.len();
        if t.room(len, freed, size(&ask)) {
            t.asks.insert(key, (step, ask.clone()));
        }
        Ok(ask)
    }

    /// `cards` as choices, kept under their hash while the table has room.
    pub(crate) fn choices(&self, cards: &[CardIx]) -> Choices {
        let mut h = rustc_hash::FxHasher::default();
        cards.hash(&mut h);
        let key = h.finish();
        let mut t = self.tables.get_or_default().borrow_mut();
        if let Some(c) = t.choices.get(&key)
            && are_cards(c, cards)
        {
            return c.clone();
        }
        let made: Choices = cards.iter().map(|&c| Choice::Card(c)).collect();
        let freed = t.choices.get(&key).map_or(0, |c| c.len());
        let len = t.choices.len();
        if t.room(len, freed, made.len()) {
            t.choices.insert(key, made.clone());
        }
        made
    }
}
