//! Short texts kept once per thread. The keys and words that options and
//! an ask's data repeat every turn (`act`, `card`, a card's id, a column's
//! letter) and the names interpolations build (`s${i}`) are shared instead
//! of allocated, copied and freed each time, both as the state keeps them
//! and as a script reads them.

use std::cell::RefCell;
use std::sync::Arc;

use rhai::ImmutableString;
use rustc_hash::FxHashMap;

/// Longer texts are rarely repeated word for word.
const MAX_LEN: usize = 64;
/// At most this many texts a thread keeps (some hundreds of KiB at most):
/// a game that makes ever new texts allocates those past it as before.
const MAX_KEPT: usize = 4096;

/// Each text kept, and the script's string of it once one was asked for.
type Texts = FxHashMap<Arc<str>, Option<ImmutableString>>;

thread_local! {
    static TEXTS: RefCell<Texts> = RefCell::new(FxHashMap::default());
}

/// `s` as a shared text: the thread's copy where it has one.
pub(crate) fn text(s: &str) -> Arc<str> {
    if s.len() > MAX_LEN {
        return Arc::from(s);
    }
    TEXTS.with(|t| {
        let mut t = t.borrow_mut();
        if let Some((a, _)) = t.get_key_value(s) {
            return a.clone();
        }
        let a: Arc<str> = Arc::from(s);
        if t.len() < MAX_KEPT {
            t.insert(a.clone(), None);
        }
        a
    })
}

/// `s` as a script's string: the thread's copy where it has one (Rhai's
/// strings change only by copying, so one may be shared).
pub(crate) fn script_text(s: &str) -> ImmutableString {
    if s.len() > MAX_LEN {
        return s.into();
    }
    TEXTS.with(|t| {
        let mut t = t.borrow_mut();
        if let Some(kept) = t.get_mut(s) {
            return kept.get_or_insert_with(|| s.into()).clone();
        }
        let i = ImmutableString::from(s);
        if t.len() < MAX_KEPT {
            t.insert(Arc::from(s), Some(i.clone()));
        }
        i
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_text_is_shared_and_a_long_one_is_not() {
        let a = text("card");
        let b = text("card");
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(&*a, "card");
        let long = "x".repeat(MAX_LEN + 1);
        let (c, d) = (text(&long), text(&long));
        assert!(!Arc::ptr_eq(&c, &d));
        assert_eq!(*c, *long);
        let (e, f) = (script_text("card"), script_text("card"));
        assert!(e.ptr_eq(&f));
        assert_eq!(e.as_str(), "card");
        assert!(Arc::ptr_eq(&text("card"), &a), "the text stays kept");
    }

    #[test]
    fn past_the_cap_texts_are_made_as_before() {
        // A thread of its own: the cap counts this thread's texts.
        let ran = std::thread::spawn(|| {
            for i in 0..MAX_KEPT + 10 {
                let s = format!("t{i}");
                assert_eq!(&*text(&s), s);
            }
            TEXTS.with(|t| assert_eq!(t.borrow().len(), MAX_KEPT));
            let late = format!("t{}", MAX_KEPT + 5);
            assert!(!Arc::ptr_eq(&text(&late), &text(&late)));
            assert!(Arc::ptr_eq(&text("t0"), &text("t0")));
        })
        .join();
        assert!(ran.is_ok(), "the thread's checks hold");
    }
}
