//! Dynamic komi for handicap games: the komi the search plays for while it chooses
//! a move, moved towards White by a share of the handicap that shrinks to nothing as
//! the game goes on, so that neither side's win rate starts pinned near 0 or 1.
//!
//! Giving stones, White would otherwise see every move lose and play at random;
//! taking them, Black would see every move win and play slack ones. With the shift,
//! White plays for a smaller deficit and Black for a larger lead, both shrinking
//! linearly to the real komi by [`DECAY_SHARE`] of the board's points in moves. The
//! shift is the same for either colour to move (it always favours White, the side
//! that gave the stones); analysis, scoring and the pass judgement keep the real komi.

use tengen_board::{Game, Scoring};

use crate::playout::Komi;

/// The moves over which the shift shrinks to 0, as a share of the board's points
/// (199 moves on 19×19, 93 on 13×13, 45 on 9×9).
pub const DECAY_SHARE: f64 = 0.55;

/// The points added to the komi of `game`'s search (White's side) when each
/// handicap stone is worth `per_stone` points at the start: `per_stone × handicap ×
/// (1 − moves / (DECAY_SHARE × area))`, never below 0; 0 in an even game or when
/// `per_stone` is 0.
pub fn handicap_shift(game: &Game, per_stone: f64) -> f64 {
    let stones = f64::from(game.handicap());
    if stones == 0.0 || per_stone <= 0.0 {
        return 0.0;
    }
    let span = DECAY_SHARE * game.size().area() as f64;
    let left = (1.0 - game.move_count() as f64 / span).max(0.0);
    per_stone * stones * left
}

/// What the playouts of `game`'s search count against, with `shift` points more for
/// White (the dynamic komi): under area counting the komi with the handicap
/// compensation ([`Game::effective_komi`]); under territory counting the komi alone,
/// the area count then losing the stones each side placed, handicap stones included
/// ([`Komi::against`]).
pub fn playout_komi(game: &Game, shift: f64) -> Komi {
    let points = game.effective_komi() + shift;
    match game.rules().scoring {
        Scoring::Area => Komi::area(points),
        Scoring::Territory => Komi::territory(points),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_board::{BoardSize, Color, Move, Rules};

    fn handicap_game(size: u32, stones: u32) -> Game {
        let mut game = Game::new(BoardSize::new(size).unwrap(), Rules::default());
        if stones > 0 {
            game.place_fixed_handicap(stones).unwrap();
        }
        game
    }

    #[test]
    fn the_playouts_count_area_or_territory_as_the_rules_do() {
        let size = BoardSize::new(13).unwrap();
        let mut chinese = Game::new(size, Rules::default().with_komi(0.5).unwrap());
        chinese.place_fixed_handicap(3).unwrap();
        // Area counting: the komi with a point a handicap stone (Rules::default's
        // compensation), and the shift.
        assert_eq!(
            playout_komi(&chinese, 2.0),
            Komi::area(chinese.effective_komi() + 2.0)
        );
        // Territory counting: the komi alone; the three handicap stones come off
        // Black's area as stones it placed.
        let mut japanese = Game::new(size, Rules::japanese().with_komi(0.5).unwrap());
        japanese.place_fixed_handicap(3).unwrap();
        let komi = playout_komi(&japanese, 0.0);
        assert_eq!(komi, Komi::territory(0.5));
        assert_eq!(komi.against(japanese.board()), 3.5);
    }

    #[test]
    fn the_shift_is_the_handicap_at_first_and_shrinks_to_nothing() {
        let mut game = handicap_game(13, 3);
        assert_eq!(handicap_shift(&game, 7.0), 21.0);
        assert_eq!(handicap_shift(&game, 0.0), 0.0);
        // 13×13: 169 points, 92.95 moves to decay; passes count as moves.
        let mut c = Color::White;
        for _ in 0..46 {
            game.play(c, Move::Pass).unwrap();
            c = c.opponent();
        }
        let half = handicap_shift(&game, 7.0);
        assert!((half - 21.0 * (1.0 - 46.0 / 92.95)).abs() < 1e-9, "{half}");
        for _ in 46..93 {
            game.play(c, Move::Pass).unwrap();
            c = c.opponent();
        }
        assert_eq!(handicap_shift(&game, 7.0), 0.0);
    }

    #[test]
    fn an_even_game_has_no_shift() {
        assert_eq!(handicap_shift(&handicap_game(19, 0), 7.0), 0.0);
    }
}
