//! `includePolicy`: the move model's probabilities over the whole board, in KataGo's
//! layout (row by row from the top left, then pass; -1 for an illegal move).

use tengen_board::{Game, Move};
use tengen_engine::ModelKnowledge;
use tengen_engine::shape::features::History;

/// The move model's softmax over the legal moves of the side to move (pass included),
/// one value a point from A19 (on 19×19) to T1, then pass; an illegal point is -1.
/// The values of legal moves are positive and add up to 1.
pub fn policy(model: &ModelKnowledge, game: &Game) -> Vec<f64> {
    let size = game.size();
    let n = size.get();
    let board = game.board();
    let c = game.to_move();
    // The two moves before the position, as the search's prior reads them.
    let mut played = game
        .moves()
        .skip(game.move_count().saturating_sub(2))
        .map(|m| m.1);
    let (before, last) = match (played.next(), played.next()) {
        (Some(a), Some(b)) => (Some(a), Some(b)),
        (one, None) => (None, one),
        (None, Some(_)) => (None, None),
    };
    let history = History { last, before };
    let mut logits = vec![f64::NEG_INFINITY; n * n + 1];
    for p in size.points() {
        if game.is_legal(c, Move::Play(p)) {
            let (x, y) = size.coords(p);
            logits[(n - 1 - y) * n + x] =
                f64::from(model.log_strength(board, c, Move::Play(p), &history));
        }
    }
    logits[n * n] = f64::from(model.log_strength(board, c, Move::Pass, &history));
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut out: Vec<f64> = logits
        .iter()
        .map(|&g| if g.is_finite() { (g - top).exp() } else { -1.0 })
        .collect();
    let total: f64 = out.iter().filter(|&&v| v >= 0.0).sum();
    for v in out.iter_mut().filter(|v| **v >= 0.0) {
        *v /= total;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_board::{BoardSize, Color, Rules};

    #[test]
    fn legal_moves_share_one_and_occupied_points_are_minus_one() {
        let size = BoardSize::new(9).unwrap();
        let mut game = Game::new(size, Rules::chinese());
        game.play(Color::Black, size.parse_move("C7").unwrap())
            .unwrap();
        let model = ModelKnowledge::shipped();
        let p = policy(&model, &game);
        assert_eq!(p.len(), 82);
        // C7 is row 2 from the top (index 2 * 9 + 2).
        assert_eq!(p[2 * 9 + 2], -1.0);
        assert_eq!(p.iter().filter(|&&v| v == -1.0).count(), 1);
        let sum: f64 = p.iter().filter(|&&v| v >= 0.0).sum();
        assert!((sum - 1.0).abs() < 1e-9, "{sum}");
        assert!(p.iter().all(|&v| v == -1.0 || v > 0.0));
        // The model prefers playing on the board to passing early.
        let best = p[..81].iter().copied().fold(0.0, f64::max);
        assert!(best > p[81], "{best} vs pass {}", p[81]);
    }
}
