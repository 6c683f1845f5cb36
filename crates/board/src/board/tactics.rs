//! Cheap local questions playout policies and priors ask: what a move would leave its
//! group with, and the 3×3 neighbourhood of a point.

use super::{Board, Cell, EMPTY_FIELD, NO_GROUP, ONE_EMPTY};
use crate::color::Color;
use crate::point::Point;

/// A small set of points, enough to count liberties up to a limit.
struct FewPoints {
    points: [u16; 8],
    len: usize,
}

impl FewPoints {
    fn add(&mut self, p: Point) {
        let i = p.index() as u16;
        if self.len < 8 && !self.points[..self.len].contains(&i) {
            self.points[self.len] = i;
            self.len += 1;
        }
    }
}

impl Board {
    /// The liberties the group of a new stone of `c` on the empty point `p` would have,
    /// counted up to `limit` (at most 8): empty neighbours, points freed by captures next
    /// to `p`, and the other liberties of the friendly groups it joins.
    pub fn liberties_after(&self, c: Color, p: Point, limit: usize) -> usize {
        let limit = limit.min(8);
        let own = Cell::of(c);
        let mut libs = FewPoints {
            points: [0; 8],
            len: 0,
        };
        let nbrs = self.size.neighbours(p);
        for n in nbrs {
            match self.cells[n.index()] {
                Cell::Empty => libs.add(n),
                Cell::Border => {}
                x if x != own && self.libs[self.root[n.index()] as usize] == 1 => libs.add(n),
                _ => {}
            }
        }
        if libs.len >= limit {
            return libs.len;
        }
        let mut seen = [NO_GROUP; 4];
        for (k, n) in nbrs.into_iter().enumerate() {
            let r = self.root[n.index()];
            seen[k] = r;
            if self.cells[n.index()] != own || seen[..k].contains(&r) {
                continue;
            }
            // Every liberty of a joined group but `p` stays one: no need to walk it.
            if self.libs[r as usize] as usize > limit {
                return limit;
            }
            for s in self.group_stones(n) {
                for m in self.size.neighbours(s) {
                    if m != p && self.cells[m.index()] == Cell::Empty {
                        libs.add(m);
                        if libs.len >= limit {
                            return libs.len;
                        }
                    }
                }
            }
        }
        libs.len
    }

    /// Whether `c` playing the empty point `p` would leave its group in atari (one
    /// liberty) while capturing nothing, and how many stones that group would have.
    /// `None` when it is not a self-atari.
    pub fn self_atari_size(&self, c: Color, p: Point) -> Option<u32> {
        // Two empty neighbours are two liberties, whatever the move captures.
        if self.nbr[p.index()] & EMPTY_FIELD >= 2 * ONE_EMPTY {
            return None;
        }
        let own = Cell::of(c);
        for n in self.size.neighbours(p) {
            match self.cells[n.index()] {
                Cell::Empty | Cell::Border => {}
                x if x != own && self.libs[self.root[n.index()] as usize] == 1 => {
                    return None; // captures
                }
                _ => {}
            }
        }
        if self.liberties_after(c, p, 2) >= 2 {
            return None;
        }
        let mut size = 1;
        let mut seen = [NO_GROUP; 4];
        for (k, n) in self.size.neighbours(p).into_iter().enumerate() {
            let r = self.root[n.index()];
            seen[k] = r;
            if self.cells[n.index()] == own && !seen[..k].contains(&r) {
                size += u32::from(self.stones[r as usize]);
            }
        }
        Some(size)
    }

    /// The 3×3 neighbourhood of `p` as a 16-bit code: the eight neighbours in the order
    /// NW, N, NE, W, E, SW, S, SE (N is towards higher rows), two bits each:
    /// 0 black, 1 white, 2 empty, 3 off the board.
    #[inline]
    pub fn pattern3(&self, p: Point) -> u16 {
        let s = self.size.stride();
        let i = p.index();
        let at = |j: usize| self.cells[j] as u16;
        at(i + s - 1)
            | at(i + s) << 2
            | at(i + s + 1) << 4
            | at(i - 1) << 6
            | at(i + 1) << 8
            | at(i - s - 1) << 10
            | at(i - s) << 12
            | at(i - s + 1) << 14
    }
}

#[cfg(test)]
mod tests {
    use crate::color::Color;
    use crate::diagram::parse_diagram;

    #[test]
    fn liberties_after_and_self_atari() {
        let b = parse_diagram(
            ". . . . .
             . X X O .
             . O O X .
             . . X . .
             . . . . .",
        )
        .unwrap();
        let s = b.size();
        let p = |v: &str| s.parse_point(v).unwrap();
        // White A3 joins B3-C3: A2, A4 and the group's other liberty B2.
        assert_eq!(b.liberties_after(Color::White, p("A3"), 8), 3);
        assert_eq!(b.liberties_after(Color::White, p("A3"), 2), 2);
        // A white stone at B2 joins B3-C3: liberties A3, A2, B1 (C2 is black).
        assert_eq!(b.liberties_after(Color::White, p("B2"), 8), 3);
        // Black D2 joins C2 and D3: D1, E2, C1, B2, E3 (counted up to 4).
        assert_eq!(b.liberties_after(Color::Black, p("D2"), 4), 4);
        assert_eq!(b.liberties_after(Color::Black, p("D2"), 8), 5);
        assert_eq!(b.self_atari_size(Color::Black, p("D2")), None);

        let b = parse_diagram(
            ". . . .
             . . . .
             O . . .
             X . O .",
        )
        .unwrap();
        let s = b.size();
        let p = |v: &str| s.parse_point(v).unwrap();
        assert_eq!(b.self_atari_size(Color::Black, p("B1")), Some(2));
        assert_eq!(b.self_atari_size(Color::Black, p("B2")), None);
        // White B1 captures A1: never a self-atari.
        assert_eq!(b.self_atari_size(Color::White, p("B1")), None);
        // Codes: A1's NW is A2 (white), N is... check two known neighbourhoods.
        let code = b.pattern3(p("B1"));
        let cell = |k: u16| (code >> (2 * k)) & 3;
        assert_eq!(cell(0), 1, "NW of B1 is A2, white");
        assert_eq!(cell(1), 2, "N of B1 is B2, empty");
        assert_eq!(cell(3), 0, "W of B1 is A1, black");
        assert_eq!(cell(4), 1, "E of B1 is C1, white");
        assert_eq!(
            (cell(5), cell(6), cell(7)),
            (3, 3, 3),
            "below row 1 is off the board"
        );
    }
}
