//! The analysis engine's loop: one thread reads queries and answers actions, errors and
//! warnings at once; a pool of searchers takes the queued turns, each with an engine of
//! its own, and answers each turn as it finishes. stdout carries nothing but response
//! lines. At the end of the input the queued turns are analysed before the loop ends
//! (or, with `quit_without_waiting`, stopped and answered with what they have).
//! A thread that fails winds the loop down (see [`crate::shutdown`]) and `serve`
//! returns an error.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use tengen_board::Game;
use tengen_engine::{Analysis, Engine, Limit, ModelKnowledge, Report, SearchRequest};

use crate::deadlines::Deadlines;
use crate::hashes::PositionHashes;
use crate::line::{Line, LineReader, id_in};
use crate::notice::Notice;
use crate::policy::policy;
use crate::query::{Defaults, Request, parse_line};
use crate::queue::{Job, Queue, Turn};
use crate::response::{TurnRef, analysis_response, no_results};
use crate::shutdown::{Failure, LoopParts, OnFailure, Shutdown};

/// The longest query line read (4 MiB); a longer one is answered with an error.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// The snapshot interval of a search that sends no reports (its snapshots are unused).
const NO_REPORTS: Duration = Duration::from_secs(3600);

/// How the loop runs.
#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// What queries start from.
    pub defaults: Defaults,
    /// At the end of the input, stop the open searches instead of finishing them.
    pub quit_without_waiting: bool,
    /// `query_version`'s `version`.
    pub version: String,
    /// `query_version`'s `git_hash`.
    pub git_hash: String,
    /// Called when a thread of the loop fails (a bug), with the message; the command
    /// line ends the process there, as its input may stay open for ever.
    pub on_failure: Option<OnFailure>,
}

/// What the loop did, for the summary on stderr.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Turns answered with an analysis.
    pub turns: u64,
    /// Playouts of their searches.
    pub playouts: u64,
    /// Lines answered with an error.
    pub errors: u64,
}

/// Where response lines go: whole lines, one writer at a time. A failed write (the
/// client closed its end) marks it broken, and the loop winds down.
struct Output<'w> {
    writer: Mutex<Box<dyn Write + Send + 'w>>,
    broken: AtomicBool,
    errors: AtomicU64,
}

impl Output<'_> {
    fn line(&self, text: &str) {
        let mut w = crate::lock::lock(&self.writer);
        let ok = w
            .write_all(text.as_bytes())
            .and_then(|()| w.write_all(b"\n"))
            .and_then(|()| w.flush());
        if ok.is_err() {
            self.broken.store(true, Ordering::Release);
        }
    }

    fn notice(&self, n: &Notice) {
        if n.severity == crate::notice::Severity::Error {
            self.errors.fetch_add(1, Ordering::Relaxed);
        }
        self.line(&n.to_json());
    }

    fn is_broken(&self) -> bool {
        self.broken.load(Ordering::Acquire)
    }

    /// Runs `f` holding the writer, so that no line is being written meanwhile: a
    /// line being written is waited for, at most [`HOLD_WAIT`] (a client that reads
    /// nothing could block its write for ever), then `f` runs anyway.
    fn holding(&self, f: &dyn Fn()) {
        let deadline = Instant::now() + HOLD_WAIT;
        let _held = loop {
            match self.writer.try_lock() {
                Ok(guard) => break Some(guard),
                Err(std::sync::TryLockError::Poisoned(p)) => break Some(p.into_inner()),
                Err(std::sync::TryLockError::WouldBlock) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(1));
                }
                Err(std::sync::TryLockError::WouldBlock) => break None,
            }
        };
        f();
    }
}

/// The longest wait for a line being written before the front end's reaction to a
/// failure runs (see [`Output::holding`]).
const HOLD_WAIT: Duration = Duration::from_secs(1);

/// Serves queries from `input` until its end, with one searcher per engine of
/// `engines` (each should search on one thread: the pool is the parallelism), and
/// `model` for `includePolicy`. Returns what was done.
pub fn serve<R: BufRead>(
    engines: Vec<Engine>,
    model: &ModelKnowledge,
    options: &ServerOptions,
    input: R,
    output: impl Write + Send,
) -> io::Result<Totals> {
    let out = Output {
        writer: Mutex::new(Box::new(output)),
        broken: AtomicBool::new(false),
        errors: AtomicU64::new(0),
    };
    let queue = Queue::new();
    let deadlines = Deadlines::new();
    let turns = AtomicU64::new(0);
    let playouts = AtomicU64::new(0);
    let failure = Failure::new(options.on_failure);
    let stopped = |turn: &Turn| {
        out.notice(&Notice::error(
            &turn.job.id,
            "id",
            format!(
                "Internal error: the analysis engine is stopping; turn {} was not analysed",
                turn.number
            ),
        ));
    };
    let hold = |f: &dyn Fn()| out.holding(f);
    let parts = LoopParts {
        queue: &queue,
        deadlines: &deadlines,
        failure: &failure,
        stopped: &stopped,
        hold: &hold,
    };
    let guard = |role| Shutdown::new(role, parts);
    // A failed thread has been reported through `failure`; its panic is not passed on.
    let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let _guard = guard("the maxTime clock");
                deadlines.run();
            });
            let searchers: Vec<_> = engines
                .into_iter()
                .map(|engine| {
                    let ctx = Searcher {
                        queue: &queue,
                        out: &out,
                        deadlines: &deadlines,
                        model,
                        turns: &turns,
                        playouts: &playouts,
                    };
                    let guard = guard("a searcher");
                    scope.spawn(move || {
                        let _guard = guard;
                        ctx.run(engine);
                    })
                })
                .collect();
            let _guard = guard("the query reader");
            let read = read_queries(input, options, &queue, &out, &failure);
            queue.close();
            if options.quit_without_waiting || out.is_broken() {
                for turn in queue.terminate(None, None) {
                    out.line(&no_results(&turn.job.id, turn.number));
                }
            }
            for s in searchers {
                // A searcher that failed has wound the loop down through its guard.
                let _ = s.join();
            }
            deadlines.quit();
            read
        })
    }));
    if let Some(message) = failure.message() {
        return Err(io::Error::other(message));
    }
    match read {
        Ok(read) => read?,
        // Every thread holds a guard: a panic without a recorded failure cannot happen,
        // but is still an error, not a crash.
        Err(_) => return Err(io::Error::other("internal error: the analysis loop failed")),
    }
    Ok(Totals {
        turns: turns.into_inner(),
        playouts: playouts.into_inner(),
        errors: out.errors.into_inner(),
    })
}

/// Reads and answers lines until the end of the input or a broken output.
fn read_queries<R: BufRead>(
    input: R,
    options: &ServerOptions,
    queue: &Queue,
    out: &Output<'_>,
    failure: &Failure,
) -> io::Result<()> {
    let mut lines = LineReader::new(input, MAX_LINE_BYTES);
    while !out.is_broken() && !failure.happened() {
        let Some(line) = lines.next_line()? else {
            break;
        };
        match line {
            Line::TooLong { start, len } => {
                let message = format!(
                    "Query line of {len} bytes is longer than the {MAX_LINE_BYTES} bytes read: \
                     it was skipped"
                );
                out.notice(&match id_in(&start) {
                    Some(id) => Notice::error(&id, "id", message),
                    None => Notice::general(message),
                });
            }
            Line::Text(text) => answer(&text, options, queue, out),
        }
    }
    Ok(())
}

/// Answers one query line: an action at once, an analysis by queueing its turns.
fn answer(text: &[u8], options: &ServerOptions, queue: &Queue, out: &Output<'_>) {
    let request = match parse_line(text, &options.defaults) {
        Ok(r) => r,
        Err(notice) => return out.notice(&notice),
    };
    match request {
        Request::Version(mut echo) => {
            echo.insert("version".into(), Value::String(options.version.clone()));
            echo.insert("git_hash".into(), Value::String(options.git_hash.clone()));
            out.line(&Value::Object(echo).to_string());
        }
        Request::ClearCache(echo) => out.line(&Value::Object(echo).to_string()),
        Request::Terminate {
            echo,
            target,
            turns,
        } => {
            for turn in queue.terminate(target.as_deref(), turns.as_deref()) {
                out.line(&no_results(&turn.job.id, turn.number));
            }
            out.line(&Value::Object(echo).to_string());
        }
        Request::Analyze(query) => {
            for w in &query.warnings {
                out.notice(w);
            }
            let query = *query;
            let job = Job::new(query.id.clone(), query.position, query.options, text.len());
            if let Err(full) = queue.push(job, &query.turns) {
                out.notice(&Notice::error(&query.id, "id", full.to_string()));
            }
        }
    }
}

/// What a searcher shares with the loop.
struct Searcher<'a, 'w> {
    queue: &'a Queue,
    out: &'a Output<'w>,
    deadlines: &'a Deadlines,
    model: &'a ModelKnowledge,
    turns: &'a AtomicU64,
    playouts: &'a AtomicU64,
}

impl Searcher<'_, '_> {
    /// Searches queued turns until the queue is closed and empty.
    /// A search that panics (a bug) costs its turn an error answer, not the process
    /// nor the other turns.
    fn run(&self, mut engine: Engine) {
        while let Some(turn) = self.queue.pop() {
            if self.out.is_broken() {
                turn.stop.store(true, Ordering::Release);
            }
            let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                self.search(&mut engine, &turn);
            }));
            if searched.is_err() {
                self.deadlines.disarm(&turn.stop);
                engine.clear();
            }
            // A turn abandoned by a failure of the loop was answered already.
            if searched.is_err() && turn.claim_answer() {
                self.out.notice(&Notice::error(
                    &turn.job.id,
                    "id",
                    format!(
                        "Internal error: the search of turn {} failed (see stderr); the other \
                         queries go on",
                        turn.number
                    ),
                ));
            }
            self.queue.finish(&turn);
        }
    }

    /// One turn's search and its responses.
    fn search(&self, engine: &mut Engine, turn: &Arc<Turn>) {
        let job = &turn.job;
        let Some(game) = self.rebuild(turn) else {
            return;
        };
        let at = TurnRef {
            id: &job.id,
            turn: turn.number,
            size: job.position.size(),
            options: &job.options,
            hashes: PositionHashes::of(&game),
        };
        let opts = &job.options;
        let probabilities = opts.policy.then(|| {
            policy(
                self.model,
                engine.policy_net().map(|n| &**n),
                engine.config().search.net_min_size,
                &game,
            )
        });
        if let Some(t) = opts.max_time {
            self.deadlines.arm(Instant::now() + t, &turn.stop);
        }
        // Each turn is searched afresh: its visits are its own, as in KataGo.
        engine.clear();
        let limit = Limit::Playouts(opts.max_visits);
        let color = game.to_move();
        let start = Instant::now();
        let reports = opts.reports();
        let every = opts.report_every;
        let mut next = reports.map(|(_, first)| start + first);
        let mut sink = |a: &Analysis| {
            let now = Instant::now();
            if a.playouts() > 0 && next.is_some_and(|due| now >= due) && !turn.abandoned() {
                self.out
                    .line(&analysis_response(&at, a, true, probabilities.as_deref()));
                next = every.map(|e| now + e);
            }
        };
        // Without reports the snapshots are not sent, but the final one still holds
        // the extras asked for.
        let interval = reports.map_or(NO_REPORTS, |(interval, _)| interval);
        let report = Report {
            interval: interval.max(Duration::from_millis(1)),
            sink: &mut sink,
            extras: opts.extras(),
        };
        let avoid = opts.filter.avoided(color, game.size());
        let req = SearchRequest::new(&game, color, limit, &turn.stop)
            .ownership(opts.ownership)
            .avoiding(avoid)
            .report(Some(report));
        let analysis = engine.search(req);
        self.deadlines.disarm(&turn.stop);
        self.send_final_response(turn, &at, &analysis, probabilities.as_deref());
    }

    /// The position of `turn`, or none after answering with an error where it cannot
    /// be rebuilt.
    fn rebuild(&self, turn: &Turn) -> Option<Game> {
        match turn.job.position.game_at(turn.number) {
            Ok(g) => Some(g),
            Err(e) => {
                // The record was checked when it came: this is a broken invariant,
                // answered as an error rather than a crash.
                if turn.claim_answer() {
                    self.out.notice(&Notice::error(
                        &turn.job.id,
                        "moves",
                        format!("Could not rebuild turn {}: {e}", turn.number),
                    ));
                }
                None
            }
        }
    }

    /// The final response of a searched turn, counted in the totals; `noResults`
    /// where the search ended before a single playout.
    fn send_final_response(
        &self,
        turn: &Turn,
        at: &TurnRef<'_>,
        analysis: &Analysis,
        policy: Option<&[f64]>,
    ) {
        // A turn abandoned by a failure of the loop was answered already.
        if !turn.claim_answer() {
            return;
        }
        if analysis.playouts() == 0 {
            self.out.line(&no_results(&turn.job.id, turn.number));
            return;
        }
        self.turns.fetch_add(1, Ordering::Relaxed);
        self.playouts
            .fetch_add(analysis.playouts(), Ordering::Relaxed);
        self.out
            .line(&analysis_response(at, analysis, false, policy));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_engine::Config;

    /// Query lines, then a failure of the input itself (a panic in the reader).
    struct FailingInput {
        lines: io::Cursor<Vec<u8>>,
    }

    impl io::Read for FailingInput {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.lines.read(buf)?;
            if n == 0 && !buf.is_empty() {
                panic!("injected failure of the query reader");
            }
            Ok(n)
        }
    }

    impl BufRead for FailingInput {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            if self.lines.position() as usize >= self.lines.get_ref().len() {
                panic!("injected failure of the query reader");
            }
            self.lines.fill_buf()
        }

        fn consume(&mut self, amount: usize) {
            self.lines.consume(amount);
        }
    }

    /// The reader fails while a turn is queued behind a long search: `serve` returns
    /// the failure instead of waiting for ever, and the queued turn is answered.
    #[test]
    fn a_failing_reader_ends_the_loop_with_an_error() {
        let query = |id: &str| {
            format!(
                "{{\"id\":\"{id}\",\"moves\":[],\"rules\":\"chinese\",\"komi\":7.5,\
                 \"boardXSize\":9,\"boardYSize\":9,\"maxVisits\":100000000}}\n"
            )
        };
        let input = FailingInput {
            lines: io::Cursor::new(format!("{}{}", query("long"), query("queued")).into_bytes()),
        };
        let options = ServerOptions {
            defaults: Defaults {
                max_visits: 10,
                perspective: crate::Perspective::Black,
            },
            quit_without_waiting: false,
            version: "test".into(),
            git_hash: "test".into(),
            on_failure: None,
        };
        let config = Config {
            threads: 1,
            ..Config::default()
        };
        let engines = vec![Engine::new(config)];
        let mut out = Vec::new();
        let start = Instant::now();
        let err = serve(
            engines,
            &ModelKnowledge::shipped(),
            &options,
            input,
            &mut out,
        )
        .unwrap_err();
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "it did not wait"
        );
        let message = err.to_string();
        assert!(message.contains("the query reader"), "{message}");
        let out = String::from_utf8(out).unwrap();
        // Each turn, the one being searched and the queued one, gets one line: the
        // error (the stopped search sends no answer after it).
        for id in ["long", "queued"] {
            let lines: Vec<&str> = out
                .lines()
                .filter(|l| l.contains(&format!("\"id\":\"{id}\"")))
                .collect();
            assert_eq!(lines.len(), 1, "{id}: {out}");
            assert!(lines[0].contains("engine is stopping"), "{id}: {out}");
        }
        assert!(message.contains("were answered with an error"), "{message}");
    }

    /// How long after it was asked [`Output::holding`] ran its function, while
    /// another thread held the writer for `held`.
    fn holding_after(held: Duration) -> Duration {
        let out = Output {
            writer: Mutex::new(Box::new(io::sink())),
            broken: AtomicBool::new(false),
            errors: AtomicU64::new(0),
        };
        let taken = std::sync::Barrier::new(2);
        let ran = Mutex::new(None);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let _line = crate::lock::lock(&out.writer);
                taken.wait();
                std::thread::sleep(held);
            });
            // Asked before the writer's holder starts its sleep, so the wait measured
            // is at least `held` whatever order the two threads wake in.
            let asked = Instant::now();
            taken.wait();
            out.holding(&|| *crate::lock::lock(&ran) = Some(asked.elapsed()));
        });
        ran.into_inner().unwrap().expect("the function ran")
    }

    /// The reaction to a failure waits for a line being written to end, but not for
    /// ever.
    #[test]
    fn holding_the_output_waits_for_a_line_being_written_a_bounded_time() {
        let short = holding_after(Duration::from_millis(200));
        assert!(short >= Duration::from_millis(200), "{short:?}");
        let long = holding_after(Duration::from_secs(5));
        assert!(
            long >= HOLD_WAIT && long < Duration::from_secs(4),
            "{long:?}"
        );
    }
}
