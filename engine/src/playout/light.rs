//! The light playout on the [`LightBoard`]: uniformly random legal moves that do not
//! fill the mover's own eye, to two passes, scored by area.
//!
//! It plays exactly the playout [`Policy::run`](super::Policy::run) plays with
//! [`PolicyKind::Light`](super::PolicyKind::Light) on a [`Board`](tengen_board::Board)
//! from the same position and RNG state (the same moves, AMAF records and score), on a
//! board whose groups keep pseudo-liberties instead of exact counts.

use tengen_board::{Color, LightBoard, Move};

use super::{Amaf, Outcome, Rng, below};

/// A uniformly random legal move for `c` that does not fill its own eye, or a pass.
#[inline(always)]
pub fn light_board_move<const CAP: usize, const STRIDE: usize>(
    board: &mut LightBoard<CAP, STRIDE>,
    c: Color,
    rng: &mut Rng,
) -> Move {
    board
        .pick_empty(|k| below(rng, k), |b, p| b.is_playable(c, p))
        .map_or(Move::Pass, Move::Play)
}

/// Plays light moves from `board` with `to_move` to play until both sides pass (or
/// three times the board area in moves), records first plays in `amaf` and scores by
/// area with `komi`: [`Policy::run`](super::Policy::run)'s light playout.
pub fn light_playout<const CAP: usize, const STRIDE: usize>(
    board: &mut LightBoard<CAP, STRIDE>,
    to_move: Color,
    komi: f64,
    rng: &mut Rng,
    amaf: &mut Amaf,
) -> Outcome {
    let cap = 3 * board.size().area() as u32;
    let mut c = to_move;
    let mut passes = 0;
    let mut moves = 0;
    while passes < 2 && moves < cap {
        match light_board_move(board, c, rng) {
            Move::Play(p) => {
                board.play(c, p);
                amaf.record(c, p);
                passes = 0;
            }
            Move::Pass => {
                board.pass();
                passes += 1;
            }
        }
        moves += 1;
        c = c.opponent();
    }
    // The rule of `score_areas`, read from the neighbour counts of the empty points.
    let areas = board.areas();
    let score = f64::from(areas.black.count()) - f64::from(areas.white.count()) - komi;
    let mut out = Outcome {
        score,
        moves,
        black_area: areas.black,
        white_area: areas.white,
        won_by: super::winner_by_sign(score),
    };
    out.settle_draw(rng);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::BenchPosition;
    use crate::config::HeavyParams;
    use crate::playout::{Policy, PolicyKind};
    use rand::SeedableRng;
    use tengen_board::{
        Board, BoardSize, LightBoard9, LightBoard13, LightBoard19, LightBoardAny, Point,
    };

    /// Plays `n` playouts from `start` both ways (the light board of type
    /// `LightBoard<CAP, STRIDE>` and `Policy::run` on the exact board) from the same RNG
    /// state and asserts the same outcomes, AMAF maps and final stones.
    fn same_playouts<const CAP: usize, const STRIDE: usize>(
        start: &Board,
        to_move: Color,
        n: usize,
        seed: u64,
    ) {
        let policy = Policy::new(PolicyKind::Light, HeavyParams::default());
        let light_start = LightBoard::<CAP, STRIDE>::from_board(start).unwrap();
        let mut light = light_start.clone();
        let mut exact = start.clone();
        let (mut rl, mut re) = (Rng::seed_from_u64(seed), Rng::seed_from_u64(seed));
        let (mut al, mut ae) = (Amaf::default(), Amaf::default());
        let size = start.size();
        for g in 0..n {
            light.copy_from(&light_start);
            exact.copy_from(start);
            al.clear();
            ae.clear();
            let ol = light_playout(&mut light, to_move, 6.5, &mut rl, &mut al);
            let oe = policy.run(&mut exact, to_move, None, 6.5, &mut re, &mut ae, None);
            let what = format!("{size}x{size} playout {g}");
            assert_eq!((ol.moves, ol.score), (oe.moves, oe.score), "{what}");
            assert_eq!(ol.black_area, oe.black_area, "{what}");
            assert_eq!(ol.white_area, oe.white_area, "{what}");
            for c in Color::ALL {
                assert_eq!(light.stones(c), exact.stones(c), "{what}");
            }
            let points: Vec<Point> = size.points().collect();
            for &p in &points {
                assert_eq!(al.first(p), ae.first(p), "{what}: AMAF at {p:?}");
            }
        }
    }

    #[test]
    fn light_board_playouts_are_the_exact_boards_on_every_size() {
        for n in 2..=25u32 {
            let size = BoardSize::new(n).unwrap();
            same_playouts::<1024, 0>(&Board::new(size), Color::Black, 20, u64::from(n));
        }
        let (nine, thirteen, nineteen) = (
            Board::new(BoardSize::new(9).unwrap()),
            Board::new(BoardSize::new(13).unwrap()),
            Board::new(BoardSize::new(19).unwrap()),
        );
        same_playouts::<128, 10>(&nine, Color::White, 100, 1);
        same_playouts::<256, 14>(&thirteen, Color::Black, 30, 2);
        same_playouts::<512, 20>(&nineteen, Color::Black, 20, 3);
        // The aliases are these types.
        let _: [Option<(LightBoard9, LightBoard13, LightBoard19, LightBoardAny)>; 0] = [];
    }

    #[test]
    fn light_board_playouts_from_a_middle_game_are_the_exact_boards() {
        let pos = BenchPosition::midgame19();
        same_playouts::<512, 20>(&pos.board, pos.to_move, 20, 9);
        same_playouts::<1024, 0>(&pos.board, pos.to_move, 20, 10);
    }

    #[test]
    fn light_board_areas_follow_score_finished_on_unfinished_positions() {
        // Positions with empty points next to both colours, next to none and next to
        // one: the middle game and every prefix of a random game.
        let mut positions = vec![BenchPosition::midgame19().board];
        let mut b = Board::new(BoardSize::new(7).unwrap());
        let mut rng = Rng::seed_from_u64(5);
        let mut c = Color::Black;
        for _ in 0..60 {
            if let Move::Play(p) = crate::playout::light_move(&mut b, c, &mut rng) {
                b.play_unchecked(c, Move::Play(p));
            }
            positions.push(b.clone());
            c = c.opponent();
        }
        for board in &positions {
            let want = crate::playout::score_finished(board, 0.0, 0);
            let areas = LightBoardAny::from_board(board).unwrap().areas();
            assert_eq!(areas.black, want.black_area, "{board:?}");
            assert_eq!(areas.white, want.white_area, "{board:?}");
        }
    }
}
