//! The binary driven by the real `@sabaki/gtp` npm package, exactly as Sabaki drives
//! engines (`tests/node/sabaki.mjs`). Needs `npm ci` in `tests/node` (`.ci/run` does it).

use std::path::PathBuf;
use std::process::Command;

use super::binary::tengen;

#[test]
fn sabaki_drives_the_engine() {
    let Some(path) = tengen() else { return };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/node");
    if !dir.join("node_modules/@sabaki/gtp").exists() {
        println!("skipped: tests/node/node_modules is missing (run `npm ci` in tests/node)");
        return;
    }
    let out = match Command::new("node")
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
    {
        Ok(out) => out,
        Err(e) => {
            println!("skipped: cannot run node ({e})");
            return;
        }
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("all Sabaki checks passed"), "{stdout}");
}
