//! The search on positions where one move wins, with a fixed seed and playout budget.

use std::sync::atomic::AtomicBool;

use tengen_board::{Color, Game, Move, Rules};
use tengen_engine::{
    Analysis, Config, Decision, Engine, Limit, Parallelism, PolicyKind, SearchRequest,
};

mod common;
use common::game_from;

fn engine(playouts: u64) -> Engine {
    Engine::new(config(playouts))
}

fn config(playouts: u64) -> Config {
    Config {
        threads: 1,
        playouts: Some(playouts),
        seed: 42,
        policy: PolicyKind::Heavy,
        ..Config::default()
    }
}

/// `to_move`'s move in `game` from `engine` after `playouts` playouts, never stopped
/// early.
fn genmove(engine: &mut Engine, game: &Game, to_move: Color, playouts: u64) -> Decision {
    let stop = AtomicBool::new(false);
    let limit = Limit::Playouts(playouts);
    engine.genmove(SearchRequest::new(game, to_move, limit, &stop))
}

/// Black's search of `game` on `engine` for `playouts` playouts, never stopped early.
fn search_for_black(engine: &mut Engine, game: &Game, playouts: u64) -> Analysis {
    let stop = AtomicBool::new(false);
    engine.search(SearchRequest::new(
        game,
        Color::Black,
        Limit::Playouts(playouts),
        &stop,
    ))
}

fn best_move(diagram: &str, to_move: Color, komi: f64, config: Config) -> String {
    let game = game_from(diagram, to_move, komi);
    let playouts = config.playouts.expect("a playout budget");
    match genmove(&mut Engine::new(config), &game, to_move, playouts) {
        Decision::Play(m) => game.size().move_vertex(m).to_string(),
        Decision::Resign => "resign".into(),
    }
}

/// A position where one move wins.
struct Problem {
    name: &'static str,
    diagram: Diagram,
    to_move: Color,
    komi: f64,
    playouts: u64,
    answers: &'static [&'static str],
}

/// A problem's position.
enum Diagram {
    /// As drawn.
    Drawn(&'static str),
    /// The drawing with Black's and White's stones swapped.
    ColoursSwapped(&'static str),
}
use Diagram::{ColoursSwapped, Drawn};

impl Diagram {
    /// The position's diagram text.
    fn text(&self) -> String {
        match *self {
            Drawn(text) => text.to_string(),
            ColoursSwapped(text) => text
                .chars()
                .map(|c| match c {
                    'X' => 'O',
                    'O' => 'X',
                    c => c,
                })
                .collect(),
        }
    }
}

/// White's group on the left edge, walled in by Black, around the three-point eye
/// space A3–C3: its middle point B3 makes two eyes or kills.
const VITAL_POINT: &str = ". . . . . . .
                           . . . . . . .
                           X X X X X . .
                           O O O O X . .
                           . . . O X . .
                           O O O O X . .
                           X X X X X . .";

const PROBLEMS: &[Problem] = &[
    Problem {
        name: "capture a group in atari",
        diagram: Drawn(
            ". . . . . . .
             . . X X X . .
             . X O O O X .
             . X O . O X .
             . . X O X . .
             . . . X . . .
             . . . . . . .",
        ),
        to_move: Color::Black,
        komi: 0.5,
        playouts: 3000,
        answers: &["D4"],
    },
    Problem {
        name: "save a group in atari",
        diagram: Drawn(
            ". X . X . X .
             X X X X X X X
             O O O . O O O
             . . O X O . .
             . . O X O . .
             . . . O . . .
             . . . . . . .",
        ),
        to_move: Color::Black,
        // D5 joins D4–D3 to the wall: Black 17 - White 32; captured: 14 - 35.
        // Only the rescue wins.
        komi: -18.5,
        playouts: 4000,
        answers: &["D5"],
    },
    Problem {
        name: "win a capturing race",
        diagram: Drawn(
            ". X O . X . .
             . X O . X . .
             O O X X X . .
             O O X . . . .
             . O X . . . .
             O O X . . . .
             . O X . . . .",
        ),
        to_move: Color::Black,
        // B7–B6 and C7–C6 have two liberties each (A7 A6; D7 D6). Taking one of
        // White's first wins the race: Black 39 - White 10; losing it: 31 - 16.
        komi: 20.5,
        playouts: 4000,
        answers: &["D7", "D6"],
    },
    Problem {
        name: "kill by the vital point",
        diagram: Drawn(VITAL_POINT),
        to_move: Color::Black,
        // White alive: Black 37 - White 12; dead: 49 - 0. Only the kill wins.
        komi: 30.5,
        playouts: 4000,
        answers: &["B3"],
    },
    Problem {
        name: "make the second eye",
        // The same shape as the kill, the colours swapped: Black's group inside.
        diagram: ColoursSwapped(VITAL_POINT),
        to_move: Color::Black,
        // Black alive: 12 - 37 + 25.5 > 0; dead: loses. Only the eye wins.
        komi: -25.5,
        playouts: 4000,
        answers: &["B3"],
    },
];

/// The problems `PROBLEMS` fails with the engine `config` gives for a budget.
fn failures(config: impl Fn(u64) -> Config) -> Vec<String> {
    let mut failures = Vec::new();
    for p in PROBLEMS {
        let got = best_move(&p.diagram.text(), p.to_move, p.komi, config(p.playouts));
        if !p.answers.contains(&got.as_str()) {
            failures.push(format!(
                "{}: played {got}, expected one of {:?}",
                p.name, p.answers
            ));
        }
    }
    failures
}

#[test]
fn finds_the_winning_move() {
    let failures = failures(config);
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Two threads on one tree, with twice the budget (the threads' interleaving makes
/// the search vary from run to run, so it gets a margin).
#[test]
fn finds_the_winning_move_with_two_threads_on_one_tree() {
    let failures = failures(|n| Config {
        threads: 2,
        parallelism: Parallelism::Tree,
        playouts: Some(2 * n),
        ..config(n)
    });
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn same_position_same_move_with_one_thread_and_a_seed() {
    let size = tengen_board::BoardSize::new(9).unwrap();
    let mut game = Game::new(size, Rules::chinese());
    game.play(Color::Black, size.parse_move("E5").unwrap())
        .unwrap();
    let a = genmove(&mut engine(2000), &game, Color::White, 2000);
    let b = genmove(&mut engine(2000), &game, Color::White, 2000);
    assert_eq!(a, b);
    assert!(matches!(a, Decision::Play(Move::Play(_))));
}

/// A 3 000-playout search of the empty 9×9 board for Black, then its best move and the
/// reply it expects played, then a one-playout search of that position on the same
/// engine (which reuses the tree): both analyses.
fn search_then_reuse() -> (Analysis, Analysis) {
    let size = tengen_board::BoardSize::new(9).unwrap();
    let mut game = Game::new(size, Rules::chinese());
    let mut e = engine(3000);
    let first = search_for_black(&mut e, &game, 3000);
    let best = first.best().unwrap();
    let reply = best.pv.get(1).copied().unwrap_or(Move::Pass);
    game.play(Color::Black, best.mv).unwrap();
    game.play(Color::White, reply).unwrap();
    let again = search_for_black(&mut e, &game, 1);
    (first, again)
}

#[test]
fn tree_reuse_keeps_the_search_going() {
    // The reused subtree already holds visits before any new playout.
    let (first, again) = search_then_reuse();
    assert!(again.visits > 1, "reused {} visits", again.visits);
    // They are told apart from this search's own playouts.
    assert_eq!(again.reused, again.visits - 1, "{again:?}");
    assert_eq!(again.playouts(), 1);
    assert_eq!(first.reused, 0);
    assert_eq!(first.playouts(), first.visits);
}

#[test]
fn the_score_and_its_spread_after_tree_reuse_are_this_searchs_playouts() {
    let (first, again) = search_then_reuse();
    // The empty board's playouts end far apart, though no score is further from 0
    // than the 81 points of the board and the komi.
    let best = first.best().unwrap();
    for stdev in [first.score_stdev, best.score_stdev] {
        assert!(stdev > 1.0 && stdev < 88.5, "stdev {stdev}");
    }
    // The reused tree keeps no scores: one new playout's score (an area count minus
    // 7.5 komi) is the lead, not that score spread over the reused visits.
    assert!(again.reused > 100, "{} reused", again.reused);
    assert_eq!(
        again.score_lead.abs().fract(),
        0.5,
        "lead {}",
        again.score_lead
    );
    let scored = again.moves.iter().find(|m| m.score_lead != 0.0).unwrap();
    assert_eq!(scored.score_lead, again.score_lead);
    // One score does not spread: the reused visits do not count as scores of 0.
    assert_eq!(again.score_stdev, 0.0);
    assert!(again.moves.iter().all(|m| m.score_stdev == 0.0));
}

/// A root move the caller avoids is never chosen, never listed, and a reused tree that
/// has searched it does not bring it back.
#[test]
fn avoided_root_moves_are_never_chosen_nor_listed() {
    use tengen_board::{Bitboard, BoardSize};
    let size = BoardSize::new(9).unwrap();
    let game = Game::new(size, Rules::chinese());
    let stop = AtomicBool::new(false);
    let mut e = engine(800);
    // First a free search, so the reused tree has visits on every good move.
    let free = search_for_black(&mut e, &game, 800);
    let favourite = match free.best().unwrap().mv {
        Move::Play(p) => p,
        Move::Pass => panic!("passed on an empty board"),
    };
    // Then avoid every point of the left half and the favourite.
    let mut avoid = Bitboard::EMPTY;
    for p in size.points() {
        if size.coords(p).0 < 5 || p == favourite {
            avoid.insert(p);
        }
    }
    let avoiding = e.search(
        SearchRequest::new(&game, Color::Black, Limit::Playouts(800), &stop).avoiding(avoid),
    );
    assert!(!avoiding.moves.is_empty());
    for m in &avoiding.moves {
        if let Move::Play(p) = m.mv {
            assert!(!avoid.contains(p), "{} listed", size.move_vertex(m.mv));
        }
    }
    assert!(avoiding.playouts() >= 800);
    match e.genmove(
        SearchRequest::new(&game, Color::Black, Limit::Playouts(800), &stop).avoiding(avoid),
    ) {
        Decision::Play(Move::Play(p)) => assert!(!avoid.contains(p)),
        other => panic!("{other:?}"),
    }
}

/// Dynamic komi: White's move in a three-stone 13×13 game is searched for the komi
/// plus the stones' share, so its win rate is no longer pinned low (the same seed and
/// budget otherwise); an analysis search of the position keeps the real komi, and an
/// even game is searched as before.
#[test]
fn dynamic_komi_moves_only_a_handicap_games_move_search() {
    let rules = Rules::chinese().with_komi(0.5).unwrap();
    let mut game = Game::new(tengen_board::BoardSize::new(13).unwrap(), rules);
    game.place_fixed_handicap(3).unwrap();
    let with = |dynamic_komi| Config {
        dynamic_komi,
        ..config(1500)
    };
    let white_move = |config: Config, game: &Game| {
        let mut engine = Engine::new(config);
        genmove(&mut engine, game, Color::White, 1500);
        engine.last_analysis().unwrap().winrate
    };
    let real = white_move(with(0.0), &game);
    let dynamic = white_move(with(7.0), &game);
    assert!(real < 0.45, "three stones pin White low: {real}");
    assert!(dynamic > real + 0.08, "{real} → {dynamic}");
    // Analysis (Black's search here) reads the real komi whatever the setting.
    let analysed = |config| search_for_black(&mut Engine::new(config), &game, 1500).winrate;
    assert_eq!(analysed(with(0.0)), analysed(with(7.0)));
    // An even game has nothing to shift.
    let even = Game::new(tengen_board::BoardSize::new(13).unwrap(), rules);
    assert_eq!(white_move(with(0.0), &even), white_move(with(7.0), &even));
}

/// The tree of a handicap game's move, searched for the shifted komi, serves the next
/// move (the shift moved by a fraction of a point) but never an analysis, which must
/// read the real komi: the analysis after it equals a fresh engine's.
#[test]
fn an_analysis_never_reads_a_tree_searched_for_the_shifted_komi() {
    let rules = Rules::chinese().with_komi(0.5).unwrap();
    let mut game = Game::new(tengen_board::BoardSize::new(13).unwrap(), rules);
    game.place_fixed_handicap(3).unwrap();
    let white_moves = |engine: &mut Engine, game: &mut Game| {
        let Decision::Play(mv) = genmove(engine, game, Color::White, 800) else {
            panic!("White resigned at move 0");
        };
        game.play(Color::White, mv).unwrap();
    };
    // The next move's search keeps the tree.
    let (mut player, mut next) = (engine(800), game.clone());
    white_moves(&mut player, &mut next);
    genmove(&mut player, &next, Color::Black, 800);
    assert!(player.last_analysis().unwrap().reused > 0);
    // An analysis does not.
    let (mut player, mut analysed) = (engine(800), game.clone());
    white_moves(&mut player, &mut analysed);
    let after = search_for_black(&mut player, &analysed, 800);
    let fresh = search_for_black(&mut Engine::new(config(800)), &analysed, 800);
    assert_eq!(after.reused, 0);
    assert_eq!(after.winrate, fresh.winrate);
}

/// Black's win rate under a shift that asks it for more than the real komi understates
/// its chances, so Black never resigns on it: every other condition of resigning holds
/// here (a low win rate on four moves in a row, past a quarter of the board) and Black
/// plays on.
#[test]
fn black_never_resigns_on_a_win_rate_its_handicap_shift_pins_low() {
    let rules = Rules::chinese().with_komi(0.5).unwrap();
    let mut game = Game::new(tengen_board::BoardSize::new(9).unwrap(), rules);
    game.place_fixed_handicap(2).unwrap();
    // White's moves, and both sides' up to move 22 (a quarter of 81 is 20).
    let mut other = Engine::new(Config {
        resign_threshold: 0.0,
        dynamic_komi: 0.0,
        ..config(200)
    });
    let play = |engine: &mut Engine, game: &mut Game| {
        let c = game.to_move();
        let Decision::Play(mv) = genmove(engine, game, c, engine_playouts(c)) else {
            panic!("{c:?} resigned at move {}", game.move_count());
        };
        game.play(c, mv).unwrap();
    };
    while game.move_count() < 22 {
        play(&mut other, &mut game);
    }
    // 150 points a stone: Black, searched for a win by more than the board's 81
    // points (105 to 152 over these moves), sees none.
    let mut black = Engine::new(Config {
        dynamic_komi: 150.0,
        ..config(400)
    });
    for _ in 0..4 {
        if game.to_move() == Color::White {
            play(&mut other, &mut game);
        }
        play(&mut black, &mut game);
        let analysis = black.last_analysis().unwrap();
        assert!(analysis.visits >= 100);
        assert!(
            analysis.winrate < 0.1,
            "Black's shifted win rate {}",
            analysis.winrate
        );
    }
}

/// The playouts of the moves in [`black_never_resigns_on_a_win_rate_its_handicap_shift_pins_low`].
fn engine_playouts(c: Color) -> u64 {
    if c == Color::Black { 400 } else { 200 }
}

/// The first move on the empty 19×19 board, with the shipped network at its default
/// weights, for a few seeds: always a move the network rates at least
/// `SearchParams::net_floor` (10⁻³). Without the floor this search chose O4 for seed
/// 2, which the network rates 4·10⁻⁵.
#[test]
fn the_empty_board_opens_on_a_move_the_network_rates() {
    use tengen_knowledge::NetScratch;
    use tengen_knowledge::move_model::features::History;
    let base = Config {
        threads: 1,
        playouts: Some(3000),
        ..Config::default()
    }
    .with_shipped_net();
    // One load of the network, its cache shared by the searches of every seed.
    let loaded = Engine::new(base.clone());
    let net = loaded.policy_net().cloned().expect("the shipped network");
    let game = Game::new(tengen_board::BoardSize::new(19).unwrap(), Rules::chinese());
    let mut scratch = NetScratch::new(net.net());
    let rated = net
        .net()
        .evaluate(
            game.board(),
            Color::Black,
            &History::default(),
            &mut scratch,
        )
        .unwrap();
    let floor = base.search.net_floor as f32;
    assert!(floor > 0.0);
    for seed in 1..=4 {
        let config = Config {
            seed,
            ..base.clone()
        };
        let mut engine = loaded.reconfigured(config);
        let Decision::Play(mv) = genmove(&mut engine, &game, Color::Black, 3000) else {
            panic!("seed {seed}: resigned on the empty board");
        };
        let p = rated.of(mv);
        assert!(
            p >= floor,
            "seed {seed}: {} rated {p}",
            game.size().move_vertex(mv)
        );
    }
}
