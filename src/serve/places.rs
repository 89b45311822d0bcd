//! The pages a table takes at once, and whose. The spectator's link is
//! shared with whoever the host gave it to: were its pages to fill the
//! table, the players could not get in. So each owner link (the host's,
//! each person's seat) has places of its own, which no one else takes:
//!
//! - one place is kept for every owner link with no page open: a
//!   spectator's page, or an owner's third, gets in only if there is
//!   still a place for each of those after it;
//! - an owner link with fewer than two pages open always gets in, past
//!   the table's most if need be: its page, and the same page
//!   reconnecting before the server has noticed the old connection drop.
//!
//! So a table holds at most its most and a page more for each owner link
//! (two pages for each owner link, where that is more).

use std::sync::{Mutex, MutexGuard};

use super::screen::Role;

/// Pages an owner link always gets in with.
const OWN: usize = 2;

pub struct Places {
    counts: Mutex<Counts>,
}

struct Counts {
    total: usize,
    /// Pages open by owner link.
    owners: Vec<(Role, usize)>,
}

impl Places {
    /// The places of a table whose owner links are `owners`.
    pub fn new(owners: impl IntoIterator<Item = Role>) -> Places {
        Places {
            counts: Mutex::new(Counts {
                total: 0,
                owners: owners.into_iter().map(|r| (r, 0)).collect(),
            }),
        }
    }

    fn counts(&self) -> MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Take a place for a page of `role` at a table of `most` places, or
    /// say why there is none.
    pub fn take(&self, role: Role, most: usize) -> Result<(), String> {
        let mut c = self.counts();
        let own = c.owners.iter().position(|(r, _)| *r == role);
        let kept = c.owners.iter().filter(|(_, n)| *n == 0).count();
        let fits = match own {
            Some(i) if c.owners[i].1 < OWN => true,
            _ => c.total + 1 + kept <= most,
        };
        if !fits {
            return Err(match own {
                Some(_) => format!(
                    "this link has {OWN} pages open at this table already, and the table has no place for another: close one"
                ),
                None => "this table has all the spectators it takes (its other places are kept for the players and the host)".into(),
            });
        }
        c.total += 1;
        if let Some(i) = own {
            c.owners[i].1 += 1;
        }
        Ok(())
    }

    /// A page of `role` closed: its place is free again.
    pub fn give_back(&self, role: Role) {
        let mut c = self.counts();
        c.total = c.total.saturating_sub(1);
        if let Some((_, n)) = c.owners.iter_mut().find(|(r, _)| *r == role) {
            *n = n.saturating_sub(1);
        }
    }
}
