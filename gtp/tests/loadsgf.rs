//! `loadsgf` of flawed records (the fixtures of `tests/data/sgf/`): what loads, what
//! is said on stderr, and what the session keeps.

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use tengen_engine::Config;
use tengen_gtp::{Session, SessionOptions};

/// A log the test can read back.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<u8>>>);

impl Write for Log {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Log {
    /// Everything written since the last call.
    fn take(&self) -> String {
        String::from_utf8(std::mem::take(&mut *self.0.lock().unwrap())).unwrap()
    }
}

fn session(options: SessionOptions) -> (Session, Log) {
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
    let log = Log::default();
    s.set_log(Box::new(log.clone()));
    (s, log)
}

fn fixture(name: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/sgf");
    dir.join(name).to_string_lossy().into_owned()
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
    let (mut s, log) = session(SessionOptions::default());
    let file = fixture("lenient_ha_fraction.sgf");
    assert_eq!(send(&mut s, &format!("loadsgf {file}")), "=");
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
    let (mut s, log) = session(SessionOptions::default());
    let file = fixture("lenient_occupied.sgf");
    assert_eq!(send(&mut s, &format!("loadsgf {file}")), "=");
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

/// A fresh folder for files a test writes.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-loadsgf-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn setup_in_the_middle_loads_undoes_to_it_and_prints_back_to_the_same_position() {
    let (mut s, _log) = session(SessionOptions::default());
    let file = fixture("lenient_setup_mid_game.sgf");
    assert_eq!(send(&mut s, &format!("loadsgf {file}")), "=");
    let stones = |s: &mut Session| (send(s, "list_stones b"), send(s, "list_stones w"));
    let end = stones(&mut s);
    assert_eq!(end.1, "=H2 H7");
    let out = scratch("midgame").join("back.sgf");
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
