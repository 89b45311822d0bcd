//! The REPL's commands, and the cards named like one: typed in play, a
//! command's word is always the command (a game can always be saved and
//! left), so a card called `quit` is played in quotes, `"quit"`.

use crate::definition::Def;
use crate::error::{Error, ErrorKind, Pos};

/// The REPL's commands, as typed.
pub const COMMANDS: &[&str] = &[
    "help",
    "state",
    "rules",
    "cards",
    "log",
    "undo",
    "save",
    "save-position",
    "load",
    "new",
    "reload",
    "quit",
    "exit",
];

/// A warning for each card whose id, name or alias is a command's word,
/// placed at the first line of the game file that names it.
pub fn shadowed(def: &Def) -> Vec<Error> {
    let src = crate::files::read_text(&def.path).unwrap_or_default();
    let mut out = Vec::new();
    for card in &def.cards {
        let words = std::iter::once(&card.id)
            .chain(std::iter::once(&card.name))
            .chain(&card.aliases)
            .chain(&card.names);
        let mut said = Vec::new();
        for w in words {
            let lower = w.to_lowercase();
            if COMMANDS.contains(&lower.as_str()) && !said.contains(&lower) {
                said.push(lower.clone());
                let e = Error::new(
                    ErrorKind::Lint,
                    format!(
                        "card `{}` is called `{w}`, as the command `{lower}`: typed in play, `{lower}` is the command and the card is played in quotes, `\"{w}\"`; another name keeps both typed plainly",
                        card.id
                    ),
                );
                out.push(e.at(place(&def.path, &src, w)));
            }
        }
    }
    out
}

/// The first place `word` stands alone in `src` (a line and column).
fn place(path: &std::path::Path, src: &str, word: &str) -> Option<Pos> {
    for (i, line) in src.lines().enumerate() {
        let mut from = 0;
        while let Some(at) = line[from..].find(word) {
            let start = from + at;
            let end = start + word.len();
            let alone = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric() && c != '_');
            if alone(line[..start].chars().next_back()) && alone(line[end..].chars().next()) {
                return Pos::new(path, i as u64 + 1, line[..start].chars().count() as u64 + 1);
            }
            from = end;
        }
    }
    Pos::new(path, 1, 1)
}
