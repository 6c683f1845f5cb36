//! `tengen diagnose`: where and why an engine lost its match games. The positions of
//! each lost game are evaluated by Tengen (and a referee engine over GTP, if given)
//! and each loss classified by phase and kind (`tengen-diagnose` does the work; this
//! is the flags, the files and the progress lines).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use tengen_board::{Color, counted};
use tengen_diagnose::{
    Evaluator, GameDiagnosis, GtpReferee, KindRules, MatchGame, Report, Settings, TengenEvaluator,
    diagnose_game, record_paths,
};
use tengen_engine::{Config, Limit};
use tengen_review::{check_writable, write_atomically};

use crate::bounds::{self, Real, Whole};
use crate::setting_flags::{SearchFlag, SearchFlagSet, SearchFlags};

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
    /// Tengen's search flags (`--playouts`, `--threads`, `--seed`), from the engine's
    /// settings.
    #[command(flatten)]
    pub search: SearchFlags<DiagnoseSearch>,
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

/// The engine's settings that `tengen diagnose` takes as flags, worded for Tengen's
/// evaluations.
#[derive(Debug)]
pub struct DiagnoseSearch;

impl SearchFlagSet for DiagnoseSearch {
    const FLAGS: &'static [SearchFlag] = &[
        SearchFlag::new("playouts", "Tengen's playouts a position (default 20000)")
            .bounds(bounds::POSITIVE),
        SearchFlag::new(
            "threads",
            "Tengen's search threads (default: the machine's cores)",
        ),
        SearchFlag::new("seed", "Seed of Tengen's search"),
    ];
}

/// Diagnoses the games the flags name.
pub fn run(args: DiagnoseArgs) -> Result<(), String> {
    for path in args.markdown.iter().chain(args.json.iter()) {
        check_writable(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let games = load_games(&args.records)?;
    let config = search_config(&args)?;
    let playouts = config.playouts.unwrap_or(DEFAULT_PLAYOUTS);
    let settings = settings(&args);
    let mut referee = Referee::start(&args)?;
    let mut report = empty_report(&args, &config, playouts, &settings, &referee);
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
        if let Some(note) = referee.restart_if_broken(&game.name) {
            eprintln!("referee: {note}");
            report.referee_notes.push(note);
        }
        match diagnose_lost_game(game, side, &mut tengen, referee.evaluator(), &settings) {
            Ok(d) => report.diagnoses.push(d),
            Err(skipped) => report.skipped.push(skipped),
        }
    }
    if report.games == 0 {
        return Err(match games.len() {
            0 => "no record was read".to_string(),
            1 => format!("{:?} is not a player of the record read", args.engine),
            n => format!(
                "{:?} is a player of none of the {n} records read",
                args.engine
            ),
        });
    }
    write_report(&args, &report)?;
    if let Some(line) = outcome(&report)? {
        eprintln!("{line}");
    }
    Ok(())
}

/// The match games of the records the flags name.
fn load_games(records: &[PathBuf]) -> Result<Vec<MatchGame>, String> {
    let paths = record_paths(records).map_err(|e| e.to_string())?;
    let mut games = Vec::new();
    for p in &paths {
        games.push(MatchGame::load(p).map_err(|e| e.to_string())?);
    }
    Ok(games)
}

/// Tengen's search settings: those of the commands that play (the shipped policy network
/// on 13×13 and larger boards), with the flags' playouts, threads and seed.
fn search_config(args: &DiagnoseArgs) -> Result<Config, String> {
    let mut config = Config::default().with_shipped_net();
    args.search.apply(&mut config)?;
    Ok(config)
}

/// How positions are chosen and losses judged, from the flags.
fn settings(args: &DiagnoseArgs) -> Settings {
    Settings {
        every: args.every,
        threshold: args.threshold.unwrap_or(DEFAULT_THRESHOLD) / 100.0,
        rules: KindRules {
            min_group: args.min_group.unwrap_or(KindRules::default().min_group),
            ..KindRules::default()
        },
    }
}

/// The report before any game is read: what is studied, and how.
fn empty_report(
    args: &DiagnoseArgs,
    config: &Config,
    playouts: u64,
    settings: &Settings,
    referee: &Referee<'_>,
) -> Report {
    let threads = match config.threads {
        1 => "1 thread".to_string(),
        t => format!("{t} threads"),
    };
    Report {
        engine: args.engine.clone(),
        tengen: format!(
            "Tengen {} at {playouts} playouts a position, {threads}",
            crate::VERSION
        ),
        referee: referee.description(),
        threshold: settings.threshold,
        min_group: settings.rules.min_group,
        games: 0,
        lost: 0,
        skipped: Vec::new(),
        referee_notes: Vec::new(),
        diagnoses: Vec::new(),
    }
}

/// The referee engine of a run, when the flags name one. It is restarted once in a
/// run after its connection breaks; the second time it is given up on.
struct Referee<'a> {
    /// The running engine; `None` without one, or once given up on.
    engine: Option<GtpReferee>,
    /// Its command line (`--referee-engine`).
    command: Option<&'a str>,
    /// The most one command may take.
    timeout: Duration,
    /// Whether it was restarted already.
    restarted: bool,
}

impl<'a> Referee<'a> {
    /// Starts the referee the flags name, if any.
    fn start(args: &'a DiagnoseArgs) -> Result<Referee<'a>, String> {
        let timeout =
            Duration::from_secs_f64(args.referee_timeout.unwrap_or(DEFAULT_REFEREE_TIMEOUT));
        let command = args.referee_engine.as_deref();
        let engine = match command {
            Some(command) => Some(GtpReferee::start(command, timeout).map_err(|e| e.to_string())?),
            None => None,
        };
        Ok(Referee {
            engine,
            command,
            timeout,
            restarted: false,
        })
    }

    /// The referee as the report names it: its GTP name and its command.
    fn description(&self) -> Option<String> {
        let (engine, command) = self.engine.as_ref().zip(self.command)?;
        Some(format!("{} (`{command}`)", engine.name()))
    }

    /// The referee to evaluate with, if there is one.
    fn evaluator(&mut self) -> Option<&mut dyn Evaluator> {
        self.engine.as_mut().map(|r| r as &mut dyn Evaluator)
    }

    /// If the referee's connection broke, restarts it (the first time) or gives it
    /// up, and says what happened for the report; `next_game` is the game it would
    /// evaluate next.
    fn restart_if_broken(&mut self, next_game: &str) -> Option<String> {
        let command = self.command?;
        if !self.engine.as_ref()?.is_broken() {
            return None;
        }
        self.engine = None;
        if self.restarted {
            return Some(
                "its connection broke again; the games after were evaluated by Tengen alone"
                    .to_string(),
            );
        }
        self.restarted = true;
        Some(match GtpReferee::start(command, self.timeout) {
            Ok(r) => {
                self.engine = Some(r);
                format!("its connection broke; restarted before {next_game}")
            }
            Err(e) => format!(
                "its connection broke and it could not be restarted ({e}); the games after \
                 were evaluated by Tengen alone"
            ),
        })
    }
}

/// Diagnoses one lost game, saying on standard error how it went; a game that cannot
/// be diagnosed is the line the report's skipped list gives it.
fn diagnose_lost_game(
    game: &MatchGame,
    side: Color,
    tengen: &mut TengenEvaluator,
    referee: Option<&mut dyn Evaluator>,
    settings: &Settings,
) -> Result<GameDiagnosis, String> {
    let started = Instant::now();
    let d = diagnose_game(game, side, tengen, referee, settings).map_err(|e| {
        eprintln!("{}: skipped: {e}", game.name);
        format!("{}: {e}", game.name)
    })?;
    if let Some(why) = &d.referee_unavailable {
        eprintln!("{}: referee unavailable: {why}", game.name);
    }
    eprintln!(
        "{}: {} in {:.1} s, {}",
        game.name,
        counted(d.positions.len() as u64, "position", "positions"),
        started.elapsed().as_secs_f64(),
        d.kind
            .as_ref()
            .map_or("no drop".to_string(), |k| k.kind.to_string())
    );
    Ok(d)
}

/// Writes the report: the Markdown to `--markdown` (else standard output), the JSON
/// to `--json` when given.
fn write_report(args: &DiagnoseArgs, report: &Report) -> Result<(), String> {
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
