//! The board's invariants recomputed from the stones, for tests.

use super::{Board, Cell, NO_GROUP, ONE_EMPTY, one};
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::point::{MAX_SLOTS, Point};
use crate::zobrist::{Hash, stone_key};

impl Board {
    /// Recomputes groups, liberties, lists, bitboards and the hash from the stones and
    /// reports the first difference from the incremental state. For tests.
    pub fn check_invariants(&self) -> Result<(), String> {
        let size = self.size;
        let mut hash = Hash::default();
        for i in 0..size.slots() {
            self.check_cell(i)?;
            match self.cells[i] {
                Cell::Empty => self.check_empty_slot(i)?,
                cell @ (Cell::Black | Cell::White) => {
                    let c = if cell == Cell::Black {
                        Color::Black
                    } else {
                        Color::White
                    };
                    hash ^= stone_key(c, Point::from_index(i));
                    self.check_group_at(i)?;
                }
                Cell::Border => {}
            }
        }
        self.check_neighbour_counts()?;
        if let Some(i) = (size.slots()..MAX_SLOTS).find(|&i| self.cells[i] != Cell::Border) {
            return Err(format!("slot {i} past the board is not border"));
        }
        if self.n_empty as usize != self.empties().count() as usize {
            return Err("empty count wrong".into());
        }
        if hash != self.hash {
            return Err("incremental hash differs from the recomputed one".into());
        }
        Ok(())
    }

    /// Slot `i` is border exactly when it lies off the board, and each colour's
    /// bitboard holds it exactly when a stone of that colour stands there.
    fn check_cell(&self, i: usize) -> Result<(), String> {
        let p = Point::from_index(i);
        let cell = self.cells[i];
        if self.size.contains_index(i) == (cell == Cell::Border) {
            return Err(format!("slot {i}: border mismatch"));
        }
        for c in Color::ALL {
            if self.bits[c].contains(p) != (cell == Cell::of(c)) {
                return Err(format!("slot {i}: bitboard of {c} disagrees"));
            }
        }
        Ok(())
    }

    /// The empty slot `i` is in the empty list, at its recorded place, and in no group.
    fn check_empty_slot(&self, i: usize) -> Result<(), String> {
        let at = self.empty_pos[i] as usize;
        if at >= self.n_empty as usize || self.empty[at] != Point::from_index(i) {
            return Err(format!("slot {i}: not in the empty list"));
        }
        if self.root[i] != NO_GROUP {
            return Err(format!("slot {i}: empty with a group"));
        }
        Ok(())
    }

    /// The group of the stone on slot `i`, flood filled from scratch, has one root
    /// inside it, and its kept liberties, size and stone list match the fill.
    fn check_group_at(&self, i: usize) -> Result<(), String> {
        let p = Point::from_index(i);
        let (group, libs) = self.flood_fill(p);
        let r = self.root[i] as usize;
        if group.iter().any(|q| self.root[q.index()] as usize != r) {
            return Err(format!("slot {i}: group has several roots"));
        }
        if !group.contains(Point::from_index(r)) {
            return Err(format!("slot {i}: root outside the group"));
        }
        if u32::from(self.libs[r]) != libs.count() {
            return Err(format!(
                "slot {i}: {} liberties kept, {} counted",
                self.libs[r],
                libs.count()
            ));
        }
        if u32::from(self.stones[r]) != group.count() {
            return Err(format!("slot {i}: group size wrong"));
        }
        let listed: Bitboard = self.group_stones(p).collect();
        if listed != group || self.group_stones(p).count() != group.count() as usize {
            return Err(format!("slot {i}: stone list wrong"));
        }
        Ok(())
    }

    /// The stones connected to the stone on `p`, and their liberties, found from the
    /// cells alone.
    fn flood_fill(&self, p: Point) -> (Bitboard, Bitboard) {
        let cell = self.cells[p.index()];
        let mut group = Bitboard::EMPTY;
        let mut stack = vec![p];
        group.insert(p);
        let mut libs = Bitboard::EMPTY;
        while let Some(q) = stack.pop() {
            for n in self.size.neighbours(q) {
                if self.cells[n.index()] == cell && !group.contains(n) {
                    group.insert(n);
                    stack.push(n);
                } else if self.cells[n.index()] == Cell::Empty {
                    libs.insert(n);
                }
            }
        }
        (group, libs)
    }

    /// Each point's packed neighbour counts match its neighbours' cells.
    fn check_neighbour_counts(&self) -> Result<(), String> {
        for p in self.size.points() {
            let mut want = 0;
            for n in self.size.neighbours(p) {
                want += match self.cells[n.index()] {
                    Cell::Black => one(Color::Black),
                    Cell::White => one(Color::White),
                    Cell::Empty => ONE_EMPTY,
                    Cell::Border => 0,
                };
            }
            if self.nbr[p.index()] != want {
                return Err(format!("slot {}: neighbour counts wrong", p.index()));
            }
        }
        Ok(())
    }
}
