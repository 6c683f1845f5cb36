//! KaTrain's real engine class (`katrain.core.engine.KataGoEngine`, `pip install
//! katrain`) driving the binary headless, both ways KaTrain starts an engine: as a
//! custom command, and as the "KataGo executable" (`tengen analysis -model … -config …
//! -override-config …`). It analyses every turn of a 19×19 game of 200 moves with
//! maxVisits 500 (`tests/python/katrain_analysis.py`). The venv comes from `.ci/run`:
//! `python3 -m venv target/katrain-venv` and `pip install -r tests/python/requirements.txt`
//! (`KATRAIN_PYTHON` names another interpreter).

use std::path::PathBuf;
use std::process::Command;

use super::binary;

/// The Python with KaTrain installed.
fn katrain_python() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let python = std::env::var_os("KATRAIN_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/katrain-venv/bin/python"));
    assert!(
        python.is_file(),
        "{} is missing: run `python3 -m venv target/katrain-venv && \
         target/katrain-venv/bin/pip install -r tests/python/requirements.txt` (as .ci/run does)",
        python.display()
    );
    python
}

/// Runs the KaTrain script in `mode` over `moves` moves at `visits` visits a turn.
fn katrain_reviews_a_game(mode: &str, moves: u32, visits: u32) {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/katrain_analysis.py");
    let out = Command::new(katrain_python())
        .arg(script)
        .arg(binary())
        .args([mode, &moves.to_string(), &visits.to_string()])
        .output()
        .expect("run the KaTrain script");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("OK: KaTrain got a complete analysis"),
        "KaTrain ({mode}) failed:\n{stdout}\n{stderr}"
    );
    let summary = stdout
        .lines()
        .find(|l| l.starts_with(mode))
        .unwrap_or_default();
    eprintln!("KaTrain {summary}");
}

#[test]
#[ignore = "long: cargo test -- --include-ignored"]
fn katrain_reviews_a_200_move_game_through_a_custom_command() {
    katrain_reviews_a_game("custom", 200, 500);
}

#[test]
#[ignore = "long: cargo test -- --include-ignored"]
fn katrain_reviews_a_game_with_tengen_as_its_katago_executable() {
    katrain_reviews_a_game("katago", 200, 500);
}
