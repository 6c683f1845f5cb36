//! Tengen's player: playout policies, Monte Carlo tree search, time management,
//! ownership and analysis. It knows nothing about GTP: it takes a
//! [`tengen_board::Game`] and typed limits, and returns typed results.

pub mod bench;
pub mod config;
pub mod playout;
pub mod time;

pub use config::{Config, HeavyParams, SearchParams};
pub use playout::{Amaf, Outcome, Policy, PolicyKind, Rng};
pub use time::{Clock, MoveBudget, TimeControl};
