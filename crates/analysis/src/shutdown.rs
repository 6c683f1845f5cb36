//! When a thread of the loop fails (a bug that panics outside a turn's search: the
//! query reader, a searcher between turns, the `maxTime` clock), the others must not
//! wait for it forever. Each thread holds a [`Shutdown`] guard; the guard of a thread
//! that unwinds records the failure, stops every open turn, closes the queue and the
//! deadlines, so that every other thread ends, and calls the front end's
//! [`OnFailure`] (the command line ends the process there, as its input may stay open
//! for ever). [`crate::serve`] then returns the failure as an error.

use std::sync::Mutex;

use crate::deadlines::Deadlines;
use crate::queue::{Queue, Turn};

/// What the front end does when a thread of the loop fails, given the message (which
/// thread failed, and how many turns were stopped). It may end the process; if it
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
    queue: &'a Queue,
    deadlines: &'a Deadlines,
    failure: &'a Failure,
    /// Tells the client that a queued turn was stopped (an error naming its id).
    stopped: &'a (dyn Fn(&Turn) + Sync),
}

impl<'a> Shutdown<'a> {
    /// The guard of the thread named `role` (`the query reader`, `a searcher`, …) of
    /// the loop of `queue` and `deadlines`: a failure is recorded in `failure`, and
    /// each queued turn it stops is told to the client by `stopped`.
    pub fn new(
        role: &'static str,
        queue: &'a Queue,
        deadlines: &'a Deadlines,
        failure: &'a Failure,
        stopped: &'a (dyn Fn(&Turn) + Sync),
    ) -> Shutdown<'a> {
        Shutdown {
            role,
            queue,
            deadlines,
            failure,
            stopped,
        }
    }

    /// Winds the loop down after the failure of this guard's thread.
    fn wind_down(&self) {
        self.queue.close();
        // Running searches are told to stop; queued turns are closed and answered.
        let queued = self.queue.terminate(None, None);
        for turn in &queued {
            (self.stopped)(turn);
        }
        self.deadlines.quit();
        let message = format!(
            "internal error: {} of the analysis loop failed (see the panic message above); \
             the open searches were stopped and {} queued turn(s) left unanalysed",
            self.role,
            queued.len()
        );
        if self.failure.record(message.clone())
            && let Some(react) = self.failure.on_failure
        {
            react(&message);
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

    static REACTIONS: StdMutex<Vec<String>> = StdMutex::new(Vec::new());

    fn remember(message: &str) {
        REACTIONS.lock().unwrap().push(message.to_string());
    }

    /// A thread that panics while holding its guard ends a loop whose other threads
    /// wait on the queue and the clock: they return, the running turn is told to
    /// stop, the queued ones are answered, and the failure is recorded once.
    #[test]
    fn a_panicking_thread_winds_the_loop_down() {
        let queue = Queue::new();
        let deadlines = Deadlines::new();
        let failure = Failure::new(Some(remember));
        let answered = AtomicUsize::new(0);
        let stopped = |_: &Turn| {
            answered.fetch_add(1, Ordering::Relaxed);
        };
        queue.push(job("a", 10), &[(0, 0), (1, 0), (2, 0)]).unwrap();
        let running = queue.pop().unwrap();
        let far = Arc::new(AtomicBool::new(false));
        deadlines.arm(Instant::now() + Duration::from_secs(3600), &far);
        let guard = |role| Shutdown::new(role, &queue, &deadlines, &failure, &stopped);
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
                2,
                "each queued turn is searched or answered"
            );
        });
        assert!(start.elapsed() < Duration::from_secs(60));
        assert!(
            running.stop.load(Ordering::Acquire),
            "the running turn stops"
        );
        let message = failure.message().expect("recorded");
        let stopped = format!("{} queued turn(s)", answered.load(Ordering::Relaxed));
        assert!(
            message.contains("the query reader") && message.contains(&stopped),
            "{message}"
        );
        assert_eq!(
            REACTIONS.lock().unwrap().as_slice(),
            [message],
            "the front end is told once"
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
        queue.push(job("b", 10), &[(0, 0)]).unwrap();
        drop(Shutdown::new(
            "a searcher",
            &queue,
            &deadlines,
            &failure,
            &stopped,
        ));
        assert!(!failure.happened());
        assert_eq!(queue.open_turns(), 1);
        let t = queue
            .pop()
            .expect("the queue is still open and holds the turn");
        assert!(!t.stop.load(Ordering::Acquire));
    }
}
