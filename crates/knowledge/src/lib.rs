//! Tengen's knowledge: everything the player learned or was taught, apart from the
//! search that uses it. It depends on the rules (`tengen-board`) alone; the engine
//! plays by it and the trainer (`tengen-learn`) fits its tables, never the other way.
//!
//! By concept:
//!
//! - [`shape`]: learned 3×3 shapes and their strengths ([`ShapeWeights`],
//!   `crates/knowledge/data/shapes.txt`).
//! - [`move_model`]: the move model: its features ([`move_model::features`]: tactics,
//!   3×3 shapes, large patterns), its table ([`MoveModel`],
//!   `crates/knowledge/data/moves.txt`), the rating the tree's prior reads
//!   ([`ModelKnowledge`]) and the playouts' local strengths ([`LocalModel`],
//!   `crates/knowledge/data/playouts.txt`).
//! - [`patterns`]: the hand-written 3×3 patterns (MoGo's, [`PatternTable`]).
//! - [`tactics`]: ladders, nakade, captures: the reading the features need.
//! - [`planes`]: a position as the policy network's input planes ([`PlaneEncoder`]),
//!   for the network and for the export of its training positions alike.
//! - [`policy_net`]: the policy network ([`PolicyNet`], a weights file from the
//!   trainer in `crates/learn/python`, evaluated in pure Rust), which network a
//!   setting names ([`NetChoice`]), a network loaded with the cache of its ratings
//!   ([`PolicyNetFile`]), and a
//!   position's probabilities ([`NetPolicy`]).
//!
//! [`Knowledge`] bundles the tables the engine plays by in one value, which the
//! engine's `Engine` owns and lends read-only (an [`Arc`]) to the tree's prior and
//! to the playouts alike, so that a table is read once and never copied per thread
//! or per setting:
//!
//! - [`PatternTable`]: for the heavy playout's pattern step and the prior when the
//!   learned shapes are off.
//! - [`ShapeWeights`]: for the prior and, under the engine's
//!   `HeavyParams::shape_threshold`, the playouts.
//! - [`ModelKnowledge`]: the move model (the shipped one, or a table from `tengen
//!   learn fit`), for the prior under `SearchParams::model_prior`.
//! - [`LocalModel`]: built on first use: only a policy with
//!   `HeavyParams::local_model` set reads it.
//!
//! The tables and the shipped network are compiled in; how they are fitted is the
//! `tengen-learn` crate's. The crate does no I/O but reading a move table or a
//! network's weights file it is asked to load.
//!
//! [`Arc`]: std::sync::Arc

#![deny(missing_docs)]

pub mod move_model;
pub mod patterns;
pub mod planes;
pub mod policy_net;
pub mod shape;
pub mod tactics;

use std::sync::OnceLock;

pub use move_model::{LocalModel, ModelKnowledge, MoveModel};
pub use patterns::PatternTable;
pub use planes::{PLANE_COUNT, PLANES, PlaneEncoder, plane_bytes};
pub use policy_net::{
    CACHE_POSITIONS, NetChoice, NetJudgement, NetPolicy, NetScratch, NetStats, PolicyNet,
    PolicyNetError, PolicyNetFile, PolicyOutput, SHIPPED_NET,
};
pub use shape::ShapeWeights;

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
