//! Whole games under a tight clock: every move's thinking time is checked against the
//! clock the way a referee keeps it, and nobody may lose on time.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tengen_board::{BoardSize, Game, Move, Rules};
use tengen_engine::{
    Clock, Config, Decision, Engine, Limit, Overruns, SearchRequest, TimeControl, budget,
};

/// Plays a 9×9 game between two engines under `tc` and returns every move's time with
/// the clock it was played against; panics if a move overruns the clock.
fn play_under(tc: TimeControl, max_moves: usize) -> Vec<(Duration, Clock)> {
    let size = BoardSize::new(9).unwrap();
    let mut game = Game::new(size, Rules::chinese());
    let config = Config {
        threads: 1,
        seed: 11,
        resign_threshold: 0.0,
        ..Config::default()
    };
    let lag = config.lag;
    let mut engines = [Engine::new(config.clone()), Engine::new(config)];
    let mut clocks = [tc.start_clock(), tc.start_clock()];
    let stop = AtomicBool::new(false);
    let mut log = Vec::new();
    // As a GTP session keeps them: the lag plus twice the recent overruns.
    let mut overruns = [Overruns::default(), Overruns::default()];
    while !game.is_over() && game.move_count() < max_moves {
        let c = game.to_move();
        let i = c.index();
        let before = clocks[i];
        let reserve = lag + overruns[i].reserve();
        let b = budget(&tc, &before, game.move_count(), size.area(), reserve)
            .expect("a limited clock gives a budget");
        let start = Instant::now();
        let d = engines[i].genmove(SearchRequest::new(&game, c, Limit::Time(b), &stop));
        let used = start.elapsed();
        overruns[i].record(b.hard, used);
        // Inside the current period, never by losing one: the referee's own rule
        // would forgive that, this test does not.
        let allowed = match tc {
            TimeControl::Byoyomi { period, .. } if before.stones > 0 => period,
            _ => before.allowed(&tc).expect("a limited clock"),
        };
        assert!(
            used <= allowed,
            "move {} by {c}: {used:?} against {allowed:?} on the clock",
            game.move_count() + 1
        );
        assert!(
            clocks[i].charge(&tc, used, Duration::ZERO),
            "the flag fell at move {}",
            game.move_count() + 1
        );
        log.push((used, before));
        let m = match d {
            Decision::Play(m) => m,
            Decision::Resign => Move::Pass,
        };
        game.play(c, m).unwrap();
    }
    log
}

#[test]
#[ignore = "long: cargo test -- --include-ignored"]
fn sudden_death_game_never_flags() {
    let tc = TimeControl::Absolute {
        main: Duration::from_secs(5),
    };
    let log = play_under(tc, 90);
    assert!(log.len() >= 20, "the game went on ({} moves)", log.len());
    // Both sides still had time left after their last move.
    let per_side: [Duration; 2] =
        [0, 1].map(|s| log.iter().skip(s).step_by(2).map(|(d, _)| *d).sum());
    for t in per_side {
        assert!(t < Duration::from_secs(5), "{t:?} used of 5 s");
    }
}

#[test]
#[ignore = "long: cargo test -- --include-ignored"]
fn byoyomi_moves_fit_their_period() {
    let tc = TimeControl::Byoyomi {
        main: Duration::from_millis(500),
        period: Duration::from_millis(400),
        periods: 1,
    };
    // Every move is checked against its period inside `play_under`; the game must
    // reach overtime for that to mean something.
    let log = play_under(tc, 40);
    assert!(log.len() >= 20);
    assert!(
        log.iter().any(|(_, c)| c.stones > 0),
        "overtime was reached"
    );
}

#[test]
#[ignore = "long: cargo test -- --include-ignored"]
fn fischer_game_never_flags() {
    // 2 s and 0.3 s a move: a fast game lives on its increments.
    let tc = TimeControl::Fischer {
        main: Duration::from_secs(2),
        increment: Duration::from_millis(300),
        cap: None,
    };
    let log = play_under(tc, 60);
    assert!(log.len() >= 30, "the game went on ({} moves)", log.len());
    // Past the main time's share, the moves live on the increment: the later half
    // of each side's moves averages at least half of it.
    let late: Vec<Duration> = log.iter().skip(log.len() / 2).map(|(d, _)| *d).collect();
    let mean = late.iter().sum::<Duration>() / late.len() as u32;
    assert!(mean >= Duration::from_millis(150), "{mean:?}");
}
