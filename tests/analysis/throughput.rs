//! Throughput: the same playouts through `tengen analysis` and through GTP. A game's
//! turns are searched once each way, the same playouts a turn and the same threads (the
//! analysis engine searches two turns at once, one thread each, where GTP searches one
//! turn on two threads). The target, within 10% of GTP's rate, is a measured figure in
//! BENCHMARKS.md ("tengen analysis against GTP"), not a timed test: this test fails
//! only when the analysis engine loses its parallelism or adds a fixed cost a turn
//! (then it takes well over one and a half times GTP's time).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::json;

use super::{Analysis, binary, query};

const MOVES: &[&str] = &[
    "Q16", "D4", "Q3", "D16", "R5", "C14", "O17", "F17", "C6", "E3", "K4", "Q10", "N3", "R14",
];
const VISITS: u64 = 1500;

/// Seconds for GTP to search every turn: `kata-analyze` is not a fixed-playout
/// search, so each turn is a `genmove` with --playouts, undone after.
fn gtp_seconds() -> f64 {
    let mut child = Command::new(binary())
        .args([
            "gtp",
            "--threads",
            "2",
            "--quiet",
            "--seed",
            "5",
            "--resign-threshold",
            "0",
        ])
        .args(["--playouts", &VISITS.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("tengen gtp starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |command: &str| {
        writeln!(stdin, "{command}").unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            assert!(stdout.read_line(&mut line).unwrap() > 0, "GTP ended");
            if line.trim().is_empty() && !answer.is_empty() {
                break;
            }
            answer.push_str(&line);
        }
        assert!(answer.starts_with('='), "{command}: {answer}");
    };
    ask("boardsize 19");
    let start = Instant::now();
    for (i, mv) in MOVES.iter().enumerate() {
        let colour = if i % 2 == 0 { "b" } else { "w" };
        ask(&format!("genmove {colour}"));
        ask("undo");
        ask(&format!("play {colour} {mv}"));
    }
    let seconds = start.elapsed().as_secs_f64();
    ask("quit");
    child.wait().expect("tengen gtp ends");
    seconds
}

/// Seconds for `tengen analysis` to search every turn.
fn analysis_seconds() -> f64 {
    let mut a = Analysis::start(&["--threads", "2", "--seed", "5", "--quiet"]);
    let turns: Vec<usize> = (0..MOVES.len()).collect();
    let start = Instant::now();
    a.send(&query(
        "t",
        19,
        MOVES,
        json!({"analyzeTurns": turns, "maxVisits": VISITS}),
    ));
    let out = a.finals(MOVES.len(), 600);
    let seconds = start.elapsed().as_secs_f64();
    assert!(out.iter().all(|v| v["rootInfo"]["visits"] == VISITS));
    seconds
}

#[test]
#[ignore = "long: cargo test -- --include-ignored"]
fn analysis_searches_about_as_fast_as_gtp() {
    let playouts = (VISITS * MOVES.len() as u64) as f64;
    // The best of three runs each, taken in turn, so a busy moment of the (shared)
    // machine does not decide.
    let (mut gtp, mut analysis) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..3 {
        gtp = gtp.min(gtp_seconds());
        analysis = analysis.min(analysis_seconds());
    }
    eprintln!(
        "throughput: GTP {:.0} playouts/s, analysis {:.0} playouts/s ({} turns x {VISITS})",
        playouts / gtp,
        playouts / analysis,
        MOVES.len()
    );
    assert!(
        analysis <= gtp * 1.5,
        "analysis took {analysis:.2} s, GTP {gtp:.2} s for the same playouts"
    );
}
