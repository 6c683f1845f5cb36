//! The play path: a move's stone, its captures and merges, simple ko and suicide;
//! setup stones and dead-stone removal. The hot path (`play_unchecked`) is here alone.

use super::{
    Board, Cell, EMPTY_FIELD, IllegalMove, MoveInfo, NO_GROUP, NO_KO, ONE_EMPTY, distinct_groups,
    field, ko_key, one,
};
use crate::color::Color;
use crate::point::{Move, Point};
use crate::zobrist::stone_key;

impl Board {
    /// Plays a move after checking it (simple ko, no suicide).
    pub fn try_play(&mut self, c: Color, m: Move) -> Result<MoveInfo, IllegalMove> {
        if let Move::Play(p) = m {
            self.check(c, p)?;
        }
        Ok(self.play_unchecked(c, m))
    }

    /// Plays a move without checking it. The caller guarantees `p` is an empty point
    /// of this board and not the ko point for `c`. A move that leaves its own group
    /// without liberties removes that group (a suicide, where the rules allow it).
    #[inline(always)]
    pub fn play_unchecked(&mut self, c: Color, m: Move) -> MoveInfo {
        let Move::Play(p) = m else {
            self.ko = NO_KO;
            return MoveInfo::default();
        };
        debug_assert!(self.is_empty_point(p), "play on a non-empty point");
        debug_assert!(self.ko != ko_key(p, c), "ko recapture");
        let i = p.index();
        let nbrs = self.size.neighbours(p);
        let own = Cell::of(c);
        let enemy = Cell::of(c.opponent());

        self.cells[i] = own;
        self.bits[c].insert(p);
        self.hash ^= stone_key(c, p);
        self.remove_empty(p);
        let around = self.nbr[i];
        for n in nbrs {
            let j = n.index();
            self.nbr[j] = self.nbr[j] - ONE_EMPTY + one(c);
        }
        self.root[i] = i as u16;
        self.next[i] = i as u16;
        self.stones[i] = 1;
        self.libs[i] = (around & EMPTY_FIELD) / ONE_EMPTY;

        let mut captured = 0u16;
        let mut captured_at = p;
        if around & (field(Color::Black) | field(Color::White)) != 0 {
            // Every distinct neighbouring group loses the liberty `p`; the biggest
            // friendly one takes the new stone in. Done without branches (which
            // neighbours are stones is as random as the playout): a root is new if no
            // earlier neighbour has it, and a slot without a group reads `NO_GROUP`,
            // whose counts are only ever changed by 0.
            let r = nbrs.map(|n| self.root[n.index()]);
            let fresh = distinct_groups(r);
            let (mut keep, mut keep_size) = (NO_GROUP, 0);
            // Friendly groups met, and whether an enemy group lost its last liberty:
            // only then are captures and merges (below) needed.
            let mut friends = 0u32;
            let mut dead = false;
            for k in 0..4 {
                let g = r[k] as usize;
                self.libs[g] -= u16::from(fresh[k]);
                let mine = fresh[k] & (self.cells[nbrs[k].index()] == own);
                let size = self.stones[g];
                let bigger = mine & (size > keep_size);
                keep = if bigger { r[k] } else { keep };
                keep_size = if bigger { size } else { keep_size };
                friends += u32::from(mine);
                dead |= fresh[k] & !mine & (self.libs[g] == 0);
            }
            if keep != NO_GROUP {
                // The new stone's empty neighbours are new liberties of `keep` unless
                // a `keep` stone touches them (none does where `p` is their only
                // friendly neighbour).
                let mut added = 0;
                for n in nbrs {
                    let j = n.index();
                    if self.cells[j] == Cell::Empty {
                        let shared = self.nbr[j] & field(c) != one(c)
                            && self
                                .size
                                .neighbours(n)
                                .iter()
                                .any(|m| self.root[m.index()] == keep);
                        added += u16::from(!shared);
                    }
                }
                let kk = keep as usize;
                self.root[i] = keep;
                self.next[i] = self.next[kk];
                self.next[kk] = i as u16;
                self.stones[kk] += 1;
                self.libs[kk] += added;
            }
            if dead || friends > 1 {
                for n in nbrs {
                    let j = n.index();
                    let cell = self.cells[j];
                    if cell == enemy {
                        if self.libs[self.root[j] as usize] == 0 {
                            captured += self.remove_group(n);
                            captured_at = n;
                        }
                    } else if cell == own {
                        let (a, b) = (self.root[i], self.root[j]);
                        if a != b {
                            if self.stones[a as usize] >= self.stones[b as usize] {
                                self.merge(a, b);
                            } else {
                                self.merge(b, a);
                            }
                        }
                    }
                }
            }
        }
        self.prisoners[c] += u32::from(captured);

        let r = self.root[i] as usize;
        self.ko = NO_KO;
        let mut suicided = 0;
        if self.libs[r] == 0 {
            suicided = self.remove_group(p);
            self.prisoners[c.opponent()] += u32::from(suicided);
        } else if captured == 1 && self.stones[r] == 1 && self.libs[r] == 1 {
            self.ko = ko_key(captured_at, c.opponent());
        }
        MoveInfo { captured, suicided }
    }

    /// Puts a stone on an empty point outside the move sequence (setup, handicap):
    /// like a move, but it clears no ko and may neither capture nor be suicide. A stone
    /// that would leave any group (its own or a neighbouring enemy one) without a
    /// liberty is refused with [`IllegalMove::Suicide`] and nothing changes.
    pub fn place_setup(&mut self, c: Color, p: Point) -> Result<(), IllegalMove> {
        let ko = self.ko;
        match self.check(c, p) {
            Ok(()) | Err(IllegalMove::Ko) => {}
            Err(e) => return Err(e),
        }
        let enemy = Cell::of(c.opponent());
        let captures = self.size.neighbours(p).iter().any(|n| {
            self.cells[n.index()] == enemy && self.libs[self.root[n.index()] as usize] == 1
        });
        if captures {
            return Err(IllegalMove::Suicide);
        }
        let info = self.play_unchecked(c, Move::Play(p));
        self.ko = ko;
        debug_assert_eq!(info, MoveInfo::default());
        Ok(())
    }

    /// Removes every stone of a group, crediting nobody; returns how many were removed.
    /// For dead-stone removal before scoring.
    pub fn remove_dead_group(&mut self, p: Point) -> u32 {
        if self.root[p.index()] == NO_GROUP {
            return 0;
        }
        u32::from(self.remove_group(p))
    }
}
