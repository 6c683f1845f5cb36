//! The move model as the search reads it: a [`MoveModel`] (tactical features, 3×3
//! shapes, large patterns) with the pattern hasher its features need, rating one
//! move at a time. What the tree's prior makes of the ratings (virtual wins, the
//! order of progressive widening) is the engine's (`prior::model`).

use tengen_board::{Board, Color, Move};

use crate::move_model::features::{History, pass_features, point_features};
use crate::move_model::pattern::PatternHasher;
use crate::move_model::{MoveModel, MoveScorer};

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
    /// The model of `crates/knowledge/data/moves.txt`.
    pub fn shipped() -> ModelKnowledge {
        // Compiled in and read by a unit test: a failure is a broken build.
        let model =
            MoveModel::parse(SHIPPED).expect("crates/knowledge/data/moves.txt is a valid table");
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::move_model::features::two_ataris;

    #[test]
    fn a_table_without_groups_is_rated_without_them() {
        use crate::move_model::features::GROUPS;
        let b = two_ataris();
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
}
