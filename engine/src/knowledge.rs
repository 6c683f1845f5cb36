//! The engine's knowledge: every table it plays by, in one value that [`Engine`]
//! owns and lends read-only (an [`Arc`]) to the tree's prior and to the playouts
//! alike, so that a table is read once and never copied per thread or per setting.
//!
//! - [`PatternTable`]: the hand-written 3×3 patterns (MoGo's), for the heavy
//!   playout's pattern step and the prior when the learned shapes are off.
//! - [`ShapeWeights`]: the learned 3×3 shape strengths (`engine/data/shapes.txt`),
//!   for the prior and, under `HeavyParams::shape_threshold`, the playouts.
//! - [`ModelKnowledge`]: the move model (`engine/data/moves.txt`, or a table from
//!   `tengen learn fit`), for the prior under `SearchParams::model_prior`.
//! - [`LocalModel`]: the playouts' local strengths (`engine/data/playouts.txt`),
//!   built on first use: only a policy with `HeavyParams::local_model` set reads it.
//! - [`PlaneEncoder`]: a position as the policy network's input planes, for the
//!   network and for the export of its training positions alike.
//! - [`PolicyNet`]: the policy network's move probabilities (a weights file from
//!   the trainer in `crates/learn/python`), evaluated in pure Rust.
//!
//! The tables are compiled in; how they are fitted is the `tengen-learn` crate's.
//!
//! [`Engine`]: crate::Engine
//! [`Arc`]: std::sync::Arc

mod local;
mod model;
mod patterns;
mod planes;
mod policy_net;

use std::sync::OnceLock;

pub use local::LocalModel;
pub use model::ModelKnowledge;
pub use patterns::PatternTable;
pub use planes::{PLANE_COUNT, PLANES, PlaneEncoder, plane_bytes};
pub use policy_net::{NetScratch, PolicyNet, PolicyNetError, PolicyOutput};

use crate::shape::ShapeWeights;
use crate::shape::model::MoveModel;

/// The tables the engine plays by (see the module's documentation).
#[derive(Debug)]
pub struct Knowledge {
    patterns: PatternTable,
    shapes: ShapeWeights,
    model: ModelKnowledge,
    local: OnceLock<LocalModel>,
}

impl Default for Knowledge {
    fn default() -> Knowledge {
        Knowledge::shipped()
    }
}

impl Knowledge {
    /// The shipped tables.
    pub fn shipped() -> Knowledge {
        Knowledge::from_model(ModelKnowledge::shipped())
    }

    /// The shipped tables with `model` in place of the shipped move model (a table
    /// from `tengen learn fit`, for the tree's prior: `tengen --move-table`).
    pub fn with_move_model(model: MoveModel) -> Knowledge {
        Knowledge::from_model(ModelKnowledge::new(model))
    }

    fn from_model(model: ModelKnowledge) -> Knowledge {
        Knowledge {
            patterns: PatternTable::build(),
            shapes: ShapeWeights::shipped(),
            model,
            local: OnceLock::new(),
        }
    }

    /// The hand-written 3×3 patterns.
    #[inline]
    pub fn patterns(&self) -> &PatternTable {
        &self.patterns
    }

    /// The learned 3×3 shape strengths.
    #[inline]
    pub fn shapes(&self) -> &ShapeWeights {
        &self.shapes
    }

    /// The move model of the tree's prior.
    #[inline]
    pub fn model(&self) -> &ModelKnowledge {
        &self.model
    }

    /// The playouts' local model, built on the first call (a pass over every 3×3
    /// shape code) and shared from then on.
    #[inline]
    pub fn local_model(&self) -> &LocalModel {
        self.local.get_or_init(LocalModel::shipped)
    }

    /// Whether the local model has been built.
    pub fn has_local_model(&self) -> bool {
        self.local.get().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_local_model_is_built_on_first_use_and_then_kept() {
        let k = Knowledge::shipped();
        assert!(!k.has_local_model());
        let first: *const LocalModel = k.local_model();
        assert!(k.has_local_model());
        assert!(std::ptr::eq(first, k.local_model()));
    }
}
