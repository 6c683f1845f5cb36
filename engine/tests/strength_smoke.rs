//! A small fixed-seed self-play smoke test: the shipped player at 1 000 playouts must
//! beat a light-playout player at 100 playouts on 9×9. A crippling regression in the
//! search, the priors or the heavy playouts shows here; real strength is measured with
//! `tengen match` (STRENGTH.md).

use std::sync::atomic::AtomicBool;

use tengen_board::{BoardSize, Color, Game, Rules};
use tengen_engine::{Config, Decision, Engine, Limit, PolicyKind, SearchRequest};

fn play(black: &mut Engine, white: &mut Engine, bp: u64, wp: u64) -> Color {
    let size = BoardSize::new(9).unwrap();
    let mut game = Game::new(size, Rules::chinese());
    let stop = AtomicBool::new(false);
    while !game.is_over() && game.move_count() < 200 {
        let c = game.to_move();
        let (e, n) = if c == Color::Black {
            (&mut *black, bp)
        } else {
            (&mut *white, wp)
        };
        match e.genmove(SearchRequest::new(&game, c, Limit::Playouts(n), &stop)) {
            Decision::Resign => return c.opponent(),
            Decision::Play(m) => game.play(c, m).expect("the engine plays legal moves"),
        };
    }
    let status = black.final_status(&game);
    if game.score(&status.dead, &status.seki).margin() > 0.0 {
        Color::Black
    } else {
        Color::White
    }
}

#[test]
#[ignore = "long: cargo test -- --include-ignored"]
fn shipped_player_beats_a_weak_one() {
    let strong = |seed| {
        Engine::new(Config {
            threads: 1,
            seed,
            ..Config::default()
        })
    };
    let weak = |seed| {
        Engine::new(Config {
            threads: 1,
            seed,
            policy: PolicyKind::Light,
            ..Config::default()
        })
    };
    let mut wins = 0;
    for g in 0..4u64 {
        let (mut s, mut w) = (strong(g), weak(100 + g));
        let winner = if g % 2 == 0 {
            play(&mut s, &mut w, 1000, 100)
        } else {
            play(&mut w, &mut s, 100, 1000)
        };
        let strong_colour = if g % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        wins += u32::from(winner == strong_colour);
    }
    assert!(wins >= 3, "the shipped player won only {wins} of 4 games");
}
