//! Time management, as pure functions: how long the next move may think, and when a
//! timed search stops.
//!
//! The time rules themselves ([`TimeControl`], [`Clock`]: charging a move, the flag)
//! are the board crate's, shared with the match referee. GTP's `time_settings` is
//! Canadian byo-yomi; `kgs-time_settings` adds absolute and Japanese byo-yomi;
//! `time_left` sets a [`Clock`].
//!
//! - [`budget`] turns the control and the clock into a [`MoveBudget`]: a soft limit
//!   (the planned time), a hard one (never passed) and whether stopping early saves
//!   anything (it does not in a byo-yomi period, whose unused time is lost).
//! - [`MoveBudget::should_stop`] is the search's stop rule: less time on an obvious
//!   move, more (up to the hard limit) while the top two moves are close.
//! - [`Overruns`] remembers how far recent moves ran past their hard limit (a busy
//!   machine's scheduling), kept back on top of the configured lag.
//! - [`Timekeeper`] keeps a game's time between moves (the control in force, both
//!   clocks, the controller's limit on one move, the overruns) and decides each
//!   move's limits; a front end only reports what the controller said.
//! - [`Limit`] is when a search stops: a playout budget, a [`MoveBudget`] or never
//!   (until its stop flag).
//! - [`watched`] runs a search under a watchdog that stops a playout budget at the
//!   clock's hard limit.

mod budget;
mod keeper;
mod overrun;
mod stop;
mod watchdog;

pub use budget::{Limit, MoveBudget, budget};
pub use keeper::{MoveTimer, Timekeeper, analysis_limit};
pub use overrun::Overruns;
pub use stop::Progress;
pub use tengen_board::{Clock, TimeControl};
pub use watchdog::watched;
