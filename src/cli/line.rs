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
            // A choice of several words (cards picked together, `push
            // back`): the next word of each legal choice so begun.
            let actions = self.words.borrow().actions.clone();
            let pairs = next_words(&actions, head)
                .into_iter()
                .map(|c| Pair {
                    display: c.clone(),
                    replacement: c,
                })
                .collect();
            return Ok((0, pairs));
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

/// Each of `actions` that begins with `head`, up to the end of its next
/// word (with the space after it, where more follows), once each.
fn next_words(actions: &[String], head: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for a in actions.iter().filter(|a| a.starts_with(head)) {
        let rest = &a[head.len()..];
        let lead = rest.len() - rest.trim_start().len();
        let cut = match rest[lead..].find(' ') {
            Some(i) => head.len() + lead + i + 1,
            None => a.len(),
        };
        let word = a[..cut].to_string();
        if !out.contains(&word) {
            out.push(word);
        }
    }
    out
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

#[cfg(test)]
mod tests {
    use super::next_words;

    #[test]
    fn a_choice_of_several_words_completes_word_by_word() {
        let picks: Vec<String> = ["qh ks 3s", "qh ks kc", "qh 3s kc", "ks 3s kc"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(next_words(&picks, "qh "), ["qh ks ", "qh 3s "]);
        assert_eq!(next_words(&picks, "qh ks "), ["qh ks 3s", "qh ks kc"]);
        assert_eq!(next_words(&picks, "qh ks k"), ["qh ks kc"]);
        assert!(next_words(&picks, "zz ").is_empty());
    }
}
