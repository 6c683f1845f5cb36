//! The CPU time threads and the process have used, for `tengen bench`'s per-CPU-second
//! figures: on a busy machine the wall clock also counts the time other processes held
//! the cores, the CPU time does not.
//!
//! Linux only: a thread's time from `/proc/thread-self/schedstat` (nanoseconds), the
//! whole process's from `/proc/self/stat` (clock ticks, their rate from
//! `/proc/self/auxv`); elsewhere, or when a file cannot be read, there is no figure.
//!
//! The kernel brings a running thread's count up to date only at its scheduler ticks
//! and switches, so a plain read can be a tick (up to 10 ms) behind, which made the
//! figures of a short run absurd. Every reading therefore yields the CPU first
//! ([`std::thread::yield_now`]): the scheduler then adds the running time so far, and
//! the thread's reading is exact to the read itself ([`THREAD_READING_ERROR`]). The
//! process's count stays in ticks: [`CpuReading::error`] says how far off a reading may
//! be, and [`CpuSpan`] carries it to the figures, which a run too short to time
//! precisely does not give.

/// `AT_CLKTCK` in the auxiliary vector: the rate of the tick `/proc/self/stat` counts in.
const AT_CLKTCK: u64 = 17;

/// How far a thread's reading may be from the truth, in seconds: the CPU time the read
/// itself takes after the yield brought the count up to date. Measured over 3000 spans
/// of 1.5 ms on a two-core virtual machine: the CPU time exceeded the wall time by 4
/// microseconds at the median, and by up to 0.34 ms under a full load.
pub(crate) const THREAD_READING_ERROR: f64 = 250e-6;

/// A reading of a CPU-time clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CpuReading {
    /// CPU time so far, in seconds.
    pub(crate) seconds: f64,
    /// How far the reading may be from the truth, in seconds (its clock's resolution).
    pub(crate) error: f64,
}

/// The CPU time between two readings of one clock, and how far it may be off.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CpuSpan {
    /// CPU time used, in seconds.
    pub(crate) seconds: f64,
    /// How far `seconds` may be from the truth: the larger of the two readings'
    /// errors. A reading only ever falls short of the truth (a count not yet brought
    /// up to date, ticks rounded down), never passes it, so the difference of two is
    /// off by at most the larger shortfall, either way.
    pub(crate) error: f64,
}

impl CpuSpan {
    /// The span from `start` to `end`, where both readings are known.
    pub(crate) fn between(start: Option<CpuReading>, end: Option<CpuReading>) -> Option<CpuSpan> {
        let (start, end) = (start?, end?);
        Some(CpuSpan {
            seconds: (end.seconds - start.seconds).max(0.0),
            error: start.error.max(end.error),
        })
    }
}

/// The calling thread's time on a CPU so far, exact to [`THREAD_READING_ERROR`].
pub(crate) fn thread_cpu() -> Option<CpuReading> {
    // Brings this thread's count up to date (see the module's notes).
    std::thread::yield_now();
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = schedstat_nanoseconds(&text)?;
    Some(CpuReading {
        seconds: ns as f64 / 1e9,
        error: THREAD_READING_ERROR,
    })
}

/// The running time in a `schedstat` file's text: its first field, in nanoseconds. A
/// kernel that keeps no scheduler statistics writes zeros, which a thread that is
/// reading cannot have used: no reading then.
fn schedstat_nanoseconds(text: &str) -> Option<u64> {
    text.split_whitespace()
        .next()?
        .parse()
        .ok()
        .filter(|&ns| ns > 0)
}

/// User plus system CPU time of the whole process so far (every thread, those that
/// have ended included), in clock ticks: a reading may be two ticks below the truth
/// (user and system time are each rounded down).
pub(crate) fn process_cpu() -> Option<CpuReading> {
    // Brings the calling thread's count up to date; threads that have ended are exact.
    std::thread::yield_now();
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let ticks = ticks_from_stat(&stat)?;
    let rate = clock_ticks_per_second()? as f64;
    Some(CpuReading {
        seconds: ticks as f64 / rate,
        error: 2.0 / rate,
    })
}

/// `utime + stime` from the text of `/proc/PID/stat`: fields 14 and 15, counted after
/// the command name in parentheses, which may itself hold spaces and parentheses.
fn ticks_from_stat(stat: &str) -> Option<u64> {
    let after = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    // `after` starts at field 3 (the state): utime is field 14, stime field 15.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// The clock-tick rate the kernel gave this process (`AT_CLKTCK`).
fn clock_ticks_per_second() -> Option<u64> {
    let auxv = std::fs::read("/proc/self/auxv").ok()?;
    auxv.chunks_exact(16).find_map(|pair| {
        let key = u64::from_ne_bytes(pair[..8].try_into().ok()?);
        let value = u64::from_ne_bytes(pair[8..].try_into().ok()?);
        (key == AT_CLKTCK && value > 0).then_some(value)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn stat_fields_are_read_after_the_command_name() {
        // A command name with a space and a parenthesis, as `/proc/PID/stat` may hold.
        let stat = "4242 (my (odd) cmd) R 1 4242 4242 0 -1 4194304 100 0 0 0 250 37 0 0 20 0 3 0";
        assert_eq!(ticks_from_stat(stat), Some(287));
        assert_eq!(ticks_from_stat("garbage"), None);
        assert_eq!(ticks_from_stat("1 (x) R 1 2"), None);
    }

    #[test]
    fn schedstat_gives_nanoseconds_and_zeros_give_nothing() {
        assert_eq!(schedstat_nanoseconds("1234567 89 3\n"), Some(1_234_567));
        assert_eq!(schedstat_nanoseconds("0 0 0\n"), None);
        assert_eq!(schedstat_nanoseconds(""), None);
        assert_eq!(schedstat_nanoseconds("x 1 2"), None);
    }

    #[test]
    fn a_span_is_off_by_the_larger_shortfall_of_its_readings() {
        let at = |seconds, error| Some(CpuReading { seconds, error });
        let span = CpuSpan::between(at(1.0, 0.02), at(1.5, 0.01)).unwrap();
        assert!((span.seconds - 0.5).abs() < 1e-12 && (span.error - 0.02).abs() < 1e-12);
        assert_eq!(CpuSpan::between(None, at(1.0, 0.0)), None);
        assert_eq!(CpuSpan::between(at(1.0, 0.0), None), None);
    }

    /// Spins until `wall` has passed.
    fn spin(wall: Duration) {
        let start = Instant::now();
        let mut x = 0u64;
        while start.elapsed() < wall {
            x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
        }
    }

    /// A thread cannot run longer than the wall clock: a reading a tick behind at the
    /// start (the kernel's count is brought up to date only at ticks and switches)
    /// made a millisecond's spin count up to a tick more (1 ms at 1000 Hz: more than
    /// half a millisecond in one spin of eight).
    #[test]
    fn a_thread_reading_is_never_a_tick_behind() {
        if cfg!(not(target_os = "linux")) {
            return;
        }
        for _ in 0..40 {
            let before = thread_cpu().expect("Linux has /proc/thread-self/schedstat");
            let start = Instant::now();
            spin(Duration::from_micros(1500));
            let wall = start.elapsed().as_secs_f64();
            let after = thread_cpu().unwrap();
            let cpu = after.seconds - before.seconds;
            // The readings' own cost (their yield and read) is CPU time too.
            assert!(
                cpu <= wall + 2.0 * THREAD_READING_ERROR,
                "{:.3} ms of CPU in {:.3} ms of wall time",
                cpu * 1e3,
                wall * 1e3
            );
        }
    }

    #[test]
    fn a_busy_loop_uses_cpu_time() {
        if cfg!(not(target_os = "linux")) {
            return;
        }
        let before = process_cpu().expect("Linux has /proc/self/stat");
        assert!(before.error > 0.0 && before.error <= 0.2, "{before:?}");
        // Spin until the count moves (a tick is 10 ms at the usual 100 Hz), 5 s at most.
        let start = Instant::now();
        let mut now = before;
        while now.seconds <= before.seconds && start.elapsed() < Duration::from_secs(5) {
            spin(Duration::from_millis(1));
            now = process_cpu().unwrap();
        }
        assert!(
            now.seconds > before.seconds,
            "5 s of spinning used no CPU time"
        );
        assert!(now.seconds - before.seconds < 10.0, "{now:?}");
    }
}
