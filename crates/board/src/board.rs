//! The fast board: stones, groups, liberties, simple ko and the Zobrist hash.
//!
//! Groups are kept by quick-find union-find: every stone stores its group's root, so
//! finding a group is one read; a merge relabels the smaller group along its circular
//! stone list. Liberty counts are exact and kept incrementally (the Leela Zero scheme:
//! a liberty is counted once per group however many of its stones touch it).
//! Stones are also kept as one [`Bitboard`] per colour for set operations (scoring,
//! ownership), and every slot keeps its neighbours' colours counted in one word, so the
//! playout questions (an empty neighbour? an own eye?) cost one read. No field is on
//! the heap: copying a board is a memory copy.
//!
//! This file holds the type and its queries (legality, eyes, groups, the empty list);
//! `play.rs` the play path (a move, its captures and merges, ko, setup stones),
//! `groups.rs` the group bookkeeping it calls (merge, removal, the empty list),
//! `tactics.rs` the local questions policies ask, `invariants.rs` the recomputation
//! tests check against. [`crate::LightBoard`] is the light playouts' leaner copy.

use std::fmt;

use crate::bitboard::Bitboard;
use crate::color::{ByColor, Color};
use crate::point::{BoardSize, MAX_SLOTS, Move, Point};
use crate::zobrist::{Hash, stone_key};

mod groups;
mod invariants;
mod play;
mod tactics;
#[cfg(test)]
mod tests;

/// What occupies a slot of the padded array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Cell {
    Black = 0,
    White = 1,
    Empty = 2,
    Border = 3,
}

impl Cell {
    #[inline]
    const fn of(c: Color) -> Cell {
        match c {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }
}

/// Why a move may not be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The point is not on this board.
    OffBoard,
    /// A stone is already there.
    Occupied,
    /// The stone would have no liberty and capture nothing.
    Suicide,
    /// It retakes a ko at once.
    Ko,
    /// It repeats an earlier whole-board position (checked by [`crate::Game`]).
    Superko,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::OffBoard => "point is off the board",
            IllegalMove::Occupied => "point is occupied",
            IllegalMove::Suicide => "suicide",
            IllegalMove::Ko => "ko recapture",
            IllegalMove::Superko => "repeats an earlier position (superko)",
        })
    }
}

impl std::error::Error for IllegalMove {}

/// What a played move changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveInfo {
    /// Opponent stones removed.
    pub captured: u16,
    /// Own stones removed by a suicide (only where the rules allow it).
    pub suicided: u16,
}

/// Marks "no group" in `root` for empty and border slots; slot 0 is always border.
const NO_GROUP: u16 = 0;

/// Neighbour counts of a slot, packed in a `u16`: 4 bits each for the black, white and
/// empty orthogonal neighbours (borders are the rest of 4).
const ONE_EMPTY: u16 = 1 << 8;
/// The empty-neighbour field of a packed count.
const EMPTY_FIELD: u16 = 0xF << 8;

/// One neighbour of colour `c` in a packed count.
#[inline(always)]
const fn one(c: Color) -> u16 {
    1 << (4 * c as u16)
}

/// The field of colour `c` in a packed count.
#[inline(always)]
const fn field(c: Color) -> u16 {
    0xF << (4 * c as u16)
}

/// For the roots of a point's four neighbours: which are groups met for the first
/// time in that order (`NO_GROUP` never is), computed without branches.
#[inline(always)]
fn distinct_groups(r: [u16; 4]) -> [bool; 4] {
    [
        r[0] != NO_GROUP,
        (r[1] != NO_GROUP) & (r[1] != r[0]),
        (r[2] != NO_GROUP) & (r[2] != r[0]) & (r[2] != r[1]),
        (r[3] != NO_GROUP) & (r[3] != r[0]) & (r[3] != r[1]) & (r[3] != r[2]),
    ]
}

/// No simple-ko point (see [`Board::ko`]).
const NO_KO: u32 = u32::MAX;

/// A simple-ko point and the colour that may not play it, packed in one word.
#[inline(always)]
const fn ko_key(p: Point, c: Color) -> u32 {
    (p.index() as u32) << 1 | c as u32
}

/// A Go position with simple ko: the fast board playouts copy and play on.
///
/// It does not know whose turn it is (either colour may play next, as GTP allows)
/// and does not check superko: that is [`crate::Game`]'s job.
#[derive(Clone)]
pub struct Board {
    size: BoardSize,
    /// Contents of every slot.
    cells: [Cell; MAX_SLOTS],
    /// For a stone, its group's root; `NO_GROUP` elsewhere.
    root: [u16; MAX_SLOTS],
    /// For a stone, the next stone of its group (a circular list).
    next: [u16; MAX_SLOTS],
    /// At a root: the group's exact number of liberties.
    libs: [u16; MAX_SLOTS],
    /// At a root: the group's number of stones.
    stones: [u16; MAX_SLOTS],
    /// For every slot, its neighbours by kind (packed as `ONE_EMPTY` describes): the hot
    /// questions (an empty neighbour? an own eye?) read one word.
    nbr: [u16; MAX_SLOTS],
    /// The empty points, in no particular order, `empty[..n_empty]`.
    empty: [Point; MAX_SLOTS],
    /// For an empty point, its index in `empty`.
    empty_pos: [u16; MAX_SLOTS],
    n_empty: u16,
    /// Stones of each colour.
    bits: ByColor<Bitboard>,
    /// The slots that are points of this board.
    on_board: Bitboard,
    /// The point a colour may not play next (simple ko), as [`ko_key`] packs it, or
    /// `NO_KO`: one compare on the hot path.
    ko: u32,
    hash: Hash,
    /// Stones captured by each colour (prisoners), suicides counted for the opponent.
    prisoners: ByColor<u32>,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Board {}x{} hash {:016x}",
            self.size, self.size, self.hash.0
        )?;
        f.write_str(&crate::diagram::to_diagram(self))
    }
}

impl PartialEq for Board {
    /// Same size, stones, ko and prisoners (the internal order of lists aside).
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size
            && self.bits == other.bits
            && self.ko == other.ko
            && self.prisoners == other.prisoners
    }
}

impl Eq for Board {}

impl Board {
    /// An empty board.
    pub fn new(size: BoardSize) -> Board {
        let mut b = Board {
            size,
            cells: [Cell::Border; MAX_SLOTS],
            root: [NO_GROUP; MAX_SLOTS],
            next: [0; MAX_SLOTS],
            libs: [0; MAX_SLOTS],
            stones: [0; MAX_SLOTS],
            // Border slots count four empty neighbours, so that stones placed next to
            // them never make a field underflow (their counts are never read).
            nbr: [4 * ONE_EMPTY; MAX_SLOTS],
            empty: [Point::from_index(0); MAX_SLOTS],
            empty_pos: [0; MAX_SLOTS],
            n_empty: 0,
            bits: ByColor::default(),
            on_board: Bitboard::EMPTY,
            ko: NO_KO,
            hash: Hash::default(),
            prisoners: ByColor::default(),
        };
        for p in size.points() {
            b.cells[p.index()] = Cell::Empty;
            b.on_board.insert(p);
            b.push_empty(p);
        }
        for p in size.points() {
            let empty = size
                .neighbours(p)
                .iter()
                .filter(|n| b.cells[n.index()] == Cell::Empty)
                .count() as u16;
            b.nbr[p.index()] = empty * ONE_EMPTY;
        }
        b
    }

    /// Makes `self` a copy of `other`, copying only the slots its size uses.
    /// Cheaper than `clone` for small boards; the playout loop uses it.
    #[inline]
    pub fn copy_from(&mut self, other: &Board) {
        let n = other.size.slots();
        let old = self.size.slots();
        if old > n {
            // Slots past a board's size stay border (`check` relies on it).
            self.cells[n..old].fill(Cell::Border);
        }
        self.size = other.size;
        self.cells[..n].copy_from_slice(&other.cells[..n]);
        self.root[..n].copy_from_slice(&other.root[..n]);
        self.next[..n].copy_from_slice(&other.next[..n]);
        self.libs[..n].copy_from_slice(&other.libs[..n]);
        self.stones[..n].copy_from_slice(&other.stones[..n]);
        self.nbr[..n].copy_from_slice(&other.nbr[..n]);
        self.empty_pos[..n].copy_from_slice(&other.empty_pos[..n]);
        let e = other.n_empty as usize;
        self.empty[..e].copy_from_slice(&other.empty[..e]);
        self.n_empty = other.n_empty;
        self.bits = other.bits;
        self.on_board = other.on_board;
        self.ko = other.ko;
        self.hash = other.hash;
        self.prisoners = other.prisoners;
    }

    /// The board's size.
    #[inline]
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The stone on a point, if any. Border slots read as empty.
    #[inline]
    pub fn color_at(&self, p: Point) -> Option<Color> {
        match self.cells[p.index()] {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            Cell::Empty | Cell::Border => None,
        }
    }

    /// Whether the slot is an empty point of the board.
    #[inline]
    pub fn is_empty_point(&self, p: Point) -> bool {
        self.cells[p.index()] == Cell::Empty
    }

    /// Whether the slot is off the board (the padding).
    #[inline]
    pub fn is_border(&self, p: Point) -> bool {
        self.cells[p.index()] == Cell::Border
    }

    /// The Zobrist hash of the stones (the positional-superko key).
    #[inline]
    pub fn hash(&self) -> Hash {
        self.hash
    }

    /// The point `color` may not play next because of simple ko.
    #[inline]
    pub fn ko(&self) -> Option<(Point, Color)> {
        (self.ko != NO_KO).then(|| {
            let c = if self.ko & 1 == 0 {
                Color::Black
            } else {
                Color::White
            };
            (Point::from_index((self.ko >> 1) as usize), c)
        })
    }

    /// Stones each colour has captured.
    #[inline]
    pub fn prisoners(&self) -> ByColor<u32> {
        self.prisoners
    }

    /// The stones of one colour.
    #[inline]
    pub fn stones(&self, c: Color) -> &Bitboard {
        &self.bits[c]
    }

    /// The slots that are points of this board.
    #[inline]
    pub fn on_board(&self) -> &Bitboard {
        &self.on_board
    }

    /// The empty points as a set.
    pub fn empties(&self) -> Bitboard {
        self.on_board
            .and_not(&self.bits.black)
            .and_not(&self.bits.white)
    }

    /// The empty points, in an unspecified order.
    #[inline]
    pub fn empty_points(&self) -> &[Point] {
        &self.empty[..self.n_empty as usize]
    }

    /// The root stone of the group on `p` (`None` if `p` is empty).
    #[inline]
    pub fn group(&self, p: Point) -> Option<Point> {
        let r = self.root[p.index()];
        (r != NO_GROUP).then(|| Point::from_index(r as usize))
    }

    /// Exact number of liberties of the group on `p` (0 if `p` is empty).
    #[inline]
    pub fn liberties(&self, p: Point) -> u32 {
        match self.root[p.index()] {
            NO_GROUP => 0,
            r => u32::from(self.libs[r as usize]),
        }
    }

    /// Number of stones of the group on `p` (0 if `p` is empty).
    #[inline]
    pub fn group_size(&self, p: Point) -> u32 {
        match self.root[p.index()] {
            NO_GROUP => 0,
            r => u32::from(self.stones[r as usize]),
        }
    }

    /// The stones of the group on `p`, starting with `p` (nothing if `p` is empty).
    pub fn group_stones(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        let start = p.index();
        let mut cur = (self.root[start] != NO_GROUP).then_some(start);
        std::iter::from_fn(move || {
            let here = cur?;
            let n = self.next[here] as usize;
            cur = (n != start).then_some(n);
            Some(Point::from_index(here))
        })
    }

    /// The liberties of the group on `p` as a set (empty if `p` is empty).
    pub fn liberty_set(&self, p: Point) -> Bitboard {
        let mut libs = Bitboard::EMPTY;
        for s in self.group_stones(p) {
            for n in self.size.neighbours(s) {
                if self.cells[n.index()] == Cell::Empty {
                    libs.insert(n);
                }
            }
        }
        libs
    }

    /// The only liberty of a group in atari; `None` otherwise.
    pub fn atari_liberty(&self, p: Point) -> Option<Point> {
        if self.liberties(p) != 1 {
            return None;
        }
        self.group_stones(p).find_map(|s| {
            self.size
                .neighbours(s)
                .into_iter()
                .find(|n| self.cells[n.index()] == Cell::Empty)
        })
    }

    /// Whether `c` may play `m` under the simple-ko rules of this board, suicide forbidden.
    #[inline]
    pub fn is_legal(&self, c: Color, m: Move) -> bool {
        match m {
            Move::Pass => true,
            Move::Play(p) => self.check(c, p).is_ok(),
        }
    }

    /// Why `c` may not play on `p` (occupied, simple ko, suicide), or `Ok`.
    /// `p` may be any slot; a border slot or a slot past this size is `OffBoard`.
    #[inline]
    pub fn check(&self, c: Color, p: Point) -> Result<(), IllegalMove> {
        // Slots past this size are border (see `copy_from`); past `MAX_SLOTS`, `None`.
        match self.cells.get(p.index()) {
            Some(Cell::Empty) => {}
            Some(Cell::Black | Cell::White) => return Err(IllegalMove::Occupied),
            Some(Cell::Border) | None => return Err(IllegalMove::OffBoard),
        }
        if self.ko == ko_key(p, c) {
            return Err(IllegalMove::Ko);
        }
        if self.has_liberty_after(c, p) {
            Ok(())
        } else {
            Err(IllegalMove::Suicide)
        }
    }

    /// Whether a stone of `c` on the empty point `p` would have a liberty once its
    /// captures are made: an empty neighbour, a friendly group with another liberty,
    /// or an enemy group in atari.
    #[inline]
    fn has_liberty_after(&self, c: Color, p: Point) -> bool {
        if self.nbr[p.index()] & EMPTY_FIELD != 0 {
            return true;
        }
        // Every neighbour is a stone or the edge here; no branch per neighbour (an
        // edge slot reads `NO_GROUP`, and its count is masked out).
        let own = Cell::of(c);
        let mut alive = false;
        for n in self.size.neighbours(p) {
            let cell = self.cells[n.index()];
            let libs = self.libs[self.root[n.index()] as usize];
            alive |= ((cell as u8) < 2) & ((cell == own) == (libs > 1));
        }
        alive
    }

    /// Whether `p` is an empty point that `c` would only fill its own eye by playing:
    /// all orthogonal neighbours are `c` (or the edge), and the opponent holds fewer
    /// than two diagonals (none on the edge). Light playouts never play there.
    #[inline]
    pub fn is_eye(&self, c: Color, p: Point) -> bool {
        let v = self.nbr[p.index()];
        if v & (EMPTY_FIELD | field(c.opponent())) != 0 || self.cells[p.index()] != Cell::Empty {
            return false;
        }
        // Every orthogonal neighbour is own or border; fewer than 4 own: on the edge.
        let edge = (v & field(c)) != 4 * one(c);
        let enemy = Cell::of(c.opponent());
        let mut bad = u32::from(edge);
        for d in self.size.diagonals(p) {
            bad += u32::from(self.cells[d.index()] == enemy);
        }
        bad < 2
    }

    /// The hash after `c` plays the legal move `m`, without playing it.
    pub fn hash_after(&self, c: Color, m: Move) -> Hash {
        let Move::Play(p) = m else {
            return self.hash;
        };
        let mut h = self.hash ^ stone_key(c, p);
        let mut seen = [NO_GROUP; 4];
        let mut captures = false;
        let mut alive = false;
        for (k, n) in self.size.neighbours(p).into_iter().enumerate() {
            let r = self.root[n.index()];
            let cell = self.cells[n.index()];
            if cell == Cell::Empty {
                alive = true;
            }
            if r == NO_GROUP || seen[..k].contains(&r) {
                seen[k] = r;
                continue;
            }
            seen[k] = r;
            if cell == Cell::of(c) {
                alive |= self.libs[r as usize] > 1;
            } else if self.libs[r as usize] == 1 {
                captures = true;
                for s in self.group_stones(n) {
                    h ^= stone_key(c.opponent(), s);
                }
            }
        }
        if !captures && !alive {
            // A suicide: the stone and its friendly neighbours leave the board.
            h ^= stone_key(c, p);
            let mut done = [NO_GROUP; 4];
            for (k, n) in self.size.neighbours(p).into_iter().enumerate() {
                let r = self.root[n.index()];
                if r != NO_GROUP && self.cells[n.index()] == Cell::of(c) && !done.contains(&r) {
                    done[k] = r;
                    for s in self.group_stones(n) {
                        h ^= stone_key(c, s);
                    }
                }
            }
        }
        h
    }

    /// Picks an empty point uniformly among those `accept` takes, or `None` if it takes
    /// none. Each rejected point is swapped out of the candidate range, so every point is
    /// tried at most once; the order of the empty list changes, nothing else does.
    /// `random_below(k)` must return a number in `0..k`.
    #[inline]
    pub fn pick_empty(
        &mut self,
        mut random_below: impl FnMut(usize) -> usize,
        mut accept: impl FnMut(&Board, Point) -> bool,
    ) -> Option<Point> {
        let mut k = self.n_empty as usize;
        while k > 0 {
            let i = random_below(k);
            let p = self.empty[i];
            if accept(self, p) {
                return Some(p);
            }
            k -= 1;
            let q = self.empty[k];
            self.empty[i] = q;
            self.empty[k] = p;
            self.empty_pos[q.index()] = i as u16;
            self.empty_pos[p.index()] = k as u16;
        }
        None
    }
}
