//! One `tengen gtp` process on pipes, for the tests that drive whole games through the
//! binary (`memory.rs`, `selfplay.rs`).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// Starts `path ARGS` on pipes, stderr discarded: the process, its stdin and its
/// stdout.
pub(super) fn spawn(path: &Path, args: &[&str]) -> (Child, ChildStdin, BufReader<ChildStdout>) {
    let mut child = Command::new(path)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{} does not start: {e}", path.display()));
    let stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    (child, stdin, stdout)
}

/// A running engine; dropping it sends `quit` and waits for the process.
pub(super) struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    /// Starts `path gtp ARGS`, stderr discarded.
    pub(super) fn start(path: &Path, args: &[&str]) -> Engine {
        let (child, stdin, stdout) = spawn(path, &[&["gtp"], args].concat());
        Engine {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends one command and reads its answer (up to the blank line): success and text.
    pub(super) fn send(&mut self, command: &str) -> (bool, String) {
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
        let mut text = String::new();
        let mut first = true;
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "engine died after {command}"
            );
            let line = line.trim_end_matches('\n');
            if line.is_empty() {
                break;
            }
            if !first {
                text.push('\n');
            }
            first = false;
            text.push_str(line);
        }
        let ok = text.starts_with('=');
        (ok, text[1..].trim().to_string())
    }

    /// The process id.
    pub(super) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// [`Engine::send`] for a command that must succeed: the answer's text.
    pub(super) fn ok(&mut self, command: &str) -> String {
        let (ok, text) = self.send(command);
        assert!(ok, "{command}: ?{text}");
        text
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}
