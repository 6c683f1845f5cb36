//! 1 s byo-yomi through the real binary, as a match runner drives it, on a machine
//! kept busy: every `genmove`, timed from the moment the harness writes it to the
//! moment the answer is read, fits the period. The engines run with their default
//! settings (the default lag, as many threads as cores) while spinning threads load
//! the cores besides whatever else `cargo test` runs at the same time.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tengen_board::{BoardSize, Color, Game, Move, Rules};

use super::binary::tengen;
use super::process::Engine;

/// The byo-yomi period.
const PERIOD: Duration = Duration::from_secs(1);

/// An engine at its defaults (threads, lag) that never resigns.
fn start(path: &Path, seed: u32) -> Engine {
    let seed = seed.to_string();
    Engine::start(
        path,
        &["--quiet", "--resign-threshold", "0", "--seed", &seed],
    )
}

/// Threads that keep every core busy until dropped.
struct Load {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl Load {
    fn start() -> Load {
        let stop = Arc::new(AtomicBool::new(false));
        // Half the cores per test: the two tests together, run in parallel as
        // `cargo test` does, load every core.
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let threads = (0..cores.div_ceil(2))
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

/// Plays up to `moves` moves of a game on `size` at 1 s byo-yomi between two engines,
/// Black's opponent passing once at move `pass_at` (so Black's next move also judges
/// the position for passing), and returns every genmove's time as the harness saw it.
/// Panics if a move overruns the period.
fn byoyomi_game(size: u32, moves: usize, pass_at: Option<usize>) -> Vec<Duration> {
    let path = tengen().unwrap();
    let board = BoardSize::new(size).unwrap();
    let mut game = Game::new(board, Rules::chinese());
    let mut engines = [start(&path, 3 + 100 * size), start(&path, 4 + 100 * size)];
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
            let used = start.elapsed();
            assert!(
                used <= PERIOD,
                "{size}x{size} move {} by {c}: {used:?} for {word} in a 1 s period",
                game.move_count() + 1
            );
            times.push(used);
            word
        };
        let mv = match board.parse_move(&word) {
            Ok(m) => m,
            Err(_) => Move::Pass, // resign
        };
        game.play(c, mv).unwrap();
        engines[other].ok(&format!("play {} {word}", c.letter()));
    }
    times
}

fn check(size: u32, times: &[Duration], at_least: usize) {
    assert!(
        times.len() >= at_least,
        "{size}x{size}: {} moves",
        times.len()
    );
    let mean = times.iter().sum::<Duration>() / times.len() as u32;
    let max = times.iter().max().unwrap();
    eprintln!(
        "{size}x{size} at 1 s byo-yomi under load: {} moves, mean {mean:?}, max {max:?}",
        times.len()
    );
    // The period is used, not a half of it.
    assert!(
        mean >= Duration::from_millis(800),
        "{size}x{size}: mean {mean:?}"
    );
}

#[test]
fn one_second_byoyomi_on_9x9_never_overruns() {
    let times = byoyomi_game(9, 40, None);
    check(9, &times, 20);
}

#[test]
fn one_second_byoyomi_on_19x19_never_overruns() {
    // White passes at move 10: Black's answer also judges whether to pass.
    let times = byoyomi_game(19, 14, Some(9));
    check(19, &times, 12);
}
