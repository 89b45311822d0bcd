//! The line editor's helper: completion of commands, legal actions and file
//! names; a hint of the unique completion; masking of secret choices.

use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::{Context, Helper, Validator};

/// What can be typed now, shared with the REPL that updates it.
#[derive(Default)]
pub struct Words {
    pub commands: Vec<&'static str>,
    /// Legal choices now: ids first, then aliases.
    pub actions: Vec<String>,
    /// Hide what is typed (a hot-seat secret choice).
    pub mask: bool,
    pub color: bool,
}

#[derive(Helper, Validator)]
pub struct LineHelper {
    pub words: Rc<RefCell<Words>>,
    files: FilenameCompleter,
}

impl LineHelper {
    pub fn new(words: Rc<RefCell<Words>>) -> LineHelper {
        LineHelper {
            words,
            files: FilenameCompleter::new(),
        }
    }

    fn candidates(&self, prefix: &str) -> Vec<String> {
        let w = self.words.borrow();
        let mut out: Vec<String> = w
            .actions
            .iter()
            .cloned()
            .chain(w.commands.iter().map(|c| c.to_string()))
            .filter(|c| c.starts_with(prefix))
            .collect();
        out.dedup();
        out
    }
}

impl Completer for LineHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let head = &line[..pos];
        if head.starts_with("save ") || head.starts_with("load ") {
            return self.files.complete(line, pos, ctx);
        }
        if head.contains(' ') {
            return Ok((pos, Vec::new()));
        }
        let pairs = self
            .candidates(head)
            .into_iter()
            .map(|c| Pair {
                display: c.clone(),
                replacement: c,
            })
            .collect();
        Ok((0, pairs))
    }
}

impl Hinter for LineHelper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<String> {
        if line.is_empty() || pos < line.len() || self.words.borrow().mask {
            return None;
        }
        let c = self.candidates(line);
        match c.as_slice() {
            [one] if one.len() > line.len() => Some(one[line.len()..].to_string()),
            _ => None,
        }
    }
}

/// Stars shown for a secret choice, whatever its length (up to this).
const MASK_WIDTH: usize = 16;

impl Highlighter for LineHelper {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        if self.words.borrow().mask {
            // A fixed width: the mask's length must not tell the card.
            Cow::Owned("*".repeat(MASK_WIDTH.max(line.chars().count())))
        } else {
            Cow::Borrowed(line)
        }
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.words.borrow().color {
            Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
        } else {
            Cow::Borrowed(hint)
        }
    }

    fn highlight_char(&self, _line: &str, _pos: usize, kind: CmdKind) -> bool {
        self.words.borrow().mask && kind != CmdKind::MoveCursor
    }
}
