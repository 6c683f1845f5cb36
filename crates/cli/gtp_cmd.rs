//! `tengen gtp` (and `tengen` alone): the engine on stdin/stdout, as GUIs start it.

use clap::Args;
use tengen_board::{BoardSize, Rules};
use tengen_engine::{Config, Engine};
use tengen_gtp::SessionOptions;
use tengen_knowledge::MoveModel;

use crate::bounds;
use crate::setting_flags::SettingFlags;

/// The examples of `tengen --help` and `tengen gtp --help` (`tests/gtp/binary.rs` runs
/// them).
const GTP_EXAMPLES: &str = "\
Examples:
  # One move on an empty 19x19 board, a thousand playouts on one thread:
  echo \"genmove b\" | tengen --playouts 1000 --threads 1 --quiet
  # As a GUI starts it, on 9x9 with 5 seconds a move unless the GUI sets a clock:
  tengen gtp --size 9 --time-per-move 5";

/// Options of `tengen gtp`: the engine's settings, which GTP's `tengen-set` changes
/// too (`tengen-get` lists them), and the session's own (rules, komi, board size, the
/// move table, quiet).
#[derive(Debug, Default, Args)]
#[command(after_help = GTP_EXAMPLES)]
pub struct GtpArgs {
    /// The engine's settings (`tengen_engine::settings`), one flag each.
    #[command(flatten)]
    pub settings: SettingFlags,
    /// Rules: chinese (area scoring, the default), japanese (territory), korean,
    /// tromp-taylor, new_zealand, aga, cgos (Tromp-Taylor's count, no suicide).
    #[arg(long, value_name = "RULES", value_parser = |s: &str| s.parse::<Rules>())]
    pub rules: Option<Rules>,
    /// Komi (default: 7.5 under area rules, 6.5 under territory rules); the GUI's
    /// `komi` command replaces it.
    #[arg(long, allow_hyphen_values = true, value_parser = bounds::KOMI.parser())]
    pub komi: Option<f64>,
    /// A move table written by `tengen learn fit` for the model prior (--model-prior
    /// wins, widen or both; unused under off), instead of the shipped
    /// crates/knowledge/data/moves.txt (read once at start; a table that does not load is an
    /// error naming the file and line, and the engine does not start).
    #[arg(long, value_name = "FILE")]
    pub move_table: Option<std::path::PathBuf>,
    /// Board size before the GUI's first `boardsize` (default 19).
    #[arg(long, value_name = "N", allow_hyphen_values = true,
          value_parser = bounds::BOARD_SIZE.parser::<u32>())]
    pub size: Option<u32>,
    /// No per-move search summary on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// For gtp2ogs (online-go.com): one `MALKOVICH:` line on stderr per move, with
    /// the visits, win rate, score lead, the score's standard deviation and principal
    /// variation, which gtp2ogs posts to the game's Malkovich log (written even with
    /// --quiet).
    #[arg(long)]
    pub ogs_pv: bool,
    /// For kgsGtp (KGS): pass second under area scoring, as KGS's bots do (a pass
    /// the search chooses before the opponent has passed becomes its best other
    /// move).
    #[arg(long)]
    pub kgs: bool,
}

impl GtpArgs {
    /// The engine configuration and session options these flags describe. The
    /// parsers have checked every bound already; they are checked again here, worded
    /// the same way, for flags set otherwise.
    pub fn build(&self) -> Result<(Config, SessionOptions), String> {
        use crate::bounds::check;
        let mut config = Config::default().with_shipped_net();
        if !self.settings.has("seed") {
            config.seed = fresh_seed();
        }
        self.settings.apply(&mut config)?;
        let mut rules = self.rules.unwrap_or_else(Rules::chinese);
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
            ogs_pv: self.ogs_pv,
            kgs: self.kgs,
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
