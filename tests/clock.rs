//! 1 s byo-yomi through the real binary, as a match runner drives it, under a load the
//! test makes and states: one spinning thread per core beside the two engines (at
//! their defaults: as many search threads as cores, the default lag). This binary
//! holds only these tests and runs them one at a time, so that is the whole load they
//! add; whatever else the machine runs comes on top.
//!
//! Two times are taken for every `genmove`: the engine's own, from the moment it read
//! the line to its answer (the `in X s` of its summary on stderr), which its margin
//! must keep inside the period; and the harness's, from writing the line to reading
//! the answer, which adds the pipes and the scheduler's delays outside the engine and
//! is reported beside it. Long: `cargo test -- --include-ignored` runs them.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tengen_board::{BoardSize, Color, Game, Move, Rules};

/// The byo-yomi period.
const PERIOD: Duration = Duration::from_secs(1);

/// Taken by each test for its whole run: the tests of this binary never overlap.
static ALONE: Mutex<()> = Mutex::new(());

/// A `tengen gtp` process whose per-move summaries (stderr) are collected.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    summaries: Receiver<String>,
}

impl Engine {
    /// An engine at its defaults (threads, lag) that never resigns.
    fn start(seed: u32) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args([
                "gtp",
                "--resign-threshold",
                "0",
                "--seed",
                &seed.to_string(),
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the tengen binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let stderr = BufReader::new(child.stderr.take().unwrap());
        let (tx, summaries) = channel();
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                if line.starts_with("tengen: ") && tx.send(line).is_err() {
                    return;
                }
            }
        });
        Engine {
            child,
            stdin,
            stdout,
            summaries,
        }
    }

    /// Sends a command that must succeed and returns its answer's text.
    fn ok(&mut self, command: &str) -> String {
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
        let mut text = String::new();
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "the engine died after {command}"
            );
            if line.trim().is_empty() {
                break;
            }
            text.push_str(&line);
        }
        let text = text.trim();
        assert!(text.starts_with('='), "{command}: {text}");
        text[1..].trim().to_string()
    }

    /// The engine's own time for its last move, from its summary line (`tengen: B E5
    /// in 0.912 s, …`).
    fn own_time(&mut self) -> Duration {
        let line = self
            .summaries
            .recv_timeout(Duration::from_secs(10))
            .expect("a summary on stderr after each genmove");
        let secs = line
            .split(" in ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|s| s.parse::<f64>().ok())
            .unwrap_or_else(|| panic!("no time in {line:?}"));
        Duration::from_secs_f64(secs)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// One spinning thread per core until dropped.
struct Load {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl Load {
    fn start() -> Load {
        let stop = Arc::new(AtomicBool::new(false));
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let threads = (0..cores)
            .map(|_| {
                let stop = Arc::clone(&stop);
                std::thread::spawn(move || {
                    let mut x = 1u64;
                    while !stop.load(Ordering::Relaxed) {
                        for _ in 0..10_000 {
                            x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005) + 1);
                        }
                    }
                })
            })
            .collect();
        Load { stop, threads }
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// One `genmove`'s two times.
#[derive(Clone, Copy, Debug)]
struct Timing {
    /// The engine's own, from reading the line to answering.
    own: Duration,
    /// The harness's, from writing the line to reading the answer.
    seen: Duration,
}

/// Plays up to `moves` moves of a game on `size` at 1 s byo-yomi between two engines,
/// Black's opponent passing once at move `pass_at` (so Black's next move also judges
/// the position for passing), and returns every genmove's times. Panics if a move's
/// own time overruns the period.
fn byoyomi_game(size: u32, moves: usize, pass_at: Option<usize>) -> Vec<Timing> {
    let _alone = ALONE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let board = BoardSize::new(size).unwrap();
    let mut game = Game::new(board, Rules::chinese());
    let mut engines = [Engine::start(3 + 100 * size), Engine::start(4 + 100 * size)];
    for e in &mut engines {
        e.ok(&format!("boardsize {size}"));
        e.ok("clear_board");
        e.ok("komi 7.5");
        e.ok("kgs-time_settings byoyomi 0 1 1");
    }
    let _load = Load::start();
    let mut times = Vec::new();
    while !game.is_over() && game.move_count() < moves {
        let c = game.to_move();
        let (me, other) = match c {
            Color::Black => (0, 1),
            Color::White => (1, 0),
        };
        let word = if c == Color::White && pass_at == Some(game.move_count()) {
            engines[me].ok("play w pass");
            "pass".to_string()
        } else {
            engines[me].ok(&format!("time_left {} 1 1", c.letter()));
            let start = Instant::now();
            let word = engines[me].ok(&format!("genmove {}", c.letter()));
            let seen = start.elapsed();
            let own = engines[me].own_time();
            let n = game.move_count() + 1;
            assert!(
                own <= PERIOD,
                "{size}x{size} move {n} by {c}: the engine took {own:?} for {word} in a 1 s period"
            );
            if seen > PERIOD {
                eprintln!(
                    "{size}x{size} move {n} by {c}: {seen:?} from the harness's side, {own:?} \
                     in the engine: the rest was spent outside it"
                );
            }
            times.push(Timing { own, seen });
            word
        };
        let mv = board.parse_move(&word).unwrap_or(Move::Pass); // resign: pass
        game.play(c, mv).unwrap();
        engines[other].ok(&format!("play {} {word}", c.letter()));
    }
    times
}

fn check(size: u32, times: &[Timing], at_least: usize) {
    assert!(
        times.len() >= at_least,
        "{size}x{size}: {} moves",
        times.len()
    );
    let n = times.len() as u32;
    let mean = times.iter().map(|t| t.own).sum::<Duration>() / n;
    let max = times.iter().map(|t| t.own).max().unwrap();
    let seen_max = times.iter().map(|t| t.seen).max().unwrap();
    eprintln!(
        "{size}x{size} at 1 s byo-yomi with a spinning thread a core: {} moves, \
         the engine's own time mean {mean:?}, max {max:?}; the harness's max {seen_max:?}",
        times.len()
    );
    // The period is used, not a half of it.
    assert!(
        mean >= Duration::from_millis(800),
        "{size}x{size}: mean {mean:?}"
    );
}

#[test]
#[ignore = "long (40 s): cargo test -- --include-ignored"]
fn one_second_byoyomi_on_9x9_never_overruns() {
    let times = byoyomi_game(9, 40, None);
    check(9, &times, 20);
}

#[test]
#[ignore = "long (15 s): cargo test -- --include-ignored"]
fn one_second_byoyomi_on_19x19_never_overruns() {
    // White passes at move 10: Black's answer also judges whether to pass.
    let times = byoyomi_game(19, 14, Some(9));
    check(19, &times, 12);
}
