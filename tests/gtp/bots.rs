//! What bot servers' bridges read besides the GTP answers, through the real binary:
//! the JSON line of CGOS's `cgos-genmove_analyze` (zakki/cgos `docs/gtp.md`), the
//! `MALKOVICH:` lines gtp2ogs forwards from stderr (`--ogs-pv`), and KataGo's
//! cancellable searches, which the next input line stops.

use std::io::{BufRead, Write};
use std::process::Command;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use regex::Regex;
use serde_json::Value;

use super::binary::{FAST, tengen};
use super::process::spawn;
use crate::support::process::{run_with_input, wait_for_cpu};

/// Runs the binary with `args` on `input`; its stdout and stderr.
fn run_both(args: &[&str], input: &str) -> (String, String) {
    let path = tengen().expect("the binary");
    let out = run_with_input(Command::new(path).args(args), input);
    assert!(out.status.success());
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The lines of the answer with id `id` (after `=id`), `None` if there is none.
fn answer_lines(stdout: &str, id: &str) -> Option<Vec<String>> {
    let head = format!("={id}");
    let block = stdout.split("\n\n").find(|b| {
        b.lines()
            .next()
            .is_some_and(|l| l == head || l.starts_with(&format!("{head} ")))
    })?;
    let mut lines: Vec<String> = block.lines().map(str::to_string).collect();
    lines[0] = lines[0][head.len()..].trim().to_string();
    if lines[0].is_empty() {
        lines.remove(0);
    }
    Some(lines)
}

#[test]
fn cgos_genmove_analyze_answers_the_json_the_viewer_reads_then_the_move() {
    let mut args = vec!["gtp"];
    args.extend_from_slice(FAST);
    let input = "boardsize 9\nkomi 7\nplay b E5\n1 cgos-genmove_analyze w\n2 list_stones w\n";
    let (stdout, _) = run_both(&args, input);
    let lines = answer_lines(&stdout, "1").unwrap_or_else(|| panic!("{stdout}"));
    assert_eq!(lines.len(), 2, "{lines:?}");
    let mv = lines[1].strip_prefix("play ").expect("play <vertex>");
    let j: Value = serde_json::from_str(&lines[0]).unwrap();
    assert!(
        j["winrate"]
            .as_f64()
            .is_some_and(|w| (0.0..=1.0).contains(&w))
    );
    assert!(j["score"].as_f64().is_some());
    assert_eq!(j["visits"].as_u64(), Some(200), "{j}");
    let moves = j["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    assert_eq!(
        moves[0]["move"].as_str(),
        Some(mv),
        "the best candidate is played"
    );
    let mut total = 0;
    for m in moves {
        assert!(m["move"].as_str().is_some());
        total += m["visits"].as_u64().unwrap();
        assert!(
            m["winrate"]
                .as_f64()
                .is_some_and(|w| (0.0..=1.0).contains(&w))
        );
        assert!(m["score"].as_f64().is_some());
        assert!(
            m["prior"]
                .as_f64()
                .is_some_and(|p| (0.0..=1.0).contains(&p))
        );
        // The moves after the candidate, not the candidate itself.
        let pv = m["pv"].as_str().unwrap();
        assert!(pv.split(' ').next().is_none_or(|first| first != m["move"]));
    }
    assert!(total <= 200);
    // The move was played.
    assert_eq!(answer_lines(&stdout, "2").unwrap(), vec![mv.to_string()]);
}

#[test]
fn ogs_pv_writes_one_malkovich_line_per_move_as_gtp2ogs_reads_them() {
    let mut args = vec!["gtp"];
    args.extend_from_slice(FAST);
    args.push("--ogs-pv");
    let input = "boardsize 9\n1 genmove black\n2 genmove white\n3 kgs-genmove_cleanup black\n";
    let (stdout, stderr) = run_both(&args, input);
    // gtp2ogs's chat filter (src/Bot.ts), and the line's own shape.
    let chat = Regex::new(r"(DISCUSSION|MALKOVICH|MAIN):(.*)").unwrap();
    // gtp2ogs's KataGo reader (src/PvOutputParser.ts) without its optional PDA, and
    // anchored at both ends.
    let shape = Regex::new(
        r"^MALKOVICH:Visits (\d+) Winrate (\d+\.\d\d)% ScoreLead (-?\d+\.\d) ScoreStdev (-?\d+\.\d) PV ((?:[A-HJ-T]\d+|pass)(?: (?:[A-HJ-T]\d+|pass))*)$",
    )
    .unwrap();
    let lines: Vec<&str> = stderr.lines().filter(|l| chat.is_match(l)).collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    for (id, line) in ["1", "2", "3"].iter().zip(&lines) {
        let caps = shape.captures(line).unwrap_or_else(|| panic!("{line:?}"));
        let winrate: f64 = caps[2].parse().unwrap();
        assert!((0.0..=100.0).contains(&winrate));
        // Playouts of a board this open end far apart: through the genmoves' searched
        // moves, and at the root for the clean-up's pass, chosen after its search.
        let stdev: f64 = caps[4].parse().unwrap();
        assert!(stdev > 0.0, "{line}");
        assert!(winrate > 0.0, "{line}");
        let played = answer_lines(&stdout, id).unwrap()[0].clone();
        let first = caps[5].split(' ').next().unwrap();
        assert!(first.eq_ignore_ascii_case(&played), "{line} for {played}");
    }
    // Without the flag, none (--quiet is in FAST: nothing else either).
    let mut args = vec!["gtp"];
    args.extend_from_slice(FAST);
    let (_, stderr) = run_both(&args, input);
    assert!(!stderr.contains("MALKOVICH"), "{stderr}");
}

/// A running engine whose answers arrive on a channel, a line at a time.
struct Engine {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let (child, stdin, stdout) = spawn(&tengen().expect("the binary"), args);
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                if tx.send(line.unwrap_or_default()).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next answer's lines (up to its empty line), within `within`.
    fn answer(&mut self, within: Duration) -> Vec<String> {
        let deadline = Instant::now() + within;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|e| panic!("no answer in {within:?} ({e}); got {lines:?}"));
            if line.is_empty() && !lines.is_empty() {
                return lines;
            }
            if !line.is_empty() {
                lines.push(line);
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_next_line_cancels_a_cancellable_search_promptly() {
    // Thirty seconds a move: only the next line ends these searches.
    let mut e = Engine::start(&["gtp", "--threads", "1", "--time-per-move", "30", "--quiet"]);
    e.send("boardsize 9");
    assert_eq!(e.answer(Duration::from_secs(10)), vec!["="]);
    for stopper in ["2 name", ""] {
        e.send("1 kata-search_cancellable b");
        // The engine, idle until now, is searching once it uses CPU time.
        wait_for_cpu(e.child.id(), Duration::from_millis(100), 30);
        let sent = Instant::now();
        e.send(stopper);
        assert_eq!(e.answer(Duration::from_secs(5)), vec!["=1 cancelled"]);
        assert!(
            sent.elapsed() < Duration::from_secs(3),
            "{:?}",
            sent.elapsed()
        );
        if !stopper.is_empty() {
            assert_eq!(e.answer(Duration::from_secs(5)), vec!["=2 Tengen"]);
        }
    }
    // The stream form ends with `play cancelled`.
    e.send("3 kata-search_analyze_cancellable b 10");
    // Cancelled once it has reported: its `=3` and first `info` line.
    let head = e.lines.recv_timeout(Duration::from_secs(10)).unwrap();
    let first = e.lines.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(head, "=3");
    assert!(first.starts_with("info move "), "{first}");
    e.send("4 list_stones b");
    let mut lines = vec![head, first];
    lines.extend(e.answer(Duration::from_secs(5)));
    assert_eq!(lines.last().map(String::as_str), Some("play cancelled"));
    assert!(
        lines[1..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("info move "))
    );
    // Nothing was played.
    assert_eq!(e.answer(Duration::from_secs(5)), vec!["=4"]);
}

/// A fast engine on 9×9 after Black's E5, both set-up answers read.
fn after_black_e5() -> Engine {
    let mut args = vec!["gtp"];
    args.extend_from_slice(FAST);
    let mut e = Engine::start(&args);
    e.send("boardsize 9");
    e.send("play b E5");
    assert_eq!(e.answer(Duration::from_secs(10)), vec!["="]);
    assert_eq!(e.answer(Duration::from_secs(10)), vec!["="]);
    e
}

#[test]
fn an_uncancelled_search_answers_a_legal_move_and_leaves_the_board() {
    let mut e = after_black_e5();
    e.send("1 kata-search_cancellable w");
    let answer = e.answer(Duration::from_secs(20));
    let mv = answer[0]
        .strip_prefix("=1 ")
        .expect("=1 <vertex>")
        .to_string();
    assert!(Regex::new("^[A-HJ][1-9]$").unwrap().is_match(&mv), "{mv}");
    e.send("2 list_stones w");
    assert_eq!(e.answer(Duration::from_secs(5)), vec!["=2"], "not played");
    // The controller plays it, as KataGo's protocol asks.
    e.send(&format!("3 play w {mv}"));
    assert_eq!(e.answer(Duration::from_secs(5)), vec!["=3"]);
    e.send("4 list_stones w");
    assert_eq!(e.answer(Duration::from_secs(5)), vec![format!("=4 {mv}")]);
}

#[test]
fn an_uncancelled_search_stream_names_a_move_and_leaves_the_board() {
    let mut e = after_black_e5();
    // Interval 0: the stream is the one final snapshot, then the move named.
    e.send("1 kata-search_analyze w 0");
    let lines = e.answer(Duration::from_secs(20));
    assert_eq!(lines.first().map(String::as_str), Some("=1"), "{lines:?}");
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[1].starts_with("info move "), "{lines:?}");
    let mv = lines[2].strip_prefix("play ").expect("play <vertex>");
    assert!(Regex::new("^[A-HJ][1-9]$").unwrap().is_match(mv), "{mv}");
    e.send("2 list_stones w");
    assert_eq!(e.answer(Duration::from_secs(5)), vec!["=2"], "not played");
}
