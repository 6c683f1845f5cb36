//! `tengen analysis`: KataGo's JSON analysis engine on stdin/stdout, as KaTrain starts
//! it (either as a custom command, or as the "KataGo executable", which it runs as
//! `tengen analysis -model FILE -config FILE -override-config …`: those KataGo flags
//! are accepted and ignored, with a note on stderr).

use std::io::{BufRead, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use clap::Args;
use tengen_analysis::{Defaults, Perspective, ServerOptions};
use tengen_board::counted;
use tengen_engine::{Config, Engine, ModelKnowledge};
use tengen_knowledge::MoveModel;

use crate::bounds;
use crate::setting_flags::{SearchFlag, SearchFlagSet, SearchFlags};

/// The examples of `tengen analysis --help`.
const ANALYSIS_EXAMPLES: &str = "\
Examples:
  # One query a line in, one response a line out; two positions at a time:
  echo '{\"id\":\"a\",\"moves\":[[\"B\",\"Q16\"]],\"rules\":\"chinese\",\"komi\":7.5,\"boardXSize\":19,\"boardYSize\":19,\"maxVisits\":100}' | tengen analysis --threads 2
  # As KaTrain starts a KataGo executable (the KataGo flags are ignored):
  tengen analysis -model kata.bin.gz -config analysis.cfg -override-config homeDataDir=~/.katrain";

/// Options of `tengen analysis`.
#[derive(Debug, Args)]
#[command(after_help = ANALYSIS_EXAMPLES)]
pub struct AnalysisArgs {
    /// Positions analysed at once, each by a search of its own (default: the
    /// machine's cores); KataGo's `-analysis-threads` sets it too.
    #[arg(long, value_name = "T", allow_hyphen_values = true,
          value_parser = bounds::THREADS.parser::<usize>())]
    threads: Option<usize>,
    /// Memory of all the search trees together, in MiB (default 256), shared equally
    /// between the positions analysed at once.
    #[arg(long, value_name = "MIB", allow_hyphen_values = true,
          value_parser = bounds::POSITIVE.parser::<usize>())]
    memory: Option<usize>,
    /// Each search's flags (`--search-threads`, `--visits`, `--seed`, `--policy`,
    /// `--model-prior`, `--policy-net`), from the engine's settings.
    #[command(flatten)]
    search: SearchFlags<AnalysisSearch>,
    /// A move table written by `tengen learn fit`, for the searches' priors and
    /// includePolicy, instead of the shipped one.
    #[arg(long, value_name = "FILE")]
    move_table: Option<std::path::PathBuf>,
    /// Whose side win rates, score leads and ownership are from when a query's
    /// overrideSettings does not say: BLACK (as KataGo's analysis config and KaTrain),
    /// WHITE or SIDETOMOVE.
    #[arg(long, value_name = "SIDE", default_value = "BLACK", value_parser = perspective)]
    report_as: Perspective,
    /// At the end of the input, stop the searches still open and answer what they
    /// have, instead of finishing every queued turn (KataGo's -quit-without-waiting).
    #[arg(long)]
    quit_without_waiting: bool,
    /// No notes on stderr.
    #[arg(long, short)]
    quiet: bool,
    /// KataGo's own flags, as KaTrain passes them: -model, -config, -override-config
    /// and -human-model are accepted and ignored; -analysis-threads and
    /// -quit-without-waiting are honoured.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    katago: Vec<String>,
}

/// The engine's settings that `tengen analysis` takes as flags, worded for KataGo's
/// protocol: each position's search threads, the playouts of a turn whose query gives
/// no maxVisits (`--visits`), and the search's own settings.
#[derive(Debug)]
pub struct AnalysisSearch;

impl SearchFlagSet for AnalysisSearch {
    const FLAGS: &'static [SearchFlag] = &[
        SearchFlag::new(
            "threads",
            "Search threads of each position's search (default 1: a query's turns are the \
             parallelism)",
        )
        .flag("search-threads")
        .default_value("1"),
        SearchFlag::new(
            "playouts",
            "Playouts of each turn when the query gives no maxVisits (KataGo's analysis \
             config says 500)",
        )
        .flag("visits")
        .bounds(bounds::POSITIVE)
        .default_value("500"),
        SearchFlag::new(
            "seed",
            "Seed of every search (a turn searched twice with one search thread gives the \
             same answer)",
        ),
        SearchFlag::new("policy", "Playout policy: light or heavy (the default)")
            .value_name("POLICY"),
        SearchFlag::new(
            "model_prior",
            "How the move model shapes new nodes' priors: off, wins (the default), widen or \
             both",
        ),
        SearchFlag::new(
            "policy_net",
            "The policy network for the searches' priors and includePolicy: shipped (the \
             default, compiled in: crates/knowledge/data/policy-19.safetensors), a weights file, or off, \
             as `tengen gtp --policy-net`. It rates 13x13 and larger boards (the engine's \
             net_min_size) and the size it was made for; on a smaller board, the move model",
        ),
    ];
}

fn perspective(text: &str) -> Result<Perspective, String> {
    Perspective::parse(text).ok_or_else(|| "expected BLACK, WHITE or SIDETOMOVE".to_string())
}

/// KataGo's command-line flags, read by hand: they start with one dash.
#[derive(Debug, Default, PartialEq)]
struct KataGoFlags {
    /// Flags accepted and ignored, with their values.
    ignored: Vec<String>,
    /// `-analysis-threads N`.
    analysis_threads: Option<usize>,
    /// `-quit-without-waiting`.
    quit_without_waiting: bool,
}

fn katago_flags(args: &[String]) -> Result<KataGoFlags, String> {
    let mut flags = KataGoFlags::default();
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let name = flag.trim_start_matches('-');
        let mut value = || {
            rest.next()
                .ok_or_else(|| format!("KataGo's flag {flag} needs a value"))
        };
        match name {
            "model" | "config" | "override-config" | "human-model" => {
                let v = value()?;
                flags.ignored.push(format!("{flag} {v}"));
            }
            "analysis-threads" => {
                let v = value()?;
                let n = bounds::THREADS
                    .parse::<usize>(v)
                    .map_err(|e| bounds::refused(flag, v, e))?;
                flags.analysis_threads = Some(n);
            }
            "quit-without-waiting" => flags.quit_without_waiting = true,
            _ => {
                return Err(format!(
                    "unexpected argument {flag:?} (KataGo's flags that tengen analysis takes: \
                     -model, -config, -override-config, -human-model, -analysis-threads, \
                     -quit-without-waiting)"
                ));
            }
        }
    }
    Ok(flags)
}

/// Runs the analysis engine on stdin/stdout until the end of its input.
pub fn run(args: AnalysisArgs) -> Result<(), String> {
    let katago = katago_flags(&args.katago)?;
    if !katago.ignored.is_empty() && !args.quiet {
        eprintln!(
            "tengen analysis: ignoring KataGo's {} (Tengen has no neural network and no \
             config file; its settings are tengen analysis's own flags)",
            katago.ignored.join(", ")
        );
    }
    let positions = katago
        .analysis_threads
        .or(args.threads)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let config = engine_config(&args, positions)?;
    let (engines, model) = engine_pool(&args, &config, positions)?;
    let options = ServerOptions {
        defaults: Defaults {
            // `--visits`, which has a default.
            max_visits: config.playouts.ok_or("--visits has no value")?,
            perspective: args.report_as,
        },
        quit_without_waiting: args.quit_without_waiting || katago.quit_without_waiting,
        version: env!("CARGO_PKG_VERSION").to_string(),
        git_hash: env!("TENGEN_COMMIT").to_string(),
        on_failure: Some(exit_on_failure),
    };
    if !args.quiet {
        eprintln!(
            "tengen analysis {}: KataGo's JSON analysis protocol on stdin/stdout, {positions} \
             position(s) at a time; ready",
            crate::VERSION
        );
    }
    let input_ended = Arc::new(AtomicBool::new(false));
    exit_when_orphaned(args.quiet, Arc::clone(&input_ended));
    let start = Instant::now();
    let stdin = Watched {
        inner: std::io::stdin().lock(),
        ended: input_ended,
    };
    let totals = tengen_analysis::serve(engines, &model, &options, stdin, std::io::stdout())
        .map_err(|e| format!("analysis: reading queries: {e}"))?;
    if !args.quiet {
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "tengen analysis: {} analysed, {} in {secs:.1} s ({:.0} playouts/s), {}",
            counted(totals.turns, "turn", "turns"),
            counted(totals.playouts, "playout", "playouts"),
            totals.playouts as f64 / secs.max(1e-9),
            counted(totals.errors, "error", "errors")
        );
    }
    Ok(())
}

/// The settings of each engine of the pool: the flags', with the memory shared out
/// among the `positions` searched at a time.
fn engine_config(args: &AnalysisArgs, positions: usize) -> Result<Config, String> {
    let mut config = Config::default().with_shipped_net();
    args.search.apply(&mut config)?;
    let total_mib = args.memory.unwrap_or(tengen_engine::DEFAULT_MEMORY_MIB);
    config.memory_mib = (total_mib / positions).max(1);
    Ok(config)
}

/// One engine of `config` for each of the `positions` searched at a time, all with
/// the move table of `--move-table` (else the shipped one), and that table's knowledge
/// for `includePolicy`.
fn engine_pool(
    args: &AnalysisArgs,
    config: &Config,
    positions: usize,
) -> Result<(Vec<Engine>, ModelKnowledge), String> {
    let (base, model) = match &args.move_table {
        Some(path) => {
            let table = MoveModel::load(path)?;
            let knowledge = ModelKnowledge::new(table.clone());
            (Engine::with_model(config.clone(), table), knowledge)
        }
        None => (Engine::new(config.clone()), ModelKnowledge::shipped()),
    };
    let mut engines: Vec<Engine> = (1..positions)
        .map(|_| base.reconfigured(config.clone()))
        .collect();
    engines.push(base);
    Ok((engines, model))
}

/// Ends the process when a thread of the analysis loop has failed: its input may stay
/// open for ever. The loop has answered every open turn with an error line and calls
/// this holding the output, so that exiting cuts no response line short.
fn exit_on_failure(message: &str) {
    eprintln!("tengen analysis: {message}");
    std::process::exit(1);
}

/// Standard input that says when it has ended.
struct Watched<R> {
    inner: R,
    ended: Arc<AtomicBool>,
}

impl<R: Read> Read for Watched<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() {
            self.ended.store(true, Ordering::Relaxed);
        }
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Watched<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        let buf = self.inner.fill_buf()?;
        if buf.is_empty() {
            self.ended.store(true, Ordering::Relaxed);
        }
        Ok(buf)
    }

    fn consume(&mut self, amount: usize) {
        self.inner.consume(amount);
    }
}

/// Ends the process once the one that started it is gone while its input is still
/// open. KaTrain starts a custom command through a shell, and to stop the engine it
/// kills that shell, not the shell's child: the engine would wait for the end of an
/// input that never ends (the pipe's other end is still open in KaTrain), and KaTrain's
/// reader would wait for it. Input that has ended (a script's file of queries, whose
/// shell may exit first) is still answered to the last turn.
fn exit_when_orphaned(quiet: bool, input_ended: Arc<AtomicBool>) {
    #[cfg(unix)]
    {
        let parent = std::os::unix::process::parent_id();
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(std::time::Duration::from_millis(200));
                if std::os::unix::process::parent_id() != parent
                    && !input_ended.load(Ordering::Relaxed)
                {
                    if !quiet {
                        eprintln!("tengen analysis: the process that started it is gone; exiting");
                    }
                    std::process::exit(0);
                }
            }
        });
    }
    #[cfg(not(unix))]
    let _ = (quiet, input_ended);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn katrains_katago_flags_are_read() {
        let f = katago_flags(&strings(&[
            "-model",
            "m.bin.gz",
            "-config",
            "a.cfg",
            "-override-config",
            "homeDataDir=/x",
            "-analysis-threads",
            "3",
            "-quit-without-waiting",
        ]))
        .unwrap();
        assert_eq!(f.ignored.len(), 3);
        assert_eq!(f.analysis_threads, Some(3));
        assert!(f.quit_without_waiting);
        assert!(
            katago_flags(&strings(&["-model"]))
                .unwrap_err()
                .contains("needs a value")
        );
        assert!(katago_flags(&strings(&["-analysis-threads", "0"])).is_err());
        assert!(
            katago_flags(&strings(&["-bogus"]))
                .unwrap_err()
                .contains("unexpected argument")
        );
    }
}
