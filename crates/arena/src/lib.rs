//! Bot-versus-bot matches: `tengen match`.
//!
//! Engines are command lines speaking GTP ([`engine::Player`] over
//! [`client::GtpClient`]). Every game is refereed by a
//! [`tengen_board::Game`] that checks every move; an illegal move, a crash, a hang, a
//! closed pipe or a loss on time is a loss for that engine with the reason recorded, and
//! the match goes on ([`game`]). Each game is saved as SGF ([`record`]) and appended to
//! `DIR/journal.jsonl` ([`journal`]), from which an interrupted match resumes; the
//! [`summary`] gives wins per engine and colour, the win rate with a 95% interval, the
//! Elo difference and the SPRT state ([`stats`]).
//!
//! The API is free of any CLI library: build a [`MatchConfig`], call [`run_match`];
//! combine the journals of several shards with [`merge`].
//!
//! ```no_run
//! use tengen_arena::{MatchConfig, run_match};
//!
//! let mut cfg = MatchConfig::new(
//!     vec![
//!         "/usr/games/gnugo --mode gtp --chinese-rules --level 10".into(),
//!         "tengen --playouts 1000 --threads 1".into(),
//!     ],
//!     "m1".into(),
//! );
//! cfg.games = 4;
//! cfg.size = 9;
//! let summary = run_match(&cfg).unwrap();
//! println!("{summary}");
//! ```

#![deny(missing_docs)]

pub mod client;
pub mod engine;
pub mod error;
pub mod game;
pub mod journal;
pub mod meta;
pub mod openings;
pub mod progress;
pub mod record;
pub mod referee;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod stats;
pub mod summary;
pub mod timecontrol;

use std::path::PathBuf;
use std::time::Duration;

use tengen_board::Keyword;

pub use error::ArenaError;
pub use runner::{merge, merge_for, merge_report, run_match};
pub use schedule::Shard;
pub use stats::Sprt;
pub use summary::{Focus, Summary};
pub use timecontrol::TimeControl;

/// The rule sets a match can be played under: those `tengen gtp --rules` takes. The
/// referee plays and scores by them; each engine is told them with `kgs-rules NAME`
/// where it knows that command (an engine that does not, or that refuses the name,
/// plays by its own rules: the match says so on stderr).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RuleSet {
    /// Area scoring, positional superko (the default).
    #[default]
    Chinese,
    /// Territory scoring (positional superko still stops cycles).
    Japanese,
    /// Korean rules: Japanese ones, as Tengen plays them.
    Korean,
    /// AGA rules: area scoring, a pass stone to the opponent, situational superko.
    Aga,
    /// Tromp-Taylor: area scoring, the board counted as it stands, suicide allowed.
    TrompTaylor,
    /// New Zealand rules: area scoring, suicide allowed.
    NewZealand,
    /// CGOS: Tromp-Taylor's count without suicide.
    Cgos,
}

impl Keyword for RuleSet {
    const ALL: &'static [RuleSet] = &[
        RuleSet::Chinese,
        RuleSet::Japanese,
        RuleSet::Korean,
        RuleSet::Aga,
        RuleSet::TrompTaylor,
        RuleSet::NewZealand,
        RuleSet::Cgos,
    ];
    /// The names sent with `kgs-rules` and written to `match.json` (`tengen gtp
    /// --rules`'s and KGS's names).
    const NAMES: &'static [&'static str] = &[
        "chinese",
        "japanese",
        "korean",
        "aga",
        "tromp-taylor",
        "new_zealand",
        "cgos",
    ];
    const WHAT: &'static str = "rules";
    const ALIASES: &'static [(&'static str, RuleSet)] = &[
        ("cn", RuleSet::Chinese),
        ("jp", RuleSet::Japanese),
        ("kr", RuleSet::Korean),
        ("tromp_taylor", RuleSet::TrompTaylor),
        ("tt", RuleSet::TrompTaylor),
        ("new-zealand", RuleSet::NewZealand),
        ("nz", RuleSet::NewZealand),
    ];
}

tengen_board::keyword_text!(RuleSet);

impl RuleSet {
    /// The board crate's rules (komi still to be set).
    pub fn rules(&self) -> tengen_board::Rules {
        use tengen_board::Rules;
        match self {
            RuleSet::Chinese => Rules::chinese(),
            RuleSet::Japanese | RuleSet::Korean => Rules::japanese(),
            RuleSet::Aga => Rules::aga(),
            RuleSet::TrompTaylor => Rules::tromp_taylor(),
            RuleSet::NewZealand => Rules::new_zealand(),
            RuleSet::Cgos => Rules::cgos(),
        }
    }
}

/// An engine of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The command line (split like a shell would; no shell is run).
    pub command: String,
    /// The name used in results; by default the engine's `name` and `version`.
    pub label: Option<String>,
}

impl From<String> for EngineSpec {
    fn from(command: String) -> EngineSpec {
        EngineSpec {
            command,
            label: None,
        }
    }
}

/// Everything a match is run with. [`MatchConfig::new`] gives the defaults.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Two or more engines (more: round robin).
    pub engines: Vec<EngineSpec>,
    /// Games per pair of engines.
    pub games: u32,
    /// Board size (2..=25).
    pub size: u32,
    /// Komi.
    pub komi: f64,
    /// Rules.
    pub rules: RuleSet,
    /// Fixed handicap stones for Black (0 or 2..=9).
    pub handicap: u32,
    /// The clock; `None`: only [`MatchConfig::move_timeout`] limits a move.
    pub time: Option<TimeControl>,
    /// The hard limit on one move without a clock, and on every other command.
    pub move_timeout: Duration,
    /// How long an engine may take to start and answer `protocol_version`.
    pub startup_timeout: Duration,
    /// Games played at once.
    pub parallel: usize,
    /// An openings file (see [`openings`]).
    pub openings: Option<PathBuf>,
    /// After this many moves a game is void; `None`: three times the board's points.
    pub max_moves: Option<u32>,
    /// The output directory: `journal.jsonl`, `match.json`, one SGF a game.
    pub out: PathBuf,
    /// Continue the match recorded in `out` (else an existing journal is an error).
    pub resume: bool,
    /// Stop when this test decides (the focus, by default the first engine, against the
    /// first other engine).
    pub sprt: Option<Sprt>,
    /// Run only this slice of the schedule.
    pub shard: Option<Shard>,
    /// Keep each engine's stderr in `out/logs/` (else it is read and dropped).
    pub engine_logs: bool,
    /// Show progress on stderr: on a terminal a live line per game in play, a line per
    /// finished game and a bar; otherwise a plain line per finished game
    /// ([`progress`]).
    pub progress: bool,
    /// The match's seed: game `g` is given the seed `seed + g` ([`game_seed`]), put
    /// in place of `{seed}` in each engine's command line ([`command_for_game`]).
    pub seed: u64,
    /// The engine the summary (and the progress's standing, and the SPRT) is about;
    /// `None`: the first. An unknown name is an error before any game is played.
    pub focus: Option<Focus>,
    /// Write the match report (an `.html` file, [`report`]) here: refreshed as games
    /// finish (at most every [`runner::REPORT_EVERY`]) and when the match ends or stops,
    /// so it always shows the journal's games.
    pub report: Option<PathBuf>,
}

/// The placeholder in an engine's command line that each game replaces by its seed.
pub const SEED_PLACEHOLDER: &str = "{seed}";

/// The seed of game `game` in a match with seed `seed`: `seed + game` (wrapping).
pub fn game_seed(seed: u64, game: u32) -> u64 {
    seed.wrapping_add(u64::from(game))
}

/// `command` with every `{seed}` replaced by `seed`, so that an engine that takes a
/// seed (`tengen --seed {seed}`, `gnugo --seed {seed}`) plays each game repeatably.
pub fn command_for_game(command: &str, seed: u64) -> String {
    command.replace(SEED_PLACEHOLDER, &seed.to_string())
}

impl MatchConfig {
    /// A match between `engines` into `out` with the defaults: 100 games, 19×19, komi
    /// 7.5, Chinese rules, no clock, 60 s a move, as many games at once as cores.
    pub fn new(engines: Vec<String>, out: PathBuf) -> MatchConfig {
        MatchConfig {
            engines: engines.into_iter().map(EngineSpec::from).collect(),
            games: 100,
            size: 19,
            komi: 7.5,
            rules: RuleSet::Chinese,
            handicap: 0,
            time: None,
            move_timeout: Duration::from_secs(60),
            startup_timeout: Duration::from_secs(60),
            parallel: std::thread::available_parallelism().map_or(1, |n| n.get()),
            openings: None,
            max_moves: None,
            out,
            resume: false,
            sprt: None,
            shard: None,
            engine_logs: false,
            progress: true,
            seed: 0,
            focus: None,
            report: None,
        }
    }
}
