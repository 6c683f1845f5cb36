//! `includePolicy`: the move probabilities over the whole board, in KataGo's layout
//! (row by row from the top left, then pass; -1 for an illegal move): the policy
//! network's where the engine has one for the board's size (`--policy-net`), else the
//! move model's.

use tengen_board::{Game, Move};
use tengen_engine::{ModelKnowledge, PolicyNetFile};
use tengen_knowledge::NetScratch;
use tengen_knowledge::move_model::features::History;

/// The probabilities of the legal moves of the side to move (pass included), one
/// value a point from A19 (on 19×19) to T1, then pass; an illegal point is -1. The
/// values of legal moves are positive or zero and add up to 1. They are the network's
/// (`net`) when it serves the board's size (its own, or any side from `min_size` up:
/// `SearchParams::net_min_size`), else the softmax of the move model.
pub fn policy(
    model: &ModelKnowledge,
    net: Option<&PolicyNetFile>,
    min_size: usize,
    game: &Game,
) -> Vec<f64> {
    let net = net.filter(|net| net.serves(game.board(), min_size));
    let shares = weighed(model, net, game);
    // A network whose every legal probability underflowed to 0 says nothing: the
    // model's softmax then answers, so the values still add up to 1.
    if net.is_some() && !shares.iter().any(|&v| v > 0.0) {
        return weighed(model, None, game);
    }
    shares
}

/// [`policy`]'s values from the network (`net`, which serves the board) or, without
/// one, the model; a network's values may all be 0 (an underflow), which [`policy`]
/// does not pass on.
fn weighed(model: &ModelKnowledge, net: Option<&PolicyNetFile>, game: &Game) -> Vec<f64> {
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
    let rated = net.and_then(|net| {
        let net = net.net();
        let mut scratch = NetScratch::new(net);
        net.evaluate(board, c, &history, &mut scratch).ok()
    });
    // Each legal move's weight: the network's probability, or the model's strength
    // (then turned into a softmax).
    let weight = |mv: Move| match &rated {
        Some(out) => f64::from(out.of(mv)).max(0.0),
        None => f64::from(model.log_strength(board, c, mv, &history)),
    };
    let mut weights = vec![f64::NEG_INFINITY; n * n + 1];
    for p in size.points() {
        if game.is_legal(c, Move::Play(p)) {
            let (x, y) = size.coords(p);
            weights[(n - 1 - y) * n + x] = weight(Move::Play(p));
        }
    }
    weights[n * n] = weight(Move::Pass);
    let mut out: Vec<f64> = if rated.is_some() {
        weights
            .iter()
            .map(|&w| if w.is_finite() { w } else { -1.0 })
            .collect()
    } else {
        let top = weights.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        weights
            .iter()
            .map(|&g| if g.is_finite() { (g - top).exp() } else { -1.0 })
            .collect()
    };
    let total: f64 = out.iter().filter(|&&v| v >= 0.0).sum();
    if total > 0.0 {
        for v in out.iter_mut().filter(|v| **v >= 0.0) {
            *v /= total;
        }
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
        let p = policy(&model, None, 19, &game);
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

    /// The policy network of the engine's tests (a small random 19×19 net).
    fn fixture_net() -> PolicyNetFile {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../crates/knowledge/tests/data/policy-net/net.safetensors"
        );
        PolicyNetFile::load(path).unwrap()
    }

    #[test]
    fn the_network_answers_where_it_serves_the_board_and_the_model_elsewhere() {
        let model = ModelKnowledge::shipped();
        let net = fixture_net();
        let size = BoardSize::new(19).unwrap();
        let mut game = Game::new(size, Rules::chinese());
        for v in ["Q16", "D4", "Q4"] {
            let c = game.to_move();
            game.play(c, size.parse_move(v).unwrap()).unwrap();
        }
        let with_net = policy(&model, Some(&net), 19, &game);
        let without = policy(&model, None, 19, &game);
        assert_eq!(with_net.len(), 19 * 19 + 1);
        assert_ne!(with_net, without);
        // The same points are illegal, and the legal ones share one.
        let illegal = |p: &[f64]| p.iter().map(|&v| v == -1.0).collect::<Vec<_>>();
        assert_eq!(illegal(&with_net), illegal(&without));
        assert_eq!(with_net.iter().filter(|&&v| v == -1.0).count(), 3);
        let sum: f64 = with_net.iter().filter(|&&v| v >= 0.0).sum();
        assert!((sum - 1.0).abs() < 1e-6, "{sum}");
        // Each value is the network's own probability of the move, renormalised over
        // the moves the game allows (all of them here).
        let mut scratch = NetScratch::new(net.net());
        let history = History {
            last: Some(size.parse_move("Q4").unwrap()),
            before: Some(size.parse_move("D4").unwrap()),
        };
        let out = net
            .net()
            .evaluate(game.board(), Color::White, &history, &mut scratch)
            .unwrap();
        let k10 = size.parse_point("K10").unwrap();
        assert!((with_net[9 * 19 + 9] - f64::from(out.point(k10))).abs() < 1e-6);
        // On 9×9 the 19×19 network gives way to the model.
        let small = Game::new(BoardSize::new(9).unwrap(), Rules::chinese());
        assert_eq!(
            policy(&model, Some(&net), 19, &small),
            policy(&model, None, 19, &small)
        );
        // Unless net_min_size asks for it there too.
        assert_ne!(
            policy(&model, Some(&net), 9, &small),
            policy(&model, None, 9, &small)
        );
    }
}
