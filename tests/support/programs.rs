//! The outside programs some tests drive (GNU Go, Chromium, `rsvg-convert`, Node with
//! Sabaki's npm packages), looked for when the test runs rather than when it is built.
//!
//! A test that needs some calls [`available`] first and returns at once when it says
//! no. Where a program is missing the test is skipped with a note on stderr (past the
//! test harness's capture, so that `cargo test` shows it) and passes; where the `CI`
//! variable is set (to anything but `false` or `0`), it fails instead: `.ci/run` sets
//! it and installs every program first (`.ci/install`), so a missing one is a broken
//! install, not a test to skip.
//!
//! The root package's tests include this file as `support::programs`; the match
//! runner's (`crates/arena/tests/common/mod.rs`) include it by path.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A program a test drives: its name, how to install it, how to tell it is here.
#[derive(Clone, Copy, Debug)]
pub struct Program {
    /// What the note calls it.
    pub name: &'static str,
    /// How to install it.
    pub install: &'static str,
    /// Whether it is here, probed when asked.
    present: fn() -> bool,
}

/// GNU Go, at [`gnugo`].
pub const GNU_GO: Program = Program {
    name: "GNU Go",
    install: "apt-get install gnugo, or name it in TENGEN_GNUGO",
    present: || runs(&gnugo()),
};

/// Headless Chromium, on the `PATH`.
pub const CHROMIUM: Program = Program {
    name: "Chromium",
    install: "apt-get install chromium",
    present: || runs(Path::new("chromium")),
};

/// `rsvg-convert` (Debian's librsvg2-bin), on the `PATH`.
pub const RSVG_CONVERT: Program = Program {
    name: "rsvg-convert",
    install: "apt-get install librsvg2-bin",
    present: || runs(Path::new("rsvg-convert")),
};

/// Node with the npm package `@sabaki/gtp` installed in `tests/node`.
pub const SABAKI_GTP: Program = Program {
    name: "@sabaki/gtp",
    install: "npm ci in tests/node, with Node",
    present: || sabaki_package("gtp"),
};

/// Node with the npm package `@sabaki/sgf` installed in `tests/node`.
pub const SABAKI_SGF: Program = Program {
    name: "@sabaki/sgf",
    install: "npm ci in tests/node, with Node",
    present: || sabaki_package("sgf"),
};

/// GNU Go's path: `TENGEN_GNUGO`, else `/usr/games/gnugo` (where Debian installs it).
pub fn gnugo() -> PathBuf {
    std::env::var_os("TENGEN_GNUGO")
        .map_or_else(|| PathBuf::from("/usr/games/gnugo"), PathBuf::from)
}

/// Whether every one of `programs` is here. Where one is missing: under CI the test
/// fails, naming them; elsewhere a note on stderr says that the test is skipped, and
/// why, and this returns `false` (the test then returns).
pub fn available(programs: &[Program]) -> bool {
    let missing: Vec<String> = programs
        .iter()
        .filter(|p| !(p.present)())
        .map(|p| format!("{} ({})", p.name, p.install))
        .collect();
    if missing.is_empty() {
        return true;
    }
    let missing = missing.join(", ");
    assert!(
        !under_ci(),
        "missing under CI: {missing}; .ci/install installs it"
    );
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    // Straight to the process's stderr: the harness shows only a failing test's
    // captured output, and this one passes.
    let _ = writeln!(
        std::io::stderr().lock(),
        "note: {test} skipped: it needs {missing}"
    );
    false
}

/// Whether the `CI` variable is set, to anything but `false` or `0`.
fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Whether `program --version` runs and succeeds.
fn runs(program: &Path) -> bool {
    Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether Node runs and `tests/node` holds the npm package `@sabaki/NAME`.
fn sabaki_package(name: &str) -> bool {
    let package = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| {
            dir.join(format!(
                "tests/node/node_modules/@sabaki/{name}/package.json"
            ))
        })
        .find(|p| p.is_file());
    package.is_some() && runs(Path::new("node"))
}
