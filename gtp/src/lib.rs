//! Go Text Protocol for Tengen.
//!
//! The engine side: [`Session`] reads GTP v2 commands and writes answers (generic over
//! `BufRead`/`Write`, so tests drive it in memory), with the extensions Sabaki, GoGui,
//! Lizzie, KGS and CGOS use. [`run_stdio`] runs it on stdin/stdout. (The other side,
//! the client that drives engine processes for `tengen match`, is `tengen-arena`'s.)
//!
//! The layers, outermost first: `protocol` (line cleanup, ids, framing), `input`
//! (reader thread and stop signals), `session` (state and dispatch), `commands` (the
//! one table), `args` (typed arguments), `handlers` (the commands by theme).

#![deny(missing_docs)]

pub mod args;
mod commands;
mod error;
#[cfg(test)]
mod fixtures;
mod handicap;
mod handlers;
mod input;
pub mod protocol;
mod session;
mod stream;
mod summary;

use std::io::{self, IsTerminal};

pub use commands::names as command_names;
pub use error::GtpError;
pub use session::{Session, SessionOptions};
use tengen_engine::Engine;

/// The engine's name, as `name` answers.
pub const NAME: &str = "Tengen";
/// The engine's version, as `version` answers.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Speaks GTP on stdin/stdout until `quit` or end of input. On a terminal it first
/// greets on stderr in one line; stdout only ever carries GTP answers.
pub fn run_stdio(engine: Engine, options: SessionOptions) -> io::Result<()> {
    let stdin = io::stdin();
    if stdin.is_terminal() {
        eprintln!(
            "{NAME} {}, a Go engine speaking GTP: type `list_commands` to see the commands, `quit` to leave.",
            options.version
        );
    }
    let mut session = Session::with_engine(engine, options);
    session.run(io::BufReader::new(stdin), io::stdout().lock())
}
