//! The phase of the game a position belongs to, by the moves played and the share of
//! the board its stones cover.
//!
//! With `A` the board's points (169 on 13×13, 361 on 19×19):
//! - **opening**: fewer than `A / 6` moves played (up to move 28 on 13×13, 60 on
//!   19×19, 13 on 9×9);
//! - **endgame**: at least `3 A / 5` moves played (from move 102 on 13×13, 217 on
//!   19×19) or stones on at least half of the points;
//! - **middle game**: everything between.

use std::fmt;

use serde::Serialize;
use tengen_board::{BoardSize, Color, Game};

/// A phase of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The first moves, while the board is mostly empty.
    Opening,
    /// The fights between the opening and the endgame.
    MiddleGame,
    /// The borders settled: late in the game or a crowded board.
    Endgame,
}

impl Phase {
    /// Every phase, in the order of the game.
    pub const ALL: [Phase; 3] = [Phase::Opening, Phase::MiddleGame, Phase::Endgame];

    /// The phase after `moves` moves with `stones` stones on a board of `size`.
    pub fn of(size: BoardSize, moves: usize, stones: usize) -> Phase {
        let area = size.area();
        if moves * 6 < area {
            Phase::Opening
        } else if moves * 5 >= area * 3 || stones * 2 >= area {
            Phase::Endgame
        } else {
            Phase::MiddleGame
        }
    }

    /// The phase of a position.
    pub fn of_game(game: &Game) -> Phase {
        let board = game.board();
        let stones =
            (board.stones(Color::Black).count() + board.stones(Color::White).count()) as usize;
        Phase::of(game.size(), game.move_count(), stones)
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Opening => "opening",
            Phase::MiddleGame => "middle game",
            Phase::Endgame => "endgame",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_phases_follow_the_moves_and_the_crowding() {
        let s13 = BoardSize::new(13).unwrap();
        assert_eq!(Phase::of(s13, 20, 20), Phase::Opening);
        assert_eq!(Phase::of(s13, 28, 28), Phase::Opening);
        assert_eq!(Phase::of(s13, 29, 29), Phase::MiddleGame);
        assert_eq!(Phase::of(s13, 100, 80), Phase::MiddleGame);
        assert_eq!(Phase::of(s13, 102, 80), Phase::Endgame);
        assert_eq!(Phase::of(s13, 90, 85), Phase::Endgame);
        let s19 = BoardSize::NINETEEN;
        assert_eq!(Phase::of(s19, 50, 50), Phase::Opening);
        assert_eq!(Phase::of(s19, 75, 75), Phase::MiddleGame);
        assert_eq!(Phase::of(s19, 200, 170), Phase::MiddleGame);
        assert_eq!(Phase::of(s19, 217, 170), Phase::Endgame);
    }

    #[test]
    fn a_position_counts_its_stones() {
        let m = crate::MatchGame::parse("t", "(;SZ[5];B[aa];W[ba];B[cc];W[ab];B[dd])").unwrap();
        // A sixth of 25 points is 4.2 moves: 4 moves are the opening, 5 are not; the
        // 4 stones left (W A4 took A5) are far from half the board.
        assert_eq!(Phase::of_game(&m.position(4)), Phase::Opening);
        assert_eq!(Phase::of_game(&m.position(5)), Phase::MiddleGame);
    }
}
