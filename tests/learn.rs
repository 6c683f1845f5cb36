//! `tengen learn` through the real binary: two fits of the same records write the same
//! table and leave no temporary file behind; a bad temporary directory and a broken
//! table are clear errors; a table given to `tengen --move-table` is the one the tree uses.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support;
use crate::support::process::{run_with_input, succeeded, tengen};

/// A fresh directory for one test, removed when dropped.
fn fresh_dir(name: &str) -> tempfile::TempDir {
    support::scratch::fresh_dir("learn", name)
}

/// A fresh directory for one test holding a collection of a few short 9×9 games, and
/// the collection's path.
fn records(name: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = fresh_dir(name);
    let games = [
        "(;SZ[9];B[ee];W[ec];B[cd];W[ge];B[gg];W[dg];B[cf];W[fg])",
        "(;SZ[9];B[ee];W[ce];B[dc];W[eg];B[gg];W[gd];B[fc];W[dg])",
        "(;SZ[9];B[ee];W[eg];B[cf];W[gc];B[cc];W[gf];B[dg];W[ge])",
        "(;SZ[9];B[ee];W[ge];B[fc];W[cg];B[cc];W[dg];B[gg];W[fg])",
    ];
    let path = tmp.path().join("games.sgf");
    std::fs::write(&path, games.join("\n")).unwrap();
    (tmp, path)
}

/// Quick fitting flags for the few games of [`records`].
const QUICK: [&str; 4] = ["--min-played", "2", "--rounds", "5"];

/// `tengen learn fit --out OUT EXTRA… SGF`.
fn fit(out: &Path, extra: &[&str], sgf: &Path) -> Output {
    let out = out.to_str().unwrap();
    tengen(
        &[
            &["learn", "fit", "--out", out],
            extra,
            &[sgf.to_str().unwrap()],
        ]
        .concat(),
    )
}

/// `tengen learn eval --model MODEL SGF`.
fn eval(model: &Path, sgf: &Path) -> Output {
    tengen(&[
        "learn",
        "eval",
        "--model",
        model.to_str().unwrap(),
        sgf.to_str().unwrap(),
    ])
}

/// `tengen learn eval --policy-net NET SGF`.
fn eval_net(net: &str, sgf: &Path) -> Output {
    tengen(&["learn", "eval", "--policy-net", net, sgf.to_str().unwrap()])
}

/// The process's stderr; fails the test if it succeeded.
fn failed(run: &Output) -> String {
    assert!(
        !run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stdout)
    );
    String::from_utf8_lossy(&run.stderr).into_owned()
}

/// Fails the test, with the whole text, unless `text` says every one of `words`.
fn says(text: &str, words: &[&str]) {
    assert!(words.iter().all(|w| text.contains(w)), "{words:?}: {text}");
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn two_fits_write_the_same_table_and_leave_nothing_behind() {
    let (tmp, sgf) = records("fit");
    let dir = tmp.path();
    let spill = dir.join("spill");
    std::fs::create_dir(&spill).unwrap();
    let mut tables = Vec::new();
    for name in ["a.txt", "b.txt"] {
        let out = dir.join(name);
        let run = fit(
            &out,
            &[&QUICK[..], &["--temp-dir", spill.to_str().unwrap()]].concat(),
            &sgf,
        );
        succeeded(&run);
        tables.push(text(&out));
    }
    // The header names the command, which differs only in the output's name.
    let body = |t: &str| -> String { t.lines().filter(|l| !l.starts_with('#')).collect() };
    assert!(body(&tables[0]).contains("pattern "), "{}", tables[0]);
    assert_eq!(body(&tables[0]), body(&tables[1]));
    assert_eq!(std::fs::read_dir(&spill).unwrap().count(), 0);
    // The table reads back and scores the games.
    let eval = eval(&dir.join("a.txt"), &sgf);
    succeeded(&eval);
    assert!(String::from_utf8_lossy(&eval.stdout).contains("all "));
}

#[test]
fn a_missing_temporary_directory_and_a_broken_table_are_clear_errors() {
    let (tmp, sgf) = records("errors");
    let dir = tmp.path();
    let out = dir.join("never.txt");
    let missing = dir.join("no-such-dir");
    let run = fit(&out, &["--temp-dir", missing.to_str().unwrap()], &sgf);
    says(&failed(&run), &["no-such-dir", "--temp-dir"]);
    assert!(!out.exists());
    let broken = dir.join("broken.txt");
    std::fs::write(&broken, "# a table\ntactical pass 1 x 1\n").unwrap();
    let run = eval(&broken, &sgf);
    says(&failed(&run), &["broken.txt", "line 2"]);
}

#[test]
fn a_fit_without_groups_records_them_and_eval_honours_them() {
    let (tmp, sgf) = records("without");
    let dir = tmp.path();
    let out = dir.join("tactics.txt");
    let without = ["--without", "large-patterns,shape,capture"];
    let run = fit(&out, &[&QUICK[..], &without].concat(), &sgf);
    succeeded(&run);
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
    let eval = eval(&out, &sgf);
    succeeded(&eval);
    says(
        &String::from_utf8_lossy(&eval.stdout),
        &["left out: capture,shape,large-patterns"],
    );
}

#[test]
fn an_unknown_group_and_a_bad_without_header_are_clear_errors() {
    let (tmp, sgf) = records("without-errors");
    let dir = tmp.path();
    let out = dir.join("never.txt");
    for bad in ["shape,bogus", "pass", ""] {
        let run = fit(&out, &["--without", bad], &sgf);
        let groups = "capture, escape, atari, self-atari, previous, before-previous, edge, shape, large-patterns";
        says(&failed(&run), &["--without", groups]);
        assert!(!out.exists());
    }
    let broken = dir.join("broken.txt");
    std::fs::write(
        &broken,
        "# a table\n# fitted without\nwithout shape bogus\n",
    )
    .unwrap();
    let run = eval(&broken, &sgf);
    says(&failed(&run), &["broken.txt", "line 3", "\"bogus\""]);
}

/// A table with every tactical value at strength 1 but the edge group's, where every
/// line but the first is crushed: as the prior it makes the first line the model's
/// favourite everywhere.
fn first_line_table(dir: &Path) -> PathBuf {
    let mut table = String::from("# first line only\n");
    for (name, values) in tengen_knowledge::move_model::features::GROUPS {
        // Value 0 of `edge` is the first line; every other value is crushed.
        let rest = if name == "edge" { " 0.000001" } else { " 1" };
        table += &format!("tactical {name} 1{}\n", rest.repeat(values - 1));
    }
    let path = dir.join("first-line.txt");
    std::fs::write(&path, table).unwrap();
    path
}

/// `genmove b` on an empty 9×9 board, 50 playouts, the model's virtual wins made
/// overwhelming, with these extra flags; the answer and the exit status.
fn first_move(extra: &[&str]) -> (String, bool) {
    // A process that refuses to start may have closed its input already.
    let out = run_with_input(
        Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args([
                "--playouts",
                "50",
                "--threads",
                "1",
                "--quiet",
                "--seed",
                "1",
            ])
            .args(["--model-weight", "100000"])
            .args(extra),
        "boardsize 9\ngenmove b\nquit\n",
    );
    let answers = String::from_utf8_lossy(&out.stdout).into_owned();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (answers + &err, out.status.success())
}

#[test]
fn a_move_table_replaces_the_shipped_one_and_a_broken_one_stops_the_start() {
    let tmp = fresh_dir("move-table");
    let dir = tmp.path();
    let table = first_line_table(dir);
    let first_line = |answer: &str| {
        let mv = answer.split_whitespace().nth(2).unwrap_or("").to_owned();
        let on_edge = mv.starts_with(['A', 'J']) || mv.ends_with('1') || mv.ends_with('9');
        (mv, on_edge)
    };
    let (shipped, ok) = first_move(&[]);
    assert!(ok, "{shipped}");
    let (mv, on_edge) = first_line(&shipped);
    assert!(!mv.is_empty() && !on_edge, "{shipped}");
    let (custom, ok) = first_move(&["--move-table", table.to_str().unwrap()]);
    assert!(ok, "{custom}");
    let (mv, on_edge) = first_line(&custom);
    assert!(on_edge, "{mv}: {custom}");
    // A table that does not load: the engine does not start, and says where.
    let broken = dir.join("broken.txt");
    std::fs::write(&broken, "# a table\ntactical pass 1 x 1\n").unwrap();
    let (answer, ok) = first_move(&["--move-table", broken.to_str().unwrap()]);
    assert!(!ok && !answer.contains("= "), "{answer}");
    assert!(
        answer.contains("broken.txt") && answer.contains("line 2"),
        "{answer}"
    );
    let missing = dir.join("missing.txt");
    let (answer, ok) = first_move(&["--move-table", missing.to_str().unwrap()]);
    assert!(!ok && answer.contains("missing.txt"), "{answer}");
}

#[test]
fn eval_scores_the_policy_network_and_refuses_what_it_cannot_read() {
    let (tmp, nine) = records("policy-net");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let net = root.join("crates/knowledge/data/policy-19.safetensors");
    let net = net.to_str().unwrap();
    let nineteen = root.join("tests/data/sgf/handicap19.sgf");
    let run = eval_net(net, &nineteen);
    succeeded(&run);
    says(
        &String::from_utf8_lossy(&run.stdout),
        &["policy network", "19×19", "all "],
    );
    // The evaluation scores the network on its own size: records of 9×9 games only
    // are an error.
    let run = eval_net(net, &nine);
    says(&failed(&run), &["19×19", "9×9"]);
    // A 9×9 game among 19×19 ones is skipped and counted, wherever it comes.
    let mixed = tmp.path().join("mixed.sgf");
    let game19 = std::fs::read_to_string(&nineteen).unwrap();
    let games = format!("(;SZ[9];B[ee];W[ec])\n{game19}\n(;SZ[9];B[ee])\n");
    std::fs::write(&mixed, games).unwrap();
    let run = eval_net(net, &mixed);
    succeeded(&run);
    says(
        &String::from_utf8_lossy(&run.stdout),
        &["3 games", "2 on another board size, skipped", "all "],
    );
    let broken = tmp.path().join("broken.safetensors");
    std::fs::write(&broken, "not a weights file").unwrap();
    let run = eval_net(broken.to_str().unwrap(), &nine);
    says(&failed(&run), &["broken.safetensors", "safetensors"]);
    // One of the two, not both.
    let moves = root.join("crates/knowledge/data/moves.txt");
    let both = [
        "learn",
        "eval",
        "--policy-net",
        net,
        "--model",
        moves.to_str().unwrap(),
    ];
    failed(&tengen(&[&both[..], &[nine.to_str().unwrap()]].concat()));
}

/// `tengen learn outcomes` scores the search's win rate against the records' results:
/// the games decided on the board or by resignation, `--per-game` positions each, a
/// table by the move's number; the same seed draws the same positions and gives the
/// same table; a forecast by the network alone needs a network with the value head.
#[test]
fn outcomes_score_the_win_rate_against_the_results() {
    let sgf = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sgf/policy/results19.sgf");
    let sgf = sgf.to_str().unwrap();
    let run = || {
        let out = tengen(&[
            "learn",
            "outcomes",
            "--playouts",
            "30",
            "--per-game",
            "2",
            "--policy-net",
            "off",
            sgf,
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{stderr}");
        (String::from_utf8_lossy(&out.stdout).into_owned(), stderr)
    };
    let (table, stderr) = run();
    // One broken record refused; the game won on time is left out.
    assert!(
        stderr.contains("5 games read (1 refused), 1 without a result decided on the board"),
        "{stderr}"
    );
    let all = table.lines().find(|l| l.starts_with("all")).expect(&table);
    assert_eq!(all.split_whitespace().nth(1), Some("6"), "{table}");
    for bucket in ["40-99", "100-159", "160+"] {
        assert!(table.contains(bucket), "{table}");
    }
    assert_eq!(run().0, table, "the same seed gives the same table");
    // Refused in one line: a forecast by no network, and a network that is not there.
    for (flags, want) in [
        (
            ["--playouts", "0", "--policy-net", "off"],
            "name a weights file with the value head",
        ),
        (
            [
                "--policy-net",
                "/nonexistent/net.safetensors",
                "--seed",
                "1",
            ],
            "/nonexistent/net.safetensors",
        ),
    ] {
        let refused = tengen(&[&["learn", "outcomes"][..], &flags, &[sgf]].concat());
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert!(
            !refused.status.success() && stderr.contains(want),
            "{stderr}"
        );
    }
}

/// `tengen learn export` judges each game's final ownership with the engine (one
/// thread, seed 1): two exports of the same records write the same bytes, the labels
/// included, and the header names the judgement's playouts.
#[test]
fn two_exports_judge_the_same_ownership() {
    let (tmp, sgf) = records("export-judged");
    let export = |out: &str| {
        let out = tmp.path().join(out);
        let run = tengen(&[
            "learn",
            "export",
            "--no-held-out",
            "--board-size",
            "9",
            "--ownership-playouts",
            "40",
            "--out",
            out.to_str().unwrap(),
            sgf.to_str().unwrap(),
        ]);
        support::process::succeeded(&run);
        std::fs::read(out.join("train-00000.tgp")).unwrap()
    };
    let first = export("a");
    assert_eq!(first, export("b"), "two exports of the same records differ");
    // The header's playouts (bytes 44..48), and the four games' labels after the
    // records: each game's ownership was judged (not all zero).
    assert_eq!(u32::from_le_bytes(first[44..48].try_into().unwrap()), 40);
    let entry = 12 + 81;
    let table = &first[first.len() - 4 * entry..];
    for game in table.chunks(entry) {
        assert!(game[12..].iter().any(|&o| o != 0), "a game left unjudged");
    }
}
