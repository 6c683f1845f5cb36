//! What the match tests and the report tests both set up: the fake engine's command,
//! a quick 5×5 match, the `arena_match` example beside the test binary, and the
//! outside programs the tests look for (the root's `tests/support/programs.rs`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use tengen_arena::MatchConfig;

/// GNU Go and the other outside programs, looked for when a test runs (skipped where
/// missing, failing under CI).
#[allow(dead_code)]
#[path = "../../../../tests/support/programs.rs"]
pub mod programs;

/// The command line of the Python GTP engine `tests/fake_engine.py` with `args`.
pub fn fake(args: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engine.py");
    format!("python3 {} {args}", script.display())
}

/// A match of `games` quick 5×5 games between `engines`, two at a time, written to
/// `out`, with no progress bar.
pub fn config(engines: &[String], games: u32, out: &Path) -> MatchConfig {
    let mut cfg = MatchConfig::new(engines.to_vec(), out.to_path_buf());
    cfg.games = games;
    cfg.size = 5;
    cfg.komi = 0.5;
    cfg.move_timeout = Duration::from_secs(5);
    cfg.startup_timeout = Duration::from_secs(10);
    cfg.parallel = 2;
    cfg.progress = false;
    cfg
}

/// The `arena_match` example, built beside this test by `cargo test`.
pub fn example_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let bin = exe.parent()?.parent()?.join("examples").join("arena_match");
    bin.exists().then_some(bin)
}
