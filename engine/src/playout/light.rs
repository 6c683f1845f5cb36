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
        .pick_empty(
            |k| below(rng, k),
            |b, p| b.is_playable(c, p),
        )
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
    Outcome {
        score: f64::from(areas.black.count()) - f64::from(areas.white.count()) - komi,
        moves,
        black_area: areas.black,
        white_area: areas.white,
    }
}
