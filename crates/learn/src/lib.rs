//! Tengen's trainer: the offline side of the engine's learned tables. It reads game
//! records through the knowledge's features ([`tengen_knowledge::move_model`],
//! [`tengen_knowledge::shape`]) and writes the text tables the knowledge compiles in or
//! the engine loads; it does not build the engine, and neither the knowledge nor the
//! engine depends on it.
//!
//! - [`moves`]: the move model (`crates/knowledge/data/moves.txt`, `tengen learn fit`): large
//!   patterns counted in a first pass ([`counts`]), then every position a competition
//!   of teams of features.
//! - [`shapes`]: the 3×3 shape table (`crates/knowledge/data/shapes.txt`,
//!   `examples/learn_shapes.rs`).
//! - [`teams`]: the one minorization-maximization fit both use (Coulom 2007), over
//!   competitions kept in a temporary file ([`spill`]), so that memory does not grow
//!   with the records.
//! - [`eval`]: a table scored on records (`tengen learn eval`): top-1/5/10 agreement
//!   and log-likelihood by phase of the game.
//! - [`records`]: the games of SGF collections, streamed one at a time.
//! - [`export`]: positions of game records as policy-network training examples
//!   (`tengen learn export`): the network's input planes (the knowledge's
//!   [`PlaneEncoder`](tengen_knowledge::PlaneEncoder)) in binary [`shard`]s,
//!   which the trainer in `crates/learn/python/` reads, with each game's labels: its
//!   record's result ([`outcome`]) and the final ownership Tengen judges.

#![deny(missing_docs)]

pub mod counts;
pub mod eval;
pub mod export;
pub mod moves;
pub mod outcome;
pub mod records;
pub mod shapes;
pub mod shard;
pub mod spill;
pub mod teams;
