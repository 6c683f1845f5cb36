//! A small GTP client: drives another engine process the way a GUI or a match runner does.
//!
//! [`GtpClient::spawn`] starts a command line (split like a shell would, without running a
//! shell), [`GtpClient::send`] writes one command with an id and reads the matching
//! `=id`/`?id` response up to its blank line. Every command has a timeout: stdout is read
//! by a thread that passes lines over a channel, so a hung engine cannot hang the caller.
//! stderr is drained by another thread (into a log file if one is given), so the engine
//! never blocks on a full pipe; its last lines are kept to explain a crash. Dropping the
//! client sends `quit`, waits a moment, then kills the process.
//!
//! Only the standard library is used (and `shell-words` to split the command line).

use std::collections::VecDeque;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How many stderr lines are kept to explain a crash.
const STDERR_TAIL: usize = 8;

/// How long [`GtpClient::quit`] waits for the process to exit after `quit`.
const QUIT_GRACE: Duration = Duration::from_millis(1000);

/// How many lines that are not GTP answers [`GtpClient::handshake`] skips before it
/// concludes the program does not speak GTP (a noisy engine writes a line or two).
const HANDSHAKE_JUNK: usize = 100;

/// Longest stdout line kept (a longer one is cut, so junk cannot exhaust memory).
const MAX_LINE: usize = 1 << 20;

/// A response to one command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// `true` for `=`, `false` for `?`.
    pub success: bool,
    /// The text after the status and id, lines joined by `\n`, trimmed.
    pub text: String,
}

/// Why talking to the engine failed. After any of these but [`ClientError::Failure`]
/// the client is broken: later commands fail at once with [`ClientError::Broken`].
#[derive(Debug)]
pub enum ClientError {
    /// The command line is empty or its quoting is unbalanced.
    BadCommandLine(String),
    /// The program could not be started.
    Spawn {
        /// The program as given.
        program: String,
        /// The operating system's error.
        source: io::Error,
    },
    /// No complete answer within the timeout.
    Timeout {
        /// The command sent.
        command: String,
        /// The timeout.
        after: Duration,
    },
    /// The engine's stdout closed (or stdin could not be written) before the answer.
    Closed {
        /// The command sent.
        command: String,
        /// The exit status, if the process has exited.
        status: Option<ExitStatus>,
        /// The last lines the engine wrote to stderr.
        stderr: String,
    },
    /// The program answered [`GtpClient::handshake`] with something no GTP engine
    /// writes: the command itself echoed back (`cat`), or line after line that is not
    /// a GTP answer (one starts with `=` or `?`).
    NotGtp {
        /// The command sent.
        command: String,
        /// The line it printed instead.
        line: String,
    },
    /// The engine answered `?` (only from [`GtpClient::send_ok`]).
    Failure {
        /// The command sent.
        command: String,
        /// The engine's error message.
        message: String,
    },
    /// An earlier error left the connection unusable.
    Broken,
}

impl ClientError {
    /// Whether the engine process has exited (rather than only closing its output).
    pub fn exited(&self) -> bool {
        matches!(
            self,
            ClientError::Closed {
                status: Some(_),
                ..
            }
        )
    }
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::BadCommandLine(s) => write!(f, "bad engine command line {s:?}"),
            ClientError::Spawn { program, source } => {
                write!(f, "cannot start {program:?}: {source}")
            }
            ClientError::Timeout { command, after } => write!(
                f,
                "no answer to {command:?} within {:.1} s",
                after.as_secs_f64()
            ),
            ClientError::Closed {
                command,
                status,
                stderr,
            } => {
                match status {
                    Some(s) => write!(f, "engine exited ({s}) while answering {command:?}")?,
                    None => write!(f, "engine closed its output while answering {command:?}")?,
                }
                if !stderr.is_empty() {
                    write!(f, "; its stderr ended with: {stderr}")?;
                }
                Ok(())
            }
            ClientError::NotGtp { command, line } => write!(
                f,
                "answered {command:?} with {line:?}, which is not a GTP answer \
                 (one starts with `=` or `?`): not a GTP engine?"
            ),
            ClientError::Failure { command, message } => {
                write!(f, "{command:?} failed: {message}")
            }
            ClientError::Broken => f.write_str("the engine connection is already broken"),
        }
    }
}

impl std::error::Error for ClientError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ClientError::Spawn { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// What the stdout reader thread passes on.
enum Event {
    Line(String),
    Eof,
}

/// A running GTP engine process.
pub struct GtpClient {
    program: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// The thread draining stderr; it ends when the process's stderr closes.
    stderr_reader: Option<thread::JoinHandle<()>>,
    next_id: u64,
    broken: bool,
    finished: bool,
}

impl fmt::Debug for GtpClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GtpClient")
            .field("program", &self.program)
            .field("pid", &self.child.id())
            .field("broken", &self.broken)
            .finish()
    }
}

impl GtpClient {
    /// Starts `command_line` (e.g. `gnugo --mode gtp --level 10`; quotes and backslashes
    /// as in a POSIX shell, no shell is run). The engine's stderr goes to `stderr_log`
    /// (appended) if given, else is read and dropped; its last lines are kept either way.
    pub fn spawn(command_line: &str, stderr_log: Option<&Path>) -> Result<GtpClient, ClientError> {
        let words = shell_words::split(command_line)
            .map_err(|_| ClientError::BadCommandLine(command_line.to_string()))?;
        let Some((program, args)) = words.split_first() else {
            return Err(ClientError::BadCommandLine(command_line.to_string()));
        };
        let log = match stderr_log {
            Some(p) => Some(File::options().create(true).append(true).open(p).map_err(
                |source| ClientError::Spawn {
                    program: format!("{program} (stderr log {})", p.display()),
                    source,
                },
            )?),
            None => None,
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|source| ClientError::Spawn {
                program: program.clone(),
                source,
            })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let (tx, lines) = mpsc::channel();
        if let Some(out) = stdout {
            thread::Builder::new()
                .name("gtp-stdout".into())
                .spawn(move || read_stdout(out, tx))
                .map_err(|source| ClientError::Spawn {
                    program: program.clone(),
                    source,
                })?;
        }
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let mut stderr_reader = None;
        if let Some(err) = stderr {
            let tail = Arc::clone(&stderr_tail);
            stderr_reader = Some(
                thread::Builder::new()
                    .name("gtp-stderr".into())
                    .spawn(move || drain_stderr(err, log, tail))
                    .map_err(|source| ClientError::Spawn {
                        program: program.clone(),
                        source,
                    })?,
            );
        }
        Ok(GtpClient {
            program: program.clone(),
            child,
            stdin,
            lines,
            stderr_tail,
            stderr_reader,
            next_id: 1,
            broken: false,
            finished: false,
        })
    }

    /// The program that was started (the first word of the command line).
    pub fn program(&self) -> &str {
        &self.program
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether an earlier error left the connection unusable.
    pub fn is_broken(&self) -> bool {
        self.broken
    }

    /// The last lines the engine wrote to stderr, joined by ` | `.
    pub fn stderr_tail(&self) -> String {
        let tail = self
            .stderr_tail
            .lock()
            .map(|t| t.clone())
            .unwrap_or_default();
        Vec::from(tail).join(" | ")
    }

    /// Sends one command (without id or newline) and waits at most `timeout` for its
    /// response. A `?` answer is `Ok` with `success == false`.
    pub fn send(&mut self, command: &str, timeout: Duration) -> Result<Response, ClientError> {
        self.exchange_unless_broken(command, timeout, false)
    }

    /// Sends the first command of a session, which tells whether the program speaks
    /// GTP at all. Like [`GtpClient::send`], but where `send` skips lines that are not
    /// GTP answers until the timeout, this fails at once with [`ClientError::NotGtp`]
    /// when such a line echoes the command (`cat`) or when more than a hundred of them
    /// come; a junk line or two before the answer (noisy engines) is still skipped.
    pub fn handshake(&mut self, command: &str, timeout: Duration) -> Result<Response, ClientError> {
        self.exchange_unless_broken(command, timeout, true)
    }

    /// [`GtpClient::exchange`] on a session that is not broken; one that fails breaks
    /// the session, whose later commands then fail at once with [`ClientError::Broken`].
    fn exchange_unless_broken(
        &mut self,
        command: &str,
        timeout: Duration,
        strict: bool,
    ) -> Result<Response, ClientError> {
        if self.broken {
            return Err(ClientError::Broken);
        }
        let result = self.exchange(command, timeout, strict);
        if result.is_err() {
            self.broken = true;
        }
        result
    }

    /// Like [`GtpClient::send`], but a `?` answer is [`ClientError::Failure`]; returns the
    /// response text.
    pub fn send_ok(&mut self, command: &str, timeout: Duration) -> Result<String, ClientError> {
        let r = self.send(command, timeout)?;
        if r.success {
            Ok(r.text)
        } else {
            Err(ClientError::Failure {
                command: command.to_string(),
                message: r.text,
            })
        }
    }

    /// Writes `command` and reads its answer. Lines before the answer that are not GTP
    /// are skipped as junk; with `strict` (the handshake), one that echoes the command,
    /// or more than `HANDSHAKE_JUNK` of them, is [`ClientError::NotGtp`] at once.
    fn exchange(
        &mut self,
        command: &str,
        timeout: Duration,
        strict: bool,
    ) -> Result<Response, ClientError> {
        let id = self.next_id;
        self.next_id += 1;
        let deadline = Instant::now() + timeout;
        let line = format!("{id} {}\n", command.trim());
        let written = match self.stdin.as_mut() {
            Some(w) => w.write_all(line.as_bytes()).and_then(|()| w.flush()),
            None => Err(io::Error::from(io::ErrorKind::BrokenPipe)),
        };
        if written.is_err() {
            return Err(self.closed(command));
        }
        // Lines before the answer that are not GTP (tolerated, within limits, in `strict`).
        let mut junk_lines = 0;
        // Lines of the response being read: `None` until its first line arrives.
        let mut response: Option<(bool, Option<u64>, Vec<String>)> = None;
        loop {
            let now = Instant::now();
            let event = match self
                .lines
                .recv_timeout(deadline.saturating_duration_since(now))
            {
                Ok(e) => e,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(ClientError::Timeout {
                        command: command.to_string(),
                        after: timeout,
                    });
                }
                Err(RecvTimeoutError::Disconnected) => Event::Eof,
            };
            let text = match event {
                Event::Line(t) => t,
                Event::Eof => return Err(self.closed(command)),
            };
            match response.as_mut() {
                None => {
                    let Some((success, rid, rest)) = parse_status(&text) else {
                        let junk = text.trim();
                        if strict && !junk.is_empty() {
                            junk_lines += 1;
                            if junk == line.trim() || junk == command.trim() {
                                return Err(self.not_gtp(command, junk));
                            }
                            if junk_lines > HANDSHAKE_JUNK {
                                return Err(self.not_gtp(command, junk));
                            }
                        }
                        continue; // not a response line: junk before the answer
                    };
                    response = Some((success, rid, vec![rest.to_string()]));
                }
                Some((success, rid, body)) => {
                    if text.trim().is_empty() {
                        if rid.is_none_or(|r| r == id) {
                            let joined = body.join("\n");
                            return Ok(Response {
                                success: *success,
                                text: joined.trim().to_string(),
                            });
                        }
                        // A late answer to an earlier command: skip it.
                        response = None;
                    } else {
                        body.push(text);
                    }
                }
            }
        }
    }

    fn not_gtp(&self, command: &str, line: &str) -> ClientError {
        ClientError::NotGtp {
            command: command.to_string(),
            line: line.to_string(),
        }
    }

    fn closed(&mut self, command: &str) -> ClientError {
        self.stdin = None;
        // Give a dying process a moment so its exit status can be reported.
        let mut status = None;
        for _ in 0..20 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                self.finished = true;
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
        // And let the stderr reader catch up with its last words (bounded: a child it
        // started may hold the pipe open).
        if let Some(reader) = &self.stderr_reader {
            for _ in 0..50 {
                if reader.is_finished() {
                    break;
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
        ClientError::Closed {
            command: command.to_string(),
            status,
            stderr: self.stderr_tail(),
        }
    }

    /// Sends `quit` (if the connection still works), waits briefly for the process to
    /// exit, then kills it. Called by `drop`.
    pub fn quit(&mut self) {
        if self.finished {
            return;
        }
        if !self.broken {
            let _ = self.send("quit", QUIT_GRACE);
        }
        self.stdin = None;
        let deadline = Instant::now() + QUIT_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if Instant::now() < deadline && !self.broken => {
                    thread::sleep(Duration::from_millis(5));
                }
                _ => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    break;
                }
            }
        }
        self.finished = true;
    }
}

impl Drop for GtpClient {
    fn drop(&mut self) {
        self.quit();
    }
}

/// Splits a response's first line into status, id and the rest; `None` if the line does
/// not start with `=` or `?`.
fn parse_status(line: &str) -> Option<(bool, Option<u64>, &str)> {
    let success = match line.as_bytes().first()? {
        b'=' => true,
        b'?' => false,
        _ => return None,
    };
    let rest = &line[1..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let id = if digits > 0 {
        rest[..digits].parse().ok()
    } else {
        None
    };
    Some((success, id, rest[digits..].trim()))
}

/// Calls `each` with every line read from `input` (with its end of line; a line longer
/// than `MAX_LINE` comes in pieces) until end of file, a read error, or `each` returns
/// false.
fn for_each_line(input: impl Read, mut each: impl FnMut(&[u8]) -> bool) {
    let mut reader = BufReader::new(input);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut reader)
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if !each(&buf) {
                    return;
                }
            }
        }
    }
}

/// Reads stdout line by line (control characters but tabs removed) until end of file.
fn read_stdout(out: impl Read, tx: mpsc::Sender<Event>) {
    for_each_line(out, |line| {
        let text: String = String::from_utf8_lossy(line)
            .chars()
            .filter(|&c| c == '\t' || !c.is_control())
            .collect();
        tx.send(Event::Line(text)).is_ok()
    });
    let _ = tx.send(Event::Eof);
}

/// Reads stderr until end of file, copying it to the log and keeping the last lines.
fn drain_stderr(err: impl Read, mut log: Option<File>, tail: Arc<Mutex<VecDeque<String>>>) {
    for_each_line(err, |raw| {
        if log.as_mut().is_some_and(|f| f.write_all(raw).is_err()) {
            log = None;
        }
        let line = String::from_utf8_lossy(raw).trim().to_string();
        if !line.is_empty() {
            if let Ok(mut t) = tail.lock() {
                if t.len() == STDERR_TAIL {
                    t.pop_front();
                }
                t.push_back(line);
            }
        }
        true
    });
    if let Some(mut f) = log {
        let _ = f.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_lines() {
        assert_eq!(parse_status("=12 D4"), Some((true, Some(12), "D4")));
        assert_eq!(parse_status("= "), Some((true, None, "")));
        assert_eq!(
            parse_status("?3 illegal move"),
            Some((false, Some(3), "illegal move"))
        );
        assert_eq!(parse_status("info move D4"), None);
        assert_eq!(parse_status(""), None);
    }

    fn sh(script: &str) -> String {
        format!("sh -c {}", shell_words::quote(script))
    }

    #[test]
    fn talks_to_a_shell_engine() {
        // Answers every command with its id, after a junk line; `boom` exits.
        let script = r#"while read id cmd rest; do
            echo "junk line"; echo "first" >&2
            case "$cmd" in
              boom) exit 3;;
              bad) printf '?%s nope\n\n' "$id";;
              slow) sleep 5;;
              multi) printf '=%s a\nb\n\n' "$id";;
              *) printf '=%s %s\n\n' "$id" "$cmd";;
            esac
          done"#;
        let mut c = GtpClient::spawn(&sh(script), None).unwrap();
        let t = Duration::from_secs(5);
        assert_eq!(c.send_ok("name", t).unwrap(), "name");
        assert_eq!(c.send_ok("multi", t).unwrap(), "a\nb");
        let r = c.send("bad", t).unwrap();
        assert!(!r.success && r.text == "nope");
        assert!(matches!(
            c.send_ok("bad", t),
            Err(ClientError::Failure { .. })
        ));
        assert!(!c.is_broken());
        let e = c.send("boom", t).unwrap_err();
        assert!(e.exited(), "{e}");
        assert!(e.to_string().contains("first"), "{e}");
        assert!(matches!(c.send("name", t), Err(ClientError::Broken)));
    }

    #[test]
    fn handshake_refuses_a_program_that_is_not_gtp_at_once() {
        let t = Duration::from_secs(20);
        let start = Instant::now();
        let mut c = GtpClient::spawn("cat", None).unwrap();
        let e = c.handshake("protocol_version", t).unwrap_err();
        assert!(
            matches!(e, ClientError::NotGtp { ref line, .. } if line == "1 protocol_version"),
            "{e}"
        );
        assert!(c.is_broken());
        let mut c = GtpClient::spawn("true", None).unwrap();
        let e = c.handshake("protocol_version", t).unwrap_err();
        assert!(matches!(e, ClientError::Closed { .. }), "{e}");
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{:?}",
            start.elapsed()
        );
        // A program that writes line after line of something else.
        let mut c = GtpClient::spawn("yes", None).unwrap();
        let e = c.handshake("protocol_version", t).unwrap_err();
        assert!(
            matches!(e, ClientError::NotGtp { ref line, .. } if line == "y"),
            "{e}"
        );
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{:?}",
            start.elapsed()
        );
        // A blank line and a junk line before the answer are no reason to refuse.
        let script = r#"read id cmd; printf '\nbanner\n=%s 2\n\n' "$id"; sleep 1"#;
        let mut c = GtpClient::spawn(&sh(script), None).unwrap();
        assert_eq!(c.handshake("protocol_version", t).unwrap().text, "2");
    }

    #[test]
    fn timeout_does_not_hang() {
        let mut c = GtpClient::spawn(&sh("read line; sleep 30"), None).unwrap();
        let start = Instant::now();
        let e = c.send("genmove b", Duration::from_millis(200)).unwrap_err();
        assert!(matches!(e, ClientError::Timeout { .. }), "{e}");
        drop(c);
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn missing_program_and_bad_quoting() {
        let e = GtpClient::spawn("/nonexistent/engine --gtp", None).unwrap_err();
        assert!(e.to_string().contains("/nonexistent/engine"), "{e}");
        assert!(matches!(
            GtpClient::spawn("engine 'unclosed", None),
            Err(ClientError::BadCommandLine(_))
        ));
        assert!(matches!(
            GtpClient::spawn("   ", None),
            Err(ClientError::BadCommandLine(_))
        ));
    }
}
