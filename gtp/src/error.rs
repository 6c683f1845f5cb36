//! The failures a GTP command answers with `?`.

use std::fmt;

/// What a command returns: the text of its `=` answer, or the error whose text is
/// its `?` answer.
pub(crate) type Answer = Result<String, GtpError>;

/// Why a command failed. The [`Display`](fmt::Display) text is the `?` answer: the
/// standard GTP words first, then, for some, a short detail after a colon.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GtpError {
    /// The command is not in the table.
    UnknownCommand,
    /// An argument is missing, extra or malformed.
    Syntax(String),
    /// `play`: occupied, suicide, ko or superko.
    IllegalMove(String),
    /// `undo` with no move to take back.
    CannotUndo,
    /// `boardsize` outside 2..=25.
    UnacceptableSize,
    /// Handicap asked for on a board that has stones or moves.
    BoardNotEmpty,
    /// `fixed_handicap` / `place_free_handicap` count out of range.
    InvalidNumberOfStones,
    /// `set_free_handicap` list with fewer than two points, a repeat, a pass or an
    /// off-board vertex.
    BadVertexList,
    /// `loadsgf`: unreadable or broken file, or a move number past the end.
    CannotLoadFile(String),
    /// `printsgf FILE`: a name or a file it may not write, or a failed write.
    CannotWriteFile(String),
    /// `final_score` could not count the position.
    CannotScore,
    /// Anything else, worded by the handler.
    Other(String),
}

impl GtpError {
    /// A `syntax error` with a detail.
    pub fn syntax(detail: impl Into<String>) -> GtpError {
        GtpError::Syntax(detail.into())
    }
}

impl fmt::Display for GtpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn with(f: &mut fmt::Formatter<'_>, base: &str, detail: &str) -> fmt::Result {
            if detail.is_empty() {
                f.write_str(base)
            } else {
                write!(f, "{base}: {detail}")
            }
        }
        match self {
            GtpError::UnknownCommand => f.write_str("unknown command"),
            GtpError::Syntax(d) => with(f, "syntax error", d),
            GtpError::IllegalMove(d) => with(f, "illegal move", d),
            GtpError::CannotUndo => f.write_str("cannot undo"),
            GtpError::UnacceptableSize => f.write_str("unacceptable size"),
            GtpError::BoardNotEmpty => f.write_str("board not empty"),
            GtpError::InvalidNumberOfStones => f.write_str("invalid number of stones"),
            GtpError::BadVertexList => f.write_str("bad vertex list"),
            GtpError::CannotLoadFile(d) => with(f, "cannot load file", d),
            GtpError::CannotWriteFile(d) => with(f, "cannot write file", d),
            GtpError::CannotScore => f.write_str("cannot score"),
            GtpError::Other(d) => f.write_str(d),
        }
    }
}

impl std::error::Error for GtpError {}

/// A token quoted in an error message, cut short so that a megabyte of junk is not
/// echoed back.
pub(crate) fn quote(token: &str) -> String {
    const MAX: usize = 24;
    let mut out: String = token.chars().take(MAX).collect();
    if token.chars().nth(MAX).is_some() {
        out.push('…');
    }
    format!("{out:?}")
}
