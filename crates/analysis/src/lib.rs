//! KataGo's JSON analysis engine protocol for Tengen (`tengen analysis`): one query a
//! line on stdin, one response a line on stdout, as KaTrain and other review tools
//! drive KataGo's `analysis` command.
//!
//! - [`query`]: a line read and checked field by field into a [`Request`] (KataGo's
//!   actions, or a game with the turns to analyse and their [`SearchOptions`]);
//!   [`rules`], [`vertex`] and [`overrides`] read its parts, [`position`] checks the
//!   game by playing it through.
//! - [`response`]: the analysis responses, [`notice`] the errors and warnings, in
//!   KataGo's shapes; [`policy`] the policy network's or the move model's
//!   probabilities (`includePolicy`), [`hashes`] the position's `thisHash` and
//!   `symHash`.
//! - [`server`]: the loop, with a bounded [`line`](mod@line) reader, a bounded priority
//!   [`queue`] of turns that `terminate` reaches, a pool of engines searching turns in
//!   parallel, and [`deadlines`] for `maxTime`; [`shutdown`] winds it down when one of
//!   its threads fails.
//!
//! The field table, and what Tengen answers differently from KataGo, are in this
//! crate's README.

#![deny(missing_docs)]

pub mod deadlines;
pub mod hashes;
pub mod line;
mod lock;
pub mod notice;
pub mod options;
pub mod overrides;
pub mod policy;
pub mod position;
pub mod query;
pub mod queue;
pub mod response;
pub mod rules;
pub mod server;
pub mod shutdown;
pub mod vertex;

pub use notice::{Notice, Severity};
pub use options::{MoveFilter, Perspective, SearchOptions};
pub use query::{Defaults, Query, Request, parse_line};
pub use server::{MAX_LINE_BYTES, ServerOptions, Totals, serve};
pub use shutdown::OnFailure;
