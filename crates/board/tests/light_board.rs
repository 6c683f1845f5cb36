//! Differential tests of `LightBoard` against the exact `Board`: the same moves give
//! the same positions, the same legality, eyes, captures, ko and empty-point order, so
//! the same random draws give the same light playout and the same score.

use tengen_board::{
    Board, BoardSize, Color, LightBoard, LightBoard9, LightBoard13, LightBoard19, LightBoardAny,
    Move, Point,
};

/// A small deterministic generator (the board crate has no `rand`).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, k: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % k
    }
}

/// Everything a light playout reads, compared point by point.
fn assert_same<const CAP: usize, const STRIDE: usize>(
    exact: &Board,
    light: &LightBoard<CAP, STRIDE>,
    what: &str,
) {
    let size = exact.size();
    for c in Color::ALL {
        assert_eq!(exact.stones(c), light.stones(c), "{what}: {c} stones");
    }
    assert_eq!(exact.ko(), light.ko(), "{what}: ko");
    let order: Vec<Point> = light.empty_points().collect();
    assert_eq!(exact.empty_points(), &order[..], "{what}: empty order");
    for p in size.points() {
        assert_eq!(exact.color_at(p), light.color_at(p), "{what}: {p:?}");
        if exact.is_empty_point(p) {
            for c in Color::ALL {
                assert_eq!(
                    exact.check(c, p).is_ok(),
                    light.is_legal(c, p),
                    "{what}: legality of {c} at {p:?}\n{exact:?}"
                );
                assert_eq!(exact.is_eye(c, p), light.is_eye(c, p), "{what}: eye");
            }
        }
    }
}

/// Plays a light game on both boards with the same draws, comparing every move.
/// Returns the number of moves.
fn light_game_on_both<const CAP: usize, const STRIDE: usize>(
    exact: &mut Board,
    light: &mut LightBoard<CAP, STRIDE>,
    seed: u64,
    what: &str,
) -> u32 {
    let limit = 3 * exact.size().area() as u32;
    let (mut a, mut b) = (Lcg(seed), Lcg(seed));
    let mut c = Color::Black;
    let (mut passes, mut moves) = (0, 0);
    while passes < 2 && moves < limit {
        let pe = exact.pick_empty(
            |k| a.below(k),
            |bd, p| !bd.is_eye(c, p) && bd.check(c, p).is_ok(),
        );
        let pl = light.pick_empty(
            |k| b.below(k),
            |bd, p| !bd.is_eye(c, p) && bd.is_legal(c, p),
        );
        assert_eq!(pe, pl, "{what}: move {moves}");
        match pe {
            Some(p) => {
                let info = exact.play_unchecked(c, Move::Play(p));
                let captured = light.play(c, p);
                assert_eq!(info.captured, captured, "{what}: captures at move {moves}");
                passes = 0;
            }
            None => {
                exact.play_unchecked(c, Move::Pass);
                light.pass();
                passes += 1;
            }
        }
        if moves % 16 == 0 {
            assert_same(exact, light, what);
        }
        moves += 1;
        c = c.opponent();
    }
    assert_same(exact, light, what);
    light
        .check_invariants()
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    moves
}

/// `light_game_on_both` from the empty board of `light`'s size.
fn same_game<const CAP: usize, const STRIDE: usize>(
    light: &mut LightBoard<CAP, STRIDE>,
    seed: u64,
    what: &str,
) {
    let mut exact = Board::new(light.size());
    light_game_on_both(&mut exact, light, seed, what);
}

#[test]
fn boards_compiled_for_one_size_refuse_the_others() {
    for n in 2..=25u32 {
        let size = BoardSize::new(n).unwrap();
        assert_eq!(LightBoard9::new(size).is_ok(), n == 9);
        assert_eq!(LightBoard13::new(size).is_ok(), n == 13);
        assert_eq!(LightBoard19::new(size).is_ok(), n == 19);
        assert!(LightBoardAny::new(size).is_ok());
    }
    // A refused load changes nothing.
    let mut nine = LightBoard9::new(BoardSize::new(9).unwrap()).unwrap();
    assert!(nine.load(&Board::new(BoardSize::new(19).unwrap())).is_err());
    assert_eq!(nine.size().get(), 9);
    nine.check_invariants().unwrap();
}

#[test]
fn light_playouts_match_the_exact_board_on_every_size() {
    for n in 2..=25u32 {
        let size = BoardSize::new(n).unwrap();
        let games = if n <= 9 { 60 } else { 8 };
        for g in 0..games {
            let seed = u64::from(n) * 1000 + g;
            let what = format!("{n}x{n} game {g}");
            let mut light = LightBoardAny::new(size).unwrap();
            light_game_on_both(&mut Board::new(size), &mut light, seed, &what);
            // The boards compiled for one size play the same games.
            match n {
                9 => same_game(&mut LightBoard9::new(size).unwrap(), seed, &what),
                13 => same_game(&mut LightBoard13::new(size).unwrap(), seed, &what),
                19 => same_game(&mut LightBoard19::new(size).unwrap(), seed, &what),
                _ => {}
            }
        }
    }
}

#[test]
fn a_light_board_loaded_mid_game_plays_on_like_the_exact_one() {
    // Mid-game positions with captures, ko and odd list orders, reached by the exact
    // board's own moves (eye-filling and all), then loaded and played on.
    for n in [5u32, 9, 13, 19] {
        let size = BoardSize::new(n).unwrap();
        for g in 0..10u64 {
            let mut rng = Lcg(g * 77 + u64::from(n));
            let mut exact = Board::new(size);
            let mut c = Color::Black;
            for _ in 0..rng.below(size.area() * 2) {
                let legal: Vec<Point> = size
                    .points()
                    .filter(|&p| exact.check(c, p).is_ok())
                    .collect();
                if !legal.is_empty() {
                    exact.play_unchecked(c, Move::Play(legal[rng.below(legal.len())]));
                }
                c = c.opponent();
            }
            let light = LightBoardAny::from_board(&exact).unwrap();
            light.check_invariants().unwrap();
            assert_same(&exact, &light, "loaded");
            // A copy into a board last used at another size is the same position.
            let mut copy = LightBoardAny::new(BoardSize::new(25).unwrap()).unwrap();
            copy.copy_from(&light);
            copy.check_invariants().unwrap();
            assert_same(&exact, &copy, "copied");
            if n == 19 {
                let mut fixed = LightBoard19::from_board(&exact).unwrap();
                light_game_on_both(&mut exact.clone(), &mut fixed, g, "19x19 loaded, fixed");
            }
            light_game_on_both(&mut exact, &mut copy, g, &format!("{n}x{n} loaded {g}"));
        }
    }
}

#[test]
fn random_games_with_eye_fills_keep_legality_exact() {
    // Uniform over all legal moves (own eyes included, so big groups die and
    // single-liberty multi-stone groups are common): legality must stay exact.
    for n in [3u32, 4, 7, 9, 19] {
        let size = BoardSize::new(n).unwrap();
        for g in 0..6u64 {
            let mut rng = Lcg(g + 1000 * u64::from(n));
            let mut exact = Board::new(size);
            let mut light = LightBoardAny::new(size).unwrap();
            let mut c = Color::Black;
            for m in 0..size.area() * 3 {
                let legal: Vec<Point> = size
                    .points()
                    .filter(|&p| exact.check(c, p).is_ok())
                    .collect();
                if legal.is_empty() || rng.below(40) == 0 {
                    exact.play_unchecked(c, Move::Pass);
                    light.pass();
                } else {
                    let p = legal[rng.below(legal.len())];
                    let info = exact.play_unchecked(c, Move::Play(p));
                    assert_eq!(info.captured, light.play(c, p));
                }
                assert_same(&exact, &light, &format!("{n}x{n} game {g} move {m}"));
                c = c.opponent();
            }
            light.check_invariants().unwrap();
        }
    }
}
