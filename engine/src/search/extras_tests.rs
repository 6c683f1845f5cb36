//! Tests of what snapshots hold besides the candidates' statistics: the visits along
//! each principal variation, the ownership per candidate and the ownership's spread.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use tengen_board::{BoardSize, Color, Game, Move, Rules};

use super::{Job, Limit, Worker, search_by_config};
use crate::analysis::{Analysis, Extras, Report};
use crate::config::{Config, Parallelism};
use crate::playout::Rng;

/// A game of `size` with `rows` (top row first; `X` Black, `O` White) set up.
fn position(size: u32, komi: f64, rows: &[&str]) -> Game {
    let size = BoardSize::new(size).unwrap();
    let mut game = Game::new(size, Rules::chinese().with_komi(komi).unwrap());
    for (r, row) in rows.iter().enumerate() {
        for (x, cell) in row.split(' ').enumerate() {
            let c = match cell {
                "X" => Color::Black,
                "O" => Color::White,
                _ => continue,
            };
            let p = size.point(x, size.get() - 1 - r).unwrap();
            game.add_setup_stone(c, p).unwrap();
        }
    }
    game
}

/// One search of `playouts` for `color` by `threads` workers (one tree), the
/// snapshots asked for `extras`.
fn analyse(game: &Game, color: Color, playouts: u64, threads: usize, extras: Extras) -> Analysis {
    let config = Config {
        threads,
        parallelism: Parallelism::Tree,
        ..Config::default()
    };
    let mut workers: Vec<Worker> = (0..threads)
        .map(|i| Worker::new(game.board(), Rng::seed_from_u64(7 + i as u64)))
        .collect();
    let stop = AtomicBool::new(false);
    let job = Job::plain(game, color, Limit::Playouts(playouts), &stop);
    let mut ignore = |_: &Analysis| {};
    let report = Report {
        interval: Duration::from_secs(3600),
        sink: &mut ignore,
        extras,
    };
    search_by_config(
        &mut workers,
        (&config, None),
        &job,
        Instant::now(),
        Some(report),
    )
}

const BOTH: Extras = Extras {
    ownership: true,
    moves_ownership: true,
};

#[test]
fn pv_visits_start_at_the_moves_visits_and_never_increase() {
    let size = BoardSize::new(9).unwrap();
    let mut game = Game::new(size, Rules::chinese());
    game.play(Color::Black, size.parse_move("E5").unwrap())
        .unwrap();
    for threads in [1, 2] {
        let a = analyse(&game, Color::White, 3000, threads, Extras::default());
        assert!(
            a.moves.iter().any(|m| m.pv.len() > 3),
            "a line of some depth"
        );
        for m in &a.moves {
            assert_eq!(m.pv_visits.len(), m.pv.len(), "{:?}", m.mv);
            assert_eq!(m.pv_visits[0], m.visits, "{:?}", m.mv);
            assert!(
                m.pv_visits.windows(2).all(|w| w[1] <= w[0]),
                "{:?}: {:?}",
                m.mv,
                m.pv_visits
            );
            // Every move after the first was visited (a line goes only through
            // visited nodes), and the counts are the tree's, not copies of the first.
            assert!(m.pv_visits.iter().all(|&v| v > 0) || m.visits == 0);
        }
        let best = a.best().unwrap();
        assert!(
            best.pv_visits[1] < best.pv_visits[0],
            "{:?}",
            best.pv_visits
        );
        // Without extras asked for, no ownership is counted.
        assert!(a.ownership.is_empty() && a.moves.iter().all(|m| m.ownership.is_empty()));
    }
}

#[test]
fn the_move_that_captures_a_group_owns_its_points() {
    // White C3 C4 has one liberty, C2: Black captures there.
    let game = position(
        5,
        0.0,
        &[
            ". . X . .",
            ". X O X .",
            ". X O X .",
            ". . . . .",
            ". . . . .",
        ],
    );
    let size = game.size();
    let a = analyse(&game, Color::Black, 1000, 1, BOTH);
    let c2 = size.parse_move("C2").unwrap();
    let capture = a.moves.iter().find(|m| m.mv == c2).unwrap();
    assert!(capture.visits > 100, "C2 visited {} times", capture.visits);
    // Row by row from the top left.
    let at = |v: &[f32], vertex: &str| {
        let Move::Play(p) = size.parse_move(vertex).unwrap() else {
            unreachable!()
        };
        let (x, y) = size.coords(p);
        v[(size.get() - 1 - y) * size.get() + x]
    };
    for vertex in ["C3", "C4"] {
        let own = at(&capture.ownership, vertex);
        assert!(own > 0.9, "{vertex} after C2: {own}");
    }
    assert_eq!(capture.ownership.len(), size.area());
    assert_eq!(capture.neutral.len(), size.area());
    // A move no playout went through owns nothing yet.
    if let Some(m) = a.moves.iter().find(|m| m.visits == 0) {
        assert!(m.ownership.iter().all(|&o| o == 0.0));
        assert!(m.ownership_stdev().iter().all(|&s| s == 0.0));
    }
}

#[test]
fn the_ownership_spread_is_zero_where_every_playout_agrees() {
    // 5×5, every empty point a one-point eye: every playout ends as it starts, Black's
    // three left columns and White's two right ones.
    let game = position(
        5,
        7.5,
        &[
            "X . X O .",
            "X X X O O",
            "X . X O .",
            "X X X O O",
            "X . X O .",
        ],
    );
    let a = analyse(&game, Color::White, 200, 1, BOTH);
    assert_eq!(a.ownership_stdev().len(), 25);
    assert!(
        a.ownership_stdev().iter().all(|&s| s == 0.0),
        "{:?}",
        a.ownership_stdev()
    );
    for m in a.moves.iter().filter(|m| m.visits > 0) {
        assert!(m.ownership_stdev().iter().all(|&s| s == 0.0), "{:?}", m.mv);
    }
    // On an open board the playouts disagree: every spread within [0, 1], most above 0.
    let size = BoardSize::new(9).unwrap();
    let mut game = Game::new(size, Rules::chinese());
    game.play(Color::Black, size.parse_move("E5").unwrap())
        .unwrap();
    let a = analyse(&game, Color::White, 1000, 2, BOTH);
    assert!(a.moves.iter().filter(|m| m.visits > 20).count() >= 3);
    let spread = a.ownership_stdev();
    assert_eq!(spread.len(), 81);
    assert!(spread.iter().all(|s| (0.0..=1.0).contains(s)), "{spread:?}");
    assert!(
        spread.iter().filter(|&&s| s > 0.3).count() > 40,
        "{spread:?}"
    );
    let best = a.best().unwrap().ownership_stdev();
    assert!(best.iter().all(|s| (0.0..=1.0).contains(s)), "{best:?}");
    // The board's ownership is the candidates' weighted by their playouts (this
    // search's: nothing was reused).
    assert_eq!(a.reused, 0);
    for i in 0..81 {
        let weighted: f64 = a
            .moves
            .iter()
            .map(|m| m.visits as f64 * f64::from(m.ownership[i]))
            .sum::<f64>()
            / a.visits as f64;
        assert!(
            (weighted - f64::from(a.ownership[i])).abs() < 1e-4,
            "point {i}: {weighted} and {}",
            a.ownership[i]
        );
    }
}
