//! Komi and colour in the search's value: a position searched for one colour and its
//! colour-swapped twin searched for the other colour, komi negated, are the same game,
//! so the search must value them alike; and a larger komi must lower Black's win rate
//! and raise White's.

use std::sync::atomic::AtomicBool;

use tengen_board::{BoardSize, Color, Game, Rules};
use tengen_engine::{Analysis, Config, Engine, Limit, SearchRequest};

mod common;
use common::game_from;

/// A 9×9 middle game with Black to move (each side has a group to settle).
const MIDDLE_GAME: &str = ". . . . . . . . .
     . . O O . . . . .
     . O X X O . X . .
     . O X . X O X . .
     . . X . X O O X .
     . . O X X . O X .
     . . O O X . O . .
     . . . O . X . . .
     . . . . . . . . .";

/// One search of `game` for `color`: one thread, `playouts`, seed `seed`.
fn search(game: &Game, color: Color, playouts: u64, seed: u64) -> Analysis {
    let mut engine = Engine::new(Config {
        threads: 1,
        playouts: Some(playouts),
        seed,
        ..Config::default()
    });
    let stop = AtomicBool::new(false);
    let limit = Limit::Playouts(playouts);
    engine.search(SearchRequest::new(game, color, limit, &stop))
}

/// The empty board of `size` with `to_move` to play under Chinese rules and `komi`.
fn empty(size: u32, to_move: Color, komi: f64) -> Game {
    let rules = Rules::chinese().with_komi(komi).unwrap();
    let mut game = Game::new(BoardSize::new(size).unwrap(), rules);
    game.set_to_move(to_move);
    game
}

/// `diagram` with Black's and White's stones swapped.
fn swapped(diagram: &str) -> String {
    diagram
        .chars()
        .map(|c| match c {
            'X' => 'O',
            'O' => 'X',
            c => c,
        })
        .collect()
}

#[test]
fn the_empty_board_is_the_same_game_for_either_colour_with_komi_negated() {
    // The empty board is its own colour swap and the workers' seeds come from the
    // position, so a colour-blind search repeats itself exactly: every count, every
    // move, every score the same.
    for komi in [7.5, 0.5] {
        let black = search(&empty(9, Color::Black, komi), Color::Black, 3000, 11);
        let white = search(&empty(9, Color::White, -komi), Color::White, 3000, 11);
        assert_eq!(black.visits, white.visits);
        assert_eq!(black.winrate, white.winrate, "komi {komi}");
        assert_eq!(black.score_lead, white.score_lead, "komi {komi}");
        let moves = |a: &Analysis| {
            a.moves
                .iter()
                .map(|m| (m.mv, m.visits, m.winrate))
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(&black), moves(&white), "komi {komi}");
    }
}

#[test]
fn a_position_and_its_colour_swapped_twin_have_the_same_value() {
    // The twin's position hashes differently, so its playouts differ: the win rates
    // agree within the noise of a few searches.
    let seeds = 0..6;
    let mean = |game: &Game, color: Color| {
        let n = seeds.clone().count() as f64;
        seeds
            .clone()
            .map(|s| search(game, color, 2000, s).winrate)
            .sum::<f64>()
            / n
    };
    let original = mean(&game_from(MIDDLE_GAME, Color::Black, 7.5), Color::Black);
    let twin = mean(
        &game_from(&swapped(MIDDLE_GAME), Color::White, -7.5),
        Color::White,
    );
    assert!(
        (original - twin).abs() < 0.05,
        "Black {original:.3}, its twin as White {twin:.3}"
    );
    // The test can fail: the twin with the komi's sign left as it was (what a search
    // that forgot to flip it for White would see) is a different game.
    let unflipped = mean(
        &game_from(&swapped(MIDDLE_GAME), Color::White, 7.5),
        Color::White,
    );
    assert!(
        (original - unflipped).abs() > 0.1,
        "Black {original:.3}, the twin with komi 7.5 {unflipped:.3}"
    );
}

#[test]
fn a_larger_komi_lowers_blacks_win_rate_and_raises_whites() {
    let rate =
        |to_move: Color, komi: f64| search(&empty(9, to_move, komi), to_move, 3000, 3).winrate;
    let black: Vec<f64> = [-6.5, 0.5, 7.5, 14.5]
        .iter()
        .map(|&k| rate(Color::Black, k))
        .collect();
    let white: Vec<f64> = [-6.5, 0.5, 7.5, 14.5]
        .iter()
        .map(|&k| rate(Color::White, k))
        .collect();
    assert!(black.windows(2).all(|w| w[0] > w[1]), "Black: {black:?}");
    assert!(white.windows(2).all(|w| w[0] < w[1]), "White: {white:?}");
    // The empty board at komi 7.5 is neither won nor lost for Black: the search
    // keeps a gradient there.
    assert!(
        black[2] > 0.2 && black[2] < 0.8,
        "Black at komi 7.5: {}",
        black[2]
    );
}
