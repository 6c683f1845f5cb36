//! A whole game between two `tengen gtp` processes, refereed by a `Game`, ends with
//! two passes and a score from both engines.

use std::path::Path;

use tengen_board::{BoardSize, Color, Game, GameResult, Rules};

use super::binary::tengen;
use super::process::Engine;

/// An engine at 300 playouts a move on one thread that never resigns.
fn start(path: &Path, seed: &str) -> Engine {
    let args = ["--playouts", "300", "--threads", "1", "--quiet"];
    let args = [&args[..], &["--seed", seed, "--resign-threshold", "0"]].concat();
    Engine::start(path, &args)
}

#[test]
fn two_engines_play_a_whole_game_to_a_score() {
    let Some(path) = tengen() else { return };
    let size = BoardSize::new(9).unwrap();
    let mut referee = Game::new(size, Rules::chinese().with_komi(7.0).unwrap());
    let mut engines = [start(&path, "1"), start(&path, "2")];
    for e in &mut engines {
        e.ok("boardsize 9");
        e.ok("komi 7");
        e.ok("clear_board");
    }
    let mut color = Color::Black;
    let mut moves = 0;
    while !referee.is_over() {
        assert!(moves < 250, "no end after {moves} moves");
        let (mover, other) = match color {
            Color::Black => (0, 1),
            Color::White => (1, 0),
        };
        let word = engines[mover].ok(&format!("genmove {color}"));
        assert_ne!(word, "resign", "resigning is off");
        let mv = size
            .parse_move(&word)
            .unwrap_or_else(|e| panic!("{word}: {e}"));
        referee
            .play(color, mv)
            .unwrap_or_else(|e| panic!("move {moves}: {color} {word} is illegal: {e}"));
        engines[other].ok(&format!("play {color} {word}"));
        color = color.opponent();
        moves += 1;
    }
    assert!(moves > 20, "a real game, not {moves} moves");
    assert_eq!(referee.consecutive_passes(), 2);
    let score = referee.tromp_taylor_score();
    for e in &mut engines {
        let result = e.ok("final_score");
        let parsed: GameResult = result.parse().unwrap_or_else(|_| panic!("{result}"));
        assert!(
            matches!(parsed, GameResult::Points(..) | GameResult::Draw),
            "{result}"
        );
        let alive = e.ok("final_status_list alive");
        assert!(!alive.is_empty(), "{alive}");
        e.ok("final_status_list dead");
        println!("engine's count: {result}");
    }
    println!(
        "game of {moves} moves, Tromp-Taylor count {}",
        score.result()
    );
}
