//! The killing line of a proven local death: the attacker's next move, read afresh
//! from the position on the board, so that it answers whatever the defender played
//! since the death was proven.

use crate::bitboard::Bitboard;
use crate::game::Game;
use crate::point::Point;

use super::area::{ClosedEnclosure, local_rules};
use super::local::Kos;
use super::seki::LocalDeath;

impl LocalDeath {
    /// The points of the death's area: the chain, its takers and the empty points.
    pub fn area(&self) -> Bitboard {
        self.stones.or(&self.takers).or(&self.liberties)
    }

    /// The attacker's next move of a proof that this chain is captured, the attacker
    /// (the other colour) to move now in `game`'s position: the local search of the
    /// death's area ([`LocalDeath::area`], with whatever stands on it now) under the
    /// game's rules and history, the defender answering with every move and the
    /// pass, the proof walked line by line. The target is the chain that holds the
    /// dead stones now (grown by the defender's moves since, perhaps). Kos are played
    /// out without threats only when the death needs them ([`LocalDeath::ko`]), and
    /// a proof without kos is tried first.
    ///
    /// So a death proven on an earlier board gives the next move of its killing line
    /// from this one, against whatever the defender answered, as long as the area is
    /// still closed (its walls stand) and every dead stone is still on the board.
    /// `None` otherwise, or when no proof is found within the search's budget.
    pub fn killing_move(&self, game: &Game) -> Option<Point> {
        let board = game.board();
        let defender = board.color_at(self.stones.first()?)?;
        if !self.stones.and_not(board.stones(defender)).is_empty() {
            return None;
        }
        let area = self.area();
        let empty = area.and(&board.empties());
        let members = area.and_not(&empty);
        let rules = local_rules(game.rules(), Some(game));
        let ClosedEnclosure {
            enclosure, points, ..
        } = ClosedEnclosure::of(board, &members, &empty, rules)?;
        let mut chains = Bitboard::EMPTY;
        for p in self.stones.iter() {
            if !chains.contains(p) {
                chains = chains.or(&board.group_stones(p).collect());
            }
        }
        let target = points
            .iter()
            .enumerate()
            .filter(|(_, p)| chains.contains(**p))
            .fold(0u64, |m, (i, _)| m | 1 << i);
        let kos: &[Kos] = if self.ko {
            &[Kos::Unknown, Kos::NoThreats]
        } else {
            &[Kos::Unknown]
        };
        kos.iter()
            .find_map(|&k| enclosure.attack(defender, target, k))
            .map(|i| points[i])
    }
}

#[cfg(test)]
mod tests {
    use crate::color::Color;
    use crate::diagram::parse_diagram;
    use crate::game::Game;
    use crate::life::StaticLife;
    use crate::point::Move;
    use crate::rules::Rules;

    /// A game of the diagram's stones as setup, Black to move.
    fn game_of(diagram: &str, rules: Rules) -> Game {
        Game::from_setup(&parse_diagram(diagram).unwrap(), rules).unwrap()
    }

    #[test]
    fn a_straight_three_with_a_stone_on_its_vital_point_is_captured_by_filling_it() {
        // White's corner: eye space A9 B9 C9 with Black on B9 (no ko on any line).
        // Black to move captures by playing the outside liberty that leaves White one.
        let game = game_of(
            "O . X . O X . . .
             O O O O O X . . .
             X X X X X X . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
            Rules::chinese(),
        );
        let life = StaticLife::of_game(&game);
        let a9 = game.size().parse_point("A9").unwrap();
        let death = life.local_dead.iter().find(|d| d.stones.contains(a9));
        let death = death.expect("the corner is proven dead");
        let mv = death.killing_move(&game).expect("a killing move");
        assert!(game.is_legal(Color::Black, Move::Play(mv)));
        assert!(death.liberties.contains(mv), "{}", game.size().vertex(mv));
    }

    /// The bent four in the corner (the first board of tests/data/life/bent-four.txt),
    /// from the diagram file the board's and the engine's tests share.
    const BENT_FOUR: &str = include_str!("../../../../tests/data/diagrams/bent-four-corner.txt");

    /// White's answer: the largest capture it has, else A8 (where the empty eye
    /// space lives, White to move), else a pass.
    fn defend(game: &Game) -> Move {
        let a8 = Move::Play(game.size().parse_point("A8").unwrap());
        let mut best = None;
        for p in game.legal_points(Color::White) {
            let mut g = game.clone();
            let taken = g.play(Color::White, Move::Play(p)).unwrap().captured;
            if taken > 0 && best.is_none_or(|(n, _)| taken > n) {
                best = Some((taken, Move::Play(p)));
            }
        }
        match best {
            Some((_, mv)) => mv,
            None if game.is_legal(Color::White, a8) => a8,
            None => Move::Pass,
        }
    }

    #[test]
    fn the_killing_line_of_bent_four_captures_the_corner_against_a_defender_who_takes_stones() {
        for rules in [Rules::chinese(), Rules::japanese()] {
            let mut game = game_of(BENT_FOUR, rules);
            let d9 = game.size().parse_point("D9").unwrap();
            let life = StaticLife::of_game(&game);
            let death = *life
                .local_dead
                .iter()
                .find(|d| d.stones.contains(d9))
                .unwrap();
            let mut line = Vec::new();
            // The death proven on the first board gives every move of the line, also
            // once White has taken Black's stones and the corner, White to move,
            // would live (no death is proven there).
            while game.board().color_at(d9) == Some(Color::White) && line.len() < 20 {
                let mv = death
                    .killing_move(&game)
                    .unwrap_or_else(|| panic!("{rules:?}: no killing move after {line:?}"));
                line.push(game.size().vertex(mv).to_string());
                game.play(Color::Black, Move::Play(mv)).unwrap();
                if game.board().stones(Color::White).is_empty() {
                    break;
                }
                let answer = defend(&game);
                line.push(game.size().move_vertex(answer).to_string());
                game.play(Color::White, answer).unwrap();
            }
            assert!(
                game.board().stones(Color::White).is_empty(),
                "{rules:?}: {line:?}"
            );
        }
    }
}
