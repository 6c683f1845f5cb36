//! The play path of [`LightBoard`]: placing a stone, merging, capturing.

use super::{EMPTY, LightBoard, Libs, NO_GROUP, NO_KO, ONE_EMPTY, key_of, ko_key, lib_count, one};
use crate::color::Color;
use crate::point::Point;

impl<const CAP: usize, const STRIDE: usize> LightBoard<CAP, STRIDE> {
    /// Plays a legal move of `c` on `p` (an empty point that [`LightBoard::is_legal`]
    /// allows) and returns the number of stones it captured. A stone left without a
    /// liberty would be removed as a suicide, as [`crate::Board::play_unchecked`] does.
    #[inline(always)]
    pub fn play(&mut self, c: Color, p: Point) -> u16 {
        let m = Self::MASK;
        let i = p.index() & m;
        let s = self.stride();
        let nbrs = [i - s, i - 1, i + 1, i + s].map(|j| j & m);
        let own = c as u8;
        self.cells[i] = own;
        self.bits[c as usize].insert(p);
        self.remove_empty(i);

        // Every neighbouring group loses one pseudo-liberty per touching stone; the
        // new stone's empty neighbours are its own. No branch: empty and border
        // neighbours read `NO_GROUP`, whose chain takes the updates.
        let around = self.nbr[i];
        let friends = (around >> (4 * own)) & 0xF;
        let enemy = own ^ 1;
        let key = key_of(i);
        let mut mine: Libs = 0;
        // With one friendly neighbour, its root (the OR of the friends' roots).
        let mut keep = usize::from(NO_GROUP);
        let mut dead = false;
        for j in nbrs {
            self.nbr[j] = self.nbr[j] - ONE_EMPTY + one(c);
            let cell = self.cells[j];
            let g = usize::from(self.root[j]) & m;
            let w = self.libs[g].wrapping_sub(key);
            self.libs[g] = w;
            mine += u64::from(cell == EMPTY).wrapping_neg() & key_of(j);
            dead |= (cell == enemy) & (w == 0);
            keep |= usize::from(cell == own).wrapping_neg() & g;
        }
        if friends > 1 {
            keep = self.biggest_friend(nbrs, own);
        }

        // The new stone joins its biggest friendly group, or starts one.
        let k = if keep == usize::from(NO_GROUP) { i } else { keep } & m;
        self.libs[i] = 0;
        self.stones[i] = 0;
        self.next[i] = i as u16;
        self.root[i] = k as u16;
        let after = self.next[k];
        self.next[i] = after;
        self.next[k] = i as u16;
        self.libs[k] = self.libs[k].wrapping_add(mine);
        self.stones[k] += 1;

        let mut captured = 0u16;
        let mut captured_at = i;
        if dead || friends > 1 {
            // Captures and merges in neighbour order, as `Board` makes them.
            for j in nbrs {
                let cell = self.cells[j];
                if cell == enemy {
                    if self.libs[usize::from(self.root[j]) & m] == 0 {
                        captured += self.remove_group(j);
                        captured_at = j;
                    }
                } else if cell == own {
                    let (a, b) = (self.root[i], self.root[j]);
                    if a != b {
                        let (a, b) = (usize::from(a) & m, usize::from(b) & m);
                        if self.stones[a] >= self.stones[b] {
                            self.merge(a, b);
                        } else {
                            self.merge(b, a);
                        }
                    }
                }
            }
        }

        self.ko = NO_KO;
        let r = usize::from(self.root[i]) & m;
        if self.libs[r] == 0 {
            self.remove_group(i);
        } else if captured == 1 && self.stones[r] == 1 && lib_count(self.libs[r]) == 1 {
            self.ko = ko_key(captured_at, c.opponent());
        }
        captured
    }

    /// The root of the biggest group of colour `own` among the neighbours `nbrs` (the
    /// first of equal ones), which `Board` also lets a new stone join.
    fn biggest_friend(&self, nbrs: [usize; 4], own: u8) -> usize {
        let m = Self::MASK;
        let (mut keep, mut keep_size) = (usize::from(NO_GROUP), 0);
        for j in nbrs {
            let g = usize::from(self.root[j]) & m;
            if self.cells[j] == own && self.stones[g] > keep_size {
                keep = g;
                keep_size = self.stones[g];
            }
        }
        keep
    }

    /// Merges group `gone` into group `keep` (both roots).
    fn merge(&mut self, keep: usize, gone: usize) {
        let m = Self::MASK;
        let (keep, gone) = (keep & m, gone & m);
        self.libs[keep] += self.libs[gone];
        self.stones[keep] += self.stones[gone];
        let mut s = gone;
        loop {
            self.root[s] = keep as u16;
            s = usize::from(self.next[s]) & m;
            if s == gone {
                break;
            }
        }
        self.next.swap(keep, gone);
    }

    /// Removes the group on slot `start`, its stones' slots becoming empty in list
    /// order; returns how many stones it had.
    fn remove_group(&mut self, start: usize) -> u16 {
        let m = Self::MASK;
        let start = start & m;
        let color = if self.cells[start] == Color::Black as u8 {
            Color::Black
        } else {
            Color::White
        };
        let stride = self.stride();
        let mut s = start;
        let mut removed = 0;
        loop {
            let key = key_of(s);
            self.cells[s] = EMPTY;
            self.root[s] = NO_GROUP;
            self.bits[color as usize].remove(Point::from_index(s));
            self.push_empty(s);
            removed += 1;
            // Every neighbouring stone's group gains the pseudo-liberty `s` (stones of
            // this group and non-stones feed dead or `NO_GROUP` chains).
            for j in [s - stride, s - 1, s + 1, s + stride] {
                let j = j & m;
                self.nbr[j] = self.nbr[j] - one(color) + ONE_EMPTY;
                let g = usize::from(self.root[j]) & m;
                self.libs[g] = self.libs[g].wrapping_add(key);
            }
            s = usize::from(self.next[s]) & m;
            if s == start {
                break;
            }
        }
        removed
    }
}
