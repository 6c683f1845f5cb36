//! The 3×3 playout patterns: a bit table indexed by [`Board::pattern3`] codes.
//!
//! The shapes are the classic MoGo set (hane, cut, side moves) that light MCTS engines
//! use around the last move. Each is written once with wildcards and expanded to all
//! eight symmetries and both colours when the table is built.
//!
//! [`Board::pattern3`]: tengen_board::Board::pattern3

use crate::shape::CELLS;

/// Shapes, top row first; the centre is the candidate move. `X`/`O` stones of either
/// colour (both colourings are added), `x` not `X`, `o` not `O`, `.` empty,
/// `#` off the board, `?` anything.
const SHAPES: &[[&str; 3]] = &[
    // Hane: the enclosing hane, the non-cutting hane, the magari.
    ["XOX", "...", "???"],
    ["XO.", "...", "?.?"],
    ["XO?", "X..", "x.?"],
    // Katatsuke or diagonal attachment.
    [".O.", "X..", "..."],
    // Cuts: unprotected, peeped, the de, the keima cut.
    ["XO?", "O.o", "?o?"],
    ["XO?", "O.X", "???"],
    ["?X?", "O.O", "ooo"],
    ["OX?", "o.O", "???"],
    // On the first line: chase, block the side cut, block the connection, sagari, cut.
    ["X.?", "O.?", "##?"],
    ["OX?", "X.O", "###"],
    ["?X?", "x.O", "###"],
    ["?XO", "x.x", "###"],
    ["?OX", "X.O", "###"],
];

/// Cell values of a pattern code (as `Board::pattern3` writes them).
const BLACK: u16 = 0;
const WHITE: u16 = 1;
const EMPTY: u16 = 2;
const EDGE: u16 = 3;

/// Which 3×3 neighbourhoods make a good playout move at their centre.
#[derive(Clone)]
pub struct PatternTable {
    bits: Box<[u64; 1024]>,
}

impl std::fmt::Debug for PatternTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n: u32 = self.bits.iter().map(|w| w.count_ones()).sum();
        write!(f, "PatternTable({n} codes)")
    }
}

impl Default for PatternTable {
    fn default() -> PatternTable {
        PatternTable::build()
    }
}

impl PatternTable {
    /// Expands the shapes written out in this file (`SHAPES`) into the table.
    pub fn build() -> PatternTable {
        let mut table = PatternTable {
            bits: Box::new([0; 1024]),
        };
        for shape in SHAPES {
            let grid: Vec<Vec<u8>> = shape.iter().map(|r| r.bytes().collect()).collect();
            for variant in symmetries(&grid) {
                for swap in [false, true] {
                    let cells: Vec<u8> = CELLS
                        .iter()
                        .map(|&(r, c)| {
                            let ch = variant[r][c];
                            if swap { swap_colour(ch) } else { ch }
                        })
                        .collect();
                    table.add_all(&cells, 0, 0);
                }
            }
        }
        table
    }

    /// Whether the neighbourhood code matches a shape.
    #[inline]
    pub fn matches(&self, code: u16) -> bool {
        self.bits[usize::from(code >> 6)] >> (code & 63) & 1 != 0
    }

    fn add_all(&mut self, cells: &[u8], k: usize, code: u16) {
        if k == cells.len() {
            self.bits[usize::from(code >> 6)] |= 1 << (code & 63);
            return;
        }
        let options: &[u16] = match cells[k] {
            b'X' => &[BLACK],
            b'O' => &[WHITE],
            b'x' => &[WHITE, EMPTY, EDGE],
            b'o' => &[BLACK, EMPTY, EDGE],
            b'.' => &[EMPTY],
            b'#' => &[EDGE],
            _ => &[BLACK, WHITE, EMPTY, EDGE],
        };
        for &v in options {
            self.add_all(cells, k + 1, code | v << (2 * k));
        }
    }
}

fn swap_colour(ch: u8) -> u8 {
    match ch {
        b'X' => b'O',
        b'O' => b'X',
        b'x' => b'o',
        b'o' => b'x',
        c => c,
    }
}

/// The eight rotations and reflections of a 3×3 grid.
fn symmetries(grid: &[Vec<u8>]) -> Vec<Vec<Vec<u8>>> {
    let rot = |g: &Vec<Vec<u8>>| -> Vec<Vec<u8>> {
        (0..3)
            .map(|r| (0..3).map(|c| g[2 - c][r]).collect())
            .collect()
    };
    let flip = |g: &Vec<Vec<u8>>| -> Vec<Vec<u8>> {
        g.iter()
            .map(|row| row.iter().rev().copied().collect())
            .collect()
    };
    let mut out = Vec::with_capacity(8);
    let mut g = grid.to_vec();
    for _ in 0..4 {
        out.push(g.clone());
        out.push(flip(&g));
        g = rot(&g);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_board::{Color, parse_diagram};

    #[test]
    fn hane_and_cut_match_and_empty_space_does_not() {
        let table = PatternTable::build();
        let b = parse_diagram(
            ". . . . . .
             . X O X . .
             . . . . . .
             . . . . . .
             . . . X O .
             . . . O . .",
        )
        .unwrap();
        let s = b.size();
        let p = |v: &str| s.parse_point(v).unwrap();
        // Enclosing hane below B5-C5-D5: the centre C4.
        assert!(table.matches(b.pattern3(p("C4"))));
        // The same shape rotated and with colours swapped holds too: a cut at E1.
        assert!(table.matches(b.pattern3(p("E1"))), "cut on the first line");
        // Open space matches nothing.
        assert!(!table.matches(b.pattern3(p("B3"))));
        assert!(!table.matches(b.pattern3(p("A3"))));
        let _ = Color::Black;
    }

    #[test]
    fn table_is_closed_under_colour_swap() {
        let table = PatternTable::build();
        let mut n = 0;
        for code in 0..=u16::MAX {
            if table.matches(code) {
                n += 1;
                let swapped = (0..8).fold(0u16, |acc, k| {
                    let v = (code >> (2 * k)) & 3;
                    let v = match v {
                        BLACK => WHITE,
                        WHITE => BLACK,
                        x => x,
                    };
                    acc | v << (2 * k)
                });
                assert!(table.matches(swapped));
            }
        }
        assert!(n > 100 && n < 20_000, "{n} codes");
    }
}
