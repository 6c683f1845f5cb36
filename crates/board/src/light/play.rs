//! The play path of [`LightBoard`]: placing a stone, merging, capturing.

use super::{
    EMPTY, Libs, LightBoard, NO_GROUP, NO_KO, ONE_EMPTY, key_of, ko_key, lib_count, lib_key, one,
};
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
        // new stone's empty neighbours are its own; it joins the biggest friendly
        // group (the first of equal ones, as `Board` picks). No branch: which
        // neighbours are stones is as random as the playout, and empty and border
        // neighbours read `NO_GROUP`, whose word takes the updates.
        let enemy = own ^ 1;
        let key = key_of(i);
        let mut mine: Libs = 0;
        let (mut keep, mut keep_size) = (usize::from(NO_GROUP), 0);
        let mut cells = [0u8; 4];
        let mut roots = [0usize; 4];
        for k in 0..4 {
            let j = nbrs[k];
            self.nbr[j] = self.nbr[j] - ONE_EMPTY + one(c);
            let cell = self.cells[j];
            let g = usize::from(self.root[j]) & m;
            (cells[k], roots[k]) = (cell, g);
            self.libs[g] = self.libs[g].wrapping_sub(key);
            mine += u64::from(cell == EMPTY).wrapping_neg() & lib_key(j);
            let size = self.stones[g];
            let bigger = (cell == own) & (size > keep_size);
            keep = if bigger { g } else { keep };
            keep_size = if bigger { size } else { keep_size };
        }
        // Which neighbours start a capture (an enemy group left without a liberty)
        // or a merge (a friendly group other than `keep`), one bit each.
        let (mut captures, mut merges) = (0u32, 0u32);
        for k in 0..4 {
            let dead = (cells[k] == enemy) & (self.libs[roots[k]] == 0);
            captures |= u32::from(dead) << k;
            merges |= u32::from((cells[k] == own) & (roots[k] != keep)) << k;
        }

        let k = if keep == usize::from(NO_GROUP) {
            i
        } else {
            keep
        } & m;
        self.libs[i] = 0;
        self.stones[i] = 0;
        self.next[i] = i as u16;
        self.root[i] = k as u16;
        let after = self.next[k];
        self.next[i] = after;
        self.next[k] = i as u16;
        self.libs[k] = self.libs[k].wrapping_add(mine);
        self.stones[k] += 1;

        let (mut captured, mut captured_at) = (0, i);
        if captures | merges != 0 {
            (captured, captured_at) = self.settle(i, nbrs, captures, merges, enemy);
        }

        let r = usize::from(self.root[i]) & m;
        if self.libs[r] == 0 {
            self.remove_group(i);
        }
        let ko = (captured == 1) & (self.stones[r] == 1) & (lib_count(self.libs[r]) == 1);
        self.ko = if ko {
            ko_key(captured_at, c.opponent())
        } else {
            NO_KO
        };
        captured
    }

    /// The captures and merges of a stone just placed on `i`: the enemy groups on the
    /// neighbours in `captures` are removed (each from its first neighbour, so that
    /// its stones empty in `Board`'s order), then the friendly groups on the
    /// neighbours in `merges` join the stone's group, the smaller into the bigger.
    /// (`Board` interleaves the two in neighbour order; neither changes what the other
    /// does, so the result is the same.) Returns the stones captured and the last
    /// captured neighbour.
    fn settle(
        &mut self,
        i: usize,
        nbrs: [usize; 4],
        captures: u32,
        merges: u32,
        enemy: u8,
    ) -> (u16, usize) {
        let m = Self::MASK;
        let (mut captured, mut captured_at) = (0, i);
        let mut bits = captures;
        while bits != 0 {
            let j = nbrs[bits.trailing_zeros() as usize & 3];
            bits &= bits - 1;
            // A group met twice is gone by its second neighbour.
            if self.cells[j] == enemy {
                captured += self.remove_group(j);
                captured_at = j;
            }
        }
        let mut bits = merges;
        while bits != 0 {
            let j = nbrs[bits.trailing_zeros() as usize & 3];
            bits &= bits - 1;
            let (a, b) = (usize::from(self.root[i]) & m, usize::from(self.root[j]) & m);
            if a != b {
                if self.stones[a] >= self.stones[b] {
                    self.merge(a, b);
                } else {
                    self.merge(b, a);
                }
            }
        }
        (captured, captured_at)
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
            // this group and non-stones feed dead or `NO_GROUP` words).
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
