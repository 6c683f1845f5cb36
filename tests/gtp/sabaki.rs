//! The binary driven by the real `@sabaki/gtp` npm package, exactly as Sabaki drives
//! engines (`tests/node/sabaki.mjs`). Needs Node and `npm ci` in `tests/node` (`.ci/run`
//! does it); without them the test is ignored with the reason, and fails under CI (see
//! `crates/cli/build.rs`).

use super::binary::tengen;
use crate::support::process::sabaki_checks;

#[test]
#[cfg_attr(
    not(any(has_sabaki, ci)),
    ignore = "@sabaki/gtp is not installed: run `npm ci` in tests/node (needs Node)"
)]
fn sabaki_drives_the_engine() {
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
