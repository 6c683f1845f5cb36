//! Why a review could not be made.

use std::fmt;

/// Why a record cannot be reviewed, or a review cannot be resumed or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewError {
    /// The record does not load: broken SGF, an unsupported board, an illegal move.
    Record(String),
    /// The record loads but holds no move to review.
    NoMoves,
    /// The record is built in a way a review cannot follow (setup stones after the
    /// first move).
    Unsupported(String),
    /// The review to resume is not a review of this record.
    NotThisGame(String),
    /// The graph could not be drawn.
    Graph(String),
}

impl fmt::Display for ReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReviewError::Record(why) => write!(f, "the record does not load: {why}"),
            ReviewError::NoMoves => f.write_str("the record has no moves: nothing to review"),
            ReviewError::Unsupported(why) => write!(f, "the record cannot be reviewed: {why}"),
            ReviewError::NotThisGame(why) => {
                write!(f, "the review to resume is of another game: {why}")
            }
            ReviewError::Graph(why) => write!(f, "the graph could not be drawn: {why}"),
        }
    }
}

impl std::error::Error for ReviewError {}
