//! `tengen learn`: fit the move model to SGF collections (`fit`) and score a model, or
//! the policy network (`eval --policy-net`), on records it did not learn from (`eval`). The records are streamed one game at a time;
//! the fit keeps its competitions in a temporary file and its pattern counts in a table
//! of fixed size, so its memory does not grow with the records. `fit --without` leaves
//! feature groups out (the table records it, and `eval` then neither computes nor
//! weighs them), so that each group's gain and cost can be measured.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use tengen_board::sgf::SgfGame;
use tengen_board::{BoardSize, Game, counted};
use tengen_knowledge::move_model::left_out::LeftOut;
use tengen_knowledge::move_model::{MoveModel, MoveScorer};
use tengen_knowledge::shape::ShapeWeights;
use tengen_knowledge::{NetScratch, PolicyNet, PolicyNetError};
use tengen_learn::eval::{Evaluation, PHASES, Tally};
use tengen_learn::export::{ExportOptions, Exporter, HeldOut, Month, OwnershipJudge};
use tengen_learn::moves::{MoveTraining, PATTERN_CAPACITY, PatternCounts};
use tengen_learn::records::{Selection, for_each_record};
use tengen_learn::teams::TeamFit;

use crate::bounds;

/// `--pattern-capacity`'s bounds: room for a thousand patterns at least, and no more
/// than a table this machine's memory could hold (a count takes about 16 bytes).
const PATTERN_CAPACITY_BOUNDS: bounds::Whole = bounds::Whole::between(1000, 200_000_000);

/// `tengen learn fit`'s example.
macro_rules! fit_example {
    () => {
        "  tengen learn fit --out moves.txt --rounds 2 --min-played 1 \
         tests/data/sgf/variations9.sgf tests/data/sgf/handicap19.sgf tests/data/sgf/ko9_ff3.sgf"
    };
}

/// `tengen learn eval`'s examples.
macro_rules! eval_examples {
    () => {
        "  tengen learn eval --model moves.txt tests/data/sgf/setup13.sgf\n  \
         tengen learn eval --model crates/knowledge/data/moves.txt tests/data/sgf/handicap19.sgf\n  \
         tengen learn eval --policy-net crates/knowledge/data/policy-19.safetensors tests/data/sgf/handicap19.sgf"
    };
}

/// `tengen learn export`'s example.
macro_rules! export_example {
    () => {
        "  tengen learn export --out shards --held-out-month 2011-03 \
         tests/data/sgf/policy/selfplay19.sgf"
    };
}

/// Where the examples' records are (`tests/gtp/binary.rs` runs them).
macro_rules! examples_from {
    () => {
        "Examples, from a checkout of Tengen (any SGF files or collections will do):\n"
    };
}

/// Options of `tengen learn`.
#[derive(Debug, Args)]
#[command(after_help = concat!(examples_from!(), fit_example!(), "\n", eval_examples!()))]
pub struct LearnArgs {
    #[command(subcommand)]
    command: LearnCommand,
}

#[derive(Debug, Subcommand)]
enum LearnCommand {
    /// Fit a move model (tactical features, 3×3 shapes, large patterns) by MM.
    Fit(FitArgs),
    /// Score a move table or a 3×3 shape table on game records.
    Eval(EvalArgs),
    /// Write the positions of game records as policy-network training shards.
    Export(ExportArgs),
    /// Score the engine's win rate (and a network's value) as a forecast of the results
    /// of game records.
    Outcomes(crate::learn_outcomes::OutcomesArgs),
}

/// Which games of the records to read.
#[derive(Debug, Args)]
pub(crate) struct Records {
    /// SGF collections (or single records), read in order.
    #[arg(required = true)]
    pub(crate) records: Vec<PathBuf>,
    /// Read at most this many games (after the skipped ones).
    #[arg(long, allow_hyphen_values = true, value_parser = bounds::ANY.parser::<u64>())]
    pub(crate) games: Option<u64>,
    /// Skip this many games first.
    #[arg(long, default_value_t = 0, allow_hyphen_values = true,
          value_parser = bounds::ANY.parser::<u64>())]
    pub(crate) skip: u64,
}

impl Records {
    /// The games these flags select.
    pub(crate) fn selection(&self) -> Selection {
        Selection {
            files: self.records.clone(),
            skip: self.skip,
            games: self.games,
        }
    }
}

#[derive(Debug, Args)]
#[command(after_help = concat!(examples_from!(), fit_example!()))]
struct FitArgs {
    #[command(flatten)]
    records: Records,
    /// Where to write the table.
    #[arg(long)]
    out: PathBuf,
    /// Large patterns played fewer times than this in the records are not features.
    #[arg(long, default_value_t = 10, allow_hyphen_values = true,
          value_parser = bounds::ANY.parser::<u32>())]
    min_played: u32,
    /// Rounds of MM updates (one per feature group each).
    #[arg(long, default_value_t = 20, allow_hyphen_values = true,
          value_parser = bounds::ANY.parser::<usize>())]
    rounds: usize,
    /// Directory for the temporary file of training competitions (about 2.5 kB a
    /// position, removed at the end); default: the system's temporary directory.
    #[arg(long)]
    temp_dir: Option<PathBuf>,
    /// Distinct large patterns the counting pass holds (16 bytes each, and a third
    /// more); beyond it, counts are lowered to make room and the output says by how
    /// much at most.
    #[arg(long, default_value_t = PATTERN_CAPACITY, allow_hyphen_values = true,
          value_parser = PATTERN_CAPACITY_BOUNDS.parser::<usize>())]
    pattern_capacity: usize,
    /// Leave these feature groups out of the model, comma-separated: capture, escape,
    /// atari, self-atari, previous, before-previous, edge (tactical groups), shape (the
    /// 3×3 shape), large-patterns. The table's `without` line records them, and
    /// whatever rates with the table neither computes nor weighs them.
    #[arg(long, value_name = "GROUPS", value_parser = LeftOut::parse_list)]
    without: Option<LeftOut>,
}

#[derive(Debug, Args)]
#[command(
    after_help = concat!(examples_from!(), eval_examples!()),
    group = clap::ArgGroup::new("scored").required(true).args(["model", "policy_net"]),
)]
struct EvalArgs {
    #[command(flatten)]
    records: Records,
    /// The table: a move table (`tengen learn fit`; one fitted `--without` groups is
    /// scored without computing them) or a 3×3 shape table (`crates/knowledge/data/shapes.txt`).
    #[arg(long)]
    model: Option<PathBuf>,
    /// Score a policy network instead: its weights file (safetensors, from
    /// `crates/learn/python/train.py`), on games of the board size it serves.
    #[arg(long, value_name = "FILE")]
    policy_net: Option<PathBuf>,
}

#[derive(Debug, Args)]
#[command(
    after_help = concat!(examples_from!(), export_example!()),
    group = clap::ArgGroup::new("held_out").required(true).args(["held_out_month", "no_held_out"]),
)]
struct ExportArgs {
    #[command(flatten)]
    records: Records,
    /// The directory of the shards (made if missing; it must not hold shards):
    /// `train-00000.tgp`, … and `held-out-YYYY-MM.tgp` (format: crates/learn/src/shard.rs).
    #[arg(long)]
    out: PathBuf,
    /// Keep the games of this month (by their DT date) out of the training shards:
    /// they go into `held-out-YYYY-MM.tgp` only; games without a date are skipped.
    #[arg(long, value_name = "YYYY-MM", value_parser = Month::parse)]
    held_out_month: Option<Month>,
    /// Hold no games out: every game goes into the training shards.
    #[arg(long)]
    no_held_out: bool,
    /// The board size exported; games on other boards are skipped.
    #[arg(long, default_value_t = 19, allow_hyphen_values = true,
          value_parser = bounds::BOARD_SIZE.parser::<u32>())]
    board_size: u32,
    /// The most positions in a training shard (838 bytes each on 19×19); a game is
    /// never split between two.
    #[arg(long, default_value_t = 1_000_000, allow_hyphen_values = true,
          value_parser = bounds::POSITIVE.parser::<u64>())]
    shard_positions: u64,
    /// The playouts of the judgement of each game's last position that labels every
    /// point's final ownership (its search, and as many to settle it); 0 labels none.
    #[arg(long, default_value_t = 1000, allow_hyphen_values = true,
          value_parser = bounds::ANY.parser::<u32>())]
    ownership_playouts: u32,
}

/// Runs `tengen learn`.
pub fn run(args: LearnArgs) -> Result<(), String> {
    match args.command {
        LearnCommand::Fit(a) => fit(a),
        LearnCommand::Eval(a) => eval(a),
        LearnCommand::Export(a) => export(a),
        LearnCommand::Outcomes(a) => crate::learn_outcomes::run(a),
    }
}

fn bar(len: Option<u64>, what: &str) -> ProgressBar {
    let bar = match len {
        Some(n) => ProgressBar::new(n),
        None => ProgressBar::new_spinner(),
    };
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{what} {{bar:40}} {{pos}}/{{len}} games, {{elapsed}} (eta {{eta}})"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Calls `visit` on each game read (stopping at its first error) with a progress bar;
/// returns the games read and the records refused (the first five named on stderr).
fn for_each_game(
    records: &Records,
    what: &str,
    mut visit: impl FnMut(&Game) -> Result<(), String>,
) -> Result<(u64, u64), String> {
    for_each_sgf(records, what, |g| visit(&g.game))
}

/// [`for_each_game`] with each game's whole record (its date, result, …).
pub(crate) fn for_each_sgf(
    records: &Records,
    what: &str,
    mut visit: impl FnMut(&SgfGame) -> Result<(), String>,
) -> Result<(u64, u64), String> {
    let progress = bar(records.games, what);
    let mut named = 0;
    let selection = records.selection();
    let tally = for_each_record(
        &selection,
        |g| {
            progress.inc(1);
            visit(g)
        },
        |path, number, e| {
            progress.inc(1);
            named += 1;
            if named <= 5 {
                progress.suspend(|| eprintln!("{}: game {number}: {e}", path.display()));
            }
        },
    );
    progress.finish_and_clear();
    let tally = tally.map_err(|e| e.to_string())?;
    Ok((tally.read, tally.refused))
}

fn names(records: &Records) -> String {
    let files: Vec<String> = records
        .records
        .iter()
        .map(|p| {
            p.file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
        })
        .collect();
    let games = records.games.map_or("all".to_string(), |n| n.to_string());
    format!(
        "{} (games: skip {}, then {games})",
        files.join(" "),
        records.skip
    )
}

/// `tengen learn fit`: counts the large patterns, gathers the positions' competitions
/// and writes the move model MM fits to them.
fn fit(args: FitArgs) -> Result<(), String> {
    let temp_dir = fit_temp_dir(&args)?;
    // Made first, so that an unwritable directory fails before the long passes.
    let left_out = args.without.unwrap_or(LeftOut::NOTHING);
    let empty = MoveTraining::new(Vec::new(), left_out, &temp_dir).map_err(temp_error)?;
    drop(empty);
    let Counted { frequent, floor } = count_patterns(&args, left_out)?;
    let mut training = MoveTraining::new(frequent, left_out, &temp_dir).map_err(temp_error)?;
    let games = add_positions(&args.records, &mut training)?;
    let fit = mm_rounds(&mut training, args.rounds)?;
    let summary = format!(
        "{}, {}; patterns played at least {}{}; {}; log-likelihood per move {:.4}.",
        games_count(games),
        positions_count(training.competitions().positions()),
        counted(u64::from(args.min_played), "time", "times"),
        if floor == 0 {
            String::new()
        } else {
            format!(" (counts lowered by at most {floor})")
        },
        counted(args.rounds as u64, "MM round", "MM rounds"),
        fit.log_likelihood
    );
    let command: Vec<String> = std::env::args().collect();
    let header = vec![
        "Tengen's move model: tactical values, 3x3 shapes and large patterns (MM, Coulom 2007)."
            .to_string(),
        "Format and method: crates/knowledge/src/move_model/table.rs, crates/learn/src/moves.rs."
            .to_string(),
        format!("Records: {}.", names(&args.records)),
        format!("Command: {}", command.join(" ")),
        format!("Feature groups left out: {left_out}."),
        summary,
    ];
    std::fs::write(&args.out, training.table(&fit, &header))
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    eprintln!("wrote {}", args.out.display());
    Ok(())
}

/// The directory for the temporary file of competitions, once `fit`'s paths and
/// pattern capacity are checked.
fn fit_temp_dir(args: &FitArgs) -> Result<PathBuf, String> {
    if let Some(parent) = args.out.parent().filter(|p| !p.as_os_str().is_empty())
        && !parent.is_dir()
    {
        return Err(format!("{}: no such directory", parent.display()));
    }
    let temp_dir = args.temp_dir.clone().unwrap_or_else(std::env::temp_dir);
    if !temp_dir.is_dir() {
        return Err(format!(
            "{}: no such directory (--temp-dir)",
            temp_dir.display()
        ));
    }
    bounds::check_whole(
        "--pattern-capacity",
        args.pattern_capacity,
        PATTERN_CAPACITY_BOUNDS,
    )?;
    Ok(temp_dir)
}

/// A failure of the temporary file of competitions, as `fit` reports it.
fn temp_error(e: std::io::Error) -> String {
    format!("the temporary file of competitions: {e} (choose another directory with --temp-dir)")
}

/// What the counting pass keeps of the large patterns.
struct Counted {
    /// The patterns played at least `--min-played` times, as
    /// [`PatternCounts::frequent`] gives them.
    frequent: Vec<(u64, u8, u32)>,
    /// The most their counts were lowered to stay within `--pattern-capacity`.
    floor: u32,
}

/// The counting pass (none when large patterns are left out).
fn count_patterns(args: &FitArgs, left_out: LeftOut) -> Result<Counted, String> {
    if left_out.large_patterns() {
        eprintln!("large patterns left out: no counting pass");
        return Ok(Counted {
            frequent: Vec::new(),
            floor: 0,
        });
    }
    let mut counts = PatternCounts::new(args.pattern_capacity);
    let (games, refused) = for_each_game(&args.records, "patterns", |g| {
        counts.add_game(g);
        Ok(())
    })?;
    let frequent = counts.frequent(args.min_played);
    let floor = counts.floor();
    eprintln!(
        "{} ({refused} refused): {} held, {} with a count of at least {}{}",
        games_count(games),
        counted(counts.len() as u64, "pattern", "patterns"),
        frequent.len(),
        args.min_played,
        if floor == 0 {
            " (exact counts)".to_string()
        } else {
            format!(" (counts lowered by at most {floor} to stay within --pattern-capacity)")
        }
    );
    Ok(Counted { frequent, floor })
}

/// The positions pass: every position's competition added to `training`; the games
/// read.
fn add_positions(records: &Records, training: &mut MoveTraining) -> Result<u64, String> {
    let mut short: u64 = 0;
    let (games, refused) = for_each_game(records, "positions", |g| {
        if !training.add_game(g).map_err(temp_error)? {
            short += 1;
        }
        Ok(())
    })?;
    let c = training.competitions();
    eprintln!(
        "{} ({refused} refused), {} ({} cut short), {}, {} MB in the temporary file",
        games_count(games),
        positions_count(c.positions()),
        games_count(short),
        counted(c.entries(), "(team, count) entry", "(team, count) entries"),
        c.bytes() / 1_000_000
    );
    Ok(games)
}

/// `rounds` rounds of MM on `training`, with a progress bar.
fn mm_rounds(training: &mut MoveTraining, rounds: usize) -> Result<TeamFit, String> {
    let progress = ProgressBar::new(1).with_style(
        ProgressStyle::with_template("MM {bar:40} {pos}/{len} passes, {msg} {elapsed} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let fit = training
        .fit(rounds, |p| {
            progress.set_length(p.passes as u64);
            progress.set_position(p.pass as u64);
            progress.set_message(format!(
                "round {}, log-likelihood {:.4}",
                (p.round + 1).min(rounds),
                p.log_likelihood
            ));
        })
        .map_err(temp_error)?;
    progress.finish_and_clear();
    Ok(fit)
}

/// A table of either kind, read from `path`.
enum Table {
    Moves(Box<MoveModel>),
    Shapes(Box<ShapeWeights>),
}

fn load(path: &Path) -> Result<Table, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    // A move table has tactical lines (the pass's at least) or a `without` header.
    let is_moves = text
        .lines()
        .any(|l| l.starts_with("tactical ") || l.split_whitespace().next() == Some("without"));
    if is_moves {
        MoveModel::parse(&text)
            .map(|m| Table::Moves(Box::new(m)))
            .map_err(|e| format!("{}: {e}", path.display()))
    } else {
        ShapeWeights::parse(&text)
            .map(|s| Table::Shapes(Box::new(s)))
            .map_err(|e| format!("{}: {e}", path.display()))
    }
}

fn eval(args: EvalArgs) -> Result<(), String> {
    let mut evaluation = Evaluation::new();
    let scored = match (&args.model, &args.policy_net) {
        (_, Some(path)) => {
            let net = PolicyNet::load(path).map_err(|e| e.to_string())?;
            let mut scratch = NetScratch::new(&net);
            // A game of another board size is skipped and counted; the first one's
            // error is the answer only when no game was of the network's size.
            let mut other_size = None;
            let (games, refused) = for_each_game(&args.records, "eval", |g| {
                match evaluation.add_game_net(g, &net, &mut scratch) {
                    Ok(_) => Ok(()),
                    Err(e @ PolicyNetError::BoardSize { .. }) => {
                        other_size.get_or_insert(e);
                        Ok(())
                    }
                    Err(e) => Err(e.to_string()),
                }
            })?;
            if let Some(e) = other_size.filter(|_| evaluation.games == 0) {
                return Err(e.to_string());
            }
            format!(
                "{}; {} ({refused} refused, {} on another board size, skipped)",
                net.describe(),
                games_count(games),
                evaluation.other_size
            )
        }
        (Some(path), None) => {
            let table = load(path)?;
            let scorer: &dyn MoveScorer = match &table {
                Table::Moves(m) => m.as_ref(),
                Table::Shapes(s) => s.as_ref(),
            };
            let left_out = scorer.left_out();
            let (games, refused) = for_each_game(&args.records, "eval", |g| {
                evaluation.add_game(g, &Dyn(scorer));
                Ok(())
            })?;
            format!(
                "model {} (left out: {left_out}); {} ({refused} refused)",
                path.display(),
                games_count(games)
            )
        }
        (None, None) => return Err("give --model or --policy-net".to_string()),
    };
    println!(
        "{scored}; records {}: {} skipped",
        names(&args.records),
        counted(evaluation.skipped, "move", "moves")
    );
    println!("phase      positions   top-1   top-5  top-10  log-lik  us/pos");
    let row = |name: &str, t: &Tally| {
        println!(
            "{name:<10} {:>9} {:>6.1}% {:>6.1}% {:>6.1}% {:>8.3} {:>7.0}",
            t.positions,
            t.percent(0),
            t.percent(1),
            t.percent(2),
            t.mean_log_likelihood(),
            t.micros()
        );
    };
    for (name, t) in PHASES.iter().zip(&evaluation.phases) {
        row(name, t);
    }
    row("all", &evaluation.total());
    Ok(())
}

/// `1 game`, `2 games`.
fn games_count(n: u64) -> String {
    counted(n, "game", "games")
}

/// `1 position`, `2 positions`.
fn positions_count(n: u64) -> String {
    counted(n, "position", "positions")
}

/// A `dyn MoveScorer` as a sized scorer.
struct Dyn<'a>(&'a dyn MoveScorer);

impl MoveScorer for Dyn<'_> {
    fn log_strength(&self, f: &tengen_knowledge::move_model::features::RawFeatures) -> f32 {
        self.0.log_strength(f)
    }

    fn left_out(&self) -> LeftOut {
        self.0.left_out()
    }
}

/// The judge of each exported game's final ownership: the engine at its default
/// settings, one thread, seed 1 (the same records give the same labels), at `playouts`.
fn ownership_judge(playouts: u32) -> OwnershipJudge {
    let mut engine = tengen_engine::Engine::new(tengen_engine::Config {
        threads: 1,
        seed: 1,
        ..tengen_engine::Config::default()
    });
    OwnershipJudge {
        playouts,
        judge: Box::new(move |game| engine.judge_with(game, u64::from(playouts)).ownership),
    }
}

fn export(args: ExportArgs) -> Result<(), String> {
    bounds::check_whole("--board-size", args.board_size, bounds::BOARD_SIZE)?;
    bounds::check_whole("--shard-positions", args.shard_positions, bounds::POSITIVE)?;
    let side = BoardSize::new(args.board_size)
        .map_err(|e| format!("--board-size: {e}"))?
        .get();
    // Checked first, so that a missing record file leaves no directory or shard behind.
    for path in &args.records.records {
        std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let held_out = match args.held_out_month {
        Some(month) => HeldOut::Month(month),
        None => HeldOut::None,
    };
    let mut exporter = Exporter::new(ExportOptions {
        out_dir: args.out.clone(),
        side,
        held_out,
        shard_positions: args.shard_positions,
    })
    .map_err(|e| e.to_string())?;
    if args.ownership_playouts > 0 {
        exporter = exporter.with_judge(ownership_judge(args.ownership_playouts));
    }
    let write_error = |e: std::io::Error| format!("{}: {e}", args.out.display());
    let start = std::time::Instant::now();
    let (games, refused) = for_each_sgf(&args.records, "export", |g| {
        exporter.add_game(g).map_err(write_error)
    })?;
    let tally = exporter.finish().map_err(write_error)?;
    let seconds = start.elapsed().as_secs_f64();
    let positions = tally.training_positions + tally.held_out_positions;
    eprintln!(
        "records {}: {} read ({refused} refused, {} on another board size, {} undated, {} cut short at a move the board refused)",
        names(&args.records),
        games_count(games),
        tally.other_size,
        tally.undated,
        tally.cut_short
    );
    match held_out {
        HeldOut::Month(month) => eprintln!(
            "training: {}, {}; held out ({month}): {}, {}",
            games_count(tally.training_games),
            positions_count(tally.training_positions),
            games_count(tally.held_out_games),
            positions_count(tally.held_out_positions)
        ),
        HeldOut::None => eprintln!(
            "training: {}, {}; nothing held out",
            games_count(tally.training_games),
            positions_count(tally.training_positions)
        ),
    }
    eprintln!(
        "results: {} without one (exported unlabelled), {} won on time or by forfeit; ownership judged at {}",
        games_count(tally.without_result),
        games_count(tally.not_by_the_board),
        match args.ownership_playouts {
            0 => "no playouts (not labelled)".to_string(),
            n => format!("{n} playouts a game"),
        }
    );
    let mut bytes = 0;
    for (path, n) in &tally.shards {
        let size = std::fs::metadata(path).map_or(0, |m| m.len());
        bytes += size;
        println!("{} {n} positions {size} bytes", path.display());
    }
    eprintln!(
        "{} in {seconds:.1} s ({:.0} a second), {:.0} bytes a position",
        positions_count(positions),
        positions as f64 / seconds.max(1e-9),
        bytes as f64 / positions.max(1) as f64
    );
    Ok(())
}
