//! Tells the tests whether GNU Go is here, as cfgs: `has_gnugo` when the program at
//! `TENGEN_GNUGO` (default `/usr/games/gnugo`) runs, and `ci` when the `CI` variable is
//! set. The tests that need GNU Go are ignored, with the reason, when it is missing, and
//! fail under CI instead, since `.ci/run` installs it. `TENGEN_GNUGO` also reaches the
//! tests as the path to start.

use std::path::Path;
use std::process::{Command, Stdio};

const DEFAULT_GNUGO: &str = "/usr/games/gnugo";

fn main() {
    println!("cargo::rustc-check-cfg=cfg(has_gnugo)");
    println!("cargo::rustc-check-cfg=cfg(ci)");
    println!("cargo::rerun-if-env-changed=TENGEN_GNUGO");
    println!("cargo::rerun-if-env-changed=CI");
    let gnugo = std::env::var("TENGEN_GNUGO").unwrap_or_else(|_| DEFAULT_GNUGO.to_string());
    // Watch the program's folder, where installing or removing it shows (the program
    // itself when there is no such folder: a missing path reruns this every build).
    let program = Path::new(&gnugo);
    let watched = program.parent().filter(|p| p.is_dir()).unwrap_or(program);
    println!("cargo::rerun-if-changed={}", watched.display());
    println!("cargo::rustc-env=TENGEN_GNUGO={gnugo}");
    let runs = Command::new(&gnugo)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success());
    if runs {
        println!("cargo::rustc-cfg=has_gnugo");
    }
    if std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0") {
        println!("cargo::rustc-cfg=ci");
    }
}
