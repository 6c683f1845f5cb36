//! The root package's build script: tells the integration tests (`tests/`) whether the
//! outside programs they drive are here, as cfgs: `has_sabaki` when the npm package
//! `@sabaki/gtp` is installed in `tests/node` and `node` runs, and `ci` when the `CI`
//! variable is set. A test that needs a missing program is ignored, with the reason, and
//! under CI it fails instead, since `.ci/run` installs them.

use std::path::Path;
use std::process::{Command, Stdio};

fn main() {
    println!("cargo::rustc-check-cfg=cfg(has_sabaki)");
    println!("cargo::rustc-check-cfg=cfg(ci)");
    println!("cargo::rerun-if-env-changed=CI");
    // `node` is looked up on the PATH.
    println!("cargo::rerun-if-env-changed=PATH");
    // `npm ci` creates (or replaces) tests/node/node_modules.
    println!("cargo::rerun-if-changed=tests/node");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/node");
    let sabaki = dir.join("node_modules/@sabaki/gtp/package.json").is_file();
    let node = Command::new("node")
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success());
    if sabaki && node {
        println!("cargo::rustc-cfg=has_sabaki");
    }
    if std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0") {
        println!("cargo::rustc-cfg=ci");
    }
}
