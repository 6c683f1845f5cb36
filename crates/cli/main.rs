//! The `tengen` binary: GTP on stdin/stdout by default, plus `match` and `bench`.
//!
//! This is glue: each subcommand's flags build a value for the library crates.

mod bench_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Tengen: a Go engine speaking GTP, with a match runner and a playout benchmark.
#[derive(Debug, Parser)]
#[command(name = "tengen", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Measure playouts a second per board size, policy and thread count.
    Bench(bench_cmd::BenchArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Bench(args)) => bench_cmd::run(args),
        None => Err("no subcommand given (try `tengen --help`)".to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tengen: {e}");
            ExitCode::FAILURE
        }
    }
}
