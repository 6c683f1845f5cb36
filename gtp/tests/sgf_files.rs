//! `loadsgf` of flawed records (the fixtures of `tests/data/sgf/`): what loads, what
//! is said on stderr, and what the session keeps; `printsgf FILE`: what it may write.

use std::path::PathBuf;

use tengen_engine::Config;
use tengen_gtp::{Session, SessionOptions};

mod common;
use common::Shared;

#[path = "../../tests/support/scratch.rs"]
mod scratch;
use scratch::fresh_dir;

fn session(options: SessionOptions) -> (Session, Shared) {
    let config = Config {
        threads: 1,
        playouts: Some(30),
        ..Config::default()
    };
    let mut s = Session::new(
        config,
        SessionOptions {
            quiet: true,
            ..options
        },
    );
    let log = Shared::default();
    s.set_log(Box::new(log.clone()));
    (s, log)
}

fn fixture(name: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/sgf");
    dir.join(name).to_string_lossy().into_owned()
}

/// A session with the default options that has loaded the fixture `name` whole: the
/// session, its log and the fixture's path.
fn loaded(name: &str) -> (Session, Shared, String) {
    let (mut s, log) = session(SessionOptions::default());
    let file = fixture(name);
    assert_eq!(send(&mut s, &format!("loadsgf {file}")), "=");
    (s, log, file)
}

/// The answer to one line, without its framing: `=text` or `?text`.
fn send(s: &mut Session, line: &str) -> String {
    let mut out = Vec::new();
    s.handle_line(line.as_bytes(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let body = text
        .strip_suffix("\n\n")
        .unwrap_or_else(|| panic!("{text:?}"));
    body.replacen(' ', "", 1)
}

#[test]
fn a_malformed_handicap_count_loads_with_a_warning_on_stderr() {
    let (mut s, log, file) = loaded("lenient_ha_fraction.sgf");
    assert_eq!(
        s.game()
            .start_board()
            .stones(tengen_board::Color::Black)
            .count(),
        7
    );
    assert_eq!(s.game().move_count(), 10);
    assert_eq!(
        log.take(),
        format!("tengen: loadsgf {file}: HA[7.5] is not a handicap count: ignored\n")
    );
    // A clean record says nothing.
    assert_eq!(
        send(&mut s, &format!("loadsgf {}", fixture("ko9_ff3.sgf"))),
        "="
    );
    assert_eq!(log.take(), "");
}

#[test]
fn a_move_on_an_occupied_point_is_skipped_and_named_on_stderr() {
    let (mut s, log, file) = loaded("lenient_occupied.sgf");
    assert_eq!(s.game().move_count(), 5);
    assert_eq!(
        log.take(),
        format!("tengen: loadsgf {file}: move 4 (W E5) skipped: point is occupied\n")
    );
    assert_eq!(send(&mut s, "list_stones w"), "=D6 C7");
}

#[test]
fn a_japanese_repetition_loads_and_superko_governs_the_moves_after_it() {
    let (mut s, log) = session(SessionOptions::default());
    // Before move 7: move 6 has just repeated the start (a triple ko).
    let file = fixture("lenient_triple_ko_japanese.sgf");
    assert_eq!(send(&mut s, &format!("loadsgf {file} 7")), "=");
    assert_eq!(log.take(), "");
    assert_eq!(
        send(&mut s, "play b E11"),
        "?illegal move: repeats an earlier position (superko)"
    );
    assert_eq!(send(&mut s, "is_legal b E11"), "=0");
    for _ in 0..3 {
        let answer = send(&mut s, "genmove b");
        assert_ne!(answer, "=E11");
        assert_eq!(send(&mut s, "undo"), "=");
    }
}

#[test]
fn setup_in_the_middle_loads_undoes_to_it_and_prints_back_to_the_same_position() {
    let (mut s, _log, file) = loaded("lenient_setup_mid_game.sgf");
    let stones = |s: &mut Session| (send(s, "list_stones b"), send(s, "list_stones w"));
    let end = stones(&mut s);
    assert_eq!(end.1, "=H2 H7");
    let dir = fresh_dir("sgf-files", "midgame");
    let out = dir.path().join("back.sgf");
    let out = out.to_string_lossy();
    assert!(send(&mut s, &format!("printsgf {out}")).starts_with('='));
    assert_eq!(send(&mut s, "undo"), "=");
    assert_eq!(send(&mut s, "undo"), "=");
    assert_eq!(send(&mut s, "undo"), "?cannot undo");
    assert_eq!(stones(&mut s).1, "=H7");
    assert_eq!(send(&mut s, &format!("loadsgf {out}")), "=");
    assert_eq!(stones(&mut s), end);
    // Up to move 9, the first after the setup: the setup stands, White to move.
    assert_eq!(send(&mut s, &format!("loadsgf {file} 9")), "=");
    assert_eq!(stones(&mut s).1, "=H7");
    assert_eq!(send(&mut s, "play w H2"), "=");
}

/// The komi and counting `showboard` and `printsgf` report.
fn rules(s: &mut Session) -> String {
    let sgf = send(s, "printsgf");
    let pick = |key: &str| {
        let i = sgf.find(key).unwrap() + key.len();
        sgf[i..i + sgf[i..].find(']').unwrap()].to_string()
    };
    format!("{} {}", pick("RU["), pick("KM["))
}

#[test]
fn the_sessions_rules_and_komi_hold_unless_the_record_names_its_own() {
    let japanese = tengen_board::Rules::japanese();
    let (mut s, _log) = session(SessionOptions {
        rules: japanese,
        ..SessionOptions::default()
    });
    let plain = fixture("plain_no_rules.sgf");
    let own = fixture("ko9_ff3.sgf"); // KM[5.5], no RU
    let chinese = fixture("handicap19.sgf"); // RU[Chinese] KM[0.5]
    // `--rules japanese`: a record without RU or KM keeps them.
    assert_eq!(send(&mut s, &format!("loadsgf {plain}")), "=");
    assert_eq!(rules(&mut s), "Japanese 6.5");
    // and an earlier `komi` too.
    assert_eq!(send(&mut s, "komi 0.5"), "=");
    assert_eq!(send(&mut s, &format!("loadsgf {plain}")), "=");
    assert_eq!(rules(&mut s), "Japanese 0.5");
    // A record's own komi or rules hold for its game only.
    assert_eq!(send(&mut s, &format!("loadsgf {own}")), "=");
    assert_eq!(rules(&mut s), "Japanese 5.5");
    assert_eq!(send(&mut s, "clear_board"), "=");
    assert_eq!(rules(&mut s), "Japanese 0.5");
    assert_eq!(send(&mut s, &format!("loadsgf {chinese}")), "=");
    assert_eq!(rules(&mut s), "Chinese 0.5");
    assert_eq!(send(&mut s, "boardsize 13"), "=");
    assert_eq!(rules(&mut s), "Japanese 0.5");
    // `kgs-rules` sets the session's rules as well as the game's.
    assert_eq!(send(&mut s, &format!("loadsgf {own}")), "=");
    assert_eq!(send(&mut s, "kgs-rules chinese"), "=");
    assert_eq!(rules(&mut s), "Chinese 5.5");
    assert_eq!(send(&mut s, &format!("loadsgf {plain}")), "=");
    assert_eq!(rules(&mut s), "Chinese 0.5");
    // The default session: Chinese, 7.5.
    let (mut d, _log) = session(SessionOptions::default());
    assert_eq!(send(&mut d, &format!("loadsgf {plain}")), "=");
    assert_eq!(rules(&mut d), "Chinese 7.5");
}

#[test]
fn printsgf_writes_only_sgf_records_and_names_the_file() {
    let (mut s, _log) = session(SessionOptions::default());
    assert_eq!(send(&mut s, "play b D4"), "=");
    let dir = fresh_dir("sgf-files", "printsgf");
    let at = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    // A new file: the answer is its full name, and it loads back.
    let new = at("new.sgf");
    let full = std::fs::canonicalize(dir.path()).unwrap().join("new.sgf");
    assert_eq!(
        send(&mut s, &format!("printsgf {new}")),
        format!("={}", full.display())
    );
    assert!(
        std::fs::read_to_string(&new)
            .unwrap()
            .starts_with("(;FF[4]")
    );
    // An SGF record or an empty file is replaced.
    assert_eq!(send(&mut s, "play w Q16"), "=");
    assert!(send(&mut s, &format!("printsgf {new}")).starts_with('='));
    assert!(std::fs::read_to_string(&new).unwrap().contains("W[pd]"));
    let empty = at("empty.sgf");
    std::fs::write(&empty, "").unwrap();
    assert!(send(&mut s, &format!("printsgf {empty}")).starts_with('='));
    // Anything else is refused and left as it was.
    let notes = at("notes.sgf");
    std::fs::write(&notes, "my notes\n").unwrap();
    let answer = send(&mut s, &format!("printsgf {notes}"));
    assert_eq!(
        answer,
        format!("?cannot write file: {notes}: exists and is not an SGF record (not replaced)")
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    let folder = at("folder.sgf");
    std::fs::create_dir(&folder).unwrap();
    assert_eq!(
        send(&mut s, &format!("printsgf {folder}")),
        format!("?cannot write file: {folder}: not a regular file")
    );
    if std::path::Path::new("/dev/null").exists() {
        let answer = send(&mut s, "printsgf /dev/null");
        assert!(answer.starts_with("?cannot write file"), "{answer}");
    }
    // Words that are no SGF file name write nothing, here or in the working folder.
    for word in ["komi", "1e308", "notes.txt"] {
        for name in [word.to_string(), at(word)] {
            let answer = send(&mut s, &format!("printsgf {name}"));
            assert_eq!(
                answer,
                format!("?cannot write file: {name}: the name must end in .sgf")
            );
            assert!(!std::path::Path::new(&name).exists(), "{name}");
        }
    }
    // No file: the record is the answer, as before.
    assert!(send(&mut s, "printsgf").starts_with("=(;FF[4]"));
}
