//! The binary driven by the real `@sabaki/gtp` npm package, exactly as Sabaki drives
//! engines (`tests/node/sabaki.mjs`). Needs Node and `npm ci` in `tests/node` (`.ci/run`
//! does it); without them the test is skipped with a note, and fails under CI (see
//! `tests/support/programs.rs`).

use super::binary::tengen;
use crate::support::process::sabaki_checks;
use crate::support::programs::{SABAKI_GTP, available};

#[test]
fn sabaki_drives_the_engine() {
    if !available(&[SABAKI_GTP]) {
        return;
    }
    let Some(path) = tengen() else { return };
    let engine = path.to_str().unwrap();
    let flags = [
        "--playouts",
        "300",
        "--threads",
        "1",
        "--seed",
        "3",
        "--quiet",
    ];
    let args = [&[engine, "gtp"][..], &flags].concat();
    sabaki_checks("@sabaki/gtp", "sabaki.mjs", &args);
}
