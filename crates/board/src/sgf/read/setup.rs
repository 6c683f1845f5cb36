//! Building the position a record sets up: the start before the first move, and a
//! setup in the middle of the game.

use sgf_parse::go;

use super::{Reader, board_point};
use crate::board::IllegalMove;
use crate::color::Color;
use crate::game::Game;
use crate::point::Point;
use crate::sgf::{SgfError, inferred_to_move};

impl Reader {
    /// Builds the game from the setup, once, before the first move (or at the end).
    pub(super) fn build(&mut self, first_move: Option<Color>) -> Result<(), SgfError> {
        if self.game.is_some() {
            return Ok(());
        }
        let mut rules = self.rules.unwrap_or(self.defaults);
        if let Some(k) = self.komi {
            rules
                .set_komi(k)
                .map_err(|_| SgfError::BadProperty(format!("KM[{k}] is not a komi")))?;
        }
        let size = self.size;
        let n = size.get();
        let mut game = Game::new(size, rules);
        let stones = |c: Color| -> Vec<Point> {
            (0..n * n)
                .filter(|&i| self.setup[i] == Some(c))
                .filter_map(|i| {
                    board_point(
                        size,
                        go::Point {
                            x: (i % n) as u8,
                            y: (i / n) as u8,
                        },
                    )
                })
                .collect()
        };
        let (black, white) = (stones(Color::Black), stones(Color::White));
        let handicap = self
            .handicap
            .is_some_and(|h| h >= 2 && white.is_empty() && h as usize == black.len());
        if handicap {
            game.place_handicap(&black)
                .map_err(|e| SgfError::BadProperty(format!("handicap stones AB: {e}")))?;
        } else {
            for (c, list) in [(Color::Black, &black), (Color::White, &white)] {
                for &p in list {
                    game.add_setup_stone(c, p).map_err(|e| {
                        let why = match e {
                            IllegalMove::Suicide => "leaves a group without liberties".into(),
                            e => e.to_string(),
                        };
                        SgfError::BadProperty(format!(
                            "setup stone {} {}: {why}",
                            c.letter(),
                            size.vertex(p)
                        ))
                    })?;
                }
            }
        }
        let to_move = self
            .to_move
            .take()
            .unwrap_or_else(|| inferred_to_move(first_move, handicap));
        if game.to_move() != to_move {
            game.set_to_move(to_move);
        }
        self.game = Some(game);
        Ok(())
    }

    /// The setup position from the board, before a setup in the middle of the game.
    pub(super) fn setup_from_board(&mut self) {
        let (size, n) = (self.size, self.size.get());
        let board = self.game.as_ref().expect("built").board();
        for (i, cell) in self.setup.iter_mut().enumerate() {
            let p = go::Point {
                x: (i % n) as u8,
                y: (i / n) as u8,
            };
            *cell = board_point(size, p).and_then(|q| board.color_at(q));
        }
        self.pending = true;
    }

    /// Applies a pending setup in the middle of the game ([`Game::set_up`]): the
    /// position becomes the game's new start, and the comments read so far go to it.
    pub(super) fn set_up(&mut self, next_move: Option<Color>) -> Result<(), SgfError> {
        if !std::mem::take(&mut self.pending) {
            return Ok(());
        }
        let (size, n) = (self.size, self.size.get());
        let game = self.game.as_mut().expect("built");
        let changes: Vec<(Point, Option<Color>)> = (0..n * n)
            .filter_map(|i| {
                let p = go::Point {
                    x: (i % n) as u8,
                    y: (i / n) as u8,
                };
                let q = board_point(size, p)?;
                (game.board().color_at(q) != self.setup[i]).then_some((q, self.setup[i]))
            })
            .collect();
        let to_move = self
            .to_move
            .take()
            .or(next_move)
            .unwrap_or_else(|| game.to_move());
        game.set_up(&changes, to_move).map_err(|_| {
            SgfError::BadProperty(format!(
                "setup after move {} leaves a group without liberties",
                self.moves_read
            ))
        })?;
        for (k, _) in &mut self.info.comments {
            *k = 0;
        }
        Ok(())
    }
}
