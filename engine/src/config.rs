//! Every tunable of the engine in one value, passed down; there are no globals.
//! The value is plain data: it names the policy network ([`NetChoice`]), and the
//! [`Engine`](crate::Engine) holds the network loaded from it.

use std::time::Duration;

pub use tengen_board::Keyword;
use tengen_board::UnknownKeyword;
pub use tengen_knowledge::NetChoice;

/// The engine's settings. `Config::default()` is what `tengen` ships with.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Search threads.
    pub threads: usize,
    /// How the threads share the search.
    pub parallelism: Parallelism,
    /// A fixed number of playouts per move; `None` thinks by the clock.
    pub playouts: Option<u64>,
    /// Time per move when no clock is set and no playout budget is given.
    pub default_move_time: Duration,
    /// Whether a move timed by [`Config::default_move_time`] thinks to the end of it
    /// (`true`), rather than stopping once more thinking is not expected to change
    /// the move (`false`, [`crate::time::MoveBudget::should_stop`]). Clocks keep
    /// their early stop either way: the time it saves is there for later moves.
    pub full_move_time: bool,
    /// Seed of every random choice; one thread plus a playout budget is repeatable.
    pub seed: u64,
    /// Playout policy.
    pub policy: PolicyKind,
    /// Resign when the win rate stays below this (0 never resigns).
    pub resign_threshold: f64,
    /// Dynamic komi in handicap games: the points each handicap stone adds to the
    /// komi a move's search plays for, shrinking to 0 as the game goes on
    /// ([`crate::komi::handicap_shift`]); 0 plays for the real komi throughout.
    /// 7 by default: giving three stones to GNU Go on 13×13 it won more games than
    /// without (STRENGTH.md, "Dynamic komi in handicap games").
    pub dynamic_komi: f64,
    /// Think on the opponent's time between moves.
    pub ponder: bool,
    /// The search tree's memory budget in MiB ([`DEFAULT_MEMORY_MIB`] by default),
    /// shared by the threads (split between them under root parallelism). A full
    /// tree drops its least visited branches and keeps growing; it never takes more.
    pub memory_mib: usize,
    /// Time kept back from the clock on every move for what the search's own timer
    /// does not see: the controller's pipes, process scheduling, and the work before
    /// and after the search. [`DEFAULT_LAG`] by default, sized for a local pipe.
    pub lag: Duration,
    /// The longest any one move may think, whatever the clock, `--time-per-move` or a
    /// watchdog deadline say: a GUI's absurd clock (`time_settings 1e20 0 0`, a year
    /// of main time) must not hang a move. [`MAX_MOVE_TIME`] by default.
    pub max_move_time: Duration,
    /// The policy network that rates the tree's root and busy nodes (see
    /// `SearchParams::net_visits` and `net_blend`); [`NetChoice::Off`]: the move model
    /// alone. The engine loads it and holds it with the cache of its ratings.
    pub policy_net: NetChoice,
    /// Search parameters.
    pub search: SearchParams,
    /// Heavy playout probabilities.
    pub heavy: HeavyParams,
    /// Allow nakade (`HeavyParams::nakade`) in the playouts that settle the end of
    /// the game: dead stones and seki for `final_status_list` and the pass decision.
    /// (They allow it anyway when `HeavyParams::nakade` is on, the default, so this
    /// matters only when that is off.)
    pub settle_nakade: bool,
}

/// Which playout policy to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyKind {
    /// Uniformly random legal moves that do not fill the mover's own eye.
    Light,
    /// Atari answers, captures, 3×3 patterns near the last move, self-atari avoidance,
    /// then random.
    Heavy,
}

impl Keyword for PolicyKind {
    const ALL: &'static [PolicyKind] = &[PolicyKind::Light, PolicyKind::Heavy];
    /// The names used on the command line and in `tengen bench --json`.
    const NAMES: &'static [&'static str] = &["light", "heavy"];
    const WHAT: &'static str = "playout policy";
}

/// The name is neither `light` nor `heavy`.
pub type UnknownPolicy = UnknownKeyword<PolicyKind>;

/// How several search threads share the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parallelism {
    /// Every thread grows its own tree; the root statistics are merged.
    Root,
    /// The threads grow one tree of atomic counters, steered apart by virtual loss.
    Tree,
}

impl Keyword for Parallelism {
    const ALL: &'static [Parallelism] = &[Parallelism::Root, Parallelism::Tree];
    /// The names used on the command line and in `tengen-get`.
    const NAMES: &'static [&'static str] = &["root", "tree"];
    const WHAT: &'static str = "parallelism";
}

/// The name is neither `root` nor `tree`.
pub type UnknownParallelism = UnknownKeyword<Parallelism>;

/// Tree-policy parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// UCT exploration constant (0 relies on RAVE and priors alone).
    pub exploration: f64,
    /// RAVE equivalence: the visit count where AMAF and own values weigh the same.
    pub rave_equiv: f64,
    /// Visits a leaf needs before it is expanded, in a position of at most
    /// `expand_width` empty points.
    pub expand_after: u32,
    /// Wider positions need proportionally more visits (`expand_after × empty points
    /// / expand_width`, rounded up), since an expansion costs an edge per move:
    /// 2 visits on 9×9, 6 on an empty 19×19 board by default. 0 turns this off.
    pub expand_width: u32,
    /// Weight, in virtual visits, of the prior knowledge.
    pub prior_weight: f64,
    /// Weight of the learned shapes in the prior: a shape of log strength `g`
    /// (clamped to ±3) adds `shape_weight × |g|` prior weights of virtual visits, won
    /// when `g > 0` and lost when `g < 0`. 0 uses the hand-written 3×3 table instead.
    pub shape_weight: f64,
    /// Spare a self-atari that plays a nakade which kills now (see
    /// `tactics::nakade_kills`) the prior's self-atari penalty.
    pub nakade: bool,
    /// How the learned move model (`crates/knowledge/data/moves.txt`) shapes a new node's
    /// priors, on top of the tactics and shapes above ([`ModelPrior::Wins`] by
    /// default: it beat `Off` on 9×9, 13×13 and 19×19, STRENGTH.md).
    pub model_prior: ModelPrior,
    /// Under [`ModelPrior::Wins`] or [`ModelPrior::Both`]: a candidate whose share of
    /// the model's softmax over the node's candidates is `s` gets `model_weight × s`
    /// extra virtual visits, all won.
    pub model_weight: f64,
    /// Under [`ModelPrior::Widen`] or [`ModelPrior::Both`]: a node of `n` visits
    /// considers its `2 + ⌊log(1 + n / widen_visits) / log(widen_growth)⌋` strongest
    /// children (by the model), so one more every time the visits grow by the factor.
    pub widen_visits: f64,
    /// The growth factor of [`SearchParams::widen_visits`] (more than 1).
    pub widen_growth: f64,
    /// With a policy network (`Config::policy_net`): the visits an expanded node
    /// needs before the network rates its position and its children's priors are
    /// blended anew (the root is rated before the search starts).
    pub net_visits: u32,
    /// With a policy network: the network's part in a rated node's shares, from 0
    /// (the move model's alone) to 1 (the network's alone; see `prior::net`).
    pub net_blend: f64,
    /// With a policy network: the virtual visits, all won, that a rated node's
    /// blended shares add up to (in place of `model_weight`, which still weighs the
    /// move model's shares at the nodes the network has not rated).
    pub net_weight: f64,
    /// With a policy network: the move model's exponent in the network's shares at a
    /// rated node. 0: the network's probabilities alone; α > 0: the product
    /// `p_net × p_mm^α`, normalized over the candidates (a product of experts: the
    /// model's large patterns read the opening better, the network the fights).
    /// 0 by default: at 0.4 the product predicts the players' moves better (40.6% top-1
    /// against 38.7%) but lost 35 of 100 games at equal playouts on 13×13 (STRENGTH.md).
    pub net_model_power: f64,
    /// With a policy network: the smallest board side it rates besides the side it
    /// was trained on (every layer is a convolution, so a net reads any size; whether
    /// that pays is measured, STRENGTH.md). 13 by default: the shipped 19×19 net won
    /// on 13×13 at equal time, against the move model alone and against Pachi, and
    /// measured no gain on 9×9 (at its first, lighter settings).
    pub net_min_size: usize,
    /// With a policy network, on a near-empty board (under a tenth of its points
    /// taken) of the size the network was trained on: a move the network rates below
    /// this probability starts with `net_weight` virtual losses at a node it rated, so
    /// the search leaves the network's moves for it only where the playouts prove it
    /// better by that margin (the 19×19 search's first move was J15, R8, G15 or S7 for
    /// some seeds, moves the network rates below 10⁻⁴). Not on the other sizes the
    /// network rates: on 13×13 the floor won 18 of 40 games at 1 000 playouts against
    /// no floor (STRENGTH.md). 10⁻³ by default; 0 turns it off.
    pub net_floor: f64,
}

/// How the move model enters the tree's priors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelPrior {
    /// Not at all: the priors are `prior.rs`'s tactics and shapes alone (the engine
    /// before the model).
    Off,
    /// As virtual wins, by each candidate's share of the model's softmax.
    Wins,
    /// As progressive widening: children ordered by the model's strength, more of them
    /// considered as the node's visits grow.
    Widen,
    /// Both virtual wins and progressive widening.
    Both,
}

impl Keyword for ModelPrior {
    /// Every choice, in the order `--help` lists them.
    const ALL: &'static [ModelPrior] = &[
        ModelPrior::Off,
        ModelPrior::Wins,
        ModelPrior::Widen,
        ModelPrior::Both,
    ];
    /// The names used on the command line and in `tengen-get`.
    const NAMES: &'static [&'static str] = &["off", "wins", "widen", "both"];
    const WHAT: &'static str = "model prior";
}

impl ModelPrior {
    /// Whether the model rates a new node's candidates at all.
    pub fn is_on(self) -> bool {
        self != ModelPrior::Off
    }

    /// Whether the model's shares add virtual wins.
    pub fn wins(self) -> bool {
        matches!(self, ModelPrior::Wins | ModelPrior::Both)
    }

    /// Whether children are ordered and widened progressively.
    pub fn widens(self) -> bool {
        matches!(self, ModelPrior::Widen | ModelPrior::Both)
    }
}

/// The name is not one of [`ModelPrior::ALL`]'s.
pub type UnknownModelPrior = UnknownKeyword<ModelPrior>;

tengen_board::keyword_text!(PolicyKind, Parallelism, ModelPrior);

/// The largest weight of the rest of the board in the playouts' local draw.
pub const MAX_LOCAL_MODEL: f64 = 1000.0;

/// A setting of [`HeavyParams::local_model`] as a user writes it: `off`, or the weight
/// of the rest of the board, from 0 to [`MAX_LOCAL_MODEL`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LocalModelSetting(pub Option<f64>);

impl std::fmt::Display for LocalModelSetting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(w) => write!(f, "{w}"),
            None => write!(f, "off"),
        }
    }
}

/// Why a [`LocalModelSetting`] did not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLocalModel(pub String);

impl std::fmt::Display for BadLocalModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "bad playout model {:?} (expected off, or a weight from 0 to {MAX_LOCAL_MODEL})",
            self.0
        )
    }
}

impl std::error::Error for BadLocalModel {}

impl std::str::FromStr for LocalModelSetting {
    type Err = BadLocalModel;
    fn from_str(s: &str) -> Result<LocalModelSetting, BadLocalModel> {
        if s.eq_ignore_ascii_case("off") {
            return Ok(LocalModelSetting(None));
        }
        s.parse::<f64>()
            .ok()
            .filter(|w| (0.0..=MAX_LOCAL_MODEL).contains(w))
            .map(|w| LocalModelSetting(Some(w)))
            .ok_or_else(|| BadLocalModel(s.to_string()))
    }
}

/// Probabilities of the heavy playout's heuristics, each tried in turn.
#[derive(Clone, Debug, PartialEq)]
pub struct HeavyParams {
    /// Capture a group in atari near the last move / anywhere.
    pub capture: f64,
    /// Save own group put in atari by the last move.
    pub escape: f64,
    /// Answer a last move that left groups with two liberties (extend own, atari theirs).
    pub two_liberties: f64,
    /// Play a 3×3 pattern move around the last move.
    pub pattern: f64,
    /// When set, a pattern move is a learned shape of at least this log strength
    /// (see [`tengen_knowledge::shape`]) instead of a shape of the hand-written table;
    /// shapes the table does not name have log strength 0.
    pub shape_threshold: Option<f64>,
    /// When set, the pattern step draws a neighbour of the last move by the move
    /// model's local strengths instead (see `playout::local`), against the rest of
    /// the board with this weight for each of its empty points (1: the table's
    /// strength of a far point).
    pub local_model: Option<f64>,
    /// Answer the last move with the last good reply learned by earlier playouts.
    pub reply: f64,
    /// Before the random step's uniform choice, try this many random empty points
    /// and play the first whose eight neighbours are all empty (open space on the
    /// second line or above); 0 turns it off.
    pub fill_board: u32,
    /// Refuse random self-atari of groups of this many stones or more.
    pub self_atari_min: u32,
    /// Allow a random self-atari of up to five stones when its capture leaves a dead
    /// eye shape and the groups around it have no other liberty (see
    /// `tactics::nakade_kills`); after a capture of three to five stones, play the
    /// vital point of the space it left.
    pub nakade: bool,
}

/// The default of [`Config::memory_mib`]: 256 MiB.
pub const DEFAULT_MEMORY_MIB: usize = 256;

/// The largest [`Config::memory_mib`]: 32 GiB (the tree's indices are 32 bits).
pub const MAX_MEMORY_MIB: usize = 32 << 10;

/// The default of [`Config::lag`]: 50 ms, sized from the GTP round trips and the
/// search's overrun past its deadline measured through `tengen match` on a loaded
/// 2-core machine (BENCHMARKS.md, "Clock").
pub const DEFAULT_LAG: Duration = Duration::from_millis(50);

/// The default of [`Config::max_move_time`]: two minutes.
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(120);

impl Default for Config {
    fn default() -> Config {
        Config {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            parallelism: Parallelism::Tree,
            playouts: None,
            default_move_time: Duration::from_secs(5),
            full_move_time: false,
            seed: 0x07e4_6e11,
            policy: PolicyKind::Heavy,
            resign_threshold: 0.1,
            dynamic_komi: 7.0,
            ponder: false,
            memory_mib: DEFAULT_MEMORY_MIB,
            lag: DEFAULT_LAG,
            max_move_time: MAX_MOVE_TIME,
            policy_net: NetChoice::Off,
            search: SearchParams::default(),
            heavy: HeavyParams::default(),
            settle_nakade: true,
        }
    }
}

impl Config {
    /// The defaults of the commands that play (`tengen gtp`, `analysis`, `review`,
    /// `diagnose`): these settings with the shipped policy network
    /// ([`NetChoice::Shipped`]), which rates the boards from
    /// [`SearchParams::net_min_size`] up and leaves the smaller ones to the move model. [`Config::default`] itself has no network, so that
    /// `tengen bench` and the tests measure the search alone unless they ask for one.
    pub fn with_shipped_net(self) -> Config {
        Config {
            policy_net: NetChoice::Shipped,
            ..self
        }
    }
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            exploration: 0.0,
            rave_equiv: 1500.0,
            expand_after: 2,
            expand_width: 128,
            prior_weight: 20.0,
            shape_weight: 1.0,
            nakade: false,
            model_prior: ModelPrior::Wins,
            model_weight: 100.0,
            widen_visits: 40.0,
            widen_growth: 1.4,
            net_visits: 64,
            net_blend: 1.0,
            net_weight: 300.0,
            net_model_power: 0.0,
            net_min_size: 13,
            net_floor: 1e-3,
        }
    }
}

impl SearchParams {
    /// The visits a leaf needs before it is expanded in a position with `empty`
    /// empty points.
    pub fn expansion_threshold(&self, empty: usize) -> u32 {
        if self.expand_width == 0 {
            return self.expand_after;
        }
        let wide =
            (u64::from(self.expand_after) * empty as u64).div_ceil(u64::from(self.expand_width));
        wide.clamp(u64::from(self.expand_after), u64::from(u32::MAX)) as u32
    }

    /// How many of a node's children (in the model's order) selection considers after
    /// `visits` visits: all of them unless the model widens progressively.
    pub fn width(&self, visits: u32) -> usize {
        if !self.model_prior.widens() {
            return usize::MAX;
        }
        let grown = (1.0 + f64::from(visits) / self.widen_visits.max(1e-9)).ln()
            / self.widen_growth.max(1.0 + 1e-9).ln();
        2 + grown.min(1e6) as usize
    }
}

impl Default for HeavyParams {
    fn default() -> HeavyParams {
        HeavyParams {
            capture: 0.9,
            escape: 0.9,
            two_liberties: 0.0,
            pattern: 0.9,
            shape_threshold: None,
            local_model: None,
            fill_board: 0,
            reply: 0.0,
            self_atari_min: 2,
            nakade: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_positions_wait_longer_to_expand() {
        let p = SearchParams::default();
        assert_eq!(p.expansion_threshold(81), 2);
        assert_eq!(p.expansion_threshold(169), 3);
        assert_eq!(p.expansion_threshold(361), 6);
        assert_eq!(p.expansion_threshold(0), 2);
        let flat = SearchParams {
            expand_width: 0,
            ..SearchParams::default()
        };
        assert_eq!(flat.expansion_threshold(361), 2);
    }

    #[test]
    fn widening_grows_with_the_visits_and_names_parse() {
        let mut p = SearchParams::default();
        assert_eq!(p.width(1_000_000), usize::MAX);
        p.model_prior = ModelPrior::Widen;
        assert_eq!(p.width(0), 2);
        // 1 + n / 40 = 1.4^k: 2 + k children (1.4^5 = 5.38).
        assert_eq!(p.width(15), 2);
        assert_eq!(p.width(17), 3);
        assert_eq!(p.width(170), 6);
        assert_eq!(p.width(180), 7);
        assert!(p.width(10_000) < p.width(100_000));
        for &m in ModelPrior::ALL {
            assert_eq!(m.name().parse::<ModelPrior>(), Ok(m));
        }
        assert!("model".parse::<ModelPrior>().is_err());
    }

    #[test]
    fn choices_read_their_names_in_any_case_and_refuse_others_by_name() {
        assert_eq!(PolicyKind::ALL.len(), PolicyKind::NAMES.len());
        assert_eq!(Parallelism::ALL.len(), Parallelism::NAMES.len());
        assert_eq!(ModelPrior::ALL.len(), ModelPrior::NAMES.len());
        assert_eq!("HEAVY".parse::<PolicyKind>(), Ok(PolicyKind::Heavy));
        assert_eq!("Root".parse::<Parallelism>(), Ok(Parallelism::Root));
        assert_eq!(Parallelism::Tree.to_string(), "tree");
        assert_eq!(
            "x".parse::<PolicyKind>().unwrap_err().to_string(),
            "unknown playout policy \"x\" (expected light or heavy)"
        );
        assert_eq!(
            "x".parse::<Parallelism>().unwrap_err().to_string(),
            "unknown parallelism \"x\" (expected root or tree)"
        );
        assert_eq!(
            "x".parse::<ModelPrior>().unwrap_err().to_string(),
            "unknown model prior \"x\" (expected off, wins, widen or both)"
        );
    }

    #[test]
    fn local_model_settings_read_and_write_back() {
        for (text, value) in [
            ("off", None),
            ("OFF", None),
            ("0", Some(0.0)),
            ("2.5", Some(2.5)),
        ] {
            let s: LocalModelSetting = text.parse().unwrap();
            assert_eq!(s.0, value, "{text}");
            assert_eq!(s.to_string().parse::<LocalModelSetting>(), Ok(s));
        }
        for bad in ["", "on", "-1", "1001", "NaN", "inf"] {
            let err = bad.parse::<LocalModelSetting>().unwrap_err();
            assert!(err.to_string().contains("expected off"), "{bad}: {err}");
        }
    }
}
