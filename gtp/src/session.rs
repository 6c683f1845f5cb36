//! A GTP session: the game, the engine, the clocks and the settings, and the loop that
//! reads commands and writes answers.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::Instant;

use tengen_board::sgf::GameInfo;
use tengen_board::{BoardSize, Color, Game, Rules};
use tengen_engine::Config;
use tengen_engine::time::Timekeeper;

use tengen_board::Hash;
use tengen_engine::{Engine, Judgement, Limit};

use crate::args::Args;
use crate::commands;
use crate::error::GtpError;
use crate::input::{Event, Signals, classify, spawn_reader};
use crate::protocol::{self, parse_request};

/// Settings of a session that are not engine settings.
#[derive(Clone, Debug)]
pub struct SessionOptions {
    /// Rules (and komi) of every new game, and of a loaded record where it names
    /// none, until `komi` or `kgs-rules` changes them.
    pub rules: Rules,
    /// Board size before the first `boardsize`.
    pub size: BoardSize,
    /// Silence the per-move diagnostics on stderr.
    pub quiet: bool,
    /// What `version` answers: [`crate::VERSION`] by default; the binary adds the
    /// commit it was built from.
    pub version: &'static str,
    /// Write gtp2ogs's `MALKOVICH:` line on stderr for every move (`--ogs-pv`).
    pub ogs_pv: bool,
    /// Play as KGS's bots do (`--kgs`): pass second under area scoring.
    pub kgs: bool,
}

impl Default for SessionOptions {
    fn default() -> SessionOptions {
        SessionOptions {
            rules: Rules::chinese(),
            size: BoardSize::NINETEEN,
            quiet: false,
            version: crate::VERSION,
            ogs_pv: false,
            kgs: false,
        }
    }
}

/// The engine side of a GTP conversation. Feed it lines with [`Session::run`] (a
/// reader thread lets a running search see new input) or one at a time with
/// [`Session::handle_line`].
pub struct Session {
    pub(crate) game: Game,
    /// Players, comments and so on of a loaded record, written back by `printsgf`.
    pub(crate) info: GameInfo,
    pub(crate) engine: Engine,
    /// The time control, the clocks and every decision about a move's time.
    pub(crate) timekeeper: Timekeeper,
    pub(crate) options: SessionOptions,
    /// The engine's verdict on the stones of one position (see `handlers::scoring`).
    pub(crate) status_cache: Option<((Hash, usize, Color, Rules), Judgement)>,
    /// The opponent a bot server named (CGOS), across games.
    pub(crate) opponent: crate::handlers::bots::Opponent,
    log: Box<dyn Write + Send>,
    pub(crate) quit: bool,
    /// Set after our move: ponder (if configured) until the next input.
    pub(crate) ponder_next: bool,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("size", &self.game.size())
            .field("moves", &self.game.move_count())
            .field("time", &self.timekeeper.control())
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// What a handler gets besides the session and its arguments: the output (for streamed
/// answers), the input signals (to stop a search) and the command's id.
pub(crate) struct Ctx<'a> {
    out: &'a mut dyn Write,
    pub(crate) signals: &'a Signals,
    id: Option<&'a str>,
    /// When the command's line was read: a move's time runs from here.
    pub(crate) read_at: Instant,
    started: bool,
    io_error: Option<io::Error>,
}

impl Ctx<'_> {
    /// Starts a streamed answer (`=id` on its own line). After this the command can no
    /// longer fail; what the handler returns becomes the last line.
    pub(crate) fn start_stream(&mut self) {
        if !self.started {
            self.started = true;
            let r = protocol::write_stream_start(self.out, self.id);
            self.note(r);
        }
    }

    /// One line of a streamed answer.
    pub(crate) fn stream_line(&mut self, line: &str) {
        if self.io_error.is_none() {
            let r = protocol::write_stream_line(self.out, line);
            self.note(r);
        }
    }

    fn note(&mut self, r: io::Result<()>) {
        if let Err(e) = r {
            self.io_error.get_or_insert(e);
        }
    }
}

impl Session {
    /// A session with a fresh game of `options.size` under `options.rules`.
    pub fn new(config: Config, options: SessionOptions) -> Session {
        Session::with_engine(Engine::new(config), options)
    }

    /// A session that plays with `engine` (e.g. one built on another move table), with
    /// a fresh game of `options.size` under `options.rules`.
    pub fn with_engine(engine: Engine, options: SessionOptions) -> Session {
        Session {
            game: Game::new(options.size, options.rules),
            info: GameInfo::default(),
            engine,
            timekeeper: Timekeeper::default(),
            options,
            status_cache: None,
            opponent: Default::default(),
            log: Box::new(io::stderr()),
            quit: false,
            ponder_next: false,
        }
    }

    /// Sends diagnostics somewhere other than stderr (tests use a buffer).
    pub fn set_log(&mut self, log: Box<dyn Write + Send>) {
        self.log = log;
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The engine settings.
    pub fn config(&self) -> &Config {
        self.engine.config()
    }

    /// Whether `quit` has been answered.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// Writes one diagnostic line to the log unless the session is quiet.
    pub(crate) fn diag(&mut self, line: &str) {
        if !self.options.quiet {
            let _ = writeln!(self.log, "{line}");
            let _ = self.log.flush();
        }
    }

    /// Writes a warning about the user's input to the log, even when the session is
    /// quiet (`loadsgf` of a flawed record).
    pub(crate) fn warn(&mut self, line: &str) {
        let _ = writeln!(self.log, "{line}");
        let _ = self.log.flush();
    }

    /// Starts a new game of this size under the session's rules (a loaded record's own
    /// rules and komi last only for its game): the engine forgets its tree and the
    /// clocks restart.
    pub(crate) fn new_game(&mut self, size: BoardSize) {
        self.game = Game::new(size, self.options.rules);
        self.info = GameInfo::default();
        self.timekeeper.restart();
        self.forget();
    }

    /// Replaces the game with a loaded one.
    pub(crate) fn load(&mut self, game: Game, info: GameInfo) {
        self.game = game;
        self.info = info;
        self.timekeeper.restart();
        self.forget();
    }

    /// Drops whatever the engine remembers of earlier positions.
    pub(crate) fn forget(&mut self) {
        self.engine.clear();
        self.status_cache = None;
    }

    /// Reads commands from `input` until `quit` or end of input, answering on `output`.
    /// A reader thread queues the lines, so a search or analysis in progress sees new
    /// input: any line ends an analysis stream, `# interrupt` ends a move search; the
    /// interrupted command still gets its one answer, then the next line is served.
    pub fn run<R, W>(&mut self, input: R, mut output: W) -> io::Result<()>
    where
        R: BufRead + Send + 'static,
        W: Write,
    {
        let signals = Arc::new(Signals::default());
        let events = spawn_reader(input, Arc::clone(&signals));
        while let Ok((event, read_at)) = events.recv() {
            signals.taken(&event);
            if !self.serve(event, read_at, &mut output, &signals)? {
                break;
            }
            if std::mem::take(&mut self.ponder_next) && self.engine.config().ponder {
                self.ponder(&signals);
            }
        }
        output.flush()
    }

    /// Thinks on the opponent's time until the next input line arrives; the tree is
    /// kept for the next move (the engine reuses it when the game only added moves).
    fn ponder(&mut self, signals: &Signals) {
        if signals.input_pending() || self.game.is_over() {
            return;
        }
        let stop = signals.arm_input();
        let color = self.game.to_move();
        let mut ignore = |_: &tengen_engine::Analysis| {};
        let report = tengen_engine::Report {
            interval: std::time::Duration::from_secs(3600),
            sink: &mut ignore,
            extras: Default::default(),
        };
        let req = tengen_engine::SearchRequest::new(&self.game, color, Limit::Infinite, stop)
            .pondering()
            .report(Some(report));
        let a = self.engine.search(req);
        self.diag(&crate::summary::ponder_summary(&a));
    }

    /// Answers one raw input line (any bytes; a trailing newline is optional) without a
    /// reader thread. Analysis streams stop at their first check, as if the next
    /// command were already waiting. Returns `false` once `quit` has been answered.
    pub fn handle_line(&mut self, raw: &[u8], output: &mut dyn Write) -> io::Result<bool> {
        let raw = raw.strip_suffix(b"\n").unwrap_or(raw);
        let event = if raw.len() > crate::input::MAX_LINE {
            Event::TooLong(protocol::leading_id(raw))
        } else {
            classify(raw)
        };
        self.serve(event, Instant::now(), output, &Signals::detached())
    }

    /// Answers one event; `read_at` is when its line was read.
    fn serve(
        &mut self,
        event: Event,
        read_at: Instant,
        out: &mut dyn Write,
        signals: &Signals,
    ) -> io::Result<bool> {
        let read_at = self.timekeeper.command_start(read_at);
        let result = match event {
            Event::Line(line) => self.dispatch(&line, read_at, out, signals),
            Event::TooLong(id) => {
                let e = GtpError::syntax("line too long");
                protocol::write_answer(out, id.as_deref(), false, &e.to_string())?;
                Ok(true)
            }
            Event::Interrupt | Event::Blank => Ok(true),
            Event::Eof => Ok(false),
        };
        self.timekeeper.answered(Instant::now());
        result
    }

    /// Runs one cleaned command line and writes its answer.
    fn dispatch(
        &mut self,
        line: &str,
        read_at: Instant,
        out: &mut dyn Write,
        signals: &Signals,
    ) -> io::Result<bool> {
        let Some(request) = parse_request(line) else {
            return Ok(true);
        };
        let id = request.id;
        let Some(command) = (!request.name.is_empty())
            .then(|| commands::lookup(request.name))
            .flatten()
        else {
            let e = if request.name.is_empty() {
                GtpError::syntax("missing command name")
            } else {
                GtpError::UnknownCommand
            };
            protocol::write_answer(out, id, false, &e.to_string())?;
            return Ok(true);
        };
        let mut args = Args::new(request.args);
        let mut ctx = Ctx {
            out,
            signals,
            id,
            read_at,
            started: false,
            io_error: None,
        };
        let result = (command.run)(self, &mut args, &mut ctx);
        if let Some(e) = ctx.io_error.take() {
            return Err(e);
        }
        if ctx.started {
            let last = match result {
                Ok(text) => text,
                Err(e) => e.to_string(),
            };
            protocol::write_stream_end(ctx.out, &last)?;
        } else {
            match result {
                Ok(text) => protocol::write_answer(ctx.out, id, true, &text)?,
                Err(e) => protocol::write_answer(ctx.out, id, false, &e.to_string())?,
            }
        }
        Ok(!self.quit)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::time::Duration;

    use super::*;

    /// A session of the unit tests on a `size`×`size` board, its log dropped.
    pub(crate) fn quiet_session(size: u32, config: Config) -> Session {
        let options = SessionOptions {
            quiet: true,
            size: BoardSize::new(size).unwrap(),
            ..SessionOptions::default()
        };
        let mut s = Session::new(config, options);
        s.set_log(Box::new(io::sink()));
        s
    }

    fn quick() -> Session {
        let config = Config {
            threads: 1,
            default_move_time: Duration::from_millis(200),
            ..Config::default()
        };
        quiet_session(9, config)
    }

    /// The session's answer to one line, framing included.
    pub(crate) fn send(s: &mut Session, line: &str) -> String {
        let mut out = Vec::new();
        s.handle_line(line.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// The limits the session's timekeeper gives the next move of `color`.
    pub(crate) fn move_limit(
        s: &Session,
        color: Color,
    ) -> (Limit, Option<tengen_engine::MoveBudget>) {
        s.timekeeper.move_limit(s.engine.config(), &s.game, color)
    }

    #[test]
    fn a_move_counts_the_time_its_line_waited() {
        let mut s = quick();
        send(&mut s, "kgs-time_settings byoyomi 0 1 1");
        std::thread::sleep(Duration::from_millis(750));
        // The line was read 700 ms before the session took it, after the last answer
        // (a ponder search stopping, a starved process): 300 ms of the period are
        // left, less the margin, where a move that started its clock late would
        // think 850 ms.
        let read_at = Instant::now() - Duration::from_millis(700);
        let mut out = Vec::new();
        let line = Event::Line("genmove b".into());
        let started = Instant::now();
        s.serve(line, read_at, &mut out, &Signals::detached())
            .unwrap();
        let searched = started.elapsed();
        assert!(String::from_utf8(out).unwrap().starts_with("= "));
        assert!(searched < Duration::from_millis(600), "{searched:?}");
    }

    #[test]
    fn a_line_queued_behind_a_move_starts_its_clock_at_that_answer() {
        // A controller that pipes two genmoves at once: the second was read at once,
        // but its clock runs from the first one's answer, so it too thinks most of
        // its period instead of finding it spent.
        let mut s = quick();
        let input = "kgs-time_settings byoyomi 0 1 1\ngenmove b\ngenmove w\n";
        let mut out = Vec::new();
        s.run(io::Cursor::new(input.as_bytes().to_vec()), &mut out)
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.matches("= ").count(), 2, "{text}");
        let second = s.engine.last_analysis().expect("the second move searched");
        assert_eq!(second.color, Color::White);
        assert!(
            second.elapsed > Duration::from_millis(400),
            "the second move searched only {:?}",
            second.elapsed
        );
    }

    #[test]
    fn genmove_charges_our_clock_until_time_left_corrects_it() {
        let mut s = quick();
        send(&mut s, "time_settings 60 0 0");
        assert_eq!(
            s.timekeeper.clock(Color::Black).time_left,
            Duration::from_secs(60)
        );
        assert!(send(&mut s, "genmove b").starts_with("= "));
        let left = s.timekeeper.clock(Color::Black).time_left;
        assert!(
            left < Duration::from_secs(60) && left > Duration::from_secs(50),
            "{left:?}"
        );
        assert_eq!(
            s.timekeeper.clock(Color::White).time_left,
            Duration::from_secs(60)
        );
        send(&mut s, "time_left b 42 0");
        assert_eq!(
            s.timekeeper.clock(Color::Black).time_left,
            Duration::from_secs(42)
        );
        // A new game restarts the clocks.
        send(&mut s, "clear_board");
        assert_eq!(
            s.timekeeper.clock(Color::Black).time_left,
            Duration::from_secs(60)
        );
    }

    #[test]
    fn limits_follow_playouts_then_clock_then_default() {
        let mut s = quick();
        let (limit, deadline) = move_limit(&s, Color::Black);
        assert!(matches!(limit, Limit::Time(b) if b.hard == Duration::from_millis(200)));
        assert!(deadline.is_none());
        send(&mut s, "time_settings 30 0 0");
        let (limit, _) = move_limit(&s, Color::Black);
        assert!(matches!(limit, Limit::Time(b) if b.hard < Duration::from_secs(30)));
        send(&mut s, "tengen-set playouts 500");
        let (limit, deadline) = move_limit(&s, Color::Black);
        assert_eq!(limit, Limit::Playouts(500));
        assert!(
            deadline.is_some(),
            "the clock still bounds a playout budget"
        );
    }

    #[test]
    fn a_failed_boardsize_or_loadsgf_keeps_the_game() {
        let mut s = quick();
        send(&mut s, "play b E5");
        assert!(send(&mut s, "boardsize 30").starts_with('?'));
        assert!(send(&mut s, "loadsgf /nonexistent.sgf").starts_with('?'));
        assert_eq!(s.game.size().get(), 9);
        assert_eq!(s.game.move_count(), 1);
    }
}
