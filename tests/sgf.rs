//! SGF records under `tests/data/sgf/`: the good ones are read as expected, replayed on
//! the reference board, written back and read again unchanged; the broken ones
//! (`broken_*.sgf`) are refused with a clear error, and the game loaded before stays as
//! it was; the flawed ones that load anyway (`lenient_*.sgf`) give what each test says.

use std::path::{Path, PathBuf};

use tengen_board::sgf::{GameInfo, SgfError, SgfGame, parse_sgf, parse_sgf_until, write_sgf};
use tengen_board::{Color, Game, KoRule, Move, Scoring};

use crate::support::{RefBoard, RefGame, RefRules, grid_of, index_of};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sgf")
}

/// A file's text, read as a GTP front end would: bytes, invalid UTF-8 replaced.
fn read(name: &str) -> String {
    let bytes = std::fs::read(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    String::from_utf8_lossy(&bytes).into_owned()
}

fn files(broken: bool) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sgf") && !n.starts_with("lenient_"))
        .filter(|n| n.starts_with("broken_") == broken)
        .collect();
    v.sort();
    v
}

/// A good record: read without a warning.
fn load(name: &str) -> SgfGame {
    let record = parse_sgf(&read(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(record.warnings.is_empty(), "{name}: {:?}", record.warnings);
    record
}

/// The moves as `B D4`, `W pass`.
fn spelled(game: &Game) -> Vec<String> {
    let size = game.size();
    game.moves()
        .map(|(c, m)| format!("{} {}", c.letter(), size.move_vertex(m)))
        .collect()
}

/// Replays a game's moves on the reference board from the game's start position and
/// checks the stones after every move.
fn replay_on_reference(name: &str, game: &Game) {
    let size = game.size();
    let n = size.get();
    let mut start = RefBoard::new(n);
    start.grid = grid_of(game.start_board());
    let mut reference = RefGame::new(start, RefRules::of(game.rules()), game.start_to_move());
    let mut replay = Game::new(size, *game.rules());
    for &(c, p) in game.setup_stones() {
        replay.add_setup_stone(c, p).unwrap();
    }
    replay.set_to_move(game.start_to_move());
    for (k, (c, m)) in game.moves().enumerate() {
        let mv = match m {
            Move::Play(p) => Some(index_of(size, p)),
            Move::Pass => None,
        };
        let out = reference
            .play(c, mv)
            .unwrap_or_else(|e| panic!("{name}: the reference refuses move {}: {e:?}", k + 1));
        let info = replay.play(c, m).unwrap();
        assert_eq!(
            u32::from(info.captured),
            out.captured,
            "{name} move {}",
            k + 1
        );
        assert_eq!(
            grid_of(replay.board()),
            reference.board.grid,
            "{name} after move {}",
            k + 1
        );
    }
    assert_eq!(
        grid_of(game.board()),
        reference.board.grid,
        "{name}: final position"
    );
    let p = game.board().prisoners();
    assert_eq!(
        [p.black, p.white],
        reference.board.prisoners,
        "{name}: prisoners"
    );
}

#[test]
fn the_handicap_game_reads_as_recorded() {
    let SgfGame { game, info, .. } = load("handicap19.sgf");
    assert_eq!(game.size().get(), 19);
    assert_eq!(game.handicap(), 2);
    assert_eq!(game.rules().komi(), 0.5);
    assert_eq!(game.rules().scoring, Scoring::Area);
    assert_eq!(game.start_to_move(), Color::White);
    assert_eq!(game.move_count(), 74);
    let moves = spelled(&game);
    assert_eq!(moves[0], "W R4");
    assert_eq!(moves[27], "B K9");
    assert_eq!(moves[73], "B R5");
    let p = game.board().prisoners();
    assert_eq!((p.black, p.white), (2, 2), "K9 takes one, S1 two, E3 one");
    assert_eq!(info.black.as_deref(), Some("Kuroi Taro"));
    assert_eq!(info.white.as_deref(), Some("Shiroi Hanako"));
    assert_eq!(info.result.as_deref(), Some("B+Resign"));
    assert_eq!(info.date.as_deref(), Some("2024-03-17"));
    assert_eq!(info.event.as_deref(), Some("Club league, round 3"));
    assert_eq!(info.time_limit, Some(1800.0));
    let numbers: Vec<usize> = info.comments.iter().map(|(k, _)| *k).collect();
    assert_eq!(numbers, [0, 1, 28, 71, 74]);
    assert_eq!(info.comments[0].1, "Two stones; White to play");
}

#[test]
fn an_ff3_record_with_a_ko_fight_and_tt_passes() {
    let SgfGame { game, info, .. } = load("ko9_ff3.sgf");
    assert_eq!(game.size().get(), 9);
    assert_eq!(game.rules().komi(), 5.5);
    assert_eq!(game.move_count(), 44);
    assert!(game.is_over(), "two passes end it");
    let moves = spelled(&game);
    assert_eq!(&moves[8..12], ["B F4", "W C4", "B C3", "W E4"]);
    assert_eq!(&moves[42..], ["B pass", "W pass"]);
    assert_eq!(info.black.as_deref(), Some("Alice"));
    assert_eq!(info.date.as_deref(), Some("1999-12-31"));
    assert_eq!(info.result.as_deref(), Some("W+2.5"));
}

#[test]
fn setup_stones_and_japanese_rules() {
    let SgfGame { game, info, .. } = load("setup13.sgf");
    assert_eq!(game.size().get(), 13);
    assert_eq!(game.rules().scoring, Scoring::Territory);
    assert_eq!(game.rules().komi(), 6.5, "no KM: the rules' own komi");
    assert_eq!(game.rules().ko, KoRule::Positional);
    assert_eq!(game.handicap(), 0);
    let start = game.start_board();
    assert_eq!(start.stones(Color::Black).count(), 8);
    assert_eq!(start.stones(Color::White).count(), 7);
    assert_eq!(game.board().prisoners().black, 8);
    assert_eq!(info.comments[1], (7, "All eight captured".to_string()));
}

#[test]
fn only_the_main_line_is_read() {
    let SgfGame { game, info, .. } = load("variations9.sgf");
    assert_eq!(
        spelled(&game),
        ["B E5", "W G7", "B C3", "W G3", "B pass", "W G4"]
    );
    assert_eq!(
        info.comments[1],
        (3, "Main line: 3 ] 4 \\ done".to_string())
    );
    assert_eq!(info.comments.len(), 3);
}

#[test]
fn every_good_record_replays_on_the_reference_board() {
    let names = files(false);
    assert!(names.len() >= 4, "{names:?}");
    for name in names {
        let record = load(&name);
        replay_on_reference(&name, &record.game);
    }
}

#[test]
fn every_good_record_survives_a_round_trip() {
    for name in files(false) {
        let SgfGame { game, info, .. } = load(&name);
        let written = write_sgf(&game, &info);
        let again =
            parse_sgf(&written).unwrap_or_else(|e| panic!("{name} written: {e}\n{written}"));
        assert!(again.game.moves().eq(game.moves()), "{name}: moves");
        assert_eq!(
            again.game.start_board(),
            game.start_board(),
            "{name}: setup"
        );
        assert_eq!(again.game.board(), game.board(), "{name}: position");
        assert_eq!(again.game.rules(), game.rules(), "{name}: rules and komi");
        assert_eq!(again.game.handicap(), game.handicap(), "{name}: handicap");
        assert_eq!(again.game.start_to_move(), game.start_to_move(), "{name}");
        assert_eq!(again.info, info, "{name}: game info and comments");
        assert_eq!(
            write_sgf(&again.game, &again.info),
            written,
            "{name}: not a fixpoint"
        );
    }
}

#[test]
fn loading_up_to_a_move_gives_the_position_before_it() {
    for name in files(false) {
        let text = read(&name);
        let full = load(&name).game;
        let all: Vec<(Color, Move)> = full.moves().collect();
        for n in 1..=all.len() + 1 {
            let part = parse_sgf_until(&text, n).unwrap_or_else(|e| panic!("{name} {n}: {e}"));
            let got: Vec<(Color, Move)> = part.game.moves().collect();
            assert_eq!(got, all[..n - 1], "{name} until {n}");
            let mut replay = full.clone();
            while replay.move_count() > n - 1 {
                replay.undo();
            }
            assert_eq!(part.game.board(), replay.board(), "{name} until {n}");
            if let Some(&(c, _)) = all.get(n - 1) {
                // The side to move is the one that plays move n (these records alternate).
                assert_eq!(part.game.to_move(), c, "{name} until {n}");
            }
        }
    }
}

/// The flawed records that load anyway.
fn lenient_files() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("lenient_") && n.ends_with(".sgf"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_lenient_record_loads_and_writes_back_to_its_position() {
    let names = lenient_files();
    assert!(!names.is_empty());
    for name in names {
        let text = read(&name);
        let r = parse_sgf(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        r.game.board().check_invariants().unwrap();
        let written = write_sgf(&r.game, &r.info);
        let again = parse_sgf(&written).unwrap_or_else(|e| panic!("{name} written: {e}"));
        assert!(again.warnings.is_empty(), "{name}: {:?}", again.warnings);
        assert_eq!(
            grid_of(again.game.board()),
            grid_of(r.game.board()),
            "{name}"
        );
        assert_eq!(again.game.to_move(), r.game.to_move(), "{name}");
        assert_eq!(again.game.rules(), r.game.rules(), "{name}");
        for n in 1..=r.game.move_count() + 2 {
            let part = parse_sgf_until(&text, n).unwrap_or_else(|e| panic!("{name} {n}: {e}"));
            part.game.board().check_invariants().unwrap();
        }
    }
}

#[test]
fn a_move_on_an_occupied_point_is_skipped_with_a_warning() {
    let text = read("lenient_occupied.sgf");
    let r = parse_sgf(&text).unwrap();
    assert_eq!(spelled(&r.game), ["B E5", "W C7", "B G3", "W D6", "B C6"]);
    assert_eq!(r.warnings, ["move 4 (W E5) skipped: point is occupied"]);
    // `until` counts the record's moves, the skipped one included.
    let part = parse_sgf_until(&text, 5).unwrap();
    assert_eq!(spelled(&part.game), ["B E5", "W C7", "B G3"]);
    assert_eq!(part.warnings.len(), 1);
    assert!(parse_sgf_until(&text, 4).unwrap().warnings.is_empty());
}

#[test]
fn a_repetition_the_records_rules_allow_replays_and_later_moves_obey_superko() {
    let r = parse_sgf(&read("lenient_triple_ko_japanese.sgf")).unwrap();
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let mut game = r.game;
    assert_eq!(game.rules().scoring, Scoring::Territory);
    assert_eq!(game.move_count(), 7);
    let size = game.size();
    let mv = |v: &str| size.parse_move(v).unwrap();
    // After move 6 (the start again), Black's E11 (move 1 again) would recreate the
    // position after move 1.
    game.undo();
    assert_eq!(
        game.check(Color::Black, mv("E11")),
        Err(tengen_board::IllegalMove::Superko),
        "superko governs the moves after the load"
    );
    // Move 6 repeated the start: undone, the start is still remembered once.
    game.undo();
    assert_eq!(
        game.check(Color::White, mv("D3")),
        Err(tengen_board::IllegalMove::Superko)
    );
    assert!(game.is_legal(Color::White, Move::Pass));
    // The ko recapture of a record is replayed as played too.
    let ko = parse_sgf(&read("lenient_ko_recapture.sgf")).unwrap();
    assert_eq!(ko.game.move_count(), 10);
}

#[test]
fn setup_in_the_middle_of_a_game_is_applied_where_it_stands() {
    let text = read("lenient_setup_mid_game.sgf");
    let r = parse_sgf(&text).unwrap();
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let mut game = r.game;
    let size = game.size();
    let at = |g: &Game, v: &str| g.board().color_at(size.parse_point(v).unwrap());
    // The setup is the new start: the moves after it are the game's moves.
    assert_eq!(spelled(&game), ["W H2", "B B8"]);
    assert_eq!(game.start_to_move(), Color::White);
    let start = game.start_board().clone();
    assert_eq!(at(&game, "G3"), None, "AE");
    assert_eq!(at(&game, "C7"), None, "AE");
    assert_eq!(at(&game, "D6"), Some(Color::Black), "AB over a white stone");
    assert_eq!(at(&game, "F4"), Some(Color::Black));
    assert_eq!(at(&game, "H7"), Some(Color::White));
    assert_eq!(at(&game, "C3"), Some(Color::Black), "the moves before stay");
    assert_eq!(game.board().prisoners().black, 1, "and so do the prisoners");
    game.board().check_invariants().unwrap();
    // Comments before the setup go to the new start.
    let numbers: Vec<usize> = r.info.comments.iter().map(|(k, _)| *k).collect();
    assert_eq!(numbers, [0, 0, 0, 2]);
    // Undo stops at the setup.
    assert!(game.undo().is_some() && game.undo().is_some());
    assert_eq!(game.undo(), None);
    assert_eq!(game.board(), &start);
    // Up to a move: the setup stands before move 9 (its first move), not before 8.
    let before9 = parse_sgf_until(&text, 9).unwrap().game;
    assert_eq!(grid_of(before9.board()), grid_of(&start));
    assert_eq!((before9.move_count(), before9.to_move()), (0, Color::White));
    let before8 = parse_sgf_until(&text, 8).unwrap().game;
    assert_eq!(before8.move_count(), 7);
    assert_eq!(at(&before8, "G3"), Some(Color::White));
    // A setup that leaves a group without liberties is refused with where it stands.
    let e = parse_sgf("(;SZ[9];B[ab];W[cc];AB[ba]AW[aa];W[dd])").unwrap_err();
    assert!(matches!(e, SgfError::BadProperty(_)), "{e}");
    assert!(e.to_string().contains("after move 2"), "{e}");
}

/// What each broken file must give: the kind of error and words of its message.
fn expected_error(name: &str) -> (fn(&SgfError) -> bool, &'static str) {
    match name {
        "broken_truncated.sgf" => (|e| matches!(e, SgfError::Parse(_)), "syntax"),
        "broken_unbalanced.sgf" => (|e| matches!(e, SgfError::Parse(_)), "syntax"),
        "broken_garbage.sgf" => (|e| matches!(e, SgfError::Parse(_)), "syntax"),
        "broken_off_board.sgf" => (
            |e| matches!(e, SgfError::IllegalMove { number: 2, .. }),
            "off the 9x9 board",
        ),
        "broken_nesting.sgf" => (|e| matches!(e, SgfError::Unsupported(_)), "nested"),
        "broken_size.sgf" => (|e| matches!(e, SgfError::Unsupported(_)), "board size 37"),
        "broken_rectangular.sgf" => (|e| matches!(e, SgfError::Unsupported(_)), "rectangular"),
        "broken_not_go.sgf" => (|e| matches!(e, SgfError::Unsupported(_)), "not a Go record"),
        "broken_setup_without_liberty.sgf" => (
            |e| matches!(e, SgfError::BadProperty(_)),
            "without liberties",
        ),
        other => panic!("{other}: add its expected error here"),
    }
}

/// What GTP's `loadsgf FILE [N]` does with a record: the game in play is replaced only
/// when the record is good.
fn loadsgf(current: &mut Game, text: &str, until: usize) -> Result<(), SgfError> {
    let record = if until == usize::MAX {
        parse_sgf(text)?
    } else {
        parse_sgf_until(text, until)?
    };
    *current = record.game;
    Ok(())
}

#[test]
fn broken_records_are_refused_clearly_and_the_loaded_game_stays() {
    let SgfGame {
        game: mut current,
        info,
        ..
    } = load("handicap19.sgf");
    let before = write_sgf(&current, &info);
    let board = current.board().clone();
    let names = files(true);
    assert!(names.len() >= 8, "{names:?}");
    for name in names {
        let (kind, words) = expected_error(&name);
        for n in [usize::MAX, 1_000] {
            let text = read(&name);
            match loadsgf(&mut current, &text, n) {
                Ok(()) => panic!("{name} was read"),
                Err(e) => {
                    assert!(kind(&e), "{name}: {e:?}");
                    let message = e.to_string();
                    assert!(
                        message.contains(words),
                        "{name}: {message:?} lacks {words:?}"
                    );
                    // One line, fit for `? cannot load file: …`.
                    assert!(!message.contains('\n'), "{name}: {message:?}");
                }
            }
        }
    }
    assert_eq!(current.board(), &board);
    assert_eq!(write_sgf(&current, &info), before);
    // and a good record does replace it
    loadsgf(&mut current, &read("ko9_ff3.sgf"), usize::MAX).unwrap();
    assert_eq!(current.size().get(), 9);
}

#[test]
fn a_written_game_from_play_reads_back() {
    // A game built by play (captures, a pass, Japanese rules), not read from a file.
    let size = tengen_board::BoardSize::new(5).unwrap();
    let mut game = Game::new(size, "japanese".parse().unwrap());
    let moves = [
        "C3", "B3", "C2", "B2", "C4", "pass", "B4", "A3", "A4", "B1", "C1", "D5", "A2", "E5", "A1",
    ];
    for v in moves {
        let c = game.to_move();
        game.play(c, size.parse_move(v).unwrap())
            .unwrap_or_else(|e| panic!("{v}: {e}"));
    }
    let info = GameInfo {
        result: Some("B+R".into()),
        comments: vec![(15, "four taken".into())],
        ..GameInfo::default()
    };
    let text = write_sgf(&game, &info);
    assert!(
        text.contains("RU[Japanese]") && text.contains("KM[6.5]"),
        "{text}"
    );
    let back = parse_sgf(&text).unwrap();
    assert!(back.game.moves().eq(game.moves()));
    assert_eq!(back.game.board(), game.board());
    assert_eq!(back.info, info);
    assert_eq!(back.game.board().prisoners().black, 4);
    replay_on_reference("played", &back.game);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Any game built by play (either colour, passes, captures, any size and rule
    /// set, handicap or not) with any comments and names survives write then read.
    #[test]
    fn any_played_game_round_trips(
        n in 2u32..=25,
        rules_k in 0usize..4,
        handicap in proptest::prelude::any::<bool>(),
        attempts in proptest::collection::vec((0usize..625, proptest::prelude::any::<bool>(), 0u8..10), 0..200),
        comments in proptest::collection::vec((0usize..250, "\\PC{0,20}"), 0..5),
        black in proptest::option::of("\\PC{0,12}"),
    ) {
        let size = tengen_board::BoardSize::new(n).unwrap();
        let mut rules = ["chinese", "japanese", "tromp-taylor", "nz"][rules_k]
            .parse::<tengen_board::Rules>()
            .unwrap();
        rules.set_komi(f64::from(n) / 2.0 - 3.5).unwrap();
        let mut game = Game::new(size, rules);
        if handicap && n >= 7 {
            game.place_fixed_handicap(2).unwrap();
        }
        let points: Vec<tengen_board::Point> = size.points().collect();
        for (i, white, pass) in attempts {
            let c = if white { Color::White } else { Color::Black };
            let m = if pass == 0 { Move::Pass } else { Move::Play(points[i % points.len()]) };
            let _ = game.play(c, m);
        }
        let info = GameInfo {
            black: black.map(|s| s.replace(['\n', '\r'], " ")),
            comments: {
                let mut v: Vec<(usize, String)> = comments
                    .into_iter()
                    .map(|(k, t)| (k.min(game.move_count()), t))
                    .collect();
                v.sort_by_key(|(k, _)| *k);
                v
            },
            ..GameInfo::default()
        };
        let text = write_sgf(&game, &info);
        let back = parse_sgf(&text).map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{e}\n{text}")))?;
        proptest::prop_assert!(back.game.moves().eq(game.moves()));
        proptest::prop_assert!(back.game.board() == game.board());
        proptest::prop_assert!(back.game.start_board() == game.start_board());
        proptest::prop_assert_eq!(back.game.rules(), game.rules());
        proptest::prop_assert_eq!(back.game.handicap(), game.handicap());
        proptest::prop_assert_eq!(back.info.black, info.black);
        // Comments on one node come back joined.
        let joined = |v: &[(usize, String)]| {
            let mut out: Vec<(usize, String)> = Vec::new();
            for (k, t) in v {
                match out.last_mut() {
                    Some((j, s)) if j == k => {
                        s.push_str("\n\n");
                        s.push_str(t);
                    }
                    _ => out.push((*k, t.clone())),
                }
            }
            out
        };
        proptest::prop_assert_eq!(back.info.comments, joined(&info.comments));
    }
}
