//! The move model: a Bradley–Terry rating of every candidate move by its features
//! (Coulom 2007), fitted to strong players' moves by the `tengen-learn` crate.
//!
//! - [`features`]: what a move is, for the model: the tactical groups ([`groups`]:
//!   captures, escapes, ataris, self-ataris, the distance to the last moves, the
//!   line), its 3×3 shape ([`crate::shape`]) and its large patterns ([`pattern`]).
//! - [`MoveModel`] (`table.rs`): a fitted table and its text format; [`left_out`]
//!   names the feature groups a table was fitted without, which every reader honours.
//! - [`ModelKnowledge`] (`rating.rs`): the model as the engine's tree prior reads it,
//!   one move at a time.
//! - [`LocalModel`] (`local.rs`): the strengths the heavy playouts draw a neighbour
//!   of the last move by.

pub mod features;
pub mod groups;
pub mod left_out;
mod local;
pub mod pattern;
mod rating;
mod table;

pub use local::LocalModel;
pub use rating::ModelKnowledge;
pub use table::{ModelError, MoveModel, MoveScorer};
