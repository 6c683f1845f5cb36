//! Game review: every position of a record analysed by the engine, the record
//! annotated for GUIs, and a win-rate graph.
//!
//! - [`Record`]: the record as read (its whole game tree, kept for the output) and its
//!   main line replayed on the board.
//! - [`Analyst`]: the engine searching one position at a time; [`PositionEval`] what it
//!   found, kept in the output as the private property `TGR` so that a review can be
//!   resumed ([`Review::resume`]).
//! - [`Review`]: the evaluations so far and what they make: the annotated record
//!   ([`Review::to_sgf`]: Sabaki's `SBKV` and `SBKS` on every node of the main line, a
//!   comment, the preferred move's variation, `BM`/`DO`/`TE`, the key mistakes in the
//!   root comment; the record's own comments and variations kept) and the graph
//!   ([`Review::graph_svg`]).
//! - [`MoveJudgement`]: what a move lost against the preferred one, and its verdict;
//!   [`Noise`]: how much of a loss the search's own noise can make, which a move must
//!   lose more than to be judged.
//! - [`write_atomically`]: a file written whole or not at all.
//!
//! ```
//! use tengen_board::{Color, Move};
//! use tengen_review::{Noise, PositionEval, Record, Review, Settings};
//!
//! let record = Record::parse("(;SZ[9];B[ee];W[cc])").unwrap();
//! let settings = Settings {
//!     engine: "a test".into(), threshold: 0.1, noise: Noise::MEASURED, playouts: None,
//! };
//! let mut review = Review::new(record, settings);
//! assert_eq!(review.pending(), vec![0, 1, 2]);
//! let eval = PositionEval {
//!     color: Color::Black, visits: 10, best: Move::Pass, winrate: 0.5, lead: 0.0,
//!     runner_up: None, pv: vec![],
//! };
//! review.set(0, eval);
//! assert!(review.to_sgf().contains("SBKV[50]"));
//! ```

#![deny(missing_docs)]

mod analyst;
mod error;
mod eval;
pub mod graph;
mod judge;
mod record;
mod review;
mod text;
mod write;

pub use analyst::Analyst;
pub use error::ReviewError;
pub use eval::{MAX_PV, PROPERTY, PositionEval};
pub use judge::{MoveJudgement, Noise, Verdict, budget_note, key_mistakes};
pub use record::Record;
pub use review::{KEY_MISTAKES, Review, Settings};
pub use write::{check_writable, write_atomically};
