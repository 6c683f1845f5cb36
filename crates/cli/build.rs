//! The root package's build script. It names the commit the binary is built from
//! (`TENGEN_COMMIT`, which `tengen --version` and GTP `version` print). The outside
//! programs the integration tests drive are looked for by the tests themselves, when
//! they run (`tests/support/programs.rs`).

use std::path::Path;
use std::process::{Command, Stdio};

/// Sets `TENGEN_COMMIT` to the short hash of the checked-out commit, or `unknown` outside
/// a git checkout (a source archive) or without git.
fn main() {
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
    // Without a line of this kind cargo would run the script again whenever any file
    // of the package changes (outside a git checkout, where nothing else is watched).
    println!("cargo::rerun-if-changed=crates/cli/build.rs");
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
