//! The GTP test files of `tests/data/gtp` (`*.tst`, `*.transcript`), run in process through
//! [`Session::run`] (the root package runs them again against the real binary).

#[path = "../../tests/gtp/transcript.rs"]
mod transcript;

use std::io::Cursor;
use std::path::PathBuf;

use tengen_engine::Config;
use tengen_gtp::{Session, SessionOptions};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/gtp")
}

/// A small, repeatable engine: one thread and a fixed playout budget.
fn config() -> Config {
    Config {
        threads: 1,
        playouts: Some(200),
        seed: 7,
        ..Config::default()
    }
}

/// The session options of a file's `# args:` flags (the ones the binary maps to
/// session options; the engine's own flags have no place here).
fn options(args: &[String]) -> Result<SessionOptions, String> {
    let mut options = SessionOptions {
        quiet: true,
        ..SessionOptions::default()
    };
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--kgs" => options.kgs = true,
            "--ogs-pv" => options.ogs_pv = true,
            "--rules" => {
                let name = args.next().ok_or("--rules without a name")?;
                options.rules = name.parse().map_err(|e| format!("{e}"))?;
            }
            other => return Err(format!("# args: {other} has no session option here")),
        }
    }
    Ok(options)
}

fn run_file(name: &str) -> Result<String, String> {
    let dir = data_dir();
    let bytes = std::fs::read(dir.join(name)).map_err(|e| format!("{name}: {e}"))?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    // Relative file names in the transcript are relative to its folder.
    let mut input = transcript::with_paths_under(&text, &dir).into_bytes();
    if text.is_ascii() {
        // keep the rewritten text
    } else {
        // Binary bytes must reach the engine as written; no file with them loads SGF.
        input = bytes;
    }
    let format = transcript::Format::of(name).expect("a test file");
    let options =
        options(&transcript::extra_args(&text, format)).map_err(|e| format!("{name}: {e}"))?;
    let mut session = Session::new(config(), options);
    let mut out = Vec::new();
    session
        .run(Cursor::new(input), &mut out)
        .map_err(|e| format!("{name}: {e}"))?;
    let output = String::from_utf8(out).map_err(|e| format!("{name}: output is not UTF-8: {e}"))?;
    transcript::check(name, &text, &output)
}

#[test]
fn every_transcript_passes_in_process() {
    let mut names: Vec<String> = std::fs::read_dir(data_dir())
        .expect("tests/data/gtp")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| transcript::Format::of(n).is_some())
        .collect();
    names.sort();
    assert!(!names.is_empty());
    let mut failures = Vec::new();
    for name in &names {
        match run_file(name) {
            Ok(report) => println!("{report}"),
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
