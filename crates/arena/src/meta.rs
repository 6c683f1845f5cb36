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
    /// `chinese` or `japanese`.
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
        let mut diffs = Vec::new();
        if labels(self) != labels(other) {
            diffs.push(format!("engines {:?} vs {:?}", labels(self), labels(other)));
        }
        if resume && commands(self) != commands(other) {
            diffs.push(format!(
                "engine commands {:?} vs {:?}",
                commands(self),
                commands(other)
            ));
        }
        if self.size != other.size {
            diffs.push(format!("size {} vs {}", self.size, other.size));
        }
        if self.komi != other.komi {
            diffs.push(format!("komi {} vs {}", self.komi, other.komi));
        }
        if self.rules != other.rules {
            diffs.push(format!("rules {} vs {}", self.rules, other.rules));
        }
        if self.time != other.time {
            diffs.push(format!("time {:?} vs {:?}", self.time, other.time));
        }
        if self.handicap != other.handicap {
            diffs.push(format!("handicap {} vs {}", self.handicap, other.handicap));
        }
        if self.openings != other.openings {
            diffs.push(format!("openings {} vs {}", self.openings, other.openings));
        }
        if self.seed != other.seed {
            diffs.push(format!("seed {} vs {}", self.seed, other.seed));
        }
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
