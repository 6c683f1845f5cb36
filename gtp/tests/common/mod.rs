//! What the session tests share: an in-memory output the test reads back while the
//! session writes to it.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

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
