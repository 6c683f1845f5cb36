//! The play path of [`LightBoard`]: placing a stone, merging, capturing.

use super::{Chain, EMPTY, LightBoard, NO_GROUP, NO_KO, ONE_EMPTY, ko_key, one};
use crate::board::distinct_groups;
use crate::color::Color;
use crate::point::Point;

/// `Chain::shift`'s sign for a pseudo-liberty gained or lost.
const GAIN: u32 = 1;
const LOSE: u32 = u32::MAX;

impl LightBoard {
    /// Plays a legal move of `c` on `p` (an empty point that [`LightBoard::is_legal`]
    /// allows) and returns the number of stones it captured. A stone left without a
    /// liberty would be removed as a suicide, as [`crate::Board::play_unchecked`] does.
    #[inline(always)]
    pub fn play(&mut self, c: Color, p: Point) -> u16 {
        let i = p.index();
        let s = self.size.stride();
        let nbrs = [i - s, i - 1, i + 1, i + s];
        let own = c as u8;
        self.cells[i] = own;
        self.bits[c].insert(p);
        self.remove_empty(i);

        // Every neighbouring group loses one pseudo-liberty per touching stone; the
        // new stone's empty neighbours are its own. No branch: empty and border
        // neighbours read `NO_GROUP`, whose chain takes the updates.
        let r = nbrs.map(|j| self.root[j]);
        let fresh = distinct_groups(r);
        let mut mine = Chain {
            stones: 1,
            ..Chain::default()
        };
        let (mut keep, mut keep_size) = (NO_GROUP, 0);
        let mut friends = 0u32;
        let mut dead = false;
        for k in 0..4 {
            let j = nbrs[k];
            self.nbr[j] = self.nbr[j] - ONE_EMPTY + one(c);
            let cell = self.cells[j];
            let chain = &mut self.chains[usize::from(r[k])];
            chain.shift(i, LOSE);
            let empty = u32::from(cell == EMPTY);
            mine.libs += empty;
            mine.sum += empty * j as u32;
            mine.squares += empty * (j * j) as u32;
            let friend = cell == own;
            dead |= (cell < EMPTY) & !friend & (chain.libs == 0);
            let bigger = friend & (chain.stones > keep_size);
            keep_size = if bigger { chain.stones } else { keep_size };
            keep = if bigger { r[k] } else { keep };
            friends += u32::from(fresh[k] & friend);
        }

        // The new stone joins its biggest friendly group, or starts one.
        let k = if keep == NO_GROUP { i } else { usize::from(keep) };
        self.chains[i] = Chain::default();
        self.next[i] = i as u16;
        self.root[i] = k as u16;
        let after = self.next[k];
        self.next[i] = after;
        self.next[k] = i as u16;
        let chain = &mut self.chains[k];
        chain.libs = chain.libs.wrapping_add(mine.libs);
        chain.sum = chain.sum.wrapping_add(mine.sum);
        chain.squares = chain.squares.wrapping_add(mine.squares);
        chain.stones += 1;

        let mut captured = 0u16;
        let mut captured_at = i;
        if dead || friends > 1 {
            let enemy = c.opponent() as u8;
            for j in nbrs {
                let cell = self.cells[j];
                if cell == enemy {
                    if self.chains[usize::from(self.root[j])].libs == 0 {
                        captured += self.remove_group(j);
                        captured_at = j;
                    }
                } else if cell == own {
                    let (a, b) = (self.root[i], self.root[j]);
                    if a != b {
                        let (a, b) = (usize::from(a), usize::from(b));
                        if self.chains[a].stones >= self.chains[b].stones {
                            self.merge(a, b);
                        } else {
                            self.merge(b, a);
                        }
                    }
                }
            }
        }

        self.ko = NO_KO;
        let r = usize::from(self.root[i]);
        let chain = self.chains[r];
        if chain.libs == 0 {
            self.remove_group(i);
        } else if captured == 1 && chain.stones == 1 && chain.libs == 1 {
            self.ko = ko_key(captured_at, c.opponent());
        }
        captured
    }

    /// Merges group `gone` into group `keep` (both roots).
    fn merge(&mut self, keep: usize, gone: usize) {
        let g = self.chains[gone];
        let chain = &mut self.chains[keep];
        chain.libs += g.libs;
        chain.sum = chain.sum.wrapping_add(g.sum);
        chain.squares = chain.squares.wrapping_add(g.squares);
        chain.stones += g.stones;
        let mut s = gone;
        loop {
            self.root[s] = keep as u16;
            s = usize::from(self.next[s]);
            if s == gone {
                break;
            }
        }
        self.next.swap(keep, gone);
    }

    /// Removes the group on slot `start`, its stones' slots becoming empty in list
    /// order; returns how many stones it had.
    fn remove_group(&mut self, start: usize) -> u16 {
        let color = if self.cells[start] == Color::Black as u8 {
            Color::Black
        } else {
            Color::White
        };
        let stride = self.size.stride();
        let mut s = start;
        let mut removed = 0;
        loop {
            self.cells[s] = EMPTY;
            self.root[s] = NO_GROUP;
            self.bits[color].remove(Point::from_index(s));
            self.push_empty(s);
            removed += 1;
            // Every neighbouring stone's group gains the pseudo-liberty `s` (stones of
            // this group and non-stones feed dead or `NO_GROUP` chains).
            for j in [s - stride, s - 1, s + 1, s + stride] {
                self.nbr[j] = self.nbr[j] - one(color) + ONE_EMPTY;
                self.chains[usize::from(self.root[j])].shift(s, GAIN);
            }
            s = usize::from(self.next[s]);
            if s == start {
                break;
            }
        }
        removed
    }
}
