//! End of game: pass and resign decisions on finished positions, dead stones from
//! ownership on a settled position.

use std::sync::atomic::AtomicBool;

use tengen_board::{Color, Game, Move};
use tengen_engine::{Config, Decision, Engine, Limit, Mode, SearchRequest, Status};

mod common;
use common::game_from;

fn engine() -> Engine {
    Engine::new(Config {
        threads: 1,
        seed: 7,
        ..Config::default()
    })
}

/// Black owns the left (columns A–C plus the wall D), White the right (E–G); the white
/// stone on B4 is dead inside Black's area.
const SETTLED: &str = ". X . X O . .
                       X X X X O . .
                       . . . X O . .
                       . O . X O O O
                       . . . X O . .
                       X X X X O . .
                       . X . X O . .";

/// Asserts that the stones in seki are exactly `points` (space-separated).
fn assert_seki_is(game: &Game, status: &Status, points: &str, context: &str) {
    let s = game.size();
    let points: Vec<_> = points
        .split(' ')
        .map(|v| s.parse_point(v).unwrap())
        .collect();
    for p in &points {
        assert!(
            status.seki.contains(*p),
            "{context}{p:?} is in seki: {:?}",
            status.seki
        );
    }
    assert_eq!(
        status.seki.count() as usize,
        points.len(),
        "{context}only those are in seki: {:?}",
        status.seki
    );
}

/// `color`'s decision in `game` from `e` after `playouts` playouts in `mode`, never
/// stopped early.
fn decide(e: &mut Engine, game: &Game, color: Color, playouts: u64, mode: Mode) -> Decision {
    let stop = AtomicBool::new(false);
    e.genmove(SearchRequest::new(game, color, Limit::Playouts(playouts), &stop).mode(mode))
}

fn genmove_after_pass(game: &mut Game, color: Color) -> Decision {
    game.play(color.opponent(), Move::Pass).unwrap();
    decide(&mut engine(), game, color, 3000, Mode::Normal)
}

/// The diagram of the case `name` in the life fixtures' `tests/data/life/seki.txt`
/// (whose comment tells the position), its rows a line each.
fn seki_fixture(name: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/life/seki.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let case = text
        .split("\ncase ")
        .find(|case| case.lines().next() == Some(name))
        .unwrap_or_else(|| panic!("no case {name:?} in {path}"));
    let is_row = |line: &&str| !line.is_empty() && line.chars().all(|c| "XO.+ ".contains(c));
    let rows: Vec<&str> = case
        .lines()
        .skip_while(|line| !is_row(line))
        .take_while(is_row)
        .collect();
    rows.join("\n")
}

#[test]
fn dead_stones_come_from_ownership() {
    let game = game_from(SETTLED, Color::Black, 0.5);
    let status = engine().final_status(&game);
    let s = game.size();
    let b4 = s.parse_point("B4").unwrap();
    assert!(status.dead.contains(b4), "B4 is dead");
    assert_eq!(status.dead.count(), 1, "only B4 is dead: {:?}", status.dead);
    for v in ["D4", "E4", "G4", "A6"] {
        assert!(
            status.alive.contains(s.parse_point(v).unwrap()),
            "{v} lives"
        );
    }
}

#[test]
fn passes_after_the_opponent_passes_when_the_count_wins() {
    // Black 28 (the dead stone's point included) against White 21 with komi 0.5.
    let mut game = game_from(SETTLED, Color::White, 0.5);
    game.play(Color::White, Move::Pass).unwrap();
    assert_eq!(
        genmove_after_pass(&mut game, Color::Black),
        Decision::Play(Move::Pass)
    );
}

#[test]
fn plays_on_after_the_opponent_passes_when_the_count_loses() {
    // With komi 10.5 Black loses by the count: it must not pass, and it still never
    // fills its own eyes.
    let mut game = game_from(SETTLED, Color::White, 10.5);
    game.play(Color::White, Move::Pass).unwrap();
    match genmove_after_pass(&mut game, Color::Black) {
        Decision::Play(Move::Play(p)) => {
            assert!(!game.board().is_eye(Color::Black, p), "filled its own eye");
        }
        other => panic!("expected a stone, got {other:?}"),
    }
}

#[test]
fn resigns_a_hopeless_game_only_after_several_moves() {
    let decisions = losers_decisions(Color::White, 3, |_, game| {
        game.play(Color::Black, Move::Pass).unwrap();
    });
    resigned_at_last(decisions);
}

/// `loser` has nothing left, to move: a big area of the other colour and no stone of
/// its own that can live, past the opening (a quarter of the board's points in moves,
/// made of passes).
fn lost_for(loser: Color) -> Game {
    let lost = "X X X X X X X
                X . X . X . X
                X X X X X X X
                . . . . . . .
                X X X X X X X
                X . X . X . X
                X X X X X X X";
    let winner = if loser == Color::Black { "O" } else { "X" };
    let mut game = game_from(&lost.replace('X', winner), loser, 0.5);
    for _ in 0..14 {
        let c = game.to_move();
        game.play(c, Move::Pass).unwrap();
    }
    game
}

/// The decisions of `loser`, to move in `lost_for(loser)`, over at most `turns` of its
/// moves, each answered by the winner's `reply`, until it resigns.
fn losers_decisions(
    loser: Color,
    turns: usize,
    mut reply: impl FnMut(&mut Engine, &mut Game),
) -> Vec<Decision> {
    let mut game = lost_for(loser);
    let mut e = engine();
    let mut decisions = Vec::new();
    for _ in 0..turns {
        let d = genmove_and_play(&mut e, &mut game, loser);
        decisions.push(d);
        if d == Decision::Resign {
            break;
        }
        reply(&mut e, &mut game);
    }
    decisions
}

/// Fails the test unless the last of `decisions` (one colour's, in order) resigns and
/// neither of the first two does.
fn resigned_at_last(decisions: Vec<Decision>) {
    assert_eq!(decisions.last(), Some(&Decision::Resign), "{decisions:?}");
    assert!(
        decisions.iter().take(2).all(|d| *d != Decision::Resign),
        "resigned at the first low win rate: {decisions:?}"
    );
}

/// `genmove` for `color` in `game` with a small budget; a move is played.
fn genmove_and_play(e: &mut Engine, game: &mut Game, color: Color) -> Decision {
    let d = decide(e, game, color, 500, Mode::Normal);
    if let Decision::Play(m) = d {
        game.play(color, m).unwrap();
    }
    d
}

#[test]
fn resigns_for_the_losing_colour_when_playing_both() {
    // GoGui's "Computer → Both": one engine is asked for Black's and White's moves in
    // turn. White's winning searches must not reset Black's streak.
    let black = losers_decisions(Color::Black, 4, |e, game| {
        let w = genmove_and_play(e, game, Color::White);
        assert_ne!(w, Decision::Resign, "the winner resigned");
    });
    resigned_at_last(black);
}

#[test]
fn an_undo_starts_the_resign_streak_afresh() {
    // Two low searches for Black, then the GUI takes back moves: the streak does not
    // carry over to the position it returns to, so the next search does not resign.
    let mut game = lost_for(Color::Black);
    let mut e = engine();
    for _ in 0..2 {
        let d = genmove_and_play(&mut e, &mut game, Color::Black);
        assert_ne!(d, Decision::Resign);
        game.play(Color::White, Move::Pass).unwrap();
    }
    game.undo().unwrap();
    game.undo().unwrap();
    let d = genmove_and_play(&mut e, &mut game, Color::Black);
    assert_ne!(d, Decision::Resign, "the streak survived an undo");
    // Searches that follow on from it count again.
    game.play(Color::White, Move::Pass).unwrap();
    let mut later = Vec::new();
    for _ in 0..2 {
        later.push(genmove_and_play(&mut e, &mut game, Color::Black));
        game.play(Color::White, Move::Pass).unwrap();
    }
    assert_eq!(later.last(), Some(&Decision::Resign), "{later:?}");
}

#[test]
fn cleanup_captures_dead_stones_before_passing() {
    // Clean-up play after both passed: the dead white stone on B4 must be taken off
    // by play, so Black does not pass while it is on the board.
    let mut game = game_from(SETTLED, Color::Black, 0.5);
    let mut e = engine();
    let b4 = game.size().parse_point("B4").unwrap();
    for _ in 0..8 {
        if game.board().color_at(b4).is_none() {
            break;
        }
        let d = decide(&mut e, &game, Color::Black, 1500, Mode::Cleanup);
        assert_ne!(
            d,
            Decision::Play(Move::Pass),
            "passed with a dead stone left"
        );
        let Decision::Play(m) = d else {
            panic!("resigned in clean-up")
        };
        game.play(Color::Black, m).unwrap();
        game.play(Color::White, Move::Pass).unwrap();
    }
    assert_eq!(game.board().color_at(b4), None, "B4 was captured");
    // Then, with no dead stone left, clean-up passes.
    let d = decide(&mut e, &game, Color::Black, 1500, Mode::Cleanup);
    assert_eq!(d, Decision::Play(Move::Pass));
}

#[test]
fn dame_between_two_walls_is_not_seki() {
    // Black's wall on C, White's on E, the D column open: its points are dame that
    // playouts fill, not liberties shared in seki.
    let walls = ". . X . O . .
                 . . X . O . .
                 . . X . O . .
                 . . X . O . .
                 . . X . O . .
                 . . X . O . .
                 . . X . O . .";
    let game = game_from(walls, Color::Black, 0.5);
    let status = engine().final_status(&game);
    assert!(status.seki.is_empty(), "seki: {:?}", status.seki);
    assert!(status.dead.is_empty(), "dead: {:?}", status.dead);
}

/// White's A7–D4 group (eye B7) and Black's D7–E4 group (eye E7) share the liberty D5
/// and have no other; the outer groups live.
const ONE_EYE_SEKI: &str = "O . O X . X O
                            O O O X X X O
                            X X O . X O O
                            . X O O X O O
                            X X X X O O O
                            . X . X O . O
                            X X X X O O .";

#[test]
fn one_eye_each_and_a_shared_liberty_is_seki() {
    // White's A7–D4 group (eye B7) and Black's D7–E4 group (eye E7) share the liberty
    // D5 and have no other: whoever fills it is captured, and neither can play in the
    // other's eye. Black's outer group (left and bottom) and White's (right) live.
    let game = game_from(ONE_EYE_SEKI, Color::Black, 0.5);
    let status = engine().final_status(&game);
    assert_seki_is(
        &game,
        &status,
        "A7 C7 A6 B6 C6 C5 C4 D4 D7 F7 D6 E6 F6 E5 E4",
        "",
    );
    assert!(status.dead.is_empty(), "dead: {:?}", status.dead);
    // Area count: Black 17 on the outside and 7 seki stones with their eye; White 15
    // on the outside and 8 seki stones with their eye, plus komi 0.5. The shared
    // liberty D5 counts for nobody.
    let score = game.score(&status.dead, &status.seki);
    assert_eq!((score.black, score.white), (24.0, 24.5));
}

/// The seki above, after Black passes: White wins the count by half a point (24.5 to
/// 24 under area scoring) and must pass rather than play on, though its seki group
/// keeps its shared liberty in only some of the settling playouts.
#[test]
fn passes_in_a_won_seki() {
    let mut game = game_from(ONE_EYE_SEKI, Color::Black, 0.5);
    assert_eq!(
        genmove_after_pass(&mut game, Color::White),
        Decision::Play(Move::Pass)
    );
}

/// From a game lost to GNU Go: White's corner (D5 down to E1) and Black's A1–B1–B2
/// share the liberties C1 and C2, which looks like a seki. It is not: Black C1 throws
/// in a pyramid four, White must capture it, and Black B1 on the vital point leaves
/// White one eye. With nakade allowed in the settling playouts (the default, and
/// the search's playouts allow it too) the corner is dead.
#[test]
fn a_pyramid_four_inside_is_no_seki() {
    let board = seki_fixture("a nakade inside is no seki");
    let game = game_from(&board, Color::Black, 7.5);
    let status = |nakade: bool| {
        let mut config = Config {
            threads: 1,
            seed: 7,
            ..Config::default()
        };
        config.settle_nakade = nakade;
        config.heavy.nakade = nakade;
        Engine::new(config).final_status(&game)
    };
    let s = game.size();
    let corner = ["D5", "B4", "C4", "D4", "A3", "D3", "A2", "D2", "D1", "E1"];
    let with = status(true);
    for v in corner {
        assert!(
            with.dead.contains(s.parse_point(v).unwrap()),
            "{v} is dead: {:?}",
            with.dead
        );
    }
    assert!(with.seki.is_empty(), "seki: {:?}", with.seki);
    // Playouts that refuse every self-atari of two or more stones miss the kill, but
    // the static layer's local search reads it out (the area is closed), so the
    // corner is dead whatever the playouts do.
    let without = status(false);
    assert!(without.dead.contains(s.parse_point("D5").unwrap()));
    let life = tengen_board::StaticLife::of(game.board());
    assert!(
        life.local_dead
            .iter()
            .any(|d| d.stones.contains(s.parse_point("D5").unwrap())),
        "the local search proves the corner dead"
    );
}

/// A seki of one eye each with a small inner group: Black's A2–B2–B1 (eye A1) and
/// White's group (eye A5) share C2. Black C2 would build a pyramid four, a dead
/// shape, but White keeps its eye, takes the four on A1 and lives with two eyes.
/// The settling playouts must not throw in here (`tactics::nakade_kills`): C2 is
/// Black's only move that fills no own eye, so a rule that allowed it would play it
/// in every playout and call Black's corner dead. With komi 13.5 the seki decides
/// the game (Black wins by 4.5 with it, loses by 4.5 without), so the search passes
/// rather than throwing in. With komi 7.5 Black wins either way and the search may
/// pick C2: in a decided game `final_status` judges such a move as a pass.
#[test]
fn a_throw_in_next_to_an_eye_keeps_the_seki() {
    let board = seki_fixture("one eye each, the attack a sacrifice of twelve stones");
    for komi in [13.5, 7.5] {
        let game = game_from(&board, Color::Black, komi);
        let status = engine().final_status(&game);
        assert_seki_is(
            &game,
            &status,
            "A2 B2 B1 A6 B6 B5 A4 B4 A3 B3 C3 D3 D2 D1 C1",
            &format!("komi {komi}: "),
        );
        assert!(
            status.dead.is_empty(),
            "komi {komi}, dead: {:?}",
            status.dead
        );
        // Area count: Black 49 with the corner and its eye, White 18 on the right and
        // 13 in the corner with its eye, plus komi; C2 counts for nobody.
        let score = game.score(&status.dead, &status.seki);
        assert_eq!((score.black, score.white), (49.0, 31.0 + komi));
    }
}
