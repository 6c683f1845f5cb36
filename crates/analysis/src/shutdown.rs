//! When a thread of the loop fails (a bug that panics outside a turn's search: the
//! query reader, a searcher between turns, the `maxTime` clock), the others must not
//! wait for it forever. Each thread holds a [`Shutdown`] guard; the guard of a thread
//! that unwinds records the failure, stops every open turn and answers each, queued
//! or being searched, with an error line (a searched turn's searcher then sends
//! nothing more for it), closes the queue and the deadlines, so that every other
//! thread ends, and calls the front end's [`OnFailure`] while holding the output (the
//! command line ends the process there, as its input may stay open for ever: no line
//! is cut short, as none is being written then). [`crate::serve`] then returns the
//! failure as an error.

use std::sync::Mutex;

use crate::deadlines::Deadlines;
use crate::queue::{Queue, Turn};

/// What the front end does when a thread of the loop fails, given the message (which
/// thread failed, and how many turns were answered with an error). It is called while
/// the output is held (no response line is being written), so it may end the
/// process; if it
/// returns, the loop ends at the next query line or the end of the input, and
/// [`crate::serve`] returns the error.
pub type OnFailure = fn(&str);

/// The first failure of a loop's threads, if any, and the front end's reaction.
#[derive(Debug, Default)]
pub struct Failure {
    first: Mutex<Option<String>>,
    on_failure: Option<OnFailure>,
}

impl Failure {
    /// No failure yet; `on_failure` is called at the first.
    pub fn new(on_failure: Option<OnFailure>) -> Failure {
        Failure {
            first: Mutex::new(None),
            on_failure,
        }
    }

    /// The first failure's message, if a thread has failed.
    pub fn message(&self) -> Option<String> {
        self.lock().clone()
    }

    /// Whether a thread has failed.
    pub fn happened(&self) -> bool {
        self.lock().is_some()
    }

    /// Records `message` unless a failure is recorded already; says whether it was
    /// the first.
    fn record(&self, message: String) -> bool {
        let mut first = self.lock();
        if first.is_some() {
            return false;
        }
        *first = Some(message);
        true
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<String>> {
        crate::lock::lock(&self.first)
    }
}

/// A thread's guard: dropped while its thread unwinds, it winds the loop down (see
/// the module's note); dropped normally, it does nothing.
pub struct Shutdown<'a> {
    /// The thread, as the message names it (`the query reader`, `a searcher`, …).
    role: &'static str,
    parts: LoopParts<'a>,
}

/// What every thread's guard of one loop winds down, and how.
#[derive(Clone, Copy)]
pub struct LoopParts<'a> {
    /// The loop's turns.
    pub queue: &'a Queue,
    /// The loop's `maxTime` clock.
    pub deadlines: &'a Deadlines,
    /// Where a failure is recorded.
    pub failure: &'a Failure,
    /// Tells the client that a turn was stopped unanalysed (an error naming its id).
    pub stopped: &'a (dyn Fn(&Turn) + Sync),
    /// Runs what it is given while holding the output, so that no response line is
    /// being written meanwhile.
    pub hold: &'a Hold<'a>,
}

impl std::fmt::Debug for LoopParts<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoopParts").finish_non_exhaustive()
    }
}

/// Runs the function it is given while holding the loop's output (waiting a bounded
/// time for a line being written to end).
pub type Hold<'a> = dyn Fn(&dyn Fn()) + Sync + 'a;

impl<'a> Shutdown<'a> {
    /// The guard of the thread named `role` (`the query reader`, `a searcher`, …) of
    /// the loop of `parts.queue` and `parts.deadlines`: a failure is recorded in
    /// `parts.failure`, each turn it stops (queued, or being searched) is told to the
    /// client by `parts.stopped`, and the front end's reaction runs inside
    /// `parts.hold`.
    pub fn new(role: &'static str, parts: LoopParts<'a>) -> Shutdown<'a> {
        Shutdown { role, parts }
    }

    /// Winds the loop down after the failure of this guard's thread.
    fn wind_down(&self) {
        let LoopParts {
            queue,
            deadlines,
            failure,
            stopped,
            hold,
        } = self.parts;
        queue.close();
        // Running searches are stopped and answered here, their searchers sending
        // nothing more; queued turns are closed and answered.
        let running = queue.abandon_running();
        let queued = queue.terminate(None, None);
        for turn in running.iter().chain(&queued) {
            stopped(turn);
        }
        deadlines.quit();
        let message = format!(
            "internal error: {} of the analysis loop failed (see the panic message above); \
             {} turn(s) being searched and {} queued turn(s) were answered with an error, \
             unanalysed",
            self.role,
            running.len(),
            queued.len()
        );
        if failure.record(message.clone())
            && let Some(react) = failure.on_failure
        {
            hold(&|| react(&message));
        }
    }
}

impl std::fmt::Debug for Shutdown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shutdown")
            .field("role", &self.role)
            .finish()
    }
}

impl Drop for Shutdown<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.wind_down();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::tests::job;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex as StdMutex};
    use std::time::{Duration, Instant};

    static REACTIONS: StdMutex<Vec<(String, bool)>> = StdMutex::new(Vec::new());
    /// Raised while the test's output is held.
    static HELD: AtomicBool = AtomicBool::new(false);

    /// Remembers the message, and whether the output was held.
    fn remember(message: &str) {
        let held = HELD.load(Ordering::Acquire);
        REACTIONS.lock().unwrap().push((message.to_string(), held));
    }

    /// The parts of a test's loop.
    fn parts<'a>(
        queue: &'a Queue,
        deadlines: &'a Deadlines,
        failure: &'a Failure,
        stopped: &'a (dyn Fn(&Turn) + Sync),
        hold: &'a Hold<'a>,
    ) -> LoopParts<'a> {
        LoopParts {
            queue,
            deadlines,
            failure,
            stopped,
            hold,
        }
    }

    /// Holds the (pretend) output around `f`.
    fn hold(f: &dyn Fn()) {
        HELD.store(true, Ordering::Release);
        f();
        HELD.store(false, Ordering::Release);
    }

    /// A thread that panics while holding its guard ends a loop whose other threads
    /// wait on the queue and the clock: they return, the running turn is stopped and
    /// answered (its searcher may answer it no more), the queued ones are answered,
    /// and the failure is recorded once, the front end told with the output held.
    #[test]
    fn a_panicking_thread_winds_the_loop_down() {
        let queue = Queue::new();
        let deadlines = Deadlines::new();
        let failure = Failure::new(Some(remember));
        let answered = AtomicUsize::new(0);
        let stopped = |_: &Turn| {
            answered.fetch_add(1, Ordering::Relaxed);
        };
        let hold: &Hold<'_> = &hold;
        queue.push(job("a", 10), &[(0, 0), (1, 0), (2, 0)]).unwrap();
        let running = queue.pop().unwrap();
        let far = Arc::new(AtomicBool::new(false));
        deadlines.arm(Instant::now() + Duration::from_secs(3600), &far);
        let parts = parts(&queue, &deadlines, &failure, &stopped, hold);
        let guard = |role| Shutdown::new(role, parts);
        let start = Instant::now();
        std::thread::scope(|scope| {
            let clock = scope.spawn(|| deadlines.run());
            // A searcher that takes the turns it can, then waits for one that would
            // never come without the guard.
            let waiter = scope.spawn(|| {
                let _ok = guard("a searcher");
                let mut searched = 0;
                while let Some(t) = queue.pop() {
                    queue.finish(&t);
                    searched += 1;
                }
                searched
            });
            let reader = scope.spawn(|| {
                let _guard = guard("the query reader");
                panic!("injected failure of the reader");
            });
            assert!(reader.join().is_err(), "the reader panicked");
            let searched = waiter.join().unwrap();
            clock.join().unwrap();
            assert_eq!(
                answered.load(Ordering::Relaxed) + searched,
                3,
                "the running turn is answered, each queued one searched or answered"
            );
        });
        assert!(start.elapsed() < Duration::from_secs(60));
        assert!(
            running.stop.load(Ordering::Acquire),
            "the running turn stops"
        );
        assert!(running.abandoned() && !running.claim_answer());
        let message = failure.message().expect("recorded");
        let stopped = format!(
            "1 turn(s) being searched and {} queued turn(s)",
            answered.load(Ordering::Relaxed) - 1
        );
        assert!(
            message.contains("the query reader") && message.contains(&stopped),
            "{message}"
        );
        assert_eq!(
            REACTIONS.lock().unwrap().as_slice(),
            [(message, true)],
            "the front end is told once, the output held"
        );
        queue.finish(&running);
        assert_eq!(queue.open_turns(), 0);
    }

    #[test]
    fn a_guard_dropped_without_a_panic_does_nothing() {
        let queue = Queue::new();
        let deadlines = Deadlines::new();
        let failure = Failure::new(None);
        let stopped = |_: &Turn| panic!("no turn is stopped");
        let hold = |_: &dyn Fn()| panic!("the output is not held");
        queue.push(job("b", 10), &[(0, 0)]).unwrap();
        drop(Shutdown::new(
            "a searcher",
            parts(&queue, &deadlines, &failure, &stopped, &hold),
        ));
        assert!(!failure.happened());
        assert_eq!(queue.open_turns(), 1);
        let t = queue
            .pop()
            .expect("the queue is still open and holds the turn");
        assert!(!t.stop.load(Ordering::Acquire));
    }
}
