//! Waiting for a thread or a process to be at work, by the CPU time it uses: shared by
//! the root integration tests and the `gtp` crate's (through `#[path]`).

use std::time::{Duration, Instant};

/// Waits until `read()` (the CPU time a thread or a process has used so far) has grown
/// by `cpu` since the call: what was waiting for input is then at work, however loaded
/// the machine. Fails the test, naming `what`, if that does not happen within `secs`
/// seconds; returns at once where the time cannot be read (`read` gives `None`).
pub fn wait_for_cpu_of(what: &str, read: impl Fn() -> Option<Duration>, cpu: Duration, secs: u64) {
    let Some(start) = read() else { return };
    let end = Instant::now() + Duration::from_secs(secs);
    loop {
        let used = read().unwrap_or(start).saturating_sub(start);
        if used >= cpu {
            return;
        }
        assert!(
            Instant::now() < end,
            "{what} used {used:?} of CPU in {secs} s, not {cpu:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}
