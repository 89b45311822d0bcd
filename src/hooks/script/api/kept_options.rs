//! An ask's options as choices, kept from one ask to the next: a script
//! that offers the same words or numbers again (the columns of a board
//! still open, `["forward", "back"]`) gets the choices it got last time
//! instead of converting each option again. Kept per thread and per game,
//! by the ask's name; only plain lists (every option a word or a number:
//! no labels, no data), whose conversion depends on nothing but the
//! options and the game's card ids. An ask whose options seldom come back
//! (bids from coins that shrink every turn) stops being looked at.

use std::cell::RefCell;
use std::sync::Arc;

use rhai::{Array, Dynamic, ImmutableString};

use crate::core::{Choice, Choices, Value};
use crate::definition::Def;

/// Asks kept at most, per thread, and options in one kept list at most.
const MAX_ASKS: usize = 32;
const MAX_OPTIONS: usize = 256;
/// Looks that found nothing before an ask may be left alone: this many,
/// and more than `MISSES_A_HIT` a hit.
const TRIES: u32 = 16;
const MISSES_A_HIT: u32 = 4;

struct Kept {
    /// The game: kept alive, so that its address is not another's.
    def: Arc<Def>,
    name: Box<str>,
    choices: Option<Choices>,
    hits: u32,
    misses: u32,
}

impl Kept {
    fn off(&self) -> bool {
        self.misses >= TRIES && self.misses > MISSES_A_HIT * self.hits
    }
}

thread_local! {
    static KEPT: RefCell<Vec<Kept>> = const { RefCell::new(Vec::new()) };
}

/// What a look found.
pub(crate) enum Look {
    /// The choices these options made last time.
    Kept(Choices),
    /// Nothing: convert, and keep what is made if `keep`.
    Convert { keep: bool },
}

/// Whether a list may be kept: words and numbers only, not too many.
fn plain(options: &Array) -> bool {
    options.len() <= MAX_OPTIONS && options.iter().all(|o| o.is_int() || o.is_string())
}

/// Whether option `o` of a plain list converts to choice `c` (as
/// `flow::option` and `flow::choice` convert it).
fn made(def: &Def, o: &Dynamic, c: &Choice) -> bool {
    if let Some(s) = o.read_lock::<ImmutableString>() {
        return match c {
            Choice::Word(w) => **w == *s.as_str(),
            Choice::Card(k) => def.cards[*k as usize].id == s.as_str(),
            Choice::Data(_) => false,
        };
    }
    match (o.as_int(), c) {
        (Ok(i), Choice::Data(d)) => d.value == Value::Int(i),
        _ => false,
    }
}

fn find(k: &[Kept], def: &Arc<Def>, name: &str) -> Option<usize> {
    k.iter()
        .position(|e| Arc::ptr_eq(&e.def, def) && &*e.name == name)
}

/// Look for the choices ask `name` of game `def` made of `options` last
/// time.
pub(super) fn look(def: &Arc<Def>, name: &str, options: &Array) -> Look {
    look_by(def, name, options.len(), plain(options), |i, c| {
        made(def, &options[i], c)
    })
}

/// `look` for `len` options of which `same(i, c)` says whether option
/// `i` makes choice `c`; `plain` whether they may be kept (the typed
/// ask's, tier/vm/ask.rs, whose options are symbols and numbers).
pub(crate) fn look_by(
    def: &Arc<Def>,
    name: &str,
    len: usize,
    plain: bool,
    same: impl Fn(usize, &Choice) -> bool,
) -> Look {
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        let Some(i) = find(&k, def, name) else {
            return Look::Convert { keep: plain };
        };
        let e = &mut k[i];
        if e.off() {
            return Look::Convert { keep: false };
        }
        let hit = e
            .choices
            .as_ref()
            .filter(|c| c.len() == len && c.iter().enumerate().all(|(i, c)| same(i, c)));
        if let Some(c) = hit {
            let c = c.clone();
            e.hits = e.hits.saturating_add(1);
            return Look::Kept(c);
        }
        e.misses = e.misses.saturating_add(1);
        let keep = !e.off() && plain;
        Look::Convert { keep }
    })
}

/// Keep what ask `name` made of a plain list.
pub(crate) fn keep(def: &Arc<Def>, name: &str, choices: &Choices) {
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        match find(&k, def, name) {
            Some(i) => k[i].choices = Some(choices.clone()),
            None => {
                // Full: the oldest gives way.
                if k.len() >= MAX_ASKS {
                    k.remove(0);
                }
                k.push(Kept {
                    def: def.clone(),
                    name: name.into(),
                    choices: Some(choices.clone()),
                    hits: 0,
                    misses: 0,
                });
            }
        }
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::core::State;
    use crate::hooks::script::{Compile, RhaiHooks};
    use crate::hooks::test_game::{Game, load};

    /// `token` is a card, `stop` a word: the first two turns offer both,
    /// the next two `stop` and a number.
    fn game() -> Game<RhaiHooks> {
        let (def, mut s) = load(
            "id: kept\nscript: game.rhai\nplayers: [{id: a, name: A}, {id: b, name: B}]\n\
             cards: {token: {name: Token}}\nzones: {rack: {per: game}}\n\
             setup: [{put: {zone: rack, cards: all}}]\n\
             vars: {n: {name: N, start: 0}}\n\
             flow: {turns: rotate, turn: [{hook: play_turn}]}\n",
            "fn play_turn() {\n\
               let o = if get_var(\"n\") < 2 { [\"token\", \"stop\"] } else { [\"stop\", 3] };\n\
               ask(active(), \"go\", o, \"went\");\n\
             }\n\
             fn went(choice) { add_var(\"n\", 1); if get_var(\"n\") >= 4 { end_game(\"\", \"done\"); } }\n",
            1,
        );
        Game(def.clone(), RhaiHooks::new(def, s.remove(0), Compile::On))
    }

    #[test]
    fn a_plain_list_asked_again_gets_the_choices_it_made() {
        let game = game();
        let mut st = State::new_quiet(&game, 1).unwrap();
        let mut seen: Vec<Choices> = Vec::new();
        while let Some(p) = st.first_waiting() {
            seen.push(st.decision().unwrap().options[0].clone());
            let c = st.legal(p)[0].clone();
            st.apply_unchecked(&game, p, c).unwrap();
        }
        assert_eq!(seen.len(), 4);
        let token = game.0.card("token").unwrap();
        assert_eq!(
            &*seen[0],
            &[Choice::Card(token), Choice::Word("stop".into())]
        );
        assert!(Arc::ptr_eq(&seen[0], &seen[1]), "kept");
        assert!(matches!(&seen[2][1], Choice::Data(d) if d.value == Value::Int(3)));
        assert_eq!(seen[2][0], Choice::Word("stop".into()));
        assert!(
            !Arc::ptr_eq(&seen[1], &seen[2]),
            "other options, other choices"
        );
        assert!(Arc::ptr_eq(&seen[2], &seen[3]), "kept");
    }

    #[test]
    fn an_ask_whose_options_never_come_back_is_left_alone() {
        let def = game().0;
        let mut kept = 0;
        for i in 0..40 {
            let list: Array = vec![Dynamic::from_int(i), Dynamic::from_int(i + 1)];
            if let Look::Convert { keep: true } = look(&def, "bid", &list) {
                kept += 1;
                keep(&def, "bid", &Arc::from(vec![Choice::Word("x".into())]));
            }
        }
        assert_eq!(
            kept, TRIES,
            "the first look, then each miss until it is off"
        );
        let again: Array = vec![Dynamic::from_int(0)];
        assert!(matches!(
            look(&def, "bid", &again),
            Look::Convert { keep: false }
        ));
    }
}
