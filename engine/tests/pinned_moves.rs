//! The moves the engine chooses for a seed, pinned: one thread, a fixed playout budget
//! and the move model's prior on, a few `genmove`s in a row (the tree carried from
//! move to move) on 9×9 and 19×19. A change that means to keep the engine's play as
//! it is (moving code, sharing tables differently) must keep these moves; a change
//! that means to alter it records the new ones here, with the reason in its commit.

use std::sync::atomic::AtomicBool;

use tengen_board::{BoardSize, Game, Move, Rules};
use tengen_engine::{
    Config, Decision, Engine, HeavyParams, Limit, ModelPrior, PolicyKind, SearchParams,
    SearchRequest,
};

/// One thread, `playouts` a move, the seed given, the model prior as virtual wins.
fn config(playouts: u64, seed: u64, heavy: HeavyParams) -> Config {
    Config {
        threads: 1,
        playouts: Some(playouts),
        seed,
        policy: PolicyKind::Heavy,
        search: SearchParams {
            model_prior: ModelPrior::Wins,
            ..SearchParams::default()
        },
        heavy,
        ..Config::default()
    }
}

/// A game on `size` after `opening` (vertices, Black first).
fn game(size: u32, opening: &[&str]) -> Game {
    let size = BoardSize::new(size).unwrap();
    let mut game = Game::new(size, Rules::chinese());
    for v in opening {
        let c = game.to_move();
        game.play(c, Move::Play(size.parse_point(v).unwrap()))
            .unwrap();
    }
    game
}

/// The engine's next `moves` moves from `game`, playing both sides, as vertices.
fn play_on(config: Config, mut game: Game, moves: usize) -> Vec<String> {
    let playouts = config.playouts.expect("a playout budget");
    let mut engine = Engine::new(config);
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    for _ in 0..moves {
        let c = game.to_move();
        let decision = engine.genmove(SearchRequest::new(
            &game,
            c,
            Limit::Playouts(playouts),
            &stop,
        ));
        match decision {
            Decision::Play(m) => {
                out.push(game.size().move_vertex(m).to_string());
                game.play(c, m).unwrap();
            }
            Decision::Resign => {
                out.push("resign".to_string());
                break;
            }
        }
    }
    out
}

#[test]
fn nine_by_nine_moves_are_pinned() {
    let moves = play_on(
        config(3000, 7, HeavyParams::default()),
        game(9, &["E5", "C4"]),
        6,
    );
    assert_eq!(moves, ["D8", "G5", "E3", "D3", "E2", "F4"]);
}

#[test]
fn nineteen_by_nineteen_moves_are_pinned() {
    let moves = play_on(
        config(1500, 11, HeavyParams::default()),
        game(19, &["Q16", "D4", "Q4", "D16"]),
        3,
    );
    assert_eq!(moves, ["C12", "C14", "N14"]);
}

/// The playouts read the learned tables too: the learned 3×3 shapes in their pattern
/// step, or the move model's local strengths near the last move.
#[test]
fn moves_with_the_learned_tables_in_the_playouts_are_pinned() {
    let shapes = HeavyParams {
        shape_threshold: Some(0.5),
        ..HeavyParams::default()
    };
    let moves = play_on(config(2000, 3, shapes), game(9, &["C3", "G7", "G3"]), 4);
    assert_eq!(moves, ["F4", "C6", "F3", "G4"]);
    let local = HeavyParams {
        local_model: Some(1.0),
        ..HeavyParams::default()
    };
    let moves = play_on(config(2000, 5, local), game(9, &["C3", "G7", "G3"]), 4);
    assert_eq!(moves, ["D6", "C7", "C6", "D7"]);
}
