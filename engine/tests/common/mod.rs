//! What the search and endgame tests both set up.

use tengen_board::{Color, Game, Rules, parse_diagram};

/// A game whose start position is the diagram, `to_move` to play, under Chinese
/// rules with `komi`.
pub fn game_from(diagram: &str, to_move: Color, komi: f64) -> Game {
    let rules = Rules::chinese().with_komi(komi).unwrap();
    let mut game = Game::from_setup(&parse_diagram(diagram).unwrap(), rules).unwrap();
    game.set_to_move(to_move);
    game
}
