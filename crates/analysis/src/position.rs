//! The game a query describes (board, rules, initial stones, moves) and the position at
//! each of its turns.

use tengen_board::{BoardSize, Color, Game, IllegalMove, Move, Point, Rules};

/// A validated game record: every initial stone and every move is legal under its
/// rules, so each turn's position can be rebuilt.
#[derive(Clone, Debug)]
pub struct Position {
    size: BoardSize,
    rules: Rules,
    stones: Vec<(Color, Point)>,
    initial_player: Color,
    moves: Vec<(Color, Move)>,
}

/// Why a record is refused: the query field and the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// `initialStones` or `moves`.
    pub field: &'static str,
    /// What is wrong, in KataGo's words where it has them.
    pub message: String,
}

impl Position {
    /// Checks a record by playing it through. Initial stones of Black alone, two or
    /// more, are a handicap (White moves first, and area rules compensate White), as
    /// KataGo assumes. Without `initial_player` the first move's player starts, or
    /// White after a handicap, else Black.
    pub fn new(
        size: BoardSize,
        rules: Rules,
        stones: Vec<(Color, Point)>,
        initial_player: Option<Color>,
        moves: Vec<(Color, Move)>,
    ) -> Result<Position, Refusal> {
        let handicap = is_handicap(&stones);
        let initial_player = initial_player
            .or(moves.first().map(|m| m.0))
            .unwrap_or(if handicap { Color::White } else { Color::Black });
        let position = Position {
            size,
            rules,
            stones,
            initial_player,
            moves,
        };
        let mut game = position.start()?;
        for (i, &(c, mv)) in position.moves.iter().enumerate() {
            game.play(c, mv).map_err(|e| Refusal {
                field: "moves",
                message: format!(
                    "Illegal move {i}: {} ({})",
                    crate::vertex::move_text(size, mv),
                    reason(e)
                ),
            })?;
        }
        Ok(position)
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The number of turns: one more than the moves (turn 0 is the start).
    pub fn turns(&self) -> usize {
        self.moves.len() + 1
    }

    /// The game after the first `turn` moves (`turn` below [`Position::turns`]).
    pub fn game_at(&self, turn: usize) -> Result<Game, IllegalMove> {
        let mut game = self.start().map_err(|_| IllegalMove::Occupied)?;
        for &(c, mv) in self.moves.iter().take(turn) {
            game.play(c, mv)?;
        }
        Ok(game)
    }

    fn start(&self) -> Result<Game, Refusal> {
        let mut game = Game::new(self.size, self.rules);
        let refuse = |p: Point, why: &str| Refusal {
            field: "initialStones",
            message: format!(
                "Illegal initial stone: {} ({why})",
                crate::vertex::move_text(self.size, Move::Play(p))
            ),
        };
        if is_handicap(&self.stones) {
            let points: Vec<Point> = self.stones.iter().map(|s| s.1).collect();
            game.place_handicap(&points)
                .map_err(|e| refuse(points[0], &e.to_string()))?;
        } else {
            for &(c, p) in &self.stones {
                game.add_setup_stone(c, p)
                    .map_err(|e| refuse(p, reason(e)))?;
            }
        }
        game.set_to_move(self.initial_player);
        Ok(game)
    }
}

/// Black stones alone, two or more: a handicap.
fn is_handicap(stones: &[(Color, Point)]) -> bool {
    stones.len() >= 2 && stones.iter().all(|s| s.0 == Color::Black)
}

fn reason(e: IllegalMove) -> &'static str {
    match e {
        IllegalMove::OffBoard => "off the board",
        IllegalMove::Occupied => "the point is occupied",
        IllegalMove::Suicide => "suicide is not allowed under these rules",
        IllegalMove::Ko => "it retakes a ko",
        IllegalMove::Superko => "it repeats an earlier position (superko)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(size: BoardSize, c: Color, v: &str) -> (Color, Move) {
        (c, size.parse_move(v).unwrap())
    }

    #[test]
    fn turns_rebuild_their_positions_and_players() {
        let size = BoardSize::new(9).unwrap();
        let moves = vec![
            mv(size, Color::Black, "E5"),
            mv(size, Color::White, "C3"),
            mv(size, Color::Black, "pass"),
        ];
        let p = Position::new(size, Rules::chinese(), Vec::new(), None, moves).unwrap();
        assert_eq!(p.turns(), 4);
        assert_eq!(p.game_at(0).unwrap().to_move(), Color::Black);
        let g = p.game_at(2).unwrap();
        assert_eq!(g.move_count(), 2);
        assert_eq!(g.to_move(), Color::Black);
        assert_eq!(p.game_at(3).unwrap().to_move(), Color::White);
    }

    #[test]
    fn handicap_stones_give_white_the_move_and_the_bonus() {
        let size = BoardSize::NINETEEN;
        let stones: Vec<(Color, Point)> = ["D4", "Q16"]
            .iter()
            .map(|v| (Color::Black, size.parse_point(v).unwrap()))
            .collect();
        let p = Position::new(size, Rules::chinese(), stones, None, Vec::new()).unwrap();
        let g = p.game_at(0).unwrap();
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(g.handicap(), 2);
        assert_eq!(g.effective_komi(), 9.5);
    }

    #[test]
    fn illegal_moves_and_stones_are_refused_with_their_turn() {
        let size = BoardSize::new(9).unwrap();
        let twice = vec![mv(size, Color::Black, "E5"), mv(size, Color::White, "E5")];
        let r = Position::new(size, Rules::chinese(), Vec::new(), None, twice).unwrap_err();
        assert_eq!(r.field, "moves");
        assert!(r.message.starts_with("Illegal move 1: E5"), "{}", r.message);
        // B1 joins A1 with no liberty left and captures nothing: a suicide of two
        // stones, refused under Chinese rules, allowed under Tromp-Taylor.
        let stones: Vec<(Color, Point)> = [
            (Color::Black, "A1"),
            (Color::White, "A2"),
            (Color::White, "B2"),
            (Color::White, "C1"),
        ]
        .iter()
        .map(|&(c, v)| (c, size.parse_point(v).unwrap()))
        .collect();
        let suicide = vec![mv(size, Color::Black, "B1")];
        let r = Position::new(
            size,
            Rules::chinese(),
            stones.clone(),
            None,
            suicide.clone(),
        )
        .unwrap_err();
        assert!(r.message.contains("suicide"), "{}", r.message);
        assert!(Position::new(size, Rules::tromp_taylor(), stones, None, suicide).is_ok());
        let same = vec![
            (Color::Black, size.parse_point("A1").unwrap()),
            (Color::White, size.parse_point("A1").unwrap()),
        ];
        let r = Position::new(size, Rules::chinese(), same, None, Vec::new()).unwrap_err();
        assert_eq!(r.field, "initialStones");
    }
}
