//! Command implementations, one file per theme.

pub(crate) mod board;
pub(crate) mod core;
pub(crate) mod handicap;
pub(crate) mod sgf;
pub(crate) mod time;
