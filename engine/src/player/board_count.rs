//! Passing under rules that count the board as it stands: Tromp-Taylor, the rules
//! CGOS plays (its server scores the final board with every stone on it alive, and
//! bans bots that leave dead stones). A dead opponent stone left standing in our area
//! turns that area into nobody's, so a pass that wins by a count with dead stones
//! removed can lose by this one.
//!
//! Under these rules the player never passes while opponent stones its judgement calls
//! dead stand on the board: it captures them first (the local search's killing line
//! where one is proven, else a move on a liberty of the weakest dead chain). And it
//! passes only when the count of the board as it stands is a win; otherwise it plays
//! on.

use tengen_board::{Bitboard, Board, Color, Game, Move, Point, Rules, Scoring};

use super::{Engine, SETTLE_PLAYOUTS, Turn};
use crate::analysis::Analysis;
use crate::cleanup::Proven;

/// Whether `rules` count the board as it stands at the end of the game, with no dead
/// stone removed: area scoring without a friendly pass (`Rules::friendly_pass`, KataGo's
/// `friendlyPassOk`), as Tromp-Taylor (`--rules tromp-taylor`; New Zealand shares the
/// rule set) and CGOS (`--rules cgos`) count.
pub fn counts_board_as_it_stands(rules: &Rules) -> bool {
    !rules.friendly_pass && rules.scoring == Scoring::Area
}

/// Whether `color` wins the game if it ends now, by the count of the board as it
/// stands (every stone alive, komi included).
pub fn wins_by_the_count(game: &Game, color: Color) -> bool {
    let margin = game.tromp_taylor_score().margin();
    match color {
        Color::Black => margin > 0.0,
        Color::White => margin < 0.0,
    }
}

impl Engine {
    /// The move for `turn.color` where the search's decision was a pass, under rules that
    /// count the board as it stands: a capture while opponent stones judged dead
    /// stand on the board, else the pass if the count of the board wins, else
    /// `non_pass` (the search's best move that is not a pass), which plays on.
    pub(super) fn pass_by_the_count(
        &mut self,
        turn: Turn<'_>,
        analysis: &Analysis,
        non_pass: Option<Move>,
    ) -> Move {
        let Turn { game, color, .. } = turn;
        let judged = self.settled(turn, Move::Pass, SETTLE_PLAYOUTS);
        let dead = game
            .board()
            .stones(color.opponent())
            .and(&judged.status.dead);
        if !dead.is_empty() {
            let fenced = match self.kills.next_move(game, &judged, color) {
                Proven::Kill(p) => return Move::Play(p),
                Proven::Avoid(area) => area,
            };
            if let Some(p) = capturing_move(game, color, &dead.and_not(&fenced), analysis) {
                return Move::Play(p);
            }
        }
        if wins_by_the_count(game, color) {
            Move::Pass
        } else {
            non_pass.unwrap_or(Move::Pass)
        }
    }
}

/// How [`capturing_move`] ranks a candidate, smallest first: the dead chain's
/// liberties, then the search's visits and our stone's liberties, most first.
type Preference = (u32, std::cmp::Reverse<u64>, std::cmp::Reverse<u32>);

/// A move of `color` that takes a liberty from one of the `dead` opponent chains,
/// the chain with the fewest liberties first; among its liberties the one the search
/// visited most, then the one that leaves our stone the most liberties. A move that
/// puts two or more of our stones in atari without capturing is never chosen (the
/// opponent would take them and might live); a lone stone thrown in is.
pub(crate) fn capturing_move(
    game: &Game,
    color: Color,
    dead: &Bitboard,
    analysis: &Analysis,
) -> Option<Point> {
    let board = game.board();
    let visits = |p: Point| {
        analysis
            .moves
            .iter()
            .find(|m| m.mv == Move::Play(p))
            .map_or(0, |m| m.visits)
    };
    let mut best: Option<(Preference, Point)> = None;
    let mut seen = Bitboard::EMPTY;
    for stone in dead.iter() {
        if seen.contains(stone) {
            continue;
        }
        for s in board.group_stones(stone) {
            seen.insert(s);
        }
        let chain_liberties = board.liberties(stone);
        for p in board.liberty_set(stone).iter() {
            if !game.is_legal(color, Move::Play(p)) {
                continue;
            }
            let Some(own) = liberties_after(board, color, p) else {
                continue;
            };
            let key = (
                chain_liberties,
                std::cmp::Reverse(visits(p)),
                std::cmp::Reverse(own),
            );
            if best.as_ref().is_none_or(|(k, _)| key < *k) {
                best = Some((key, p));
            }
        }
    }
    best.map(|(_, p)| p)
}

/// The liberties of `color`'s chain at `p` after it plays there, or `None` when the
/// move leaves two or more of our stones in atari without capturing anything.
fn liberties_after(board: &Board, color: Color, p: Point) -> Option<u32> {
    let mut after = board.clone();
    let info = after.play_unchecked(color, Move::Play(p));
    if after.color_at(p) != Some(color) {
        return None;
    }
    let liberties = after.liberties(p);
    let risky = liberties < 2 && info.captured == 0 && after.group_size(p) > 1;
    (!risky).then_some(liberties)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_board::parse_diagram;

    fn game_of(diagram: &str, rules: Rules) -> Game {
        Game::from_setup(&parse_diagram(diagram).unwrap(), rules).unwrap()
    }

    fn no_search() -> Analysis {
        Analysis::searched(0, std::time::Duration::ZERO)
    }

    #[test]
    fn tromp_taylor_counts_the_board_and_chinese_does_not() {
        assert!(counts_board_as_it_stands(&Rules::tromp_taylor()));
        assert!(counts_board_as_it_stands(&Rules::cgos()));
        assert!(!counts_board_as_it_stands(&Rules::chinese()));
        assert!(!counts_board_as_it_stands(&Rules::japanese()));
        assert!(!counts_board_as_it_stands(&Rules::aga()));
    }

    #[test]
    fn a_dead_stone_in_our_area_turns_it_into_nobodys() {
        // Black walls off the left five columns; White's lone stone in there makes
        // that whole area touch both colours.
        let row = ". . . . . X O . .";
        let mut rows = vec![row.to_string(); 9];
        rows[4] = ". O . . . X O . .".to_string();
        let komi = Rules::tromp_taylor().with_komi(0.5).unwrap();
        let game = game_of(&rows.join("\n"), komi);
        // Black: 9 stones. White: 9 + 1 stones, 18 points and the komi.
        assert!(!wins_by_the_count(&game, Color::Black));
        assert!(wins_by_the_count(&game, Color::White));
        // Without it Black has 54 points.
        let game = game_of(&[row; 9].join("\n"), komi);
        assert!(wins_by_the_count(&game, Color::Black));
    }

    #[test]
    fn the_capture_takes_a_liberty_of_the_weakest_dead_chain() {
        let diagram = ". . . X . . . . .
                       . O . X . . . . .
                       . . . X . . . . .
                       X X X X . . . . .
                       . . . . . . . . .
                       . . . . . . . . .
                       . . . . . . . . .
                       . . . . . . . . .
                       . . . . . . . . .";
        let game = game_of(diagram, Rules::tromp_taylor());
        let size = game.size();
        let b8 = size.parse_point("B8").unwrap();
        let dead: Bitboard = [b8].into_iter().collect();
        let p = capturing_move(&game, Color::Black, &dead, &no_search()).unwrap();
        assert!(game.board().liberty_set(b8).contains(p));
    }

    #[test]
    fn two_stones_are_never_put_in_atari_for_a_capture() {
        // Black's A9 would join A8-A7 with B9 its one liberty, capturing nothing.
        let diagram = ". . . . . . . . .
                       X O . . . . . . .
                       X O . . . . . . .
                       O . . . . . . . .
                       . . . . . . . . .
                       . . . . . . . . .
                       . . . . . . . . .
                       . . . . . . . . .
                       . . . . . . . . .";
        let board = parse_diagram(diagram).unwrap();
        let size = board.size();
        let a9 = size.parse_point("A9").unwrap();
        assert_eq!(liberties_after(&board, Color::Black, a9), None);
        // A stone elsewhere keeps its liberties.
        let c9 = size.parse_point("C9").unwrap();
        assert_eq!(liberties_after(&board, Color::Black, c9), Some(3));
    }
}
