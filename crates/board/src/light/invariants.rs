//! [`LightBoard`]'s state recomputed from the stones, for tests.

use super::{BORDER, EMPTY, LightBoard, NO_GROUP};
use crate::board::Board;
use crate::point::Point;

impl<const CAP: usize, const STRIDE: usize> LightBoard<CAP, STRIDE> {
    /// Recomputes everything from the stones (groups by flood fill, pseudo-liberties,
    /// neighbour counts, the empty list, the bitboards) and reports the first
    /// difference from the incremental state. For tests.
    pub fn check_invariants(&self) -> Result<(), String> {
        let size = self.size;
        let mut fresh = Self::from_board(&Board::new(size)).map_err(|e| e.to_string())?;
        // Rebuild from the stones alone, through an exact board.
        let mut exact = Board::new(size);
        for p in size.points() {
            if let Some(c) = self.color_at(p) {
                exact.place_setup(c, p).map_err(|e| format!("{p:?}: {e}"))?;
            }
        }
        fresh.load(&exact).map_err(|e| e.to_string())?;
        for p in size.points() {
            let i = p.index();
            if self.cells[i] != fresh.cells[i] || self.nbr[i] != fresh.nbr[i] {
                return Err(format!("slot {i}: cell or neighbour counts differ"));
            }
            if self.cells[i] == EMPTY {
                let at = usize::from(self.empty_pos[i]);
                if at >= usize::from(self.n_empty) || usize::from(self.empty[at]) != i {
                    return Err(format!("slot {i}: not in the empty list"));
                }
                if self.root[i] != NO_GROUP {
                    return Err(format!("slot {i}: empty with a group"));
                }
                continue;
            }
            // Same partition into groups, and the same pseudo-liberties and size at each root.
            let (mine, theirs) = (usize::from(self.root[i]), usize::from(fresh.root[i]));
            if exact.group(Point::from_index(mine)) != exact.group(p) {
                return Err(format!("slot {i}: root outside its group"));
            }
            let (a, b) = (self.libs[mine], fresh.libs[theirs]);
            if a != b || self.stones[mine] != fresh.stones[theirs] {
                return Err(format!(
                    "slot {i}: pseudo-liberties {a:x}, recomputed {b:x}"
                ));
            }
            let mut walked = 0;
            let mut s = i;
            loop {
                if self.root[s] != self.root[i] || walked > size.area() {
                    return Err(format!("slot {i}: stone list leaves the group"));
                }
                walked += 1;
                s = usize::from(self.next[s]);
                if s == i {
                    break;
                }
            }
            if walked != exact.group_size(p) as usize {
                return Err(format!("slot {i}: stone list has {walked} stones"));
            }
        }
        if usize::from(self.n_empty) != exact.empty_points().len() {
            return Err("empty count wrong".into());
        }
        if self.bits != fresh.bits {
            return Err("bitboards differ".into());
        }
        if let Some(i) = (size.slots()..CAP).find(|&i| self.cells[i] != BORDER) {
            return Err(format!("slot {i} past the board is not border"));
        }
        Ok(())
    }
}
