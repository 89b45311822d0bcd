//! The replay / save format: game, variants, params, seed and the list of
//! decisions. Seed + settings + moves reproduce a game exactly.

use crate::definition::format::ParamValue;
use std::path::Path;

use indexmap::IndexMap;
use serde::Deserialize;

use crate::core::{Choice, Event, State};
use crate::definition::PlayerIx;
use crate::definition::Settings;
use crate::definition::format::{self, At};
use crate::error::{Error, ErrorKind, Illegal, Result, path_text};
use crate::game::Build;
use crate::game::Game;

/// A move's text: YAML may give `7` (a number) where a word is meant.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
enum Word {
    Int(i64),
    Text(String),
}

impl Word {
    fn into_string(self) -> String {
        match self {
            Word::Int(i) => i.to_string(),
            Word::Text(s) => s,
        }
    }
}

/// A value with its YAML tag, if one was written: a save has none, and a
/// tag that changes what a word reads as (`!!binary`) is refused.
type Plain<T> = serde_saphyr::Tagged<T>;

/// A save or replay file: a game (and its settings), where it starts (its
/// setup with the seed, or a position) and the moves made since
/// (docs/positions.md).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "tabula save file")]
struct ReplayFile {
    /// The game: its id in the games folder, or a path to its YAML file.
    #[schemars(with = "String")]
    game: At<Plain<String>>,
    /// Variants played, by id.
    #[serde(default)]
    variants: Vec<String>,
    /// Parameters set: id -> value.
    #[serde(default)]
    params: IndexMap<String, ParamValue>,
    /// The seed of the game's chance (from the position on, with its
    /// `draws`).
    seed: Option<u64>,
    /// The rules files' fingerprint when saved (`Game::fingerprint`).
    rules: Option<String>,
    /// Who played each seat: `person` or a bot's kind.
    #[serde(default)]
    seats: IndexMap<String, At<String>>,
    /// Where the game starts, when not from its setup (docs/positions.md).
    position: Option<At<super::position::PositionFile>>,
    /// One entry per decision, in order: player -> choice.
    #[serde(default)]
    #[schemars(with = "Vec<IndexMap<String, Word>>")]
    moves: Vec<At<IndexMap<String, At<Plain<Word>>>>>,
}

/// The JSON Schema of a save, replay or position file, for editors and
/// tools (docs/save.schema.json): the types the file is read into.
pub fn schema() -> String {
    let s = schemars::schema_for!(ReplayFile);
    serde_json::to_string_pretty(&s).unwrap_or_default()
}

/// A number or a mapping the reader could not take, said as what was
/// expected there.
fn number_words(msg: String) -> String {
    let whole = |range: &str| format!("a whole number is expected here ({range})");
    match msg.as_str() {
        "invalid u32" => whole("from 0 to 4294967295"),
        "invalid u64" => whole("from 0 to 2^64-1"),
        "invalid i64" => whole("from -2^63 to 2^63-1"),
        "expected mapping start" => {
            "expected a mapping here (`key: value` lines or `{key: value}`)".into()
        }
        _ => msg,
    }
}

/// The value, unless a tag other than `!!str` was written on it.
fn untagged<T>(v: At<Plain<T>>, path: &Path) -> Result<T> {
    let serde_saphyr::Tagged(value, tag) = v.value;
    match tag.as_deref() {
        None | Some("tag:yaml.org,2002:str" | "!!str") => Ok(value),
        Some(t) => Err(Error::new(
            ErrorKind::Yaml,
            format!(
                "not a valid replay file: a tag (`{}`) where a plain word is meant",
                t.replace("tag:yaml.org,2002:", "!!")
            ),
        )
        .at(v.pos.or_else(|| crate::error::Pos::new(path, 1, 1)))),
    }
}

/// A replay in memory. One move is one decision: player -> choice text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Replay {
    pub game: String,
    pub settings: Settings,
    pub seed: u64,
    pub moves: Vec<Vec<(String, String)>>,
    /// Where each move was written, when read from a file.
    pub positions: Vec<Option<crate::error::Pos>>,
    /// The fingerprint of the rules it was played under, if it says.
    pub rules: Option<u64>,
    /// Who played each seat (player id, `person` or a bot's kind), if it
    /// says: a save loads with its own seats, so nobody sees a hand that
    /// was a bot's.
    pub seats: Vec<(String, String)>,
    /// Where each of `seats` was written, when read from a file.
    pub seat_positions: Vec<Option<crate::error::Pos>>,
    /// The position the game starts from (and where its section was
    /// written), when not from the game's setup: the moves follow it.
    pub position: Option<At<super::position::PositionFile>>,
}

impl Replay {
    pub fn parse(path: &Path, src: &str) -> Result<Replay> {
        // The reader's budgets grow with the file (itself at most 16 MiB):
        // a long game's save always loads again.
        let budget = serde_saphyr::budget! {
            max_nodes: src.len().max(250_000),
            max_events: (2 * src.len()).max(1_000_000),
        };
        // YAML 1.2 booleans: a move or id `y`, `no` or `on` stays text.
        let options = serde_saphyr::options! { budget: budget, reject_unsupported_tags: true, strict_booleans: true };
        let file: ReplayFile =
            format::with_file(path, || serde_saphyr::from_str_with_options(src, options)).map_err(
                |e| {
                    let loc = e.location();
                    let options =
                        serde_saphyr::render_options! { snippets: serde_saphyr::SnippetMode::Off };
                    let mut msg = e.render_with_options(options);
                    if let Some(i) = msg.rfind(" at line ") {
                        msg.truncate(i);
                    }
                    msg = crate::definition::source::parser_words(msg);
                    if msg.starts_with("data did not match any variant of untagged enum") {
                        msg = "a choice must be a word or a number".into();
                    }
                    msg = number_words(msg);
                    Error::new(ErrorKind::Yaml, format!("not a valid replay file: {msg}"))
                        .at(loc.and_then(|l| crate::error::Pos::new(path, l.line(), l.column())))
                },
            )?;
        let game = untagged(file.game, path)?;
        let mut moves = Vec::with_capacity(file.moves.len());
        let mut positions = Vec::with_capacity(file.moves.len());
        for m in file.moves {
            positions.push(m.pos.clone());
            let mut one = Vec::with_capacity(m.value.len());
            for (k, v) in m.value {
                one.push((k, untagged(v, path)?.into_string()));
            }
            moves.push(one);
        }
        Ok(Replay {
            game,
            settings: Settings {
                variants: file.variants,
                sets: file.params.into_iter().collect(),
            },
            seed: file.seed.unwrap_or(0),
            positions,
            moves,
            rules: file
                .rules
                .as_deref()
                .and_then(|r| u64::from_str_radix(r, 16).ok()),
            seat_positions: file.seats.values().map(|k| k.pos.clone()).collect(),
            position: file.position,
            seats: file.seats.into_iter().map(|(p, k)| (p, k.value)).collect(),
        })
    }

    /// The game's start: its setup with this replay's seed, or the
    /// position the replay gives, re-asking its decision; with what
    /// happened on the way.
    pub fn start(&self, game: &Game) -> Result<(State, Vec<Event>)> {
        self.start_seeded(game, self.seed)
    }

    /// `start`, with chance from `seed` (another game from the same
    /// start: a new seed in the REPL, each game of a sim).
    pub fn start_seeded(&self, game: &Game, seed: u64) -> Result<(State, Vec<Event>)> {
        match &self.position {
            None => State::new(game, seed),
            Some(p) => {
                let pos = self.resolve_position(game, seed)?;
                State::from_position(game, &pos, true).map_err(|e| {
                    e.note("starting from the file's position")
                        .at(p.pos.clone())
                })
            }
        }
    }

    /// The position this replay starts from, resolved in `game` with
    /// chance from `seed`; None when it starts from the setup.
    pub fn resolve_position(&self, game: &Game, seed: u64) -> Result<crate::core::Position> {
        let Some(p) = &self.position else {
            return Err(Error::usage("this file gives no position"));
        };
        // A fresh game holds every card the game has, to count them by.
        let fresh = State::new_quiet(game, seed)?;
        p.value.resolve(game, &fresh, seed, p.pos.clone())
    }

    pub fn read(path: &Path) -> Result<Replay> {
        let src = crate::files::read_text(path).map_err(|e| Error::io(path, e))?;
        Replay::parse(path, &src)
    }

    /// Whether the rules `game` was loaded from differ from those this
    /// replay was played under (as far as it says).
    pub fn rules_changed(&self, game: &Game) -> bool {
        self.rules
            .is_some_and(|r| game.fingerprint() != 0 && r != game.fingerprint())
    }

    /// The game this replay names: an id in `dir`, or a path relative to the
    /// replay file (or the current directory).
    pub fn load_game(&self, replay_path: Option<&Path>, dir: &Path) -> Result<Game> {
        let beside = replay_path.and_then(|p| p.parent());
        let path = crate::definition::source::find_from(&self.game, dir, beside)?;
        Game::load_path(&path, dir, &self.settings, Build::default())
    }

    /// When this replay (read from `save`) names its game by a path and
    /// the file loaded is not the one the game's id picks in `dir`: a
    /// sentence saying which file's rules and script ran (a save may name
    /// a game in any folder). None for a game named by id, or a path to
    /// the file its id picks anyway.
    pub fn game_by_path_note(&self, save: &Path, game: &Game, dir: &Path) -> Option<String> {
        let named = Path::new(&self.game);
        if named.components().count() == 1 && named.extension().is_none() {
            return None;
        }
        let def = game.def();
        let real = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        let by_id = crate::definition::source::find(&def.id, dir).ok();
        if by_id.as_deref().is_some_and(|p| real(p) == real(&def.path)) {
            return None;
        }
        let instead = match by_id {
            Some(p) => format!("`{}` alone would play {}", def.id, path_text(&p)),
            None => format!("no game `{}` is in the games folder", def.id),
        };
        Some(format!(
            "{}: its game is named by path: {} is played, its rules and script ({instead})",
            path_text(save),
            path_text(&real(&def.path)),
        ))
    }

    /// The replay as YAML, one move per line.
    pub fn to_yaml(&self) -> String {
        let mut out = format!("game: {}\n", scalar(&self.game));
        if !self.settings.variants.is_empty() {
            let v: Vec<String> = self.settings.variants.iter().map(|v| scalar(v)).collect();
            out += &format!("variants: [{}]\n", v.join(", "));
        }
        if !self.settings.sets.is_empty() {
            let v: Vec<String> = self
                .settings
                .sets
                .iter()
                .map(|(k, x)| match x {
                    ParamValue::Int(i) => format!("{}: {i}", scalar(k)),
                    ParamValue::Word(w) => format!("{}: {}", scalar(k), scalar(w)),
                })
                .collect();
            out += &format!("params: {{{}}}\n", v.join(", "));
        }
        out += &format!("seed: {}\n", self.seed);
        if let Some(r) = self.rules {
            out += &format!("rules: \"{r:016x}\"\n");
        }
        if !self.seats.is_empty() {
            let v: Vec<String> = (self.seats.iter())
                .map(|(p, k)| format!("{}: {}", scalar(p), scalar(k)))
                .collect();
            out += &format!("seats: {{{}}}\n", v.join(", "));
        }
        if let Some(p) = &self.position {
            out += &p.value.to_yaml();
        }
        if self.moves.is_empty() {
            out += "moves: []\n";
        } else {
            out += "moves:\n";
            for m in &self.moves {
                let v: Vec<String> = m
                    .iter()
                    .map(|(p, c)| format!("{}: {}", scalar(p), scalar(c)))
                    .collect();
                out += &format!("  - {{{}}}\n", v.join(", "));
            }
        }
        out
    }

    /// Write atomically: a temporary file beside the target, then a rename,
    /// so a crash never leaves half a file.
    pub fn save(&self, path: &Path) -> Result<()> {
        let yaml = self.to_yaml();
        // A save that `load` would refuse is not written: the game stays
        // in memory, and the player is told why.
        let most = crate::files::MAX_FILE_BYTES;
        if yaml.len() as u64 > most {
            return Err(Error::usage(format!(
                "the save would take {} MiB, more than the {} MiB a save may hold, so it was not written (the game goes on; `undo` or a shorter game makes it fit)",
                yaml.len() >> 20,
                most >> 20
            )));
        }
        // A write that fails is said by what is wrong at the path (a
        // missing folder, a folder, a device), where that can be told.
        crate::files::write_atomic(path, yaml.as_bytes(), "a save")
            .map_err(|e| {
                crate::files::check_writable(path, "a save")
                    .err()
                    .unwrap_or(e)
            })
            .map_err(|e| {
                Error::new(
                    ErrorKind::Io,
                    format!("{}: {e}", crate::error::path_text(path)),
                )
            })
    }
}

/// A plain YAML scalar when it can only be read back as that text (an id:
/// a letter, then letters, digits, `-` or `_`, and no word YAML reads as a
/// bool or null in any case), else a double-quoted one: a save always
/// loads again.
pub(crate) fn scalar(s: &str) -> String {
    let plain = s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n" | "nan" | "inf"
        );
    if plain {
        return s.to_string();
    }
    // Double-quoted YAML, with every character YAML does not take as it is
    // (controls, DEL, C1, a BOM, U+FFFE and U+FFFF) escaped.
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() || matches!(c, '\u{feff}' | '\u{fffe}' | '\u{ffff}') => {
                out += &format!("\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// One move as written: each chooser's id and choice.
pub type Move = Vec<(String, String)>;

/// A game played from a replay: the state after the moves and its log.
pub struct Played {
    pub game: Game,
    pub state: State,
    pub log: Vec<Event>,
}

/// Apply one move (a decision's choices by player) to a state. Entries are
/// applied in the order the state asks for them (an ordered reveal first).
pub fn apply_move(
    game: &Game,
    state: &mut State,
    entries: &[(String, String)],
) -> Result<Vec<Event>> {
    apply_move_noting(game, state, entries, &mut |_, _| {})
}

/// `apply_move`, showing `rest` each state at rest on the way (a position,
/// `State::position`) with the entries of this move still to apply.
pub fn apply_move_noting(
    game: &Game,
    state: &mut State,
    entries: &[(String, String)],
    rest: &mut dyn FnMut(&State, Move),
) -> Result<Vec<Event>> {
    if entries.is_empty() {
        return Err(Error::illegal(
            Illegal::Malformed,
            "an empty move: name each deciding player's choice, e.g. {red: prince}",
        ));
    }
    let mut work = state.clone();
    let mut events = Vec::new();
    let mut todo: Vec<(PlayerIx, &str)> = Vec::new();
    for (p, text) in entries {
        let Some(ix) = game.def().player(p) else {
            let ids: Vec<&str> = game.def().players.iter().map(|p| p.id.as_str()).collect();
            return Err(Error::illegal(
                Illegal::Malformed,
                format!("unknown player `{}`", crate::text::clip(p)),
            )
            .note(format!("players: {}", ids.join(", "))));
        };
        todo.push((ix, text));
    }
    while !todo.is_empty() {
        let waiting = work.waiting();
        let Some(i) = todo.iter().position(|(p, _)| waiting.contains(p)) else {
            let names: Vec<&str> = waiting
                .iter()
                .map(|&p| game.def().players[p].id.as_str())
                .collect();
            let who: Vec<&str> = todo
                .iter()
                .map(|(p, _)| game.def().players[*p].id.as_str())
                .collect();
            let (why, msg) = if work.is_over() {
                (Illegal::Over, "the game is already over".to_string())
            } else {
                let msg = format!(
                    "{} is not to choose now (waiting for: {})",
                    who.join(", "),
                    names.join(", ")
                );
                (Illegal::NotTheirs, msg)
            };
            return Err(Error::illegal(why, msg));
        };
        let (p, text) = todo.remove(i);
        let choice: Choice = work.parse(game, p, text).map_err(|e| Error {
            message: format!("{}: {}", game.def().players[p].id, e.message),
            ..e
        })?;
        let mut hit = None;
        events.extend(work.act_noting(game, p, choice, &mut |s| hit = Some(s.clone()))?);
        if let Some(s) = hit {
            let left = (todo.iter())
                .map(|(p, t)| (game.def().players[*p].id.clone(), t.to_string()))
                .collect();
            rest(&s, left);
        }
    }
    *state = work;
    Ok(events)
}

/// Play a replay to its end (or as far as it goes).
pub fn play(replay: &Replay, path: Option<&Path>, dir: &Path) -> Result<Played> {
    let game = replay.load_game(path, dir)?;
    let (mut state, mut log) = replay.start(&game)?;
    for (i, m) in replay.moves.iter().enumerate() {
        let events = apply_move(&game, &mut state, m).map_err(|e| {
            let at = replay.positions.get(i).cloned().flatten();
            Error {
                message: format!("move {}: {}", i + 1, e.message),
                ..e
            }
            .at(at)
        })?;
        log.extend(events);
    }
    Ok(Played { game, state, log })
}
