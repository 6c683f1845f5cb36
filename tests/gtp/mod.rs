//! The GTP front end through the real `tengen` binary: transcripts, the process's
//! stdout/stderr discipline, Sabaki's client library, and engine-versus-engine games.

mod binary;
// What bot servers' bridges read: CGOS's JSON, gtp2ogs's stderr, cancellable searches.
mod bots;
mod memory;
mod process;
mod sabaki;
mod selfplay;
mod transcript;
mod transcripts;
