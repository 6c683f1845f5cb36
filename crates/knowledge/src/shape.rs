//! Learned 3×3 shapes: a candidate move's neighbourhood seen from the mover, and the
//! strength fitted to it from game records.
//!
//! A shape code is [`Board::pattern3`] with the colours turned so that the mover is
//! black, plus one bit for each of the four adjacent stones that is in atari (so
//! captures, escapes and connections to a group in atari are part of the shape).
//! Codes that differ by a rotation or reflection are the same shape; [`canonical`]
//! names each by its smallest code.
//!
//! The weights are Bradley–Terry strengths ("gammas", Coulom 2007) that the trainer
//! (the `tengen-learn` crate's `shapes`, run by its `examples/learn_shapes.rs`) fits to
//! the moves of game records, jointly with the distance to the last move, captures and
//! self-atari, so that a shape's weight is what the shape adds beyond those. The
//! shipped table is `crates/knowledge/data/shapes.txt`.
//!
//! [`Board::pattern3`]: tengen_board::Board::pattern3

use tengen_board::{Board, Color, Point};

/// Number of raw shape codes: 16 bits of colours, 4 bits of atari flags.
pub const SHAPE_CODES: usize = 1 << 20;

/// Cell values of a code, from the mover's side.
const MINE: u32 = 0;
const THEIRS: u32 = 1;
const EMPTY: u32 = 2;
const EDGE: u32 = 3;

/// Code cells in order NW, N, NE, W, E, SW, S, SE, as (row, column) of a 3×3 grid
/// (the order of [`Board::pattern3`]).
pub(crate) const CELLS: [(usize, usize); 8] = [
    (0, 0),
    (0, 1),
    (0, 2),
    (1, 0),
    (1, 2),
    (2, 0),
    (2, 1),
    (2, 2),
];

/// The code cells that carry an atari flag (N, W, E, S), in flag-bit order.
const ADJACENT: [usize; 4] = [1, 3, 4, 6];

/// The shape code of a move by `c` at the empty point `p`.
pub fn shape_code(board: &Board, c: Color, p: Point) -> u32 {
    let raw = u32::from(board.pattern3(p));
    // pattern3 writes black 0 and white 1: swap them for a white mover.
    let colours = if c == Color::White {
        swap_colours(raw)
    } else {
        raw
    };
    let stride = board.size().stride() as isize;
    // N, W, E, S as index offsets, matching pattern3's layout (N is +stride).
    let offsets = [stride, -1, 1, -stride];
    let mut flags = 0;
    for (bit, off) in offsets.iter().enumerate() {
        let q = Point::from_index((p.index() as isize + off) as usize);
        if board.color_at(q).is_some() && board.liberties(q) == 1 {
            flags |= 1 << bit;
        }
    }
    colours | flags << 16
}

/// A `pattern3` code with black and white swapped: a cell whose high bit is clear
/// holds a stone, and flipping its low bit swaps the colour (empty and edge stay).
#[inline]
fn swap_colours(raw: u32) -> u32 {
    raw ^ (!raw >> 1 & 0x5555)
}

/// The 3×3 grid of a code: cell values (the centre is `EMPTY`) and atari flags.
fn grid(code: u32) -> ([[u32; 3]; 3], [[bool; 3]; 3]) {
    let mut cells = [[EMPTY; 3]; 3];
    let mut atari = [[false; 3]; 3];
    for (k, &(r, c)) in CELLS.iter().enumerate() {
        cells[r][c] = code >> (2 * k) & 3;
    }
    for (bit, &k) in ADJACENT.iter().enumerate() {
        let (r, c) = CELLS[k];
        atari[r][c] = code >> (16 + bit) & 1 != 0;
    }
    (cells, atari)
}

/// The code of a 3×3 grid.
fn from_grid(cells: &[[u32; 3]; 3], atari: &[[bool; 3]; 3]) -> u32 {
    let mut code = 0;
    for (k, &(r, c)) in CELLS.iter().enumerate() {
        code |= cells[r][c] << (2 * k);
    }
    for (bit, &k) in ADJACENT.iter().enumerate() {
        let (r, c) = CELLS[k];
        if atari[r][c] {
            code |= 1 << (16 + bit);
        }
    }
    code
}

/// The eight codes of a shape's rotations and reflections (some may repeat).
pub fn symmetries(code: u32) -> [u32; 8] {
    let (mut cells, mut atari) = grid(code);
    let mut out = [0; 8];
    for k in 0..4 {
        out[2 * k] = from_grid(&cells, &atari);
        out[2 * k + 1] = from_grid(&mirror(cells), &mirror(atari));
        // Rotate a quarter turn: new[r][c] = old[2 - c][r].
        cells = std::array::from_fn(|r| std::array::from_fn(|c| cells[2 - c][r]));
        atari = std::array::from_fn(|r| std::array::from_fn(|c| atari[2 - c][r]));
    }
    out
}

/// A grid mirrored left to right.
fn mirror<T: Copy>(g: [[T; 3]; 3]) -> [[T; 3]; 3] {
    g.map(|row| [row[2], row[1], row[0]])
}

/// The shape's name: the smallest of its symmetric codes.
pub fn canonical(code: u32) -> u32 {
    symmetries(code).into_iter().min().unwrap_or(code)
}

/// A shape as text, three rows joined by `/`: `X` the mover's stone, `O` the
/// opponent's, `.` empty, `#` off the board, `*` the move; an adjacent stone in
/// atari is written in lower case.
pub fn describe(code: u32) -> String {
    let (cells, atari) = grid(code);
    let mut s = String::with_capacity(11);
    for r in 0..3 {
        if r > 0 {
            s.push('/');
        }
        for c in 0..3 {
            let ch = if (r, c) == (1, 1) {
                '*'
            } else {
                match (cells[r][c], atari[r][c]) {
                    (MINE, false) => 'X',
                    (MINE, true) => 'x',
                    (THEIRS, false) => 'O',
                    (THEIRS, true) => 'o',
                    (EDGE, _) => '#',
                    _ => '.',
                }
            };
            s.push(ch);
        }
    }
    s
}

/// Reads [`describe`]'s text back; `None` if it is not a shape.
pub fn parse_shape(text: &str) -> Option<u32> {
    let rows: Vec<&[u8]> = text.split('/').map(str::as_bytes).collect();
    if rows.len() != 3 || rows.iter().any(|r| r.len() != 3) || rows[1][1] != b'*' {
        return None;
    }
    let mut cells = [[EMPTY; 3]; 3];
    let mut atari = [[false; 3]; 3];
    for r in 0..3 {
        for c in 0..3 {
            if (r, c) == (1, 1) {
                continue;
            }
            let (v, a) = match rows[r][c] {
                b'X' => (MINE, false),
                b'x' => (MINE, true),
                b'O' => (THEIRS, false),
                b'o' => (THEIRS, true),
                b'.' => (EMPTY, false),
                b'#' => (EDGE, false),
                _ => return None,
            };
            if a && r != 1 && c != 1 {
                // Only the four adjacent stones carry an atari flag.
                return None;
            }
            cells[r][c] = v;
            atari[r][c] = a;
        }
    }
    Some(from_grid(&cells, &atari))
}

/// The shipped weights, as `crates/learn/examples/learn_shapes.rs` wrote them.
const SHIPPED: &str = include_str!("../data/shapes.txt");

/// Why a weights table could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeTableError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl std::fmt::Display for ShapeTableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "shape table line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for ShapeTableError {}

/// Natural logarithms of the learned shape strengths, indexed by raw code; shapes
/// the table does not name weigh 0 (a strength of 1, like open space).
#[derive(Clone)]
pub struct ShapeWeights {
    log_gamma: Vec<f32>,
    pub(crate) shapes: usize,
}

impl std::fmt::Debug for ShapeWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ShapeWeights({} shapes)", self.shapes)
    }
}

impl Default for ShapeWeights {
    fn default() -> ShapeWeights {
        ShapeWeights::shipped()
    }
}

impl ShapeWeights {
    /// The table shipped in `crates/knowledge/data/shapes.txt`.
    pub fn shipped() -> ShapeWeights {
        // The table is compiled in and a unit test reads it: a failure here is a
        // broken build, and falling back to no shapes would hide it.
        ShapeWeights::parse(SHIPPED)
            .expect("crates/knowledge/data/shapes.txt is a valid shape table")
    }

    /// A table that knows no shape.
    pub fn empty() -> ShapeWeights {
        ShapeWeights {
            log_gamma: vec![0.0; SHAPE_CODES],
            shapes: 0,
        }
    }

    /// Reads a table: comments (`# ` lines), then one shape a line, `SHAPE GAMMA …` (further
    /// columns are notes). Every symmetric form of a shape gets its weight; a shape
    /// named twice (in any of its forms) is an error.
    pub fn parse(text: &str) -> Result<ShapeWeights, ShapeTableError> {
        let mut table = ShapeWeights::empty();
        let mut named = std::collections::HashSet::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            // A comment is `#` and a space: a shape may itself start with `#`.
            if line.is_empty() || line == "#" || line.starts_with("# ") {
                continue;
            }
            let err = |reason| ShapeTableError {
                line: i + 1,
                reason,
            };
            let mut fields = line.split_whitespace();
            let code = fields
                .next()
                .and_then(parse_shape)
                .ok_or(err("not a shape"))?;
            let gamma: f32 = fields
                .next()
                .and_then(|g| g.parse().ok())
                .filter(|g: &f32| g.is_finite() && *g > 0.0)
                .ok_or(err("the strength is not a positive number"))?;
            if !named.insert(canonical(code)) {
                return Err(err("the shape is named twice"));
            }
            for v in symmetries(code) {
                table.log_gamma[v as usize] = gamma.ln();
            }
            table.shapes += 1;
        }
        Ok(table)
    }

    /// Sets the log strength of the raw code `code` (one form of a shape).
    pub(crate) fn set(&mut self, code: u32, log_gamma: f32) {
        self.log_gamma[code as usize] = log_gamma;
    }

    /// The log strength of the shape with raw code `code`.
    #[inline]
    pub fn log_gamma(&self, code: u32) -> f32 {
        self.log_gamma[code as usize]
    }

    /// How many shapes the table names.
    pub fn len(&self) -> usize {
        self.shapes
    }

    /// Whether the table names no shape.
    pub fn is_empty(&self) -> bool {
        self.shapes == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_board::parse_diagram;

    #[test]
    fn the_colour_swap_swaps_stones_and_keeps_empty_and_edge() {
        for raw in 0..=0xFFFFu32 {
            let by_cell = (0..8).fold(0, |acc, k| {
                let v = match raw >> (2 * k) & 3 {
                    MINE => THEIRS,
                    THEIRS => MINE,
                    other => other,
                };
                acc | v << (2 * k)
            });
            assert_eq!(swap_colours(raw), by_cell, "{raw:#06x}");
        }
    }

    #[test]
    fn codes_are_seen_from_the_mover_and_read_back() {
        let b = parse_diagram(
            ". . . . .
             . X O . .
             . O . . .
             . . . . .
             . . . . .",
        )
        .unwrap();
        let p = b.size().parse_point("C3").unwrap();
        let black = shape_code(&b, Color::Black, p);
        let white = shape_code(&b, Color::White, p);
        assert_eq!(describe(black), "XO./O*./...");
        assert_eq!(describe(white), "OX./X*./...");
        assert_eq!(parse_shape(&describe(black)), Some(black));
        // On the first line the row below is off the board.
        let a1 = b.size().parse_point("A1").unwrap();
        assert_eq!(describe(shape_code(&b, Color::Black, a1)), "#../#*./###");
    }

    #[test]
    fn atari_flags_mark_adjacent_groups_with_one_liberty() {
        let b = parse_diagram(
            ". . . . .
             . . X . .
             . X O . .
             . . X . .
             . . . . .",
        )
        .unwrap();
        // White C3 has one liberty, D3; Black D3 captures it.
        let d3 = b.size().parse_point("D3").unwrap();
        assert_eq!(describe(shape_code(&b, Color::Black, d3)), "X../o*./X..");
        // Flags to the north and south: Black B4 is in atari above B3, White B2 below.
        let n = parse_diagram(
            ". O . . .
             O X O . .
             . . . . .
             X O X . .
             . X . . .",
        )
        .unwrap();
        let b3 = n.size().parse_point("B3").unwrap();
        assert_eq!(describe(shape_code(&n, Color::Black, b3)), "OxO/.*./XoX");
        assert_eq!(describe(shape_code(&n, Color::White, b3)), "XoX/.*./OxO");
    }

    #[test]
    fn symmetric_shapes_share_a_name_and_a_weight() {
        let code = parse_shape("XO./o*./..#").unwrap();
        let all = symmetries(code);
        assert!(all.iter().all(|&v| canonical(v) == canonical(code)));
        // A quarter turn moves the atari flag from W to N (or S).
        assert!(all.iter().any(|&v| describe(v).starts_with(".o")));
        let table = ShapeWeights::parse("# test\nXO./o*./..# 4.0 note\n###/.*./... 0.5\n").unwrap();
        assert_eq!(table.len(), 2, "a shape starting with # is no comment");
        for v in all {
            assert!((table.log_gamma(v) - 4f32.ln()).abs() < 1e-6);
        }
        assert_eq!(table.log_gamma(parse_shape(".../.*./...").unwrap()), 0.0);
    }

    #[test]
    fn bad_tables_are_refused_with_the_line() {
        let e = ShapeWeights::parse("XO./.*./...  1.0\nXO./.*. 2.0\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(ShapeWeights::parse("XO./.*./... -1\n").is_err());
        assert!(ShapeWeights::parse("XO./.*./... NaN\n").is_err());
        // A diagonal stone cannot carry an atari flag.
        assert!(ShapeWeights::parse("xO./.*./... 1\n").is_err());
        // A shape named twice, here as its mirror image.
        let e = ShapeWeights::parse("XO./.*./... 2\n.OX/.*./... 3\n").unwrap_err();
        assert_eq!(e.line, 2);
    }

    #[test]
    fn the_shipped_table_reads() {
        let table = ShapeWeights::parse(SHIPPED).expect("crates/knowledge/data/shapes.txt");
        assert!(table.len() > 100, "{} shapes", table.len());
        let g = |s: &str| table.log_gamma(parse_shape(s).unwrap());
        // Open space is the unit; every other shape is relative to it.
        assert_eq!(g(".../.*./..."), 0.0);
        // A hane at the head of a contact fight and extending out of atari are good.
        assert!(g("XO./.*./...") > 1.0, "hane {}", g("XO./.*./..."));
        assert!(g("OxO/.*./...") > 2.0, "extend {}", g("OxO/.*./..."));
        // An empty first line, and a slow step next to a lone own stone, are not.
        assert!(g("###/.*./...") < -1.0, "first line {}", g("###/.*./..."));
        assert!(g(".X./.*./...") < 0.0, "slow step {}", g(".X./.*./..."));
    }
}
