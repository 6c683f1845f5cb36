//! The referee: a [`Game`] that checks every move, remembers how long each took, and
//! counts the end.

use std::fmt;

use tengen_board::{Bitboard, BoardSize, Color, Game, IllegalMove, Move, Rules, Score};

/// How a game that ended by passes was counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoringMethod {
    /// Both engines' `final_status_list dead` agreed.
    Agreement,
    /// They disagreed; clean-up play (`kgs-genmove_cleanup`) captured the dead stones,
    /// then every stone left counted as alive.
    Cleanup,
    /// Every stone on the board counted as alive (no agreement, no clean-up).
    TrompTaylor,
}

impl ScoringMethod {
    /// The journal keyword.
    pub fn as_str(&self) -> &'static str {
        match self {
            ScoringMethod::Agreement => "agreement",
            ScoringMethod::Cleanup => "cleanup",
            ScoringMethod::TrompTaylor => "tromp-taylor",
        }
    }
}

impl fmt::Display for ScoringMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The referee's game and the time of every move.
#[derive(Clone, Debug)]
pub struct Referee {
    game: Game,
    /// Seconds each move took (`None` for opening moves, which nobody generated).
    times: Vec<Option<f64>>,
}

impl Referee {
    /// An empty board under `rules`.
    pub fn new(size: BoardSize, rules: Rules) -> Referee {
        Referee {
            game: Game::new(size, rules),
            times: Vec::new(),
        }
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The time of each move, in order.
    pub fn times(&self) -> &[Option<f64>] {
        &self.times
    }

    /// Places the fixed handicap; White moves next.
    pub fn place_handicap(&mut self, n: u32) -> Result<Vec<tengen_board::Point>, String> {
        self.game.place_fixed_handicap(n).map_err(|e| e.to_string())
    }

    /// Checks and plays a move.
    pub fn play(&mut self, c: Color, m: Move, secs: Option<f64>) -> Result<(), IllegalMove> {
        self.game.play(c, m)?;
        self.times.push(secs);
        Ok(())
    }

    /// The stones named by a `final_status_list` answer, or `None` if a word is not a
    /// vertex of a stone on the board (an answer that cannot be agreed with).
    pub fn stones_from(&self, words: &[String]) -> Option<Bitboard> {
        let size = self.game.size();
        let mut set = Bitboard::EMPTY;
        for w in words {
            let p = size.parse_point(w).ok()?;
            self.game.board().color_at(p)?;
            set.insert(p);
        }
        Some(set)
    }

    /// The score with these dead stones and seki stones, by the rules' counting.
    pub fn score(&self, dead: &Bitboard, seki: &Bitboard) -> Score {
        self.game.score(dead, seki)
    }

    /// The Tromp-Taylor (area, all stones alive) score.
    pub fn tromp_taylor(&self) -> Score {
        self.game.tromp_taylor_score()
    }
}
