//! The match report: one self-contained HTML page (inline SVG plots, no script, nothing
//! fetched) of a match's settings, score, SPRT, results by colour, every game, and for
//! round robins the crosstable and every engine's rating.

pub mod ratings;
