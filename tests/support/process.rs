//! Running the `tengen` binary and other programs of the tests: with its arguments
//! alone, or on pipes with its whole input given at once; and a scratch directory for
//! what they write.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the `tengen` binary with `args`, its input empty, stdout and stderr captured.
pub fn tengen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the tengen binary runs")
}

/// Runs `node SCRIPT ARGS…` in `tests/node`, whose npm `package` must be installed
/// (`npm ci` there), and fails the test unless the script ends well and says that all
/// of Sabaki's checks passed.
pub fn sabaki_checks(package: &str, script: &str, args: &[&str]) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/node");
    assert!(
        dir.join("node_modules").join(package).exists(),
        "tests/node/node_modules is missing {package} (run `npm ci` in tests/node)"
    );
    let out = Command::new("node")
        .current_dir(&dir)
        .arg(script)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run node: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("all Sabaki checks passed"), "{stdout}");
}

/// Fails the test, with the process's stderr, unless it succeeded.
pub fn succeeded(run: &Output) {
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

/// Runs `command` with `input` on its stdin (then closed), stdout and stderr
/// captured. A process that stops early may have closed its input already; what it
/// wrote is still returned.
pub fn run_with_input(command: &mut Command, input: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{command:?} does not start: {e}"));
    // Written from a thread, so that a long answer cannot stall a long input.
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("the process ends");
    let _ = writer.join();
    out
}

/// The CPU time process `pid` has used so far, its threads' ended or not (Linux's
/// `/proc/PID/stat`, in the kernel's 10 ms ticks), `None` where it cannot be read.
pub fn process_cpu(pid: u32) -> Option<std::time::Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's name (in parentheses, which may hold spaces):
    // the state is the stat's third field, user and system time its 14th and 15th.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(std::time::Duration::from_millis(ticks * 10))
}

/// Waits until process `pid` has used `cpu` more CPU time than when called: an
/// engine that was waiting for input is then at work (its search runs), however
/// loaded the machine. Fails the test if that does not happen within `secs` seconds;
/// returns at once where the time cannot be read (not Linux).
pub fn wait_for_cpu(pid: u32, cpu: std::time::Duration, secs: u64) {
    super::cpu::wait_for_cpu_of(&format!("process {pid}"), || process_cpu(pid), cpu, secs);
}
