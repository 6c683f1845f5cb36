//! Command implementations, one file per theme.

pub(crate) mod analyze;
pub(crate) mod board;
pub(crate) mod bots;
pub(crate) mod core;
pub(crate) mod gogui;
pub(crate) mod handicap;
pub(crate) mod katago;
pub(crate) mod life;
pub(crate) mod play;
pub(crate) mod scoring;
pub(crate) mod search;
pub(crate) mod settings;
pub(crate) mod sgf;
pub(crate) mod time;
