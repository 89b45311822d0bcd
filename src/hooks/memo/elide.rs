//! Reads a replay can skip: a run that reads a stat it has just set, or a
//! zone it has already read and then moved a card into, gets a value the
//! earlier operations of the same run determine. Dropping those reads from
//! a record makes every replay of it shorter. The rule looks only at the
//! operations before a read, so two runs with the same beginning drop the
//! same reads and still share their path in the trie.

use std::cell::RefCell;
use std::collections::hash_map::Entry;

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use crate::core::ops::{Op, Read, Val, Write, ix};
use crate::definition::CardIx;

/// What the operations so far determine.
struct Known {
    /// Exact values of reads (stats, vars, counts, the active player...).
    values: FxHashMap<Read, Val>,
    /// Exact contents of zones, which answer every read of the zone.
    zones: FxHashMap<u32, SmallVec<[CardIx; 8]>>,
}

impl Known {
    /// Room for `n` reads at once: a long run (a board read cell by cell)
    /// would otherwise grow the table several times over.
    fn for_reads(n: usize) -> Known {
        Known {
            values: FxHashMap::with_capacity_and_hasher(n, Default::default()),
            zones: FxHashMap::default(),
        }
    }

    fn clear(&mut self) {
        self.values.clear();
        self.zones.clear();
    }

    /// Whether a read is the first of its kind the run makes (its value
    /// not determined by what came before), learning it if so. Most reads
    /// take one lookup.
    fn first(&mut self, key: &Read, v: &Val) -> bool {
        match key {
            // A move or a draw from chance: never known before.
            Read::Draw { .. } | Read::TakeAt { .. } | Read::Random(_) => {}
            Read::Cards(z) => {
                if self.zones.contains_key(z) || self.values.contains_key(key) {
                    return false;
                }
            }
            // A zone's known contents answer every read of it.
            Read::Distinct(z) | Read::Count(z) | Read::Has(z, _) if self.zones.contains_key(z) => {
                return false;
            }
            _ => {
                return match self.values.entry(key.clone()) {
                    Entry::Occupied(_) => false,
                    Entry::Vacant(e) => {
                        e.insert(v.clone());
                        true
                    }
                };
            }
        }
        self.learn(key, v);
        true
    }

    fn learn(&mut self, key: &Read, v: &Val) {
        match (key, v) {
            (Read::Draw { from, to, .. }, Val::Int(c)) => match CardIx::try_from(*c) {
                Ok(c) => self.moved(c, *from, *to),
                // Nothing to draw: the pile was empty.
                Err(_) => {
                    self.forget_zone(*from);
                    self.zones.insert(*from, SmallVec::new());
                }
            },
            (Read::TakeAt { from, pos, to, .. }, Val::Int(c)) => {
                self.forget_zone(*from);
                self.forget_zone(*to);
                match (CardIx::try_from(*c), self.zones.get_mut(from)) {
                    (Ok(_), Some(cs)) if (*pos as usize) < cs.len() => {
                        cs.remove(*pos as usize);
                    }
                    // Nothing there: the zone holds fewer; what it holds
                    // is not known from this.
                    _ => {
                        self.zones.remove(from);
                    }
                }
                match (CardIx::try_from(*c), self.zones.get_mut(to)) {
                    (Ok(c), Some(cs)) => cs.push(c),
                    (Ok(_), None) => {}
                    (Err(_), _) => {}
                }
            }
            (Read::Cards(z), Val::Cards(c)) => {
                self.zones.insert(*z, c.clone());
            }
            // A draw determines nothing after it.
            (Read::Random(_), _) => {}
            _ => {
                self.values.insert(key.clone(), v.clone());
            }
        }
    }

    /// Facts about a zone other than its contents become stale on a move.
    fn forget_zone(&mut self, z: u32) {
        self.values.retain(|k, _| match k {
            Read::Distinct(y) | Read::Count(y) | Read::Has(y, _) | Read::Entries(y) => *y != z,
            Read::Empties { first, n } => !(*first..*first + u32::from(*n)).contains(&z),
            _ => true,
        });
    }

    /// `card` went from the end-most place it had in `from` to the end of `to`.
    fn moved(&mut self, card: CardIx, from: u32, to: u32) {
        self.forget_zone(from);
        self.forget_zone(to);
        if let Some(cs) = self.zones.get_mut(&from) {
            match cs.iter().rposition(|&c| c == card) {
                Some(i) => {
                    cs.remove(i);
                }
                None => {
                    self.zones.remove(&from);
                }
            }
        }
        if let Some(cs) = self.zones.get_mut(&to) {
            cs.push(card);
        }
    }

    fn int(&mut self, key: Read, f: impl FnOnce(Option<i64>) -> Option<i64>) {
        let old = match self.values.get(&key) {
            Some(Val::Int(i)) => Some(*i),
            _ => None,
        };
        match f(old) {
            Some(v) => self.values.insert(key, Val::Int(v)),
            None => self.values.remove(&key),
        };
    }

    fn write(&mut self, w: &Write) {
        if matches!(w, Write::SetStat(..) | Write::AddStat(..)) {
            // Reads that combine stats: any of them may have changed.
            self.values.retain(|k, _| {
                !matches!(
                    k,
                    Read::AnyAtLeast { .. } | Read::Extreme { .. } | Read::Compare(..)
                )
            });
        }
        match w {
            Write::SetStat(i, v) => self.int(Read::Stat(ix(*i)), |_| Some(*v)),
            Write::AddStat(i, d) => {
                self.int(Read::Stat(ix(*i)), |o| o.and_then(|x| x.checked_add(*d)))
            }
            Write::SetVar(i, v) => self.int(Read::Var(ix(*i)), |_| Some(*v)),
            Write::AddVar(i, d) => {
                self.int(Read::Var(ix(*i)), |o| o.and_then(|x| x.checked_add(*d)))
            }
            Write::MoveCard { card, from, to, .. } => self.moved(*card, ix(*from), ix(*to)),
            Write::MoveAll { from, to, .. } if from != to => {
                let (from, to) = (ix(*from), ix(*to));
                self.forget_zone(from);
                self.forget_zone(to);
                let moved = self.zones.insert(from, SmallVec::new());
                match (moved, self.zones.get_mut(&to)) {
                    (Some(m), Some(cs)) => cs.extend(m),
                    _ => {
                        self.zones.remove(&to);
                    }
                }
            }
            // Contents stay; the cards' records change.
            Write::Turn { slot, .. } | Write::TurnAll { slot, .. } => self.forget_zone(ix(*slot)),
            Write::SetActive(p) => self.int(Read::Active, |_| Some(*p as i64)),
            Write::SetOrder(o) => {
                let o = o.iter().map(|&p| p as CardIx).collect();
                self.values.insert(Read::Order, Val::Cards(o));
            }
            Write::End(..) => self.int(Read::IsOver, |_| Some(1)),
            // Contents stay; who knows the cards is no read's answer.
            Write::MoveAll { .. } | Write::Know { .. } | Write::RevealFirst(_) | Write::Ask(_) => {}
        }
    }
}

/// The record without the reads its own earlier operations determine
/// (kept in the run's own buffer).
pub(super) fn elide(ops: Vec<Op>) -> Vec<Op> {
    KNOWN.with(|k| {
        let mut known = k.borrow_mut();
        // A table a long run grew is not kept (clearing costs its size).
        if known.values.capacity() > MAX_KEPT_READS {
            *known = Known::for_reads(0);
        }
        known.clear();
        // At most one read an operation.
        known.values.reserve(ops.len());
        elide_with(ops, &mut known)
    })
}

/// Reads the kept table has room for at most.
const MAX_KEPT_READS: usize = 1 << 12;

thread_local! {
    /// The tables of the last run elided, emptied and used again: a run
    /// is recorded on every miss, and making (and freeing) two tables
    /// for each cost more than the elision itself.
    static KNOWN: RefCell<Known> = RefCell::new(Known::for_reads(0));
}

fn elide_with(ops: Vec<Op>, known: &mut Known) -> Vec<Op> {
    ops.into_iter()
        .filter(|op| match op {
            Op::Read(key, v) => known.first(key, v),
            Op::Write(w) => {
                known.write(w);
                true
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(c: &[CardIx]) -> Val {
        Val::Cards(SmallVec::from_slice(c))
    }

    fn reads(ops: &[Op]) -> Vec<Read> {
        ops.iter()
            .filter_map(|o| match o {
                Op::Read(k, _) => Some(k.clone()),
                Op::Write(_) => None,
            })
            .collect()
    }

    #[test]
    fn a_move_into_a_board_makes_its_empty_cells_stale() {
        let board = Read::Empties { first: 2, n: 4 };
        let ops = vec![
            Op::Read(board.clone(), Val::Int(0b1111)),
            // Read again with nothing between: known.
            Op::Read(board.clone(), Val::Int(0b1111)),
            // A card out of the board's range changes nothing it says.
            Op::Write(Write::MoveCard {
                card: 1,
                from: 0,
                to: 1,
                by: None,
            }),
            Op::Read(board.clone(), Val::Int(0b1111)),
            // Onto its third cell: a new value.
            Op::Write(Write::MoveCard {
                card: 1,
                from: 1,
                to: 4,
                by: None,
            }),
            Op::Read(board.clone(), Val::Int(0b1011)),
        ];
        assert_eq!(reads(&elide(ops)), vec![board.clone(), board]);
    }

    #[test]
    fn reads_the_run_determines_are_dropped() {
        let ops = vec![
            Op::Read(Read::Stat(0), Val::Int(3)),
            Op::Write(Write::AddStat(0, 2)),
            // 5: determined by the read and the add.
            Op::Read(Read::Stat(0), Val::Int(5)),
            Op::Read(Read::Cards(1), cards(&[4, 7])),
            Op::Write(Write::MoveCard {
                card: 4,
                from: 1,
                to: 2,
                by: None,
            }),
            // Zone 1 is known to hold [7]; zone 2 was never read.
            Op::Read(Read::Count(1), Val::Int(1)),
            Op::Read(Read::Has(1, 4), Val::Int(0)),
            Op::Read(Read::Count(2), Val::Int(1)),
            // Read again with nothing between that could change it: known.
            Op::Read(Read::Count(2), Val::Int(1)),
            // Each draw from chance is a new number: both kept.
            Op::Read(Read::Random(6), Val::Int(2)),
            Op::Read(Read::Random(6), Val::Int(2)),
            // A draw is a move: always kept.
            Op::Read(
                Read::Draw {
                    from: 3,
                    to: 1,
                    by: None,
                },
                Val::Int(9),
            ),
            Op::Read(Read::Cards(1), cards(&[7, 9])),
            Op::Write(Write::SetActive(1)),
            Op::Read(Read::Active, Val::Int(1)),
        ];
        assert_eq!(
            reads(&elide(ops)),
            vec![
                Read::Stat(0),
                Read::Cards(1),
                Read::Count(2),
                Read::Random(6),
                Read::Random(6),
                Read::Draw {
                    from: 3,
                    to: 1,
                    by: None
                }
            ]
        );
    }

    #[test]
    fn a_move_makes_other_facts_about_a_zone_stale() {
        let ops = vec![
            Op::Read(Read::Count(2), Val::Int(1)),
            Op::Read(Read::Has(2, 5), Val::Int(1)),
            Op::Write(Write::MoveCard {
                card: 5,
                from: 2,
                to: 0,
                by: None,
            }),
            // The zone's contents were never read: both must be read again.
            Op::Read(Read::Count(2), Val::Int(0)),
            Op::Read(Read::Has(2, 5), Val::Int(0)),
            Op::Read(
                Read::AnyAtLeast {
                    stat: 1,
                    nstats: 2,
                    n: 4,
                },
                Val::Int(0),
            ),
            Op::Write(Write::SetStat(3, 9)),
            Op::Read(
                Read::AnyAtLeast {
                    stat: 1,
                    nstats: 2,
                    n: 4,
                },
                Val::Int(1),
            ),
        ];
        assert_eq!(reads(&elide(ops.clone())), reads(&ops));
    }
}
