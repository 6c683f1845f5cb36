//! The transcripts of `tests/data/gtp/*.tst` against the real binary, each fed to a
//! fresh process in one pipelined batch (file names resolved against its folder).

use std::path::PathBuf;

use super::binary::{FAST, run, tengen};
use super::transcript;

#[test]
fn every_transcript_passes_against_the_binary() {
    let Some(path) = tengen() else { return };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/gtp");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "tst"))
        .collect();
    names.sort();
    assert!(!names.is_empty());
    let mut failures = Vec::new();
    for file in &names {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(file).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        // Relative file names resolve against the transcript's folder.
        let input = if text.is_ascii() {
            transcript::with_paths_under(&text, &dir).into_bytes()
        } else {
            bytes.clone()
        };
        let mut args = vec!["gtp"];
        args.extend_from_slice(FAST);
        let output = run(&path, &args, &input);
        match transcript::check(&name, &text, &output) {
            Ok(report) => println!("{report}"),
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
