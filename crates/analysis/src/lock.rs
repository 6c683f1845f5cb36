//! Locks that outlive a panic: the loop's shared state (the queue, the deadlines, the
//! output, the failure record) stays usable after a thread that held it failed, so
//! that the others can wind down (see [`crate::shutdown`]).

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// Locks `mutex`, poisoned or not.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Waits on `changed` with `guard`, poisoned or not.
pub(crate) fn wait<'a, T>(changed: &Condvar, guard: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
    changed.wait(guard).unwrap_or_else(PoisonError::into_inner)
}

/// Waits on `changed` with `guard` for at most `timeout`, poisoned or not.
pub(crate) fn wait_at_most<'a, T>(
    changed: &Condvar,
    guard: MutexGuard<'a, T>,
    timeout: Duration,
) -> MutexGuard<'a, T> {
    changed
        .wait_timeout(guard, timeout)
        .unwrap_or_else(PoisonError::into_inner)
        .0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mutex_poisoned_by_a_panic_still_locks() {
        let m = Mutex::new(1);
        let poisoned = std::thread::scope(|s| {
            s.spawn(|| {
                let _held = m.lock().unwrap();
                panic!("injected failure while holding the lock");
            })
            .join()
        });
        assert!(poisoned.is_err() && m.is_poisoned());
        *lock(&m) += 1;
        assert_eq!(*lock(&m), 2);
        let c = Condvar::new();
        let g = wait_at_most(&c, lock(&m), Duration::from_millis(1));
        assert_eq!(*g, 2);
    }
}
