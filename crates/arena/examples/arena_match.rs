//! A bare command line for the arena (the `tengen match` subcommand is the real one):
//! `arena_match --out DIR [--games N] [--size S] [--komi K] [--parallel J]
//! [--move-timeout SECS] [--time SPEC] [--resume] [--report FILE.html] -e CMD -e CMD [...]`.
//! The tests use it to kill a match in the middle and resume it.

use std::process::ExitCode;
use std::time::Duration;

use tengen_arena::{MatchConfig, run_match};

fn main() -> ExitCode {
    let mut engines = Vec::new();
    let mut cfg = MatchConfig::new(Vec::new(), "match-out".into());
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_default();
        let ok = match a.as_str() {
            "-e" => {
                engines.push(value());
                true
            }
            "--out" => {
                cfg.out = value().into();
                true
            }
            "--games" => value().parse().map(|v| cfg.games = v).is_ok(),
            "--size" => value().parse().map(|v| cfg.size = v).is_ok(),
            "--komi" => value().parse().map(|v| cfg.komi = v).is_ok(),
            "--parallel" => value().parse().map(|v| cfg.parallel = v).is_ok(),
            "--move-timeout" => value()
                .parse()
                .map(|v| cfg.move_timeout = Duration::from_secs_f64(v))
                .is_ok(),
            "--time" => value().parse().map(|v| cfg.time = Some(v)).is_ok(),
            "--report" => {
                cfg.report = Some(value().into());
                true
            }
            "--resume" => {
                cfg.resume = true;
                true
            }
            _ => false,
        };
        if !ok {
            eprintln!("arena_match: bad argument {a:?}");
            return ExitCode::from(2);
        }
    }
    cfg.engines = engines.into_iter().map(Into::into).collect();
    match run_match(&cfg) {
        Ok(summary) => {
            print!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("arena_match: {e}");
            ExitCode::FAILURE
        }
    }
}
