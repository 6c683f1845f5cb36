//! Playout throughput measurements behind `tengen bench`.
//!
//! Each measurement runs independent playouts from one position on `threads` threads
//! (rayon), every thread with its own board copy, AMAF map and RNG, sharing nothing but
//! the read-only policy, until a time or playout budget is spent.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use tengen_board::{
    Board, BoardSize, Color, LightBoard, LightBoard9, LightBoard13, LightBoard19, LightBoardAny,
    Move, Point,
};

use crate::config::{HeavyParams, Keyword, Parallelism};
use crate::cpu_time::{self, CpuSpan};
use crate::playout::{Amaf, Outcome, Policy, PolicyKind, Rng, light_playout};

/// The largest share of a CPU figure its possible error may be: a run whose CPU time is
/// less precise than this gives no playouts a CPU-second ([`Measurement::cpu_too_short`]).
pub const MAX_CPU_ERROR: f64 = 0.02;

/// Below this share of their wall time on a CPU the measuring threads were starved by
/// other processes ([`Measurement::starved`]).
pub const STARVED_SHARE: f64 = 0.8;

/// A named start position for a measurement.
#[derive(Clone, Debug)]
pub struct BenchPosition {
    /// `"empty"` or the position's name.
    pub name: &'static str,
    /// The board.
    pub board: Board,
    /// Who plays first.
    pub to_move: Color,
    /// The move before the playout starts.
    pub last: Option<Point>,
}

impl BenchPosition {
    /// An empty board, Black to play.
    pub fn empty(size: BoardSize) -> BenchPosition {
        BenchPosition {
            name: "empty",
            board: Board::new(size),
            to_move: Color::Black,
            last: None,
        }
    }

    /// A fixed 19×19 middle-game position: 120 moves chosen by a fixed linear
    /// congruential sequence among legal moves that fill no eye, so it depends on the
    /// rules alone and never changes with the engine's policies.
    pub fn midgame19() -> BenchPosition {
        let size = BoardSize::new(19).expect("19 is a board size");
        let mut board = Board::new(size);
        let mut state: u64 = 0x5eed_0f7e_46e4;
        let mut c = Color::Black;
        let mut last = None;
        for _ in 0..120 {
            let legal: Vec<Point> = size
                .points()
                .filter(|&p| !board.is_eye(c, p) && board.check(c, p).is_ok())
                .collect();
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let p = legal[((state >> 33) as usize) % legal.len()];
            board.play_unchecked(c, Move::Play(p));
            last = Some(p);
            c = c.opponent();
        }
        BenchPosition {
            name: "midgame19",
            board,
            to_move: c,
            last,
        }
    }
}

/// When a measurement stops.
#[derive(Clone, Copy, Debug)]
pub enum BenchLimit {
    /// Run for this long (checked every few playouts).
    Time(Duration),
    /// Run this many playouts in total, split over the threads.
    Playouts(u64),
}

/// The figures of one measurement.
#[derive(Clone, Debug)]
pub struct Measurement {
    /// Board size.
    pub size: usize,
    /// Position name.
    pub position: &'static str,
    /// Policy name.
    pub policy: &'static str,
    /// Threads used.
    pub threads: usize,
    /// How the threads shared a tree search (`None` for bare playouts).
    pub parallelism: Option<Parallelism>,
    /// Playouts run.
    pub playouts: u64,
    /// Moves played in them (0 where not counted: tree search).
    pub moves: u64,
    /// Wall time.
    pub seconds: f64,
    /// CPU time used meanwhile, where the system tells it (Linux): the measuring
    /// threads' own for playouts, the whole process's for a tree search (whose threads
    /// the engine starts; in `tengen bench` nothing else runs).
    pub cpu_seconds: Option<f64>,
    /// How far `cpu_seconds` may be from the truth: half a millisecond a thread for
    /// playouts (each thread's own clock), two clock ticks (20 ms) for a tree search
    /// (the process's).
    pub cpu_error: f64,
    /// The wall time the measuring threads had to run in, added up: each playout
    /// thread's own span from its first playout to its last, or a tree search's wall
    /// time times its threads; with more threads than cores, only the cores' share of
    /// it. The CPU time is at most this.
    pub thread_seconds: f64,
    /// Playouts won by Black (a sanity check on the score distribution).
    pub black_wins: u64,
}

impl Measurement {
    /// Playouts a second.
    pub fn playouts_per_sec(&self) -> f64 {
        self.playouts as f64 / self.seconds.max(1e-9)
    }

    /// Playouts a CPU-second: the figure that stays honest on a busy machine. None
    /// where the system does not tell the CPU time, or where the run was too short to
    /// time it precisely ([`Measurement::cpu_too_short`]).
    pub fn playouts_per_cpu_sec(&self) -> Option<f64> {
        self.cpu_seconds
            .filter(|&c| c > 0.0 && !self.cpu_too_short())
            .map(|c| self.playouts as f64 / c)
    }

    /// Whether the CPU time is known but too imprecise for a figure: its possible error
    /// is more than [`MAX_CPU_ERROR`] of it (playouts of less than 25 ms a thread, a
    /// tree search of less than a second of CPU time, counted in the process's 10 ms
    /// ticks).
    pub fn cpu_too_short(&self) -> bool {
        self.cpu_seconds
            .is_some_and(|c| self.cpu_error > MAX_CPU_ERROR * c)
    }

    /// The share of their wall time the measuring threads spent on a CPU
    /// ([`Measurement::thread_seconds`]), where the CPU time is known.
    pub fn cpu_share(&self) -> Option<f64> {
        self.cpu_seconds
            .filter(|_| self.thread_seconds > 0.0)
            .map(|c| c / self.thread_seconds)
    }

    /// Whether other processes held the cores: the measuring threads spent less than
    /// [`STARVED_SHARE`] of their wall time on a CPU, even counting the CPU time's
    /// possible error in their favour. The wall-clock figures (playouts a second, the
    /// scaling) of such a row understate the engine.
    pub fn starved(&self) -> bool {
        self.cpu_seconds
            .is_some_and(|c| c + self.cpu_error < STARVED_SHARE * self.thread_seconds)
    }

    /// Average playout length in moves.
    pub fn avg_moves(&self) -> f64 {
        self.moves as f64 / (self.playouts.max(1)) as f64
    }

    /// Moves a second.
    pub fn moves_per_sec(&self) -> f64 {
        self.moves as f64 / self.seconds.max(1e-9)
    }
}

/// Per-thread counters.
#[derive(Default)]
struct Tally {
    playouts: u64,
    moves: u64,
    black_wins: u64,
    /// This thread's CPU time over the measurement, where known.
    cpu: Option<CpuSpan>,
    /// This thread's wall time from its first playout to its last.
    wall: f64,
}

/// One measuring thread's playout loop.
struct Runner<'a> {
    quota: u64,
    deadline: Option<Instant>,
    rng: &'a mut Rng,
    amaf: &'a mut Amaf,
}

impl Runner<'_> {
    /// Runs `one` (a playout from the start position) until the quota or the deadline.
    #[inline(always)]
    fn playouts(&mut self, mut one: impl FnMut(&mut Rng, &mut Amaf) -> Outcome) -> Tally {
        let mut tally = Tally::default();
        while tally.playouts < self.quota {
            self.amaf.clear();
            let out = one(self.rng, self.amaf);
            tally.playouts += 1;
            tally.moves += u64::from(out.moves);
            tally.black_wins += u64::from(out.winner() == Color::Black);
            if tally.playouts % 32 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
        tally
    }

    /// Light playouts from `pos` on `start`, its light board (copied each playout as
    /// the exact board is for heavy playouts).
    fn light<const CAP: usize, const STRIDE: usize>(
        &mut self,
        pos: &BenchPosition,
        komi: f64,
        start: Result<LightBoard<CAP, STRIDE>, tengen_board::SizeError>,
    ) -> Tally {
        let start = start.expect("the light board takes the bench position's size");
        let mut board = start.clone();
        self.playouts(|rng, amaf| {
            board.copy_from(&start);
            light_playout(&mut board, pos.to_move, komi, rng, amaf)
        })
    }
}

/// How [`measure_playouts`] runs its playouts.
#[derive(Clone, Copy, Debug)]
pub struct PlayoutRun<'a> {
    /// The playout policy.
    pub kind: PolicyKind,
    /// The heavy policy's probabilities (read by the heavy one only).
    pub heavy: &'a HeavyParams,
    /// How many threads play out at once.
    pub threads: usize,
    /// When the measurement stops.
    pub limit: BenchLimit,
    /// The komi the playouts are scored with.
    pub komi: f64,
    /// The seed of the threads' random generators.
    pub seed: u64,
}

/// Runs playouts from `pos` on `run.threads` threads with `run`'s policy (and, for the
/// heavy one, `run.heavy`'s probabilities).
pub fn measure_playouts(pos: &BenchPosition, run: PlayoutRun<'_>) -> Measurement {
    let PlayoutRun {
        kind,
        heavy,
        threads,
        limit,
        komi,
        seed,
    } = run;
    let policy = Policy::new(kind, heavy.clone());
    let threads = threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let start = Instant::now();
    let tallies: Vec<Tally> = pool.broadcast(|ctx| {
        let cpu_start = cpu_time::thread_cpu();
        let wall_start = Instant::now();
        let mut rng = Rng::seed_from_u64(seed ^ (ctx.index() as u64).wrapping_mul(0x9E37_79B9));
        let mut amaf = Amaf::default();
        let quota = match limit {
            BenchLimit::Playouts(n) => {
                n / threads as u64 + u64::from((ctx.index() as u64) < n % threads as u64)
            }
            BenchLimit::Time(_) => u64::MAX,
        };
        let deadline = match limit {
            BenchLimit::Time(d) => Some(start + d),
            BenchLimit::Playouts(_) => None,
        };
        let mut run = Runner {
            quota,
            deadline,
            rng: &mut rng,
            amaf: &mut amaf,
        };
        let mut tally = match kind {
            PolicyKind::Heavy => {
                let mut board = pos.board.clone();
                run.playouts(|rng, amaf| {
                    board.copy_from(&pos.board);
                    policy.run(&mut board, pos.to_move, pos.last, komi, rng, amaf, None)
                })
            }
            // Light playouts run on the light board compiled for the size where there
            // is one (the same playouts, see `playout::light`).
            PolicyKind::Light => match pos.board.size().get() {
                9 => run.light::<128, 10>(pos, komi, LightBoard9::from_board(&pos.board)),
                13 => run.light::<256, 14>(pos, komi, LightBoard13::from_board(&pos.board)),
                19 => run.light::<512, 20>(pos, komi, LightBoard19::from_board(&pos.board)),
                _ => run.light::<1024, 0>(pos, komi, LightBoardAny::from_board(&pos.board)),
            },
        };
        tally.wall = wall_start.elapsed().as_secs_f64();
        tally.cpu = CpuSpan::between(cpu_start, cpu_time::thread_cpu());
        tally
    });
    let seconds = start.elapsed().as_secs_f64();
    // The measuring threads' own CPU time: exact whatever else the process runs.
    let cpu = tallies
        .iter()
        .map(|t| t.cpu)
        .try_fold((0.0, 0.0), |(c, e), span| {
            span.map(|s| (c + s.seconds, e + s.error))
        });
    let sum = |f: fn(&Tally) -> u64| tallies.iter().map(f).sum::<u64>();
    Measurement {
        size: pos.board.size().get(),
        position: pos.name,
        policy: policy_label(kind, heavy),
        threads,
        parallelism: None,
        playouts: sum(|t| t.playouts),
        moves: sum(|t| t.moves),
        seconds,
        cpu_seconds: cpu.map(|(c, _)| c),
        cpu_error: cpu.map_or(0.0, |(_, e)| e),
        thread_seconds: tallies.iter().map(|t| t.wall).sum::<f64>() * core_share(threads),
        black_wins: sum(|t| t.black_wins),
    }
}

/// The share of their wall time `threads` measuring threads can have on the machine's
/// cores: 1 up to one a core; past that they wait for each other, which is the bench's
/// own doing, not other processes' ([`Measurement::starved`]).
fn core_share(threads: usize) -> f64 {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores as f64 / threads.max(1) as f64).min(1.0)
}

/// The name of a playout measurement's policy: `heavy-local` for the heavy policy with
/// the move model's local draw (`HeavyParams::local_model`).
fn policy_label(kind: PolicyKind, heavy: &HeavyParams) -> &'static str {
    match kind {
        PolicyKind::Heavy if heavy.local_model.is_some() => "heavy-local",
        _ => kind.name(),
    }
}

/// Tree search from `pos` (a game after one move) on `threads` threads: full
/// descents, expansions, heavy playouts and backups, for the given time or playouts,
/// under the settings of `base` (an engine that is not searched itself): its seed,
/// search parameters (the tree's priors: the model prior, a policy network) and heavy
/// playout parameters, and the policy network it holds, whose counters add up over
/// the runs.
pub fn measure_search(
    size: BoardSize,
    threads: usize,
    parallelism: Parallelism,
    limit: BenchLimit,
    base: &crate::Engine,
) -> Measurement {
    use std::sync::atomic::{AtomicBool, Ordering};
    use tengen_board::{Game, Rules};

    use crate::SearchRequest;

    let mut game = Game::new(size, Rules::chinese());
    let centre = size.point(size.get() / 2, size.get() / 2).expect("centre");
    game.play(Color::Black, Move::Play(centre))
        .expect("the centre of an empty board is legal");
    let config = crate::Config {
        threads: threads.max(1),
        parallelism,
        ..base.config().clone()
    };
    // Each run rates its own positions: none reads what an earlier run cached.
    let net = base.policy_net().cloned();
    if let Some(net) = &net {
        net.clear_cache();
    }
    // The base engine's tables: read once, not once a run.
    let knowledge = std::sync::Arc::clone(base.knowledge());
    let mut engine = crate::Engine::with_loaded_net(config, knowledge, net);
    let stop = AtomicBool::new(false);
    let (search_limit, wait) = match limit {
        BenchLimit::Time(d) => (crate::Limit::Infinite, Some(d)),
        BenchLimit::Playouts(n) => (crate::Limit::Playouts(n), None),
    };
    let cpu_start = cpu_time::process_cpu();
    let start = Instant::now();
    let analysis = std::thread::scope(|scope| {
        if let Some(d) = wait {
            let stop = &stop;
            scope.spawn(move || {
                std::thread::sleep(d);
                stop.store(true, Ordering::Relaxed);
            });
        }
        engine.search(SearchRequest::new(&game, Color::White, search_limit, &stop))
    });
    let seconds = start.elapsed().as_secs_f64();
    let cpu = CpuSpan::between(cpu_start, cpu_time::process_cpu());
    let threads = threads.max(1);
    let black_wins = analysis.moves.iter().map(|m| m.visits - m.wins).sum();
    Measurement {
        size: size.get(),
        position: "one-move",
        policy: "search",
        threads,
        parallelism: Some(parallelism),
        playouts: analysis.visits,
        moves: 0,
        seconds,
        cpu_seconds: cpu.map(|s| s.seconds),
        cpu_error: cpu.map_or(0.0, |s| s.error),
        thread_seconds: seconds * threads as f64 * core_share(threads),
        black_wins,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn midgame_position_is_fixed_and_sane() {
        let a = BenchPosition::midgame19();
        let b = BenchPosition::midgame19();
        assert_eq!(a.board.hash(), b.board.hash());
        a.board.check_invariants().unwrap();
        let stones = a.board.stones(Color::Black).count() + a.board.stones(Color::White).count();
        assert!((80..=120).contains(&stones), "{stones} stones");
    }

    /// The settings of a measured search: `seed`, the model prior, the heavy policy.
    fn bench_config(
        seed: u64,
        model_prior: crate::ModelPrior,
        heavy: &HeavyParams,
    ) -> crate::Config {
        crate::Config {
            seed,
            search: crate::SearchParams {
                model_prior,
                ..crate::SearchParams::default()
            },
            heavy: heavy.clone(),
            ..crate::Config::default()
        }
    }

    #[test]
    fn search_measurement_counts_its_playouts() {
        let m = measure_search(
            BoardSize::new(9).unwrap(),
            1,
            Parallelism::Root,
            BenchLimit::Playouts(500),
            &crate::Engine::new(bench_config(
                1,
                crate::ModelPrior::Wins,
                &HeavyParams::default(),
            )),
        );
        assert_eq!(m.playouts, 500);
        assert_eq!(m.policy, "search");
    }

    #[test]
    fn playout_budget_is_exact_over_threads() {
        let pos = BenchPosition::empty(BoardSize::new(9).unwrap());
        let m = light(&pos, 2, BenchLimit::Playouts(101));
        assert_eq!(m.playouts, 101);
        assert!(m.avg_moves() > 90.0 && m.avg_moves() < 140.0);
    }

    #[test]
    fn the_local_draw_is_named_in_the_measurement() {
        let pos = BenchPosition::empty(BoardSize::new(9).unwrap());
        let local = HeavyParams {
            local_model: Some(0.3),
            ..HeavyParams::default()
        };
        let name = |kind, heavy: &HeavyParams| {
            measure_playouts(&pos, run(kind, heavy, 1, BenchLimit::Playouts(3))).policy
        };
        assert_eq!(name(PolicyKind::Heavy, &local), "heavy-local");
        assert_eq!(name(PolicyKind::Heavy, &HeavyParams::default()), "heavy");
        assert_eq!(name(PolicyKind::Light, &local), "light");
    }

    /// Light playouts from `pos` on `threads` threads within `limit`, at komi 7.5 and
    /// seed 1.
    fn light(pos: &BenchPosition, threads: usize, limit: BenchLimit) -> Measurement {
        let heavy = HeavyParams::default();
        measure_playouts(pos, run(PolicyKind::Light, &heavy, threads, limit))
    }

    /// A run of playouts of `kind` (with `heavy`) on `threads` threads within `limit`,
    /// at komi 7.5 and seed 1.
    fn run(
        kind: PolicyKind,
        heavy: &HeavyParams,
        threads: usize,
        limit: BenchLimit,
    ) -> PlayoutRun<'_> {
        PlayoutRun {
            kind,
            heavy,
            threads,
            limit,
            komi: 7.5,
            seed: 1,
        }
    }

    /// A measurement of `playouts` in `seconds` on one thread, with this CPU time.
    fn timed(playouts: u64, seconds: f64, cpu: Option<f64>, cpu_error: f64) -> Measurement {
        Measurement {
            size: 9,
            position: "empty",
            policy: "light",
            threads: 1,
            parallelism: None,
            playouts,
            moves: 0,
            seconds,
            cpu_seconds: cpu,
            cpu_error,
            thread_seconds: seconds,
            black_wins: 0,
        }
    }

    #[test]
    fn a_cpu_time_too_imprecise_gives_no_figure() {
        // 1000 playouts in 5 ms: two 10 ms ticks of error cannot time them.
        let ticks = timed(1000, 0.005, Some(0.01), 0.02);
        assert!(ticks.cpu_too_short());
        assert_eq!(ticks.playouts_per_cpu_sec(), None);
        // Timed to 50 microseconds, they can.
        let exact = timed(1000, 0.005, Some(0.0049), 50e-6);
        assert!(!exact.cpu_too_short());
        let rate = exact.playouts_per_cpu_sec().unwrap();
        assert!((rate - 1000.0 / 0.0049).abs() < 1e-6, "{rate}");
        // A second of CPU time counted in ticks is within 2%.
        assert!(!timed(30_000, 1.0, Some(1.0), 0.02).cpu_too_short());
        assert!(timed(30_000, 1.0, Some(0.99), 0.02).cpu_too_short());
        // No CPU time at all: no figure, and not "too short".
        let unknown = timed(1000, 0.005, None, 0.0);
        assert!(!unknown.cpu_too_short());
        assert_eq!(unknown.playouts_per_cpu_sec(), None);
        assert_eq!(unknown.cpu_share(), None);
        assert!(!unknown.starved());
    }

    #[test]
    fn threads_that_got_little_cpu_time_are_starved() {
        let share = |m: &Measurement| m.cpu_share().unwrap();
        let idle = timed(1000, 2.0, Some(1.98), 0.0);
        assert!(!idle.starved());
        assert!((share(&idle) - 0.99).abs() < 1e-9);
        let busy = timed(1000, 2.0, Some(1.0), 0.0);
        assert!(busy.starved());
        assert!((share(&busy) - 0.5).abs() < 1e-9);
        // The threshold is 80% of the wall time of every thread.
        let two = Measurement {
            threads: 2,
            thread_seconds: 4.0,
            ..timed(1000, 2.0, Some(3.1), 0.0)
        };
        assert!(two.starved());
        assert!(
            !Measurement {
                cpu_seconds: Some(3.3),
                ..two.clone()
            }
            .starved()
        );
        // The clock's possible error counts for the threads: ticks cannot accuse them.
        assert!(timed(10, 0.05, Some(0.025), 0.0).starved());
        assert!(!timed(10, 0.05, Some(0.025), 0.02).starved());
    }

    #[test]
    fn cpu_time_is_measured_beside_wall_time() {
        if cfg!(not(target_os = "linux")) {
            return;
        }
        let pos = BenchPosition::empty(BoardSize::new(9).unwrap());
        let m = light(&pos, 1, BenchLimit::Time(Duration::from_millis(300)));
        let cpu = m.cpu_seconds.expect("Linux reports CPU time");
        // One thread cannot use more CPU than its wall time (the readings' own cost).
        assert!(
            cpu > 0.0 && cpu <= m.thread_seconds + 1e-3 && m.thread_seconds <= m.seconds,
            "{cpu} s of CPU in {} s",
            m.thread_seconds
        );
        // A thread starved below 25 ms of CPU has no figure (`cpu_too_short`); one that
        // has it cannot be slower per CPU-second than per second.
        if let Some(per_cpu) = m.playouts_per_cpu_sec() {
            assert!(per_cpu >= m.playouts_per_sec() * 0.99, "{m:?}");
        }
    }

    /// A short run's CPU time is timed to microseconds (a playout row) or refused as too
    /// short (a tree search, timed in ticks), never a figure from a tick or two.
    #[test]
    fn a_short_run_gives_an_honest_figure_or_none() {
        if cfg!(not(target_os = "linux")) {
            return;
        }
        let pos = BenchPosition::empty(BoardSize::new(9).unwrap());
        let heavy = HeavyParams::default();
        for _ in 0..5 {
            let m = light(&pos, 1, BenchLimit::Playouts(300));
            // One thread's CPU time is at most its wall time (and the reading's cost).
            let cpu = m.cpu_seconds.unwrap();
            assert!(
                cpu <= m.thread_seconds + 2.0 * cpu_time::THREAD_READING_ERROR,
                "{m:?}"
            );
        }
        let search = measure_search(
            BoardSize::new(9).unwrap(),
            1,
            Parallelism::Tree,
            BenchLimit::Playouts(100),
            &crate::Engine::new(bench_config(1, crate::ModelPrior::Off, &heavy)),
        );
        let cpu = search.cpu_seconds.unwrap();
        assert!(search.cpu_error >= 0.002, "{search:?}");
        if cpu < 50.0 * search.cpu_error {
            assert!(search.cpu_too_short(), "{search:?}");
            assert_eq!(search.playouts_per_cpu_sec(), None);
        }
    }
}
