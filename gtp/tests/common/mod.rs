//! What the session tests share: an in-memory output the test reads back while the
//! session writes to it.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

#[path = "../../../tests/support/cpu.rs"]
mod cpu;

/// A `Write` (a session's log or its answers) whose bytes the test can read back, even
/// while the session runs on another thread.
#[derive(Clone, Default)]
pub struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

// Each test binary uses some of these.
#[allow(dead_code)]
impl Shared {
    /// Everything written so far.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }

    /// Everything written since the last call.
    pub fn take(&self) -> String {
        String::from_utf8(std::mem::take(&mut *self.0.lock().unwrap())).unwrap()
    }

    /// Waits until the output contains `needle`, for at most `secs` seconds.
    pub fn wait_for(&self, needle: &str, secs: u64) -> String {
        self.wait_until(|t| t.contains(needle), secs)
    }

    /// Waits until `done(output)`, for at most `secs` seconds.
    pub fn wait_until(&self, done: impl Fn(&str) -> bool, secs: u64) -> String {
        let end = Instant::now() + Duration::from_secs(secs);
        loop {
            let t = self.text();
            if done(&t) || Instant::now() > end {
                return t;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The calling thread's id as `/proc/self/task` names it (Linux), `None` where the
/// system does not tell it.
#[allow(dead_code)]
pub fn this_thread_id() -> Option<String> {
    let link = std::fs::read_link("/proc/thread-self").ok()?;
    Some(link.file_name()?.to_string_lossy().into_owned())
}

/// The CPU time thread `tid` of this process has used so far (Linux's
/// `/proc/self/task/TID/schedstat`, in nanoseconds), `None` where it cannot be read.
#[allow(dead_code)]
pub fn thread_cpu(tid: &str) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/schedstat")).ok()?;
    let nanos: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// Waits until thread `tid` has used `cpu` more CPU time than when called: a thread
/// that was waiting for input is then at work (a search runs), however loaded the
/// machine. Fails the test if that does not happen within `secs` seconds; returns at
/// once where the thread's time cannot be read (not Linux).
#[allow(dead_code)]
pub fn wait_for_cpu(tid: Option<&str>, cpu: Duration, secs: u64) {
    let Some(tid) = tid else { return };
    cpu::wait_for_cpu_of(&format!("thread {tid}"), || thread_cpu(tid), cpu, secs);
}
