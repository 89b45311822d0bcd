//! The game file as written: plain serde structs, unvalidated.
//!
//! Every field is optional so that the same type serves a whole game, a file
//! that `extends:` another, and a variant's overlay (see `merge`). Names that
//! refer to something else (a zone, a hook, a player) are `Spanned` so that
//! validation can point at them. docs/format.md is the designer's reference.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_saphyr::Spanned;
use std::cell::RefCell;
use std::path::PathBuf;

use super::bounds;
use crate::error::Pos;

pub type Name = At<String>;

thread_local! {
    /// The file being deserialized, so that every `At` knows where it is from
    /// even after files are merged (`extends`, variants).
    static CURRENT_FILE: RefCell<PathBuf> = const { RefCell::new(PathBuf::new()) };
}

/// Run `f` with `file` as the file that `At` values are attributed to.
pub fn with_file<T>(file: &std::path::Path, f: impl FnOnce() -> T) -> T {
    CURRENT_FILE.with(|c| *c.borrow_mut() = file.to_path_buf());
    f()
}

/// A value and where it was written. Equality and hashing ignore the position.
#[derive(Debug, Clone)]
pub struct At<T> {
    pub value: T,
    pub pos: Option<Pos>,
}

impl<T> At<T> {
    pub fn new(value: T) -> At<T> {
        At { value, pos: None }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for At<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = Spanned::<T>::deserialize(d)?;
        let pos = CURRENT_FILE
            .with(|c| Pos::new(&c.borrow(), s.referenced.line(), s.referenced.column()));
        Ok(At {
            value: s.value,
            pos,
        })
    }
}

/// In the schema an `At<T>` is just a `T`: the position is the parser's.
impl<T: JsonSchema> JsonSchema for At<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        generator.subschema_for::<T>()
    }
    fn inline_schema() -> bool {
        true
    }
}

/// The JSON Schema of a game file, for editors (docs/game.schema.json).
pub fn schema() -> String {
    let s = schemars::schema_for!(GameFile);
    serde_json::to_string_pretty(&s).unwrap_or_default()
}

impl<T: PartialEq> PartialEq for At<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}
impl<T: Eq> Eq for At<T> {}
impl<T: std::hash::Hash> std::hash::Hash for At<T> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.value.hash(h)
    }
}

#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    /// Another game file (id or path relative to this file) this one overlays.
    pub extends: Option<Name>,
    pub id: Option<Name>,
    pub name: Option<String>,
    pub summary: Option<String>,
    /// The Rhai script, relative to this file; default `../scripts/<id>.rhai`.
    pub script: Option<At<std::path::PathBuf>>,
    pub players: Option<Vec<PlayerDef>>,
    /// How many of `players` take part: a number or `{param: NAME}`, 1 to
    /// the players listed (default all).
    #[schemars(transform = bounds::PLAYER_COUNT.schema())]
    pub player_count: Option<At<StartValue>>,
    #[serde(default)]
    pub stats: IndexMap<String, StatDef>,
    #[serde(default)]
    pub vars: IndexMap<String, VarDef>,
    #[serde(default)]
    pub params: IndexMap<String, ParamDef>,
    #[serde(default)]
    pub cards: IndexMap<String, CardDef>,
    #[serde(default)]
    pub zones: IndexMap<String, ZoneDef>,
    #[serde(default)]
    pub dice: IndexMap<String, DieDef>,
    pub board: Option<BoardDef>,
    pub setup: Option<Vec<SetupStep>>,
    pub flow: Option<FlowDef>,
    pub rules: Option<String>,
    #[serde(default)]
    pub variants: IndexMap<String, VariantDef>,
    /// Play a match of several games instead of one.
    #[serde(rename = "match")]
    pub match_: Option<MatchDef>,
    /// The players' returns are this stat at the end (chips, points)
    /// rather than win/draw/loss: `sim`, `solve` and `replay --json`
    /// report it.
    pub payoff: Option<Name>,
    /// `auto`: a decision where a player has one legal option is played
    /// for them without asking; `ask` (the default) asks anyway.
    pub forced_moves: Option<ForcedMoves>,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ForcedMoves {
    Ask,
    Auto,
}

/// A match: games are played until a player has `wins` game wins; drawn
/// games are replayed (they count toward `max_games` only).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MatchDef {
    /// Game wins that win the match, 1 to 1000 (a number, `{param:
    /// NAME}` or `{expr: TEXT}`).
    #[schemars(transform = bounds::WINS.schema())]
    pub wins: At<StartValue>,
    /// After this many games without a match winner, the match is a draw:
    /// 1 to 10000, at least `wins` (default 20).
    #[schemars(transform = bounds::MAX_GAMES.schema())]
    pub max_games: Option<At<StartValue>>,
    /// Stats, vars and zones (by id) that keep their values and cards from
    /// one game to the next instead of starting again (tokens of
    /// affection, a discard pile that stays out); setup still runs.
    #[serde(default)]
    pub keep: Vec<Name>,
    /// Who is active when the next game starts: `first` (the first seat,
    /// the default), `winner` or `loser` of the last game, or `next` (the
    /// seat after the one that started the last game).
    pub starts: Option<Starts>,
}

/// Who starts each game of a match after the first.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Starts {
    #[default]
    First,
    Winner,
    Loser,
    Next,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerDef {
    pub id: Name,
    pub name: Option<String>,
}

/// A per-player integer. `start` is one number for everyone or a map by player.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatDef {
    pub name: Option<String>,
    pub start: Option<At<StartValue>>,
    pub doc: Option<String>,
    /// The name each player's stat shows, by player id (a faction's own
    /// name for it: `{empire: Palpatine bonus}`).
    #[serde(default)]
    pub names: IndexMap<At<String>, String>,
    /// A limit shown with the value (`Wounds 19/20`): a number or
    /// `{param: NAME}`. Display only: the script enforces the rule.
    pub limit: Option<At<StartValue>>,
    /// How the value shows: `true` (the number), `false` (not shown; `--json`
    /// keeps it), `yes-no`, or a word per value from 0.
    pub show: Option<At<super::display::ShowDef>>,
}

impl StatDef {
    /// Field by field: what `top` gives replaces, names merge by player.
    fn merge(mut self, top: StatDef) -> StatDef {
        self.name = top.name.or(self.name);
        self.start = top.start.or(self.start);
        self.doc = top.doc.or(self.doc);
        self.limit = top.limit.or(self.limit);
        self.show = top.show.or(self.show);
        self.names.extend(top.names);
        self
    }
}

pub use super::numbers::StartValue;

/// A game-wide integer (a counter of held rounds, a flag).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VarDef {
    pub name: Option<String>,
    /// Any whole number (default 0): a number, `{param: NAME}` or
    /// `{expr: TEXT}`.
    pub start: Option<At<StartValue>>,
    /// How it shows on the board: `true` (the number, the default), `false`
    /// (bookkeeping: not shown; `--json` keeps it), `yes-no`, or a word per
    /// value from 0.
    pub show: Option<At<super::display::ShowDef>>,
    pub doc: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ParamDef {
    /// A number, or one of `values`.
    pub default: Option<At<ParamValue>>,
    /// The least value it may be set to (any whole number; at most `max`).
    pub min: Option<At<i64>>,
    /// The greatest value it may be set to.
    pub max: Option<At<i64>>,
    /// Named values (`[random, descending, ascending]`): the parameter is
    /// set and read by name.
    #[serde(default)]
    pub values: Vec<At<String>>,
    pub doc: Option<String>,
}

/// A parameter's value as written: a number, or a name of its `values`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize, serde::Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ParamValue {
    Int(i64),
    Word(String),
}

impl From<i64> for ParamValue {
    fn from(i: i64) -> ParamValue {
        ParamValue::Int(i)
    }
}

impl std::fmt::Display for ParamValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamValue::Int(i) => write!(f, "{i}"),
            ParamValue::Word(w) => f.write_str(w),
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardDef {
    pub name: Option<String>,
    /// Other words a player may type for this card (`7` for the Prince).
    #[serde(default)]
    pub aliases: Vec<At<String>>,
    /// How many copies a `put` of this card places (default 1): a number
    /// or `{param: NAME}`, 0 to 100000.
    #[schemars(transform = bounds::COPIES.schema())]
    pub copies: Option<At<StartValue>>,
    pub text: Option<String>,
    /// The character that shows the card on a grid board (default: the
    /// first letter of its name).
    pub symbol: Option<At<String>>,
    /// Free attributes a script reads with `attr(card, key)`.
    #[serde(default)]
    pub attrs: IndexMap<String, AttrValue>,
    /// The name a player's copy shows, by player id (a faction's own names
    /// for the same card).
    #[serde(default)]
    pub names: IndexMap<At<String>, String>,
    /// A numbered family instead of one card: cards `ID-1`, `ID-2`, ...
    /// for each number from `from` to `to` (numbers or `{param: NAME}`),
    /// each with the attribute `n`; `{n}` in `name` and `text` reads as the
    /// number. A setup `put` that names `ID` puts every one.
    pub numbered: Option<NumberedDef>,
    /// The card (or family) is in the game only when this parameter is not 0.
    pub when: Option<WhenDef>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NumberedDef {
    pub from: At<StartValue>,
    pub to: At<StartValue>,
}

impl CardDef {
    /// Field by field: what `top` gives replaces, maps merge by key.
    fn merge(mut self, top: CardDef) -> CardDef {
        self.name = top.name.or(self.name);
        if !top.aliases.is_empty() {
            self.aliases = top.aliases;
        }
        self.copies = top.copies.or(self.copies);
        self.text = top.text.or(self.text);
        self.symbol = top.symbol.or(self.symbol);
        self.attrs.extend(top.attrs);
        self.names.extend(top.names);
        self.numbered = top.numbered.or(self.numbered);
        self.when = top.when.or(self.when);
        self
    }
}

#[derive(Debug, Clone, Deserialize, PartialEq, JsonSchema)]
#[serde(untagged)]
pub enum AttrValue {
    Int(i64),
    Bool(bool),
    Text(String),
}

impl std::fmt::Display for AttrValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AttrValue::Int(i) => write!(f, "{i}"),
            AttrValue::Bool(b) => write!(f, "{b}"),
            AttrValue::Text(t) => f.write_str(t),
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ZoneDef {
    pub name: Option<String>,
    /// `player`: one zone per player (a hand); `game`: one shared zone (a deck).
    pub per: Option<Per>,
    /// Who sees the cards: `public`, `owner` (only the owning player) or `hidden`.
    pub visibility: Option<Visibility>,
    /// Only cards whose attributes match these can be here (a deck of one
    /// kind). Bots use it when they guess where unseen cards are.
    #[serde(default)]
    pub holds: IndexMap<String, AttrValue>,
    /// The order of the cards here never matters to the rules (a hand, a
    /// pile of played cards): `solve` then treats the zone as a set.
    pub unordered: Option<bool>,
    /// `false`: the state players read leaves the zone out (cards out of
    /// the game, such as what setup did not deal); `--json` keeps it.
    pub show: Option<bool>,
    /// Each card here records the player whose zone it came from (an enemy
    /// remembers who played it): the script's `entries()` reads it.
    pub records_from: Option<bool>,
    /// The order the cards are listed in to players: `order` (the cards'
    /// order in this file), `id`, `name`, an attribute (`-rank`: high
    /// first), a list of these, or `none` (as they lie). Default: `order`
    /// in a hand only its owner sees, `none` elsewhere. Display only.
    pub sort: Option<At<super::display::SortDef>>,
    /// A card that enters here from a player's zone stays known to that
    /// player (the passer: they saw it there), wherever it goes next, as
    /// if shown to them (`show_to`): three cards passed in Hearts, a hand
    /// traded in Love Letter. A shuffle forgets it.
    pub known_by_passer: Option<bool>,
    /// Each card here lies face up or face down, and enters this way
    /// (`up` or `down`); the script turns cards over (`reveal`, `conceal`).
    pub faces: Option<Face>,
    /// Who sees a face-down card here: `owner` (the player whose zone it
    /// is: they laid it) or `hidden` (nobody). Default: `owner` in a
    /// player's zone, `hidden` in a shared one. Implies `faces: up` if
    /// `faces` is not given.
    pub face_down: Option<FaceDown>,
    /// A grid board: the zone has one place per cell (`a1` bottom left),
    /// each holding cards (pieces); at most one zone of a game is a grid.
    pub grid: Option<GridDef>,
}

/// A grid's size (numbers or `{param: NAME}`) and its holes.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GridDef {
    /// Rows, numbered 1 from the bottom: 1 to 99.
    #[schemars(transform = bounds::ROWS.schema())]
    pub rows: At<StartValue>,
    /// Columns, lettered `a` from the left: 1 to 26.
    #[schemars(transform = bounds::COLUMNS.schema())]
    pub columns: At<StartValue>,
    /// Cells that are not part of the board (a shape other than a rectangle).
    #[serde(default)]
    pub holes: Vec<At<String>>,
    /// `square` (the default) or `hex`: hexagons on a rhombus, six
    /// neighbours each, drawn with each row half a cell right of the one
    /// below (OpenSpiel's Hex board).
    pub shape: Option<super::grid::Shape>,
}

impl ZoneDef {
    /// Field by field: what `top` gives replaces (a variant that makes a
    /// deck public keeps it shared).
    fn merge(mut self, top: ZoneDef) -> ZoneDef {
        self.name = top.name.or(self.name);
        self.per = top.per.or(self.per);
        self.visibility = top.visibility.or(self.visibility);
        if !top.holds.is_empty() {
            self.holds = top.holds;
        }
        self.unordered = top.unordered.or(self.unordered);
        self.show = top.show.or(self.show);
        self.records_from = top.records_from.or(self.records_from);
        self.sort = top.sort.or(self.sort);
        self.known_by_passer = top.known_by_passer.or(self.known_by_passer);
        self.faces = top.faces.or(self.faces);
        self.face_down = top.face_down.or(self.face_down);
        self.grid = top.grid.or(self.grid);
        self
    }
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Per {
    Player,
    Game,
    /// One place per cell of the grid (`grid:`), not written in a file.
    #[serde(skip)]
    #[schemars(skip)]
    Cell,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, serde::Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    Public,
    Owner,
    Hidden,
}

/// How a card lies in a zone that keeps faces.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Face {
    Up,
    Down,
}

/// Who sees a face-down card.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FaceDown {
    Owner,
    Hidden,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DieDef {
    /// A number of sides (`6`: faces 1 to 6, or `{param: NAME}`), or the
    /// faces listed: all numbers (`[1, 1, 2, 3]`) or all words.
    pub faces: At<FacesDef>,
    /// How the die is named (default: its id).
    pub name: Option<String>,
    /// How many of these dice the game has, to roll into zones (a cup, a
    /// player's kept dice): `roll_into` and `reroll` in the script. A
    /// number or `{param: NAME}`, 1 to 1000; without it the die is only
    /// rolled by a flow step or `roll()`.
    #[schemars(transform = bounds::DICE.schema())]
    pub count: Option<At<StartValue>>,
}

/// A die's faces: how many sides, or the list.
#[derive(Debug, Clone, JsonSchema)]
#[serde(untagged)]
pub enum FacesDef {
    #[schemars(transform = bounds::SIDES.list_schema())]
    List(Vec<FaceValue>),
    #[schemars(transform = bounds::SIDES.schema())]
    Sides(StartValue),
}

/// One face: a number (a die of numbers gives scripts integers) or a word.
#[derive(Debug, Clone, Deserialize, PartialEq, JsonSchema)]
#[serde(untagged)]
pub enum FaceValue {
    Number(i64),
    Word(String),
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardDef {
    /// Squares numbered 0..size-1: a number or `{param: NAME}`, 1 to
    /// 100000.
    #[schemars(transform = bounds::SQUARES.schema())]
    pub size: At<StartValue>,
    /// Terrain of every square not listed.
    pub default: Option<String>,
    /// Terrain name -> the squares that have it (numbers or `{param:
    /// NAME}`, 0 or more; a square past the end of the board is ignored).
    #[serde(default)]
    #[schemars(transform = bounds::SQUARE.schema())]
    pub terrain: IndexMap<String, Vec<At<StartValue>>>,
    /// The stat that holds a player's square (for the board display).
    pub position: Option<Name>,
    /// How a terrain is drawn on the board display (one character).
    #[serde(default)]
    pub symbols: IndexMap<String, String>,
}

/// One step of setup, run once before the first turn, in order.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "lowercase")]
pub enum SetupStep {
    /// Put cards into a zone (each player's, for a per-player zone).
    Put(Box<PutStep>),
    /// Shuffle a zone with the game's seeded RNG.
    Shuffle(Name),
    /// Draw the turn order (seat order) at random: `order: random`.
    Order(Name),
    /// Call a script function with no arguments.
    Hook(Name),
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PutStep {
    pub zone: Name,
    /// `all` or a list of card ids; each card put `copies` times.
    pub cards: At<CardSelection>,
    /// Only cards whose attributes match all of these.
    #[serde(default, rename = "where")]
    pub filter: IndexMap<String, AttrValue>,
    /// Put this many of each card instead of its `copies` (a number or
    /// `{param: NAME}`, 0 to 100000).
    #[schemars(transform = bounds::COPIES.schema())]
    pub count: Option<At<StartValue>>,
    /// Put the cards this many times over (two decks shuffled together):
    /// a number or `{param: NAME}`, 1 to 100.
    #[schemars(transform = bounds::TIMES.schema())]
    pub times: Option<At<StartValue>>,
    /// The cell of a grid zone to put them on (`d4`).
    pub cell: Option<Name>,
}

#[derive(Debug, Clone, JsonSchema)]
#[serde(untagged)]
pub enum CardSelection {
    Word(Name),
    List(Vec<Name>),
}

/// By hand rather than `untagged`: serde buffers an untagged enum's
/// content, which loses where each card id of a list is written (a typo's
/// caret then points at the list's `[`).
impl<'de> Deserialize<'de> for CardSelection {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Selection;
        impl<'de> serde::de::Visitor<'de> for Selection {
            type Value = CardSelection;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("`all`, a card id, or a list of card ids")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<CardSelection, E> {
                Ok(CardSelection::Word(At::new(v.to_string())))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<CardSelection, A::Error> {
                let mut out = Vec::new();
                while let Some(name) = seq.next_element::<Name>()? {
                    out.push(name);
                }
                Ok(CardSelection::List(out))
            }
        }
        d.deserialize_any(Selection)
    }
}

#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowDef {
    /// The steps of one turn, repeated until a script ends the game.
    pub turn: Vec<At<FlowStep>>,
    /// `all` (every turn is everyone's, a round) or `rotate` (one active player
    /// per turn, in seat order).
    pub turns: Option<TurnKind>,
    /// A game still going after this many turns is a draw (a safety cap):
    /// a number or `{param: NAME}`, 1 to 1000000.
    #[schemars(transform = bounds::MAX_TURNS.schema())]
    pub max_turns: Option<At<StartValue>>,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, Default, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TurnKind {
    #[default]
    All,
    Rotate,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowStep {
    /// A decision: its name, shown to players.
    pub decide: Option<Name>,
    /// A chance event: roll this die and pass the face to `then`.
    pub roll: Option<Name>,
    /// Call a script function with no arguments.
    pub hook: Option<Name>,
    /// Who decides: `all`, `active`, or a player id (default `all`).
    pub who: Option<Name>,
    /// Everyone in `who` commits in secret, then all choices are revealed.
    #[serde(default)]
    pub simultaneous: bool,
    /// The choices are never shown to the other players (cards passed
    /// face down); otherwise a simultaneous decision's are revealed
    /// together once all have chosen.
    #[serde(default)]
    pub secret: bool,
    /// Several options make one choice: the player picks this many at once
    /// (three cards to pass), and `then` receives the list of them. A
    /// number from 1, `{param: NAME}` or `{expr: TEXT}`.
    #[schemars(transform = bounds::PICK.schema())]
    pub pick: Option<At<StartValue>>,
    /// With `pick`: the order the options are picked in counts (each
    /// arrangement is its own choice, and `then` gets them in that order).
    pub ordered: Option<At<bool>>,
    /// Options: the distinct cards in this zone of the deciding player.
    pub from: Option<Name>,
    /// Options: these words.
    pub options: Option<Vec<At<String>>>,
    /// The script function that receives the choices (a map player -> choice).
    pub then: Option<Name>,
    pub prompt: Option<String>,
    /// For `roll`: a var that receives the face's index (0-based), so that
    /// no hook is needed just to remember it.
    pub set: Option<Name>,
    /// Run the step only when this parameter is not 0: `{param: NAME}`.
    pub when: Option<WhenDef>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WhenDef {
    pub param: Name,
}

#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VariantDef {
    pub name: Option<String>,
    pub doc: Option<String>,
    /// Parameter values this variant sets.
    #[serde(default)]
    pub set: IndexMap<At<String>, At<ParamValue>>,
    /// Any part of a game file, merged over the game (see `merge`).
    pub overlay: Option<Box<GameFile>>,
}

/// Merge `top` over `base`: scalars and lists in `top` replace; keyed maps are
/// merged key by key (an entry in `top` replaces the whole entry in `base`).
pub fn merge(base: GameFile, top: GameFile) -> GameFile {
    fn keyed<V>(mut base: IndexMap<String, V>, top: IndexMap<String, V>) -> IndexMap<String, V> {
        for (k, v) in top {
            base.insert(k, v);
        }
        base
    }
    /// Keyed, but an entry in both is merged field by field.
    fn by_field<V: Default>(
        mut base: IndexMap<String, V>,
        top: IndexMap<String, V>,
        merge: fn(V, V) -> V,
    ) -> IndexMap<String, V> {
        for (k, v) in top {
            match base.get_mut(&k) {
                Some(old) => *old = merge(std::mem::take(old), v),
                None => {
                    base.insert(k, v);
                }
            }
        }
        base
    }
    GameFile {
        extends: None,
        id: top.id.or(base.id),
        name: top.name.or(base.name),
        summary: top.summary.or(base.summary),
        script: top.script.or(base.script),
        players: top.players.or(base.players),
        player_count: top.player_count.or(base.player_count),
        stats: by_field(base.stats, top.stats, StatDef::merge),
        vars: keyed(base.vars, top.vars),
        params: keyed(base.params, top.params),
        cards: by_field(base.cards, top.cards, CardDef::merge),
        zones: by_field(base.zones, top.zones, ZoneDef::merge),
        dice: keyed(base.dice, top.dice),
        board: top.board.or(base.board),
        setup: top.setup.or(base.setup),
        flow: top.flow.or(base.flow),
        rules: top.rules.or(base.rules),
        payoff: top.payoff.or(base.payoff),
        forced_moves: top.forced_moves.or(base.forced_moves),
        variants: keyed(base.variants, top.variants),
        match_: top.match_.or(base.match_),
    }
}
