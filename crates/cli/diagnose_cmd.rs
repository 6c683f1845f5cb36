//! `tengen diagnose`: where and why an engine lost its match games. The positions of
//! each lost game are evaluated by Tengen (and a referee engine over GTP, if given)
//! and each loss classified by phase and kind (`tengen-diagnose` does the work; this
//! is the flags, the files and the progress lines).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use tengen_diagnose::{
    GtpReferee, KindRules, MatchGame, Report, Settings, TengenEvaluator, diagnose_game,
    record_paths,
};
use tengen_engine::{Config, Limit};
use tengen_review::{check_writable, write_atomically};

use crate::bounds::{self, Real, Whole};

/// Playouts a position without `--playouts`.
const DEFAULT_PLAYOUTS: u64 = 20_000;
/// `--threshold`'s bounds and default, in percent.
const THRESHOLD: Real = Real::between(1.0, 99.0);
const DEFAULT_THRESHOLD: f64 = 35.0;
/// `--min-group`'s bounds.
const MIN_GROUP: Whole = Whole::between(1, 625);
/// `--referee-timeout`'s default, seconds.
const DEFAULT_REFEREE_TIMEOUT: f64 = 120.0;

/// The examples of `tengen diagnose --help`.
const DIAGNOSE_EXAMPLES: &str = "\
Examples:
  # The games 'tengen' lost in the match directory p13, by Tengen at 20000 playouts:
  tengen diagnose p13 --engine tengen --threads 1 --markdown p13-losses.md --json p13-losses.json
  # Pachi's opinion beside Tengen's, 5000 playouts a position:
  tengen diagnose p13/game-0003.sgf p13/game-0007.sgf --engine tengen \\
    --referee-engine \"pachi -t =5000 threads=1\"";

/// Options of `tengen diagnose`.
#[derive(Debug, Args)]
#[command(after_help = DIAGNOSE_EXAMPLES)]
pub struct DiagnoseArgs {
    /// Match records: SGF files, match directories (their journal.jsonl, or every
    /// *.sgf in them) or journals.
    #[arg(value_name = "RECORDS", required = true)]
    pub records: Vec<PathBuf>,
    /// The engine to study, by its name in the records (PB/PW, the match's --label).
    #[arg(long, value_name = "NAME")]
    pub engine: String,
    /// Moves between evaluated positions (default 20 up to 15x15, 25 above, 10 below
    /// 11x11); the last position is always evaluated.
    #[arg(long, value_name = "N", allow_hyphen_values = true,
          value_parser = bounds::POSITIVE.parser::<usize>())]
    pub every: Option<usize>,
    /// Tengen's playouts a position (default 20000).
    #[arg(long, value_name = "N", allow_hyphen_values = true,
          value_parser = bounds::POSITIVE.parser::<u64>())]
    pub playouts: Option<u64>,
    /// Tengen's search threads (default: the machine's cores).
    #[arg(long, value_name = "T", allow_hyphen_values = true,
          value_parser = bounds::THREADS.parser::<usize>())]
    pub threads: Option<usize>,
    /// Seed of Tengen's search.
    #[arg(long, value_name = "S", allow_hyphen_values = true,
          value_parser = bounds::ANY.parser::<u64>())]
    pub seed: Option<u64>,
    /// A position where the studied engine's win rate is below this percentage counts
    /// as lost (default 35).
    #[arg(long, value_name = "PCT", allow_hyphen_values = true,
          value_parser = THRESHOLD.parser())]
    pub threshold: Option<f64>,
    /// The fewest stones of a group whose death counts (default 4).
    #[arg(long, value_name = "K", allow_hyphen_values = true,
          value_parser = MIN_GROUP.parser::<usize>())]
    pub min_group: Option<usize>,
    /// A GTP engine that evaluates the positions too: Pachi (read by pachi-result
    /// after genmove; give its playouts on its command line, e.g. "pachi -t =5000
    /// threads=1") or any engine answering lz-genmove_analyze.
    #[arg(long, value_name = "COMMAND")]
    pub referee_engine: Option<String>,
    /// Seconds the referee may take for one command (default 120).
    #[arg(long, value_name = "SECS", allow_hyphen_values = true,
          value_parser = bounds::SECONDS.parser())]
    pub referee_timeout: Option<f64>,
    /// Write the tables and the list of games here (default: standard output).
    #[arg(long, value_name = "FILE.md")]
    pub markdown: Option<PathBuf>,
    /// Write the whole diagnosis as JSON here.
    #[arg(long, value_name = "FILE.json")]
    pub json: Option<PathBuf>,
}

/// Diagnoses the games the flags name.
pub fn run(args: DiagnoseArgs) -> Result<(), String> {
    for path in args.markdown.iter().chain(args.json.iter()) {
        check_writable(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let paths = record_paths(&args.records).map_err(|e| e.to_string())?;
    let mut games = Vec::new();
    for p in &paths {
        games.push(MatchGame::load(p).map_err(|e| e.to_string())?);
    }
    let mut config = Config::default();
    if let Some(t) = args.threads {
        config.threads = t;
    }
    if let Some(s) = args.seed {
        config.seed = s;
    }
    let playouts = args.playouts.unwrap_or(DEFAULT_PLAYOUTS);
    let settings = Settings {
        every: args.every,
        threshold: args.threshold.unwrap_or(DEFAULT_THRESHOLD) / 100.0,
        rules: KindRules {
            min_group: args.min_group.unwrap_or(KindRules::default().min_group),
            ..KindRules::default()
        },
    };
    let referee_timeout =
        Duration::from_secs_f64(args.referee_timeout.unwrap_or(DEFAULT_REFEREE_TIMEOUT));
    let mut referee = match &args.referee_engine {
        Some(command) => {
            Some(GtpReferee::start(command, referee_timeout).map_err(|e| e.to_string())?)
        }
        None => None,
    };
    // The referee is restarted once in a run after its connection breaks; the
    // second time it is given up on.
    let mut restarted = false;
    let threads = match config.threads {
        1 => "1 thread".to_string(),
        t => format!("{t} threads"),
    };
    let mut report = Report {
        engine: args.engine.clone(),
        tengen: format!(
            "Tengen {} at {playouts} playouts a position, {threads}",
            crate::VERSION
        ),
        referee: referee
            .as_ref()
            .zip(args.referee_engine.as_ref())
            .map(|(r, c)| format!("{} (`{c}`)", r.name())),
        threshold: settings.threshold,
        min_group: settings.rules.min_group,
        games: 0,
        lost: 0,
        skipped: Vec::new(),
        referee_notes: Vec::new(),
        diagnoses: Vec::new(),
    };
    let mut tengen = TengenEvaluator::new(config, Limit::Playouts(playouts));
    for game in &games {
        let Some(side) = game.side_of(&args.engine) else {
            report.skipped.push(format!(
                "{}: {} is neither player ({} against {})",
                game.name, args.engine, game.black, game.white
            ));
            continue;
        };
        report.games += 1;
        if game.winner() != Some(side.opponent()) {
            continue;
        }
        report.lost += 1;
        if let (Some(r), Some(command)) = (&referee, &args.referee_engine) {
            if r.is_broken() {
                referee = None;
                let note = if restarted {
                    "its connection broke again; the games after were evaluated by Tengen alone"
                        .to_string()
                } else {
                    restarted = true;
                    match GtpReferee::start(command, referee_timeout) {
                        Ok(r) => {
                            referee = Some(r);
                            format!("its connection broke; restarted before {}", game.name)
                        }
                        Err(e) => format!(
                            "its connection broke and it could not be restarted ({e}); the \
                             games after were evaluated by Tengen alone"
                        ),
                    }
                };
                eprintln!("referee: {note}");
                report.referee_notes.push(note);
            }
        }
        let started = Instant::now();
        let d = match diagnose_game(
            game,
            side,
            &mut tengen,
            referee
                .as_mut()
                .map(|r| r as &mut dyn tengen_diagnose::Evaluator),
            &settings,
        ) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{}: skipped: {e}", game.name);
                report.skipped.push(format!("{}: {e}", game.name));
                continue;
            }
        };
        if let Some(why) = &d.referee_unavailable {
            eprintln!("{}: referee unavailable: {why}", game.name);
        }
        eprintln!(
            "{}: {} positions in {:.1} s, {}",
            game.name,
            d.positions.len(),
            started.elapsed().as_secs_f64(),
            d.kind
                .as_ref()
                .map_or("no drop".to_string(), |k| k.kind.to_string())
        );
        report.diagnoses.push(d);
    }
    if report.games == 0 {
        return Err(format!(
            "{} played none of the {} records read",
            args.engine,
            games.len()
        ));
    }
    let markdown = report.to_markdown();
    match &args.markdown {
        Some(path) => write_atomically(path, markdown.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => print!("{markdown}"),
    }
    if let Some(path) = &args.json {
        write_atomically(path, report.to_json().as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(line) = outcome(&report)? {
        eprintln!("{line}");
    }
    Ok(())
}

/// How a run that wrote its report ends: an error when the engine lost games and
/// none could be diagnosed; otherwise success, with a line for standard error when
/// some were skipped.
fn outcome(report: &Report) -> Result<Option<String>, String> {
    let done = report.diagnoses.len();
    let skipped = report.lost - done;
    if report.lost > 0 && done == 0 {
        return Err(format!(
            "none of the {} lost games could be diagnosed (the report lists why)",
            report.lost
        ));
    }
    Ok((skipped > 0).then(|| {
        format!(
            "diagnosed {done} of {} lost games; {skipped} skipped (the report lists why)",
            report.lost
        )
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_diagnose::GameDiagnosis;

    fn report(lost: usize, done: usize) -> Report {
        let d = GameDiagnosis {
            game: "g.sgf".into(),
            size: 9,
            color: "W".into(),
            result: "B+R".into(),
            moves: 12,
            positions: Vec::new(),
            first_below: None,
            first_below_referee: None,
            largest_drop: None,
            largest_drop_referee: None,
            kind: None,
            deaths: Vec::new(),
            referee_unavailable: None,
        };
        Report {
            engine: "studied".into(),
            tengen: "Tengen".into(),
            referee: None,
            threshold: 0.35,
            min_group: 4,
            games: lost + 1,
            lost,
            skipped: Vec::new(),
            referee_notes: Vec::new(),
            diagnoses: vec![d; done],
        }
    }

    #[test]
    fn a_run_fails_only_when_no_lost_game_was_diagnosed() {
        assert_eq!(outcome(&report(2, 2)), Ok(None));
        assert_eq!(
            outcome(&report(3, 1)),
            Ok(Some(
                "diagnosed 1 of 3 lost games; 2 skipped (the report lists why)".into()
            ))
        );
        // Nothing lost: nothing to diagnose, no failure.
        assert_eq!(outcome(&report(0, 0)), Ok(None));
        let e = outcome(&report(2, 0)).unwrap_err();
        assert!(e.starts_with("none of the 2 lost games"), "{e}");
    }
}
