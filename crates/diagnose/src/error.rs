//! What can go wrong in a diagnosis: a record that cannot be read, a referee engine
//! that cannot be driven.

use std::fmt;

/// Why a diagnosis could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiagnoseError {
    /// A file or directory could not be read.
    Read {
        /// The path as given.
        path: String,
        /// The operating system's or the reader's message.
        message: String,
    },
    /// A record is not a game this tool can replay.
    Record {
        /// The record's path.
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// The referee engine could not be started or answered out of protocol.
    Referee(String),
    /// The search gave no evaluation of a position.
    Evaluation(String),
}

impl fmt::Display for DiagnoseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiagnoseError::Read { path, message } => write!(f, "cannot read {path}: {message}"),
            DiagnoseError::Record { path, message } => write!(f, "{path}: {message}"),
            DiagnoseError::Referee(m) => write!(f, "referee engine: {m}"),
            DiagnoseError::Evaluation(m) => write!(f, "evaluation: {m}"),
        }
    }
}

impl std::error::Error for DiagnoseError {}
