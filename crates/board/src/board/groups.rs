//! Group bookkeeping: merging two groups, removing a captured one, and the list of
//! empty points.

use super::{Board, Cell, NO_GROUP, ONE_EMPTY, distinct_groups, one};
use crate::color::Color;
use crate::point::Point;
use crate::zobrist::stone_key;

impl Board {
    /// Merges group `gone` into group `keep`, counting the liberties of `gone` that
    /// `keep` lacked.
    pub(super) fn merge(&mut self, keep: u16, gone: u16) {
        let (keep_i, gone_i) = (keep as usize, gone as usize);
        self.stones[keep_i] += self.stones[gone_i];
        let mut added = 0;
        let mut s = gone_i;
        loop {
            for n in self.size.neighbours(Point::from_index(s)) {
                if self.cells[n.index()] == Cell::Empty {
                    // A liberty of `gone` is new to `keep` unless a `keep` stone (or a
                    // `gone` stone already relabelled) touches it.
                    let shared = self
                        .size
                        .neighbours(n)
                        .iter()
                        .any(|m| self.root[m.index()] == keep);
                    added += u16::from(!shared);
                }
            }
            self.root[s] = keep;
            s = self.next[s] as usize;
            if s == gone_i {
                break;
            }
        }
        self.libs[keep_i] += added;
        self.next.swap(keep_i, gone_i);
    }

    pub(super) fn remove_group(&mut self, p: Point) -> u16 {
        let c = match self.cells[p.index()] {
            Cell::Black => Color::Black,
            _ => Color::White,
        };
        let start = p.index();
        let mut s = start;
        let mut removed = 0;
        loop {
            let sp = Point::from_index(s);
            self.cells[s] = Cell::Empty;
            self.root[s] = NO_GROUP;
            self.bits[c].remove(sp);
            self.hash ^= stone_key(c, sp);
            self.push_empty(sp);
            removed += 1;
            // Each distinct neighbouring group gains the liberty `sp` (without
            // branches, as in `play_unchecked`).
            let nbrs = self.size.neighbours(sp);
            let r = nbrs.map(|n| self.root[n.index()]);
            let fresh = distinct_groups(r);
            for k in 0..4 {
                let j = nbrs[k].index();
                self.nbr[j] = self.nbr[j] - one(c) + ONE_EMPTY;
                self.libs[r[k] as usize] += u16::from(fresh[k]);
            }
            s = self.next[s] as usize;
            if s == start {
                break;
            }
        }
        removed
    }

    #[inline]
    pub(super) fn push_empty(&mut self, p: Point) {
        self.empty_pos[p.index()] = self.n_empty;
        self.empty[self.n_empty as usize] = p;
        self.n_empty += 1;
    }

    #[inline]
    pub(super) fn remove_empty(&mut self, p: Point) {
        let at = self.empty_pos[p.index()] as usize;
        self.n_empty -= 1;
        let last = self.empty[self.n_empty as usize];
        self.empty[at] = last;
        self.empty_pos[last.index()] = at as u16;
    }
}
