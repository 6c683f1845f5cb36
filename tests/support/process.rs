//! Running a program of the tests on pipes, its whole input given at once.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `command` with `input` on its stdin (then closed), stdout and stderr
/// captured. A process that stops early may have closed its input already; what it
/// wrote is still returned.
pub fn run_with_input(command: &mut Command, input: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{command:?} does not start: {e}"));
    // Written from a thread, so that a long answer cannot stall a long input.
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("the process ends");
    let _ = writer.join();
    out
}
