//! Fits the shape weights of `crates/knowledge/data/shapes.txt` to the moves of game records.
//!
//! ```sh
//! cargo run --release -p tengen-learn --example learn_shapes -- \
//!   [--min-seen 20] [--iterations 40] [--temp-dir DIR] RECORDS... > crates/knowledge/data/shapes.txt
//! ```
//!
//! `RECORDS` are SGF files or directories of them (the output of `tengen match
//! --out DIR`). The method is in `tengen_learn::shapes`. The shape strengths
//! are scaled so that a move in open space has strength 1, and shapes seen fewer than
//! `--min-seen` times as candidates are left out (they weigh 1 in the engine, like
//! open space). The training positions go to a temporary file in `--temp-dir`
//! (default: the system's temporary directory), removed at the end.

use std::path::{Path, PathBuf};

use tengen_board::sgf::parse_sgf;
use tengen_learn::shapes::{Records, fit, write_table};

fn sgf_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else {
            eprintln!("cannot read {}", path.display());
            return;
        };
        // Directory entries are not followed through symbolic links (no loops).
        let mut entries: Vec<(PathBuf, bool)> = entries
            .filter_map(|e| e.ok())
            .map(|e| (e.path(), e.file_type().is_ok_and(|t| t.is_dir())))
            .collect();
        entries.sort();
        for (p, is_dir) in entries {
            if is_dir {
                sgf_files(&p, out);
            } else if p.extension().is_some_and(|e| e == "sgf") {
                out.push(p);
            }
        }
    } else {
        out.push(path.to_path_buf());
    }
}

fn usage(message: &str) -> ! {
    eprintln!(
        "{message}\nusage: learn_shapes [--min-seen N] [--iterations N] [--temp-dir DIR] RECORDS..."
    );
    std::process::exit(2);
}

fn fail(e: &std::io::Error) -> ! {
    eprintln!("learn_shapes: {e}");
    std::process::exit(1);
}

fn main() {
    let mut min_seen = 20u64;
    let mut iterations = 40usize;
    let mut temp_dir = std::env::temp_dir();
    let mut inputs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut number = |name: &str| -> u64 {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| usage(&format!("{name} needs a whole number")))
        };
        match a.as_str() {
            "--min-seen" => min_seen = number("--min-seen"),
            "--iterations" => iterations = number("--iterations") as usize,
            "--temp-dir" => {
                temp_dir = args
                    .next()
                    .map(PathBuf::from)
                    .unwrap_or_else(|| usage("--temp-dir needs a directory"))
            }
            flag if flag.starts_with("--") => usage(&format!("unknown option {flag}")),
            _ => inputs.push(PathBuf::from(a)),
        }
    }
    if inputs.is_empty() {
        usage("no records given");
    }
    let mut files = Vec::new();
    for i in &inputs {
        sgf_files(i, &mut files);
    }
    let mut records = Records::new(&temp_dir).unwrap_or_else(|e| fail(&e));
    let (mut games, mut cut_short) = (0, 0);
    for f in &files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("skipping {}: {e}", f.display());
                continue;
            }
        };
        match parse_sgf(&text) {
            Ok(sgf) => {
                if !records.add_game(&sgf.game).unwrap_or_else(|e| fail(&e)) {
                    eprintln!("{}: replay stopped early", f.display());
                    cut_short += 1;
                }
                games += 1;
            }
            Err(e) => eprintln!("skipping {}: {e}", f.display()),
        }
    }
    eprintln!(
        "{games} games ({cut_short} cut short), {} positions, {} candidates, {} shapes",
        records.positions(),
        records.candidates(),
        records.shapes()
    );
    let fit = fit(&mut records, iterations, |p| {
        // A round's first pass measures the strengths the rounds before left.
        let per_round = (p.passes - 1) / iterations.max(1);
        let first_of_round = per_round > 0 && p.pass % per_round == 1 % per_round;
        if p.pass == p.passes || (first_of_round && p.round > 0 && p.round % 10 == 0) {
            eprintln!(
                "round {}: log-likelihood per move {:.4}",
                p.round, p.log_likelihood
            );
        }
    })
    .unwrap_or_else(|e| fail(&e));
    let list = |v: &[f64]| {
        v.iter()
            .map(|g| format!("{g:.3}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let sources: Vec<String> = inputs.iter().map(|i| i.display().to_string()).collect();
    let header = [
        "Tengen's learned 3x3 shapes: SHAPE STRENGTH PLAYED SEEN.".to_string(),
        "Written by crates/learn/examples/learn_shapes.rs (the method: crates/learn/src/shapes.rs);"
            .to_string(),
        "SHAPE is seen from the mover: X mine, O theirs, lower case in atari, # off the board."
            .to_string(),
        format!("Records: {}.", sources.join(" ")),
        format!(
            "{games} games, {} positions; shapes seen at least {min_seen} times as candidates.",
            records.positions()
        ),
        format!(
            "Log-likelihood per move {:.4}; the other features' strengths:",
            fit.log_likelihood()
        ),
        format!(
            "  distance (far, 2, 3, 4, 5, 6-7, 8-10): {}",
            list(fit.distance())
        ),
        format!("  capture (none, 1 stone, 2+): {}", list(fit.capture())),
        format!(
            "  self-atari (none, 1 stone, 2+): {}",
            list(fit.self_atari())
        ),
    ];
    print!("{}", write_table(&header, &fit.rows(&records, min_seen)));
}
