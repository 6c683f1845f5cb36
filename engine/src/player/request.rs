//! What the engine is asked to search: one [`SearchRequest`] for [`Engine::search`] and
//! [`Engine::genmove`].
//!
//! [`Engine::search`]: super::Engine::search
//! [`Engine::genmove`]: super::Engine::genmove

use std::sync::atomic::AtomicBool;

use tengen_board::{Bitboard, Color, Game};

use super::Mode;
use crate::analysis::Report;
use crate::search::Job;
use crate::time::Limit;

/// One search the engine is asked for: the position, the side to search for, when
/// to stop, and what to gather and report. [`SearchRequest::new`] makes the plain one (no
/// ownership, no root move avoided, no report, the real komi, [`Mode::Normal`]); the
/// other methods change one thing each:
///
/// ```
/// # use std::sync::atomic::AtomicBool;
/// # use tengen_board::{BoardSize, Color, Game, Rules};
/// # use tengen_engine::{Config, Engine, Limit, SearchRequest};
/// let game = Game::new(BoardSize::new(9).unwrap(), Rules::chinese());
/// let stop = AtomicBool::new(false);
/// let mut engine = Engine::new(Config { threads: 1, ..Config::default() });
/// let req = SearchRequest::new(&game, Color::Black, Limit::Playouts(50), &stop).ownership(true);
/// let analysis = engine.search(req);
/// assert_eq!(analysis.ownership.len(), 81);
/// ```
#[derive(Debug)]
pub struct SearchRequest<'a> {
    /// The search itself: the position, the colour, the limit, the stop flag, the
    /// ownership asked for and the root moves avoided; a pass among the candidates and
    /// the real komi until the engine says otherwise.
    pub(super) job: Job<'a>,
    /// Where the snapshots go while the search runs, and what they hold.
    pub(super) report: Option<Report<'a>>,
    /// Whether this is thinking on the opponent's time (see [`SearchRequest::pondering`]).
    pub(super) ponder: bool,
    /// How a genmove treats the end of the game.
    pub(super) mode: Mode,
}

impl<'a> SearchRequest<'a> {
    /// A search of `game`'s position (its moves let the engine reuse the tree of an
    /// earlier search) for `color` within `limit`, stopped early when `stop` is raised
    /// (from another thread): no ownership, no root move avoided, no report, the real
    /// komi, [`Mode::Normal`].
    pub fn new(game: &'a Game, color: Color, limit: Limit, stop: &'a AtomicBool) -> Self {
        SearchRequest {
            job: Job::plain(game, color, limit, stop),
            report: None,
            ponder: false,
            mode: Mode::Normal,
        }
    }

    /// The same request, the final snapshot holding the ownership where `ownership`
    /// ([`Engine::search`] only: [`Engine::genmove`] gathers it where its pass
    /// decision needs it, so that a display asking for it cannot change play).
    ///
    /// [`Engine::search`]: super::Engine::search
    /// [`Engine::genmove`]: super::Engine::genmove
    #[must_use]
    pub fn ownership(mut self, ownership: bool) -> Self {
        self.job.ownership = ownership;
        self
    }

    /// The same request, never choosing a root move in `avoid` (KataGo's
    /// `avoid`/`allow` to depth 1): selection sees them as lost, and the snapshots
    /// leave them out of the candidates. A genmove's rule moves (a clean-up's
    /// capture, a capture before a pass under Tromp-Taylor) are not restricted.
    #[must_use]
    pub fn avoiding(mut self, avoid: Bitboard) -> Self {
        self.job.avoid = avoid;
        self
    }

    /// The same request, sending its snapshots to `report` while the search runs
    /// (none for `None`).
    #[must_use]
    pub fn report(self, report: Option<Report<'a>>) -> Self {
        SearchRequest { report, ..self }
    }

    /// The same request, thinking on the opponent's time ([`Engine::search`] only):
    /// the search then uses the dynamic komi of the engine's own moves, so that the
    /// next genmove can keep the tree; otherwise the real komi.
    ///
    /// [`Engine::search`]: super::Engine::search
    #[must_use]
    pub fn pondering(self) -> Self {
        SearchRequest {
            ponder: true,
            ..self
        }
    }

    /// The same request, a genmove treating the end of the game as `mode` says
    /// ([`Engine::genmove`] only).
    ///
    /// [`Engine::genmove`]: super::Engine::genmove
    #[must_use]
    pub fn mode(self, mode: Mode) -> Self {
        SearchRequest { mode, ..self }
    }
}
