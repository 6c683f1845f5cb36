//! The watchdog of a search whose own limit is not the clock (a playout budget under
//! a running clock): it raises the alarm at the clock's hard limit, and is gone as
//! soon as the search returns.

use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Runs `work` on this thread. With a `deadline`, a watchdog thread calls `alarm`
/// once if `work` is still running `deadline` after `start` (the alarm should make
/// `work` stop: raise its stop flag); it ends when `work` returns, whichever comes
/// first. Without one, `work` runs alone and `alarm` is never called.
pub fn watched<R>(
    start: Instant,
    deadline: Option<Duration>,
    alarm: impl FnOnce() + Send,
    work: impl FnOnce() -> R,
) -> R {
    std::thread::scope(|scope| {
        let (done_tx, done_rx) = mpsc::channel::<()>();
        if let Some(deadline) = deadline {
            scope.spawn(move || {
                let left = deadline.saturating_sub(start.elapsed());
                if done_rx.recv_timeout(left) == Err(mpsc::RecvTimeoutError::Timeout) {
                    alarm();
                }
            });
        }
        let result = work();
        drop(done_tx);
        result
    })
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};

    use super::*;

    /// Work that spins until `stop` is raised or `most` has passed; whether it was
    /// stopped.
    fn spin(stop: &AtomicBool, most: Duration) -> bool {
        let t = Instant::now();
        while t.elapsed() < most {
            if stop.load(Ordering::Relaxed) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        false
    }

    #[test]
    fn the_alarm_stops_work_that_runs_past_the_deadline() {
        let stop = AtomicBool::new(false);
        let start = Instant::now();
        let deadline = Some(Duration::from_millis(50));
        let alarm = || stop.store(true, Ordering::Relaxed);
        let stopped = watched(start, deadline, alarm, || {
            spin(&stop, Duration::from_secs(10))
        });
        assert!(stopped);
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn work_that_ends_in_time_or_has_no_deadline_hears_no_alarm() {
        for deadline in [Some(Duration::from_secs(10)), None] {
            let stop = AtomicBool::new(false);
            let alarm = || stop.store(true, Ordering::Relaxed);
            let start = Instant::now();
            let out = watched(start, deadline, alarm, || 7);
            assert_eq!(out, 7);
            assert!(!stop.load(Ordering::Relaxed));
            // The watchdog went with the work: no wait for its deadline.
            assert!(start.elapsed() < Duration::from_secs(5));
        }
    }
}
