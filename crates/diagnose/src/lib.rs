//! Where and why an engine loses its match games.
//!
//! For each game the studied engine lost, the positions every N moves (20 on 13×13,
//! 25 on 19×19, and the last one) are evaluated from its side by Tengen's search at a
//! high playout count, with ownership ([`TengenEvaluator`]), and, when one is given,
//! by a referee engine over GTP ([`GtpReferee`]: Pachi's `pachi-result`, or any
//! engine's `lz-genmove_analyze`). Each loss is then placed:
//!
//! - by **phase** ([`Phase`]: opening, middle game, endgame, from the move number and
//!   how full the board is) of the first evaluated position below the threshold
//!   (35%) and of the largest drop between two evaluated positions;
//! - by **kind** ([`Kind`], the rules in [`kind`]): a ladder misread, a semeai lost, a
//!   group that died, or territory given away, read from Tengen's ownership maps
//!   before and after the largest drop and at the game's end, and from the board
//!   replayed through the drop's moves.
//!
//! [`Report`] writes the tables (Markdown, for STRENGTH.md), one line a game, the
//! skipped records with their reasons and what happened to the referee, and JSON.
//!
//! The referee's failure on one game is not the game's: [`diagnose_game`] keeps
//! Tengen's rows and says why the referee's are missing
//! ([`GameDiagnosis::referee_unavailable`]); a record GTP cannot set up (white setup
//! stones, a single black one) is refused for the referee before anything is sent.
//!
//! Why a crate of its own rather than modules of `tengen-review`: the review annotates
//! one record for a GUI (every position, a win rate each); the diagnosis reads many
//! match records, needs ownership maps, drives a second engine over GTP (the match
//! runner's client, which the review has no use for) and classifies. It shares the
//! board, the SGF reader and the engine's search with the review, not the review's
//! record model.
//!
//! One file a responsibility: [`record`] (reading match records), [`eval`] (the
//! evaluator and Tengen's), [`referee`] (a GTP engine's win rate), [`phase`],
//! [`groups`] (dead groups, semeai), [`ladder`], [`kind`] (the rules in order),
//! [`diagnosis`] (one game), [`report`].

#![deny(missing_docs)]

pub mod diagnosis;
mod error;
pub mod eval;
pub mod groups;
pub mod kind;
pub mod ladder;
pub mod phase;
pub mod record;
pub mod referee;
pub mod report;

pub use diagnosis::{GameDiagnosis, Settings, diagnose_game};
pub use error::DiagnoseError;
pub use eval::{Evaluator, Judged, Ownership, TengenEvaluator};
pub use kind::{Kind, KindRules};
pub use phase::Phase;
pub use record::{MatchGame, record_paths};
pub use referee::GtpReferee;
pub use report::Report;
