//! A validated definition: names resolved to indices, parameters bound,
//! variants applied. Plain data (`Send + Sync`): no script, no engine.

use crate::definition::format::ParamValue;
use std::path::PathBuf;
use std::sync::Arc;

use super::format::{AttrValue, FaceValue, Per, TurnKind, Visibility};
use crate::error::Pos;

pub type PlayerIx = usize;
pub type CardIx = u16;

#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Player {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Stat {
    pub id: String,
    pub name: String,
    pub doc: String,
    /// The starting value, per player.
    pub start: Vec<i64>,
    /// Per player: that player's own name for the stat, or "".
    pub names: Vec<String>,
    /// Shown with the value (`Wounds 19/20`).
    pub limit: Option<i64>,
    /// Shown to players (`show: false` hides it; `--json` keeps it).
    pub show: bool,
    /// How its value reads (`show: yes-no`, words).
    pub shown: super::display::Shown,
}

impl Stat {
    /// The name a player's stat shows (their faction's name, if any).
    pub fn name_for(&self, owner: Option<PlayerIx>) -> &str {
        own_name(&self.names, &self.name, owner)
    }
}

#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Var {
    pub id: String,
    pub name: String,
    pub show: bool,
    /// How its value reads (`show: yes-no`, words).
    pub shown: super::display::Shown,
    pub start: i64,
    pub doc: String,
}

#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Param {
    pub id: String,
    /// The value; for a named parameter, the index of its name in `values`.
    pub value: i64,
    pub default: i64,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// Named values (empty for a number).
    pub values: Vec<String>,
    pub doc: String,
}

impl Param {
    /// A value as people write it: the number, or the name.
    pub fn show(&self, v: i64) -> String {
        usize::try_from(v)
            .ok()
            .and_then(|i| self.values.get(i))
            .cloned()
            .unwrap_or_else(|| v.to_string())
    }
}

#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Card {
    pub id: String,
    pub name: String,
    pub aliases: Vec<String>,
    pub copies: u32,
    pub text: String,
    pub attrs: Vec<(String, AttrValue)>,
    /// Display name by owner (index = player), for factions with own names.
    pub names: Vec<String>,
    /// The numbered family this card belongs to (`numbered:`), by its id.
    pub family: Option<String>,
    /// How the card shows on a grid board.
    pub symbol: char,
}

impl Card {
    /// The name a player's copy shows (their faction's name, if any).
    pub fn name_for(&self, owner: Option<PlayerIx>) -> &str {
        own_name(&self.names, &self.name, owner)
    }
    pub fn attr(&self, key: &str) -> Option<&AttrValue> {
        self.attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Zone {
    pub id: String,
    pub name: String,
    pub per: Per,
    pub visibility: Visibility,
    /// Only cards with these attributes can be here.
    pub holds: Option<Vec<(String, AttrValue)>>,
    /// The order of its cards does not matter.
    pub unordered: bool,
    /// Shown in the state players read.
    pub show: bool,
    /// Each card here records the player whose zone it came from.
    pub records_from: bool,
    /// The keys its cards are listed by to players (empty: as they lie).
    pub sort: Vec<super::display::SortKey>,
    /// A card entering from a player's zone stays known to that player.
    pub known_by_passer: bool,
    /// Each card here lies face up or down; None: all lie as `visibility`
    /// says.
    pub faces: Option<Faces>,
    /// Index of this zone's first slot in a state's zones.
    pub slot: usize,
}

/// A zone that keeps faces: how cards enter it, and who sees one face down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Faces {
    pub enter_down: bool,
    pub down: Visibility,
}

/// In a slot's per-card record (`State::origins`): the bit of a card
/// lying face down; the bits below it hold where the card came from.
pub const FACE_DOWN: u8 = 0x80;

impl Zone {
    /// Whether each card here carries a record: where it came from, or how
    /// it lies.
    #[inline]
    pub fn records(&self) -> bool {
        self.records_from || self.faces.is_some()
    }
    /// Whether some of its cards may be hidden from some player (not
    /// public, or laid face down).
    #[inline]
    pub fn may_hide(&self) -> bool {
        self.visibility != Visibility::Public || self.faces.is_some()
    }
    /// The record of a card entering from `by` (the owner + 1 of the zone
    /// it left, or 0), or None if this zone records nothing.
    #[inline]
    pub fn entry(&self, by: u8) -> Option<u8> {
        let from = if self.records_from { by } else { 0 };
        match self.faces {
            Some(f) if f.enter_down => Some(from | FACE_DOWN),
            Some(_) => Some(from),
            None => self.records_from.then_some(from),
        }
    }
    /// Whether `card` may be here (its attributes match `holds:`).
    pub fn fits(&self, card: &Card) -> bool {
        self.holds
            .as_ref()
            .is_none_or(|h| h.iter().all(|(k, v)| card.attr(k) == Some(v)))
    }

    /// What `holds:` asks for, as the YAML says it (`deck: character`).
    pub fn holds_text(&self) -> String {
        let parts: Vec<String> = self
            .holds
            .iter()
            .flatten()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        parts.join(", ")
    }
}

#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Die {
    pub id: String,
    pub name: String,
    /// Each face as players read it.
    pub faces: Vec<String>,
    /// Each face as scripts get it: an integer on a die of numbers, else
    /// the word.
    pub values: Vec<FaceValue>,
    /// Dice of this kind that can lie in zones (`count:`), 0 if none.
    pub count: u32,
    /// With a count: the card that stands for each face (by face index; a
    /// face listed twice has one card), and the hidden zone that holds the
    /// dice not rolled.
    pub cards: Vec<CardIx>,
    pub home: Option<usize>,
}

/// What each new game of a match keeps from the last (`match: keep:`).
#[derive(Debug, Clone, Default)]
pub struct MatchKeep {
    pub stats: Vec<usize>,
    pub vars: Vec<usize>,
    pub zones: Vec<usize>,
}

#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Board {
    /// Terrain of each square, by index.
    pub squares: Vec<String>,
    /// The stat that holds positions.
    pub position: Option<usize>,
    /// Display character by terrain.
    pub symbols: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
pub enum Setup {
    /// Put these cards (already expanded by copies) into the zone; for a
    /// per-player zone, into every player's.
    Put {
        zone: usize,
        cards: Vec<CardIx>,
        /// A grid's cell (the zone's only place the cards go).
        cell: Option<usize>,
    },
    Shuffle {
        zone: usize,
    },
    /// Draw the turn order at random.
    RandomOrder,
    Hook {
        name: String,
    },
}

/// Who decides at a `decide` step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    All,
    Active,
    Player(PlayerIx),
}

/// A choice of several options at once (`pick: K`): each legal choice
/// is K of the options, a set (or, `ordered`, an arrangement).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pick {
    pub k: u32,
    pub ordered: bool,
}

impl Pick {
    /// The most choices a pick may make in one decision.
    pub const MAX_CHOICES: usize = 100_000;
}

/// How many choices picking `k` of `n` makes (saturating): the sets of
/// `k`, or, `ordered`, the arrangements.
pub fn pick_count(n: usize, k: usize, ordered: bool) -> u128 {
    if k > n {
        return 0;
    }
    let mut c: u128 = 1;
    for i in 0..k {
        c = c.saturating_mul((n - i) as u128);
        if !ordered {
            c /= (i + 1) as u128;
        }
    }
    c
}

#[derive(Debug, Clone)]
pub enum Options {
    /// The distinct cards in the decider's zone.
    Zone(usize),
    Words(Vec<String>),
}

#[derive(Debug, Clone)]
pub enum Step {
    Decide {
        name: Arc<str>,
        who: Who,
        simultaneous: bool,
        /// The choices are never revealed to the other players.
        secret: bool,
        /// Several options make one choice (`pick: K`).
        pick: Option<Pick>,
        options: Options,
        then: Arc<str>,
        prompt: Arc<str>,
    },
    Roll {
        die: usize,
        then: Option<String>,
        /// The var that receives the face's index.
        set: Option<usize>,
    },
    Hook {
        name: String,
    },
}

#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct VariantInfo {
    pub id: String,
    pub name: String,
    pub doc: String,
    pub sets: Vec<(String, ParamValue)>,
}

/// Everything about a game but its compiled script: plain tables that the
/// script API reads while a hook runs.
/// Read-only outside the crate: only the analyzer builds one (its fields
/// are public to read; `non_exhaustive` keeps others from making one that
/// skipped validation).
#[derive(Debug)]
#[non_exhaustive]
pub struct Def {
    pub id: String,
    pub name: String,
    pub summary: String,
    pub rules: String,
    pub path: PathBuf,
    pub players: Vec<Player>,
    pub stats: Vec<Stat>,
    pub vars: Vec<Var>,
    pub params: Vec<Param>,
    pub cards: Vec<Card>,
    pub zones: Vec<Zone>,
    pub dice: Vec<Die>,
    pub board: Option<Board>,
    /// The grid board, whose cells are the slots of one zone.
    pub grid: Option<super::Grid>,
    pub setup: Vec<Setup>,
    pub flow: Vec<Step>,
    pub turns: TurnKind,
    /// Turns after which the game is a draw.
    pub max_turns: Option<i64>,
    /// Whether the rules may read the turn number (a turn limit, or a
    /// script that calls `turn()`): if not, two positions that differ
    /// only in it play the same, and a state's key leaves it out. True
    /// until the script is known not to read it.
    pub reads_turn: bool,
    /// Every variant the file offers.
    pub variants: Vec<VariantInfo>,
    /// The variants applied to this game, in order.
    pub applied: Vec<String>,
    /// Parameters set on the command line or in a replay (after variants).
    pub sets: Vec<(String, ParamValue)>,
    /// Play a match: games until someone has this many wins.
    pub match_wins: Option<u32>,
    /// A match with no winner after this many games is a draw.
    pub match_max_games: u32,
    /// What a match keeps from game to game, and who starts the next game.
    pub match_keep: MatchKeep,
    pub match_starts: crate::definition::format::Starts,
    /// The stat that is each player's return at the end (`payoff:`).
    pub payoff: Option<usize>,
    /// A player with one legal option is not asked (`forced_moves: auto`).
    pub auto_forced: bool,
    /// Total number of zone slots in a state.
    pub slots: usize,
    /// The script files (main first, then variants') and the hooks the
    /// file names, with their arity and where they are named.
    pub script: ScriptRef,
    /// What kind of game this is, known before any state exists.
    pub capabilities: Capabilities,
    /// The names above to their indices (built with the lists, which are
    /// not changed after).
    pub ids: super::Ids,
}

/// The script a definition needs: files, and the hooks it must define.
#[derive(Debug, Clone, Default)]
pub struct ScriptRef {
    pub files: Vec<PathBuf>,
    pub hooks: Vec<HookRef>,
}

/// A hook named in the game file: a script function with this arity.
#[derive(Debug, Clone)]
pub struct HookRef {
    pub name: String,
    pub arity: usize,
    pub pos: Option<Pos>,
}

/// A game's static capabilities, read off the definition (so that a tool
/// such as `solve` can refuse a game before it searches). Conservative:
/// `chance_after_setup` and `hidden_information` are true when the file makes
/// them possible (a roll step, a hidden zone, a script hook that may draw
/// from the RNG is not visible here and is caught while searching).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Capabilities {
    pub players: usize,
    /// Some decision is taken by several players at once.
    pub simultaneous: bool,
    /// The flow rolls a die after setup.
    pub chance_after_setup: bool,
    /// Some zone is hidden from some player.
    pub hidden_information: bool,
}

impl Def {
    pub fn player(&self, id: &str) -> Option<PlayerIx> {
        self.ids.player(id)
    }
    pub fn stat(&self, id: &str) -> Option<usize> {
        self.ids.stat(id)
    }
    pub fn var(&self, id: &str) -> Option<usize> {
        self.ids.var(id)
    }
    pub fn param(&self, id: &str) -> Option<&Param> {
        self.ids.param(id).map(|i| &self.params[i])
    }
    pub fn zone(&self, id: &str) -> Option<usize> {
        self.ids.zone(id)
    }
    pub fn die(&self, id: &str) -> Option<usize> {
        self.ids.die(id)
    }
    /// The die a card stands for a face of, if it does (`count:`).
    pub fn die_of(&self, card: CardIx) -> Option<usize> {
        self.dice.iter().position(|d| d.cards.contains(&card))
    }
    /// A card by id or alias.
    pub fn card(&self, word: &str) -> Option<CardIx> {
        self.ids.card(word).map(|i| i as CardIx)
    }
    /// The state slot of a zone: `owner` is ignored for shared zones.
    pub fn slot(&self, zone: usize, owner: PlayerIx) -> usize {
        let z = &self.zones[zone];
        match z.per {
            Per::Player | Per::Cell => z.slot + owner,
            Per::Game => z.slot,
        }
    }
    /// Which of a zone's places `owner` names: a player's (by id), a
    /// cell's (by name), or the one place of a shared zone (any owner).
    pub fn place(&self, zone: usize, owner: &str) -> Option<usize> {
        match self.zones[zone].per {
            Per::Game => Some(0),
            Per::Player => self.player(owner),
            Per::Cell => self.grid.as_ref()?.cell(owner),
        }
    }
    /// The zone a state slot belongs to (slots are laid out zone by zone).
    pub fn zone_of_slot(&self, slot: usize) -> usize {
        let per = |z: &Zone| match z.per {
            Per::Player => self.nplayers(),
            Per::Game => 1,
            Per::Cell => self.grid.as_ref().map_or(0, super::Grid::len),
        };
        self.zones
            .iter()
            .position(|z| slot < z.slot + per(z))
            .unwrap_or(0)
    }
    /// The owners to iterate for a zone: every player, every cell of a
    /// grid (holes too: they stay empty), or just one slot.
    pub fn owners(&self, zone: usize) -> std::ops::Range<PlayerIx> {
        match self.zones[zone].per {
            Per::Player => 0..self.players.len(),
            Per::Game => 0..1,
            Per::Cell => 0..self.grid.as_ref().map_or(0, super::Grid::len),
        }
    }
    pub fn nplayers(&self) -> usize {
        self.players.len()
    }
}

/// `owner`'s own name from `names` (one per seat, "" for none), else `name`.
fn own_name<'a>(names: &'a [String], name: &'a str, owner: Option<PlayerIx>) -> &'a str {
    owner
        .and_then(|p| names.get(p))
        .filter(|n| !n.is_empty())
        .map_or(name, String::as_str)
}
