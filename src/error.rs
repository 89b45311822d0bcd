//! Errors as data: a kind, a message and, where known, a position in a file.
//! Rendering (source line and caret) is done by ariadne.

use std::fmt;
use std::path::{Path, PathBuf};

/// A position in a file, 1-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pos {
    pub file: PathBuf,
    pub line: u32,
    pub col: u32,
}

impl Pos {
    pub fn new(file: &Path, line: u64, col: u64) -> Option<Pos> {
        // saphyr reports 0 for an unknown location
        (line > 0).then(|| Pos {
            file: file.to_path_buf(),
            line: line as u32,
            col: col.max(1) as u32,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A file could not be read or written.
    Io,
    /// The YAML does not parse or does not fit the format.
    Yaml,
    /// The game file parses but says something impossible (an unknown zone...).
    Invalid,
    /// A Rhai script does not compile.
    Script,
    /// A script failed while running a hook.
    Runtime,
    /// A move is unparsable or illegal, and why.
    Move(Illegal),
    /// A player index that names no player of the game (the message
    /// says how many it has).
    Player { player: usize },
    /// The command line asks for something that does not exist.
    Usage,
    /// Not wrong, but likely a mistake (`check --lint`): a warning.
    Lint,
    /// A valid game that a command cannot handle (`solve` of a game with
    /// chance): not a mistake in the files. Why, as data: a caller picks
    /// the next method from it, never from the message's words.
    Refused(Refusal),
}

/// Why a move was refused, as data: a caller matches on it, never on the
/// message's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Illegal {
    /// The game is over: nobody decides.
    Over,
    /// The player has no decision to make now (not theirs, or not yet).
    NotTheirs,
    /// The choice (or the text) is none of the player's legal choices.
    NotLegal,
    /// The text fits several legal choices.
    Ambiguous,
    /// A move written wrong (a replay's: empty, an unknown player).
    Malformed,
}

/// Why an analysis refused a game (in JSON: `{"why": "too_much_chance",
/// "limit": 200000}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum Refusal {
    /// The method is for another number of players.
    Players { players: usize },
    /// Hidden information besides a simultaneous choice (exact solving
    /// does not apply; CFR+ does).
    Hidden,
    /// Chance makes more outcomes at once than can be listed (sampling
    /// applies: `--deals`, MCCFR).
    TooMuchChance { limit: usize },
    /// The whole tree has more nodes than the budget (MCCFR applies).
    TreeTooBig { limit: usize },
    /// More positions (or information sets) than the budget.
    TooManyPositions { limit: usize },
    /// The work, estimated before it starts, would take longer than the
    /// time allowed (a bot's solve, which a game waits for).
    TooSlow { seconds: u64 },
    /// A line of play runs past the depth budget.
    TooDeep { limit: usize },
    /// More players choose at once than the method handles.
    ManyAtOnce { players: usize },
    /// The position is in the middle of a simultaneous decision.
    MidDecision,
    /// A player has different choices in positions they cannot tell apart.
    UnclearChoices,
    /// Anything else (a setup that makes no position, a failed thread).
    Other,
}

#[derive(Debug, Clone)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
    pub at: Option<Pos>,
    /// Extra lines: the legal choices, a "did you mean".
    pub notes: Vec<String>,
    /// Further problems found with this one (a game file with several).
    pub also: Vec<Error>,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            at: None,
            notes: Vec::new(),
            also: Vec::new(),
        }
    }

    pub fn at(mut self, pos: Option<Pos>) -> Error {
        if self.at.is_none() {
            self.at = pos;
        }
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Error {
        self.notes.push(note.into());
        self
    }

    pub fn io(path: &Path, err: std::io::Error) -> Error {
        Error::new(ErrorKind::Io, format!("{}: {err}", path_text(path)))
    }

    /// A refusal: a valid game the method cannot handle, and why.
    pub fn refused(why: Refusal, message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Refused(why), message)
    }

    /// Why a refusal was made (None for other errors).
    pub fn refusal(&self) -> Option<Refusal> {
        match self.kind {
            ErrorKind::Refused(r) => Some(r),
            _ => None,
        }
    }

    /// A move refused, and why.
    pub fn illegal(why: Illegal, message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Move(why), message)
    }

    /// Why a move was refused (None for other errors).
    pub fn illegal_why(&self) -> Option<Illegal> {
        match self.kind {
            ErrorKind::Move(why) => Some(why),
            _ => None,
        }
    }

    /// `player` if the game's `players` include it, else an error.
    pub fn check_player(player: usize, players: usize) -> Result<usize> {
        if player < players {
            return Ok(player);
        }
        Err(Error::new(
            ErrorKind::Player { player },
            format!(
                "no player {player}: the game has {players} (numbered from 0 to {})",
                players.saturating_sub(1)
            ),
        ))
    }

    pub fn usage(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Usage, message)
    }

    /// Several problems as one error: the first, with the others `also`.
    /// `problems` must not be empty.
    pub fn collect(mut problems: Vec<Error>) -> Error {
        if problems.is_empty() {
            return Error::new(ErrorKind::Invalid, "invalid game");
        }
        let first = problems.remove(0);
        Error {
            also: problems,
            ..first
        }
    }

    /// "error: ..." with the source line and a caret when the file is
    /// readable; then each further problem found with it. Control
    /// characters from the input are shown escaped.
    pub fn render(&self, color: bool) -> String {
        let safe = Error {
            message: printable(&self.message).into_owned(),
            notes: self
                .notes
                .iter()
                .map(|n| printable(n).into_owned())
                .collect(),
            also: Vec::new(),
            ..self.clone()
        };
        let mut out = safe.render_one(color);
        for e in &self.also {
            out.push('\n');
            out.push_str(&e.render(color));
        }
        out
    }

    fn render_one(&self, color: bool) -> String {
        use ariadne::{CharSet, Config, Label, Report, ReportKind, Source};
        let (word, kind) = if self.kind == ErrorKind::Lint {
            ("warning", ReportKind::Warning)
        } else {
            ("error", ReportKind::Error)
        };
        let Some(pos) = &self.at else {
            return format!("{word}: {self}");
        };
        let Ok(src) = crate::files::read_text(&pos.file) else {
            return format!("{word}: {self}");
        };
        // A huge line (a pasted megabyte) is not shown: the position is enough.
        let line = src.lines().nth(pos.line.saturating_sub(1) as usize);
        if line.is_none_or(|l| l.len() > MAX_SNIPPET || printable(l).len() != l.len()) {
            return format!("{word}: {self}");
        }
        let offset = char_offset(&src, pos.line, pos.col);
        let name = path_text(&pos.file);
        let mut report = Report::build(kind, (name.clone(), offset..offset + 1))
            .with_config(
                Config::default()
                    .with_color(color)
                    .with_char_set(CharSet::Ascii),
            )
            .with_message(format!(
                "{}:{}:{}: {}",
                name, pos.line, pos.col, self.message
            ))
            .with_label(Label::new((name.clone(), offset..offset + 1)).with_message("here"));
        for n in &self.notes {
            report = report.with_note(n);
        }
        let mut out = Vec::new();
        match report.finish().write((name, Source::from(src)), &mut out) {
            Ok(()) => {
                let text = String::from_utf8_lossy(&out).trim_end().to_string();
                let text = text
                    .strip_prefix("Error: ")
                    .or_else(|| text.strip_prefix("Warning: "))
                    .unwrap_or(&text);
                format!("{word}: {text}")
            }
            Err(_) => format!("{word}: {self}"),
        }
    }
}

/// The longest source line shown under an error.
const MAX_SNIPPET: usize = 400;

fn char_offset(src: &str, line: u32, col: u32) -> usize {
    let mut offset = 0;
    for (i, l) in src.split('\n').enumerate() {
        if i + 1 == line as usize {
            let n = l.chars().count();
            return offset + (col as usize - 1).min(n);
        }
        offset += l.chars().count() + 1;
    }
    src.chars().count().saturating_sub(1)
}

impl Error {
    /// The error as a JSON object for `--json` output: `{"error": {"kind":
    /// "refused", "message": ..., "at": "FILE:LINE:COL" or null, "notes":
    /// [...]}}`, and for a refusal `"refusal": {"why": ..., ...}`.
    pub fn to_json(&self) -> serde_json::Value {
        let kind = match self.kind {
            ErrorKind::Refused(_) => "refused".to_string(),
            ErrorKind::Move(_) => "move".to_string(),
            ErrorKind::Player { .. } => "player".to_string(),
            k => format!("{k:?}").to_lowercase(),
        };
        let at = self
            .at
            .as_ref()
            .map(|p| format!("{}:{}:{}", path_text(&p.file), p.line, p.col));
        serde_json::json!({
            "error": {
                "kind": kind,
                "message": self.message,
                "at": at,
                "notes": self.notes,
                "refusal": self.refusal(),
            }
        })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.at {
            write!(f, "{}:{}:{}: ", path_text(&p.file), p.line, p.col)?;
        }
        // Escaped: a message quotes files and scripts, and is printed.
        write!(f, "{}", printable(&self.message))?;
        for n in &self.notes {
            write!(f, "\n  {}", printable(n))?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// "did you mean `x`?" for the closest of `known` to `word`, if close enough.
pub fn did_you_mean<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> Option<String> {
    known
        .into_iter()
        .map(|k| (strsim::jaro_winkler(word, k), k))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| format!("did you mean `{k}`?"))
}

/// A path as text, losslessly: bytes that are not UTF-8 as `\xNN`, control
/// characters escaped (a name from a hostile folder reaches no terminal).
pub fn path_text(path: &Path) -> String {
    let mut out = String::new();
    for chunk in path.as_os_str().as_encoded_bytes().utf8_chunks() {
        out += &printable(chunk.valid());
        for b in chunk.invalid() {
            out += &format!("\\x{b:02X}");
        }
    }
    out
}

/// Text from a file or a script made safe for a terminal: control
/// characters (an escape sequence that would clear the screen or move the
/// cursor) shown as `\u{1b}`; newlines and tabs kept.
pub fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        return s.into();
    }
    s.chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .into()
}
