//! The engine that analyses the positions: one search a position, under the same
//! settings as `tengen gtp`.

use std::sync::atomic::AtomicBool;

use tengen_board::{Color, Game};
use tengen_engine::{Config, Engine, Limit, SearchRequest};

use crate::eval::PositionEval;

/// Analyses positions one at a time. Positions analysed in the order of the game
/// reuse the tree of the one before.
#[derive(Debug)]
pub struct Analyst {
    engine: Engine,
    limit: Limit,
}

impl Analyst {
    /// An analyst searching each position to `limit` with `engine`.
    pub fn new(engine: Engine, limit: Limit) -> Analyst {
        Analyst { engine, limit }
    }

    /// An analyst with the engine `config` describes and the shipped move model.
    pub fn with_config(config: Config, limit: Limit) -> Analyst {
        Analyst::new(Engine::new(config), limit)
    }

    /// Searches `game` for `color` and returns what it found; `None` when the search
    /// found no candidate move (none is legal, not even a pass).
    pub fn evaluate(&mut self, game: &Game, color: Color) -> Option<PositionEval> {
        let stop = AtomicBool::new(false);
        let analysis = self
            .engine
            .search(SearchRequest::new(game, color, self.limit, &stop));
        PositionEval::from_analysis(&analysis)
    }
}
