//! A deal from a shuffled pile while chance is enumerated (`Forced`): the
//! shuffle waits (`State::shuffle_later`), and a deal then draws once which
//! cards each player gets, not the pile's n! orders. Dealing the 16 cards
//! of two players 8 each into hands that keep no order is C(16, 8) = 12,870
//! outcomes instead of 16! = 2.1e13.

use super::State;

/// How many cards each of `players` gets when `each` are dealt to every
/// one in turn from a pile of `len` (the first ones get one more when the
/// pile runs out part way through a round).
pub fn shares(len: usize, players: usize, each: usize) -> Vec<usize> {
    let total = len.min(players * each);
    let (full, extra) = (total / players.max(1), total % players.max(1));
    (0..players)
        .map(|p| full + usize::from(p < extra))
        .collect()
}

/// The ways to take `k` of `m` cards: as a set, or (`ordered`) in order.
fn ways(m: usize, k: usize, ordered: bool) -> Option<u64> {
    let mut w: u64 = 1;
    for j in 0..k {
        w = w.checked_mul((m - j) as u64)?;
        if !ordered {
            w /= j as u64 + 1;
        }
    }
    Some(w)
}

/// The number of different deals of `shares` from a pile of `len` (None
/// past u64).
pub fn deals(len: usize, shares: &[usize], ordered: bool) -> Option<u64> {
    let mut left = len;
    let mut n: u64 = 1;
    for &k in shares {
        n = n.checked_mul(ways(left, k, ordered)?)?;
        left -= k;
    }
    Some(n)
}

/// Deal number `r` of `deals(len, shares, ordered)`: for each player, the
/// places in the pile (0 = bottom) of the cards they get, in the order
/// they get them (ascending where `ordered` is false).
pub fn unrank(len: usize, shares: &[usize], ordered: bool, mut r: u64) -> Vec<Vec<usize>> {
    let mut left: Vec<usize> = (0..len).collect();
    let mut out = Vec::with_capacity(shares.len());
    for &k in shares {
        let m = left.len();
        let w = ways(m, k, ordered).unwrap_or(1);
        let mut rp = r % w;
        r /= w;
        let mut picked = Vec::with_capacity(k);
        if ordered {
            for j in 0..k {
                let i = (rp % (m - j) as u64) as usize;
                rp /= (m - j) as u64;
                picked.push(left.remove(i));
            }
        } else {
            // The combinatorial number system, smallest place first.
            let mut need = k;
            let mut x = 0;
            while need > 0 {
                let with_x = ways(left.len() - x - 1, need - 1, false).unwrap_or(1);
                if rp < with_x {
                    picked.push(left.remove(x));
                    need -= 1;
                } else {
                    rp -= with_x;
                    x += 1;
                }
            }
        }
        out.push(picked);
    }
    out
}

impl State {
    /// Before a deal of `shares` (in seat order) from `slot`, whose
    /// shuffle waits: draw which cards each player gets (one draw of all
    /// the deals), and put them on top in the order the deal takes them.
    /// The rest of the pile keeps waiting for its shuffle (`true`: it is
    /// to wait again once the deal is done). False, with the shuffle
    /// drawn, when the deals are too many to list in one draw.
    pub fn arrange_deal(&mut self, slot: usize, shares: &[usize], ordered: bool) -> bool {
        let len = self.zones[slot].len();
        let n = deals(len, shares, ordered).filter(|&n| n <= u64::from(u32::MAX));
        let (Some(n), true) = (n, self.forced.is_some()) else {
            self.settle(slot);
            return false;
        };
        self.unshuffled.retain(|&s| s as usize != slot);
        let picks = unrank(len, shares, ordered, self.random_below(n));
        // The deal takes from the top (the end): round by round, a card
        // to each player in seat order.
        let mut dealt = vec![false; len];
        picks.iter().flatten().for_each(|&i| dealt[i] = true);
        let mut order: Vec<usize> = (0..len).filter(|&i| !dealt[i]).collect();
        let rounds = shares.iter().copied().max().unwrap_or(0);
        let mut top: Vec<usize> = Vec::with_capacity(len);
        for round in 0..rounds {
            for p in &picks {
                if let Some(&i) = p.get(round) {
                    top.push(i);
                }
            }
        }
        order.extend(top.into_iter().rev());
        let cards: Vec<_> = order.iter().map(|&i| self.zones[slot][i]).collect();
        self.zones[slot] = cards;
        self.forget_known(slot);
        if self.records(slot) {
            let by: Vec<u8> = order.iter().map(|&i| self.origins[slot][i]).collect();
            self.origins[slot] = by;
        }
        len.saturating_sub(shares.iter().sum::<usize>()) > 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_shares() {
        assert_eq!(shares(16, 2, 8), vec![8, 8]);
        assert_eq!(shares(5, 2, 3), vec![3, 2]);
        assert_eq!(shares(7, 3, 2), vec![2, 2, 2]);
        assert_eq!(shares(0, 2, 4), vec![0, 0]);
    }

    /// Every rank gives a different deal, and together they are all deals.
    fn all_distinct(len: usize, shares: &[usize], ordered: bool) -> usize {
        let Some(n) = deals(len, shares, ordered) else {
            return 0;
        };
        let mut seen = std::collections::HashSet::new();
        for r in 0..n {
            let d = unrank(len, shares, ordered, r);
            for (p, &k) in d.iter().zip(shares) {
                assert_eq!(p.len(), k);
                if !ordered {
                    assert!(p.windows(2).all(|w| w[0] < w[1]), "{d:?}");
                }
            }
            let flat: Vec<usize> = d.iter().flatten().copied().collect();
            let set: std::collections::HashSet<_> = flat.iter().collect();
            assert_eq!(set.len(), flat.len(), "a place dealt twice: {d:?}");
            assert!(seen.insert(d));
        }
        seen.len()
    }

    #[test]
    fn ranks_list_every_deal_once() {
        // 6 choose 2, then 4 choose 2: 15 * 6.
        assert_eq!(all_distinct(6, &[2, 2], false), 90);
        assert_eq!(deals(6, &[2, 2], false), Some(90));
        // In order: 6*5 * 4*3.
        assert_eq!(all_distinct(6, &[2, 2], true), 360);
        assert_eq!(all_distinct(5, &[3, 2], false), 10);
        assert_eq!(deals(16, &[8, 8], false), Some(12_870));
        assert_eq!(deals(60, &[30, 30], true), None);
    }
}
