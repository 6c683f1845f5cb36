//! `tengen review`: every position of a game's main line analysed by the engine, the
//! record written back annotated for GUIs, and the win-rate graph as SVG
//! (`tengen-review` does the work; this is the flags, the files and the progress bar).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use tengen_engine::{Config, Limit, MoveBudget};
use tengen_review::{
    Analyst, KEY_MISTAKES, Noise, Record, Review, Settings, budget_note, check_writable,
    key_mistakes, write_atomically,
};

use crate::bounds::{self, Real};
use crate::setting_flags::{SearchFlag, SearchFlagSet, SearchFlags};

/// Playouts a position without `--playouts` or `--time-per-move`.
const DEFAULT_PLAYOUTS: u64 = 1000;
/// `--mistake`'s bounds, in percent of win rate.
const MISTAKE: Real = Real::between(0.1, 100.0);
/// `--mistake`'s default.
const DEFAULT_MISTAKE: f64 = 10.0;
/// Without a terminal on stderr (no progress bar), a line every this many positions.
const PROGRESS_EVERY: usize = 10;

/// The examples of `tengen review --help` (`tests/gtp/binary.rs` runs them).
const REVIEW_EXAMPLES: &str = "\
Examples, from a checkout of Tengen (any SGF record will do):
  # A quick look at a 9x9 game: writes tests/data/sgf/variations9-review.sgf
  tengen review tests/data/sgf/variations9.sgf --playouts 200 --threads 1
  # 1000 playouts a position on two threads, the graph beside the record:
  tengen review crates/review/doc/game.sgf -o game-review.sgf --threads 2 --svg game.svg";

/// Options of `tengen review`.
#[derive(Debug, Args)]
#[command(after_help = REVIEW_EXAMPLES)]
pub struct ReviewArgs {
    /// The game record (SGF). Its main line is reviewed: the start position and the
    /// position after every move.
    #[arg(value_name = "GAME.sgf")]
    pub game: PathBuf,
    /// The reviewed record (default: GAME-review.sgf beside GAME). It is rewritten,
    /// whole, after every position analysed, so an interrupted review loses nothing
    /// (see --resume).
    #[arg(short, long, value_name = "OUT.sgf")]
    pub out: Option<PathBuf>,
    /// The search's flags (`--playouts`, `--time-per-move`, `--threads`, `--seed`), from
    /// the engine's settings.
    #[command(flatten)]
    pub search: SearchFlags<ReviewSearch>,
    /// Also draw the graph of Black's win rate and score lead over the game, the
    /// mistakes marked, as an SVG file.
    #[arg(long, value_name = "GRAPH.svg")]
    pub svg: Option<PathBuf>,
    /// Keep the positions already analysed in OUT (an interrupted review) and analyse
    /// only the others. OUT must be a review of the same game.
    #[arg(long)]
    pub resume: bool,
    /// A move that loses at least this many percent of win rate against the engine's
    /// preferred move is a mistake (BM, listed in the root comment); half of it is
    /// doubtful (DO). Default 10. Both only where the loss is also more than the
    /// search's own noise at its playouts; a review at too few playouts says so.
    #[arg(long, value_name = "PCT", allow_hyphen_values = true,
          value_parser = MISTAKE.parser())]
    pub mistake: Option<f64>,
}

/// The engine's settings that `tengen review` takes as flags, worded for a review.
#[derive(Debug)]
pub struct ReviewSearch;

impl SearchFlagSet for ReviewSearch {
    const FLAGS: &'static [SearchFlag] = &[
        SearchFlag::new("playouts", "Playouts a position (default 1000)")
            .bounds(bounds::POSITIVE)
            .conflicts_with("time-per-move"),
        SearchFlag::new(
            "move_time",
            "Seconds a position, instead of a number of playouts",
        ),
        SearchFlag::new("threads", "Search threads (default: the machine's cores)"),
        SearchFlag::new(
            "seed",
            "Seed of the search's random choices (default: the engine's fixed one, so that \
             with one thread and --playouts a review repeats)",
        ),
    ];
}

/// The default reviewed record: `GAME-review.sgf` beside `GAME`.
fn default_out(game: &Path) -> PathBuf {
    let stem = game
        .file_stem()
        .map_or_else(|| "game".into(), |s| s.to_string_lossy().into_owned());
    game.with_file_name(format!("{stem}-review.sgf"))
}

/// Whether two paths name the same file (the second need not exist).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Reviews the game the flags name.
pub fn run(args: ReviewArgs) -> Result<(), String> {
    let game_path = &args.game;
    let shown = game_path.display();
    let bytes = std::fs::read(game_path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            warn(&format!(
                "{shown} is not UTF-8: characters that are not were replaced in the review"
            ));
            String::from_utf8_lossy(e.as_bytes()).into_owned()
        }
    };
    let record = Record::parse(&text).map_err(|e| format!("{shown}: {e}"))?;
    let out = args.out.clone().unwrap_or_else(|| default_out(game_path));
    if same_file(game_path, &out) {
        return Err(format!(
            "the review would overwrite the record itself ({}): choose another -o",
            out.display()
        ));
    }
    for path in std::iter::once(&out).chain(args.svg.as_ref()) {
        check_writable(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    for line in record.warnings() {
        warn(&format!("{shown}: {line}"));
    }
    let threshold = args.mistake.unwrap_or(DEFAULT_MISTAKE) / 100.0;
    let (config, limit, words) = engine_settings(&args)?;
    let noise = Noise::MEASURED;
    let settings = Settings {
        engine: format!("Tengen {}, {words}", crate::VERSION),
        threshold,
        noise,
        playouts: match limit {
            Limit::Playouts(n) => Some(n),
            _ => None,
        },
    };
    let mut review = Review::new(record, settings);
    let kept = if args.resume {
        resume(&mut review, &out)?
    } else {
        0
    };
    // Known before the search for a playout budget; for a time budget, from the
    // playouts the searches made, at the end. Said once nothing can be refused any more.
    let mut noted = false;
    if let Limit::Playouts(n) = limit {
        if let Some(note) = budget_note(&noise, n, threshold) {
            warn(&note);
            noted = true;
        }
    }
    let pending = review.pending();
    let all = review.record().positions();
    let mut analyst = Analyst::with_config(config, limit);
    // The bar draws only on a terminal; elsewhere (a pipe, a log file) plain lines say
    // how far the review got.
    let plain = !std::io::stderr().is_terminal();
    let bar = ProgressBar::new(pending.len() as u64).with_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} positions, {elapsed} so far, about {eta} left  {msg}",
        )
        .expect("static template"),
    );
    let started = Instant::now();
    let write_out = |review: &Review| {
        write_atomically(&out, review.to_sgf().as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", out.display()))
    };
    for &p in &pending {
        let game = review.record().game_at(p);
        let color = review.record().to_move_at(p);
        match analyst.evaluate(&game, color) {
            Some(eval) => {
                bar.set_message(format!(
                    "move {p}: Black {:.1}%",
                    100.0 * eval.black_winrate()
                ));
                review.set(p, eval);
                write_out(&review)?;
            }
            None => {
                let line = format!(
                    "tengen review: warning: the search found no move after move {p}; that position is left out"
                );
                if plain {
                    eprintln!("{line}");
                } else {
                    bar.println(line);
                }
            }
        }
        bar.inc(1);
        let done = bar.position() as usize;
        if plain && (done % PROGRESS_EVERY == 0 || done == pending.len()) {
            eprintln!(
                "tengen review: {} of {all} positions",
                all - pending.len() + done
            );
        }
    }
    bar.finish_and_clear();
    // Written once more at the end, even when nothing was left to analyse.
    write_out(&review)?;
    if let Some(svg) = &args.svg {
        let graph = review.graph_svg().map_err(|e| e.to_string())?;
        write_atomically(svg, graph.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", svg.display()))?;
    }
    if !noted {
        if let Some(note) = review.budget_note() {
            warn(&note);
        }
    }
    report(&review, &out, args.svg.as_deref(), kept, started.elapsed());
    Ok(())
}

/// The engine's settings, the search's limit a position, and both in words.
fn engine_settings(args: &ReviewArgs) -> Result<(Config, Limit, String), String> {
    let mut config = Config::default().with_shipped_net();
    args.search.apply(&mut config)?;
    let threads = match config.threads {
        1 => "1 thread".to_string(),
        t => format!("{t} threads"),
    };
    let (limit, per) = match args.search.text("move_time") {
        Some(secs) => {
            let t = config.default_move_time;
            // Every position gets its whole time: no clock is saved by stopping early.
            let budget = MoveBudget {
                soft: t,
                hard: t,
                early_stop: false,
            };
            // The seconds as given, for the record's words (the flag's parser took them).
            let secs = bounds::SECONDS
                .parse(secs)
                .map_err(|why| bounds::refused("--time-per-move", secs, why))?;
            (Limit::Time(budget), format!("{secs} s a position"))
        }
        None => {
            let n = config.playouts.unwrap_or(DEFAULT_PLAYOUTS);
            (Limit::Playouts(n), format!("{n} playouts a position"))
        }
    };
    Ok((config, limit, format!("{per}, {threads}")))
}

/// Takes what `out` already holds of this review; says what it found.
fn resume(review: &mut Review, out: &Path) -> Result<usize, String> {
    let shown = out.display();
    match std::fs::read(out) {
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes);
            let kept = review
                .resume(&text)
                .map_err(|e| format!("--resume: {shown}: {e}"))?;
            let all = review.record().positions();
            eprintln!("tengen review: {kept} of {all} positions kept from {shown}");
            Ok(kept)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!(
                "tengen review: {shown} does not exist yet: the review starts from the beginning"
            );
            Ok(0)
        }
        Err(e) => Err(format!("--resume: cannot read {shown}: {e}")),
    }
}

/// The closing lines: the key mistakes on stdout, what was done on stderr.
fn report(review: &Review, out: &Path, svg: Option<&Path>, kept: usize, took: Duration) {
    let size = review.record().size();
    let judgements = review.judgements();
    let key = key_mistakes(&judgements, KEY_MISTAKES);
    if key.is_empty() {
        println!("Key mistakes: none");
    } else {
        println!("Key mistakes (largest loss first):");
        for j in key {
            println!(
                "  move {:>3} {} {:<4} loses {:>5.1}% ({:.1} points); Tengen prefers {}",
                j.number,
                j.color.letter(),
                size.move_vertex(j.played).to_string(),
                100.0 * j.loss,
                j.points,
                size.move_vertex(j.preferred)
            );
        }
    }
    let (done, all) = (review.analysed(), review.record().positions());
    let analysed = done - kept.min(done);
    let mut wrote = out.display().to_string();
    if let Some(svg) = svg {
        wrote.push_str(&format!(" and {}", svg.display()));
    }
    eprintln!(
        "tengen review: {done} of {all} positions reviewed ({analysed} analysed in {:.1} s, {kept} kept from before); wrote {wrote}",
        took.as_secs_f64()
    );
}

/// A warning on stderr.
fn warn(line: &str) {
    eprintln!("tengen review: warning: {line}");
}
