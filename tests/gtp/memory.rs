//! The process's memory under `--memory`: the trees of every search thread stay within
//! the one budget, plus a fixed overhead (README, "Memory"), read from Linux's
//! `/proc/PID/status` (the peak resident set, VmHWM) before and after a few searches.

use super::binary::tengen;
use super::process::Engine;

/// The overhead each search thread may add besides the trees: its stack, its
/// allocator arena, its scratch board and counters (about 250 KiB measured).
const PER_THREAD: u64 = 384 << 10;

/// A field of `/proc/PID/status` in bytes (`None` off Linux).
fn status_bytes(pid: u32, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line[field.len()..]
        .trim_start_matches(':')
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb << 10)
}

/// How much the peak resident set of `tengen gtp ARGS` grows over three `genmove`s on a
/// 9×9 board, from where it stands after `clear_board`; `None` off Linux.
fn growth(args: &[&str]) -> Option<u64> {
    let path = tengen()?;
    let mut engine = Engine::start(&path, args);
    engine.ok("boardsize 9");
    engine.ok("clear_board");
    let before = status_bytes(engine.pid(), "VmRSS")?;
    for color in ["b", "w", "b"] {
        engine.ok(&format!("genmove {color}"));
    }
    let peak = status_bytes(engine.pid(), "VmHWM")?;
    Some(peak.saturating_sub(before))
}

/// Fails the test unless the peak resident set of `tengen gtp --threads THREADS FLAGS
/// --quiet` (`flags` split at spaces) grows by at most `trees` bytes plus `PER_THREAD`
/// for each thread; passes off Linux.
fn assert_growth_within(threads: u64, flags: &str, trees: u64) {
    let threads_flag = threads.to_string();
    let mut args = vec!["--threads", &threads_flag];
    args.extend(flags.split(' '));
    args.push("--quiet");
    let Some(grew) = growth(&args) else {
        return;
    };
    let allowed = trees + threads * PER_THREAD;
    assert!(
        grew <= allowed,
        "{args:?}: grew {grew} bytes, allowed {allowed}"
    );
}

#[test]
fn many_root_parallel_trees_share_one_small_budget() {
    // 16 trees in 1 MiB, filled many times over (20 000 playouts a move). Each used
    // to get at least 512 KiB, 8 MiB in all.
    let flags = "--parallelism root --memory 1 --playouts 20000 --seed 3";
    assert_growth_within(16, flags, 1 << 20);
}

#[test]
fn a_huge_budget_builds_one_shared_tree() {
    // 32 GiB under tree parallelism: one tree, whose chunk tables take some 17 MiB
    // (charged to it). Every worker used to build a tree of the whole budget, tables
    // included, and a fresh one on every move.
    assert_growth_within(8, "--memory 32768 --playouts 3000 --seed 3", 20 << 20);
}
