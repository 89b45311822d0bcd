//! The server's budget for bots' thinking: at most so many bots think at
//! once, whatever the number of tables. A table's bot waits for a place
//! on its table's thread (never on the async runtime's, which answer the
//! pages), and that table takes its commands meanwhile.

use std::sync::{Condvar, Mutex};
use std::time::Duration;

pub struct Thinking {
    most: usize,
    /// Bots thinking now, and the most that ever thought at once.
    now: Mutex<(usize, usize)>,
    freed: Condvar,
}

impl Thinking {
    pub fn new(most: usize) -> Thinking {
        Thinking {
            most: most.max(1),
            now: Mutex::new((0, 0)),
            freed: Condvar::new(),
        }
    }

    /// A place to think, waiting `wait` at most for one.
    pub fn take(&self, wait: Duration) -> Option<Place<'_>> {
        let now = self.now.lock().unwrap_or_else(|e| e.into_inner());
        let (mut now, _) = (self.freed)
            .wait_timeout_while(now, wait, |(n, _)| *n >= self.most)
            .unwrap_or_else(|e| e.into_inner());
        if now.0 >= self.most {
            return None;
        }
        now.0 += 1;
        now.1 = now.1.max(now.0);
        Some(Place(self))
    }

    /// The most bots that ever thought at once.
    pub fn most_at_once(&self) -> usize {
        self.now.lock().map_or(0, |n| n.1)
    }
}

/// A bot's place to think, given back when dropped.
pub struct Place<'a>(&'a Thinking);

impl Drop for Place<'_> {
    fn drop(&mut self) {
        let mut now = (self.0.now).lock().unwrap_or_else(|e| e.into_inner());
        now.0 -= 1;
        self.0.freed.notify_one();
    }
}
