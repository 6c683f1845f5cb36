//! The learned move model as prior knowledge: a new node's candidates rated by
//! [`MoveModel`] (tactical features, 3×3 shapes, large patterns), their strengths
//! turned into virtual wins and/or an order for progressive widening
//! ([`ModelPrior`](crate::config::ModelPrior)).

use tengen_board::{Board, Color, Move};

use super::Candidate;
use crate::config::SearchParams;
use crate::shape::features::{History, pass_features, point_features};
use crate::shape::model::{MoveModel, MoveScorer};
use crate::shape::pattern::PatternHasher;

/// The shipped move table, compiled in.
const SHIPPED: &str = include_str!("../../data/moves.txt");

/// A move model and the pattern hasher its features need, shared read-only by every
/// thread.
#[derive(Clone, Debug)]
pub struct ModelKnowledge {
    model: MoveModel,
    hasher: PatternHasher,
}

impl ModelKnowledge {
    /// The model of `engine/data/moves.txt`.
    pub fn shipped() -> ModelKnowledge {
        // Compiled in and read by a unit test: a failure is a broken build.
        let model = MoveModel::parse(SHIPPED).expect("engine/data/moves.txt is a valid table");
        ModelKnowledge::new(model)
    }

    /// Knowledge from any model.
    pub fn new(model: MoveModel) -> ModelKnowledge {
        ModelKnowledge {
            model,
            hasher: PatternHasher::new(),
        }
    }

    /// The model's log strength of `mv` by `c` (a legal move); the groups the model
    /// was fitted without are neither computed nor weighed.
    pub fn log_strength(&self, board: &Board, c: Color, mv: Move, history: &History) -> f32 {
        let f = match mv {
            Move::Play(p) => {
                point_features(board, &self.hasher, c, p, history, self.model.left_out())
            }
            Move::Pass => pass_features(history),
        };
        self.model.log_strength(&f)
    }

    /// Rates the candidates of `c` on `board` and applies `params.model_prior`: each
    /// candidate's share of the softmax, times `model_weight`, as extra won virtual
    /// visits; and/or the candidates sorted by strength, strongest first (ties keep
    /// their order), for progressive widening. Does nothing when the prior is off.
    pub fn apply(
        &self,
        board: &Board,
        c: Color,
        history: &History,
        params: &SearchParams,
        cands: &mut Vec<Candidate>,
    ) {
        let mode = params.model_prior;
        if !mode.is_on() || cands.is_empty() {
            return;
        }
        let mut rated: Vec<(f32, Candidate)> = cands
            .iter()
            .map(|&cand| (self.log_strength(board, c, cand.0, history), cand))
            .collect();
        if mode.wins() {
            let top = rated.iter().map(|r| r.0).fold(f32::NEG_INFINITY, f32::max);
            let total: f32 = rated.iter().map(|r| (r.0 - top).exp()).sum();
            let weight = params.model_weight as f32;
            for (g, (_, visits, wins)) in &mut rated {
                let extra = weight * (*g - top).exp() / total;
                *visits += extra;
                *wins += extra;
            }
        }
        if mode.widens() {
            rated.sort_by(|a, b| b.0.total_cmp(&a.0));
        }
        cands.clear();
        cands.extend(rated.into_iter().map(|r| r.1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ModelPrior;
    use tengen_board::parse_diagram;

    fn even(board: &Board) -> Vec<Candidate> {
        let mut out: Vec<Candidate> = board
            .empty_points()
            .iter()
            .map(|&p| (Move::Play(p), 20.0, 10.0))
            .collect();
        out.push((Move::Pass, 20.0, 3.0));
        out
    }

    #[test]
    fn a_table_without_groups_is_rated_without_them() {
        use crate::shape::features::GROUPS;
        let b = parse_diagram(
            ". . . . .
             . X O . .
             X O X O .
             . . . . .
             . . . . .",
        )
        .unwrap();
        let size = b.size();
        let lines = |skip: &str| -> String {
            GROUPS
                .iter()
                .filter(|g| g.0 != skip)
                .map(|(name, n)| {
                    // Each value `v` of a group has strength `v + 1`.
                    let values: Vec<String> = (1..=*n).map(|v| v.to_string()).collect();
                    format!("tactical {name} {}\n", values.join(" "))
                })
                .collect()
        };
        let full = ModelKnowledge::new(MoveModel::parse(&lines("")).unwrap());
        let text = format!("without previous\n{}", lines("previous"));
        let without = ModelKnowledge::new(MoveModel::parse(&text).unwrap());
        // D2 is a quiet move: no capture, whatever the last move was.
        let mv = Move::Play(size.parse_point("D2").unwrap());
        let near = History {
            last: Some(Move::Play(size.parse_point("D3").unwrap())),
            before: None,
        };
        let far = History {
            last: Some(Move::Play(size.parse_point("A5").unwrap())),
            before: None,
        };
        let rate = |k: &ModelKnowledge, h: &History| k.log_strength(&b, Color::Black, mv, h);
        // D2 is next to D3 (distance 2: value 1, strength 2) and far from A5 (distance
        // 9: value 8); the distance to the last move counts only in the full table.
        assert_ne!(rate(&full, &near), rate(&full, &far));
        assert_eq!(rate(&without, &near), rate(&without, &far));
        let gain = rate(&full, &near) - rate(&without, &near);
        assert!((gain - 2f32.ln()).abs() < 1e-5, "{gain}");
    }

    #[test]
    fn the_shares_add_up_to_the_weight_and_widening_sorts() {
        let b = parse_diagram(
            ". . . . . . .
             . . . . . . .
             . . X O . . .
             . X O . O . .
             . . X O . . .
             . . . . . . .
             . . . . . . .",
        )
        .unwrap();
        let k = ModelKnowledge::shipped();
        let h = History::default();
        let params = |model_prior| SearchParams {
            model_prior,
            ..SearchParams::default()
        };
        let base = even(&b);
        let mut off = base.clone();
        k.apply(&b, Color::Black, &h, &params(ModelPrior::Off), &mut off);
        assert_eq!(off, base);
        let mut wins = base.clone();
        k.apply(&b, Color::Black, &h, &params(ModelPrior::Wins), &mut wins);
        let extra: f32 = wins.iter().map(|c| c.1).sum::<f32>() - 20.0 * base.len() as f32;
        assert!((extra - 100.0).abs() < 1e-2, "{extra}");
        assert!(wins.iter().zip(&base).all(|(w, b)| w.0 == b.0));
        let mut widen = base.clone();
        k.apply(&b, Color::Black, &h, &params(ModelPrior::Widen), &mut widen);
        assert_eq!(widen.len(), base.len());
        assert!(widen.iter().all(|c| c.1 == 20.0));
        let logs: Vec<f32> = widen
            .iter()
            .map(|c| k.log_strength(&b, Color::Black, c.0, &h))
            .collect();
        assert!(logs.windows(2).all(|w| w[0] >= w[1]), "{logs:?}");
    }
}
