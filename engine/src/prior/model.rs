//! The learned move model as prior knowledge: a new node's candidates rated by the
//! move model ([`ModelKnowledge`]: tactical features, 3×3 shapes, large patterns),
//! their strengths turned into virtual wins and/or an order for progressive widening
//! ([`ModelPrior`](crate::config::ModelPrior)).
//!
//! A rating is a function of the position and the two moves before it alone
//! ([`History`]), so a seeded one-thread search stays repeatable. Widening stores
//! every edge, in the model's order; `search/descend.rs` only limits how many of them
//! selection sees (`SearchParams::width`).

use tengen_board::{Board, Color, Move};

use super::Candidate;
use crate::config::SearchParams;
use tengen_knowledge::ModelKnowledge;
use tengen_knowledge::NetPolicy;
use tengen_knowledge::move_model::features::History;

/// The position whose candidates are rated: `c` to move on `board`, after the two
/// moves of `history`.
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    /// The board.
    pub board: &'a Board,
    /// The player to move.
    pub c: Color,
    /// The two moves before the position (the model's distance features).
    pub history: &'a History,
}

/// Rates the candidates of `at.c` on `at.board` by `model` and applies
/// `params.model_prior`: each candidate's share of the softmax, times `model_weight`,
/// as extra won virtual visits; and/or the candidates sorted by strength, strongest
/// first (ties keep their order), for progressive widening. Does nothing when the
/// prior is off and no network rated the position.
///
/// With `net` (the policy network's probabilities of this position) a candidate's
/// share is `(1 − net_blend) × s_mm + net_blend × s_net`, `s_net` its share of the
/// network's probabilities over the candidates (each times the model's strength to
/// the power `net_model_power`, when that is above 0), and `s_mm` the model's share
/// when the model prior adds wins (else 0); the extra visits add up to `net_weight`
/// (times `net_blend` when the model adds none).
pub fn apply(
    model: &ModelKnowledge,
    at: Position<'_>,
    params: &SearchParams,
    net: Option<&NetPolicy>,
    cands: &mut Vec<Candidate>,
) {
    let Position { board, c, history } = at;
    let mode = params.model_prior;
    if (!mode.is_on() && net.is_none()) || cands.is_empty() {
        return;
    }
    // At a node the network rated with the whole blend and no part of the model in
    // its product, the model's shares weigh 0 and the order is the blend's: its
    // ratings are not needed.
    let power = (params.net_model_power as f32).max(0.0);
    let network_alone = net.is_some() && params.net_blend >= 1.0 && power == 0.0;
    let product = net.is_some() && power > 0.0;
    let mut rated: Vec<(f32, Candidate)> = if (mode.is_on() && !network_alone) || product {
        cands
            .iter()
            .map(|&cand| (model.log_strength(board, c, cand.0, history), cand))
            .collect()
    } else {
        cands.iter().map(|&cand| (0.0, cand)).collect()
    };
    let weight = params.model_weight as f32;
    let top = rated.iter().map(|r| r.0).fold(f32::NEG_INFINITY, f32::max);
    let total: f32 = rated.iter().map(|r| (r.0 - top).exp()).sum();
    match net {
        None if mode.wins() => {
            for (g, (_, visits, wins)) in &mut rated {
                let extra = weight * (*g - top).exp() / total;
                *visits += extra;
                *wins += extra;
            }
        }
        None => {}
        Some(net) => {
            let weight = params.net_weight as f32;
            let strengths: Vec<(f32, Move)> = rated.iter().map(|r| (r.0, r.1.0)).collect();
            let shares = blended(&strengths, params, net, total);
            for ((g, (_, visits, wins)), share) in rated.iter_mut().zip(shares) {
                *visits += weight * share;
                *wins += weight * share;
                // Widening orders by the blend (the model's rating's place).
                *g = share;
            }
        }
    }
    if mode.widens() {
        rated.sort_by(|a, b| b.0.total_cmp(&a.0));
    }
    cands.clear();
    cands.extend(rated.into_iter().map(|r| r.1));
}

/// Each candidate's share of the network's blend, for `strengths` (each candidate's
/// move and the model's log-strength, or 0 where [`apply`] needs none): `(1 −
/// net_blend) × s_mm + net_blend × s_net`, as [`apply`] documents; `total` is the sum
/// of `exp(g − top)` over the candidates, `top` their strongest `g`.
fn blended(
    strengths: &[(f32, Move)],
    params: &SearchParams,
    net: &NetPolicy,
    total: f32,
) -> Vec<f32> {
    // The network times the model's strength to this power, when it is above 0.
    let power = (params.net_model_power as f32).max(0.0);
    let product = power > 0.0;
    let mode = params.model_prior;
    let blend = (params.net_blend as f32).clamp(0.0, 1.0);
    let top = strengths
        .iter()
        .map(|r| r.0)
        .fold(f32::NEG_INFINITY, f32::max);
    // The network's probability, times the model's strength (relative to the
    // strongest candidate's) to the power `power` when that is above 0.
    let net_of = |g: f32, mv: Move| {
        let p = net.probability(mv);
        if product {
            p * (power * (g - top)).exp()
        } else {
            p
        }
    };
    let net_total: f32 = strengths.iter().map(|&(g, mv)| net_of(g, mv)).sum();
    let even = 1.0 / strengths.len() as f32;
    strengths
        .iter()
        .map(|&(g, mv)| {
            let s_net = if net_total > 0.0 {
                net_of(g, mv) / net_total
            } else {
                even
            };
            let s_mm = if mode.wins() {
                (g - top).exp() / total
            } else {
                0.0
            };
            (1.0 - blend) * s_mm + blend * s_net
        })
        .collect()
}

/// The policy the prior of a node with the candidate `moves` of `at.c` on `at.board` was
/// shaped by, one share a move, in the order of `moves`, adding up to 1: where the
/// policy network rated the position (`net`), each move's share of the blend [`apply`]
/// gives the prior; without a rating, the move model's softmax over the candidates
/// (the shares the model prior's virtual wins follow). KataGo's `prior`, the policy
/// its search used.
pub fn policy_shares(
    model: &ModelKnowledge,
    at: Position<'_>,
    params: &SearchParams,
    net: Option<&NetPolicy>,
    moves: &[Move],
) -> Vec<f32> {
    let Position { board, c, history } = at;
    if moves.is_empty() {
        return Vec::new();
    }
    let power = (params.net_model_power as f32).max(0.0);
    let product = net.is_some() && power > 0.0;
    let network_alone = net.is_some() && params.net_blend >= 1.0 && power == 0.0;
    let strengths: Vec<(f32, Move)> = moves
        .iter()
        .map(|&mv| {
            let needed = net.is_none() || product || (params.model_prior.is_on() && !network_alone);
            let g = if needed {
                model.log_strength(board, c, mv, history)
            } else {
                0.0
            };
            (g, mv)
        })
        .collect();
    let top = strengths
        .iter()
        .map(|r| r.0)
        .fold(f32::NEG_INFINITY, f32::max);
    let total: f32 = strengths.iter().map(|r| (r.0 - top).exp()).sum();
    let shares = match net {
        Some(net) => blended(&strengths, params, net, total),
        None => strengths
            .iter()
            .map(|r| (r.0 - top).exp() / total)
            .collect(),
    };
    let sum: f32 = shares.iter().sum();
    if sum > 0.0 && sum.is_finite() {
        shares.iter().map(|s| s / sum).collect()
    } else {
        vec![1.0 / moves.len() as f32; moves.len()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ModelPrior;
    use tengen_board::{Move, parse_diagram};

    fn even(board: &Board) -> Vec<Candidate> {
        let mut out: Vec<Candidate> = board
            .empty_points()
            .iter()
            .map(|&p| (Move::Play(p), 20.0, 10.0))
            .collect();
        out.push((Move::Pass, 20.0, 3.0));
        out
    }

    /// A fight in the middle of a 7×7 board, the shipped model and no moves before.
    fn fight() -> (Board, ModelKnowledge, History) {
        let board = parse_diagram(
            ". . . . . . .
             . . . . . . .
             . . X O . . .
             . X O . O . .
             . . X O . . .
             . . . . . . .
             . . . . . . .",
        )
        .unwrap();
        (board, ModelKnowledge::shipped(), History::default())
    }

    /// Black to play on `board` after `history`.
    fn black_to_play<'a>(board: &'a Board, history: &'a History) -> Position<'a> {
        Position {
            board,
            c: Color::Black,
            history,
        }
    }

    #[test]
    fn the_shares_add_up_to_the_weight_and_widening_sorts() {
        let (b, k, h) = fight();
        let at = black_to_play(&b, &h);
        let params = |model_prior| SearchParams {
            model_prior,
            ..SearchParams::default()
        };
        let base = even(&b);
        let mut off = base.clone();
        apply(&k, at, &params(ModelPrior::Off), None, &mut off);
        assert_eq!(off, base);
        let mut wins = base.clone();
        apply(&k, at, &params(ModelPrior::Wins), None, &mut wins);
        let extra: f32 = wins.iter().map(|c| c.1).sum::<f32>() - 20.0 * base.len() as f32;
        assert!((extra - 100.0).abs() < 1e-2, "{extra}");
        assert!(wins.iter().zip(&base).all(|(w, b)| w.0 == b.0));
        let mut widen = base.clone();
        apply(&k, at, &params(ModelPrior::Widen), None, &mut widen);
        assert_eq!(widen.len(), base.len());
        assert!(widen.iter().all(|c| c.1 == 20.0));
        let logs: Vec<f32> = widen
            .iter()
            .map(|c| k.log_strength(&b, Color::Black, c.0, &h))
            .collect();
        assert!(logs.windows(2).all(|w| w[0] >= w[1]), "{logs:?}");
    }

    #[test]
    fn a_product_with_the_model_reorders_an_even_network_by_the_model() {
        let (b, k, h) = fight();
        let at = black_to_play(&b, &h);
        let size = b.size();
        // The network: even over every point and the pass.
        let net = NetPolicy::new(size, |_| 1.0, 1.0);
        let params = |net_model_power| SearchParams {
            net_model_power,
            ..SearchParams::default()
        };
        let base = even(&b);
        let share = |c: &Candidate, b: &Candidate| c.1 - b.1;
        let mut alone = base.clone();
        apply(&k, at, &params(0.0), Some(&net), &mut alone);
        // The network alone: every candidate the same share of net_weight.
        let first = share(&alone[0], &base[0]);
        assert!(
            alone
                .iter()
                .zip(&base)
                .all(|(a, b)| (share(a, b) - first).abs() < 1e-4)
        );
        let mut product = base.clone();
        apply(&k, at, &params(1.0), Some(&net), &mut product);
        let total: f32 = product.iter().zip(&base).map(|(a, b)| share(a, b)).sum();
        assert!((total - 300.0).abs() < 1e-2, "{total}");
        // With an even network, the product's shares are the model's own.
        let strength = |c: &Candidate| k.log_strength(&b, Color::Black, c.0, &h);
        let top = product
            .iter()
            .map(strength)
            .fold(f32::NEG_INFINITY, f32::max);
        let sum: f32 = product.iter().map(|c| (strength(c) - top).exp()).sum();
        for (p, b0) in product.iter().zip(&base) {
            let want = 300.0 * (strength(p) - top).exp() / sum;
            assert!(
                (share(p, b0) - want).abs() < 1e-2,
                "{} {want}",
                share(p, b0)
            );
        }
        // The capture at D4 is the model's favourite, and now the prior's.
        let d4 = Move::Play(size.parse_point("D4").unwrap());
        let best = product
            .iter()
            .zip(&base)
            .max_by(|x, y| share(x.0, x.1).total_cmp(&share(y.0, y.1)))
            .unwrap();
        assert_eq!(best.0.0, d4);
    }
}
