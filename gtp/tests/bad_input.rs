//! No input, however long or strange, panics the session, goes unanswered or changes
//! the game when it fails: fixed nasty cases, then random lines (proptest) mixing
//! real command names with hostile arguments and raw bytes.

use std::path::PathBuf;

use proptest::prelude::*;
use tengen_board::sgf::{GameInfo, write_sgf};
use tengen_engine::{Config, Keyword};
use tengen_gtp::{Session, SessionOptions, command_names};

fn session() -> Session {
    session_with(Some(30))
}

/// A quiet one-thread session with this playout budget (`None`: by the clock).
fn session_with(playouts: Option<u64>) -> Session {
    let mut s = Session::new(
        Config {
            threads: 1,
            playouts,
            ..Config::default()
        },
        SessionOptions {
            quiet: true,
            ..SessionOptions::default()
        },
    );
    s.set_log(Box::new(std::io::sink()));
    s
}

/// Everything a failed command must leave as it was.
fn state(s: &Session) -> String {
    let g = s.game();
    format!(
        "{}|{:?}|{:?}|{}",
        write_sgf(g, &GameInfo::default()),
        g.to_move(),
        g.rules(),
        g.board().hash().0
    )
}

/// Feeds one line; checks it got exactly one well-framed answer (none for a line that
/// is empty after cleanup) and that a failure changed nothing. Returns the answer.
fn feed(s: &mut Session, line: &[u8]) -> String {
    let before = state(s);
    let mut out = Vec::new();
    s.handle_line(line, &mut out).expect("writing to memory");
    let out = String::from_utf8(out).expect("answers are UTF-8");
    let clean = tengen_gtp::protocol::clean_line(line.strip_suffix(b"\n").unwrap_or(line));
    if clean.is_empty() && line.len() <= 4 << 20 {
        assert_eq!(out, "", "no answer to {line:?}");
        return out;
    }
    assert!(out.ends_with("\n\n"), "{line:?} -> {out:?}");
    assert_eq!(out.matches("\n\n").count(), 1, "{line:?} -> {out:?}");
    assert!(
        out.starts_with('=') || out.starts_with('?'),
        "{line:?} -> {out:?}"
    );
    if out.starts_with('?') {
        assert_eq!(
            state(s),
            before,
            "failed command changed the game: {line:?} -> {out:?}"
        );
    }
    out
}

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/gtp/sgf")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn the_nasty_cases_of_the_brief() {
    let mut s = session();
    feed(&mut s, b"boardsize 9");
    feed(&mut s, b"play b E5");
    let mut huge = b"1 play b ".to_vec();
    huge.extend(std::iter::repeat_n(b'A', 1 << 20));
    assert!(feed(&mut s, &huge).starts_with("?1 syntax error"));
    let mut too_long = b"2 name ".to_vec();
    too_long.extend(std::iter::repeat_n(b'x', 5 << 20));
    assert_eq!(
        feed(&mut s, &too_long),
        "?2 syntax error: line too long\n\n"
    );
    let binary: Vec<u8> = (0u8..=255).cycle().take(4096).collect();
    assert!(feed(&mut s, &binary).starts_with('?'));
    for line in [
        "komi NaN",
        "komi nan",
        "komi -inf",
        "komi 1e400",
        "boardsize 0",
        "boardsize 1000",
        "boardsize 1",
        "play b Z1",
        "play b A99999999999999999999",
        "play b E5",
        "play w",
        "undo 3",
        "fixed_handicap 9",
        "set_free_handicap A1 A1",
        "time_left b NaN 0",
        "loadsgf /dev/zero",
        "loadsgf /",
        "kgs-rules ",
        "final_status_list",
        "tengen-set threads 100000",
        "lz-analyze b -1",
        "kata-analyze b 10 avoid",
        "genmove",
        "is_legal b",
        "list_stones q",
    ] {
        assert!(feed(&mut s, line.as_bytes()).starts_with('?'), "{line}");
    }
    // Absurd but well-formed times are clamped, not refused.
    assert!(feed(&mut s, b"time_settings 1e300 1 1").starts_with('='));
    for file in [
        "broken.sgf",
        "illegal.sgf",
        "huge.sgf",
        "binary.sgf",
        "missing.sgf",
    ] {
        let line = format!("loadsgf {}", data(file));
        assert!(
            feed(&mut s, line.as_bytes()).starts_with("? cannot load file"),
            "{file}"
        );
    }
    // A command while analysing: the stream ends and the command is answered after.
    assert!(feed(&mut s, b"3 lz-analyze b 1").starts_with("=3\n"));
    assert_eq!(feed(&mut s, b"4 list_stones b"), "=4 E5\n\n");
}

/// Tokens that hit the decoders' edges.
const TOKENS: &[&str] = &[
    "b",
    "w",
    "B",
    "white",
    "x",
    "D4",
    "d4",
    "E5",
    "A1",
    "T19",
    "Z25",
    "I5",
    "A0",
    "A26",
    "pass",
    "PASS",
    "resign",
    "0",
    "1",
    "2",
    "7",
    "9",
    "19",
    "25",
    "26",
    "-1",
    "7.5",
    "NaN",
    "inf",
    "-0",
    "1e999",
    "99999999999999999999",
    "true",
    "false",
    "ownership",
    "interval",
    "avoid",
    "allow",
    "D4,Q16",
    "minmoves",
    "threads",
    "playouts",
    "policy",
    "light",
    "none",
    "absolute",
    "byoyomi",
    "canadian",
    "japanese",
    "chinese",
    "alive",
    "dead",
    "seki",
    "é",
    "\u{0}",
    "#",
    "\t",
    "",
];

fn line_strategy() -> impl Strategy<Value = Vec<u8>> {
    // No `quit` (it ends the session) and no `printsgf` (it would write files named
    // after random tokens).
    let names: Vec<&'static str> = command_names()
        .filter(|&n| n != "quit" && n != "printsgf")
        .collect();
    let command = (
        proptest::option::of(0u32..1000),
        proptest::sample::select(names),
        proptest::collection::vec(proptest::sample::select(TOKENS), 0..6),
    )
        .prop_map(|(id, name, args)| {
            let mut line = id.map(|i| format!("{i} ")).unwrap_or_default();
            line.push_str(name);
            for a in args {
                line.push(' ');
                line.push_str(a);
            }
            line.into_bytes()
        });
    let raw = proptest::collection::vec(any::<u8>(), 0..200);
    prop_oneof![4 => command, 1 => raw]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_lines_get_one_answer_and_failures_change_nothing(
        lines in proptest::collection::vec(line_strategy(), 1..40)
    ) {
        let mut s = session();
        for line in &lines {
            if line.windows(4).any(|w| w == b"quit") || line.windows(8).any(|w| w == b"printsgf") {
                continue;
            }
            feed(&mut s, line);
        }
    }
}

/// A clock of a year (or of 1e20 seconds, clamped to a year) must not hang a move:
/// `Config::max_move_time` caps every move, whatever the clock says.
#[test]
fn an_absurd_clock_cannot_hang_a_move() {
    let mut s = session_with(None);
    assert!(feed(&mut s, b"boardsize 9").starts_with('='));
    assert!(feed(&mut s, b"time_settings 1e20 0 0").starts_with('='));
    assert!(feed(&mut s, b"tengen-set max_move_time 0.5").starts_with('='));
    assert_eq!(feed(&mut s, b"tengen-get max_move_time"), "= 0.5\n\n");
    let mut s = genmove_within_5s(s);
    assert!(feed(&mut s, b"tengen-set max_move_time 0").starts_with('?'));
    assert!(feed(&mut s, b"tengen-set max_move_time 0.01").starts_with('?'));
    assert_eq!(
        Config::default().max_move_time,
        tengen_engine::MAX_MOVE_TIME
    );
}

/// A playout budget no move could spend (a billion) stops at `max_move_time` too.
#[test]
fn a_huge_playout_budget_stops_at_the_move_cap() {
    let mut s = session_with(Some(1_000_000_000));
    assert!(feed(&mut s, b"boardsize 9").starts_with('='));
    assert!(feed(&mut s, b"tengen-set max_move_time 0.5").starts_with('='));
    genmove_within_5s(s);
}

/// Runs `genmove b` on another thread and fails (rather than hangs) if it has not
/// answered a move within 5 s; gives the session back.
fn genmove_within_5s(mut s: Session) -> Session {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let answer = feed(&mut s, b"genmove b");
        let _ = tx.send((answer, s));
    });
    let (answer, s) = rx
        .recv_timeout(std::time::Duration::from_secs(5))
        .expect("genmove answered within 5 s");
    assert!(answer.starts_with("= "), "{answer}");
    s
}

/// Each of `bad` is refused and leaves every setting (`tengen-get`) as it was.
fn refused_and_unchanged(s: &mut Session, bad: &[&[u8]]) {
    let before = feed(s, b"tengen-get");
    for line in bad {
        let text = String::from_utf8_lossy(line);
        assert!(feed(s, line).starts_with('?'), "{text}");
        assert_eq!(feed(s, b"tengen-get"), before, "{text}");
    }
}

/// `tengen-set memory` takes MiB from 1 to 32 GiB; anything else is refused and
/// changes nothing.
#[test]
fn the_tree_memory_is_set_in_mib_within_bounds() {
    let mut s = session_with(None);
    let default = format!("= {}\n\n", tengen_engine::DEFAULT_MEMORY_MIB);
    assert_eq!(feed(&mut s, b"tengen-get memory"), default);
    refused_and_unchanged(
        &mut s,
        &[
            b"tengen-set memory 0",
            b"tengen-set memory -5",
            b"tengen-set memory 32769",
            b"tengen-set memory 1.5",
            b"tengen-set memory lots",
        ],
    );
    assert_eq!(feed(&mut s, b"tengen-get memory"), default);
    assert!(feed(&mut s, b"tengen-set memory 2").starts_with('='));
    assert_eq!(feed(&mut s, b"tengen-get memory"), "= 2\n\n");
    assert_eq!(
        Config::default().memory_mib,
        tengen_engine::DEFAULT_MEMORY_MIB
    );
}

/// `tengen-set model_prior` takes off, wins, widen or both, `model_weight` virtual
/// visits in 0..=100000 and `widen_visits` at least 1; anything else is refused and
/// changes nothing.
#[test]
fn the_model_prior_settings_are_checked() {
    let mut s = session_with(None);
    let default = format!(
        "= {}\n\n",
        tengen_engine::SearchParams::default().model_prior.name()
    );
    assert_eq!(feed(&mut s, b"tengen-get model_prior"), default);
    refused_and_unchanged(
        &mut s,
        &[
            b"tengen-set model_prior model",
            b"tengen-set model_prior",
            b"tengen-set model_weight -1",
            b"tengen-set model_weight 1e9",
            b"tengen-set model_weight lots",
            b"tengen-set widen_visits 0",
            b"tengen-set widen_visits nan",
        ],
    );
    assert_eq!(feed(&mut s, b"tengen-get model_prior"), default);
    for mode in ["off", "wins", "widen", "both"] {
        let set = format!("tengen-set model_prior {mode}");
        assert!(feed(&mut s, set.as_bytes()).starts_with('='));
        assert_eq!(
            feed(&mut s, b"tengen-get model_prior"),
            format!("= {mode}\n\n")
        );
    }
    assert!(feed(&mut s, b"tengen-set model_weight 50").starts_with('='));
    assert_eq!(feed(&mut s, b"tengen-get model_weight"), "= 50\n\n");
    assert!(feed(&mut s, b"tengen-set widen_visits 20").starts_with('='));
    assert_eq!(feed(&mut s, b"tengen-get widen_visits"), "= 20\n\n");
}

/// `tengen-set playout_model` takes `off` or a weight in 0..=1000; anything else is
/// refused and changes nothing.
#[test]
fn the_playout_model_setting_is_checked() {
    let mut s = session_with(None);
    let default = format!(
        "= {}\n\n",
        tengen_engine::config::LocalModelSetting(Config::default().heavy.local_model)
    );
    assert_eq!(feed(&mut s, b"tengen-get playout_model"), default);
    refused_and_unchanged(
        &mut s,
        &[
            b"tengen-set playout_model on",
            b"tengen-set playout_model",
            b"tengen-set playout_model -1",
            b"tengen-set playout_model 1001",
            b"tengen-set playout_model nan",
        ],
    );
    assert_eq!(feed(&mut s, b"tengen-get playout_model"), default);
    for (value, shown) in [("2.5", "2.5"), ("OFF", "off"), ("0", "0")] {
        let set = format!("tengen-set playout_model {value}");
        assert!(feed(&mut s, set.as_bytes()).starts_with('='), "{value}");
        assert_eq!(
            feed(&mut s, b"tengen-get playout_model"),
            format!("= {shown}\n\n")
        );
    }
}

/// A file `loadsgf` cannot read is named in the answer: the system's reason alone
/// (`No such file or directory`) does not say which file.
#[test]
fn a_file_loadsgf_cannot_read_is_named() {
    let mut s = session();
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-record.sgf").display().to_string();
    let answer = feed(&mut s, format!("loadsgf {missing}").as_bytes());
    assert!(
        answer.starts_with(&format!("? cannot load file: {missing}: ")),
        "{answer:?}"
    );
    let in_missing_dir = dir.path().join("gone/game.sgf").display().to_string();
    let answer = feed(&mut s, format!("loadsgf {in_missing_dir}").as_bytes());
    assert!(answer.contains(&in_missing_dir), "{answer:?}");
}

/// `tengen-set` words a refused value as the command line words a flag's: the value,
/// the setting, then `must be between LO and HI` or `must be at least LO`.
#[test]
fn tengen_set_names_the_setting_the_value_and_the_bounds() {
    let mut s = session();
    for (line, answer) in [
        (
            "tengen-set threads 100000",
            r#"invalid value "100000" for threads: must be between 1 and 1024"#,
        ),
        (
            "tengen-set threads 0",
            r#"invalid value "0" for threads: must be between 1 and 1024"#,
        ),
        (
            "tengen-set playouts -1",
            r#"invalid value "-1" for playouts: must be at least 0"#,
        ),
        (
            "tengen-set memory lots",
            r#"invalid value "lots" for memory: not a whole number"#,
        ),
        (
            "tengen-set memory 32769",
            r#"invalid value "32769" for memory: must be between 1 and 32768"#,
        ),
        (
            "tengen-set seed -1",
            r#"invalid value "-1" for seed: must be at least 0"#,
        ),
        (
            "tengen-set seed 18446744073709551616",
            r#"invalid value "18446744073709551616" for seed: must be between 0 and 18446744073709551615"#,
        ),
        (
            "tengen-set resign_threshold 2",
            r#"invalid value "2" for resign_threshold: must be between 0 and 1"#,
        ),
        (
            "tengen-set model_weight nan",
            r#"invalid value "nan" for model_weight: not a number"#,
        ),
        (
            "tengen-set widen_visits 0",
            r#"invalid value "0" for widen_visits: must be between 1 and 1000000000"#,
        ),
        (
            "tengen-set move_time -1",
            r#"invalid value "-1" for move_time: must be between 0.001 and 86400"#,
        ),
        (
            "tengen-set move_time 0",
            r#"invalid value "0" for move_time: must be between 0.001 and 86400"#,
        ),
        (
            "tengen-set lag 60001",
            r#"invalid value "60001" for lag: must be between 0 and 60000"#,
        ),
        (
            "tengen-set lag 0.05",
            r#"invalid value "0.05" for lag: not a whole number"#,
        ),
        (
            "tengen-set max_move_time 0.05",
            r#"invalid value "0.05" for max_move_time: must be between 0.1 and 86400"#,
        ),
        (
            "tengen-set playout_model 1001",
            r#"invalid value "1001" for playout_model: must be between 0 and 1000"#,
        ),
        (
            "tengen-set playout_model on",
            r#"invalid value "on" for playout_model: not a number, nor off"#,
        ),
    ] {
        assert_eq!(
            feed(&mut s, line.as_bytes()),
            format!("? syntax error: {answer}\n\n"),
            "{line}"
        );
    }
    assert_eq!(
        feed(&mut s, b"tengen-set seed 18446744073709551615"),
        "=\n\n"
    );
    assert_eq!(feed(&mut s, b"tengen-set playout_model OFF"), "=\n\n");
}
