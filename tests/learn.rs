//! `tengen learn` through the real binary: two fits of the same records write the same
//! table and leave no temporary file behind; a bad temporary directory and a broken
//! table are clear errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tengen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(args)
        .output()
        .expect("the tengen binary runs")
}

/// A fresh directory under the system's temporary one.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-learn-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A collection of a few short 9×9 games.
fn records(dir: &Path) -> PathBuf {
    let games = [
        "(;SZ[9];B[ee];W[ec];B[cd];W[ge];B[gg];W[dg];B[cf];W[fg])",
        "(;SZ[9];B[ee];W[ce];B[dc];W[eg];B[gg];W[gd];B[fc];W[dg])",
        "(;SZ[9];B[ee];W[eg];B[cf];W[gc];B[cc];W[gf];B[dg];W[ge])",
        "(;SZ[9];B[ee];W[ge];B[fc];W[cg];B[cc];W[dg];B[gg];W[fg])",
    ];
    let path = dir.join("games.sgf");
    std::fs::write(&path, games.join("\n")).unwrap();
    path
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn two_fits_write_the_same_table_and_leave_nothing_behind() {
    let dir = fresh_dir("fit");
    let sgf = records(&dir);
    let spill = dir.join("spill");
    std::fs::create_dir(&spill).unwrap();
    let mut tables = Vec::new();
    for name in ["a.txt", "b.txt"] {
        let out = dir.join(name);
        let run = tengen(&[
            "learn",
            "fit",
            "--out",
            out.to_str().unwrap(),
            "--min-played",
            "2",
            "--rounds",
            "5",
            "--temp-dir",
            spill.to_str().unwrap(),
            sgf.to_str().unwrap(),
        ]);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        tables.push(text(&out));
    }
    // The header names the command, which differs only in the output's name.
    let body = |t: &str| -> String { t.lines().filter(|l| !l.starts_with('#')).collect() };
    assert!(body(&tables[0]).contains("pattern "), "{}", tables[0]);
    assert_eq!(body(&tables[0]), body(&tables[1]));
    assert_eq!(std::fs::read_dir(&spill).unwrap().count(), 0);
    // The table reads back and scores the games.
    let eval = tengen(&[
        "learn",
        "eval",
        "--model",
        dir.join("a.txt").to_str().unwrap(),
        sgf.to_str().unwrap(),
    ]);
    assert!(
        eval.status.success(),
        "{}",
        String::from_utf8_lossy(&eval.stderr)
    );
    assert!(String::from_utf8_lossy(&eval.stdout).contains("all "));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_temporary_directory_and_a_broken_table_are_clear_errors() {
    let dir = fresh_dir("errors");
    let sgf = records(&dir);
    let out = dir.join("never.txt");
    let missing = dir.join("no-such-dir");
    let run = tengen(&[
        "learn",
        "fit",
        "--out",
        out.to_str().unwrap(),
        "--temp-dir",
        missing.to_str().unwrap(),
        sgf.to_str().unwrap(),
    ]);
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("no-such-dir") && err.contains("--temp-dir"),
        "{err}"
    );
    assert!(!out.exists());
    let broken = dir.join("broken.txt");
    std::fs::write(&broken, "# a table\ntactical pass 1 x 1\n").unwrap();
    let run = tengen(&[
        "learn",
        "eval",
        "--model",
        broken.to_str().unwrap(),
        sgf.to_str().unwrap(),
    ]);
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("broken.txt") && err.contains("line 2"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fit_without_groups_records_them_and_eval_honours_them() {
    let dir = fresh_dir("without");
    let sgf = records(&dir);
    let out = dir.join("tactics.txt");
    let run = tengen(&[
        "learn",
        "fit",
        "--out",
        out.to_str().unwrap(),
        "--min-played",
        "2",
        "--rounds",
        "5",
        "--without",
        "large-patterns,shape,capture",
        sgf.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let table = text(&out);
    assert!(
        table
            .lines()
            .any(|l| l == "without capture shape large-patterns"),
        "{table}"
    );
    assert!(
        !table.lines().any(|l| l.starts_with("pattern ")
            || l.starts_with("shape ")
            || l.starts_with("tactical capture")),
        "{table}"
    );
    let eval = tengen(&[
        "learn",
        "eval",
        "--model",
        out.to_str().unwrap(),
        sgf.to_str().unwrap(),
    ]);
    assert!(
        eval.status.success(),
        "{}",
        String::from_utf8_lossy(&eval.stderr)
    );
    let said = String::from_utf8_lossy(&eval.stdout);
    assert!(
        said.contains("left out: capture,shape,large-patterns"),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unknown_group_and_a_bad_without_header_are_clear_errors() {
    let dir = fresh_dir("without-errors");
    let sgf = records(&dir);
    let out = dir.join("never.txt");
    for bad in ["shape,bogus", "pass", ""] {
        let run = tengen(&[
            "learn",
            "fit",
            "--out",
            out.to_str().unwrap(),
            "--without",
            bad,
            sgf.to_str().unwrap(),
        ]);
        assert!(!run.status.success(), "{bad:?}");
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(
            err.contains("--without")
                && err.contains(
                    "capture, escape, atari, self-atari, previous, before-previous, edge, shape, large-patterns"
                ),
            "{bad:?}: {err}"
        );
        assert!(!out.exists());
    }
    let broken = dir.join("broken.txt");
    std::fs::write(
        &broken,
        "# a table\n# fitted without\nwithout shape bogus\n",
    )
    .unwrap();
    let run = tengen(&[
        "learn",
        "eval",
        "--model",
        broken.to_str().unwrap(),
        sgf.to_str().unwrap(),
    ]);
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("broken.txt") && err.contains("line 3") && err.contains("\"bogus\""),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
