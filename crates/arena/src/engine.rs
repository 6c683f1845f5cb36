//! A GTP player: one engine process driven through [`crate::client::GtpClient`],
//! with the commands a match needs and every failure classified as a [`Fault`].

use std::collections::HashSet;
use std::fmt;
use std::path::Path;
use std::time::Duration;

use crate::client::{ClientError, GtpClient};
use tengen_board::{BoardSize, Color};

use crate::timecontrol::{self, TimeControl, settings_command};

/// How an engine failed a command; in a game it is a loss for that engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process could not be started.
    Start(String),
    /// The process exited.
    Crash(String),
    /// Its output closed while it was still running.
    Closed(String),
    /// No answer within the time allowed.
    Timeout(String),
    /// It answered `?` to a command it had to accept.
    Refused(String),
    /// Its answer made no sense.
    Protocol(String),
}

impl Fault {
    /// The journal's reason keyword.
    pub fn reason(&self) -> &'static str {
        match self {
            Fault::Start(_) => "start",
            Fault::Crash(_) => "crash",
            Fault::Closed(_) => "closed",
            Fault::Timeout(_) => "timeout",
            Fault::Refused(_) => "rejected",
            Fault::Protocol(_) => "protocol",
        }
    }

    /// The detail text.
    pub fn detail(&self) -> &str {
        match self {
            Fault::Start(s)
            | Fault::Crash(s)
            | Fault::Closed(s)
            | Fault::Timeout(s)
            | Fault::Refused(s)
            | Fault::Protocol(s) => s,
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.reason(), self.detail())
    }
}

impl From<ClientError> for Fault {
    fn from(e: ClientError) -> Fault {
        let text = e.to_string();
        match e {
            ClientError::BadCommandLine(_) | ClientError::Spawn { .. } => Fault::Start(text),
            ClientError::Timeout { .. } => Fault::Timeout(text),
            ClientError::Closed {
                status: Some(_), ..
            } => Fault::Crash(text),
            ClientError::Closed { status: None, .. } | ClientError::Broken => Fault::Closed(text),
            ClientError::Failure { .. } => Fault::Refused(text),
            ClientError::NotGtp { .. } => Fault::Protocol(text),
        }
    }
}

/// What `genmove` answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A board move (a point or a pass).
    Move(tengen_board::Move),
    /// `resign`.
    Resign,
}

/// Reads a `genmove` answer: a vertex, `pass` or `resign`, any case.
pub fn parse_reply(size: BoardSize, text: &str) -> Result<Reply, Fault> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("resign") {
        return Ok(Reply::Resign);
    }
    size.parse_move(t)
        .map(Reply::Move)
        .map_err(|e| Fault::Protocol(format!("genmove answered {t:?}: {e}")))
}

/// A running engine.
#[derive(Debug)]
pub struct Player {
    client: GtpClient,
    known: HashSet<String>,
    timeout: Duration,
    /// Whether this game's clock was told by `kata-time_settings`: such an engine
    /// reads fractions of a second in `time_left` too.
    fractions: bool,
}

/// What an engine says about itself at start-up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Identity {
    /// The `name` answer (empty if it failed).
    pub name: String,
    /// The `version` answer (empty if it failed).
    pub version: String,
}

impl Player {
    /// Starts `command` and checks that it speaks GTP: `protocol_version` must be
    /// answered within `timeout`, and a first line that is not a GTP answer, or an
    /// exit, fails at once; `list_commands` tells the optional commands.
    pub fn start(
        command: &str,
        stderr_log: Option<&Path>,
        timeout: Duration,
    ) -> Result<Player, Fault> {
        let mut client = GtpClient::spawn(command, stderr_log)?;
        match client.handshake("protocol_version", timeout) {
            Ok(_) => {}
            Err(ClientError::Timeout { after, .. }) => {
                return Err(Fault::Timeout(format!(
                    "never answered protocol_version (waited {:.1} s): not a GTP engine?",
                    after.as_secs_f64()
                )));
            }
            Err(e) => return Err(e.into()),
        }
        let known = match client.send("list_commands", timeout)? {
            r if r.success => r.text.lines().map(|l| l.trim().to_string()).collect(),
            _ => HashSet::new(),
        };
        Ok(Player {
            client,
            known,
            timeout,
            fractions: false,
        })
    }

    /// `name` and `version` (empty strings where the engine does not answer them).
    pub fn identity(&mut self) -> Result<Identity, Fault> {
        let mut ask = |cmd: &str| -> Result<String, Fault> {
            let r = self.client.send(cmd, self.timeout)?;
            Ok(if r.success { r.text } else { String::new() })
        };
        Ok(Identity {
            name: ask("name")?,
            version: ask("version")?,
        })
    }

    /// Sets the timeout of every command but `genmove`.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// Whether `list_commands` named `cmd`.
    pub fn knows(&self, cmd: &str) -> bool {
        self.known.contains(cmd)
    }

    /// Sends a command that must succeed.
    fn must(&mut self, cmd: &str) -> Result<String, Fault> {
        Ok(self.client.send_ok(cmd, self.timeout)?)
    }

    /// Sends a command whose failure is tolerated (an optional setting); only a broken
    /// connection is a fault.
    fn may(&mut self, cmd: &str) -> Result<bool, Fault> {
        Ok(self.client.send(cmd, self.timeout)?.success)
    }

    /// Sets up a new game: `boardsize`, `clear_board`, `komi`, the rules (`kgs-rules` if
    /// known) and the time control (`kata-time_settings` for Fischer if known and
    /// accepted, else `kgs-time_settings` if known, else `time_settings`). Returns why
    /// the engine could not be told the rules, if it could not (it then plays by its
    /// own).
    pub fn new_game(
        &mut self,
        size: BoardSize,
        komi: f64,
        rules_name: &str,
        time: Option<&TimeControl>,
    ) -> Result<Option<String>, Fault> {
        let n = size.get();
        self.client
            .send_ok(&format!("boardsize {n}"), self.timeout)
            .map_err(|e| match e {
                ClientError::Failure { message, .. } => {
                    Fault::Refused(format!("refused board size {n}: {message}"))
                }
                other => other.into(),
            })?;
        self.must("clear_board")?;
        self.must(&format!("komi {komi}"))?;
        let untold = if !self.knows("kgs-rules") {
            Some("it does not know kgs-rules".to_string())
        } else {
            let cmd = format!("kgs-rules {rules_name}");
            let answer = self.client.send(&cmd, self.timeout)?;
            (!answer.success).then(|| format!("it refused `{cmd}`: {}", answer.text.trim()))
        };
        if let Some(tc) = time {
            // Fischer in KataGo's words; an engine that refuses them hears the fallback.
            let told = match timecontrol::kata_settings_command(tc) {
                Some(cmd) if self.knows("kata-time_settings") => self.may(&cmd)?,
                _ => false,
            };
            self.fractions = told;
            if !told {
                if self.knows("kgs-time_settings") {
                    self.may(&settings_command(tc, true))?;
                } else if self.knows("time_settings") {
                    self.may(&settings_command(tc, false))?;
                }
            }
        }
        Ok(untold)
    }

    /// `fixed_handicap n`, answering the stones' vertices.
    pub fn fixed_handicap(&mut self, n: u32) -> Result<String, Fault> {
        self.must(&format!("fixed_handicap {n}"))
    }

    /// `set_free_handicap` with these vertices.
    pub fn set_free_handicap(&mut self, vertices: &str) -> Result<(), Fault> {
        self.must(&format!("set_free_handicap {vertices}"))
            .map(drop)
    }

    /// Tells the engine the opponent's (or an opening's) move.
    pub fn play(&mut self, c: Color, vertex: &str) -> Result<(), Fault> {
        let cmd = format!("play {} {vertex}", c.letter());
        match self.client.send(&cmd, self.timeout)? {
            r if r.success => Ok(()),
            r => Err(Fault::Refused(format!(
                "refused the legal move {cmd:?}: {}",
                r.text
            ))),
        }
    }

    /// Sends `time_left` if the engine knows it: the time in whole seconds, as GTP
    /// has it, or to the millisecond for an engine told its clock by
    /// `kata-time_settings` (whose increments may be fractions of a second: a clock at
    /// 0.9 s would read as none).
    pub fn time_left(&mut self, c: Color, left: Duration, stones: u32) -> Result<(), Fault> {
        if self.knows("time_left") {
            let secs = if self.fractions {
                format!("{:.3}", left.as_secs_f64())
            } else {
                left.as_secs().to_string()
            };
            self.may(&format!("time_left {} {secs} {stones}", c.letter()))?;
        }
        Ok(())
    }

    /// Asks for a move (`kgs-genmove_cleanup` in clean-up play), waiting at most
    /// `timeout`; returns the raw answer.
    pub fn genmove(&mut self, c: Color, cleanup: bool, timeout: Duration) -> Result<String, Fault> {
        let cmd = if cleanup {
            "kgs-genmove_cleanup"
        } else {
            "genmove"
        };
        let cmd = format!("{cmd} {}", c.letter());
        match self.client.send(&cmd, timeout)? {
            r if r.success => Ok(r.text),
            r => Err(Fault::Refused(format!("{cmd:?} failed: {}", r.text))),
        }
    }

    /// `final_status_list <status>` as vertex words, if the engine knows the command and
    /// answers it; `None` otherwise.
    pub fn final_status_list(&mut self, status: &str) -> Result<Option<Vec<String>>, Fault> {
        if !self.knows("final_status_list") {
            return Ok(None);
        }
        let r = self
            .client
            .send(&format!("final_status_list {status}"), self.timeout)?;
        Ok(r.success
            .then(|| r.text.split_whitespace().map(str::to_string).collect()))
    }

    /// The engine's last stderr lines.
    pub fn stderr_tail(&self) -> String {
        self.client.stderr_tail()
    }

    /// Ends the engine: `quit`, then kill if it lingers.
    pub fn quit(mut self) {
        self.client.quit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// Starts `command` with a long start-up timeout and returns the fault and how long
    /// it took to come.
    fn start_fails(command: &str) -> (Fault, Duration) {
        let t = Instant::now();
        let fault = Player::start(command, None, Duration::from_secs(20)).unwrap_err();
        (fault, t.elapsed())
    }

    #[test]
    fn a_program_that_echoes_its_input_is_refused_at_once() {
        let (fault, took) = start_fails("cat");
        assert!(matches!(fault, Fault::Protocol(_)), "{fault}");
        assert!(fault.detail().contains("not a GTP answer"), "{fault}");
        assert!(took < Duration::from_secs(2), "took {took:?}");
    }

    #[test]
    fn a_program_that_exits_at_once_is_refused_at_once() {
        let (fault, took) = start_fails("true");
        assert!(
            matches!(fault, Fault::Crash(_) | Fault::Closed(_)),
            "{fault}"
        );
        assert!(took < Duration::from_secs(2), "took {took:?}");
    }
}
