//! `tengen gtp` (and `tengen` alone): the engine on stdin/stdout, as GUIs start it.

use std::time::Duration;

use clap::Args;
use tengen_board::{BoardSize, Rules};
use tengen_engine::config::LocalModelSetting;
use tengen_engine::shape::model::MoveModel;
use tengen_engine::{Config, Engine, ModelPrior, Parallelism, PolicyKind};
use tengen_gtp::SessionOptions;

use crate::bounds::{self, Real, Whole};

/// `--time-per-move`'s bounds, in seconds.
const TIME_PER_MOVE: Real = bounds::SECONDS;
/// `--max-move-time`'s bounds, in seconds (the engine's own floor: 0.1 s).
const MAX_MOVE_TIME: Real = Real::between(0.1, 86_400.0);
/// `--lag`'s bounds, in milliseconds.
const LAG_MS: Whole = Whole::between(0, 60_000);
/// `--resign-threshold`'s bounds: a win rate.
const RESIGN_THRESHOLD: Real = Real::between(0.0, 1.0);
/// `--memory`'s bounds, in MiB.
const MEMORY_MIB: Whole = Whole::between(1, tengen_engine::MAX_MEMORY_MIB as i128);
/// `--model-weight`'s bounds, in virtual visits.
const MODEL_WEIGHT: Real = Real::between(0.0, 100_000.0);

/// The examples of `tengen --help` and `tengen gtp --help` (`tests/gtp/binary.rs` runs
/// them).
const GTP_EXAMPLES: &str = "\
Examples:
  # One move on an empty 19x19 board, a thousand playouts on one thread:
  echo \"genmove b\" | tengen --playouts 1000 --threads 1 --quiet
  # As a GUI starts it, on 9x9 with 5 seconds a move unless the GUI sets a clock:
  tengen gtp --size 9 --time-per-move 5";

/// Options of `tengen gtp`. Every one but `--move-table` can also be changed over GTP
/// with `tengen-set` (see `tengen-get` for the names).
#[derive(Debug, Default, Args)]
#[command(after_help = GTP_EXAMPLES)]
pub struct GtpArgs {
    /// Playouts per move; without it the engine thinks by the clock the GUI sets
    /// (`time_settings`, `time_left`) or, with no clock, --time-per-move.
    #[arg(long, value_name = "N", allow_hyphen_values = true,
          value_parser = bounds::POSITIVE.parser::<u64>())]
    pub playouts: Option<u64>,
    /// Search threads (default: the machine's cores).
    #[arg(long, value_name = "T", allow_hyphen_values = true,
          value_parser = bounds::THREADS.parser::<usize>())]
    pub threads: Option<usize>,
    /// How threads share the search: root (a tree each, merged at the root) or tree
    /// (one tree, virtual loss).
    #[arg(long, value_name = "KIND")]
    pub parallelism: Option<Parallelism>,
    /// Seed of every random choice; with one thread and --playouts a game repeats
    /// (default: a fresh seed each run, so that games against a fixed opponent vary).
    #[arg(long, value_name = "S", allow_hyphen_values = true,
          value_parser = bounds::ANY.parser::<u64>())]
    pub seed: Option<u64>,
    /// Seconds per move when no clock is set and no --playouts is given (default 5;
    /// at most --max-move-time).
    #[arg(long, value_name = "SECS", allow_hyphen_values = true,
          value_parser = TIME_PER_MOVE.parser())]
    pub time_per_move: Option<f64>,
    /// The longest any one move may think, whatever the GUI's clock, --time-per-move or
    /// --playouts would give it (default 120, at least 0.1): an absurd clock cannot
    /// hang a move.
    #[arg(long, value_name = "SECS", allow_hyphen_values = true,
          value_parser = MAX_MOVE_TIME.parser())]
    pub max_move_time: Option<f64>,
    /// Milliseconds kept back from the clock on every move for what the search does
    /// not see: pipes, process scheduling, the work around the search (default 50,
    /// sized for a local pipe on a loaded machine; raise it over a network).
    #[arg(long, value_name = "MS", allow_hyphen_values = true,
          value_parser = LAG_MS.parser::<u64>())]
    pub lag: Option<u64>,
    /// Rules: chinese (area scoring, the default), japanese (territory), korean,
    /// tromp-taylor, new_zealand, aga.
    #[arg(long, value_name = "RULES")]
    pub rules: Option<String>,
    /// Komi (default: 7.5 under area rules, 6.5 under territory rules); the GUI's
    /// `komi` command replaces it.
    #[arg(long, allow_hyphen_values = true, value_parser = bounds::KOMI.parser())]
    pub komi: Option<f64>,
    /// Resign when the win rate stays below this (0 never resigns; default 0.1).
    #[arg(long, value_name = "WINRATE", allow_hyphen_values = true,
          value_parser = RESIGN_THRESHOLD.parser())]
    pub resign_threshold: Option<f64>,
    /// Think on the opponent's time.
    #[arg(long, overrides_with = "no_ponder")]
    pub ponder: bool,
    /// Do not think on the opponent's time (the default).
    #[arg(long, overrides_with = "ponder")]
    pub no_ponder: bool,
    /// Memory of the search trees in MiB (default 256, at most 32768), one tree or
    /// a share each under root parallelism: a full tree drops its least visited
    /// branches and keeps growing, never past this. The process takes about 6 MB
    /// more, and about 250 KiB more a search thread.
    #[arg(long, value_name = "MIB", allow_hyphen_values = true,
          value_parser = MEMORY_MIB.parser::<usize>())]
    pub memory: Option<usize>,
    /// Playout policy: light or heavy (the default).
    #[arg(long)]
    pub policy: Option<PolicyKind>,
    /// How the learned move model (engine/data/moves.txt) shapes new nodes' priors:
    /// off (tactics and 3×3 shapes alone), wins (the default: each candidate's share
    /// of the model's softmax as virtual wins), widen (children in the model's order,
    /// more of them as visits grow) or both.
    #[arg(long, value_name = "KIND")]
    pub model_prior: Option<ModelPrior>,
    /// Virtual visits the model's shares add up to under --model-prior wins or both
    /// (default 100, from 0 to 100000).
    #[arg(long, value_name = "W", allow_hyphen_values = true,
          value_parser = MODEL_WEIGHT.parser())]
    pub model_weight: Option<f64>,
    /// A move table written by `tengen learn fit` for the model prior (--model-prior
    /// wins, widen or both; unused under off), instead of the shipped
    /// engine/data/moves.txt (read once at start; a table that does not load is an
    /// error naming the file and line, and the engine does not start).
    #[arg(long, value_name = "FILE")]
    pub move_table: Option<std::path::PathBuf>,
    /// The move model in the heavy playouts: off, or W, the weight of the rest of
    /// the board (0 to 1000) against a neighbour of the last move drawn by its
    /// learned strength (engine/data/playouts.txt; 1 is the table's strength of a
    /// far point).
    #[arg(long, value_name = "W|off", allow_hyphen_values = true,
          value_parser = bounds::playout_model)]
    pub playout_model: Option<LocalModelSetting>,
    /// Board size before the GUI's first `boardsize` (default 19).
    #[arg(long, value_name = "N", allow_hyphen_values = true,
          value_parser = bounds::BOARD_SIZE.parser::<u32>())]
    pub size: Option<u32>,
    /// No per-move search summary on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

impl GtpArgs {
    /// The engine configuration and session options these flags describe. The
    /// parsers have checked every bound already; they are checked again here, worded
    /// the same way, for flags set otherwise.
    pub fn build(&self) -> Result<(Config, SessionOptions), String> {
        use crate::bounds::{check, check_whole};
        let mut config = Config::default();
        if let Some(n) = self.playouts {
            config.playouts = Some(check_whole("--playouts", n, bounds::POSITIVE)?);
        }
        if let Some(t) = self.threads {
            config.threads = check_whole("--threads", t, bounds::THREADS)?;
        }
        config.seed = self.seed.unwrap_or_else(fresh_seed);
        if let Some(secs) = self.time_per_move {
            let secs = check("--time-per-move", secs, TIME_PER_MOVE)?;
            config.default_move_time = Duration::from_secs_f64(secs);
        }
        if let Some(secs) = self.max_move_time {
            let secs = check("--max-move-time", secs, MAX_MOVE_TIME)?;
            config.max_move_time = Duration::from_secs_f64(secs);
        }
        if let Some(ms) = self.lag {
            config.lag = Duration::from_millis(check_whole("--lag", ms, LAG_MS)?);
        }
        if let Some(r) = self.resign_threshold {
            config.resign_threshold = check("--resign-threshold", r, RESIGN_THRESHOLD)?;
        }
        if self.ponder {
            config.ponder = true;
        }
        if self.no_ponder {
            config.ponder = false;
        }
        if let Some(mib) = self.memory {
            config.memory_mib = check_whole("--memory", mib, MEMORY_MIB)?;
        }
        if let Some(p) = self.parallelism {
            config.parallelism = p;
        }
        if let Some(p) = self.policy {
            config.policy = p;
        }
        if let Some(m) = self.model_prior {
            config.search.model_prior = m;
        }
        if let Some(w) = self.model_weight {
            config.search.model_weight = check("--model-weight", w, MODEL_WEIGHT)?;
        }
        if let Some(m) = self.playout_model {
            config.heavy.local_model = m.0;
        }
        let mut rules = match &self.rules {
            Some(name) => name.parse::<Rules>().map_err(|e| e.to_string())?,
            None => Rules::chinese(),
        };
        if let Some(k) = self.komi {
            rules
                .set_komi(check("--komi", k, bounds::KOMI)?)
                .map_err(|e| bounds::refused("--komi", k, e))?;
        }
        let size = match self.size {
            Some(n) => BoardSize::new(n).map_err(|e| bounds::refused("--size", n, e))?,
            None => BoardSize::NINETEEN,
        };
        let options = SessionOptions {
            rules,
            size,
            quiet: self.quiet,
            version: crate::VERSION,
        };
        Ok((config, options))
    }
}

/// Runs the GTP engine on stdin/stdout until `quit` or end of input.
pub fn run(args: GtpArgs) -> Result<(), String> {
    let (config, options) = args.build()?;
    let engine = match &args.move_table {
        Some(path) => Engine::with_model(config, MoveModel::load(path)?),
        None => Engine::new(config),
    };
    match tengen_gtp::run_stdio(engine, options) {
        Ok(()) => Ok(()),
        // The GUI closed our stdout: nothing is left to answer.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("GTP: {e}")),
    }
}

/// A seed that differs between runs: the standard library's per-process random
/// hasher keys, mixed with the time and the process id.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    h.finish()
}
