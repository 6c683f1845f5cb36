//! The binary driven by the real `@sabaki/gtp` npm package, exactly as Sabaki drives
//! engines (`tests/node/sabaki.mjs`). Needs Node and `npm ci` in `tests/node` (`.ci/run`
//! does it); without them the test is ignored with the reason, and fails under CI (see
//! `crates/cli/build.rs`).

use std::path::PathBuf;
use std::process::Command;

use super::binary::tengen;

#[test]
#[cfg_attr(
    not(any(has_sabaki, ci)),
    ignore = "@sabaki/gtp is not installed: run `npm ci` in tests/node (needs Node)"
)]
fn sabaki_drives_the_engine() {
    let Some(path) = tengen() else { return };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/node");
    assert!(
        dir.join("node_modules/@sabaki/gtp").exists(),
        "tests/node/node_modules is missing (run `npm ci` in tests/node)"
    );
    let out = Command::new("node")
        .current_dir(&dir)
        .arg("sabaki.mjs")
        .arg(&path)
        .args([
            "gtp",
            "--playouts",
            "300",
            "--threads",
            "1",
            "--seed",
            "3",
            "--quiet",
        ])
        .output()
        .unwrap_or_else(|e| panic!("cannot run node: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("all Sabaki checks passed"), "{stdout}");
}
