//! The files of `tests/data/gtp` against the real binary, each with a fresh process
//! started in that folder: a `.tst` file as `gogui-regress` runs it (one command at a time,
//! each waiting at most [`ANSWER_TIMEOUT`] for its answer, so a stream that only the next
//! line would stop fails instead of hanging), a `.transcript` as one pipelined batch.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::binary::{FAST, run, tengen};
use super::transcript::{self, Answers, Format};

/// How long a `.tst` command may take to answer, from sending it to the empty line that
/// ends its answer.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(20);

/// Runs a `.tst` file the way `gogui-regress` does: returns the answers by id and the
/// failed unnumbered commands, or why the run broke off.
fn regress(path: &Path, dir: &Path, text: &str) -> Result<(Answers, Vec<String>), String> {
    let mut child = Command::new(path)
        .arg("gtp")
        .args(FAST)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    // A reader thread, so that an answer that never ends times out.
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in stdout.lines() {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut answers = Answers::new();
    let mut unnumbered_errors = Vec::new();
    let mut result = Ok(());
    for (n, line) in transcript::command_lines(text) {
        if let Err(e) = writeln!(stdin, "{line}").and_then(|()| stdin.flush()) {
            result = Err(format!("line {n} `{line}`: cannot send: {e}"));
            break;
        }
        let mut lines = Vec::new();
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        let ended = loop {
            match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(Ok(l)) if l.is_empty() && !lines.is_empty() => break Ok(()),
                Ok(Ok(l)) if l.is_empty() => {}
                Ok(Ok(l)) => lines.push(l),
                Ok(Err(e)) => break Err(format!("cannot read the answer: {e}")),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    break Err(format!(
                        "no complete answer within {} s (a stream that stops only on the \
                         next line belongs in a .transcript)",
                        ANSWER_TIMEOUT.as_secs()
                    ));
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break Err("the engine ended".into()),
            }
        };
        if let Err(e) = ended {
            let got: Vec<&str> = lines
                .iter()
                .take(3)
                .map(|l| &l[..l.len().min(80)])
                .collect();
            result = Err(format!("line {n} `{line}`: {e}; got {got:?}"));
            break;
        }
        let (id, ok, first) = transcript::parse_answer_head(&lines[0])?;
        let text = std::iter::once(first)
            .chain(lines[1..].iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join("\n");
        match transcript::command_id(&line, Format::Regress) {
            Some(_) => {
                answers.insert(id.to_string(), (ok, text));
            }
            None if !ok => unnumbered_errors.push(format!("line {n} `{line}`: ?{text}")),
            None => {}
        }
    }
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    let _ = reader.join();
    result.map(|()| (answers, unnumbered_errors))
}

#[test]
fn every_test_file_passes_against_the_binary() {
    let Some(path) = tengen() else { return };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/gtp");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .and_then(Format::of)
                .is_some()
        })
        .collect();
    names.sort();
    assert!(
        names
            .iter()
            .any(|p| p.extension().is_some_and(|e| e == "tst"))
    );
    assert!(
        names
            .iter()
            .any(|p| p.extension().is_some_and(|e| e == "transcript"))
    );
    let mut failures = Vec::new();
    for file in &names {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(file).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let checked = if Format::of(&name) == Some(Format::Regress) {
            // As gogui-regress runs it: in the file's folder, one command at a time.
            regress(&path, &dir, &text)
                .map_err(|e| format!("{name}: {e}"))
                .and_then(|(answers, errors)| {
                    transcript::check_answers(&name, &text, &answers, &errors)
                })
        } else {
            // Relative file names resolve against the file's folder; binary bytes go as written.
            let input = if text.is_ascii() {
                transcript::with_paths_under(&text, &dir).into_bytes()
            } else {
                bytes.clone()
            };
            let extra = transcript::extra_args(&text, Format::Transcript);
            let mut args = vec!["gtp"];
            args.extend_from_slice(FAST);
            args.extend(extra.iter().map(String::as_str));
            transcript::check(&name, &text, &run(&path, &args, &input))
        };
        match checked {
            Ok(report) => println!("{report}"),
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
