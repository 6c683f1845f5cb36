//! `maxTime`: one thread raises each search's stop flag when its time is up, so a
//! search is bounded by its playouts and its time together.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

use crate::lock::{lock, wait, wait_at_most};

#[derive(Default)]
struct Timers {
    armed: Vec<(Instant, Arc<AtomicBool>)>,
    quit: bool,
}

/// Deadlines and the flags they raise.
#[derive(Default)]
pub struct Deadlines {
    timers: Mutex<Timers>,
    changed: Condvar,
}

impl std::fmt::Debug for Deadlines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Deadlines")
            .field("armed", &self.lock().armed.len())
            .finish()
    }
}

impl Deadlines {
    /// No deadline yet.
    pub fn new() -> Deadlines {
        Deadlines::default()
    }

    fn lock(&self) -> MutexGuard<'_, Timers> {
        lock(&self.timers)
    }

    /// Raises `flag` at `at` unless disarmed first.
    pub fn arm(&self, at: Instant, flag: &Arc<AtomicBool>) {
        self.lock().armed.push((at, Arc::clone(flag)));
        self.changed.notify_all();
    }

    /// Forgets the deadline of `flag`.
    pub fn disarm(&self, flag: &Arc<AtomicBool>) {
        self.lock().armed.retain(|(_, f)| !Arc::ptr_eq(f, flag));
    }

    /// Ends [`Deadlines::run`].
    pub fn quit(&self) {
        self.lock().quit = true;
        self.changed.notify_all();
    }

    /// Raises each flag at its deadline, until [`Deadlines::quit`]; run it on a thread
    /// of its own.
    pub fn run(&self) {
        let mut timers = self.lock();
        while !timers.quit {
            let now = Instant::now();
            timers.armed.retain(|(at, flag)| {
                let due = *at <= now;
                if due {
                    flag.store(true, Ordering::Release);
                }
                !due
            });
            let next = timers.armed.iter().map(|t| t.0).min();
            timers = match next {
                Some(at) => wait_at_most(&self.changed, timers, at.saturating_duration_since(now)),
                None => wait(&self.changed, timers),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn flags_rise_at_their_deadline_unless_disarmed() {
        let d = Deadlines::new();
        let soon = Arc::new(AtomicBool::new(false));
        let later = Arc::new(AtomicBool::new(false));
        std::thread::scope(|s| {
            s.spawn(|| d.run());
            let start = Instant::now();
            d.arm(start + Duration::from_millis(30), &soon);
            d.arm(start + Duration::from_millis(60), &later);
            d.disarm(&later);
            while !soon.load(Ordering::Acquire) {
                assert!(start.elapsed() < Duration::from_secs(10));
                std::thread::sleep(Duration::from_millis(2));
            }
            assert!(start.elapsed() >= Duration::from_millis(30));
            std::thread::sleep(Duration::from_millis(80));
            assert!(!later.load(Ordering::Acquire));
            d.quit();
        });
    }
}
