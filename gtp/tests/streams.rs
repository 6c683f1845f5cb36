//! The session as GUIs drive it over a pipe: analysis streams stopped by the next
//! line, `# interrupt` ending a move search, pipelined commands each answered once.

use std::io::{BufReader, Read};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use tengen_engine::Config;
use tengen_gtp::{Session, SessionOptions};

mod common;
use common::{Shared, this_thread_id, wait_for_cpu};

/// The reading end of an in-memory pipe: bytes sent on the channel, end of input when
/// the sender is dropped.
struct ChannelReader {
    rx: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for ChannelReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.pos == self.buf.len() {
            match self.rx.recv() {
                Ok(chunk) => {
                    self.buf = chunk;
                    self.pos = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

struct Running {
    input: Sender<Vec<u8>>,
    output: Shared,
    handle: JoinHandle<()>,
    /// The session's thread, which runs its searches (on one search thread).
    session_thread: Option<String>,
}

fn start(config: Config) -> Running {
    let (input, rx) = channel();
    let reader = ChannelReader {
        rx,
        buf: Vec::new(),
        pos: 0,
    };
    let output = Shared::default();
    let out = output.clone();
    let (tid_tx, tid_rx) = channel();
    let handle = thread::spawn(move || {
        tid_tx.send(this_thread_id()).unwrap();
        let mut s = Session::new(
            config,
            SessionOptions {
                quiet: true,
                ..SessionOptions::default()
            },
        );
        s.run(BufReader::new(reader), out).unwrap();
    });
    Running {
        input,
        output,
        handle,
        session_thread: tid_rx.recv().unwrap(),
    }
}

impl Running {
    fn send(&mut self, line: &str) {
        self.input.send(format!("{line}\n").into_bytes()).unwrap();
    }

    /// Waits until the session has spent a tenth of a second of CPU on the command
    /// sent last: its search is running (a search on one thread runs on the session's).
    fn wait_for_search(&self) {
        wait_for_cpu(
            self.session_thread.as_deref(),
            Duration::from_millis(100),
            30,
        );
    }

    fn finish(mut self) -> String {
        self.send("999 quit");
        self.handle.join().unwrap();
        self.output.text()
    }
}

fn slow_config() -> Config {
    Config {
        threads: 1,
        playouts: None,
        default_move_time: Duration::from_secs(60),
        ..Config::default()
    }
}

/// `slow_config` but for a move's time without a clock: `millis` milliseconds.
fn moves_in(millis: u64) -> Config {
    Config {
        default_move_time: Duration::from_millis(millis),
        ..slow_config()
    }
}

/// A session with `config` on a 9×9 board.
fn start_9x9(config: Config) -> Running {
    let mut r = start(config);
    r.send("boardsize 9");
    r
}

/// The part of `out` from the first `from` up to the first `to`.
fn between<'a>(out: &'a str, from: &str, to: &str) -> &'a str {
    &out[out.find(from).unwrap()..out.find(to).unwrap()]
}

/// The whole output of a session with `config` on a 9×9 board that is sent `commands`
/// and then `quit`.
fn answers_to(config: Config, commands: &[&str]) -> String {
    let mut r = start_9x9(config);
    for command in commands {
        r.send(command);
    }
    r.finish()
}

/// A session on a 9×9 board that is sent the analysis `command`, whose answer `=ID`
/// has begun streaming `info move` lines.
fn streaming(command: &str) -> Running {
    let mut r = start_9x9(slow_config());
    r.send(command);
    let seen = r.output.wait_for("info move", 20);
    let id = command.split(' ').next().unwrap();
    assert!(seen.contains(&format!("={id}\ninfo move ")), "{seen}");
    r
}

/// The lines of an answer after its first, empty ones left out.
fn lines_after_the_first(answer: &str) -> Vec<&str> {
    answer.lines().skip(1).filter(|l| !l.is_empty()).collect()
}

/// Sends `1 genmove b` and waits for its answer; how long it took.
fn timed_genmove(r: &mut Running) -> Duration {
    let t = Instant::now();
    r.send("1 genmove b");
    let seen = r.output.wait_for("=1 ", 30);
    let took = t.elapsed();
    assert!(seen.contains("=1 "), "{seen}");
    took
}

#[test]
fn analysis_streams_until_the_next_command_which_is_then_answered() {
    let mut r = streaming("1 kata-analyze B 5");
    r.send("2 name");
    let seen = r.output.wait_for("=2 Tengen", 20);
    let out = r.finish();
    assert!(seen.contains("=2 Tengen\n\n"), "{seen}");
    // The stream is one answer: `=1`, info lines, one empty line; then `=2`.
    let stream = between(&out, "=1\n", "=2 Tengen");
    assert!(
        stream.ends_with("\n\n") && !stream[..stream.len() - 2].contains("\n\n"),
        "{stream:?}"
    );
    for line in lines_after_the_first(stream) {
        assert!(line.starts_with("info move "), "{line}");
        for block in line.split("info move ").skip(1) {
            let keys: Vec<&str> = block.split(' ').collect();
            let pv = keys.iter().position(|&k| k == "pv").expect("pv key");
            assert!(
                keys[pv + 1..]
                    .iter()
                    .all(|v| v.is_empty() || v.chars().next().unwrap().is_ascii_alphabetic()),
                "{block}"
            );
            let w = keys.iter().position(|&k| k == "winrate").unwrap();
            assert!(
                keys[w + 1].contains('.'),
                "kata winrates are decimals: {block}"
            );
        }
    }
}

#[test]
fn lz_analyze_writes_integer_winrates_and_a_comment_line_stops_it() {
    let mut r = streaming("7 lz-analyze 5");
    r.send("# interrupt");
    let ended = |t: &str| t.find("=7\n").is_some_and(|i| t[i..].contains("\n\n"));
    let seen = r.output.wait_until(ended, 20);
    let out = r.finish();
    let stream = &seen[seen.find("=7\n").unwrap()..];
    assert!(stream.contains("\n\n"), "{stream}");
    let line = stream.lines().nth(1).unwrap();
    let keys: Vec<&str> = line.split(' ').collect();
    let w = keys.iter().position(|&k| k == "winrate").unwrap();
    assert!(keys[w + 1].parse::<u32>().is_ok(), "{line}");
    assert!(out.ends_with("=999\n\n"), "{out}");
}

#[test]
fn kata_analyze_with_interval_zero_prints_the_final_analysis_when_stopped() {
    let mut r = start_9x9(slow_config());
    r.send("1 kata-analyze B 0");
    r.output.wait_for("=1\n", 20);
    r.wait_for_search();
    r.send("2 name");
    let seen = r.output.wait_for("=2 Tengen", 20);
    let out = r.finish();
    assert!(seen.contains("=2 Tengen\n\n"), "{seen}");
    let stream = between(&out, "=1\n", "=2 Tengen");
    let lines = lines_after_the_first(stream);
    assert_eq!(lines.len(), 1, "one line, at the end: {stream:?}");
    assert!(lines[0].starts_with("info move "), "{stream:?}");
    assert!(stream.ends_with("\n\n"), "{stream:?}");
}

#[test]
fn genmove_analyze_with_interval_zero_prints_one_line_before_play() {
    let out = answers_to(
        moves_in(300),
        &["8 kata-genmove_analyze b 0", "9 showboard"],
    );
    let stream = between(&out, "=8\n", "=9");
    let lines = lines_after_the_first(stream);
    assert_eq!(lines.len(), 2, "{stream:?}");
    assert!(lines[0].starts_with("info move "), "{stream:?}");
    assert!(lines[1].starts_with("play "), "{stream:?}");
}

#[test]
fn interrupt_ends_a_long_genmove_with_one_answer() {
    let mut r = start_9x9(slow_config());
    r.send("3 genmove b");
    r.wait_for_search();
    let t = Instant::now();
    r.send("# interrupt");
    let seen = r.output.wait_for("=3 ", 20);
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "interrupt took {:?}",
        t.elapsed()
    );
    assert!(seen.contains("=3 "), "{seen}");
    r.send("4 list_stones b");
    let out = r.finish();
    assert_eq!(out.matches("=3 ").count(), 1, "{out}");
    assert!(out.contains("=4 "), "{out}");
}

#[test]
fn a_command_does_not_interrupt_genmove_but_waits_for_it() {
    let out = answers_to(moves_in(400), &["5 genmove b", "6 name"]);
    let five = out.find("=5 ").expect("genmove answered");
    let six = out.find("=6 Tengen").expect("name answered");
    assert!(five < six, "{out}");
}

#[test]
fn genmove_analyze_ends_with_play() {
    let out = answers_to(moves_in(300), &["8 lz-genmove_analyze b 5", "9 showboard"]);
    let stream = between(&out, "=8\n", "=9");
    let last = stream.trim_end().lines().last().unwrap();
    assert!(last.starts_with("play "), "{stream}");
    assert!(stream.ends_with("\n\n"), "{stream:?}");
}

#[test]
fn the_clock_bounds_genmove_even_with_a_huge_playout_budget() {
    let mut r = start_9x9(Config {
        playouts: Some(u64::MAX / 2),
        ..slow_config()
    });
    r.send("time_settings 3 0 0");
    let took = timed_genmove(&mut r);
    // Absolute 3 s for the game: one move takes a fraction of it.
    assert!(took < Duration::from_millis(1500), "{took:?}");
    r.finish();
}

#[test]
fn time_left_in_byo_yomi_is_respected() {
    let mut r = start_9x9(slow_config());
    r.send("time_settings 0 2 1");
    r.send("time_left b 2 1");
    let took = timed_genmove(&mut r);
    // The clock's 2 s, not the 60 s default; that the move also fits the period on a
    // loaded machine is the clock tests' question (tests/clock.rs, long), so a starved
    // test process gets a second's slack here.
    assert!(
        took < Duration::from_secs(3),
        "one stone in 2 s, took {took:?}"
    );
    // Without a clock the default time per move applies: 60 s here, so an interrupt
    // is what ends the next one.
    r.send("time_settings 0 1 0");
    r.send("2 genmove w");
    r.wait_for_search();
    r.send("# interrupt");
    let seen = r.output.wait_for("=2 ", 30);
    assert!(seen.contains("=2 "), "{seen}");
    r.finish();
}

/// The numbers after `key` in `tokens` up to the next word, parsed as `T`.
fn numbers_after<T: std::str::FromStr>(tokens: &[&str], key: &str) -> Option<Vec<T>> {
    let at = tokens.iter().position(|&t| t == key)?;
    tokens[at + 1..]
        .iter()
        .map_while(|t| t.parse().ok())
        .collect::<Vec<T>>()
        .into()
}

#[test]
fn katago_keys_hold_in_every_line_of_a_live_stream() {
    // LizGoban's line: every key it knows, 20 lines a second.
    let mut r = start_9x9(slow_config());
    r.send(
        "1 kata-analyze B interval 5 ownership true ownershipStdev true pvVisits true \
         pvEdgeVisits true movesOwnership true rootInfo true",
    );
    r.output
        .wait_until(|t| t.matches("rootInfo").count() >= 4, 30);
    r.send("2 name");
    r.output.wait_for("=2 Tengen", 20);
    let out = r.finish();
    let stream = between(&out, "=1\n", "=2 Tengen");
    let lines = lines_after_the_first(stream);
    assert!(lines.len() >= 4, "{stream}");
    // KataGo's score keys, in its order; a spread is a number, never negative.
    let scores = |t: &[&str], line: &str| -> f64 {
        let at = t.iter().position(|&k| k == "scoreMean").expect("scoreMean");
        assert_eq!(
            (t[at + 2], t[at + 4]),
            ("scoreStdev", "scoreLead"),
            "{line}"
        );
        let stdev: f64 = t[at + 3].parse().unwrap();
        assert!(stdev.is_finite() && stdev >= 0.0, "{line}");
        stdev
    };
    let last = lines.last().unwrap().to_string();
    for line in lines {
        let (blocks, root) = line
            .split_once(" rootInfo ")
            .expect("rootInfo after the blocks");
        let root: Vec<&str> = root.split(' ').collect();
        let root_stdev = scores(&root, line);
        if line == last {
            // By the last line many playouts of the empty board have ended far apart.
            assert!(root_stdev > 0.0, "{line}");
        }
        let own: Vec<f64> = numbers_after(&root, "ownership").unwrap();
        let spread: Vec<f64> = numbers_after(&root, "ownershipStdev").unwrap();
        assert_eq!((own.len(), spread.len()), (81, 81), "{line}");
        assert!(spread.iter().all(|s| (0.0..=1.0).contains(s)), "{line}");
        assert_eq!(root.last(), Some(&format!("{:.4}", spread[80]).as_str()));
        let total: f64 = numbers_after(&root, "visits").unwrap()[0];
        let mut weighted = [0.0f64; 81];
        for block in blocks.split("info move ").skip(1) {
            let t: Vec<&str> = block.trim_end().split(' ').collect();
            let visits: u64 = t[t.iter().position(|&k| k == "visits").unwrap() + 1]
                .parse()
                .unwrap();
            scores(&t, line);
            let pv_at = t.iter().position(|&k| k == "pv").unwrap();
            let pv_visits: Vec<u64> = numbers_after(&t, "pvVisits").unwrap();
            let pv_len = t.iter().position(|&k| k == "pvVisits").unwrap() - pv_at - 1;
            // KataGo's order: pv, pvVisits, pvEdgeVisits, movesOwnership, and no more.
            let order: Vec<&str> = t[pv_at..]
                .iter()
                .copied()
                .filter(|k| k.starts_with(|c: char| c.is_ascii_lowercase()) && *k != "pass")
                .collect();
            assert_eq!(order, ["pv", "pvVisits", "pvEdgeVisits", "movesOwnership"]);
            assert_eq!(pv_visits.len(), pv_len, "{block}");
            assert_eq!(pv_visits[0], visits, "{block}");
            assert!(pv_visits.windows(2).all(|w| w[1] <= w[0]), "{block}");
            let edge: Vec<u64> = numbers_after(&t, "pvEdgeVisits").unwrap();
            assert_eq!(edge, pv_visits);
            let moves_own: Vec<f64> = numbers_after(&t, "movesOwnership").unwrap();
            assert_eq!(moves_own.len(), 81, "{block}");
            assert!(moves_own.iter().all(|o| (-1.0..=1.0).contains(o)));
            for (w, o) in weighted.iter_mut().zip(&moves_own) {
                *w += visits as f64 * o / total;
            }
        }
        // One thread: each line is one consistent snapshot, and the board's ownership
        // is its candidates' weighted by their playouts (to the printed digits).
        for (w, o) in weighted.iter().zip(&own) {
            assert!((w - o).abs() < 2e-3, "{w} and {o}: {line}");
        }
    }
}
