//! The referee: a [`Game`] that checks every move, remembers how long each took, and
//! counts the end.

use tengen_board::{
    Bitboard, BoardSize, Color, Game, IllegalMove, Keyword, Move, Rules, Score, Scoring,
};

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

impl Keyword for ScoringMethod {
    const ALL: &'static [ScoringMethod] = &[
        ScoringMethod::Agreement,
        ScoringMethod::Cleanup,
        ScoringMethod::TrompTaylor,
    ];
    /// The journal keywords.
    const NAMES: &'static [&'static str] = &["agreement", "cleanup", "tromp-taylor"];
    const WHAT: &'static str = "scoring method";
}

tengen_board::keyword_text!(ScoringMethod);

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

    /// The score after clean-up play that started from `before`.
    ///
    /// Area counting counts the board as it now is. Territory counting does as KGS
    /// does: clean-up only tells which stones were dead (those it removed), and the
    /// position before it is counted with them, so the stones played to capture cost
    /// nobody a point.
    pub fn score_cleanup(&self, before: &Game) -> Score {
        let none = Bitboard::EMPTY;
        match self.game.rules().scoring {
            Scoring::Area => self.game.score(&none, &none),
            Scoring::Territory => {
                let after = self.game.board();
                let mut dead = Bitboard::EMPTY;
                for c in Color::ALL {
                    dead = dead.or(&before.board().stones(c).and_not(after.stones(c)));
                }
                before.score(&dead, &none)
            }
        }
    }

    /// The Tromp-Taylor (area, all stones alive) score.
    pub fn tromp_taylor(&self) -> Score {
        self.game.tromp_taylor_score()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleanup_under_territory_rules_counts_the_position_before_it() {
        // 5×5, Black owns columns A–B behind the wall C, White D–E; White's A3 is dead.
        let size = BoardSize::new(5).unwrap();
        let p = |v: &str| size.parse_move(v).unwrap();
        let mut r = Referee::new(size, Rules::japanese().with_komi(0.5).unwrap());
        for row in 1..=5 {
            r.play(Color::Black, p(&format!("C{row}")), None).unwrap();
            r.play(Color::White, p(&format!("D{row}")), None).unwrap();
        }
        r.play(Color::Black, Move::Pass, None).unwrap();
        r.play(Color::White, p("A3"), None).unwrap();
        let before = r.game().clone();
        // Clean-up: Black captures A3 with three stones inside its own area.
        for (b, w) in [("A2", "E1"), ("B3", "E2"), ("A4", "E3")] {
            r.play(Color::Black, p(b), None).unwrap();
            r.play(Color::White, p(w), None).unwrap();
        }
        assert!(r.game().board().color_at(p_point(size, "A3")).is_none());
        // Black: A–B is 10 points, A3 a dead stone (territory plus a prisoner): 11.
        // White: E is 5 points plus komi; the clean-up moves cost neither side.
        let s = r.score_cleanup(&before);
        assert_eq!((s.black, s.white), (11.0, 5.5));
        // Counted after the clean-up instead, Black would lose its three stones' points.
        let naive = r.score(&Bitboard::EMPTY, &Bitboard::EMPTY);
        assert!(naive.black < s.black, "{naive:?}");
    }

    #[test]
    fn a_handicap_game_gives_white_a_point_a_stone_under_area_scoring() {
        let size = BoardSize::new(9).unwrap();
        let komi = 0.5;
        let mut r = Referee::new(size, Rules::chinese().with_komi(komi).unwrap());
        r.place_handicap(2).unwrap();
        r.play(Color::White, Move::Pass, None).unwrap();
        r.play(Color::Black, Move::Pass, None).unwrap();
        // The whole board is Black's: 81 points, less komi 0.5 and 2 for the stones.
        let none = Bitboard::EMPTY;
        assert_eq!(r.score(&none, &none).margin(), 78.5);
        assert_eq!(r.tromp_taylor().margin(), 78.5);
        assert_eq!(r.score_cleanup(&r.game().clone()).margin(), 78.5);
        // Territory counting: the 79 empty points, less komi; no compensation.
        let mut j = Referee::new(size, Rules::japanese().with_komi(komi).unwrap());
        j.place_handicap(2).unwrap();
        assert_eq!(j.score(&none, &none).margin(), 78.5);
    }

    fn p_point(size: BoardSize, v: &str) -> tengen_board::Point {
        size.parse_point(v).unwrap()
    }
}
