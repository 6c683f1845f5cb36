//! What the search reports while it runs and when it ends: the data GUIs display.

use std::time::Duration;

use smallvec::SmallVec;
use tengen_board::{Color, Move};

/// A sequence of moves (a principal variation), inline up to 12 moves.
pub type Line = SmallVec<[Move; 12]>;

/// One candidate move at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStat {
    /// The move.
    pub mv: Move,
    /// Playouts through it.
    pub visits: u64,
    /// Its win rate for the side to move, in [0, 1].
    pub winrate: f64,
    /// The prior, in [0, 1] (its share of the prior weight among the candidates).
    pub prior: f64,
    /// A lower confidence bound of the win rate.
    pub lcb: f64,
    /// Mean final score for the side to move, from this search's playouts through it
    /// (the reused tree keeps no scores; 0 without any).
    pub score_lead: f64,
    /// The principal variation, starting with `mv`.
    pub pv: Line,
}

/// A snapshot of the search.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The side the search plays for.
    pub color: Color,
    /// Playouts through the root's moves: this search's (all threads) and those the
    /// reused tree brought.
    pub visits: u64,
    /// The visits of `visits` that came from the reused tree (earlier searches).
    pub reused: u64,
    /// The root win rate for `color`.
    pub winrate: f64,
    /// Mean final score for `color`, from this search's playouts (0 without any).
    pub score_lead: f64,
    /// Candidates, best first (most visits, then win rate).
    pub moves: Vec<MoveStat>,
    /// Ownership per point, row by row from the top left (A19 on 19×19) to the bottom
    /// right, in [-1, 1], +1 owned by `color`. Empty unless ownership was asked for.
    pub ownership: Vec<f32>,
    /// Share of playouts in which each point ended as nobody's (an empty point next to
    /// both colours: dame, or a liberty shared in seki), in the same order; empty when
    /// `ownership` is.
    pub neutral: Vec<f32>,
    /// Time searched so far.
    pub elapsed: Duration,
    /// Bytes the search tree took (the first tree's, under root parallelism), never
    /// more than its budget, `Config::memory_mib`.
    pub tree_bytes: u64,
    /// Times that tree was full and made room, since it was made.
    pub tree_compactions: u32,
}

impl Analysis {
    /// The best candidate, if any.
    pub fn best(&self) -> Option<&MoveStat> {
        self.moves.first()
    }

    /// The score lead from Black's side (positive when Black is ahead), whichever
    /// colour searched: `score_lead` is `color`'s.
    pub fn black_lead(&self) -> f64 {
        match self.color {
            Color::Black => self.score_lead,
            Color::White => -self.score_lead,
        }
    }

    /// The playouts of this search alone: `visits` without the reused ones.
    pub fn playouts(&self) -> u64 {
        self.visits.saturating_sub(self.reused)
    }
}

/// Where the search sends its snapshots, and how often.
pub struct Report<'a> {
    /// Time between snapshots.
    pub interval: Duration,
    /// Called with each snapshot, on the thread that started the search.
    pub sink: &'a mut dyn FnMut(&Analysis),
}

impl std::fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Report")
            .field("interval", &self.interval)
            .finish()
    }
}
