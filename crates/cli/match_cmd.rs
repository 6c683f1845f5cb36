//! `tengen match`: bot-versus-bot matches (flags → [`tengen_arena::MatchConfig`]).

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use tengen_arena::{EngineSpec, Focus, MatchConfig, RuleSet, Shard, Sprt, TimeControl};

use crate::bounds::{self, BadNumber};

/// The examples of `tengen match --help`: quick, and runnable as written where GNU Go
/// is installed as Debian installs it (`tests/gtp/binary.rs` runs them, GNU Go replaced).
const MATCH_EXAMPLES: &str = "\
Examples:
  # Four quick 9x9 games against GNU Go (Debian's gnugo package), told from Tengen's side, with a report:
  tengen match -e \"/usr/games/gnugo --mode gtp --chinese-rules --level 10\" -e \"tengen --playouts 1000 --threads 1\" --games 4 --size 9 --focus Tengen --out m1 --report m1/report.html
  # Its summary and report again; with several directories (shards played with --shard K/N), combined:
  tengen match --merge m1 --focus Tengen --report m1.html";

/// Play engines against each other over GTP, or merge the journals of several runs.
///
/// Every move is checked by a referee; illegal moves, crashes, hangs and losses on time
/// are losses for that engine with the reason recorded. Results go to DIR/journal.jsonl
/// (one JSON line a game) and one SGF a game; an interrupted match continues with
/// --resume.
#[derive(Debug, Args)]
#[command(after_help = MATCH_EXAMPLES)]
pub struct MatchArgs {
    /// An engine's command line; give two, or more for a round robin.
    #[arg(
        short = 'e',
        long = "engine",
        value_name = "CMD",
        required_unless_present = "merge"
    )]
    engines: Vec<String>,

    /// A name for each engine in -e order (default: its GTP name and version).
    #[arg(long = "label", value_name = "NAME")]
    labels: Vec<String>,

    /// Games per pair of engines (at most a million: the schedule is laid out whole).
    #[arg(long, value_name = "N", default_value_t = 100, allow_hyphen_values = true,
          value_parser = bounds::Whole::between(1, 1_000_000).parser::<u32>())]
    games: u32,

    /// Board size (2 to 25).
    #[arg(long, value_name = "S", default_value_t = 19, allow_hyphen_values = true,
          value_parser = bounds::BOARD_SIZE.parser::<u32>())]
    size: u32,

    /// Komi.
    #[arg(long, value_name = "K", default_value_t = 7.5, allow_hyphen_values = true,
          value_parser = bounds::KOMI.parser())]
    komi: f64,

    /// Rules, as `tengen gtp --rules` takes them: chinese (area scoring), japanese
    /// (territory), korean, aga, tromp-taylor, new_zealand or cgos. The referee plays
    /// and scores by them; each engine is told them with `kgs-rules` (one that does not
    /// know it, or refuses the name, is named in a warning: give it the rules on its
    /// own command line).
    #[arg(long, value_name = "RULES", default_value = "chinese")]
    rules: RuleSet,

    /// Fixed handicap stones for Black (0, or 2 to 9).
    #[arg(long, value_name = "N", default_value_t = 0, allow_hyphen_values = true,
          value_parser = handicap)]
    handicap: u32,

    /// Time control, seconds: M (sudden death), M+PxT (byo-yomi: P periods of T),
    /// M+S/T (Canadian: S stones in T), M+If (Fischer: I added after each move;
    /// M+If:C keeps at most C on the clock). GTP tells engines whole seconds, so M is 0
    /// or at least 1 and T at least 1. Fischer reaches engines that know it as KataGo's
    /// kata-time_settings (fractions allowed), others as sudden death M, with time_left
    /// before every move.
    #[arg(long, value_name = "SPEC", allow_hyphen_values = true)]
    time: Option<TimeControl>,

    /// Without --time: the most seconds one move may take (also the limit on any other
    /// command).
    #[arg(long, value_name = "SECS", default_value_t = 60.0, allow_hyphen_values = true,
          value_parser = bounds::SECONDS.parser())]
    move_timeout: f64,

    /// Seconds an engine may take to start and answer protocol_version.
    #[arg(long, value_name = "SECS", default_value_t = 60.0, allow_hyphen_values = true,
          value_parser = bounds::SECONDS.parser())]
    startup_timeout: f64,

    /// Games played at once (default: the number of cores).
    #[arg(short = 'j', long, value_name = "J", allow_hyphen_values = true,
          value_parser = bounds::POSITIVE.parser::<usize>())]
    parallel: Option<usize>,

    /// Openings: an SGF file, or a text file with one move sequence or SGF path a line;
    /// each opening is played once with each colour.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,

    /// A game still going after N moves is void (default: 3 × the board's points).
    #[arg(long, value_name = "N", allow_hyphen_values = true,
          value_parser = bounds::POSITIVE.parser::<u32>())]
    max_moves: Option<u32>,

    /// Output directory: journal.jsonl, match.json and one SGF a game.
    #[arg(long, value_name = "DIR", required_unless_present = "merge")]
    out: Option<PathBuf>,

    /// Continue the match recorded in --out, skipping the games already played.
    #[arg(long)]
    resume: bool,

    /// Stop when the SPRT decides (the --focus engine, by default the first, against the
    /// first other engine), e.g. 0,10,0.05,0.05.
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA", allow_hyphen_values = true)]
    sprt: Option<Sprt>,

    /// Play only slice I of N of the schedule (games I, I+N, I+2N, …), for spreading a
    /// match over machines; combine the results with --merge.
    #[arg(long, value_name = "I/N", allow_hyphen_values = true)]
    shard: Option<Shard>,

    /// Keep each engine's stderr in DIR/logs/.
    #[arg(long)]
    engine_logs: bool,

    /// No progress bar or per-game lines.
    #[arg(short = 'q', long)]
    quiet: bool,

    /// The match's seed: game G (numbered from 1) gets seed S+G, put in place of
    /// `{seed}` in each engine's command line (e.g. -e "tengen --seed {seed}"), so
    /// that a match at fixed playouts can be played again move for move.
    #[arg(long, value_name = "S", default_value_t = 0, allow_hyphen_values = true,
          value_parser = bounds::ANY.parser::<u64>())]
    seed: u64,

    /// The engine the summary is about: its label, its GTP name (`Tengen`), or its number
    /// in -e order from 1 (default 1). Its records, score and Elo are given from its
    /// side, the progress's score too, and the SPRT tests it. Also with --merge.
    #[arg(long, value_name = "NAME|N")]
    focus: Option<Focus>,

    /// Write the match report here: one self-contained HTML page (settings, score,
    /// SPRT, Elo as games accumulate, results by colour, game lengths, time a move,
    /// every game with a link to its SGF; for round robins the crosstable and ratings).
    /// Refreshed as games finish and written when the match ends or stops; with --merge,
    /// the report of the merged journals.
    #[arg(long, value_name = "FILE.html")]
    report: Option<PathBuf>,

    /// Summarise the journals in these directories (e.g. one per shard) instead of
    /// playing; the match's settings come from their match.json, so no flag that sets
    /// up a match may be given with it.
    #[arg(
        long,
        value_name = "DIR",
        num_args = 1..,
        conflicts_with_all = [
            "engines", "labels", "games", "size", "komi", "rules", "handicap", "time",
            "move_timeout", "startup_timeout", "parallel", "openings", "max_moves", "out",
            "resume", "sprt", "shard", "engine_logs", "seed"
        ]
    )]
    merge: Option<Vec<PathBuf>>,
}

/// Reads `--handicap`: 0 (none) or 2 to 9 stones.
fn handicap(text: &str) -> Result<u32, BadNumber> {
    match bounds::Whole::between(0, 9).parse::<u32>(text) {
        Ok(n) if n != 1 => Ok(n),
        Err(BadNumber::NotWhole) => Err(BadNumber::NotWhole),
        _ => Err(BadNumber::Other(HANDICAP_BOUNDS.into())),
    }
}

/// What `--handicap` takes, worded as the other bounds are.
const HANDICAP_BOUNDS: &str = "must be 0 or between 2 and 9";

/// The duration of `flag`'s `s` seconds, within [`bounds::SECONDS`].
fn seconds(flag: &str, s: f64) -> Result<Duration, String> {
    bounds::check(flag, s, bounds::SECONDS).map(Duration::from_secs_f64)
}

/// The match the flags describe. Fails where they do not make one: no `--out` (clap
/// asks for it unless `--merge` is given), more labels than engines, or a timeout out of
/// bounds (the parsers have checked them already; they are checked again here, worded
/// the same way, for flags set otherwise).
impl TryFrom<MatchArgs> for MatchConfig {
    type Error = String;

    fn try_from(args: MatchArgs) -> Result<MatchConfig, String> {
        let out = args.out.ok_or("--out DIR is required")?;
        if args.labels.len() > args.engines.len() {
            return Err(format!(
                "{} labels for {} engines",
                args.labels.len(),
                args.engines.len()
            ));
        }
        let mut labels = args.labels.into_iter();
        let engines = args
            .engines
            .into_iter()
            .map(|command| EngineSpec {
                command,
                label: labels.next(),
            })
            .collect();
        // The output directory, and whatever the flags do not set, as the arena has it.
        let defaults = MatchConfig::new(Vec::new(), out);
        Ok(MatchConfig {
            engines,
            games: args.games,
            size: args.size,
            komi: args.komi,
            rules: args.rules,
            handicap: args.handicap,
            time: args.time,
            move_timeout: seconds("--move-timeout", args.move_timeout)?,
            startup_timeout: seconds("--startup-timeout", args.startup_timeout)?,
            parallel: args.parallel.unwrap_or(defaults.parallel),
            openings: args.openings,
            max_moves: args.max_moves,
            resume: args.resume,
            sprt: args.sprt,
            shard: args.shard,
            engine_logs: args.engine_logs,
            progress: !args.quiet,
            seed: args.seed,
            focus: args.focus,
            report: args.report,
            ..defaults
        })
    }
}

/// Runs `tengen match`: plays the match (or merges journals) and prints the summary.
pub fn run(args: MatchArgs) -> Result<(), String> {
    if let Some(dirs) = &args.merge {
        let summary = match &args.report {
            Some(report) => tengen_arena::merge_report(dirs, args.focus.as_ref(), report),
            None => tengen_arena::merge_for(dirs, args.focus.as_ref()),
        }
        .map_err(|e| e.to_string())?;
        print!("{summary}");
        if let Some(report) = &args.report {
            println!("Report: {}", report.display());
        }
        return Ok(());
    }
    let cfg = MatchConfig::try_from(args)?;
    let summary = tengen_arena::run_match(&cfg).map_err(|e| e.to_string())?;
    print!("{summary}");
    println!(
        "Results: {} (SGF files beside it)",
        cfg.out.join("journal.jsonl").display()
    );
    if let Some(report) = &cfg.report {
        println!("Report: {}", report.display());
    }
    Ok(())
}
