//! Tests of SGF reading and writing.

use super::*;
use crate::point::{BoardSize, Move};
use crate::rules::{KoRule, Rules, Scoring};

fn mv(size: BoardSize, s: &str) -> Move {
    size.parse_move(s).unwrap()
}

#[test]
fn round_trip_keeps_moves_setup_komi_rules_and_info() {
    let size = BoardSize::new(9).unwrap();
    let mut game = Game::new(size, Rules::japanese().with_komi(5.5).unwrap());
    game.add_setup_stone(Color::Black, size.parse_point("C3").unwrap())
        .unwrap();
    game.add_setup_stone(Color::White, size.parse_point("G7").unwrap())
        .unwrap();
    game.set_to_move(Color::White);
    // White first, then in turn.
    for m in ["E5", "pass", "A9", "J1", "pass", "pass"] {
        game.play(game.to_move(), mv(size, m)).unwrap();
    }
    let info = GameInfo {
        black: Some("Honinbo ]Shusaku[".into()),
        white: Some("back\\slash".into()),
        result: Some("W+2.5".into()),
        date: Some("1846-09-11".into()),
        event: Some("Castle game".into()),
        comments: vec![
            (0, "root".into()),
            (1, "first ] move \\ here".into()),
            (6, "two\nlines".into()),
        ],
        time_limit: Some(1800.0),
    };
    let text = write_sgf(&game, &info);
    assert!(
        text.starts_with("(;FF[4]GM[1]CA[UTF-8]AP[Tengen:"),
        "{text}"
    );
    assert!(
        text.contains("RU[Japanese]") && text.contains("KM[5.5]"),
        "{text}"
    );
    assert!(text.contains("AB[cg]") && text.contains("AW[gc]"), "{text}");
    assert!(
        !text.contains("PL["),
        "the first move says who starts: {text}"
    );
    let back = parse_sgf(&text).unwrap();
    assert!(back.game.moves().eq(game.moves()));
    assert_eq!(back.game.start_board(), game.start_board());
    assert_eq!(back.game.board(), game.board());
    assert_eq!(back.game.rules(), game.rules());
    assert_eq!(back.game.start_to_move(), Color::White);
    assert_eq!(back.info, info);
    assert_eq!(write_sgf(&back.game, &back.info), text);
}

#[test]
fn handicap_and_player_to_move_survive_a_round_trip() {
    let size = BoardSize::new(19).unwrap();
    let mut game = Game::new(size, Rules::chinese().with_komi(0.5).unwrap());
    game.place_fixed_handicap(4).unwrap();
    let text = write_sgf(&game, &GameInfo::default());
    assert!(text.contains("HA[4]") && text.contains("PL[W]"), "{text}");
    let back = parse_sgf(&text).unwrap();
    assert_eq!(back.game.handicap(), 4);
    assert_eq!(back.game.to_move(), Color::White);
    assert_eq!(back.game.board(), game.board());
    // An empty game with Black to move writes no PL.
    let plain = write_sgf(&Game::new(size, Rules::chinese()), &GameInfo::default());
    assert!(!plain.contains("PL["));
    // Tromp-Taylor and New Zealand are written by name and read back as they were.
    for (rules, name) in [
        (Rules::tromp_taylor(), "RU[Tromp-Taylor]"),
        (Rules::new_zealand(), "RU[NZ]"),
    ] {
        let text = write_sgf(&Game::new(size, rules), &GameInfo::default());
        assert!(text.contains(name), "{text}");
        assert_eq!(parse_sgf(&text).unwrap().game.rules(), &rules);
    }
}

#[test]
fn defaults_when_properties_are_absent() {
    let g = parse_sgf("(;)").unwrap().game;
    assert_eq!(g.size().get(), 19);
    assert_eq!(g.rules(), &Rules::chinese());
    let g = parse_sgf("(;RU[Japanese])").unwrap().game;
    assert_eq!(g.rules().komi(), 6.5, "komi defaults to the rules' own");
    let g = parse_sgf("(;RU[Ing goe]KM[8])").unwrap().game;
    assert_eq!((g.rules().scoring, g.rules().komi()), (Scoring::Area, 8.0));
    assert_eq!(g.rules().ko, KoRule::Positional);
    let g = parse_sgf("(;KM[6,5])").unwrap().game;
    assert_eq!(g.rules().komi(), 6.5, "decimal comma");
    assert_eq!(parse_sgf("(;HA[0])").unwrap().game.handicap(), 0);
}

#[test]
fn defaults_stand_where_the_record_names_no_rules_or_komi() {
    let session = Rules::japanese().with_komi(0.5).unwrap();
    let read = |text: &str| *parse_sgf_with(text, &session, None).unwrap().game.rules();
    assert_eq!(read("(;SZ[9];B[ee])"), session);
    assert_eq!(read("(;KM[3])"), Rules::japanese().with_komi(3.0).unwrap());
    assert_eq!(
        read("(;RU[Chinese])"),
        Rules::chinese(),
        "its own rules, their komi"
    );
    assert_eq!(
        read("(;RU[NZ]KM[2])"),
        Rules::new_zealand().with_komi(2.0).unwrap()
    );
    let unknown = parse_sgf_with("(;RU[Martian])", &session, None).unwrap();
    assert_eq!(*unknown.game.rules(), session);
    assert_eq!(unknown.warnings.len(), 1, "{:?}", unknown.warnings);
    let part = parse_sgf_with("(;SZ[9];B[ee];W[cc])", &session, Some(2)).unwrap();
    assert_eq!((part.game.move_count(), *part.game.rules()), (1, session));
}

#[test]
fn reads_an_ff3_record_with_old_identifiers_and_tt_passes() {
    let text = "Some header line\n(;GaMe[1]FF[3]SZ[9]\nKoMi[5.5]PlayerBlack[Old]HA[2]\
                AddBlack[cc][gg]\n;W[ee];B[tt];W[dd]\n;B[]\n;W[tt]C[done])";
    let r = parse_sgf(text).unwrap();
    let size = r.game.size();
    assert_eq!(size.get(), 9);
    assert_eq!(r.game.rules().komi(), 5.5);
    assert_eq!(r.game.handicap(), 2);
    assert_eq!(r.info.black.as_deref(), Some("Old"));
    let moves: Vec<String> = r
        .game
        .moves()
        .map(|(c, m)| format!("{} {}", c.letter(), size.move_vertex(m)))
        .collect();
    assert_eq!(moves, ["W E5", "B pass", "W D6", "B pass", "W pass"]);
    assert_eq!(r.info.comments, vec![(5, "done".to_string())]);
}

#[test]
fn tt_is_a_point_on_boards_above_19() {
    let r = parse_sgf("(;SZ[21];B[tt];W[])").unwrap();
    let size = r.game.size();
    let m: Vec<Move> = r.game.moves().map(|(_, m)| m).collect();
    assert_eq!(m, [Move::Play(size.point(19, 1).unwrap()), Move::Pass]);
    // and on 19×19 and below it is a pass, even where it is off the board
    let r = parse_sgf("(;SZ[5];B[tt])").unwrap();
    assert_eq!(r.game.last_move(), Some((Color::Black, Move::Pass)));
}

#[test]
fn moves_the_board_cannot_take_are_skipped_with_their_number() {
    let r = parse_sgf("(;SZ[9];B[ee];W[ff];B[ee];W[aa])").unwrap();
    assert_eq!(r.game.move_count(), 3);
    assert_eq!(r.warnings, ["move 3 (B E5) skipped: point is occupied"]);
    let suicide = "B[ca];W[ab];B[bb];W[dd];B[ac];W[ee];B[ba];W[aa])";
    let r = parse_sgf(&format!("(;SZ[9];{suicide}")).unwrap();
    assert_eq!(r.game.move_count(), 7);
    assert_eq!(r.warnings, ["move 8 (W A9) skipped: suicide"]);
    // Under rules that allow it, the suicide is played.
    let r = parse_sgf(&format!("(;SZ[9]RU[NZ];{suicide}")).unwrap();
    assert_eq!((r.game.move_count(), r.warnings.len()), (8, 0));
}

#[test]
fn illegal_moves_are_refused_with_their_number() {
    // A ko: White takes at C3 (move 8), Black retakes at D3, White retakes at once:
    // a record's move is replayed as played (only `play` obeys the ko ban).
    let ko = "(;SZ[5];B[bc];W[cc];B[cb];W[db];B[cd];W[dd];B[ae];W[ec];B[dc];W[cc])";
    let r = parse_sgf(ko).unwrap();
    assert_eq!((r.game.move_count(), r.warnings.len()), (10, 0));
    r.game.board().check_invariants().unwrap();
    let off = parse_sgf("(;SZ[9];B[jj])").unwrap_err();
    assert!(
        matches!(off, SgfError::IllegalMove { number: 1, .. }),
        "{off}"
    );
    assert!(off.to_string().contains("off the 9x9 board"), "{off}");
}

#[test]
fn until_stops_before_the_given_move() {
    let text = "(;SZ[9];B[ee]C[one];W[ff];B[gg];W[aa]C[four])";
    let all = parse_sgf(text).unwrap();
    assert_eq!(all.game.move_count(), 4);
    for n in 0..=6 {
        let r = parse_sgf_until(text, n).unwrap();
        assert_eq!(r.game.move_count(), n.clamp(1, 5) - 1, "N={n}");
    }
    let start = parse_sgf_until(text, 1).unwrap();
    assert_eq!(start.game.to_move(), Color::Black);
    assert!(start.info.comments.is_empty());
    // An illegal move after the stopping point does not matter.
    assert!(parse_sgf_until("(;SZ[9];B[ee];W[zz])", 2).is_ok());
    assert!(parse_sgf_until("(;SZ[9];B[ee];W[zz])", 3).is_err());
}

#[test]
fn setup_is_read_before_the_first_move_and_after_it() {
    let r = parse_sgf("(;SZ[9]AB[aa:bb];AE[aa]AW[ee];B[cc])").unwrap();
    let s = r.game.start_board();
    assert_eq!(s.stones(Color::Black).count(), 3);
    assert_eq!(s.stones(Color::White).count(), 1);
    // and after a move, where it stands.
    let r = parse_sgf("(;SZ[9];B[cc];AB[dd];W[ee])").unwrap();
    assert_eq!(r.game.start_board().stones(Color::Black).count(), 2);
    assert_eq!(r.game.move_count(), 1);
    // A setup that leaves a group without liberties is no position.
    let e = parse_sgf("(;SZ[9]AB[aa]AW[ab][ba])").unwrap_err();
    assert!(matches!(e, SgfError::BadProperty(_)), "{e}");
    let e = parse_sgf("(;SZ[9]AB[zz])").unwrap_err();
    assert!(e.to_string().contains("off the 9x9 board"), "{e}");
    // One point set up twice in a node (the SGF specification forbids it).
    let e = parse_sgf("(;SZ[9]AB[cc][dd]AW[ee][cc])").unwrap_err();
    assert!(matches!(e, SgfError::BadProperty(_)), "{e}");
    assert!(e.to_string().contains("AB[cc] and AW[cc]"), "{e}");
}

/// The name of the variant of `e`.
fn kind_of(e: &SgfError) -> &'static str {
    match e {
        SgfError::Parse(_) => "Parse",
        SgfError::Unsupported(_) => "Unsupported",
        SgfError::IllegalMove { .. } => "IllegalMove",
        SgfError::BadProperty(_) => "BadProperty",
    }
}

#[test]
fn broken_records_are_refused_never_panicking() {
    // (the record, the kind of error it is refused with)
    let cases = [
        ("", "Parse"),
        ("garbage", "Parse"),
        ("(;SZ[9];B[ee]", "Parse"),
        ("(;SZ[9];B[ee", "Parse"),
        ("(;SZ[9]))", "Parse"),
        ("(;SZ[99])", "Unsupported"),
        ("(;SZ[1])", "Unsupported"),
        ("(;SZ[100000000000000000000])", "Unsupported"),
        ("(;SZ[-9])", "BadProperty"),
        ("(;SZ[19:13])", "Unsupported"),
        ("(;SZ[nine])", "BadProperty"),
        ("(;KM[nan])", "BadProperty"),
        ("(;KM[1e300])", "BadProperty"),
        ("(;KM[-inf])", "BadProperty"),
        ("(;B[é1])", "BadProperty"),
        ("(;B[aa]W[bb])", "BadProperty"),
        ("(;GM[2];B[aa])", "Unsupported"),
        ("(;PL[X])", "BadProperty"),
        ("(;AB[])", "BadProperty"),
        ("\u{fffd}\u{fffd}(;SZ\u{fffd}[9])", "Parse"),
    ];
    for (text, kind) in cases {
        match parse_sgf(text) {
            Err(e) => {
                assert_eq!(kind_of(&e), kind, "{text:?} gave {e:?}");
                assert!(!e.to_string().is_empty());
            }
            Ok(r) => panic!("{text:?} was accepted: {:?}", r.game.board()),
        }
    }
    // Latin-1 names decoded badly are still text.
    let r = parse_sgf("(;PB[Mei\u{fffd}in]CA[ISO-8859-1])").unwrap();
    assert_eq!(r.info.black.as_deref(), Some("Mei\u{fffd}in"));
}

#[test]
fn malformed_information_is_ignored_with_a_warning() {
    let r = parse_sgf(
        "(;SZ[9]HA[7.5]AB[cc][gc][cg][gg][ee][ce][ge]PB[Ann][Bob]DT[2024]TM[1h]\
         PW[Cy]C[a\nb][c];W[ec])",
    )
    .unwrap();
    assert_eq!(r.game.start_board().stones(Color::Black).count(), 7);
    assert_eq!((r.game.handicap(), r.game.move_count()), (0, 1));
    assert_eq!(r.info.black, None);
    assert_eq!(r.info.white.as_deref(), Some("Cy"));
    assert_eq!(r.info.date.as_deref(), Some("2024"));
    assert_eq!(r.info.time_limit, None);
    assert_eq!(
        r.warnings,
        [
            "HA[7.5] is not a handicap count: ignored",
            "PB[Ann][Bob] is malformed: ignored",
            "TM[1h] is malformed: ignored",
            "C[a b][c] is malformed: ignored",
        ]
    );
    // A long value is cut short, and many warnings are counted, not listed.
    let long = format!("(;DT[{}][x])", "9".repeat(1000));
    let w = &parse_sgf(&long).unwrap().warnings;
    assert!(w[0].len() < 80 && w[0].contains('…'), "{w:?}");
    let many = format!("(;{})", "DT[a][b]".repeat(50));
    let w = &parse_sgf(&many).unwrap().warnings;
    assert_eq!(w.len(), MAX_WARNINGS + 1);
    assert_eq!(w[MAX_WARNINGS], "and 30 more warnings");
    // A clean record has none.
    assert!(
        parse_sgf("(;SZ[9]HA[2]AB[cc][gg]PB[a];W[ee])")
            .unwrap()
            .warnings
            .is_empty()
    );
}

#[test]
fn absurdly_deep_trees_are_refused_and_deep_ones_read() {
    let deep = format!("(;SZ[2]{})", ";B[];W[]".repeat(MAX_TREE_DEPTH));
    assert!(matches!(parse_sgf(&deep), Err(SgfError::Unsupported(_))));
    let nested = "(;C[x]".repeat(1_000_000);
    assert!(matches!(parse_sgf(&nested), Err(SgfError::Unsupported(_))));
    let ok = format!("(;SZ[2]{})", ";B[];W[]".repeat(MAX_TREE_DEPTH / 2 - 1));
    assert_eq!(
        parse_sgf(&ok).unwrap().game.move_count(),
        MAX_TREE_DEPTH - 2
    );
    let nested = format!("{})", "(;C[x]".repeat(MAX_TREE_DEPTH - 1));
    assert!(parse_sgf(&nested).is_err(), "unbalanced");
}

#[test]
fn only_the_main_line_of_the_first_game_is_bounded_and_read() {
    // A later game or a side variation too deep to parse does not stop the first
    // game's main line from loading.
    let deep = ";B[]".repeat(2 * MAX_TREE_DEPTH);
    let later = format!("(;SZ[9];B[ee];W[cc])\n(;SZ[9]{deep})");
    assert_eq!(parse_sgf(&later).unwrap().game.move_count(), 2);
    let side = format!("(;SZ[9];B[ee](;W[cc])(;W[dd]{deep}))");
    assert_eq!(parse_sgf(&side).unwrap().game.move_count(), 2);
    // A main line of too many values is refused.
    let values = format!("(;SZ[9]TR{})", "[aa]".repeat(MAX_VALUES + 1));
    assert!(matches!(parse_sgf(&values), Err(SgfError::Unsupported(_))));
}

#[test]
fn mutated_records_never_panic() {
    let base = "(;FF[4]GM[1]SZ[9]KM[6.5]HA[2]AB[cc][gg]PB[a]RE[W+R]\
                ;W[ee]C[x\\]y];B[dc];W[tt];B[];W[ab]AE[aa];B[ba])";
    let mut seed = 0x9e37_79b9_u64;
    let mut rand = move |k: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % k as u64) as usize
    };
    let alphabet: Vec<char> = "()[];\\:ABWKMSZHAtaz019-.é \n".chars().collect();
    let (mut ok, mut err) = (0, 0);
    for _ in 0..3000 {
        let mut chars: Vec<char> = base.chars().collect();
        for _ in 0..1 + rand(4) {
            let i = rand(chars.len());
            match rand(3) {
                0 => {
                    chars.remove(i);
                }
                1 => chars.insert(i, alphabet[rand(alphabet.len())]),
                _ => chars[i] = alphabet[rand(alphabet.len())],
            }
        }
        let text: String = chars.into_iter().collect();
        match parse_sgf(&text) {
            Ok(r) => {
                ok += 1;
                r.game.board().check_invariants().unwrap();
            }
            Err(e) => {
                err += 1;
                assert!(!e.to_string().is_empty());
            }
        }
    }
    assert!(ok > 50 && err > 1000, "{ok} read, {err} refused");
}
