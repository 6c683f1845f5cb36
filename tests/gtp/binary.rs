//! Starting the real binary, and what it must do as a process: stdout holds GTP answers
//! only, bad flags fail with a readable message, end of input ends it.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use crate::support::process::run_with_input;

/// Flags that make a test engine quick and repeatable.
pub const FAST: &[&str] = &[
    "--playouts",
    "200",
    "--threads",
    "1",
    "--seed",
    "7",
    "--quiet",
];

/// The `tengen` binary (`TENGEN_GTP_BIN` overrides the path), checked to speak GTP as
/// `tengen gtp`. Always `Some`: a binary that does not answer fails the test.
pub fn tengen() -> Option<PathBuf> {
    let path = std::env::var_os("TENGEN_GTP_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_tengen")));
    let out = run(&path, &["gtp", "--quiet"], b"1 name\n2 quit\n");
    assert!(
        out.starts_with("=1 Tengen\n\n"),
        "`{} gtp` does not speak GTP (got {out:?})",
        path.display()
    );
    Some(path)
}

/// Runs the binary with `args`, feeds it `input`, returns its stdout.
pub fn run(path: &PathBuf, args: &[&str], input: &[u8]) -> String {
    let Ok(mut child) = Command::new(path)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    else {
        return String::new();
    };
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn stdout_carries_answers_only_and_diagnostics_go_to_stderr() {
    let Some(path) = tengen() else { return };
    let mut child = Command::new(&path)
        .args(["gtp", "--playouts", "300", "--threads", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"boardsize 9\nclear_board\n1 genmove b\n2 genmove w\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    for block in stdout.split_terminator("\n\n") {
        assert!(
            block.starts_with('=') || block.starts_with('?'),
            "{stdout:?}"
        );
    }
    assert_eq!(stdout.matches("\n\n").count(), 4, "{stdout:?}");
    // One summary line per move on stderr (playouts, win rate, sequence).
    assert_eq!(stderr.matches("playouts").count(), 2, "{stderr}");
    assert!(stderr.contains("pv "), "{stderr}");
    // Not started on a terminal: no greeting.
    assert!(!stderr.contains("list_commands"), "{stderr}");
}

#[test]
fn quiet_silences_the_diagnostics() {
    let Some(path) = tengen() else { return };
    let out = run_with_input(
        Command::new(&path).args(["gtp", "--quiet", "--playouts", "100", "--threads", "1"]),
        "boardsize 9\ngenmove b\nquit\n",
    );
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn bad_flags_fail_with_a_message_on_stderr() {
    let Some(path) = tengen() else { return };
    for args in [
        &["gtp", "--threads", "0"][..],
        &["gtp", "--playouts", "-1"],
        &["gtp", "--komi", "NaN"],
        &["gtp", "--rules", "chess"],
        &["gtp", "--time-per-move", "-1"],
        &["gtp", "--resign-threshold", "2"],
        &["gtp", "--policy", "medium"],
        &["gtp", "--lag", "-5"],
        &["gtp", "--lag", "60001"],
        &["gtp", "--playout-model", "on"],
        &["gtp", "--playout-model", "-1"],
        &["bench", "--playout-model", "1001"],
    ] {
        let out = Command::new(&path)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

/// An unknown rule set is refused as clap refuses any bad value (exit status 2, `error:
/// invalid value …`), with the rule sets known named: by `tengen gtp` and by
/// `tengen match`, which take the same ones.
#[test]
fn an_unknown_rule_set_is_refused_naming_the_known_ones() {
    let Some(path) = tengen() else { return };
    const KNOWN: &str =
        "(expected chinese, japanese, korean, aga, tromp-taylor, new_zealand or cgos)";
    for args in [
        &["gtp", "--rules", "weird"][..],
        &["--rules", "weird"],
        &[
            "match", "--rules", "weird", "-e", "a", "-e", "b", "--out", "o",
        ],
    ] {
        let out = Command::new(&path)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let first = stderr.lines().next().unwrap_or_default();
        assert_eq!(
            first,
            format!(
                "error: invalid value 'weird' for '--rules <RULES>': unknown rules \"weird\" {KNOWN}"
            ),
            "{args:?}"
        );
    }
    // Every name and spelling `--rules` reads starts the engine.
    for name in [
        "chinese",
        "Japanese",
        "korean",
        "aga",
        "tromp-taylor",
        "tromp_taylor",
        "nz",
        "new_zealand",
        "cgos",
    ] {
        let out = run(&path, &["gtp", "--rules", name, "--quiet"], b"1 name\n");
        assert!(out.starts_with("=1 Tengen"), "{name}: {out}");
    }
}

/// A whole number written in scientific notation is a whole number; a fraction is not.
#[test]
fn a_whole_number_may_be_written_in_scientific_notation() {
    let Some(path) = tengen() else { return };
    let out = run(
        &path,
        &["gtp", "--playouts", "1e9", "--memory", "6.4e1", "--quiet"],
        b"1 tengen-get playouts\n2 tengen-get memory\n",
    );
    assert!(out.contains("=1 1000000000\n"), "{out}");
    assert!(out.contains("=2 64\n"), "{out}");
    let (ok, _, stderr) = output(&path, &["gtp", "--playouts", "1.5e0"]);
    assert!(!ok);
    assert!(
        stderr.starts_with("error: invalid value '1.5e0' for '--playouts <N>': not a whole number"),
        "{stderr}"
    );
}

/// `tengen match --rules` takes every rule set `tengen gtp --rules` does and tells the
/// engines; an engine that cannot be told is named in a warning.
#[test]
fn match_rules_reach_the_engines_or_a_warning_says_they_could_not() {
    let Some(path) = tengen() else { return };
    let scratch = tempfile::tempdir().unwrap();
    let tengen_engine = format!("'{}' --playouts 20 --threads 1 --quiet", path.display());
    let fake = |args: &str| {
        format!(
            "python3 '{}' {args}",
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("crates/arena/tests/fake_engine.py")
                .display()
        )
    };
    let out = scratch.path().join("tt");
    let (ok, _, stderr) = output(
        &path,
        &[
            "match",
            "-e",
            &tengen_engine,
            "-e",
            &fake("--name Fake --no-kgs-rules"),
            "--games",
            "2",
            "--size",
            "5",
            "--rules",
            "tromp-taylor",
            "--out",
            out.to_str().unwrap(),
            "-q",
        ],
    );
    assert!(ok, "{stderr}");
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(
        warnings[0].contains("Fake 1.0 cannot be told the rules (it does not know kgs-rules)")
            && warnings[0].contains("scores by tromp-taylor rules"),
        "{stderr}"
    );
    let sgf = std::fs::read_to_string(out.join("game-0001.sgf")).unwrap();
    assert!(sgf.contains("RU[Tromp-Taylor]"), "{sgf}");
    // An engine that refuses the name is named too.
    let out = scratch.path().join("nz");
    let (ok, _, stderr) = output(
        &path,
        &[
            "match",
            "-e",
            &tengen_engine,
            "-e",
            &fake("--name Kgs --rules chinese,japanese"),
            "--games",
            "2",
            "--size",
            "5",
            "--rules",
            "nz",
            "--out",
            out.to_str().unwrap(),
            "-q",
        ],
    );
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains(
            "Kgs 1.0 cannot be told the rules (it refused `kgs-rules new_zealand`: unknown rules)"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("Tengen"), "{stderr}");
}

/// A report path `tengen match` refuses leaves nothing behind: not the output directory
/// it would have made.
#[test]
fn a_refused_report_path_leaves_no_output_directory() {
    let Some(path) = tengen() else { return };
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("d");
    let engine = format!("'{}' --playouts 20 --threads 1 --quiet", path.display());
    let (ok, _, stderr) = output(
        &path,
        &[
            "match",
            "-e",
            &engine,
            "-e",
            &engine,
            "--games",
            "2",
            "--size",
            "5",
            "--out",
            out.to_str().unwrap(),
            "--report",
            "/nonexistent/r.html",
            "-q",
        ],
    );
    assert!(!ok);
    assert!(
        stderr.contains("/nonexistent/r.html") && stderr.contains("does not exist"),
        "{stderr}"
    );
    assert!(!out.exists(), "{stderr}");
}

#[test]
fn merge_refuses_the_flags_that_set_up_a_match() {
    let Some(path) = tengen() else { return };
    for flag in [
        &["--games", "5"][..],
        &["--size", "9"],
        &["--seed", "3"],
        &["-j", "1"],
    ] {
        let out = Command::new(&path)
            .args(["match", "--merge", "some-dir"])
            .args(flag)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{flag:?}");
        assert!(err.contains("cannot be used with"), "{flag:?}: {err}");
    }
}

#[test]
fn the_flags_reach_the_engine() {
    let Some(path) = tengen() else { return };
    let out = run(
        &path,
        &[
            "gtp",
            "--playouts",
            "123",
            "--threads",
            "2",
            "--seed",
            "9",
            "--policy",
            "light",
            "--resign-threshold",
            "0.05",
            "--ponder",
            "--memory",
            "64",
            "--time-per-move",
            "2.5",
            "--lag",
            "30",
            "--playout-model",
            "0.5",
            "--quiet",
        ],
        b"1 tengen-get\n",
    );
    for want in [
        "threads 2",
        "playouts 123",
        "move_time 2.5",
        "seed 9",
        "policy light",
        "resign_threshold 0.05",
        "ponder 1",
        "memory 64",
        "lag 30",
        "playout_model 0.5",
    ] {
        assert!(out.contains(want), "{want} in {out}");
    }
    let out = run(
        &path,
        &["gtp", "--rules", "japanese", "--quiet"],
        b"1 showboard\n",
    );
    assert!(out.contains("komi 6.5"), "{out}");
    let out = run(
        &path,
        &["gtp", "--komi", "-2", "--size", "9", "--quiet"],
        b"1 showboard\n",
    );
    assert!(out.contains("komi -2") && out.contains(" 9 "), "{out}");
}

#[test]
fn no_input_no_answer_and_a_clean_exit() {
    let Some(path) = tengen() else { return };
    let out = Command::new(&path)
        .args(["gtp", "--quiet"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
}

/// Runs the binary with `args` and no input; returns (success, stdout, stderr).
pub fn output(path: &PathBuf, args: &[&str]) -> (bool, String, String) {
    outcome(
        Command::new(path)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap(),
    )
}

/// A finished process's (success, stdout, stderr), its output read as text.
fn outcome(out: Output) -> (bool, String, String) {
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bench_policy_search_measures_the_tree_search_only() {
    let Some(path) = tengen() else { return };
    let quick = [
        "--sizes",
        "9",
        "--no-midgame",
        "--threads",
        "1",
        "--playouts",
        "200",
    ];
    let (ok, stdout, stderr) = output(
        &path,
        &[&["bench", "--policy", "search", "--json"][..], &quick].concat(),
    );
    assert!(ok, "{stderr}");
    let rows: Vec<&str> = stdout.lines().collect();
    assert_eq!(rows.len(), 1, "{stdout}");
    assert!(rows[0].contains(r#""policy":"search""#), "{stdout}");
    assert!(rows[0].contains(r#""playouts":200,"#), "{stdout}");
    // With nothing left to measure it says so.
    let (ok, _, stderr) = output(
        &path,
        &[&["bench", "--policy", "search", "--no-search"][..], &quick].concat(),
    );
    assert!(!ok);
    assert!(stderr.contains("nothing to measure"), "{stderr}");
}

/// A run too short to time in CPU ticks (a short tree search) says so instead of giving
/// a playouts-a-CPU-second figure from a tick or two; a playout row is timed to a
/// fraction of a millisecond, so its figure stays within what one thread can do.
#[test]
fn a_short_bench_run_gives_no_absurd_cpu_figure() {
    let Some(path) = tengen() else { return };
    let bench = |policy: &str, playouts: &str, json: bool| {
        let mut args = vec![
            "bench",
            "--sizes",
            "9",
            "--no-midgame",
            "--threads",
            "1",
            "--policy",
            policy,
            "--playouts",
            playouts,
        ];
        if policy != "search" {
            args.push("--no-search");
        }
        if json {
            args.push("--json");
        }
        let (ok, stdout, stderr) = output(&path, &args);
        assert!(ok, "{args:?}: {stderr}");
        stdout
    };
    // 300 playouts of tree search: a few ticks of CPU time at most.
    let table = bench("search", "300", false);
    let row = table.lines().find(|l| l.contains(" search tree ")).unwrap();
    assert!(row.contains("too short"), "{table}");
    assert!(table.contains("\ntoo short: "), "{table}");
    let json = bench("search", "300", true);
    for (key, want) in [("cpu_too_short", "true"), ("playouts_per_cpu_sec", "null")] {
        assert_eq!(json_field(&json, key), want, "{json}");
    }
    // 20 000 light playouts: tens of milliseconds, timed within 2%. One thread's CPU
    // time is at most its wall time, so its rate a CPU-second is at least its rate a
    // second.
    let table = bench("light", "20000", false);
    let row = table.lines().find(|l| l.contains(" light ")).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    // size, position, policy, threads, playouts, playouts/s, /CPU-s, …
    let (per_sec, per_cpu): (f64, f64) = (cells[5].parse().unwrap(), cells[6].parse().unwrap());
    assert!(per_cpu >= 0.95 * per_sec, "{table}");
    let json = bench("light", "20000", true);
    let cpu: f64 = json_field(&json, "cpu_seconds").parse().unwrap();
    let wall: f64 = json_field(&json, "seconds").parse().unwrap();
    assert!(cpu > 0.0 && cpu <= wall + 1e-3, "{json}");
    assert_eq!(json_field(&json, "cpu_too_short"), "false", "{json}");
    assert!(
        json_field(&json, "playouts_per_cpu_sec")
            .parse::<f64>()
            .is_ok()
    );
    assert!(json_field(&json, "cpu_share").parse::<f64>().is_ok());
    assert!(["true", "false"].contains(&json_field(&json, "starved").as_str()));
}

/// The value of `key` in a one-line JSON object, as written.
fn json_field(line: &str, key: &str) -> String {
    let start = line.find(&format!("\"{key}\":")).unwrap() + key.len() + 3;
    line[start..].split([',', '}']).next().unwrap().to_string()
}

/// Every numeric flag of every subcommand reads a negative or otherwise bad number
/// itself, and refuses it in one wording that names the flag and the value:
/// `invalid value 'V' for '--flag <N>': must be between LO and HI` (or `must be at
/// least LO`, or why it is not a number).
#[test]
fn a_bad_number_is_refused_naming_the_flag_and_the_value() {
    let Some(path) = tengen() else { return };
    // The command line (words split at spaces), and its refusal: the flag and the value
    // it names, then why, as `FLAG VALUE: WHY`.
    let cases = [
        ("--playouts -1", "--playouts -1: must be at least 0"),
        ("--playouts=-1", "--playouts -1: must be at least 0"),
        (
            "gtp --playouts 18446744073709551616",
            "--playouts 18446744073709551616: must be between 0 and 18446744073709551615",
        ),
        ("gtp --threads 0", "--threads 0: must be between 1 and 1024"),
        ("gtp --threads two", "--threads two: not a whole number"),
        ("--seed -7", "--seed -7: must be at least 0"),
        (
            "--time-per-move -1",
            "--time-per-move -1: must be between 0.001 and 86400",
        ),
        (
            "--max-move-time -inf",
            "--max-move-time -inf: must be between 0.1 and 86400",
        ),
        ("--lag -5", "--lag -5: must be between 0 and 60000"),
        ("--komi NaN", "--komi NaN: not a number"),
        ("--komi -1e9", "--komi -1e9: must be between -1000 and 1000"),
        (
            "--resign-threshold -0.1",
            "--resign-threshold -0.1: must be between 0 and 1",
        ),
        ("--memory -64", "--memory -64: must be between 1 and 32768"),
        (
            "--model-weight -1",
            "--model-weight -1: must be between 0 and 100000",
        ),
        (
            "--playout-model -1",
            "--playout-model -1: must be between 0 and 1000",
        ),
        ("--size -9", "--size -9: must be between 2 and 25"),
        (
            "bench --threads -2",
            "--threads -2: must be between 1 and 1024",
        ),
        ("bench --playouts 0", "--playouts 0: must be at least 1"),
        (
            "bench --seconds -3",
            "--seconds -3: must be between 0.001 and 86400",
        ),
        (
            "bench --sizes 9,-13",
            "--sizes -13: must be between 2 and 25",
        ),
        (
            "bench --komi -inf",
            "--komi -inf: must be between -1000 and 1000",
        ),
        ("bench --seed -1", "--seed -1: must be at least 0"),
        (
            "match --games -4",
            "--games -4: must be between 1 and 1000000",
        ),
        // The schedule is laid out whole: four billion games would abort.
        (
            "match --games 4000000000",
            "--games 4000000000: must be between 1 and 1000000",
        ),
        ("match --size 1", "--size 1: must be between 2 and 25"),
        (
            "match --komi -2000",
            "--komi -2000: must be between -1000 and 1000",
        ),
        (
            "match --handicap 1",
            "--handicap 1: must be 0 or between 2 and 9",
        ),
        (
            "match --move-timeout -1",
            "--move-timeout -1: must be between 0.001 and 86400",
        ),
        (
            "match --startup-timeout 0",
            "--startup-timeout 0: must be between 0.001 and 86400",
        ),
        ("match -j 0", "--parallel 0: must be at least 1"),
        ("match --max-moves -1", "--max-moves -1: must be at least 1"),
        ("match --seed -1", "--seed -1: must be at least 0"),
        (
            "learn eval --model m.txt --games -5 x.sgf",
            "--games -5: must be at least 0",
        ),
        (
            "learn fit --out m.txt --rounds -1 x.sgf",
            "--rounds -1: must be at least 0",
        ),
        (
            "learn fit --out m.txt --pattern-capacity 999 x.sgf",
            "--pattern-capacity 999: must be between 1000 and 200000000",
        ),
        // A table past the machine's memory (or past usize) would abort.
        (
            "learn fit --out m.txt --pattern-capacity 18446744073709551615 x.sgf",
            "--pattern-capacity 18446744073709551615: must be between 1000 and 200000000",
        ),
    ];
    for (line, refusal) in cases {
        let (flag_value, why) = refusal.split_once(": ").unwrap();
        let (flag, value) = flag_value.split_once(' ').unwrap();
        let args: Vec<&str> = line.split(' ').collect();
        let (ok, stdout, stderr) = output(&path, &args);
        assert!(!ok && stdout.is_empty(), "{args:?}");
        let first = stderr.lines().next().unwrap_or_default();
        let want = format!("error: invalid value '{value}' for '{flag} <");
        assert!(
            first.starts_with(&want) && first.ends_with(&format!(">': {why}")),
            "{args:?}: {first}"
        );
    }
    // Composite values that start with a minus sign reach their own parsers too.
    let (ok, _, stderr) = output(&path, &["match", "--sprt", "-5,5,0.05,0.05"]);
    assert!(!ok && stderr.contains("required arguments"), "{stderr}");
    assert!(!stderr.contains("unexpected argument"), "{stderr}");
    let (ok, _, stderr) = output(&path, &["match", "--sprt", "-5,-10,0.05,0.05"]);
    assert!(
        !ok && stderr.contains("invalid value '-5,-10,0.05,0.05' for '--sprt"),
        "{stderr}"
    );
}

/// Runs `tengen match` (the binary at `path`) of two games on 5×5 between quick
/// Tengens seeded 1 and 2, labelled A and B, into `out`, with the `extra` arguments:
/// its (success, stdout, stderr).
fn two_games(path: &PathBuf, out: &str, extra: &[&str]) -> (bool, String, String) {
    let engine = |seed: u32| {
        format!(
            "'{}' --playouts 20 --threads 1 --quiet --seed {seed}",
            path.display()
        )
    };
    let (a, b) = (engine(1), engine(2));
    let args = [
        "match", "-e", &a, "-e", &b, "--label", "A", "--label", "B", "--games", "2", "--size", "5",
        "--out", out,
    ];
    output(path, &[&args[..], extra].concat())
}

/// `tengen match --focus` tells the summary from the side of the engine it names (a
/// label, a GTP name or a number), playing and merging; an ambiguous name is refused.
#[test]
fn match_focus_tells_the_summary_from_that_engine_s_side() {
    let Some(path) = tengen() else { return };
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("m");
    let out = out.to_str().unwrap();
    let (ok, summary, stderr) = two_games(&path, out, &["-q", "--focus", "B"]);
    assert!(ok, "{stderr}");
    let pair = |text: &str| {
        text.lines()
            .find(|l| l.contains(" vs "))
            .unwrap_or_default()
            .to_string()
    };
    assert!(pair(&summary).starts_with("B vs A: +"), "{summary}");
    assert!(pair(&summary).ends_with("] for B"), "{summary}");
    for (focus, first) in [("1", "A"), ("b", "B"), ("2", "B")] {
        let (ok, merged, stderr) = output(&path, &["match", "--merge", out, "--focus", focus]);
        assert!(ok, "{stderr}");
        assert!(
            pair(&merged).starts_with(&format!("{first} vs ")),
            "{focus}: {merged}"
        );
        assert!(
            pair(&merged).ends_with(&format!("] for {first}")),
            "{focus}: {merged}"
        );
    }
    // Both engines answer `name` with Tengen: that names neither.
    let (ok, _, stderr) = output(&path, &["match", "--merge", out, "--focus", "Tengen"]);
    assert!(
        !ok && stderr.contains("2 engines have that GTP name"),
        "{stderr}"
    );
    let (ok, _, stderr) = output(&path, &["match", "--merge", out, "--focus", "3"]);
    assert!(
        !ok && stderr.contains("the match has 2 engines"),
        "{stderr}"
    );
}

/// `tengen match` with stderr piped (no terminal, so no bars) still says how far it
/// got: a plain line as each game finishes.
#[test]
fn match_without_a_terminal_prints_a_line_a_game() {
    let Some(path) = tengen() else { return };
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("m");
    let (ok, _, stderr) = two_games(&path, out.to_str().unwrap(), &["-j", "1"]);
    assert!(ok, "{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("] game ")).collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].starts_with("[1/2] game "), "{stderr}");
    assert!(lines[1].starts_with("[2/2] game "), "{stderr}");
    // No bar was drawn: no carriage returns or escape sequences.
    assert!(
        !stderr.contains('\r') && !stderr.contains('\u{1b}'),
        "{stderr:?}"
    );
}

/// Splits a command line as a shell does for the help's examples: words separated by
/// spaces, with double or single quotes around a word that holds spaces.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    // The word being read, if one has begun (`""` begins an empty one).
    let mut word: Option<String> = None;
    let mut quote = None;
    for c in line.chars() {
        match (quote, c) {
            (None, '"' | '\'') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (Some(q), c) if c == q => quote = None,
            (None, ' ') => words.extend(word.take()),
            (_, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    assert!(quote.is_none(), "unbalanced quotes in {line:?}");
    words.extend(word);
    words
}

/// One example of a `--help`: the words after `tengen`, and what `echo` pipes into it.
#[derive(Debug)]
struct Example {
    line: String,
    args: Vec<String>,
    input: String,
}

/// The examples in `tengen ARGS --help`: the lines under its `Examples` heading, but
/// the comments.
fn examples(path: &PathBuf, help_of: &[&str]) -> Vec<Example> {
    let (ok, help, stderr) = output(path, &[help_of, &["--help"]].concat());
    assert!(ok, "{help_of:?}: {stderr}");
    let Some((_, section)) = help.split_once("\nExamples") else {
        panic!("`tengen {} --help` has no examples", help_of.join(" "));
    };
    let found: Vec<Example> = section
        .lines()
        .skip(1)
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let (input, command) = match line.split_once(" | ") {
                Some((echo, command)) => {
                    let said = shell_words(echo);
                    assert_eq!(said[0], "echo", "{line}");
                    (format!("{}\n", said[1..].join(" ")), command)
                }
                None => (String::new(), line),
            };
            let mut args = shell_words(command);
            assert_eq!(args.remove(0), "tengen", "{line}");
            Example {
                line: line.to_string(),
                args,
                input,
            }
        })
        .collect();
    assert!(!found.is_empty(), "{help_of:?}");
    found
}

/// Runs the binary as `tengen` with `args` in `dir`, the binary's folder first on the
/// PATH (so that `-e "tengen …"` starts it too), feeding `input`.
fn run_in(
    path: &PathBuf,
    dir: &std::path::Path,
    args: &[String],
    input: &str,
) -> (bool, String, String) {
    let bin_dir = path.parent().unwrap();
    let paths = std::env::var_os("PATH").unwrap_or_default();
    let search: Vec<PathBuf> = std::iter::once(bin_dir.to_path_buf())
        .chain(std::env::split_paths(&paths))
        .collect();
    outcome(run_with_input(
        Command::new(path)
            .args(args)
            .current_dir(dir)
            .env("PATH", std::env::join_paths(search).unwrap()),
        input,
    ))
}

/// Every subcommand's `--help` examples parse as written, and run as written in a
/// scratch folder holding the repository files they name, GNU Go replaced by a small
/// Python engine named GNU Go (the match's): each succeeds, and the match's summary is
/// told from Tengen's side, as its `--focus` asks.
#[test]
fn the_help_examples_parse_and_run_as_written() {
    let Some(path) = tengen() else { return };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    const GNUGO: &str = "/usr/games/gnugo --mode gtp --chinese-rules --level 10";
    let fake_gnugo = format!(
        "python3 '{}' --name 'GNU Go' --seed 1",
        root.join("crates/arena/tests/fake_engine.py").display()
    );
    let mut ran = 0;
    for help_of in [
        &[][..],
        &["gtp"],
        &["match"],
        &["bench"],
        &["learn"],
        &["learn", "fit"],
        &["learn", "eval"],
        &["learn", "export"],
        &["review"],
    ] {
        for mut example in examples(&path, help_of) {
            // Every flag is known and every value parses (clap reads them all before it
            // answers --help), the engines' command lines too.
            let parses = |args: &[String]| {
                let mut with_help = args.to_vec();
                with_help.push("--help".into());
                run_in(&path, dir, &with_help, "")
            };
            let (ok, _, stderr) = parses(&example.args);
            assert!(ok, "{}: {stderr}", example.line);
            for (i, word) in example.args.clone().iter().enumerate() {
                if i == 0 || example.args[i - 1] != "-e" {
                    continue;
                }
                if let Some(rest) = word.strip_prefix("tengen ") {
                    let (ok, _, stderr) = parses(&shell_words(rest));
                    assert!(ok, "{}: {word}: {stderr}", example.line);
                } else {
                    assert_eq!(word, GNUGO, "{}", example.line);
                    example.args[i] = fake_gnugo.clone();
                }
            }
            // The learn examples' records and tables, where the help says they are.
            for word in &example.args {
                let file = root.join(word);
                if !word.starts_with('-') && word.contains('/') && file.is_file() {
                    let copy = dir.join(word);
                    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
                    std::fs::copy(&file, &copy).unwrap();
                }
            }
            let (ok, stdout, stderr) = run_in(&path, dir, &example.args, &example.input);
            assert!(ok, "{}: {stderr}", example.line);
            if !example.input.is_empty() {
                assert!(stdout.starts_with("= "), "{}: {stdout}", example.line);
            }
            // A bench example measures: every figure is given, none is too short.
            if example.args[0] == "bench" {
                assert!(!stdout.contains("too short"), "{}: {stdout}", example.line);
                assert!(
                    !stdout.contains("\"cpu_too_short\":true"),
                    "{}: {stdout}",
                    example.line
                );
            }
            if example.args[0] == "match" {
                let pair = stdout.lines().find(|l| l.contains(" vs ")).unwrap_or("");
                assert!(
                    pair.starts_with("Tengen ")
                        && pair.contains(" vs GNU Go ")
                        && pair.ends_with(')'),
                    "{}: {stdout}",
                    example.line
                );
                assert!(pair.contains("] for Tengen "), "{}: {stdout}", example.line);
            }
            ran += 1;
        }
    }
    assert!(ran >= 8, "{ran} examples");
    // GNU Go, where it is installed, takes the example's flags.
    let gnugo = shell_words(GNUGO);
    if std::path::Path::new(&gnugo[0]).is_file() {
        let out = Command::new(&gnugo[0])
            .args(&gnugo[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                c.stdin.take().unwrap().write_all(b"name\nquit\n")?;
                c.wait_with_output()
            })
            .unwrap();
        assert!(
            String::from_utf8_lossy(&out.stdout).starts_with("= GNU Go"),
            "{out:?}"
        );
    }
}
