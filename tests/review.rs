//! `tengen review` through the real binary, as a user runs it: the reviewed record has
//! the annotations on every move and keeps the record's own comments and variations;
//! Sabaki's SGF parser, Tengen and GNU Go load it; the graph renders; a review killed
//! midway resumes losing and re-analysing nothing; bad input is a clear error and
//! writes nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use sgf_parse::SgfNode;
use sgf_parse::go::Prop;

use crate::support;
use crate::support::process::{run_with_input, sabaki_checks, tengen};
use crate::support::programs::{GNU_GO, Program, RSVG_CONVERT, SABAKI_SGF, available, gnugo};

/// A short 9×9 game with a comment at the root and on move 3, and a variation of the
/// record's own at move 4.
const GAME: &str = "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[Ann]PW[Bob]C[Club game]\
;B[ee];W[ce];B[dc]C[Was this right?]\
(;W[eg];B[gg];W[gd];B[fc];W[dg];B[cf];W[be])\
(;W[gc]C[Bob's idea]))";
/// Its moves.
const MOVES: usize = 10;
/// Quick and repeatable engine settings.
const FAST: &[&str] = &["--playouts", "100", "--threads", "1", "--seed", "3"];

/// A fresh directory for one test, removed when dropped.
fn fresh_dir(name: &str) -> tempfile::TempDir {
    support::scratch::fresh_dir("review", name)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `text` written to `file` in a fresh directory `name`: the directory and the file's
/// path.
fn record(name: &str, file: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = fresh_dir(name);
    let path = write(tmp.path(), file, text);
    (tmp, path)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs a review that must succeed; returns its stdout and stderr.
fn review(args: &[&str]) -> (String, String) {
    let out = tengen(&[&["review"], args].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr(&out),
    )
}

/// Reviews `game` on one thread at `playouts` a position; returns the review's stderr.
fn review_one_thread(game: &Path, playouts: &str) -> String {
    review(&[s(game), "--playouts", playouts, "--threads", "1"]).1
}

fn parse(path: &Path) -> SgfNode<Prop> {
    let text = std::fs::read_to_string(path).unwrap();
    sgf_parse::go::parse(&text).unwrap().remove(0)
}

fn unknown(node: &SgfNode<Prop>, id: &str) -> Vec<String> {
    match node.get_property(id) {
        Some(Prop::Unknown(_, values)) => values.clone(),
        _ => Vec::new(),
    }
}

fn comment(node: &SgfNode<Prop>) -> String {
    match node.get_property("C") {
        Some(Prop::C(t)) => t.text.clone(),
        _ => String::new(),
    }
}

/// The `TGR` values of the main line, in order: the evaluations a review keeps.
fn kept(path: &Path) -> Vec<String> {
    parse(path)
        .main_variation()
        .flat_map(|n| unknown(n, "TGR"))
        .collect()
}

/// The reviewed record of `GAME` in a fresh folder, with its graph.
fn reviewed(name: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = fresh_dir(name);
    let game = write(tmp.path(), "game.sgf", GAME);
    let svg = tmp.path().join("graph.svg");
    review(&[&[s(&game), "--svg", s(&svg)], FAST].concat());
    let out = tmp.path().join("game-review.sgf");
    (tmp, out, svg)
}

/// [`reviewed`], where `program` is here; else `None` (see [`available`]).
fn reviewed_with(program: Program, name: &str) -> Option<(tempfile::TempDir, PathBuf, PathBuf)> {
    available(&[program]).then(|| reviewed(name))
}

#[test]
fn every_move_is_annotated_and_the_record_keeps_its_own() {
    let (_tmp, out, svg) = reviewed("annotations");
    let root = parse(&out);
    let line: Vec<&SgfNode<Prop>> = root.main_variation().collect();
    assert_eq!(line.len(), MOVES + 1);
    for (i, node) in line.iter().enumerate() {
        let sbkv = unknown(node, "SBKV");
        let w: f64 = sbkv.first().and_then(|v| v.parse().ok()).unwrap_or(-1.0);
        assert!((0.0..=100.0).contains(&w), "node {i}: SBKV {sbkv:?}");
        let sbks = unknown(node, "SBKS");
        assert!(
            sbks.first().and_then(|v| v.parse::<f64>().ok()).is_some(),
            "node {i}"
        );
        assert_eq!(unknown(node, "TGR").len(), 1, "node {i}");
        if i > 0 {
            assert!(
                comment(node).contains(&format!("Tengen: move {i}, ")),
                "{i}"
            );
        }
    }
    // The record's own comments come first, the review's after them.
    assert!(comment(line[0]).starts_with("Club game\n\nTengen review: Tengen "));
    assert!(comment(line[0]).contains("Key mistakes"));
    assert!(comment(line[3]).starts_with("Was this right?\n\nTengen: move 3, B D7."));
    // The record's variation is still the second child of move 3, as it was.
    let after3: Vec<&SgfNode<Prop>> = line[3].children().collect();
    assert_eq!(comment(after3[1]), "Bob's idea");
    // Wherever Tengen preferred another move, its variation hangs beside the move.
    let preferred = line
        .iter()
        .flat_map(|n| n.children().skip(1))
        .filter(|v| comment(v).starts_with("Tengen's preferred move"))
        .count();
    let differs = line
        .iter()
        .skip(1)
        .filter(|n| comment(n).contains("\nTengen prefers "))
        .count();
    assert_eq!(preferred, differs);
    // Mistakes carry BM; the listed ones are those.
    let marked = line
        .iter()
        .filter(|n| n.get_property("BM").is_some())
        .count();
    let listed = comment(line[0]).matches("\n  move ").count();
    assert_eq!(marked, listed.min(marked));
    assert!(svg.is_file());
}

#[test]
fn the_review_repeats_and_its_record_loads_back_in_tengen() {
    let (tmp, out, _) = reviewed("tengen");
    // One thread, a seed and a playout budget: the same review again.
    let again = tmp.path().join("again.sgf");
    let game = tmp.path().join("game.sgf");
    review(&[&[s(&game), "-o", s(&again)], FAST].concat());
    assert_eq!(kept(&out), kept(&again));
    // Tengen reads the reviewed record as the game it was.
    let gtp = |file: &Path| {
        stones_as_loaded(
            Command::new(env!("CARGO_BIN_EXE_tengen")).args(["gtp", "--quiet"]),
            file,
        )
    };
    let original = gtp(&game);
    assert!(original.starts_with("=\n\n= "), "{original}");
    assert_eq!(gtp(&out), original);
}

/// What a GTP engine started by `engine` answers to `loadsgf FILE` and the two
/// `list_stones` after it.
fn stones_as_loaded(engine: &mut Command, file: &Path) -> String {
    let input = format!(
        "loadsgf {}\nlist_stones black\nlist_stones white\nquit\n",
        file.display()
    );
    String::from_utf8(run_with_input(engine, &input).stdout).unwrap()
}

#[test]
fn gnu_go_loads_the_reviewed_record() {
    let Some((tmp, out, _)) = reviewed_with(GNU_GO, "gnugo") else {
        return;
    };
    let game = tmp.path().join("game.sgf");
    let loaded =
        |file: &Path| stones_as_loaded(Command::new(gnugo()).args(["--mode", "gtp"]), file);
    let original = loaded(&game);
    // GNU Go answers loadsgf with the side to move: Black after White's 10th move.
    assert!(original.starts_with("= black"), "{original}");
    assert_eq!(loaded(&out), original);
}

#[test]
fn sabaki_reads_the_win_rates_where_its_graph_does() {
    let Some((_tmp, out, _)) = reviewed_with(SABAKI_SGF, "sabaki") else {
        return;
    };
    let moves = MOVES.to_string();
    sabaki_checks(
        "@sabaki/sgf",
        "review.mjs",
        &[out.to_str().unwrap(), &moves],
    );
}

#[test]
fn the_graph_renders_to_a_picture() {
    let Some((tmp, _, svg)) = reviewed_with(RSVG_CONVERT, "graph") else {
        return;
    };
    let png = tmp.path().join("graph.png");
    let run = Command::new("rsvg-convert")
        .arg("-o")
        .arg(&png)
        .arg(&svg)
        .output()
        .expect("rsvg-convert runs");
    assert!(run.status.success(), "{}", stderr(&run));
    let decoder = png::Decoder::new(std::fs::File::open(&png).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut pixels).unwrap();
    assert_eq!((frame.width, frame.height), tengen_review::graph::SIZE);
    let channels = frame.color_type.samples();
    let colours: std::collections::HashSet<&[u8]> =
        pixels[..frame.buffer_size()].chunks(channels).collect();
    let white = pixels[..frame.buffer_size()]
        .chunks(channels)
        .filter(|p| p[..3].iter().all(|&c| c == 255))
        .count();
    let area = (frame.width * frame.height) as usize;
    // Axes, labels, two lines and their anti-aliasing: many colours, and a good part
    // of the picture drawn on, but not all of it.
    assert!(colours.len() > 20, "{} colours", colours.len());
    assert!(
        white < area * 97 / 100 && white > area / 2,
        "{white} white of {area}"
    );
}

#[test]
fn a_review_killed_midway_resumes_losing_and_redoing_nothing() {
    let (tmp, game) = record("resume", "game.sgf", GAME);
    let out = tmp.path().join("game-review.sgf");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["review", s(&game), "--playouts", "3000", "--threads", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while out.metadata().map_or(true, |_| kept(&out).len() < 3) {
        assert!(start.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = kept(&out);
    assert!(before.len() >= 3 && before.len() < MOVES + 1, "{before:?}");
    // The record written so far is whole, and says the review is not finished.
    assert!(comment(&parse(&out)).contains("Review in progress"));
    // Another seed: a position analysed again would read differently.
    let (_, err) = review(&[
        s(&game),
        "--resume",
        "--playouts",
        "100",
        "--threads",
        "1",
        "--seed",
        "99",
    ]);
    let n = before.len();
    assert!(
        err.contains(&format!("{n} of {} positions kept", MOVES + 1)),
        "{err}"
    );
    assert!(
        err.contains(&format!("({} analysed in", MOVES + 1 - n)),
        "{err}"
    );
    let after = kept(&out);
    assert_eq!(after.len(), MOVES + 1);
    assert_eq!(after[..n], before[..]);
    assert!(!comment(&parse(&out)).contains("Review in progress"));
    // Resuming a finished review analyses nothing.
    let (_, err) = review(&[s(&game), "--resume"]);
    assert!(err.contains("(0 analysed in"), "{err}");
    assert_eq!(kept(&out), after);
    // Nothing but the record and its review is left in the folder.
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 2);
}

/// Runs a review that must fail; returns its stderr.
fn refused(args: &[&str]) -> String {
    let out = tengen(&[&["review"], args].concat());
    assert!(!out.status.success(), "{args:?} succeeded");
    let err = stderr(&out);
    // Ours start with the program's name, clap's with `error:`.
    assert!(
        err.starts_with("tengen: ") || err.starts_with("error: "),
        "{err}"
    );
    err
}

#[test]
fn bad_records_and_paths_are_clear_errors_and_write_nothing() {
    let tmp = fresh_dir("bad");
    let dir = tmp.path();
    let cases = [
        (
            "empty.sgf",
            "(;GM[1]SZ[9]C[no moves])",
            "the record has no moves",
        ),
        (
            "broken.sgf",
            "(;GM[1]SZ[9];B[ee];W[",
            "the record does not load",
        ),
        ("huge.sgf", "(;GM[1]SZ[26];B[aa])", "board size 26"),
        (
            "setup.sgf",
            "(;GM[1]SZ[9];B[ee];W[cc]AB[aa];B[dd])",
            "setup stones (AB, AW or AE) with move 2",
        ),
    ];
    for (name, text, says) in cases {
        let game = write(dir, name, text);
        let err = refused(&[s(&game), "--playouts", "10"]);
        assert!(err.contains(says), "{name}: {err}");
    }
    let game = write(dir, "game.sgf", GAME);
    let err = refused(&[s(&dir.join("missing.sgf"))]);
    assert!(err.contains("cannot read"), "{err}");
    let err = refused(&[s(&game), "-o", s(&dir.join("no/such/folder/out.sgf"))]);
    assert!(err.contains("cannot write"), "{err}");
    let err = refused(&[s(&game), "-o", s(dir)]);
    assert!(err.contains("cannot write"), "{err}");
    let err = refused(&[s(&game), "--svg", s(&dir.join("no/such/graph.svg"))]);
    assert!(err.contains("cannot write"), "{err}");
    let err = refused(&[s(&game), "-o", s(&game)]);
    assert!(err.contains("overwrite the record itself"), "{err}");
    let err = refused(&[s(&game), "--playouts", "10", "--time-per-move", "1"]);
    assert!(err.contains("cannot be used with"), "{err}");
    // A review of another game is not resumed, and stays as it was.
    let other = write(dir, "other.sgf", "(;GM[1]SZ[9];B[cc];W[gg])");
    let out = write(
        dir,
        "game-review.sgf",
        &std::fs::read_to_string(&other).unwrap(),
    );
    let err = refused(&[s(&game), "--resume", "--playouts", "10"]);
    assert!(err.contains("of another game"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "(;GM[1]SZ[9];B[cc];W[gg])"
    );
    // Nothing else was written: the records, the other review, no temporary file.
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let expected = [
        "broken.sgf",
        "empty.sgf",
        "game-review.sgf",
        "game.sgf",
        "huge.sgf",
        "other.sgf",
        "setup.sgf",
    ];
    assert_eq!(names, expected);
}

#[test]
fn the_largest_board_is_reviewed() {
    let (tmp, game) = record("25", "big.sgf", "(;GM[1]SZ[25];B[mm];W[dd];B[];W[tt])");
    review_one_thread(&game, "50");
    let root = parse(&tmp.path().join("big-review.sgf"));
    let line: Vec<&SgfNode<Prop>> = root.main_variation().collect();
    assert_eq!(line.len(), 5);
    assert!(line.iter().all(|n| !unknown(n, "SBKV").is_empty()));
    // On 25×25, `tt` is a point (T20), not a pass, and is written back as one.
    assert_eq!(
        line[4].get_property("W"),
        Some(&Prop::W(sgf_parse::go::Move::Move(sgf_parse::go::Point {
            x: 19,
            y: 19
        })))
    );
}

#[test]
fn a_record_longer_than_any_game_is_reviewed_with_a_warning() {
    let moves = ";B[];W[]".repeat(500);
    let (tmp, game) = record("long", "long.sgf", &format!("(;GM[1]SZ[9]{moves})"));
    let err = review_one_thread(&game, "5");
    assert!(
        err.contains("warning: ") && err.contains("the record has 1000 moves"),
        "{err}"
    );
    assert_eq!(kept(&tmp.path().join("long-review.sgf")).len(), 1001);
}

#[test]
fn without_a_terminal_the_progress_is_plain_lines() {
    // `tengen` runs with stderr piped, as under a script or a log file.
    let (_tmp, game) = record("progress-lines", "game.sgf", GAME);
    let (_, err) = review(&[&[s(&game)], FAST].concat());
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.ends_with(" positions") && l.contains(" of "))
        .collect();
    assert_eq!(
        lines,
        [
            format!("tengen review: 10 of {} positions", MOVES + 1),
            format!("tengen review: {0} of {0} positions", MOVES + 1),
        ],
        "{err}"
    );
}

#[test]
fn the_record_is_written_back_as_it_was_read() {
    // `SZ[19]` (sgf-parse would write `SZ[19:19]`), an `AP` with one colon too many
    // (malformed: the loader ignores it), a komi with a useless zero, stones in an
    // order a set would not keep.
    let text = "(;GM[1]FF[4]SZ[19]KM[6.50]AP[Tygem:1.0:beta]AB[pp][dd]XX[p\\]q]\
                ;W[qd]C[a note];B[dq])";
    let (tmp, game) = record("as-read", "big.sgf", text);
    let err = review_one_thread(&game, "20");
    assert!(
        err.contains("AP[Tygem:1.0:beta] is malformed: not read, but written back as it was"),
        "{err}"
    );
    let written = std::fs::read_to_string(tmp.path().join("big-review.sgf")).unwrap();
    for property in [
        "(;GM[1]FF[4]SZ[19]KM[6.50]AP[Tygem:1.0:beta]AB[pp][dd]XX[p\\]q]SBKV[",
        ";W[qd]C[a note\n\nTengen: move 1",
        ";B[dq]",
    ] {
        assert!(written.contains(property), "{property}: {written}");
    }
    assert!(!written.contains("SZ[19:19]"), "{written}");
    // The warning is in the record too.
    assert!(
        comment(&parse(&tmp.path().join("big-review.sgf"))).contains("Warning: AP[Tygem:1.0:beta]"),
        "{written}"
    );
}

#[test]
fn a_move_the_board_cannot_take_is_skipped_with_a_warning_naming_it() {
    // White's E5 is on Black's stone: the rest of the game is still reviewed.
    let (tmp, game) = record(
        "illegal",
        "game.sgf",
        "(;GM[1]SZ[9]KM[7];B[ee];W[ee];W[cc];B[gg])",
    );
    let err = review_one_thread(&game, "20");
    let warning = "move 2 (W E5) skipped: point is occupied";
    assert!(
        err.contains(&format!("warning: {shown}: {warning}", shown = s(&game))),
        "{err}"
    );
    let out = tmp.path().join("game-review.sgf");
    let root = parse(&out);
    // Written back with the record's every node; the three moves the board took are
    // reviewed.
    let line: Vec<&SgfNode<Prop>> = root.main_variation().collect();
    assert_eq!(line.len(), 5);
    assert_eq!(kept(&out).len(), 4);
    assert!(
        comment(line[0]).contains(&format!("Warning: {warning}.")),
        "{}",
        comment(line[0])
    );
    assert!(unknown(line[2], "SBKV").len() == 1);
}

#[test]
fn a_budget_too_small_to_judge_is_said_on_stderr_and_in_the_record() {
    let (tmp, game) = record("budget", "game.sgf", GAME);
    let err = review_one_thread(&game, "20");
    let says = "20 playouts a position are too few to judge at the 10% mistake threshold";
    assert_eq!(err.matches(says).count(), 1, "{err}");
    let root = parse(&tmp.path().join("game-review.sgf"));
    assert!(
        comment(&root).contains(&format!("Note: {says}")),
        "{}",
        comment(&root)
    );
}
