//! The policy network and the move model as one prior: each move scored by
//! `a × ln p_net + b × g_mm` (`g_mm` the move model's log strength: the product
//! `p_net^a × p_mm^b`, normalized over the candidates), for a grid
//! of exponents, on the same records and positions as `tengen learn eval`.
//!
//! ```sh
//! cargo run --release -p tengen-learn --example product -- \
//!     crates/knowledge/data/policy-19.safetensors crates/knowledge/data/moves.txt \
//!     ../shared/data/tygem-9d/tygem-9d-2011-03.sgf --games 50 [--skip N] \
//!     [--a 1] [--b 0,0.2,0.4,0.5,0.6,0.8,1]
//! ```
//!
//! Prints, for each pair of exponents, top-1 and top-5 agreement with the move played,
//! the mean log-likelihood and top-1 by phase. Positions whose move played is not a
//! candidate of both (a superko or suicide the records allow) are skipped, as `eval`
//! skips them.

use std::path::PathBuf;
use std::process::ExitCode;

use tengen_knowledge::move_model::features::{RawFeatures, candidates};
use tengen_knowledge::move_model::pattern::PatternHasher;
use tengen_knowledge::move_model::{MoveModel, MoveScorer};
use tengen_knowledge::{NetScratch, PolicyNet};
use tengen_learn::eval::{PHASES, phase, rank_of_played, replay};
use tengen_learn::records::{Selection, for_each_game};

/// One pair of exponents' totals.
#[derive(Clone, Debug, Default)]
struct Score {
    a: f32,
    b: f32,
    top1: [u64; 3],
    top5: u64,
    log_likelihood: f64,
}

struct Args {
    net: PathBuf,
    model: PathBuf,
    records: PathBuf,
    games: Option<u64>,
    skip: u64,
    a: Vec<f32>,
    b: Vec<f32>,
}

fn numbers(v: &str) -> Result<Vec<f32>, String> {
    v.split(',')
        .map(|x| {
            x.trim()
                .parse::<f32>()
                .ok()
                .filter(|n| n.is_finite() && *n >= 0.0)
                .ok_or(format!("not an exponent: {x}"))
        })
        .collect()
}

fn parse_args() -> Result<Args, String> {
    let mut positional = Vec::new();
    let (mut games, mut skip, mut a, mut b) = (None, 0, vec![1.0], vec![0.0, 0.2, 0.4, 0.5]);
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--games" => games = Some(value()?.parse().map_err(|_| "bad --games")?),
            "--skip" => skip = value()?.parse().map_err(|_| "bad --skip")?,
            "--a" => a = numbers(&value()?)?,
            "--b" => b = numbers(&value()?)?,
            _ if arg.starts_with("--") => return Err(format!("unknown flag {arg}")),
            _ => positional.push(PathBuf::from(arg)),
        }
    }
    let [net, model, records] = <[PathBuf; 3]>::try_from(positional)
        .map_err(|_| "give the network, the move table and one SGF collection".to_string())?;
    Ok(Args {
        net,
        model,
        records,
        games,
        skip,
        a,
        b,
    })
}

fn run(args: Args) -> Result<(), String> {
    let net = PolicyNet::load(&args.net).map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(&args.model)
        .map_err(|e| format!("{}: {e}", args.model.display()))?;
    let model = MoveModel::parse(&text).map_err(|e| format!("{}: {e}", args.model.display()))?;
    let mut scores: Vec<Score> = args
        .a
        .iter()
        .flat_map(|&a| args.b.iter().map(move |&b| (a, b)))
        .map(|(a, b)| Score {
            a,
            b,
            ..Score::default()
        })
        .collect();
    let mut scratch = NetScratch::new(&net);
    let hasher = PatternHasher::new();
    let mut cands: Vec<RawFeatures> = Vec::new();
    let mut positions = [0u64; 3];
    let mut failure = None;
    let selection = Selection {
        files: vec![args.records.clone()],
        skip: args.skip,
        games: args.games,
    };
    let read = for_each_game(
        &selection,
        |g| {
            if g.start_board().size().get() != net.side() {
                return Ok(());
            }
            replay(g, |board, c, m, history, number| {
                if failure.is_some() {
                    return;
                }
                let out = match net.evaluate(board, c, history, &mut scratch) {
                    Ok(out) => out,
                    Err(e) => {
                        failure = Some(e.to_string());
                        return;
                    }
                };
                candidates(board, &hasher, c, history, model.left_out(), &mut cands);
                let Some(played) = cands.iter().position(|f| f.mv == m) else {
                    return;
                };
                if !out.is_legal(m) {
                    return;
                }
                let ph = phase(number);
                positions[ph] += 1;
                let ln_net: Vec<f32> = cands
                    .iter()
                    .map(|f| out.of(f.mv).max(f32::MIN_POSITIVE).ln())
                    .collect();
                let ln_mm: Vec<f32> = cands.iter().map(|f| model.log_strength(f)).collect();
                let mut s = vec![0.0f32; cands.len()];
                for score in &mut scores {
                    for (i, v) in s.iter_mut().enumerate() {
                        *v = score.a * ln_net[i] + score.b * ln_mm[i];
                    }
                    // Ties count against the prior, as in `eval`.
                    let (better, log_p) = rank_of_played(&s, played);
                    score.top1[ph] += u64::from(better < 1);
                    score.top5 += u64::from(better < 5);
                    score.log_likelihood += log_p;
                }
            });
            Ok::<(), String>(())
        },
        |path, number, e| eprintln!("{}: game {number}: {e}", path.display()),
    )
    .map_err(|e| e.to_string())?;
    if let Some(e) = failure {
        return Err(e);
    }
    let all: u64 = positions.iter().sum();
    if all == 0 {
        return Err(format!(
            "no position scored: no game of the network's size ({}×{})",
            net.side(),
            net.side()
        ));
    }
    println!(
        "{} games read, {all} positions ({} {} / {} {} / {} {})",
        read.read, PHASES[0], positions[0], PHASES[1], positions[1], PHASES[2], positions[2]
    );
    println!("a     b       top-1   top-5  log-lik  top-1 by phase");
    let pct = |n: u64, d: u64| 100.0 * n as f64 / d.max(1) as f64;
    for s in &scores {
        println!(
            "{:<5} {:<5} {:>6.2}% {:>6.2}% {:>8.3}  {:.1} / {:.1} / {:.1}",
            s.a,
            s.b,
            pct(s.top1.iter().sum(), all),
            pct(s.top5, all),
            s.log_likelihood / all as f64,
            pct(s.top1[0], positions[0]),
            pct(s.top1[1], positions[1]),
            pct(s.top1[2], positions[2]),
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    match parse_args().and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("product: {e}");
            ExitCode::FAILURE
        }
    }
}
