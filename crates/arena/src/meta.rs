//! `DIR/match.json`: what a match directory holds (engines, board, rules, time), so a
//! resume or a merge can refuse journals of another match.

use std::fs;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::ArenaError;

/// The file name inside the output directory.
pub const META_FILE: &str = "match.json";

/// One engine of the match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineRecord {
    /// The label used in the journal and the summary.
    pub label: String,
    /// The command line.
    pub command: String,
    /// Its `name` answer.
    #[serde(default)]
    pub name: String,
    /// Its `version` answer.
    #[serde(default)]
    pub version: String,
}

/// The settings of a match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchInfo {
    /// The engines, in `-e` order.
    pub engines: Vec<EngineRecord>,
    /// Board size.
    pub size: u32,
    /// Komi.
    pub komi: f64,
    /// The rules' name ([`crate::RuleSet`]'s: `chinese`, `japanese`, `tromp-taylor`, …).
    pub rules: String,
    /// The `--time` spec, if any.
    pub time: Option<String>,
    /// Fixed handicap stones.
    #[serde(default)]
    pub handicap: u32,
    /// Games per pair of engines.
    pub games: u32,
    /// The move limit.
    pub max_moves: u32,
    /// Number of openings (0: none).
    #[serde(default)]
    pub openings: usize,
    /// The `--sprt` spec, if any.
    #[serde(default)]
    pub sprt: Option<String>,
    /// The match's seed (game `g` gets `seed + g`).
    #[serde(default)]
    pub seed: u64,
}

impl MatchInfo {
    /// Why a journal of `other` cannot be combined with one of `self`, if it cannot:
    /// the engines (labels), board, komi, rules, time, handicap, openings and seed must be
    /// the same (shards of one match share them all); with `resume` also the commands
    /// (shards may run on machines with the engines at other paths). (The number of
    /// games may change: the schedule of a longer match begins with that of a shorter
    /// one.)
    pub fn incompatible(&self, other: &MatchInfo, resume: bool) -> Option<String> {
        let labels = |m: &MatchInfo| {
            m.engines
                .iter()
                .map(|e| e.label.clone())
                .collect::<Vec<_>>()
        };
        let commands = |m: &MatchInfo| {
            m.engines
                .iter()
                .map(|e| e.command.clone())
                .collect::<Vec<_>>()
        };
        let mut diffs = Differences {
            a: self,
            b: other,
            found: Vec::new(),
        };
        diffs.debug("engines", labels);
        if resume {
            diffs.debug("engine commands", commands);
        }
        diffs.shown("size", |m| m.size);
        diffs.shown("komi", |m| m.komi);
        diffs.shown("rules", |m| m.rules.clone());
        diffs.debug("time", |m| m.time.clone());
        diffs.shown("handicap", |m| m.handicap);
        diffs.shown("openings", |m| m.openings);
        diffs.shown("seed", |m| m.seed);
        let diffs = diffs.found;
        (!diffs.is_empty()).then(|| diffs.join(", "))
    }

    /// Reads `dir/match.json`; `None` if there is none.
    pub fn read(dir: &Path) -> Result<Option<MatchInfo>, ArenaError> {
        let path = dir.join(META_FILE);
        match fs::read_to_string(&path) {
            Ok(t) => serde_json::from_str(&t)
                .map(Some)
                .map_err(|e| ArenaError::journal(&path, format!("unreadable: {e}"))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(ArenaError::io(&path, e)),
        }
    }

    /// Writes `dir/match.json` (through a temporary file and a rename).
    pub fn write(&self, dir: &Path) -> Result<(), ArenaError> {
        let path = dir.join(META_FILE);
        let tmp = dir.join(format!(".{META_FILE}.tmp"));
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| ArenaError::journal(&path, e.to_string()))?;
        fs::write(&tmp, text + "\n").map_err(|e| ArenaError::io(&tmp, e))?;
        fs::rename(&tmp, &path).map_err(|e| ArenaError::io(&path, e))
    }
}
/// The settings in which two matches differ, as `incompatible` lists them.
struct Differences<'a> {
    a: &'a MatchInfo,
    b: &'a MatchInfo,
    found: Vec<String>,
}

impl Differences<'_> {
    /// Notes `what` (read by `get`) where the matches differ, as it is written.
    fn shown<T: PartialEq + std::fmt::Display>(
        &mut self,
        what: &str,
        get: impl Fn(&MatchInfo) -> T,
    ) {
        let (a, b) = (get(self.a), get(self.b));
        if a != b {
            self.found.push(format!("{what} {a} vs {b}"));
        }
    }

    /// Notes `what` (read by `get`) where the matches differ, as data (`{:?}`).
    fn debug<T: PartialEq + std::fmt::Debug>(&mut self, what: &str, get: impl Fn(&MatchInfo) -> T) {
        let (a, b) = (get(self.a), get(self.b));
        if a != b {
            self.found.push(format!("{what} {a:?} vs {b:?}"));
        }
    }
}
