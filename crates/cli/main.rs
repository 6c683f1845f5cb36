//! The `tengen` binary: GTP on stdin/stdout by default, plus `match`, `bench`,
//! `learn`, `review` and `analysis`.
//!
//! This is glue: each subcommand's flags (`*_cmd.rs`) build a value for the library
//! crates (`tengen-gtp`, `tengen-arena`, `tengen-engine`, `tengen-learn`,
//! `tengen-review`, `tengen-analysis`), which do the work.

#![deny(missing_docs)]

mod analysis_cmd;
mod bench_cmd;
mod bounds;
mod diagnose_cmd;
mod gtp_cmd;
mod learn_cmd;
mod learn_outcomes;
mod match_cmd;
mod review_cmd;
mod setting_flags;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The version `--version` and GTP `version` print: the package's version and the
/// commit the binary was built from (see `build.rs`).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("TENGEN_COMMIT"), ")");

/// Tengen: a Go engine speaking GTP, with a match runner and a playout benchmark.
///
/// With no subcommand it speaks GTP on stdin/stdout (as GUIs start it), taking the
/// same options as `tengen gtp`.
#[derive(Debug, Parser)]
#[command(
    name = "tengen",
    version = VERSION,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(flatten)]
    gtp: gtp_cmd::GtpArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Speak GTP on stdin/stdout (the default).
    Gtp(gtp_cmd::GtpArgs),
    /// Play a match between GTP engines, with records, a journal and statistics.
    Match(Box<match_cmd::MatchArgs>),
    /// Measure playouts a second per board size, policy and thread count.
    Bench(bench_cmd::BenchArgs),
    /// Fit a move model to game records by MM, or score one on records.
    Learn(learn_cmd::LearnArgs),
    /// Review a game: every position analysed, the record annotated, a win-rate graph.
    Review(review_cmd::ReviewArgs),
    /// Find where and why an engine lost its match games: positions evaluated, each
    /// loss classified by phase and kind (a group died, a semeai, a ladder, territory).
    Diagnose(Box<diagnose_cmd::DiagnoseArgs>),
    /// Speak KataGo's JSON analysis protocol on stdin/stdout (as KaTrain drives it).
    Analysis(Box<analysis_cmd::AnalysisArgs>),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => gtp_cmd::run(cli.gtp),
        Some(Command::Gtp(args)) => gtp_cmd::run(args),
        Some(Command::Match(args)) => match_cmd::run(*args),
        Some(Command::Bench(args)) => bench_cmd::run(args),
        Some(Command::Learn(args)) => learn_cmd::run(args),
        Some(Command::Review(args)) => review_cmd::run(args),
        Some(Command::Diagnose(args)) => diagnose_cmd::run(*args),
        Some(Command::Analysis(args)) => analysis_cmd::run(*args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tengen: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Every subcommand's flags build: among them, each flag made from the engine's
    /// table names a setting the table holds, and the flags it conflicts with exist.
    #[test]
    fn the_command_line_is_well_formed() {
        super::Cli::command().debug_assert();
    }
}
