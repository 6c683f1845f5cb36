//! What the engine is asked to search: one [`SearchRequest`] for [`Engine::search`] and
//! [`Engine::genmove`].
//!
//! [`Engine::search`]: super::Engine::search
//! [`Engine::genmove`]: super::Engine::genmove

use std::sync::atomic::AtomicBool;

use tengen_board::{Bitboard, Color, Game};

use super::Mode;
use crate::analysis::Report;
use crate::search::{Job, Limit};

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
    /// The game whose current position is searched (its moves let the engine reuse
    /// the tree of an earlier search).
    pub game: &'a Game,
    /// The colour the search chooses a move for.
    pub color: Color,
    /// When the search stops, besides `stop`.
    pub limit: Limit,
    /// Raised (from another thread) to stop the search early.
    pub stop: &'a AtomicBool,
    /// Whether the final snapshot holds the ownership ([`Engine::search`] only:
    /// [`Engine::genmove`] gathers it where its pass decision needs it, so that a
    /// display asking for it cannot change play).
    ///
    /// [`Engine::search`]: super::Engine::search
    /// [`Engine::genmove`]: super::Engine::genmove
    pub ownership: bool,
    /// Root moves the search never chooses (KataGo's `avoid`/`allow` to depth 1):
    /// selection sees them as lost, and the snapshots leave them out of the
    /// candidates. A genmove's rule moves (a clean-up's capture, a capture before a
    /// pass under Tromp-Taylor) are not restricted.
    pub avoid: Bitboard,
    /// Where the snapshots go while the search runs, and what they hold.
    pub report: Option<Report<'a>>,
    /// Whether this is thinking on the opponent's time ([`Engine::search`] only): the
    /// search then uses the dynamic komi of the engine's own moves, so that the next
    /// genmove can keep the tree; otherwise the real komi.
    ///
    /// [`Engine::search`]: super::Engine::search
    pub ponder: bool,
    /// How a genmove treats the end of the game ([`Engine::genmove`] only).
    ///
    /// [`Engine::genmove`]: super::Engine::genmove
    pub mode: Mode,
}

impl<'a> SearchRequest<'a> {
    /// A search of `game`'s position for `color` within `limit`, stopped early by
    /// `stop`: no ownership, no root move avoided, no report, the real komi,
    /// [`Mode::Normal`].
    pub fn new(game: &'a Game, color: Color, limit: Limit, stop: &'a AtomicBool) -> Self {
        SearchRequest {
            game,
            color,
            limit,
            stop,
            ownership: false,
            avoid: Bitboard::EMPTY,
            report: None,
            ponder: false,
            mode: Mode::Normal,
        }
    }

    /// The same request, the final snapshot holding the ownership where `ownership`.
    #[must_use]
    pub fn ownership(self, ownership: bool) -> Self {
        SearchRequest { ownership, ..self }
    }

    /// The same request, never choosing a root move in `avoid`.
    #[must_use]
    pub fn avoiding(self, avoid: Bitboard) -> Self {
        SearchRequest { avoid, ..self }
    }

    /// The same request, sending its snapshots to `report` (none for `None`).
    #[must_use]
    pub fn report(self, report: Option<Report<'a>>) -> Self {
        SearchRequest { report, ..self }
    }

    /// The same request, thinking on the opponent's time (see [`SearchRequest::ponder`]).
    #[must_use]
    pub fn pondering(self) -> Self {
        SearchRequest {
            ponder: true,
            ..self
        }
    }

    /// The same request, a genmove treating the end of the game as `mode` says.
    #[must_use]
    pub fn mode(self, mode: Mode) -> Self {
        SearchRequest { mode, ..self }
    }

    /// The search job of a plain [`Engine::search`](super::Engine::search) of this
    /// request with a komi shifted by `komi_shift`: a pass among the candidates.
    pub(crate) fn job(&self, komi_shift: f64) -> Job<'a> {
        Job {
            game: self.game,
            color: self.color,
            limit: self.limit,
            stop: self.stop,
            ownership: self.ownership,
            with_pass: true,
            avoid: self.avoid,
            komi_shift,
        }
    }
}
