//! Runs a match: checks the engines, plays the schedule K games at a time, writes one
//! SGF a game and one journal line a game, shows progress, stops on an SPRT decision;
//! and merges the journals of several shards.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use tengen_board::{BoardSize, ByColor, Color, Game, GameResult, Keyword, Rules};

use crate::engine::{Fault, Player};
use crate::error::ArenaError;
use crate::game::{GameSpec, Outcome, play_game};
use crate::journal::{self, Entry, JOURNAL_FILE, Journal};
use crate::meta::{EngineRecord, MatchInfo};
use crate::openings::{self, Opening};
use crate::progress::{Event, Progress};
use crate::record::{RecordInfo, sgf_name, sgf_text, today, write_record};
use crate::referee::Referee;
use crate::report::{self, ReportGame, ReportSource};
use crate::schedule::{Scheduled, schedule};
use crate::stats::SprtDecision;
use crate::summary::{Focus, Summary};
use crate::{MatchConfig, command_for_game, game_seed};

/// What every game of the match shares.
struct Context<'a> {
    cfg: &'a MatchConfig,
    spec: GameSpec,
    engines: Vec<EngineRecord>,
    openings: Vec<Opening>,
    logs: Option<PathBuf>,
    date: Option<String>,
}

fn config(msg: impl Into<String>) -> ArenaError {
    ArenaError::Config(msg.into())
}

/// The error for `value` of `flag` out of its bounds, worded as the command line words
/// it: `invalid value '0' for '--games': must be at least 1`.
fn refused(flag: &str, value: impl std::fmt::Display, bounds: &str) -> ArenaError {
    config(format!("invalid value '{value}' for '{flag}': {bounds}"))
}

/// The shortest move or start-up timeout: a millisecond.
const MIN_TIMEOUT: std::time::Duration = std::time::Duration::from_millis(1);

/// Checks the options that need no engine and no file.
fn check_config(cfg: &MatchConfig) -> Result<(BoardSize, Rules), ArenaError> {
    if cfg.engines.len() < 2 {
        return Err(config("a match needs at least two engines (-e CMD -e CMD)"));
    }
    if cfg.games == 0 {
        return Err(refused("--games", 0, "must be at least 1"));
    }
    if cfg.parallel == 0 {
        return Err(refused("--parallel", 0, "must be at least 1"));
    }
    let size = BoardSize::new(cfg.size).map_err(|e| config(format!("--size: {e}")))?;
    let rules = cfg
        .rules
        .rules()
        .with_komi(cfg.komi)
        .map_err(|e| config(format!("--komi: {e}")))?;
    if let Some(problem) = cfg.time.as_ref().and_then(crate::timecontrol::gtp_problem) {
        return Err(config(format!("--time: {problem}")));
    }
    if cfg.handicap == 1 || cfg.handicap > 9 {
        return Err(refused(
            "--handicap",
            cfg.handicap,
            "must be 0 or between 2 and 9",
        ));
    }
    if cfg.handicap >= 2 {
        tengen_board::fixed_handicap(size, cfg.handicap)
            .map_err(|e| config(format!("--handicap: {e}")))?;
    }
    if cfg.max_moves == Some(0) {
        return Err(refused("--max-moves", 0, "must be at least 1"));
    }
    for (flag, limit) in [
        ("--move-timeout", cfg.move_timeout),
        ("--startup-timeout", cfg.startup_timeout),
    ] {
        if limit < MIN_TIMEOUT {
            return Err(refused(flag, limit.as_secs_f64(), "must be at least 0.001"));
        }
    }
    Ok((size, rules))
}

/// Starts every engine once: it must start, answer `protocol_version`, and accept the
/// board size, komi and settings. Returns each engine's record with a unique label.
fn preflight(cfg: &MatchConfig, size: BoardSize) -> Result<Vec<EngineRecord>, ArenaError> {
    let mut records: Vec<EngineRecord> = Vec::new();
    for spec in &cfg.engines {
        let fail = |f: Fault| ArenaError::Engine {
            engine: spec.command.clone(),
            problem: f.detail().to_string(),
        };
        let command = command_for_game(&spec.command, cfg.seed);
        let mut p = Player::start(&command, None, cfg.startup_timeout).map_err(fail)?;
        let id = p.identity().map_err(fail)?;
        let untold = p
            .new_game(size, cfg.komi, cfg.rules.name(), cfg.time.as_ref())
            .map_err(fail)?;
        if cfg.handicap >= 2 && !p.knows("set_free_handicap") && !p.knows("fixed_handicap") {
            return Err(fail(Fault::Refused(
                "knows neither set_free_handicap nor fixed_handicap: cannot play handicap games"
                    .into(),
            )));
        }
        p.quit();
        let base = spec.label.clone().unwrap_or_else(|| {
            let n = format!("{} {}", id.name, id.version).trim().to_string();
            if n.is_empty() {
                spec.command
                    .split_whitespace()
                    .next()
                    .and_then(|w| Path::new(w).file_name())
                    .map(|w| w.to_string_lossy().into_owned())
                    .unwrap_or_else(|| spec.command.clone())
            } else {
                n
            }
        });
        let mut label = base.clone();
        let mut k = 2;
        while records.iter().any(|r| r.label == label) {
            label = format!("{base} #{k}");
            k += 1;
        }
        if let Some(why) = untold {
            eprintln!("{}", untold_rules(&label, cfg.rules, &why));
        }
        records.push(EngineRecord {
            label,
            command: spec.command.clone(),
            name: id.name,
            version: id.version,
        });
    }
    Ok(records)
}

/// The warning that engine `label` could not be told the match's `rules` (`why`): it
/// plays by its own, while the referee plays and scores by them.
fn untold_rules(label: &str, rules: crate::RuleSet, why: &str) -> String {
    format!(
        "tengen match: warning: {label} cannot be told the rules ({why}); it plays by its \
         own rules while the referee plays and scores by {rules} rules: give {rules} rules \
         on its command line if it has a flag for them"
    )
}

/// Runs the match `cfg` describes (or the rest of it, with `resume`), and returns the
/// summary of every game recorded in the output directory.
///
/// Bad input (no engine binary, an engine that does not answer `protocol_version` or
/// refuses the board size, an unreadable openings file, an existing journal without
/// `resume`) is an error before any game is played and before any journal exists.
pub fn run_match(cfg: &MatchConfig) -> Result<Summary, ArenaError> {
    let (size, rules) = check_config(cfg)?;
    let openings = match &cfg.openings {
        Some(p) => openings::load(p, size, rules)?,
        None => Vec::new(),
    };
    let out = &cfg.out;
    let journal_path = out.join(JOURNAL_FILE);
    let existing = journal::read(&journal_path)?;
    if !existing.entries.is_empty() && !cfg.resume {
        return Err(ArenaError::journal(
            &journal_path,
            format!(
                "already holds {} results; pass --resume to continue that match, or choose \
                 another --out",
                existing.entries.len()
            ),
        ));
    }
    let engines = preflight(cfg, size)?;
    let focus = match &cfg.focus {
        Some(f) => f.resolve(&engines)?,
        None => 0,
    };
    let max_moves = cfg.max_moves.unwrap_or(3 * size.area() as u32);
    let info = MatchInfo {
        engines: engines.clone(),
        size: cfg.size,
        komi: cfg.komi,
        rules: cfg.rules.name().to_string(),
        time: cfg.time.map(|t| t.to_string()),
        handicap: cfg.handicap,
        games: cfg.games,
        max_moves,
        openings: openings.len(),
        sprt: cfg.sprt.map(|s| s.to_string()),
        seed: cfg.seed,
    };
    let logs = open_output(cfg, &info)?;
    let (mut journal, contents) = Journal::open(&journal_path)?;
    let mut entries = contents.entries;
    let (planned, todo) = games_to_play(cfg, engines.len(), openings.len(), &entries);
    let reporting = Reporting {
        cfg,
        info: &info,
        labels: engines.iter().map(|e| e.label.clone()).collect(),
        focus,
        planned,
        duplicates: contents.duplicates,
    };
    let ctx = Context {
        cfg,
        spec: GameSpec {
            size,
            rules,
            rules_name: cfg.rules.name().to_string(),
            time: cfg.time,
            move_timeout: cfg.move_timeout,
            max_moves,
            handicap: cfg.handicap,
            opening: Vec::new(),
        },
        engines,
        openings,
        logs,
        date: today(),
    };
    let mut stopped_by_sprt = reporting.decided(&entries);
    let mut error = None;
    if !stopped_by_sprt && !todo.is_empty() {
        (stopped_by_sprt, error) = play_all(&ctx, todo, &mut journal, &mut entries, &reporting);
    }
    // The report shows the journal's games whether the match ended, stopped or failed.
    let written = reporting.write_report(&entries, stopped_by_sprt);
    if let Some(e) = error {
        return Err(e);
    }
    written?;
    Ok(reporting.summarise(&entries, stopped_by_sprt).0)
}

/// Makes the output directory ready for the match `info` describes: creates it,
/// checks the report's path, refuses to resume a different match there, writes
/// `match.json`, and with `--engine-logs` creates the logs' directory, which it
/// returns.
fn open_output(cfg: &MatchConfig, info: &MatchInfo) -> Result<Option<PathBuf>, ArenaError> {
    let out = &cfg.out;
    // Made first: the report may be in it. A refusal before anything is written
    // removes the directories made for the match again.
    let made = create_dirs(out)?;
    if let Err(e) = check_output(cfg, info) {
        for dir in &made {
            let _ = fs::remove_dir(dir);
        }
        return Err(e);
    }
    info.write(out)?;
    if !cfg.engine_logs {
        return Ok(None);
    }
    let d = out.join("logs");
    fs::create_dir_all(&d).map_err(|e| ArenaError::io(&d, e))?;
    Ok(Some(d))
}

/// Checks what must hold before a match writes to its output directory (which
/// exists): the report's path, and with `--resume` that the directory holds this match.
fn check_output(cfg: &MatchConfig, info: &MatchInfo) -> Result<(), ArenaError> {
    let out = &cfg.out;
    if let Some(path) = &cfg.report {
        report::check_path(path)?;
    }
    if cfg.resume {
        if let Some(old) = MatchInfo::read(out)? {
            if let Some(diff) = old.incompatible(info, true) {
                return Err(ArenaError::journal(
                    &out.join(crate::meta::META_FILE),
                    format!("--resume of a different match: {diff}"),
                ));
            }
        }
    }
    Ok(())
}

/// Creates `dir` and its missing ancestors; the directories it made, deepest first.
fn create_dirs(dir: &Path) -> Result<Vec<PathBuf>, ArenaError> {
    let made: Vec<PathBuf> = dir
        .ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
        .map(Path::to_path_buf)
        .collect();
    fs::create_dir_all(dir).map_err(|e| ArenaError::io(dir, e))?;
    Ok(made)
}

/// This machine's games of the schedule (all of them, or its `--shard`'s): how many,
/// and those not yet in the journal's `entries`, in order.
fn games_to_play(
    cfg: &MatchConfig,
    engines: usize,
    openings: usize,
    entries: &[Entry],
) -> (u32, VecDeque<Scheduled>) {
    let done: HashSet<u32> = entries.iter().map(|e| e.game).collect();
    let mine: Vec<Scheduled> = schedule(engines, cfg.games, openings)
        .into_iter()
        .filter(|s| cfg.shard.is_none_or(|sh| sh.contains(s.game)))
        .collect();
    let planned = mine.len() as u32;
    let todo = mine
        .into_iter()
        .filter(|s| !done.contains(&s.game))
        .collect();
    (planned, todo)
}

/// What the match's summary, SPRT decision and report are made of besides its games.
struct Reporting<'a> {
    cfg: &'a MatchConfig,
    info: &'a MatchInfo,
    labels: Vec<String>,
    focus: usize,
    /// This machine's games of the schedule.
    planned: u32,
    /// Journal lines ignored because their game was already counted.
    duplicates: u32,
}

impl Reporting<'_> {
    /// Whether the SPRT (if the match runs one) has decided on `entries`.
    fn decided(&self, entries: &[Entry]) -> bool {
        self.cfg.sprt.is_some_and(|_| {
            Summary::build_for(&self.labels, entries, self.cfg.sprt, self.focus)
                .sprt
                .is_some_and(|r| r.decision != SprtDecision::Continue)
        })
    }

    /// The summary of the games in `entries` (in any order), and those games in order.
    fn summarise(&self, entries: &[Entry], stopped_by_sprt: bool) -> (Summary, Vec<Entry>) {
        let mut sorted = entries.to_vec();
        sorted.sort_by_key(|e| e.game);
        let mut summary = Summary::build_for(&self.labels, &sorted, self.cfg.sprt, self.focus);
        summary.planned = Some(self.planned);
        summary.stopped_by_sprt = stopped_by_sprt;
        summary.duplicates = self.duplicates;
        (summary, sorted)
    }

    /// Writes the report of the games in `entries`, if the match has one.
    fn write_report(&self, entries: &[Entry], stopped_by_sprt: bool) -> Result<(), ArenaError> {
        let Some(path) = &self.cfg.report else {
            return Ok(());
        };
        let out = &self.cfg.out;
        let (summary, sorted) = self.summarise(entries, stopped_by_sprt);
        let games: Vec<ReportGame> = sorted
            .into_iter()
            .map(|entry| ReportGame {
                entry,
                dir: out.clone(),
            })
            .collect();
        report::write(
            path,
            &ReportSource {
                info: Some(self.info),
                games: &games,
                summary: &summary,
                dirs: std::slice::from_ref(out),
            },
        )
    }
}

/// Plays the games of `todo`, `--parallel` at a time, each journalled and added to
/// `entries` as it ends, the progress shown and the report rewritten now and then;
/// stops taking games once the SPRT decides or a game cannot be recorded. Returns
/// whether the SPRT stopped the match, and the first error.
fn play_all(
    ctx: &Context<'_>,
    todo: VecDeque<Scheduled>,
    journal: &mut Journal,
    entries: &mut Vec<Entry>,
    reporting: &Reporting<'_>,
) -> (bool, Option<ArenaError>) {
    let cfg = ctx.cfg;
    let mut stopped_by_sprt = false;
    let mut error = None;
    let mut last_report: Option<Instant> = None;
    let mut progress = Progress::new(cfg.progress, reporting.planned, entries.len() as u32)
        .with_focus(reporting.focus);
    let workers = cfg.parallel.min(todo.len()).max(1);
    let queue = Mutex::new(todo);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Message>();
    thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (queue, stop) = (&queue, &stop);
            scope.spawn(move || play_from(queue, stop, ctx, &tx));
        }
        drop(tx);
        for msg in rx {
            let entry = match msg {
                Message::Progress(event) => {
                    progress.event(event);
                    continue;
                }
                Message::Done(Ok(e)) => *e,
                Message::Done(Err(e)) => {
                    stop.store(true, Ordering::SeqCst);
                    error.get_or_insert(e);
                    continue;
                }
            };
            if let Err(e) = journal.append(&entry) {
                stop.store(true, Ordering::SeqCst);
                error.get_or_insert(e);
                continue;
            }
            entries.push(entry);
            progress.finished(&entries[entries.len() - 1], &reporting.labels, entries);
            if !stopped_by_sprt && reporting.decided(entries) {
                stopped_by_sprt = true;
                stop.store(true, Ordering::SeqCst);
            }
            // A failed refresh is not fatal: the report is written again at the end,
            // and that write's error is the one returned.
            if last_report.is_none_or(|t| t.elapsed() >= REPORT_EVERY) {
                let _ = reporting.write_report(entries, stopped_by_sprt);
                last_report = Some(Instant::now());
            }
        }
    });
    progress.finish();
    (stopped_by_sprt, error)
}

/// A worker: takes games from `queue` until it is empty or `stop` is raised, plays
/// each, and tells `tx` as a game starts, moves and ends.
fn play_from(
    queue: &Mutex<VecDeque<Scheduled>>,
    stop: &AtomicBool,
    ctx: &Context<'_>,
    tx: &mpsc::Sender<Message>,
) {
    while !stop.load(Ordering::SeqCst) {
        let next = queue.lock().ok().and_then(|mut q| q.pop_front());
        let Some(s) = next else { break };
        let _ = tx.send(Message::Progress(Event::Started {
            game: s.game,
            black: ctx.engines[s.black].label.clone(),
            white: ctx.engines[s.white].label.clone(),
        }));
        let mut moved = |g: &Game| {
            let _ = tx.send(Message::Progress(Event::Moved {
                game: s.game,
                moves: g.move_count() as u32,
                to_move: g.to_move(),
            }));
        };
        let done = run_game(ctx, &s, &mut moved).map(Box::new);
        if tx.send(Message::Done(done)).is_err() {
            break;
        }
    }
}

/// How often the report is rewritten while a match is played (it is always written
/// when the match ends).
pub const REPORT_EVERY: Duration = Duration::from_secs(5);

/// What a worker tells the thread that keeps the journal and the display.
enum Message {
    /// A game in play moved on.
    Progress(Event),
    /// A game ended: its journal entry, or why it could not be recorded.
    Done(Result<Box<Entry>, ArenaError>),
}

/// Plays one scheduled game and saves its SGF; the journal entry is written by the
/// caller. Only failing to write the SGF is an error.
fn run_game(
    ctx: &Context<'_>,
    s: &Scheduled,
    moved: &mut dyn FnMut(&Game),
) -> Result<Entry, ArenaError> {
    let cfg = ctx.cfg;
    let ids = ByColor {
        black: s.black,
        white: s.white,
    };
    let mut spec = ctx.spec.clone();
    let opening = s.opening.and_then(|i| ctx.openings.get(i));
    if let Some(o) = opening {
        spec.opening = o.moves.clone();
    }
    let start = |c: Color| {
        let log = ctx.logs.as_ref().map(|d| {
            d.join(format!(
                "game-{:04}-{}.log",
                s.game,
                if c == Color::Black { "black" } else { "white" }
            ))
        });
        Player::start(
            &command_for_game(&ctx.engines[ids[c]].command, game_seed(cfg.seed, s.game)),
            log.as_deref(),
            cfg.startup_timeout,
        )
        .map(|mut p| {
            p.set_timeout(cfg.move_timeout);
            p
        })
    };
    let outcome = match (start(Color::Black), start(Color::White)) {
        (Ok(black), Ok(white)) => {
            let mut players = ByColor { black, white };
            let o = play_game(&spec, &mut players, moved);
            players.black.quit();
            players.white.quit();
            o
        }
        (b, w) => start_failure(&spec, b.err(), w.err()),
    };
    let name = sgf_name(s.game);
    let black = &ctx.engines[s.black].label;
    let white = &ctx.engines[s.white].label;
    let text = sgf_text(
        &outcome,
        &RecordInfo {
            game: s.game,
            black,
            white,
            time: cfg.time.as_ref(),
            move_timeout: cfg.move_timeout.as_secs_f64(),
            opening: opening.map(|o| o.name.as_str()),
            date: ctx.date.clone(),
        },
    );
    write_record(&cfg.out, &name, &text)?;
    Ok(Entry {
        game: s.game,
        black: black.clone(),
        white: white.clone(),
        winner: outcome.result.winner().map(|c| c.letter().to_string()),
        result: outcome.result.to_string(),
        reason: outcome.reason.clone(),
        detail: outcome.detail.clone(),
        method: outcome.method.map(|m| m.name().to_string()),
        moves: outcome.referee.game().move_count() as u32,
        sgf: name,
        opening: s.opening,
        black_time: outcome.time_used.black,
        white_time: outcome.time_used.white,
        black_moves: outcome.generated.black,
        white_moves: outcome.generated.white,
        black_move_ms: Some(move_ms(&outcome, Color::Black)),
        white_move_ms: Some(move_ms(&outcome, Color::White)),
    })
}

/// Milliseconds each move `c`'s engine played in the game took, in order.
fn move_ms(outcome: &Outcome, c: Color) -> Vec<u32> {
    let game = outcome.referee.game();
    game.moves()
        .zip(outcome.referee.times())
        .filter(|((colour, _), _)| *colour == c)
        .filter_map(|(_, secs)| secs.map(|s| (s * 1000.0).round().min(f64::from(u32::MAX)) as u32))
        .collect()
}

/// The outcome of a game in which an engine did not start.
fn start_failure(spec: &GameSpec, black: Option<Fault>, white: Option<Fault>) -> Outcome {
    let (result, detail) = match (&black, &white) {
        (Some(b), Some(w)) => (
            GameResult::Void,
            format!("neither engine started: Black: {b}; White: {w}"),
        ),
        (Some(b), None) => (GameResult::Forfeit(Color::White), format!("Black: {b}")),
        (None, Some(w)) => (GameResult::Forfeit(Color::Black), format!("White: {w}")),
        (None, None) => (GameResult::Void, String::new()),
    };
    Outcome {
        result,
        reason: "start".into(),
        detail,
        method: None,
        referee: Referee::new(spec.size, spec.rules),
        time_used: ByColor::default(),
        generated: ByColor::default(),
    }
}

/// The error for one game recorded differently by two journals.
fn conflict(a: &Entry, a_path: &Path, b: &Entry, b_path: &Path) -> ArenaError {
    let what = if a.result == b.result {
        format!(
            "{} in {} too, with other times or details",
            a.result,
            a_path.display()
        )
    } else {
        format!("{} in {}", a.result, a_path.display())
    };
    ArenaError::journal(
        b_path,
        format!(
            "game {} is {} here but {what}: these are two runs of the same match, \
             not shards of one (run them with --shard K/N to merge them)",
            b.game, b.result
        ),
    )
}

/// Combines the journals in `dirs` (each an output directory of one shard or run) into
/// one summary. Their `match.json` files must describe the same match. A game number
/// found in several journals counts once if its lines are the same (a copied journal);
/// if they differ (two runs of the same match, not shards of one), the merge is refused.
pub fn merge(dirs: &[PathBuf]) -> Result<Summary, ArenaError> {
    merge_for(dirs, None)
}

/// [`merge`], with the summary told from the side of the engine `focus` names (by
/// default the first).
pub fn merge_for(dirs: &[PathBuf], focus: Option<&Focus>) -> Result<Summary, ArenaError> {
    merged(dirs, focus).map(|m| m.summary)
}

/// [`merge_for`], and the match report of the merged games written to `report` (an
/// `.html` file; see [`crate::report`]).
pub fn merge_report(
    dirs: &[PathBuf],
    focus: Option<&Focus>,
    report: &Path,
) -> Result<Summary, ArenaError> {
    report::check_path(report)?;
    let m = merged(dirs, focus)?;
    report::write(
        report,
        &ReportSource {
            info: m.info.as_ref(),
            games: &m.games,
            summary: &m.summary,
            dirs,
        },
    )?;
    Ok(m.summary)
}

/// What the journals of several directories come to together.
struct Merged {
    /// The match's settings, from the first `match.json`.
    info: Option<MatchInfo>,
    /// Every game once, in game-number order, with the directory it came from.
    games: Vec<ReportGame>,
    /// Their summary.
    summary: Summary,
}

/// Reads and combines the journals in `dirs`; refuses journals of different matches.
fn merged(dirs: &[PathBuf], focus: Option<&Focus>) -> Result<Merged, ArenaError> {
    let (info, games, duplicates) = gathered(dirs)?;
    let summary = merged_summary(info.as_ref(), &games, focus, duplicates)?;
    Ok(Merged {
        info,
        games,
        summary,
    })
}

/// The first `match.json` of `dirs`, every game of their journals once (in game-number
/// order, with the directory it came from), and how many journal lines repeated a game
/// already read. Refuses journals of different matches and a game recorded twice
/// differently.
fn gathered(dirs: &[PathBuf]) -> Result<(Option<MatchInfo>, Vec<ReportGame>, u32), ArenaError> {
    if dirs.is_empty() {
        return Err(config("--merge needs at least one directory"));
    }
    // The first match.json and the directory it is in.
    let mut info: Option<(MatchInfo, &PathBuf)> = None;
    let mut games: Vec<ReportGame> = Vec::new();
    // Game number -> its index in `games` and the journal it came from.
    let mut seen: HashMap<u32, (usize, PathBuf)> = HashMap::new();
    let mut duplicates = 0;
    for dir in dirs {
        let path = dir.join(JOURNAL_FILE);
        if !path.exists() {
            return Err(ArenaError::journal(&path, "no journal here"));
        }
        if let Some(m) = MatchInfo::read(dir)? {
            match &info {
                Some((first, first_dir)) => same_match(first, first_dir, &m, dir)?,
                None => info = Some((m, dir)),
            }
        }
        let c = journal::read(&path)?;
        if let Some(game) = c.conflicts.first() {
            return Err(ArenaError::journal(
                &path,
                format!("game {game} is recorded twice with different results or times"),
            ));
        }
        duplicates += c.duplicates;
        for e in c.entries {
            match seen.get(&e.game) {
                None => {
                    seen.insert(e.game, (games.len(), path.clone()));
                    games.push(ReportGame {
                        entry: e,
                        dir: dir.clone(),
                    });
                }
                Some((i, _)) if games[*i].entry == e => duplicates += 1,
                Some((i, first)) => return Err(conflict(&games[*i].entry, first, &e, &path)),
            }
        }
    }
    games.sort_by_key(|g| g.entry.game);
    Ok((info.map(|(m, _)| m), games, duplicates))
}

/// Refuses the `match.json` `m` of `dir` unless it is of the same match as `first`, read
/// from `first_dir`.
fn same_match(
    first: &MatchInfo,
    first_dir: &Path,
    m: &MatchInfo,
    dir: &Path,
) -> Result<(), ArenaError> {
    match first.incompatible(m, false) {
        None => Ok(()),
        Some(diff) => Err(ArenaError::journal(
            &dir.join(crate::meta::META_FILE),
            format!(
                "another match than {}: {diff}; only shards or copies of one match merge",
                first_dir.display()
            ),
        )),
    }
}

/// The summary of the merged `games` of the match `info` describes (if a `match.json`
/// was found), told from the side of `focus`.
fn merged_summary(
    info: Option<&MatchInfo>,
    games: &[ReportGame],
    focus: Option<&Focus>,
    duplicates: u32,
) -> Result<Summary, ArenaError> {
    let entries: Vec<Entry> = games.iter().map(|g| g.entry.clone()).collect();
    let labels: Vec<String> = info
        .map(|m| m.engines.iter().map(|e| e.label.clone()).collect())
        .unwrap_or_default();
    let sprt = info
        .and_then(|m| m.sprt.as_deref())
        .and_then(|s| s.parse().ok());
    let focus = match focus {
        None => 0,
        Some(f) => {
            // The engines of match.json, or without one those the journals name.
            let records = match info {
                Some(m) => m.engines.clone(),
                None => Summary::build(&labels, &entries, None)
                    .engines
                    .into_iter()
                    .map(|e| EngineRecord {
                        label: e.label,
                        command: String::new(),
                        name: String::new(),
                        version: String::new(),
                    })
                    .collect(),
            };
            f.resolve(&records)?
        }
    };
    let mut summary = Summary::build_for(&labels, &entries, sprt, focus);
    summary.planned = info.map(|m| {
        let n = m.engines.len() as u32;
        m.games * n * (n.saturating_sub(1)) / 2
    });
    summary.duplicates = duplicates;
    Ok(summary)
}
