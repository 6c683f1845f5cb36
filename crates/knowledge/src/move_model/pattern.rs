//! Large spatial patterns: nested neighbourhoods of a candidate move, each named by a
//! hash that is the same under the 8 rotations and reflections of the board and,
//! because cells are seen from the mover (mine, theirs), under a colour swap.
//!
//! The neighbourhoods are the points at distance `dx + dy + max(dx, dy)` at most
//! 3 (the 3×3 square, 8 points), 4, 5, 6, 7, 8 and 9 (60 points): [`PATTERN_SIZES`].

use tengen_board::{Board, Color, Point};

/// The largest distance of each nested neighbourhood, smallest first.
pub const PATTERN_SIZES: [u32; 7] = [3, 4, 5, 6, 7, 8, 9];

/// How many neighbourhoods there are.
pub const PATTERNS: usize = PATTERN_SIZES.len();

/// Points in the largest neighbourhood.
const MAX_POINTS: usize = 60;

/// Cell values, from the mover's side.
const EMPTY: usize = 0;
const MINE: usize = 1;
const THEIRS: usize = 2;
const EDGE: usize = 3;

/// The neighbourhood's geometry and the random keys of its hash.
#[derive(Clone)]
pub struct PatternHasher {
    /// Offsets `(dx, dy)` by growing distance (ties in a fixed order).
    offsets: [(i32, i32); MAX_POINTS],
    /// How many offsets each neighbourhood has.
    ends: [usize; PATTERNS],
    /// `flips[i][v][s]`: what a cell `i` of value `v` instead of empty changes in the
    /// hash under symmetry `s` (`keys[j][v] ^ keys[j][EMPTY]` for the `j` that `s`
    /// reads from cell `i`, see [`Definition`]); the 8 symmetries side by side, so a
    /// cell updates all 8 hashes from one cache line, so that a hash costs only the cells that are not empty.
    flips: Box<[[[u64; 8]; 4]; MAX_POINTS]>,
    /// The hash of each neighbourhood with every cell empty (its size key included).
    open: [u64; PATTERNS],
}

/// What the hashes are by definition: under symmetry `s`, the hash of a neighbourhood
/// of `end` offsets is `size_keys[k]` XOR `keys[j][cell(perm[s][j])]` over `j < end`,
/// and a pattern's hash is the least over the 8 symmetries.
struct Definition {
    /// `perm[s][j]`: the offset index that symmetry `s` sends offset `j` to.
    perm: [[u8; MAX_POINTS]; 8],
    /// A key per offset and cell value.
    keys: [[u64; 4]; MAX_POINTS],
    /// A key per neighbourhood, so that sizes never share a hash.
    size_keys: [u64; PATTERNS],
}

impl Definition {
    /// The symmetries of `offsets` and the fixed keys.
    fn new(offsets: &[(i32, i32); MAX_POINTS]) -> Definition {
        let perm = std::array::from_fn(|s| {
            std::array::from_fn(|j| {
                let t = transform(s, offsets[j]);
                offsets.iter().position(|&o| o == t).expect("symmetric set") as u8
            })
        });
        let mut state = 0x7E46_E11D_5EED_0001;
        let keys = std::array::from_fn(|_| std::array::from_fn(|_| split_mix(&mut state)));
        let size_keys = std::array::from_fn(|_| split_mix(&mut state));
        Definition {
            perm,
            keys,
            size_keys,
        }
    }
}

impl std::fmt::Debug for PatternHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PatternHasher({MAX_POINTS} points)")
    }
}

impl Default for PatternHasher {
    fn default() -> PatternHasher {
        PatternHasher::new()
    }
}

/// Coulom's distance of an offset.
fn distance(dx: i32, dy: i32) -> u32 {
    let (x, y) = (dx.unsigned_abs(), dy.unsigned_abs());
    x + y + x.max(y)
}

/// The 8 symmetries of an offset.
fn transform(s: usize, (x, y): (i32, i32)) -> (i32, i32) {
    let (x, y) = if s & 4 != 0 { (y, x) } else { (x, y) };
    let x = if s & 1 != 0 { -x } else { x };
    let y = if s & 2 != 0 { -y } else { y };
    (x, y)
}

/// SplitMix64: fixed keys from a fixed seed, the same in every build.
fn split_mix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The cell at `(x, y)` as a move by `c` sees it: [`EDGE`] off the board, else
/// [`EMPTY`], [`MINE`] or [`THEIRS`].
#[inline]
fn cell_at(board: &Board, c: Color, x: i32, y: i32) -> usize {
    let size = board.size();
    let n = size.get() as i32;
    if x < 0 || y < 0 || x >= n || y >= n {
        return EDGE;
    }
    match size
        .point(x as usize, y as usize)
        .and_then(|q| board.color_at(q))
    {
        None => EMPTY,
        Some(s) if s == c => MINE,
        Some(_) => THEIRS,
    }
}

impl PatternHasher {
    /// The hasher (its keys are fixed: hashes are stable across runs and builds).
    pub fn new() -> PatternHasher {
        let max = PATTERN_SIZES[PATTERNS - 1] as i32;
        let mut all: Vec<(i32, i32)> = (-max..=max)
            .flat_map(|dx| (-max..=max).map(move |dy| (dx, dy)))
            .filter(|&(dx, dy)| (dx, dy) != (0, 0) && distance(dx, dy) <= max as u32)
            .collect();
        all.sort_by_key(|&(dx, dy)| (distance(dx, dy), dx, dy));
        assert_eq!(all.len(), MAX_POINTS, "the neighbourhood's size");
        let offsets: [(i32, i32); MAX_POINTS] = std::array::from_fn(|j| all[j]);
        let ends = PATTERN_SIZES.map(|d| all.iter().filter(|&&(x, y)| distance(x, y) <= d).count());
        let Definition {
            perm,
            keys,
            size_keys,
        } = Definition::new(&offsets);
        let mut flips = Box::new([[[0u64; 8]; 4]; MAX_POINTS]);
        for (s, perm) in perm.iter().enumerate() {
            for (j, &i) in perm.iter().enumerate() {
                for v in 0..4 {
                    flips[i as usize][v][s] = keys[j][v] ^ keys[j][EMPTY];
                }
            }
        }
        let open = std::array::from_fn(|k| {
            keys[..ends[k]]
                .iter()
                .fold(size_keys[k], |h, key| h ^ key[EMPTY])
        });
        PatternHasher {
            offsets,
            ends,
            flips,
            open,
        }
    }

    /// The hashes of the neighbourhoods of a move by `c` at `p`, smallest first.
    pub fn hashes(&self, board: &Board, c: Color, p: Point) -> [u64; PATTERNS] {
        let size = board.size();
        let (x, y) = size.coords(p);
        let (x, y) = (x as i32, y as i32);
        let (n, stride) = (size.get() as i32, size.stride() as i32);
        // Far enough from every edge, every cell is a point, read by its slot.
        let reach = PATTERN_SIZES[PATTERNS - 1] as i32 / 2;
        let inside = x >= reach && y >= reach && x + reach < n && y + reach < n;
        // The cells that are not empty, in offset order, and where each neighbourhood's
        // end falls among them.
        let mut set = [(0u8, 0u8); MAX_POINTS];
        let mut len = 0;
        let mut ends = [0; PATTERNS];
        let mut k = 0;
        for (j, &(dx, dy)) in self.offsets.iter().enumerate() {
            while k < PATTERNS && j == self.ends[k] {
                ends[k] = len;
                k += 1;
            }
            let cell = if inside {
                let q = Point::from_index((p.index() as i32 + dy * stride + dx) as usize);
                match board.color_at(q) {
                    None => EMPTY,
                    Some(s) if s == c => MINE,
                    Some(_) => THEIRS,
                }
            } else {
                cell_at(board, c, x + dx, y + dy)
            };
            if cell == EMPTY {
                continue;
            }
            set[len] = (j as u8, cell as u8);
            len += 1;
        }
        while k < PATTERNS {
            ends[k] = len;
            k += 1;
        }
        let mut best = [0; PATTERNS];
        let mut h = [0u64; 8];
        let mut i = 0;
        for (k, &end) in ends.iter().enumerate() {
            while i < end {
                let (j, v) = set[i];
                let flip = &self.flips[j as usize][v as usize];
                for (h, f) in h.iter_mut().zip(flip) {
                    *h ^= f;
                }
                i += 1;
            }
            best[k] = h
                .iter()
                .map(|h| h ^ self.open[k])
                .min()
                .expect("8 symmetries");
        }
        best
    }

    /// [`PatternHasher::hashes`] cell by cell, every cell read under every symmetry:
    /// [`PatternHasher::hashes`] as [`Definition`] says, every cell read under every
    /// symmetry: what the fast path must equal.
    #[cfg(test)]
    fn hashes_by_definition(&self, board: &Board, c: Color, p: Point) -> [u64; PATTERNS] {
        let d = Definition::new(&self.offsets);
        let (x, y) = board.size().coords(p);
        let (x, y) = (x as i32, y as i32);
        let mut cells = [EMPTY; MAX_POINTS];
        for (cell, &(dx, dy)) in cells.iter_mut().zip(&self.offsets) {
            *cell = cell_at(board, c, x + dx, y + dy);
        }
        let mut best = [u64::MAX; PATTERNS];
        for perm in &d.perm {
            let mut h = 0u64;
            let mut j = 0;
            for (k, &end) in self.ends.iter().enumerate() {
                while j < end {
                    h ^= d.keys[j][cells[perm[j] as usize]];
                    j += 1;
                }
                best[k] = best[k].min(h ^ d.size_keys[k]);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_board::{BoardSize, Move};

    #[test]
    fn fast_hashes_equal_the_definition() {
        // Every size: on 9×9 only the centre is far enough from the edges to be read
        // by slot, on 19×19 the middle 11×11.
        for n in [19, 13, 9] {
            compare_hashes_with_the_definition(BoardSize::new(n).unwrap());
        }
    }

    fn compare_hashes_with_the_definition(size: BoardSize) {
        let h = PatternHasher::new();
        let mut board = Board::new(size);
        let mut state = 7u64;
        for i in 0..size.area() / 3 {
            let open = board.empty_points();
            let p = open[(split_mix(&mut state) % open.len() as u64) as usize];
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let _ = board.try_play(c, Move::Play(p));
            if i % 10 == 0 {
                for &q in board.empty_points() {
                    for c in Color::ALL {
                        assert_eq!(h.hashes(&board, c, q), h.hashes_by_definition(&board, c, q));
                    }
                }
            }
        }
    }

    #[test]
    fn neighbourhoods_nest_as_documented() {
        let h = PatternHasher::new();
        assert_eq!(h.ends, [8, 12, 20, 28, 36, 48, 60]);
        // Every symmetry is a permutation of each neighbourhood.
        for perm in &Definition::new(&h.offsets).perm {
            for &end in &h.ends {
                let mut seen: Vec<u8> = perm[..end].to_vec();
                seen.sort_unstable();
                assert_eq!(seen, (0..end as u8).collect::<Vec<_>>());
            }
        }
    }

    /// The board turned by symmetry `s` (about the centre), colours swapped if `swap`.
    fn turned(board: &Board, s: usize, swap: bool) -> Board {
        let size = board.size();
        let n = size.get() as i32;
        let half = (n - 1) / 2;
        let mut out = Board::new(size);
        for p in size.points() {
            if let Some(c) = board.color_at(p) {
                let (x, y) = size.coords(p);
                let (tx, ty) = transform(s, (x as i32 - half, y as i32 - half));
                let q = size
                    .point((tx + half) as usize, (ty + half) as usize)
                    .unwrap();
                out.place_setup(if swap { c.opponent() } else { c }, q)
                    .unwrap();
            }
        }
        out
    }

    #[test]
    fn hashes_ignore_symmetry_and_colour_but_not_the_shape() {
        let size = BoardSize::new(19).unwrap();
        let mut board = Board::new(size);
        for (c, v) in [
            (Color::Black, "D4"),
            (Color::White, "C6"),
            (Color::Black, "F3"),
            (Color::White, "E5"),
            (Color::Black, "Q16"),
        ] {
            board
                .try_play(c, Move::Play(size.parse_point(v).unwrap()))
                .unwrap();
        }
        let h = PatternHasher::new();
        let p = size.parse_point("D6").unwrap();
        let base = h.hashes(&board, Color::Black, p);
        for s in 0..8 {
            for swap in [false, true] {
                let b = turned(&board, s, swap);
                let (x, y) = size.coords(p);
                let (tx, ty) = transform(s, (x as i32 - 9, y as i32 - 9));
                let q = size.point((tx + 9) as usize, (ty + 9) as usize).unwrap();
                let mover = if swap { Color::White } else { Color::Black };
                assert_eq!(h.hashes(&b, mover, q), base, "symmetry {s}, swap {swap}");
            }
        }
        // The other colour to move sees another pattern.
        assert_ne!(h.hashes(&board, Color::White, p), base);
        // A stone at distance 9 changes only the largest neighbourhood: E5 to D6 is
        // (1, 1), distance 3; J6 is (5, 0), distance 10 (outside); H8 (4, 2) is 10 too;
        // G9 is (3, 3): 9.
        let mut far = board.clone();
        far.try_play(Color::White, Move::Play(size.parse_point("G9").unwrap()))
            .unwrap();
        let changed = h.hashes(&far, Color::Black, p);
        assert_eq!(changed[..PATTERNS - 1], base[..PATTERNS - 1]);
        assert_ne!(changed[PATTERNS - 1], base[PATTERNS - 1]);
        // Sizes never share a hash, even in open space.
        let open = h.hashes(
            &Board::new(size),
            Color::Black,
            size.parse_point("K10").unwrap(),
        );
        for k in 1..PATTERNS {
            assert_ne!(open[k], open[k - 1]);
        }
    }
}
