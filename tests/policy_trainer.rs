//! The policy-network trainer end to end: `tengen learn export` writes shards of the
//! fixture self-play games (`tests/data/sgf/policy/`), `crates/learn/python/train.py`
//! trains a small net on them for a few steps, and its held-out and training losses
//! fall; a second run with the same output directory resumes from the checkpoint, and a
//! third starts from its weights (`--init`). The
//! venv comes from `.ci/run`: `python3 -m venv target/policy-venv` and `pip install -r
//! crates/learn/python/requirements.txt` (`POLICY_PYTHON` names another interpreter).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::process::succeeded;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Python with the trainer's requirements installed.
fn policy_python() -> PathBuf {
    let python = std::env::var_os("POLICY_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/policy-venv/bin/python"));
    assert!(
        python.is_file(),
        "{} is missing: run `python3 -m venv target/policy-venv && target/policy-venv/bin/pip \
         install -r crates/learn/python/requirements.txt` (as .ci/run does)",
        python.display()
    );
    python
}

/// Runs train.py into `out` up to `steps` steps; returns its stdout.
fn train(shards: &Path, out: &Path, steps: u32) -> String {
    train_with(shards, out, steps, &[])
}

/// [`train`] with `extra` arguments after the others.
fn train_with(shards: &Path, out: &Path, steps: u32, extra: &[&str]) -> String {
    let output = train_command(shards, out, steps, extra)
        .output()
        .expect("run train.py");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "train.py failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// The train.py command of [`train_with`], not yet run.
fn train_command(shards: &Path, out: &Path, steps: u32, extra: &[&str]) -> Command {
    let mut command = Command::new(policy_python());
    command
        .arg(root().join("crates/learn/python/train.py"))
        .arg("--train")
        .arg(shards.join("train-00000.tgp"))
        .arg("--held-out")
        .arg(shards.join("held-out-2011-03.tgp"))
        .arg("--out")
        .arg(out)
        .args([
            "--layers",
            "2",
            "--filters",
            "16",
            "--batch",
            "32",
            "--lr",
            "0.003",
        ])
        .args(["--eval-every", "20", "--steps", &steps.to_string()])
        .args(extra);
    command
}

/// Runs `tengen learn export` on the fixture `tests/data/sgf/policy/{record}` into
/// `shards` (March 2011 held out, ownership judged at 50 playouts), checks that it
/// succeeded and returns its stderr.
fn export(record: &str, shards: &Path) -> String {
    let export = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["learn", "export", "--held-out-month", "2011-03"])
        .args(["--ownership-playouts", "50", "--out"])
        .arg(shards)
        .arg(root().join("tests/data/sgf/policy").join(record))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&export.stderr).into_owned();
    assert!(export.status.success(), "{stderr}");
    stderr
}

/// The JSON header of a safetensors file: after its little-endian length, it names the
/// tensors and the metadata.
fn safetensors_header(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    let n = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    String::from_utf8_lossy(&bytes[8..8 + n]).into_owned()
}

/// Runs a train.py `command` that must be refused: it fails, without a Python
/// traceback; returns its stderr.
fn refusal(mut command: Command) -> String {
    let output = command.output().expect("run train.py");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success(), "{stderr}");
    assert!(!stderr.contains("Traceback"), "{stderr}");
    stderr
}

/// The number after `"key": ` in a log line.
fn field(line: &str, key: &str) -> f64 {
    let start = line
        .find(&format!("\"{key}\": "))
        .unwrap_or_else(|| panic!("no {key} in {line}"))
        + key.len()
        + 4;
    let rest = &line[start..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    rest[..end].trim().parse().unwrap()
}

/// Reads a shard's game labels through `shards.py` and prints what they hold.
const LABELS_CHECK: &str = r#"
import sys
import numpy as np
import shards
s = shards.ShardSet([sys.argv[1]])
o = s.outcomes(np.arange(s.positions))
own = o["ownership"]
print(f"{s.positions} positions, {s.shards[0].games} games, "
      f"value known {int(np.isfinite(o['value']).sum())}, ownership {own.shape} "
      f"judged {int(bool(np.abs(own).sum(axis=(1, 2)).min() > 0))} "
      f"in range {int(bool(np.abs(own).max() <= 1.0))}")
"#;

#[test]
#[ignore = "long: cargo test -- --include-ignored"]
fn a_few_training_steps_lower_the_loss_and_a_second_run_resumes() {
    let tmp = tempfile::tempdir().unwrap();
    let shards = tmp.path().join("shards");
    let stderr = export("selfplay19.sgf", &shards);
    // Every fixture game says `RE[Void]`: no result to learn from, and it says so.
    assert!(
        stderr.contains("results: 4 games without one (exported unlabelled), 0 games won on time")
            && stderr.contains("ownership judged at 50 playouts a game"),
        "{stderr}"
    );
    // The trainer's reader sees the same game labels: no value, every point's ownership
    // judged (the last positions are not empty boards), in [-1, 1].
    let labels = Command::new(policy_python())
        .current_dir(root().join("crates/learn/python"))
        .args(["-c", LABELS_CHECK])
        .arg(shards.join("train-00000.tgp"))
        .output()
        .unwrap();
    succeeded(&labels);
    assert_eq!(
        String::from_utf8_lossy(&labels.stdout).trim(),
        "480 positions, 3 games, value known 0, ownership (480, 19, 19) judged 1 in range 1"
    );
    // The broken record is skipped with a warning, the March game held out.
    assert!(stderr.contains("game 3: bad SGF property"), "{stderr}");
    assert!(
        stderr.contains(
            "training: 3 games, 480 positions; held out (2011-03): 1 game, 160 positions"
        ),
        "{stderr}"
    );
    let run = tmp.path().join("run");
    train(&shards, &run, 60);
    let log = std::fs::read_to_string(run.join("log.jsonl")).unwrap();
    let rows: Vec<&str> = log.lines().collect();
    assert_eq!(rows.len(), 3, "{log}");
    let (first, last) = (rows[0], rows[2]);
    for key in ["train_loss", "held_out_loss"] {
        assert!(
            field(last, key) < field(first, key),
            "{key} did not fall:\n{log}"
        );
    }
    assert!(field(last, "top5") >= field(last, "top1"));
    // The weights file is safetensors: a little-endian header length, then JSON naming
    // the tensors and the metadata.
    let header = safetensors_header(&run.join("weights.safetensors"));
    for want in [
        "\"conv0.weight\"",
        "\"head.weight\"",
        "\"pass.bias\"",
        "\"tengen-policy\"",
    ] {
        assert!(header.contains(want), "{want} not in {header}");
    }
    let again = train(&shards, &run, 80);
    assert!(again.contains("resumed from"), "{again}");
    assert_eq!(
        std::fs::read_to_string(run.join("log.jsonl"))
            .unwrap()
            .lines()
            .count(),
        4
    );

    // A new run started from those weights goes on from their step and positions.
    let warm = tmp.path().join("warm");
    let weights = run.join("weights.safetensors");
    let weights = weights.to_str().unwrap();
    let started = train_with(&shards, &warm, 120, &["--init", weights]);
    assert!(
        started.contains("started from") && started.contains("at step 80 (2560 positions seen)"),
        "{started}"
    );
    let log = std::fs::read_to_string(warm.join("log.jsonl")).unwrap();
    let rows: Vec<&str> = log.lines().collect();
    assert_eq!(rows.len(), 2, "{log}");
    assert_eq!(field(rows[0], "step"), 100.0);
    assert_eq!(field(rows[1], "positions_seen"), 3840.0);
    // A net of another shape, or a file that is not a net, is refused in one line.
    for (init, layers) in [
        (weights, "3"),
        (shards.join("train-00000.tgp").to_str().unwrap(), "2"),
    ] {
        let stderr = refusal(train_command(
            &shards,
            &tmp.path().join("refused"),
            20,
            &["--init", init, "--layers", layers],
        ));
        assert!(stderr.contains("train.py: --init "), "{stderr}");
    }
}

/// The value, score and ownership heads: an export of records with results labels each
/// game, `--heads` trains the heads beside the policy (their losses fall, the held-out
/// log reports them by the move's number), and a policy network alone warm-starts a
/// net with heads, which is written as version 2 of the weights format.
#[test]
#[ignore = "long: cargo test -- --include-ignored"]
fn the_heads_learn_from_the_game_labels_and_start_from_a_policy_network() {
    let tmp = tempfile::tempdir().unwrap();
    let shards = tmp.path().join("shards");
    let stderr = export("results19.sgf", &shards);
    assert!(
        stderr.contains("results: 0 games without one (exported unlabelled), 1 game won on time"),
        "{stderr}"
    );
    // A policy network alone (no heads), then a net with heads started from it.
    let policy = tmp.path().join("policy");
    train(&shards, &policy, 20);
    let weights = policy.join("weights.safetensors");
    let heads = tmp.path().join("heads");
    let started = train_with(
        &shards,
        &heads,
        80,
        &["--heads", "--init", weights.to_str().unwrap()],
    );
    assert!(started.contains("started from"), "{started}");
    let log = std::fs::read_to_string(heads.join("log.jsonl")).unwrap();
    let rows: Vec<&str> = log.lines().collect();
    assert_eq!(rows.len(), 3, "{log}");
    // The first key named "ownership" is the training loss's (the held-out figure is
    // "ownership_agreement").
    assert!(
        field(rows[2], "ownership") < field(rows[0], "ownership"),
        "the ownership loss did not fall:\n{log}"
    );
    for want in [
        "\"heads_by_move\"",
        "\"160+\"",
        "\"brier\"",
        "\"score_mae\"",
    ] {
        assert!(rows[2].contains(want), "{want} not in {}", rows[2]);
    }
    let header = safetensors_header(&heads.join("weights.safetensors"));
    for want in [
        "\"value.fc1.weight\"",
        "\"value.fc2.bias\"",
        "\"ownership.weight\"",
        "\"format_version\":\"2\"",
    ] {
        assert!(header.contains(want), "{want} not in {header}");
    }
    // Version 1 shards have no labels: --heads refuses them in one line.
    let v1 = tmp.path().join("v1.tgp");
    let mut old = std::fs::read(shards.join("train-00000.tgp")).unwrap();
    old[8] = 1;
    std::fs::write(&v1, &old).unwrap();
    let mut refused = Command::new(policy_python());
    refused
        .arg(root().join("crates/learn/python/train.py"))
        .arg("--train")
        .arg(&v1)
        .arg("--held-out")
        .arg(shards.join("held-out-2011-03.tgp"))
        .arg("--out")
        .arg(tmp.path().join("refused"))
        .arg("--heads");
    let stderr = refusal(refused);
    assert!(stderr.starts_with("train.py: "), "{stderr}");
}
