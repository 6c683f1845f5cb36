//! The light-playout board: the same rules as [`Board`] (simple ko, no suicide for a
//! legal move, the same empty-point list) with cheaper group bookkeeping.
//!
//! A group keeps *pseudo-liberties*: every (stone, empty neighbour) pair counts once,
//! so a liberty touched by three stones of the group counts three times. Adding and
//! removing a stone then changes each neighbouring group by exactly one pair, with no
//! "is this liberty shared?" scan. A group is captured exactly when its pseudo-count
//! falls to 0. Beside the count a group keeps the sum and the sum of squares of its
//! pseudo-liberties' slot indices, so "is `p` the group's only liberty?" is exact:
//! all `n` pairs sit on `p` exactly when the sum is `n·p` and the sum of squares
//! `n·p²` (their variance about `p` is then 0). Legality is therefore decided exactly
//! as on [`Board`].
//!
//! The board keeps the empty points in the same order as [`Board`] does and links the
//! stones of a group in the same order (the same union by size), so the same random
//! numbers pick the same moves on both: `tests/light_board.rs` plays each game on
//! both and compares them move by move. Nothing here reads exact liberty counts; the
//! tactics and the heavy policy use [`Board`].
//!
//! The board is generic over its array length `CAP` (a power of two: every index is
//! masked with `CAP - 1`, so no access needs a bounds check) and its row stride
//! (`STRIDE`, or 0 for a stride read at run time): [`LightBoard9`], [`LightBoard13`]
//! and [`LightBoard19`] are compiled for one size each, [`LightBoardAny`] takes any
//! size from 2 to 25.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::{ByColor, Color};
use crate::point::{BoardSize, Point, SizeError};

mod invariants;
mod play;

/// A slot's content: the colours are `Color as u8`.
const EMPTY: u8 = 2;
/// A slot off the board.
const BORDER: u8 = 3;

/// Neighbour counts packed in a `u16`, as [`Board`] packs them: 4 bits each for the
/// black, white and empty orthogonal neighbours.
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

/// The root of empty and border slots: slot 0, always border, whose pseudo-liberty word
/// absorbs the branch-free updates aimed at "no group" and is never read as a group.
const NO_GROUP: u16 = 0;

/// No simple-ko point.
const NO_KO: u32 = u32::MAX;

/// A simple-ko point and the colour that may not play it, in one word.
#[inline(always)]
const fn ko_key(i: usize, c: Color) -> u32 {
    (i as u32) << 1 | c as u32
}

/// A group's pseudo-liberties packed in one word, so that a stone's update of a
/// neighbouring group is one addition: the count in the top 12 bits, the sum of their
/// slot indices in the next 21 and the sum of squares in the low 31. No field of a
/// real group overflows (at most 4·625 pairs, indices below 703), so the word's
/// arithmetic is each field's; slot 0's word absorbs updates meaning "no group".
type Libs = u64;

/// One pseudo-liberty on slot `i`, as [`Libs`] counts it.
#[inline(always)]
const fn lib_key(i: usize) -> Libs {
    1 << 52 | (i as u64) << 31 | (i * i) as u64
}

/// [`lib_key`] of every slot index below 1024, computed at compile time: one load on
/// the play path instead of a multiply.
const LIB_KEYS: [Libs; 1024] = {
    let mut keys = [0; 1024];
    let mut i = 0;
    while i < 1024 {
        keys[i] = lib_key(i);
        i += 1;
    }
    keys
};

/// [`lib_key`] by table.
#[inline(always)]
fn key_of(i: usize) -> Libs {
    LIB_KEYS[i & 1023]
}

/// The number of pseudo-liberties in a packed word.
#[inline(always)]
const fn lib_count(w: Libs) -> u64 {
    w >> 52
}

/// Whether every pseudo-liberty in `w` is on slot `i`: then it has at most 4 (the
/// stones next to `i`), the fields are `n`, `n·i` and `n·i²`, and no product below
/// overflows a field, so comparing words compares the three sums exactly.
#[inline(always)]
fn only_liberty_is(w: Libs, i: usize) -> bool {
    let n = lib_count(w);
    (n <= 4) & (w == n.wrapping_mul(key_of(i)))
}

/// A position for light playouts. Copying it is a memory copy of the slots in use.
///
/// Build it from a [`Board`] with [`LightBoard::from_board`] (or reload one with
/// [`LightBoard::load`]); play with [`LightBoard::play`] the moves
/// [`LightBoard::is_legal`] allows. `CAP` is the (power-of-two) array length, at least
/// the padded slots of the sizes it takes; `STRIDE` is the one size's row stride, or 0
/// for any size.
#[derive(Clone)]
pub struct LightBoard<const CAP: usize, const STRIDE: usize> {
    size: BoardSize,
    /// `Color as u8`, `EMPTY` or `BORDER` for every slot.
    cells: [u8; CAP],
    /// Neighbour counts by kind, packed as `ONE_EMPTY` describes.
    nbr: [u16; CAP],
    /// For a stone, its group's root; `NO_GROUP` elsewhere.
    root: [u16; CAP],
    /// For a stone, the next stone of its group (a circular list).
    next: [u16; CAP],
    /// At a root, the group's pseudo-liberties.
    libs: [Libs; CAP],
    /// At a root, the group's stone count.
    stones: [u16; CAP],
    /// The empty points, `empty[..n_empty]`, in [`Board`]'s order.
    empty: [u16; CAP],
    /// For an empty point, its index in `empty`.
    empty_pos: [u16; CAP],
    n_empty: u16,
    /// Stones of each colour (for scoring), indexed by `Color as usize`.
    bits: [Bitboard; 2],
    on_board: Bitboard,
    /// As [`ko_key`] packs it, or `NO_KO`.
    ko: u32,
}

/// The light board compiled for 9×9.
pub type LightBoard9 = LightBoard<128, 10>;
/// The light board compiled for 13×13.
pub type LightBoard13 = LightBoard<256, 14>;
/// The light board compiled for 19×19.
pub type LightBoard19 = LightBoard<512, 20>;
/// The light board for any size from 2 to 25 (the stride read at run time).
pub type LightBoardAny = LightBoard<1024, 0>;

impl<const CAP: usize, const STRIDE: usize> std::fmt::Debug for LightBoard<CAP, STRIDE> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "LightBoard {}x{}, {} empty",
            self.size, self.size, self.n_empty
        )
    }
}

impl<const CAP: usize, const STRIDE: usize> LightBoard<CAP, STRIDE> {
    /// `CAP - 1`: every index is masked with it (a no-op on valid slots).
    const MASK: usize = {
        assert!(CAP.is_power_of_two() && CAP <= 1 << 16);
        CAP - 1
    };

    /// Whether this type takes boards of `size`.
    pub fn fits(size: BoardSize) -> bool {
        size.slots() <= CAP && (STRIDE == 0 || STRIDE == size.stride())
    }

    /// An empty board; an error if this type does not take `size`.
    pub fn new(size: BoardSize) -> Result<Self, SizeError> {
        Self::from_board(&Board::new(size))
    }

    /// The position of `board` (stones, simple ko, the order of its empty points); an
    /// error if this type does not take its size.
    pub fn from_board(board: &Board) -> Result<Self, SizeError> {
        let mut b = LightBoard {
            size: board.size(),
            cells: [BORDER; CAP],
            nbr: [4 * ONE_EMPTY; CAP],
            root: [NO_GROUP; CAP],
            next: [0; CAP],
            libs: [0; CAP],
            stones: [0; CAP],
            empty: [0; CAP],
            empty_pos: [0; CAP],
            n_empty: 0,
            bits: [Bitboard::EMPTY; 2],
            on_board: Bitboard::EMPTY,
            ko: NO_KO,
        };
        b.load(board)?;
        Ok(b)
    }

    /// The row stride: a constant where the type fixes it.
    #[inline(always)]
    fn stride(&self) -> usize {
        if STRIDE == 0 {
            self.size.stride()
        } else {
            STRIDE
        }
    }

    /// Makes `self` the position of `board`, in time proportional to its slots; an
    /// error (and nothing changed) if this type does not take its size.
    pub fn load(&mut self, board: &Board) -> Result<(), SizeError> {
        let size = board.size();
        if !Self::fits(size) {
            return Err(SizeError(size.get() as u32));
        }
        let n = size.slots();
        let old = self.size.slots();
        if old > n {
            self.cells[n..old].fill(BORDER);
        }
        self.size = size;
        self.cells[..n].fill(BORDER);
        self.nbr[..n].fill(4 * ONE_EMPTY);
        self.root[..n].fill(NO_GROUP);
        self.libs[..n].fill(0);
        self.stones[..n].fill(0);
        for p in size.points() {
            let i = p.index();
            self.cells[i] = board.color_at(p).map_or(EMPTY, |c| c as u8);
            if let Some(r) = board.group(p) {
                self.root[i] = r.index() as u16;
                // The successor of `p` in its group's list, as `Board` links it.
                self.next[i] = board.group_stones(p).nth(1).unwrap_or(p).index() as u16;
            }
        }
        for p in size.points() {
            let i = p.index();
            let mut counts = 0;
            for q in size.neighbours(p) {
                counts += match self.cells[q.index()] {
                    EMPTY => ONE_EMPTY,
                    BORDER => 0,
                    c => 1 << (4 * c),
                };
            }
            self.nbr[i] = counts;
            let r = usize::from(self.root[i]);
            if r != 0 {
                self.stones[r] += 1;
                for q in size.neighbours(p) {
                    if self.cells[q.index()] == EMPTY {
                        self.libs[r] += lib_key(q.index());
                    }
                }
            }
        }
        self.n_empty = 0;
        for &p in board.empty_points() {
            self.push_empty(p.index());
        }
        self.bits = [*board.stones(Color::Black), *board.stones(Color::White)];
        self.on_board = *board.on_board();
        self.ko = board.ko().map_or(NO_KO, |(p, c)| ko_key(p.index(), c));
        Ok(())
    }

    /// Makes `self` a copy of `other`, copying only the slots its size uses.
    #[inline]
    pub fn copy_from(&mut self, other: &Self) {
        let n = other.size.slots();
        let old = self.size.slots();
        if old > n {
            self.cells[n..old].fill(BORDER);
        }
        self.size = other.size;
        self.cells[..n].copy_from_slice(&other.cells[..n]);
        self.nbr[..n].copy_from_slice(&other.nbr[..n]);
        self.root[..n].copy_from_slice(&other.root[..n]);
        self.next[..n].copy_from_slice(&other.next[..n]);
        self.libs[..n].copy_from_slice(&other.libs[..n]);
        self.stones[..n].copy_from_slice(&other.stones[..n]);
        self.empty_pos[..n].copy_from_slice(&other.empty_pos[..n]);
        let e = other.n_empty as usize;
        self.empty[..e].copy_from_slice(&other.empty[..e]);
        self.n_empty = other.n_empty;
        self.bits = other.bits;
        self.on_board = other.on_board;
        self.ko = other.ko;
    }

    /// The board's size.
    #[inline]
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The stone on a point, if any.
    #[inline]
    pub fn color_at(&self, p: Point) -> Option<Color> {
        match self.cells[p.index() & Self::MASK] {
            0 => Some(Color::Black),
            1 => Some(Color::White),
            _ => None,
        }
    }

    /// The stones of one colour.
    #[inline]
    pub fn stones(&self, c: Color) -> &Bitboard {
        &self.bits[c as usize]
    }

    /// The slots that are points of this board.
    #[inline]
    pub fn on_board(&self) -> &Bitboard {
        &self.on_board
    }

    /// The empty points, in [`Board`]'s order.
    pub fn empty_points(&self) -> impl Iterator<Item = Point> + '_ {
        self.empty[..usize::from(self.n_empty)]
            .iter()
            .map(|&i| Point::from_index(usize::from(i)))
    }

    /// The point `color` may not play next because of simple ko.
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

    /// Whether `c` may play on the empty point `p`: not the simple-ko point, and the
    /// stone has a liberty once its captures are made. Exact, as [`Board::check`].
    #[inline(always)]
    pub fn is_legal(&self, c: Color, p: Point) -> bool {
        let m = Self::MASK;
        let i = p.index() & m;
        if self.nbr[i] & EMPTY_FIELD != 0 {
            return true;
        }
        if self.ko == ko_key(i, c) {
            return false;
        }
        // Every neighbour is a stone or the edge: alive if an own group keeps another
        // liberty or an enemy group's only liberty is `p`. Edges are masked out.
        let own = c as u8;
        let s = self.stride();
        let mut alive = false;
        for j in [i - s, i - 1, i + 1, i + s] {
            let cell = self.cells[j & m];
            let only = only_liberty_is(self.libs[usize::from(self.root[j & m]) & m], i);
            alive |= (cell < EMPTY) & ((cell == own) != only);
        }
        alive
    }

    /// Whether a light playout may play the empty point `p` for `c`: legal and not
    /// `c`'s own eye, the same as `!is_eye(c, p) && is_legal(c, p)` with the common case
    /// (an empty neighbour) decided by one read.
    #[inline(always)]
    pub fn is_playable(&self, c: Color, p: Point) -> bool {
        let i = p.index() & Self::MASK;
        let v = self.nbr[i];
        if v & EMPTY_FIELD != 0 {
            return true;
        }
        if v & field(c.opponent()) == 0 && self.eye_diagonals_hold(c, i, v) {
            return false;
        }
        self.is_legal(c, p)
    }

    /// Whether playing the empty point `p` would only fill `c`'s own eye (the rule of
    /// [`Board::is_eye`]).
    #[inline(always)]
    pub fn is_eye(&self, c: Color, p: Point) -> bool {
        let i = p.index() & Self::MASK;
        let v = self.nbr[i];
        v & (EMPTY_FIELD | field(c.opponent())) == 0 && self.eye_diagonals_hold(c, i, v)
    }

    /// For a point `i` whose orthogonal neighbours (counted in `v`) are all `c`'s or
    /// the edge: whether the diagonals make it an eye (the opponent holds fewer than
    /// two, none on the edge).
    #[inline(always)]
    fn eye_diagonals_hold(&self, c: Color, i: usize, v: u16) -> bool {
        let m = Self::MASK;
        let edge = (v & field(c)) != 4 * one(c);
        let enemy = c.opponent() as u8;
        let s = self.stride();
        let mut bad = u32::from(edge);
        for d in [i - s - 1, i - s + 1, i + s - 1, i + s + 1] {
            bad += u32::from(self.cells[d & m] == enemy);
        }
        bad < 2
    }

    /// Picks an empty point uniformly among those `accept` takes, exactly as
    /// [`Board::pick_empty`] does (the same draws give the same point).
    #[inline(always)]
    pub fn pick_empty(
        &mut self,
        mut random_below: impl FnMut(usize) -> usize,
        mut accept: impl FnMut(&Self, Point) -> bool,
    ) -> Option<Point> {
        let m = Self::MASK;
        let mut k = usize::from(self.n_empty);
        while k > 0 {
            let at = random_below(k) & m;
            let p = self.empty[at];
            if accept(self, Point::from_index(usize::from(p))) {
                return Some(Point::from_index(usize::from(p)));
            }
            k -= 1;
            let q = self.empty[k & m];
            self.empty[at] = q;
            self.empty[k & m] = p;
            self.empty_pos[usize::from(q) & m] = at as u16;
            self.empty_pos[usize::from(p) & m] = k as u16;
        }
        None
    }

    /// The area of each colour, as `score_finished` counts a finished playout: its
    /// stones and the empty points next to its stones and none of the other's.
    pub fn areas(&self) -> ByColor<Bitboard> {
        let [black, white] = self.bits;
        let mut areas = ByColor { black, white };
        let m = Self::MASK;
        for &e in &self.empty[..usize::from(self.n_empty) & m] {
            let v = self.nbr[usize::from(e) & m];
            let p = Point::from_index(usize::from(e));
            let (b, w) = (v & field(Color::Black) != 0, v & field(Color::White) != 0);
            if b && !w {
                areas.black.insert(p);
            } else if w && !b {
                areas.white.insert(p);
            }
        }
        areas
    }

    /// A pass: clears the simple-ko point.
    #[inline]
    pub fn pass(&mut self) {
        self.ko = NO_KO;
    }

    #[inline(always)]
    fn push_empty(&mut self, i: usize) {
        let m = Self::MASK;
        self.empty_pos[i & m] = self.n_empty;
        self.empty[usize::from(self.n_empty) & m] = i as u16;
        self.n_empty += 1;
    }

    #[inline(always)]
    fn remove_empty(&mut self, i: usize) {
        let m = Self::MASK;
        let at = usize::from(self.empty_pos[i & m]) & m;
        self.n_empty -= 1;
        let last = self.empty[usize::from(self.n_empty) & m];
        self.empty[at] = last;
        self.empty_pos[usize::from(last) & m] = at as u16;
    }
}
