//! The engine's settings, each declared once: name, flag, unit, bounds, help text and
//! where it lives in [`Config`].
//!
//! [`SETTINGS`] is the one list. The command line's engine flags (`tengen gtp
//! --threads 2`), GTP's `tengen-set`/`tengen-get`/`tengen-params` and KataGo's
//! `kata-set-param` are all read from it, so a setting has the same bounds, the same
//! unit and the same wording of a refused value everywhere:
//!
//! - A duration of a move is in seconds ([`Kind::Seconds`]); the margin kept back for
//!   the pipes, `lag`, is in milliseconds ([`Kind::Millis`]) on the command line and
//!   over GTP alike.
//! - [`Setting::parse`] reads a value or says why not, in [`BadNumber`]'s words;
//!   [`Setting::get`] writes one that [`Setting::set`] reads back unchanged.
//! - A file ([`Kind::FileOrOff`]: the policy network) is loaded when its value is
//!   read, so a file that does not load is refused like a number out of bounds, and
//!   nothing changes; the value is the file's name ([`NetChoice`]), and the engine
//!   loads the network it names for its own use.

mod number;

use std::time::Duration;

pub use number::{BadNumber, Real, Whole, WholeNumber};

use tengen_board::list_alternatives;

use crate::PolicyKind;
use crate::config::{
    Config, Keyword, MAX_LOCAL_MODEL, MAX_MEMORY_MIB, ModelPrior, NetChoice, Parallelism,
};
use tengen_knowledge::SHIPPED_NET;

/// What a setting's value is: its type, unit and bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A whole number within bounds.
    Whole(Whole),
    /// A real number within bounds.
    Real(Real),
    /// A duration in seconds (a real number) within bounds.
    Seconds(Real),
    /// A duration in milliseconds (a whole number) within bounds.
    Millis(Whole),
    /// On or off: `true`/`false`, `1`/`0`, `on`/`off`, `yes`/`no` (any case); written
    /// as `1` or `0` (GoGui's `bool`).
    Switch,
    /// One of these names (any case).
    Choice(&'static [&'static str]),
    /// `off`, or a real number within bounds.
    RealOrOff(Real),
    /// `off`, or a policy network's file, loaded as it is read.
    FileOrOff,
}

/// A setting's value, read and checked.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A whole number.
    Whole(u64),
    /// A real number.
    Real(f64),
    /// A duration.
    Duration(Duration),
    /// On or off.
    Switch(bool),
    /// One of the setting's names, as the table spells it.
    Choice(&'static str),
    /// `off`.
    Off,
    /// A policy network, by name: the shipped one or a file that loads.
    Net(NetChoice),
}

/// One setting of [`Config`].
pub struct Setting {
    /// The name over GTP (`tengen-set NAME VALUE`): lower case, words joined by `_`.
    pub name: &'static str,
    /// The command line's flag without its dashes (`--FLAG VALUE`; a switch also has
    /// `--no-FLAG`).
    pub flag: &'static str,
    /// What the command line's help calls the value (`N`, `SECS`).
    pub value_name: &'static str,
    /// Type, unit and bounds.
    pub kind: Kind,
    /// What it does, for `--help` and the documents.
    pub help: &'static str,
    /// The default as said in help, where it is not the value of
    /// `Config::default()` (which depends on the machine, or is drawn afresh).
    pub default: Option<&'static str>,
    read: fn(&Config) -> Value,
    write: fn(&mut Config, Value),
}

impl std::fmt::Debug for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Setting")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

impl Setting {
    /// Reads `text` as this setting's value, within its bounds.
    pub fn parse(&self, text: &str) -> Result<Value, BadNumber> {
        match self.kind {
            Kind::Whole(w) => w.parse::<u64>(text).map(Value::Whole),
            Kind::Real(r) => r.parse(text).map(Value::Real),
            Kind::Seconds(r) => r
                .parse(text)
                .map(|s| Value::Duration(Duration::from_secs_f64(s))),
            Kind::Millis(w) => w
                .parse::<u64>(text)
                .map(|ms| Value::Duration(Duration::from_millis(ms))),
            Kind::Switch => match text.to_ascii_lowercase().as_str() {
                "true" | "1" | "on" | "yes" => Ok(Value::Switch(true)),
                "false" | "0" | "off" | "no" => Ok(Value::Switch(false)),
                _ => Err(BadNumber::Other("expected true or false".into())),
            },
            Kind::Choice(names) => names
                .iter()
                .find(|n| n.eq_ignore_ascii_case(text))
                .map(|n| Value::Choice(n))
                .ok_or_else(|| BadNumber::Other(format!("expected {}", list_alternatives(names)))),
            Kind::RealOrOff(r) => {
                if text.eq_ignore_ascii_case("off") {
                    return Ok(Value::Off);
                }
                match r.parse(text) {
                    Ok(x) => Ok(Value::Real(x)),
                    Err(BadNumber::NotNumber) => {
                        Err(BadNumber::Other("not a number, nor off".into()))
                    }
                    Err(e) => Err(e),
                }
            }
            Kind::FileOrOff => {
                if text.eq_ignore_ascii_case("off") {
                    return Ok(Value::Off);
                }
                if text.eq_ignore_ascii_case(SHIPPED_NET) {
                    return Ok(Value::Net(NetChoice::Shipped));
                }
                // Loaded to check it: a file that is no network is refused here.
                let file = NetChoice::File(text.to_string());
                file.load()
                    .map(|_| Value::Net(file))
                    .map_err(|e| BadNumber::Other(e.to_string()))
            }
        }
    }

    /// `value` as text that [`Setting::parse`] reads back.
    pub fn format(&self, value: Value) -> String {
        match (self.kind, value) {
            (Kind::Millis(_), Value::Duration(d)) => d.as_millis().to_string(),
            (_, Value::Duration(d)) => format!("{}", d.as_secs_f64()),
            (_, Value::Whole(n)) => n.to_string(),
            (_, Value::Real(x)) => x.to_string(),
            (_, Value::Switch(on)) => u8::from(on).to_string(),
            (_, Value::Choice(name)) => name.to_string(),
            (_, Value::Off) => "off".to_string(),
            (_, Value::Net(net)) => net.name().to_string(),
        }
    }

    /// The setting's value in `config`.
    pub fn value(&self, config: &Config) -> Value {
        (self.read)(config)
    }

    /// The setting's value in `config`, as text.
    pub fn get(&self, config: &Config) -> String {
        self.format(self.value(config))
    }

    /// Sets the setting in `config` from `text`; on error `config` is unchanged.
    pub fn set(&self, config: &mut Config, text: &str) -> Result<(), BadNumber> {
        let value = self.parse(text)?;
        (self.write)(config, value);
        Ok(())
    }

    /// GoGui's parameter type: `bool`, `list/A/B`, or `string`.
    pub fn gogui_type(&self) -> String {
        match self.kind {
            Kind::Switch => "bool".to_string(),
            Kind::Choice(names) => format!("list/{}", names.join("/")),
            _ => "string".to_string(),
        }
    }

    /// The default as help says it: [`Setting::default`], or the value of
    /// `Config::default()`.
    pub fn default_text(&self) -> String {
        match self.default {
            Some(text) => text.to_string(),
            None => self.get(&Config::default()),
        }
    }

    /// The bounds in words (`1 to 1024`, `root or tree`), for help and documents.
    pub fn range_text(&self) -> String {
        match self.kind {
            Kind::Whole(w) | Kind::Millis(w) => w.to_string(),
            Kind::Real(r) | Kind::Seconds(r) => r.to_string(),
            Kind::Switch => "true or false".to_string(),
            Kind::Choice(names) => list_alternatives(names),
            Kind::RealOrOff(r) => format!("off, or {r}"),
            Kind::FileOrOff => "off, shipped, or a file".to_string(),
        }
    }
}

/// The setting called `name` over GTP (any case).
pub fn find(name: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.name.eq_ignore_ascii_case(name))
}

/// The setting whose command-line flag is `--flag` (`flag` without the dashes).
pub fn by_flag(flag: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.flag == flag)
}

/// The whole number in `v` (0 for another kind, which the table never passes).
fn whole(v: Value) -> u64 {
    match v {
        Value::Whole(n) => n,
        _ => 0,
    }
}

/// The real number in `v` (0 for another kind, which the table never passes).
fn real(v: Value) -> f64 {
    match v {
        Value::Real(x) => x,
        _ => 0.0,
    }
}

/// The duration in `v` (zero for another kind, which the table never passes).
fn duration(v: Value) -> Duration {
    match v {
        Value::Duration(d) => d,
        _ => Duration::ZERO,
    }
}

/// The name in `v` ("" for another kind, which the table never passes).
fn choice(v: Value) -> &'static str {
    match v {
        Value::Choice(name) => name,
        _ => "",
    }
}

/// The network in `v` (off for another kind, or `off`).
fn net(v: Value) -> NetChoice {
    match v {
        Value::Net(net) => net,
        _ => NetChoice::Off,
    }
}

/// Every setting, in the order `tengen-get` and `--help` list them.
pub const SETTINGS: &[Setting] = &[
    Setting {
        name: "threads",
        flag: "threads",
        value_name: "T",
        kind: Kind::Whole(Whole::between(1, 1024)),
        help: "Search threads.",
        default: Some("the machine's cores"),
        read: |c| Value::Whole(c.threads as u64),
        write: |c, v| c.threads = whole(v) as usize,
    },
    Setting {
        name: "parallelism",
        flag: "parallelism",
        value_name: "KIND",
        kind: Kind::Choice(Parallelism::NAMES),
        help: "How threads share the search: root (a tree each, merged at the root) or \
               tree (one tree, virtual loss).",
        default: None,
        read: |c| Value::Choice(c.parallelism.name()),
        write: |c, v| {
            c.parallelism = choice(v).parse::<Parallelism>().unwrap_or(c.parallelism);
        },
    },
    Setting {
        name: "playouts",
        flag: "playouts",
        value_name: "N",
        kind: Kind::Whole(Whole::at_least(0)),
        help: "Playouts per move; 0 thinks by the clock the GUI sets (`time_settings`, \
               `time_left`) or, with no clock, by the time per move.",
        default: None,
        read: |c| Value::Whole(c.playouts.unwrap_or(0)),
        write: |c, v| c.playouts = Some(whole(v)).filter(|&n| n > 0),
    },
    Setting {
        name: "move_time",
        flag: "time-per-move",
        value_name: "SECS",
        kind: Kind::Seconds(Real::between(0.001, 86_400.0)),
        help: "Seconds per move when no clock is set and no playout budget is given \
               (at most the longest move time).",
        default: None,
        read: |c| Value::Duration(c.default_move_time),
        write: |c, v| c.default_move_time = duration(v),
    },
    Setting {
        name: "full_move_time",
        flag: "full-move-time",
        value_name: "BOOL",
        kind: Kind::Switch,
        help: "With a time per move (no clock): think to its end, as Pachi does, instead \
               of stopping once the runner-up cannot come within 70% of the best move's \
               visits. A clock's moves keep the early stop.",
        default: Some("off"),
        read: |c| Value::Switch(c.full_move_time),
        write: |c, v| c.full_move_time = v == Value::Switch(true),
    },
    Setting {
        name: "seed",
        flag: "seed",
        value_name: "S",
        kind: Kind::Whole(Whole::at_least(0)),
        help: "Seed of every random choice; with one thread and a playout budget a game \
               repeats.",
        default: Some("a fresh seed each run, so that games against a fixed opponent vary"),
        read: |c| Value::Whole(c.seed),
        write: |c, v| c.seed = whole(v),
    },
    Setting {
        name: "policy",
        flag: "policy",
        value_name: "KIND",
        kind: Kind::Choice(PolicyKind::NAMES),
        help: "Playout policy: light (uniform, no suicide of eyes) or heavy (captures, \
               escapes, 3x3 shapes).",
        default: None,
        read: |c| Value::Choice(c.policy.name()),
        write: |c, v| c.policy = choice(v).parse::<PolicyKind>().unwrap_or(c.policy),
    },
    Setting {
        name: "resign_threshold",
        flag: "resign-threshold",
        value_name: "WINRATE",
        kind: Kind::Real(Real::between(0.0, 1.0)),
        help: "Resign when the win rate stays below this (0 never resigns).",
        default: None,
        read: |c| Value::Real(c.resign_threshold),
        write: |c, v| c.resign_threshold = real(v),
    },
    Setting {
        name: "dynamic_komi",
        flag: "dynamic-komi",
        value_name: "POINTS",
        kind: Kind::Real(Real::between(0.0, 100.0)),
        help: "In a handicap game, the points each handicap stone adds to the komi the \
               search plays for when it chooses a move (White's side), shrinking to 0 \
               by move 0.55 × the board's points; 0 plays for the real komi. Analysis \
               and scoring keep the real komi.",
        default: None,
        read: |c| Value::Real(c.dynamic_komi),
        write: |c, v| c.dynamic_komi = real(v),
    },
    Setting {
        name: "ponder",
        flag: "ponder",
        value_name: "BOOL",
        kind: Kind::Switch,
        help: "Think on the opponent's time.",
        default: Some("off"),
        read: |c| Value::Switch(c.ponder),
        write: |c, v| c.ponder = v == Value::Switch(true),
    },
    Setting {
        name: "memory",
        flag: "memory",
        value_name: "MIB",
        kind: Kind::Whole(Whole::between(1, MAX_MEMORY_MIB as i128)),
        help: "Memory of the search trees in MiB, one tree or a share each under root \
               parallelism: a full tree drops its least visited branches and keeps \
               growing, never past this. The process takes about 6 MB more, and about \
               250 KiB more a search thread.",
        default: None,
        read: |c| Value::Whole(c.memory_mib as u64),
        write: |c, v| c.memory_mib = whole(v) as usize,
    },
    Setting {
        name: "expand_after",
        flag: "expand-after",
        value_name: "N",
        kind: Kind::Whole(Whole::between(1, 1_000_000)),
        help: "Visits a node takes before it is expanded on 9x9 (wider boards wait \
               proportionally longer).",
        default: None,
        read: |c| Value::Whole(u64::from(c.search.expand_after)),
        write: |c, v| c.search.expand_after = whole(v) as u32,
    },
    Setting {
        name: "model_prior",
        flag: "model-prior",
        value_name: "KIND",
        kind: Kind::Choice(ModelPrior::NAMES),
        help: "How the learned move model (crates/knowledge/data/moves.txt) shapes new nodes' \
               priors: off (tactics and 3x3 shapes alone), wins (each candidate's share \
               of the model's softmax as virtual wins), widen (children in the model's \
               order, more of them as visits grow) or both.",
        default: None,
        read: |c| Value::Choice(c.search.model_prior.name()),
        write: |c, v| {
            c.search.model_prior = choice(v)
                .parse::<ModelPrior>()
                .unwrap_or(c.search.model_prior);
        },
    },
    Setting {
        name: "model_weight",
        flag: "model-weight",
        value_name: "W",
        kind: Kind::Real(Real::between(0.0, 100_000.0)),
        help: "Virtual visits the model's shares add up to under model prior wins or both.",
        default: None,
        read: |c| Value::Real(c.search.model_weight),
        write: |c, v| c.search.model_weight = real(v),
    },
    Setting {
        name: "widen_visits",
        flag: "widen-visits",
        value_name: "N",
        kind: Kind::Real(Real::between(1.0, 1e9)),
        help: "Under model prior widen or both, the visits over which one more child is \
               considered (2 + log1.4(1 + visits / N) children).",
        default: None,
        read: |c| Value::Real(c.search.widen_visits),
        write: |c, v| c.search.widen_visits = real(v),
    },
    Setting {
        name: "policy_net",
        flag: "policy-net",
        value_name: "FILE|shipped|off",
        kind: Kind::FileOrOff,
        help: "The policy network that rates the root and every node of the tree past \
               net_visits visits (its shares there weighed by net_blend and net_weight): \
               shipped (crates/knowledge/data/policy-19.safetensors, compiled in), a weights file, or \
               off (the move model alone). On a board smaller than net_min_size and of \
               another size than the network was made for (the shipped one: 19x19), the \
               move model stays the prior; a file given by name says so once on stderr.",
        default: Some("shipped, for play, analysis, review and diagnose; off in bench"),
        read: |c| match &c.policy_net {
            NetChoice::Off => Value::Off,
            net => Value::Net(net.clone()),
        },
        write: |c, v| c.policy_net = net(v),
    },
    Setting {
        name: "net_visits",
        flag: "net-visits",
        value_name: "N",
        kind: Kind::Whole(Whole::between(1, 1_000_000)),
        help: "With a policy network: the visits a node of the tree takes before the \
               network rates it (one evaluation costs about ten playouts).",
        default: None,
        read: |c| Value::Whole(u64::from(c.search.net_visits)),
        write: |c, v| c.search.net_visits = whole(v) as u32,
    },
    Setting {
        name: "net_blend",
        flag: "net-blend",
        value_name: "B",
        kind: Kind::Real(Real::between(0.0, 1.0)),
        help: "With a policy network: its part in a rated node's prior shares, from 0 \
               (the move model's alone) to 1 (the network's alone); the shares add up to \
               net_weight virtual wins.",
        default: None,
        read: |c| Value::Real(c.search.net_blend),
        write: |c, v| c.search.net_blend = real(v),
    },
    Setting {
        name: "net_weight",
        flag: "net-weight",
        value_name: "W",
        kind: Kind::Real(Real::between(0.0, 100_000.0)),
        help: "With a policy network: the virtual wins a rated node's blended shares add \
               up to (model_weight still weighs the move model's shares at the nodes the \
               network has not rated).",
        default: None,
        read: |c| Value::Real(c.search.net_weight),
        write: |c, v| c.search.net_weight = real(v),
    },
    Setting {
        name: "net_min_size",
        flag: "net-min-size",
        value_name: "N",
        kind: Kind::Whole(Whole::between(2, 25)),
        help: "With a policy network: the smallest board it rates besides the size it was \
               trained on (it reads any size; elsewhere the move model stays the prior).",
        default: None,
        read: |c| Value::Whole(c.search.net_min_size as u64),
        write: |c, v| c.search.net_min_size = whole(v) as usize,
    },
    Setting {
        name: "playout_model",
        flag: "playout-model",
        value_name: "W|off",
        kind: Kind::RealOrOff(Real::between(0.0, MAX_LOCAL_MODEL)),
        help: "The move model in the heavy playouts: off, or W, the weight of the rest of \
               the board against a neighbour of the last move drawn by its learned \
               strength (crates/knowledge/data/playouts.txt; 1 is the table's strength of a far \
               point).",
        default: None,
        read: |c| c.heavy.local_model.map_or(Value::Off, Value::Real),
        write: |c, v| c.heavy.local_model = (v != Value::Off).then(|| real(v)),
    },
    Setting {
        name: "lag",
        flag: "lag",
        value_name: "MS",
        kind: Kind::Millis(Whole::between(0, 60_000)),
        help: "Milliseconds kept back from the clock on every move for what the search \
               does not see: pipes, process scheduling, the work around the search (the \
               default is sized for a local pipe on a loaded machine; raise it over a \
               network).",
        default: None,
        read: |c| Value::Duration(c.lag),
        write: |c, v| c.lag = duration(v),
    },
    Setting {
        name: "max_move_time",
        flag: "max-move-time",
        value_name: "SECS",
        kind: Kind::Seconds(Real::between(0.1, 86_400.0)),
        help: "The longest any one move may think, whatever the GUI's clock, the time per \
               move or the playout budget would give it: an absurd clock cannot hang a \
               move.",
        default: None,
        read: |c| Value::Duration(c.max_move_time),
        write: |c, v| c.max_move_time = duration(v),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The small policy network of the engine's tests (19×19).
    const TEST_NET: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../crates/knowledge/tests/data/policy-net/net.safetensors"
    );

    /// A value of `s` other than the default's, as text.
    fn other_value(s: &Setting) -> &'static str {
        match s.kind {
            Kind::Choice(names) => names
                .iter()
                .find(|n| **n != s.get(&Config::default()))
                .copied()
                .unwrap_or_default(),
            Kind::Switch => "true",
            Kind::RealOrOff(_) => "2.5",
            Kind::FileOrOff => TEST_NET,
            _ => ["0.5", "3", "1234"]
                .into_iter()
                .find(|t| s.parse(t).is_ok_and(|v| v != s.value(&Config::default())))
                .unwrap_or_default(),
        }
    }

    #[test]
    fn every_setting_reads_back_what_it_writes() {
        for s in SETTINGS {
            let mut c = Config::default();
            let text = s.get(&c);
            s.set(&mut c, &text)
                .unwrap_or_else(|e| panic!("{}: {e}", s.name));
            assert_eq!(c, Config::default(), "{}: the default {text}", s.name);
            let other = other_value(s);
            s.set(&mut c, other)
                .unwrap_or_else(|e| panic!("{}: {e}", s.name));
            assert_ne!(c, Config::default(), "{} {other} changed nothing", s.name);
            assert_eq!(s.parse(&s.get(&c)), s.parse(other), "{}", s.name);
        }
    }

    #[test]
    fn names_and_flags_are_unique_and_spelled_as_their_kind() {
        for (i, s) in SETTINGS.iter().enumerate() {
            assert!(
                s.name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{}",
                s.name
            );
            assert!(
                s.flag.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{}",
                s.flag
            );
            for t in &SETTINGS[i + 1..] {
                assert_ne!(s.name, t.name);
                assert_ne!(s.flag, t.flag);
            }
            assert_eq!(find(&s.name.to_uppercase()).map(|f| f.name), Some(s.name));
            assert_eq!(by_flag(s.flag).map(|f| f.name), Some(s.name));
        }
    }

    #[test]
    fn a_refused_value_changes_nothing_and_says_why() {
        let mut c = Config::default();
        let cases = [
            ("threads", "0", "must be between 1 and 1024"),
            ("playouts", "-1", "must be at least 0"),
            ("move_time", "0", "must be between 0.001 and 86400"),
            ("lag", "0.05", "not a whole number"),
            ("lag", "60001", "must be between 0 and 60000"),
            ("ponder", "maybe", "expected true or false"),
            ("policy", "medium", "expected light or heavy"),
            ("model_prior", "x", "expected off, wins, widen or both"),
            ("playout_model", "on", "not a number, nor off"),
            ("max_move_time", "0.05", "must be between 0.1 and 86400"),
            ("net_blend", "1.5", "must be between 0 and 1"),
            ("net_visits", "0", "must be between 1 and 1000000"),
        ];
        for (name, value, why) in cases {
            let s = find(name).unwrap();
            assert_eq!(s.set(&mut c, value).unwrap_err().to_string(), why, "{name}");
            assert_eq!(c, Config::default(), "{name} {value}");
        }
    }

    #[test]
    fn a_policy_network_is_loaded_as_it_is_set_and_off_restores_the_model_alone() {
        let s = find("policy_net").unwrap();
        let mut c = Config::default();
        assert_eq!(s.get(&c), "off");
        // A missing file and a file that is no network are refused, naming the file,
        // and change nothing.
        let dir = std::env::temp_dir().join(format!("tengen-net-setting-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let broken = dir.join("broken.safetensors");
        std::fs::write(&broken, b"not a network").unwrap();
        let missing = dir.join("missing.safetensors");
        for bad in [&broken, &missing] {
            let text = bad.to_str().unwrap();
            let why = s.set(&mut c, text).unwrap_err().to_string();
            assert!(why.contains(text), "{why}");
            assert_eq!(c, Config::default());
        }
        std::fs::remove_dir_all(&dir).ok();
        // A network loads; tengen-get names its file; off drops it. (Setting the same
        // file again reads it again: the engine's `reload_net`, which GTP's
        // `tengen-set` calls, whose test is the engine's.)
        s.set(&mut c, TEST_NET).unwrap();
        assert_eq!(c.policy_net, NetChoice::File(TEST_NET.to_string()));
        let loaded = c.policy_net.load().unwrap();
        assert_eq!(loaded.map(|n| n.net().side()), Some(19));
        assert_eq!(s.get(&c), TEST_NET);
        s.set(&mut c, "OFF").unwrap();
        assert_eq!(c, Config::default());
        assert_eq!(c.policy_net, NetChoice::Off);
        // The compiled-in network, by name, as the commands that play start with it.
        s.set(&mut c, "Shipped").unwrap();
        assert_eq!(c.policy_net, NetChoice::Shipped);
        let loaded = c.policy_net.load().unwrap();
        assert_eq!(loaded.map(|n| n.net().side()), Some(19));
        assert_eq!(s.get(&c), "shipped");
        assert_eq!(s.get(&Config::default().with_shipped_net()), "shipped");
        s.set(&mut c, "off").unwrap();
        assert_eq!(c, Config::default());
        assert_eq!(s.range_text(), "off, shipped, or a file");
    }

    #[test]
    fn units_and_special_values() {
        let mut c = Config::default();
        find("lag").unwrap().set(&mut c, "250").unwrap();
        assert_eq!(c.lag, Duration::from_millis(250));
        assert_eq!(find("lag").unwrap().get(&c), "250");
        find("move_time").unwrap().set(&mut c, "2.5").unwrap();
        assert_eq!(c.default_move_time, Duration::from_millis(2500));
        find("playouts").unwrap().set(&mut c, "0").unwrap();
        assert_eq!(c.playouts, None);
        find("playouts").unwrap().set(&mut c, "800").unwrap();
        assert_eq!(c.playouts, Some(800));
        find("playout_model").unwrap().set(&mut c, "OFF").unwrap();
        assert_eq!(c.heavy.local_model, None);
        find("policy").unwrap().set(&mut c, "LIGHT").unwrap();
        assert_eq!(c.policy, PolicyKind::Light);
        assert_eq!(find("ponder").unwrap().gogui_type(), "bool");
        assert_eq!(find("parallelism").unwrap().gogui_type(), "list/root/tree");
        assert_eq!(find("lag").unwrap().range_text(), "0 to 60000");
    }
}
