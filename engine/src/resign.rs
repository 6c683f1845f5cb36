//! The resign rule's memory: for each colour, how many of its searches in a row found
//! the game lost, and the game that colour's last search saw.
//!
//! One engine may be asked for both colours' moves (a GUI's engine-against-itself
//! mode), so the streaks are kept per colour: the winner's searches must not reset the
//! loser's. A streak only carries over to a game that follows on from the one it was
//! counted in: the same start, that game's moves, then one or two more (the move played
//! and the opponent's reply). Anything else starts it afresh: a new game, an undo, the
//! same position searched again (it was counted already), or a jump to a position the
//! colour's searches did not see (a GUI moving around the game tree).

use tengen_board::{ByColor, Color, Game, Hash, Move};

/// Most moves a game may add between two searches of one colour for the streak to go
/// on: that colour's own move and the opponent's reply.
const FOLLOW_ON_MOVES: usize = 2;

/// One colour's streak and the game its last search saw.
#[derive(Clone, Debug, Default)]
struct Streak {
    /// Consecutive searches with a low win rate.
    count: u32,
    /// The start position and moves of the game at the last search.
    start: Option<Hash>,
    moves: Vec<(Color, Move)>,
}

impl Streak {
    /// Whether `game` is the game of the last search followed by one to
    /// [`FOLLOW_ON_MOVES`] moves.
    fn follows_on(&self, game: &Game, moves: &[(Color, Move)]) -> bool {
        let seen = self.moves.len();
        self.start == Some(game.start_board().hash())
            && moves.len() > seen
            && moves.len() - seen <= FOLLOW_ON_MOVES
            && moves[..seen] == self.moves[..]
    }
}

/// Both colours' resign streaks.
#[derive(Clone, Debug, Default)]
pub(crate) struct ResignStreaks {
    by_color: ByColor<Streak>,
}

impl ResignStreaks {
    /// Counts a search for `color` in `game`, `low` when its win rate was under the
    /// resign threshold, and returns that colour's streak, this search included.
    pub(crate) fn record(&mut self, game: &Game, color: Color, low: bool) -> u32 {
        let moves: Vec<(Color, Move)> = game.moves().collect();
        let streak = &mut self.by_color[color];
        let carried = if streak.follows_on(game, &moves) {
            streak.count
        } else {
            0
        };
        streak.count = if low { carried + 1 } else { 0 };
        streak.start = Some(game.start_board().hash());
        streak.moves = moves;
        streak.count
    }

    /// Forgets both streaks.
    pub(crate) fn clear(&mut self) {
        *self = ResignStreaks::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_board::{BoardSize, Rules};

    fn game() -> Game {
        Game::new(BoardSize::new(9).unwrap(), Rules::chinese())
    }

    /// A new 9×9 game and the streaks after Black's first search, a low one: Black's
    /// streak is 1.
    fn after_a_low_black_search() -> (Game, ResignStreaks) {
        let g = game();
        let mut s = ResignStreaks::default();
        assert_eq!(s.record(&g, Color::Black, true), 1);
        (g, s)
    }

    #[test]
    fn each_colour_counts_its_own_searches() {
        let (mut g, mut s) = after_a_low_black_search();
        g.play(Color::Black, Move::Pass).unwrap();
        assert_eq!(s.record(&g, Color::White, false), 0);
        g.play(Color::White, Move::Pass).unwrap();
        assert_eq!(s.record(&g, Color::Black, true), 2);
    }

    #[test]
    fn a_jump_past_unseen_moves_starts_afresh() {
        let (mut g, mut s) = after_a_low_black_search();
        for _ in 0..4 {
            let c = g.to_move();
            g.play(c, Move::Pass).unwrap();
        }
        assert_eq!(s.record(&g, Color::Black, true), 1);
    }

    #[test]
    fn the_same_position_again_or_an_undo_starts_afresh() {
        let (mut g, mut s) = after_a_low_black_search();
        assert_eq!(s.record(&g, Color::Black, true), 1);
        g.play(Color::Black, Move::Pass).unwrap();
        assert_eq!(s.record(&g, Color::Black, true), 2);
        g.undo().unwrap();
        assert_eq!(s.record(&g, Color::Black, true), 1);
    }

    #[test]
    fn a_high_win_rate_or_a_clear_ends_the_streak() {
        let mut g = game();
        let mut s = ResignStreaks::default();
        let mut next = |s: &mut ResignStreaks, low: bool| {
            g.play(g.to_move(), Move::Pass).unwrap();
            s.record(&g, Color::White, low)
        };
        next(&mut s, true);
        assert_eq!(next(&mut s, true), 2);
        assert_eq!(next(&mut s, false), 0);
        next(&mut s, true);
        s.clear();
        assert_eq!(next(&mut s, true), 1);
    }
}
