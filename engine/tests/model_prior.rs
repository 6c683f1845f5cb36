//! The move model in the search (`SearchParams::model_prior`): repeatable for a seed,
//! and really used (the visits and the children searched change with it).

use std::sync::atomic::AtomicBool;

use tengen_board::{BoardSize, Color, Game, Move, Rules};
use tengen_engine::{
    Analysis, Config, Engine, Limit, ModelPrior, PolicyKind, SearchParams, SearchRequest,
};

fn config(model_prior: ModelPrior) -> Config {
    Config {
        threads: 1,
        playouts: Some(800),
        seed: 11,
        policy: PolicyKind::Heavy,
        search: SearchParams {
            model_prior,
            ..SearchParams::default()
        },
        ..Config::default()
    }
}

/// A 19×19 opening after four moves.
fn opening() -> Game {
    let size = BoardSize::new(19).unwrap();
    let mut game = Game::new(size, Rules::chinese());
    for (c, v) in [
        (Color::Black, "Q16"),
        (Color::White, "D4"),
        (Color::Black, "Q4"),
        (Color::White, "D16"),
    ] {
        game.play(c, Move::Play(size.parse_point(v).unwrap()))
            .unwrap();
    }
    game
}

fn search(model_prior: ModelPrior) -> Analysis {
    let stop = AtomicBool::new(false);
    Engine::new(config(model_prior)).search(SearchRequest::new(
        &opening(),
        Color::Black,
        Limit::Playouts(800),
        &stop,
    ))
}

/// The root's moves as (move, visits, prior), in the analysis' order.
fn root(a: &Analysis) -> Vec<(Move, u64, f64)> {
    a.moves.iter().map(|m| (m.mv, m.visits, m.prior)).collect()
}

#[test]
fn the_model_prior_is_repeatable_for_a_seed() {
    for mode in [ModelPrior::Wins, ModelPrior::Both] {
        let (a, b) = (search(mode), search(mode));
        assert_eq!(root(&a), root(&b), "{mode:?}");
        assert_eq!(a.winrate, b.winrate, "{mode:?}");
    }
}

#[test]
fn the_model_changes_the_priors_and_widening_the_children_searched() {
    let off = search(ModelPrior::Off);
    let wins = search(ModelPrior::Wins);
    let visits_of = |a: &Analysis, mv: Move| a.moves.iter().find(|m| m.mv == mv).unwrap().visits;
    // The model's virtual wins move the search: the playouts go elsewhere.
    let moved = off
        .moves
        .iter()
        .filter(|m| visits_of(&wins, m.mv) != m.visits)
        .count();
    assert!(moved > 10, "{moved} moves' visits changed");
    // The reported prior is the model's policy either way (without a network): what
    // the virtual wins follow when they are on.
    let prior_of = |a: &Analysis, mv: Move| a.moves.iter().find(|m| m.mv == mv).unwrap().prior;
    assert!(
        wins.moves
            .iter()
            .all(|m| (prior_of(&off, m.mv) - m.prior).abs() < 1e-9)
    );
    // Widening: the root searched at most the width its visits allow, far fewer
    // children than without it.
    let widen = search(ModelPrior::Widen);
    let searched = |a: &Analysis| a.moves.iter().filter(|m| m.visits > 0).count();
    let width = config(ModelPrior::Widen).search.width(widen.visits as u32);
    assert!(searched(&widen) <= width, "{} > {width}", searched(&widen));
    assert!(
        searched(&off) > width,
        "{} children searched without widening",
        searched(&off)
    );
}
