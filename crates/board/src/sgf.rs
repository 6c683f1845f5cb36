//! SGF in and out for a [`Game`]: the main line of a Go record (`FF[1]` to `FF[4]`).
//!
//! [`SgfGames`] reads every game tree of a collection, one at a time.
//!
//! Reading takes the first game tree of a collection and follows its main line (the
//! first child of every node); only that line is parsed (`scan.rs` finds it), so what
//! a load allocates is bounded by what it loads. It understands:
//!
//! - `SZ` (square boards 2..=25; 19 when absent), `RU` (by [`Rules`](crate::Rules)'
//!   names) and `KM`: where the record names neither, the defaults' rules and komi
//!   ([`parse_sgf_with`]; Chinese and 7.5 otherwise); where it names `RU` only, those
//!   rules' own komi; `HA`;
//! - setup `AB`/`AW`/`AE` (a setup that leaves a group without liberties is refused):
//!   before the first move it makes the start position; after a move (edited records,
//!   problem collections) it is applied where it stands by [`Game::set_up`], and that
//!   position becomes the game's new start: the moves before it are not kept (undo
//!   stops there), the prisoners stay, the comments read so far go to it, and
//!   [`write_sgf`] writes it as the setup of its root;
//! - `PL`, then `B`/`W` moves and passes (`B[]`, and `B[tt]` on boards up to 19×19),
//!   each replayed by [`Game::replay`]: what makes a move impossible is checked, not
//!   ko or superko, which the record's own rules may have allowed (a Japanese triple
//!   ko repeats a position); the moves played after the load obey the game's superko
//!   rule against every position of the record;
//! - `PB`, `PW`, `RE`, `DT`, `EV`, `TM` and the `C` comments into [`GameInfo`].
//!
//! Flaws a GUI user would still want the record opened despite are read past, each
//! with a line in [`SgfGame::warnings`]:
//!
//! - a move the board cannot take (an occupied point, suicide where the rules forbid
//!   it) is skipped, and the warning names its number, as GNU Go does: such records
//!   come from servers' bugs and the rest of the game is worth reading;
//! - a malformed informational property (`HA[7.5]` beside the stones in `AB`,
//!   `PB[a][b]`, `TM[1h]`, markup) and an unknown `RU` are ignored.
//!
//! What decides the position or the score (`SZ`, `KM`, a move off the board, `PL`, a
//! setup list) is refused when malformed. Everything else (markup, variations, other
//! game info) is ignored. Reading never panics: whatever the input, the answer is an
//! [`SgfGame`] or an [`SgfError`].
//!
//! ```
//! use tengen_board::sgf::{parse_sgf, write_sgf};
//!
//! let record = parse_sgf("(;FF[4]GM[1]SZ[9]KM[7]PB[Ann];B[ee];W[cc];B[])").unwrap();
//! assert_eq!(record.game.move_count(), 3);
//! assert_eq!(record.game.rules().komi(), 7.0);
//! assert_eq!(record.info.black.as_deref(), Some("Ann"));
//! let again = parse_sgf(&write_sgf(&record.game, &record.info)).unwrap();
//! assert!(again.game.moves().eq(record.game.moves()));
//! ```

mod read;
mod scan;
mod stream;
#[cfg(test)]
mod tests;
mod write;

use std::fmt;

use crate::color::Color;
use crate::game::Game;

pub use read::{parse_sgf, parse_sgf_until, parse_sgf_with};
pub use stream::{MAX_TREE_BYTES, SgfGames};
pub use write::write_sgf;

/// The deepest game tree read, in nodes along any line. The parser builds and drops
/// trees recursively; this bound keeps that far from any thread's stack limit, and is
/// far beyond any real game (a long game has about 400 moves).
pub const MAX_TREE_DEPTH: usize = 5_000;

/// The most property values read in the main line (a move is one value, a setup or
/// markup list one per point): the parser keeps about a hundred bytes for each, and a
/// long game with heavy markup has a few tens of thousands.
pub const MAX_VALUES: usize = 100_000;

/// A game read from SGF: the position and history, and the record's other data.
#[derive(Clone, Debug)]
pub struct SgfGame {
    /// The game: rules, setup, every move played.
    pub game: Game,
    /// Players, result, date, comments and so on.
    pub info: GameInfo,
    /// What was read despite a flaw, one line each in the order found (a malformed
    /// informational property ignored, …), for a human: the crate does no I/O, the
    /// GTP front end prints them on stderr. At most [`MAX_WARNINGS`] and a last line
    /// that counts the rest.
    pub warnings: Vec<String>,
}

/// The most warnings listed for one record.
pub const MAX_WARNINGS: usize = 20;

/// What an SGF record says besides the moves.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameInfo {
    /// Black's name (`PB`).
    pub black: Option<String>,
    /// White's name (`PW`).
    pub white: Option<String>,
    /// The result (`RE`), as written: `B+3.5`, `W+R`, `0`…
    pub result: Option<String>,
    /// The date (`DT`).
    pub date: Option<String>,
    /// The event (`EV`).
    pub event: Option<String>,
    /// Comments (`C`) by move number: 0 is the root (before any move), `k` the node
    /// of the `k`-th move (1-based). Several entries may share a number.
    pub comments: Vec<(usize, String)>,
    /// The main time in seconds (`TM`).
    pub time_limit: Option<f64>,
}

/// Why an SGF record could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfError {
    /// Not well-formed SGF (unbalanced brackets, no game tree, …).
    Parse(String),
    /// Well-formed, but something Tengen does not play (another game, a rectangular
    /// or oversized board, setup in the middle of the game, …).
    Unsupported(String),
    /// Move `number` (1-based, passes counted) is illegal: `mv` is the move as
    /// `B D4` followed by the reason in parentheses.
    IllegalMove {
        /// The 1-based number of the move in the main line.
        number: usize,
        /// The move and why it is illegal, e.g. `W C3 (ko recapture)`.
        mv: String,
    },
    /// A property's value is malformed or out of range (`SZ[x]`, `KM[nan]`, `B[z9]`, …).
    BadProperty(String),
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfError::Parse(m) => write!(f, "SGF syntax error: {m}"),
            SgfError::Unsupported(m) => write!(f, "unsupported SGF: {m}"),
            SgfError::IllegalMove { number, mv } => write!(f, "illegal move {number}: {mv}"),
            SgfError::BadProperty(m) => write!(f, "bad SGF property: {m}"),
        }
    }
}

impl std::error::Error for SgfError {}

/// Who moves first when `PL` is absent: the colour of the first move, else White after
/// handicap, else Black.
pub(super) fn inferred_to_move(first_move: Option<Color>, handicap: bool) -> Color {
    match first_move {
        Some(c) => c,
        None if handicap => Color::White,
        None => Color::Black,
    }
}
