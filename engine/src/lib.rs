//! Tengen's player: playout policies, Monte Carlo tree search, time management,
//! ownership and analysis. It knows nothing about GTP: it takes a
//! [`tengen_board::Game`] and typed limits, and returns typed results.
//!
//! - [`playout`]: light and heavy playout policies, the AMAF map.
//! - [`Engine`]: `genmove`, analysis and dead-stone status over an MCTS with RAVE,
//!   priors, tree reuse and threads on one shared tree (or one tree each).
//! - [`Knowledge`]: the tables the engine plays by (3×3 patterns, learned shapes, the
//!   move model), one value owned by the [`Engine`] and lent to the prior and the
//!   playouts; it and the policy network are the `tengen-knowledge` crate's, which
//!   the engine re-exports where its own API names them.
//! - [`time`]: per-move budgets, the stop rule of a timed search and the game's
//!   [`time::Timekeeper`], which decides each move's limits for a front end (the time
//!   controls and clocks are [`tengen_board`]'s, shared with the match referee).

#![deny(missing_docs)]

mod analysis;
pub mod bench;
mod cleanup;
pub mod config;
mod cpu_time;
pub mod komi;
mod ownership;
mod padded;
mod player;
pub mod playout;
mod prior;
mod resign;
mod search;
mod select;
pub mod settings;
pub mod time;
mod tree;

pub use analysis::{Analysis, Extras, Line, MoveStat, Report};
pub use config::{
    Config, DEFAULT_LAG, DEFAULT_MEMORY_MIB, HeavyParams, Keyword, MAX_MEMORY_MIB, MAX_MOVE_TIME,
    ModelPrior, Parallelism, SearchParams,
};
pub use ownership::{Judgement, Status, apply_static, judge, status_from_ownership};
pub use player::{
    Decision, Engine, Mode, SearchRequest, counts_board_as_it_stands, wins_by_the_count,
};
pub use playout::{Amaf, Outcome, Policy, PolicyKind, Replies, Rng};
pub use time::{Clock, Limit, MoveBudget, Overruns, Progress, TimeControl, budget};
pub use tree::{EDGE_BYTES, NODE_BYTES};

// The knowledge the engine's API names: what `Engine::with_knowledge` and
// `Engine::with_model` take and what a `Config` holds.
pub use tengen_knowledge::{
    CACHE_POSITIONS, Knowledge, ModelKnowledge, MoveModel, NetStats, PolicyNetFile, SHIPPED_NET,
};
