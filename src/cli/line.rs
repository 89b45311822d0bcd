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
    /// A pick of several options at once (`pick: K`): Tab completes each
    /// word from the options not yet typed, rather than from every set.
    pub pick: Option<PickWords>,
    /// Hide what is typed (a hot-seat secret choice).
    pub mask: bool,
    pub color: bool,
}

/// What a pick's words may be: how many make one choice, and each option
/// with the words that type it (its id first, then aliases), as often as
/// a choice may hold it.
#[derive(Default, Clone)]
pub struct PickWords {
    pub k: usize,
    pub parts: Vec<Vec<String>>,
}

impl PickWords {
    /// The line begun as `head`, completed by each option it may go on
    /// with: one not yet typed (in any order: every set of K is legal),
    /// followed by a space while more are to come.
    pub fn next(&self, head: &str) -> Vec<String> {
        let (done, last) = match head.rfind(' ') {
            Some(i) => (&head[..=i], &head[i + 1..]),
            None => ("", head),
        };
        let typed: Vec<String> = done.split_whitespace().map(str::to_lowercase).collect();
        if typed.len() >= self.k {
            return Vec::new();
        }
        // Each option typed takes one of the parts it names.
        let mut free = vec![true; self.parts.len()];
        for w in &typed {
            if let Some(i) = (0..self.parts.len()).find(|&i| free[i] && self.parts[i].contains(w)) {
                free[i] = false;
            }
        }
        let more = typed.len() + 1 < self.k;
        let last = last.to_lowercase();
        let mut out: Vec<String> = Vec::new();
        for (i, words) in self.parts.iter().enumerate() {
            if !free[i] {
                continue;
            }
            // The id, or else the first alias begun so.
            if let Some(w) = words.iter().find(|w| w.starts_with(&last)) {
                let line = format!("{done}{w}{}", if more { " " } else { "" });
                if !out.contains(&line) {
                    out.push(line);
                }
            }
        }
        out
    }
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

/// Words offered as they are typed.
fn pairs(words: Vec<String>) -> Vec<Pair> {
    (words.into_iter())
        .map(|c| Pair {
            display: c.clone(),
            replacement: c,
        })
        .collect()
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
        let pick = self.words.borrow().pick.clone();
        if let Some(pick) = pick {
            // A pick: its options word by word; a command's word still
            // completes alone.
            let mut all = pick.next(head);
            if !head.contains(' ') {
                let w = self.words.borrow();
                all.extend(
                    (w.commands.iter())
                        .filter(|c| c.starts_with(head))
                        .map(|c| c.to_string()),
                );
            }
            return Ok((0, pairs(all)));
        }
        if head.contains(' ') {
            // A choice of several words (cards picked together, `push
            // back`): the next word of each legal choice so begun.
            let actions = self.words.borrow().actions.clone();
            return Ok((0, pairs(next_words(&actions, head))));
        }
        Ok((0, pairs(self.candidates(head))))
    }
}

impl Hinter for LineHelper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<String> {
        if line.is_empty() || pos < line.len() || self.words.borrow().mask {
            return None;
        }
        let pick = self.words.borrow().pick.clone();
        let c = match pick {
            Some(p) => p.next(line),
            None => self.candidates(line),
        };
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
    use super::{PickWords, next_words};

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

    #[test]
    fn a_pick_completes_each_word_from_the_options_not_yet_typed() {
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let pick = PickWords {
            k: 3,
            parts: vec![
                words(&["qh"]),
                words(&["ks"]),
                words(&["3s", "three"]),
                words(&["kc"]),
            ],
        };
        // Any order: after `ks`, `qh` (listed before it) is offered too.
        assert_eq!(pick.next("ks "), ["ks qh ", "ks 3s ", "ks kc "]);
        assert_eq!(pick.next("k"), ["ks ", "kc "]);
        assert_eq!(pick.next("ks qh t"), ["ks qh three"]);
        assert_eq!(pick.next("ks qh "), ["ks qh 3s", "ks qh kc"]);
        assert!(pick.next("ks qh 3s ").is_empty(), "three typed: no more");
    }
}
