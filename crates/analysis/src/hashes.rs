//! The position's hashes for `rootInfo` (KataGo's `thisHash` and `symHash`), so that a
//! client can recognise a position it has seen: Tengen's 64-bit Zobrist hash of the
//! stones and the side to move (the key the board keeps for superko), and the least of
//! that hash over the board's eight symmetries (rotations and reflections), which
//! every symmetric copy of the position shares. Written as 16 upper-case hex digits
//! (KataGo's are 128-bit, 32 digits: the two never match each other).

use tengen_board::{BLACK_TO_MOVE, BoardSize, Color, Game, Hash, Point, stone_key};

/// A position's hashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionHashes {
    /// The position as it stands (`thisHash`).
    pub this: u64,
    /// The least over its eight symmetries (`symHash`).
    pub sym: u64,
}

impl PositionHashes {
    /// The hashes of the position `game` has reached, with its side to move.
    pub fn of(game: &Game) -> PositionHashes {
        let size = game.size();
        let board = game.board();
        let side = if game.to_move() == Color::Black {
            BLACK_TO_MOVE.0
        } else {
            0
        };
        let hash_under = |symmetry: usize| {
            size.points()
                .filter_map(|p| board.color_at(p).map(|c| (c, p)))
                .fold(side, |h, (c, p)| {
                    h ^ stone_key(c, transformed(size, p, symmetry)).0
                })
        };
        PositionHashes {
            this: hash_under(0),
            sym: (0..8).map(hash_under).min().unwrap_or(side),
        }
    }

    /// `thisHash` as written.
    pub fn this_text(&self) -> String {
        hex(Hash(self.this))
    }

    /// `symHash` as written.
    pub fn sym_text(&self) -> String {
        hex(Hash(self.sym))
    }
}

fn hex(h: Hash) -> String {
    format!("{:016X}", h.0)
}

/// `p` under symmetry `symmetry` (0 the identity; bit 0 mirrors the columns, bit 1 the
/// rows, bit 2 swaps columns and rows).
fn transformed(size: BoardSize, p: Point, symmetry: usize) -> Point {
    let last = size.get() - 1;
    let (mut x, mut y) = size.coords(p);
    if symmetry & 1 != 0 {
        x = last - x;
    }
    if symmetry & 2 != 0 {
        y = last - y;
    }
    if symmetry & 4 != 0 {
        std::mem::swap(&mut x, &mut y);
    }
    size.point(x, y).unwrap_or(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_board::{Move, Rules};

    fn game(moves: &[(Color, &str)]) -> Game {
        let size = BoardSize::new(9).unwrap();
        let mut g = Game::new(size, Rules::chinese());
        for &(c, v) in moves {
            g.play(c, size.parse_move(v).unwrap()).unwrap();
        }
        g
    }

    #[test]
    fn this_hash_is_the_boards_key_with_the_side_to_move() {
        let g = game(&[(Color::Black, "C3"), (Color::White, "E5")]);
        let h = PositionHashes::of(&g);
        assert_eq!(h.this, g.board().hash().0 ^ BLACK_TO_MOVE.0);
        assert_eq!(h.this_text().len(), 16);
        let after_pass = {
            let mut g = g.clone();
            g.play(Color::Black, Move::Pass).unwrap();
            g
        };
        assert_ne!(PositionHashes::of(&after_pass).this, h.this);
    }

    #[test]
    fn symmetric_positions_share_the_sym_hash_only() {
        // The position turned half round, and mirrored top to bottom.
        let a = game(&[(Color::Black, "C3"), (Color::White, "D5")]);
        let b = game(&[(Color::Black, "G7"), (Color::White, "F5")]);
        let c = game(&[(Color::Black, "C7"), (Color::White, "D5")]);
        let (ha, hb, hc) = (
            PositionHashes::of(&a),
            PositionHashes::of(&b),
            PositionHashes::of(&c),
        );
        assert_ne!(ha.this, hb.this);
        assert_ne!(ha.this, hc.this);
        assert_eq!(ha.sym, hb.sym);
        assert_eq!(ha.sym, hc.sym);
        let other = PositionHashes::of(&game(&[(Color::Black, "C3"), (Color::White, "D6")]));
        assert_ne!(other.sym, ha.sym);
    }
}
