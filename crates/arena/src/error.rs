//! The arena's errors: [`ArenaError`] for a match, [`BadSpec`] for a command-line spec.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Why a match could not be run (a single game's failures are results, not errors).
#[derive(Debug)]
pub enum ArenaError {
    /// An option is invalid or options contradict each other.
    Config(String),
    /// An engine could not be started or failed the start-up checks.
    Engine {
        /// The engine's command line (or label).
        engine: String,
        /// What went wrong.
        problem: String,
    },
    /// The openings file cannot be read or holds an unusable opening.
    Openings {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        problem: String,
    },
    /// The journal or match description cannot be used.
    Journal {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        problem: String,
    },
    /// The match report cannot be written where it was asked for.
    Report {
        /// The report's path.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// Reading or writing a file failed.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
}

impl ArenaError {
    /// An I/O error on `path`.
    pub(crate) fn io(path: &Path, source: io::Error) -> ArenaError {
        ArenaError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// A journal problem on `path`.
    pub(crate) fn journal(path: &Path, problem: impl Into<String>) -> ArenaError {
        ArenaError::Journal {
            path: path.to_path_buf(),
            problem: problem.into(),
        }
    }
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::Config(m) => f.write_str(m),
            ArenaError::Engine { engine, problem } => write!(f, "engine {engine:?}: {problem}"),
            ArenaError::Openings { path, problem } => {
                write!(f, "openings {}: {problem}", path.display())
            }
            ArenaError::Journal { path, problem } => write!(f, "{}: {problem}", path.display()),
            ArenaError::Report { path, problem } => {
                write!(f, "report {}: {problem}", path.display())
            }
            ArenaError::Io { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for ArenaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ArenaError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A command-line spec (`--shard`, `--sprt`) that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadSpec {
    /// What the spec is, as the message names it: `shard`, `SPRT spec`.
    pub what: &'static str,
    /// The text that did not parse.
    pub text: String,
    /// The form a spec takes, with an example.
    pub expected: &'static str,
}

impl BadSpec {
    /// `text` is not a good `what`, which takes the form `expected`.
    pub fn new(what: &'static str, text: &str, expected: &'static str) -> BadSpec {
        BadSpec {
            what,
            text: text.to_string(),
            expected,
        }
    }
}

impl fmt::Display for BadSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad {} {:?}: expected {}",
            self.what, self.text, self.expected
        )
    }
}

impl std::error::Error for BadSpec {}
