//! Seeded random games on every size from 2×2 to 25×25, `tengen_board` against the
//! reference board of `support`, compared after every move: every stone, captures and
//! prisoners, the legality (and the reason) of every point for both colours under the
//! game's rules (superko included), the incremental hash against one recomputed from
//! the stones, `Board::check_invariants`, and the hash `Board::hash_after` predicted.
//! Now and then a few moves are undone and the earlier state must come back exactly.

use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tengen_board::{Board, BoardSize, Color, Game, Hash, KoRule, Move, Rules, stone_key};

use crate::support::{RefGame, RefRules, grid_of, index_of, point_of, tengen_error_name};

/// The rule sets games are played under, in turn.
fn rule_set(k: usize) -> Rules {
    let mut r = Rules::chinese();
    match k % 5 {
        0 => {}
        1 => r.ko = KoRule::Situational,
        2 => r.ko = KoRule::Simple,
        3 => r = Rules::tromp_taylor(),
        _ => {
            r.ko = KoRule::Simple;
            r.suicide = true;
        }
    }
    r
}

/// The hash recomputed from the stones alone.
fn hash_from_scratch(board: &Board) -> Hash {
    let mut h = Hash::default();
    for p in board.size().points() {
        if let Some(c) = board.color_at(p) {
            h ^= stone_key(c, p);
        }
    }
    h
}

/// The state a move is played from, kept so that undo can be checked against it.
struct Snapshot {
    board: Board,
    to_move: Color,
    /// Game's verdict on every point, for Black and for White.
    verdicts: [Vec<Result<(), &'static str>>; 2],
}

/// Game's verdict on every point for one colour.
fn verdicts(game: &Game, c: Color) -> Vec<Result<(), &'static str>> {
    game.size()
        .points()
        .map(|p| game.check(c, Move::Play(p)).map_err(tengen_error_name))
        .collect()
}

/// Compares everything that can be compared between the two after a move or undo.
fn compare(game: &Game, reference: &RefGame, what: &str) -> Result<(), String> {
    let board = game.board();
    if grid_of(board) != reference.board.grid {
        return Err(format!(
            "{what}: stones differ\nGame:\n{board:?}\nreference:\n{}",
            reference.board.diagram()
        ));
    }
    let prisoners = board.prisoners();
    if [prisoners.black, prisoners.white] != reference.board.prisoners {
        return Err(format!(
            "{what}: prisoners {prisoners:?} vs {:?}",
            reference.board.prisoners
        ));
    }
    if board.hash() != hash_from_scratch(board) {
        return Err(format!(
            "{what}: incremental hash differs from the recomputed one"
        ));
    }
    board
        .check_invariants()
        .map_err(|e| format!("{what}: {e}\n{board:?}"))?;
    if game.to_move() != reference.to_move {
        return Err(format!(
            "{what}: to move {} vs {}",
            game.to_move(),
            reference.to_move
        ));
    }
    let size = game.size();
    let ko = board.ko().map(|(p, c)| (index_of(size, p), c));
    if ko != reference.board.ko {
        return Err(format!("{what}: ko {ko:?} vs {:?}", reference.board.ko));
    }
    Ok(())
}

/// Plays seeded random games on an `n`×`n` board until `budget` moves have been
/// played; returns the number of moves played (undone ones included).
fn random_games(n: usize, budget: usize, seed: u64) -> usize {
    let size = BoardSize::new(n as u32).unwrap();
    let mut rng = SmallRng::seed_from_u64(seed ^ (n as u64) << 32);
    let mut played = 0;
    let mut game_no = 0;
    let points: Vec<usize> = (0..n * n).collect();
    while played < budget {
        let rules = rule_set(game_no);
        let what_game = format!("{n}x{n} game {game_no} ({rules:?})");
        game_no += 1;
        let mut game = Game::new(size, rules);
        let mut reference = RefGame::empty(n, RefRules::of(&rules));
        let mut snapshots: Vec<Snapshot> = Vec::new();
        let mut passes = 0;
        let limit = 3 * n * n + 20;
        while passes < 2 && snapshots.len() < limit && played < budget {
            let c = game.to_move();
            // Every point, both colours: same verdict, same reason.
            let mut verdict = [Vec::new(), Vec::new()];
            for colour in Color::ALL {
                for &i in &points {
                    let p = point_of(size, i);
                    let by_game = game.check(colour, Move::Play(p)).map_err(tengen_error_name);
                    let by_ref = reference
                        .after(colour, Some(i))
                        .map(|_| ())
                        .map_err(|e| e.name());
                    assert_eq!(
                        by_game,
                        by_ref,
                        "{what_game}, move {}: {colour} {} judged differently\n{:?}",
                        snapshots.len() + 1,
                        size.vertex(p),
                        game.board()
                    );
                    if rules.ko == KoRule::Simple && !rules.suicide {
                        // Then the rules are the board's own.
                        assert_eq!(game.board().check(colour, p).is_ok(), by_game.is_ok());
                    }
                    verdict[colour.index()].push(by_game);
                }
            }
            // Sometimes take back a few moves and expect the exact earlier state.
            if !snapshots.is_empty() && rng.random_ratio(1, 40) {
                let k = rng.random_range(1..=snapshots.len().min(6));
                for _ in 0..k {
                    assert!(game.undo().is_some());
                    assert!(reference.undo());
                }
                let snap = snapshots.split_off(snapshots.len() - k).swap_remove(0);
                let what = format!("{what_game}, after undoing {k} to move {}", snapshots.len());
                compare(&game, &reference, &what).unwrap_or_else(|e| panic!("{e}"));
                assert!(game.board() == &snap.board, "{what}: board differs");
                assert_eq!(game.board().hash(), snap.board.hash(), "{what}: hash");
                assert_eq!(game.to_move(), snap.to_move, "{what}: to move");
                for colour in Color::ALL {
                    assert_eq!(
                        verdicts(&game, colour),
                        snap.verdicts[colour.index()],
                        "{what}: legality for {colour} differs"
                    );
                }
                assert_eq!(game.move_count(), snapshots.len());
                passes = 0;
                continue;
            }
            let legal: Vec<usize> = points
                .iter()
                .copied()
                .filter(|&i| verdict[c.index()][i].is_ok())
                .collect();
            let mv = if legal.is_empty() || rng.random_ratio(1, 25) {
                None
            } else {
                Some(legal[rng.random_range(0..legal.len())])
            };
            let m = mv.map_or(Move::Pass, |i| Move::Play(point_of(size, i)));
            snapshots.push(Snapshot {
                board: game.board().clone(),
                to_move: c,
                verdicts: verdict,
            });
            let predicted = game.board().hash_after(c, m);
            let info = game.play(c, m).expect("a legal move");
            let out = reference
                .play(c, mv)
                .expect("the reference agrees it is legal");
            played += 1;
            passes = if mv.is_none() { passes + 1 } else { 0 };
            let what = format!(
                "{what_game}, move {} ({c} {})",
                snapshots.len(),
                size.move_vertex(m)
            );
            assert_eq!(
                (u32::from(info.captured), u32::from(info.suicided)),
                (out.captured, out.suicided),
                "{what}: captures"
            );
            assert_eq!(game.board().hash(), predicted, "{what}: hash_after");
            compare(&game, &reference, &what).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    played
}

/// Moves per size: many on small boards (cheap), fewer on large ones.
fn budget(n: usize) -> usize {
    match n {
        2..=7 => 12_000,
        8..=13 => 6_000,
        14..=19 => 2_000,
        _ => 1_200,
    }
}

fn sizes(range: std::ops::RangeInclusive<usize>) -> usize {
    range.map(|n| random_games(n, budget(n), 0x7E46_E400)).sum()
}

#[test]
fn random_games_on_small_boards() {
    assert!(sizes(2..=7) >= 72_000);
}

#[test]
fn random_games_on_medium_boards() {
    assert!(sizes(8..=13) >= 36_000);
}

#[test]
fn random_games_on_large_boards() {
    assert!(sizes(14..=19) >= 12_000);
}

#[test]
fn random_games_on_the_largest_boards() {
    assert!(sizes(20..=25) >= 7_200);
}

#[test]
fn the_budgets_add_up_to_well_over_100_000_moves() {
    let total: usize = (2..=25).map(budget).sum();
    assert!(total >= 125_000, "{total}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any sequence of attempted moves, legal or not, by either colour in any order:
    /// Game accepts exactly what the reference accepts, the positions stay equal, and
    /// undoing everything gives back the empty board.
    #[test]
    fn arbitrary_attempts_agree_with_the_reference(
        n in 2usize..=7,
        rules_k in 0usize..5,
        attempts in proptest::collection::vec((0usize..49, any::<bool>(), 0u8..12), 1..150),
    ) {
        let size = BoardSize::new(n as u32).unwrap();
        let rules = rule_set(rules_k);
        let mut game = Game::new(size, rules);
        let mut reference = RefGame::empty(n, RefRules::of(&rules));
        for (i, white, pass) in attempts {
            let c = if white { Color::White } else { Color::Black };
            let i = i % (n * n);
            let (m, mv) = if pass == 0 {
                (Move::Pass, None)
            } else {
                (Move::Play(point_of(size, i)), Some(i))
            };
            let by_game = game.play(c, m).map(|info| (u32::from(info.captured), u32::from(info.suicided)));
            let by_ref = reference.play(c, mv).map(|o| (o.captured, o.suicided));
            prop_assert_eq!(by_game.ok(), by_ref.ok());
            prop_assert!(compare(&game, &reference, "attempt").is_ok(), "{:?}", compare(&game, &reference, "attempt"));
        }
        while game.undo().is_some() {}
        prop_assert!(game.board() == &Board::new(size));
        prop_assert_eq!(game.board().hash(), Hash::default());
    }
}
