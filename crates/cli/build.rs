//! The root package's build script. It names the commit the binary is built from
//! (`TENGEN_COMMIT`, which `tengen --version` and GTP `version` print), and tells the
//! integration tests (`tests/`) whether the outside programs they drive are here, as cfgs: `has_sabaki` when the npm package
//! `@sabaki/gtp` is installed in `tests/node` and `node` runs, `has_gnugo_and_chromium` when
//! `/usr/games/gnugo` and `chromium` both run, and `ci` when the `CI`
//! variable is set. A test that needs a missing program is ignored, with the reason, and
//! under CI it fails instead, since `.ci/run` installs them.

use std::path::Path;
use std::process::{Command, Stdio};

fn main() {
    commit();
    test_programs();
}

/// Sets `TENGEN_COMMIT` to the short hash of the checked-out commit, or `unknown` outside
/// a git checkout (a source archive) or without git.
fn commit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(root)
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let hash = git(&["rev-parse", "--short=7", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo::rustc-env=TENGEN_COMMIT={hash}");
    // A commit moves HEAD or the branch it names (its file, or packed-refs), and
    // rewrites the index. Only files that exist are watched: cargo reruns a build
    // script that watches a missing file on every build.
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        let branch = git(&["symbolic-ref", "-q", "HEAD"]);
        let files = ["HEAD", "index", "packed-refs"]
            .into_iter()
            .map(String::from)
            .chain(branch);
        for f in files {
            let path = Path::new(&dir).join(f);
            if path.is_file() {
                println!("cargo::rerun-if-changed={}", path.display());
            }
        }
    }
}

/// The cfgs that say which outside programs the integration tests can drive.
fn test_programs() {
    println!("cargo::rustc-check-cfg=cfg(has_sabaki)");
    println!("cargo::rustc-check-cfg=cfg(ci)");
    println!("cargo::rerun-if-env-changed=CI");
    // `node` is looked up on the PATH.
    println!("cargo::rerun-if-env-changed=PATH");
    // `npm ci` creates (or replaces) tests/node/node_modules.
    println!("cargo::rerun-if-changed=tests/node");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/node");
    let sabaki = ["gtp", "sgf"].iter().all(|p| {
        dir.join(format!("node_modules/@sabaki/{p}/package.json"))
            .is_file()
    });
    let node = Command::new("node")
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success());
    if sabaki && node {
        println!("cargo::rustc-cfg=has_sabaki");
    }
    // GNU Go and Chromium, for the match report's test (a real match, a headless render).
    println!("cargo::rustc-check-cfg=cfg(has_gnugo_and_chromium)");
    let runs = |program: &str| {
        Command::new(program)
            .arg("--version")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if runs("/usr/games/gnugo") && runs("chromium") {
        println!("cargo::rustc-cfg=has_gnugo_and_chromium");
    }
    if std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0") {
        println!("cargo::rustc-cfg=ci");
    }
    // GNU Go reads the reviewed records back, and `rsvg-convert` (Debian's
    // librsvg2-bin) turns the review's graph into a PNG.
    println!("cargo::rustc-check-cfg=cfg(has_gnugo, has_rsvg)");
    for (program, cfg) in [
        ("/usr/games/gnugo", "has_gnugo"),
        ("rsvg-convert", "has_rsvg"),
    ] {
        let runs = Command::new(program)
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .is_ok_and(|o| o.status.success());
        if runs {
            println!("cargo::rustc-cfg={cfg}");
        }
    }
    println!("cargo::rerun-if-changed=/usr/games");
}
