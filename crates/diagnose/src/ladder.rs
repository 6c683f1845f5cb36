//! Ladders played in a stretch of the game, and whether the board's ladder reader
//! (`tengen_knowledge::tactics::escape_works`) agreed with how they were played.
//!
//! A *ladder* is a chain that extends out of atari to exactly two liberties at least
//! twice in a row of its own moves (each extension from the atari the last one left):
//! the runner. Before its first extension the reader says whether the escape works.

use tengen_board::{Board, Color, Game, Move, Point};
use tengen_knowledge::tactics::escape_works;

use crate::eval::Ownership;

/// A ladder found in the moves replayed.
#[derive(Debug, Clone, PartialEq)]
pub struct Ladder {
    /// The side that ran.
    pub runner: Color,
    /// The move number of the first extension.
    pub first_move: usize,
    /// The extensions out of atari played.
    pub extensions: usize,
    /// Whether the reader said, before the first extension, that the runner escapes.
    pub reader_escapes: bool,
    /// The running chain after its last extension.
    pub chain: Vec<Point>,
    /// The point of the last extension.
    last: Point,
}

/// The ladders (two or more extensions) run in `moves` played from `start`.
pub fn ladders(start: &Game, moves: &[(Color, Move)]) -> Vec<Ladder> {
    let mut game = start.clone();
    let mut runs: Vec<Ladder> = Vec::new();
    for &(c, m) in moves {
        let number = game.move_count() + 1;
        if let Move::Play(q) = m {
            if extends_from_atari(game.board(), c, q) {
                let run = runs.iter_mut().find(|r| {
                    r.runner == c
                        && game.board().color_at(r.last) == Some(c)
                        && game.board().atari_liberty(r.last) == Some(q)
                });
                match run {
                    Some(r) => {
                        r.extensions += 1;
                        r.last = q;
                    }
                    None => runs.push(Ladder {
                        runner: c,
                        first_move: number,
                        extensions: 1,
                        reader_escapes: escape_works(game.board(), c, q),
                        chain: Vec::new(),
                        last: q,
                    }),
                }
            }
        }
        if game.play(c, m).is_err() {
            break;
        }
        if let Move::Play(q) = m {
            for r in runs.iter_mut().filter(|r| r.runner == c && r.last == q) {
                r.chain = game.board().group_stones(q).collect();
            }
        }
    }
    runs.retain(|r| r.extensions >= 2);
    runs
}

/// Whether `c` at `q` extends a chain of its own in atari whose last liberty is `q`
/// to exactly two liberties.
fn extends_from_atari(board: &Board, c: Color, q: Point) -> bool {
    let size = board.size();
    let in_atari = size
        .neighbours(q)
        .into_iter()
        .any(|n| board.color_at(n) == Some(c) && board.atari_liberty(n) == Some(q));
    in_atari && board.check(c, q).is_ok() && board.liberties_after(c, q, 3) == 2
}

/// The first ladder `side` misread, judged by the final map `last` (`side`'s view):
/// `side` ran a ladder the reader said works for the chaser and the chain ends the
/// opponent's (mean ownership at most `-owned`), or `side` chased a ladder the reader
/// said fails and the runner's chain ends the runner's.
pub fn misread<'a>(
    ladders: &'a [Ladder],
    side: Color,
    last: &Ownership,
    owned: f32,
) -> Option<&'a Ladder> {
    ladders.iter().find(|l| {
        let lost_for_side = last.mean(&l.chain) <= -owned;
        if l.runner == side {
            !l.reader_escapes && lost_for_side
        } else {
            l.reader_escapes && lost_for_side
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MatchGame;

    /// White's C3 stone in a ladder towards the top right with nothing in the way:
    /// Black's D2 ataris it, it runs D3 (move 8), D4, E4, E5.
    const LADDER: &str = "(;SZ[9];B[cf];W[cg];B[bg];W[ai];B[ch];W[ah];B[dh];W[dg];B[eg];W[df]\
                          ;B[de];W[ef];B[ff];W[ee];B[ed])";

    #[test]
    fn a_ladder_that_works_is_found_and_read() {
        let m = MatchGame::parse("t", LADDER).unwrap();
        let found = ladders(&m.position(0), &m.moves());
        assert_eq!(found.len(), 1, "{found:?}");
        let l = &found[0];
        assert_eq!(l.runner, Color::White);
        assert_eq!(l.first_move, 8);
        assert_eq!(l.extensions, 4);
        assert_eq!(l.chain.len(), 5);
        assert!(!l.reader_escapes);
        // White ran a working ladder and lost the chain: White's misread, not Black's.
        let size = m.size();
        let white_view_lost = Ownership::from_fn(size, |_| -0.9);
        assert!(misread(&found, Color::White, &white_view_lost, 0.3).is_some());
        assert!(misread(&found, Color::Black, &white_view_lost.flipped(), 0.3).is_none());
    }

    #[test]
    fn a_ladder_broken_by_a_stone_in_its_way_is_read_as_escaping() {
        // The same ladder with a white stone on F6 in its path instead of A2.
        let text = LADDER.replace("W[ah]", "W[fd]");
        let m = MatchGame::parse("t", &text).unwrap();
        let found = ladders(&m.position(0), &m.moves());
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].reader_escapes);
        // Black chased it and White's chain lived: Black's misread.
        let black_view_white_lives = Ownership::from_fn(m.size(), |_| -0.9);
        assert!(misread(&found, Color::Black, &black_view_white_lives, 0.3).is_some());
        assert!(misread(&found, Color::White, &black_view_white_lives.flipped(), 0.3).is_none());
    }
}
