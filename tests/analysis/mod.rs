//! `tengen analysis`, KataGo's JSON analysis protocol, through the real binary: queries
//! and their answers (`protocol`), bad input (`bad_input`), the responses against
//! KataGo's documented shape (`schema`), KaTrain's own engine class driving it
//! (`katrain`), and its throughput against GTP's (`throughput`).

mod bad_input;
mod katrain;
mod protocol;
mod schema;
mod throughput;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The `tengen` binary under test.
pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tengen"))
}

/// A running `tengen analysis`: queries go to its stdin, each stdout line comes back
/// parsed (a line that is not a JSON object fails the test).
pub struct Analysis {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
}

impl Analysis {
    /// Starts `tengen analysis ARGS` (quick, repeatable settings come from the caller).
    pub fn start(args: &[&str]) -> Analysis {
        let mut child = Command::new(binary())
            .arg("analysis")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tengen analysis starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let value: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line:?}"));
                assert!(value.is_object(), "stdout line is not an object: {line}");
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Analysis {
            child,
            stdin,
            lines,
        }
    }

    /// Sends one line as it is.
    pub fn send_raw(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(line).expect("write a query");
        stdin.write_all(b"\n").expect("write a newline");
        stdin.flush().expect("flush");
    }

    /// Sends a query.
    pub fn send(&mut self, query: &Value) {
        self.send_raw(query.to_string().as_bytes());
    }

    /// Closes stdin: the end of the queries.
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// The next response, failing the test after `secs` seconds.
    pub fn next(&self, secs: u64) -> Value {
        match self.lines.recv_timeout(Duration::from_secs(secs)) {
            Ok(v) => v,
            Err(RecvTimeoutError::Timeout) => panic!("no response within {secs} s"),
            Err(RecvTimeoutError::Disconnected) => panic!("stdout closed before a response"),
        }
    }

    /// Responses until one satisfies `done` (included), within `secs` seconds.
    pub fn until(&self, secs: u64, mut done: impl FnMut(&Value) -> bool) -> Vec<Value> {
        let deadline = Instant::now() + Duration::from_secs(secs);
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(v) => {
                    let stop = done(&v);
                    out.push(v);
                    if stop {
                        return out;
                    }
                }
                Err(e) => panic!("{e:?} after {} responses: {:?}", out.len(), out.last()),
            }
        }
    }

    /// `n` final analyses (responses with `isDuringSearch` false), and whatever came
    /// between them, within `secs` seconds.
    pub fn finals(&self, n: usize, secs: u64) -> Vec<Value> {
        let mut seen = 0;
        self.until(secs, |v| {
            seen += usize::from(v["isDuringSearch"] == json!(false));
            seen == n
        })
    }

    /// Closes stdin, then waits for the end: the remaining responses, the exit status's
    /// success and stderr.
    pub fn finish(mut self, secs: u64) -> (Vec<Value>, bool, String) {
        self.close();
        let deadline = Instant::now() + Duration::from_secs(secs);
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(v) => out.push(v),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    panic!("did not end within {secs} s after its input closed");
                }
            }
        }
        let mut stderr = String::new();
        if let Some(mut pipe) = self.child.stderr.take() {
            let _ = pipe.read_to_string(&mut stderr);
        }
        let status = self.child.wait().expect("wait for the process");
        (out, status.success(), stderr)
    }

    /// The process id, to read its memory.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Analysis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A query of `moves` (GTP vertices, Black first) on a `size` board, with `extra`
/// fields added or replacing the defaults.
pub fn query(id: &str, size: u32, moves: &[&str], extra: Value) -> Value {
    let moves: Vec<Value> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| json!([if i % 2 == 0 { "B" } else { "W" }, m]))
        .collect();
    let mut q = json!({
        "id": id, "moves": moves, "rules": "chinese", "komi": 7.5,
        "boardXSize": size, "boardYSize": size, "maxVisits": 30
    });
    if let (Some(q), Value::Object(extra)) = (q.as_object_mut(), extra) {
        q.extend(extra);
    }
    q
}

/// Quick, repeatable settings: two positions at a time, a fixed seed, no notes.
pub const QUICK: &[&str] = &["--threads", "2", "--seed", "5", "--quiet"];
