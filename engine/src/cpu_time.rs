//! The CPU time this process has used, for `tengen bench`'s per-CPU-second figures: on
//! a busy machine the wall clock also counts the time other processes held the cores,
//! the CPU time does not.
//!
//! Linux only: a thread's time from `/proc/thread-self/schedstat` (nanoseconds), the
//! whole process's from `/proc/self/stat` (clock ticks, their rate from
//! `/proc/self/auxv`); elsewhere, or when a file cannot be read, there is no figure.

/// `AT_CLKTCK` in the auxiliary vector: the rate of the tick `/proc/self/stat` counts in.
const AT_CLKTCK: u64 = 17;

/// The calling thread's time on a CPU so far, in seconds.
pub(crate) fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// User plus system CPU time of the whole process so far (every thread, those that
/// have ended included), in seconds.
pub(crate) fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let ticks = ticks_from_stat(&stat)?;
    Some(ticks as f64 / clock_ticks_per_second()? as f64)
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

    #[test]
    fn stat_fields_are_read_after_the_command_name() {
        // A command name with a space and a parenthesis, as `/proc/PID/stat` may hold.
        let stat = "4242 (my (odd) cmd) R 1 4242 4242 0 -1 4194304 100 0 0 0 250 37 0 0 20 0 3 0";
        assert_eq!(ticks_from_stat(stat), Some(287));
        assert_eq!(ticks_from_stat("garbage"), None);
        assert_eq!(ticks_from_stat("1 (x) R 1 2"), None);
    }

    #[test]
    fn a_busy_loop_uses_cpu_time() {
        if cfg!(not(target_os = "linux")) {
            return;
        }
        let before = process_cpu_seconds().expect("Linux has /proc/self/stat");
        // Spin until the count moves (a tick is 10 ms at the usual 100 Hz), 5 s at most.
        let start = std::time::Instant::now();
        let mut x = 0u64;
        let mut now = before;
        while now <= before && start.elapsed() < std::time::Duration::from_secs(5) {
            for _ in 0..100_000 {
                x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
            }
            now = process_cpu_seconds().unwrap();
        }
        assert!(now > before, "5 s of spinning used no CPU time");
        assert!(now - before < 10.0, "{} s", now - before);
    }
}
