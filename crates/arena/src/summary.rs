//! The match summary: wins per engine and colour, draws, game length, time per move,
//! win rate with a 95% interval, Elo difference with its interval, SPRT state.

use std::collections::BTreeMap;
use std::fmt;

use crate::journal::Entry;
use crate::stats::{self, EloEstimate, Sprt, SprtDecision, Wdl, Z95};

/// One engine's record.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineStats {
    /// The label.
    pub label: String,
    /// All its games (void games excluded).
    pub total: Wdl,
    /// Its games as Black.
    pub as_black: Wdl,
    /// Its games as White.
    pub as_white: Wdl,
    /// Seconds spent generating moves.
    pub time: f64,
    /// Moves generated.
    pub moves: u32,
}

impl EngineStats {
    /// Average seconds per generated move.
    pub fn time_per_move(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.time / f64::from(self.moves))
    }
}

/// The head-to-head record of two engines, from the first one's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct PairStats {
    /// Index of the first engine.
    pub a: usize,
    /// Index of the second engine.
    pub b: usize,
    /// The first engine's wins, draws and losses against the second.
    pub wdl: Wdl,
    /// The first engine's score and its 95% Wilson interval.
    pub score: Option<(f64, f64, f64)>,
    /// The first engine's Elo difference with its 95% interval.
    pub elo: Option<EloEstimate>,
}

/// The SPRT's state (for the first two engines).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtReport {
    /// The test.
    pub sprt: Sprt,
    /// The log-likelihood ratio so far.
    pub llr: f64,
    /// Its stopping bounds.
    pub bounds: (f64, f64),
    /// What it says.
    pub decision: SprtDecision,
}

/// What a match (or several merged journals) came to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// The engines.
    pub engines: Vec<EngineStats>,
    /// Every pair that met.
    pub pairs: Vec<PairStats>,
    /// Games recorded (void ones included).
    pub games: u32,
    /// Games this run (or shard) was to play in all, if known.
    pub planned: Option<u32>,
    /// Games won by Black.
    pub black_wins: u32,
    /// Games won by White.
    pub white_wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Void games (no result, e.g. the move limit).
    pub voids: u32,
    /// How games ended: reason keyword → count.
    pub reasons: BTreeMap<String, u32>,
    /// How scored games were counted: method → count.
    pub methods: BTreeMap<String, u32>,
    /// Average moves a game.
    pub avg_moves: f64,
    /// The SPRT state, if one was asked for.
    pub sprt: Option<SprtReport>,
    /// Whether the match stopped early because the SPRT decided.
    pub stopped_by_sprt: bool,
    /// Journal lines ignored because their game was already counted.
    pub duplicates: u32,
}

impl Summary {
    /// Builds the summary of `entries` for engines labelled `labels` (labels found only
    /// in the entries are added at the end).
    pub fn build(labels: &[String], entries: &[Entry], sprt: Option<Sprt>) -> Summary {
        let mut s = Summary {
            engines: labels
                .iter()
                .map(|l| EngineStats {
                    label: l.clone(),
                    ..EngineStats::default()
                })
                .collect(),
            games: entries.len() as u32,
            ..Summary::default()
        };
        let mut head: BTreeMap<(usize, usize), Wdl> = BTreeMap::new();
        let mut total_moves = 0u64;
        for e in entries {
            let b = s.index(&e.black);
            let w = s.index(&e.white);
            total_moves += u64::from(e.moves);
            *s.reasons.entry(e.reason.clone()).or_default() += 1;
            if let Some(m) = &e.method {
                *s.methods.entry(m.clone()).or_default() += 1;
            }
            s.engines[b].time += e.black_time;
            s.engines[b].moves += e.black_moves;
            s.engines[w].time += e.white_time;
            s.engines[w].moves += e.white_moves;
            // Black's result: +1 win, 0 draw, -1 loss; void games are not counted.
            let black_result = match e.winner.as_deref() {
                Some("B") => 1,
                Some("W") => -1,
                _ if e.result == "0" => 0,
                _ => {
                    s.voids += 1;
                    continue;
                }
            };
            match black_result {
                1 => s.black_wins += 1,
                -1 => s.white_wins += 1,
                _ => s.draws += 1,
            }
            let add = |wdl: &mut Wdl, r: i32| match r {
                1 => wdl.wins += 1,
                -1 => wdl.losses += 1,
                _ => wdl.draws += 1,
            };
            add(&mut s.engines[b].total, black_result);
            add(&mut s.engines[b].as_black, black_result);
            add(&mut s.engines[w].total, -black_result);
            add(&mut s.engines[w].as_white, -black_result);
            let (key, r) = if b < w {
                ((b, w), black_result)
            } else {
                ((w, b), -black_result)
            };
            add(head.entry(key).or_default(), r);
        }
        s.avg_moves = if entries.is_empty() {
            0.0
        } else {
            total_moves as f64 / entries.len() as f64
        };
        s.pairs = head
            .into_iter()
            .map(|((a, b), wdl)| PairStats {
                a,
                b,
                wdl,
                score: wdl
                    .score()
                    .and_then(|p| stats::wilson(p, wdl.games(), Z95).map(|(lo, hi)| (p, lo, hi))),
                elo: stats::elo(&wdl),
            })
            .collect();
        s.sprt = sprt.map(|t| {
            let wdl = s.pair_wdl(0, 1);
            SprtReport {
                sprt: t,
                llr: t.llr(&wdl),
                bounds: t.bounds(),
                decision: t.decide(&wdl),
            }
        });
        s
    }

    fn index(&mut self, label: &str) -> usize {
        if let Some(i) = self.engines.iter().position(|e| e.label == label) {
            return i;
        }
        self.engines.push(EngineStats {
            label: label.to_string(),
            ..EngineStats::default()
        });
        self.engines.len() - 1
    }

    /// Engine `a`'s record against engine `b`.
    pub fn pair_wdl(&self, a: usize, b: usize) -> Wdl {
        self.pairs
            .iter()
            .find_map(|p| {
                if (p.a, p.b) == (a, b) {
                    Some(p.wdl)
                } else if (p.a, p.b) == (b, a) {
                    Some(p.wdl.flipped())
                } else {
                    None
                }
            })
            .unwrap_or_default()
    }
}

fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else if x.round() == 0.0 {
        "0".into()
    } else {
        format!("{x:+.0}")
    }
}

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.planned {
            Some(p) => writeln!(f, "Games: {} of {p} played", self.games)?,
            None => writeln!(f, "Games: {}", self.games)?,
        }
        if self.stopped_by_sprt {
            writeln!(f, "(stopped early: the SPRT decided)")?;
        }
        let width = self
            .engines
            .iter()
            .map(|e| e.label.len())
            .max()
            .unwrap_or(0);
        for e in &self.engines {
            write!(
                f,
                "  {:width$}  +{} ={} -{}  (as Black +{} ={} -{}, as White +{} ={} -{})",
                e.label,
                e.total.wins,
                e.total.draws,
                e.total.losses,
                e.as_black.wins,
                e.as_black.draws,
                e.as_black.losses,
                e.as_white.wins,
                e.as_white.draws,
                e.as_white.losses,
            )?;
            if let Some(t) = e.time_per_move() {
                write!(f, "  {t:.2} s/move")?;
            }
            writeln!(f)?;
        }
        for p in &self.pairs {
            let (a, b) = (&self.engines[p.a].label, &self.engines[p.b].label);
            write!(
                f,
                "{a} vs {b}: +{} ={} -{}",
                p.wdl.wins, p.wdl.draws, p.wdl.losses
            )?;
            if let Some((s, lo, hi)) = p.score {
                write!(
                    f,
                    ", score {:.1}% [95%: {:.1}%, {:.1}%]",
                    100.0 * s,
                    100.0 * lo,
                    100.0 * hi
                )?;
            }
            if let Some(e) = p.elo {
                write!(
                    f,
                    ", Elo {} [95%: {}, {}]",
                    signed(e.elo),
                    signed(e.low),
                    signed(e.high)
                )?;
            }
            writeln!(f)?;
        }
        writeln!(
            f,
            "Colours: Black won {}, White won {}, {}, {}",
            self.black_wins,
            self.white_wins,
            plural(self.draws, "draw", "draws"),
            plural(self.voids, "void", "void")
        )?;
        if !self.reasons.is_empty() {
            let reasons: Vec<String> = self
                .reasons
                .iter()
                .map(|(r, n)| format!("{r} {n}"))
                .collect();
            write!(f, "Endings: {}", reasons.join(", "))?;
            if !self.methods.is_empty() {
                let m: Vec<String> = self
                    .methods
                    .iter()
                    .map(|(r, n)| format!("{r} {n}"))
                    .collect();
                write!(f, " (scored by {})", m.join(", "))?;
            }
            writeln!(f)?;
        }
        writeln!(f, "Average length: {:.1} moves", self.avg_moves)?;
        if let Some(r) = &self.sprt {
            writeln!(
                f,
                "SPRT [{}]: LLR {:.2} (bounds {:.2}, {:.2}): {}",
                r.sprt, r.llr, r.bounds.0, r.bounds.1, r.decision
            )?;
        }
        if self.duplicates > 0 {
            writeln!(f, "({} duplicate journal lines ignored)", self.duplicates)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(game: u32, black: &str, white: &str, winner: Option<&str>, result: &str) -> Entry {
        Entry {
            game,
            black: black.into(),
            white: white.into(),
            winner: winner.map(str::to_string),
            result: result.into(),
            reason: "resign".into(),
            detail: String::new(),
            method: None,
            moves: 10,
            sgf: String::new(),
            opening: None,
            black_time: 1.0,
            white_time: 3.0,
            black_moves: 5,
            white_moves: 5,
        }
    }

    #[test]
    fn counts_by_engine_and_colour() {
        let entries = [
            e(1, "A", "B", Some("B"), "B+R"),
            e(2, "B", "A", Some("W"), "W+R"),
            e(3, "A", "B", None, "0"),
            e(4, "B", "A", Some("B"), "B+R"),
            e(5, "A", "B", None, "Void"),
        ];
        let s = Summary::build(&["A".into(), "B".into()], &entries, None);
        assert_eq!(s.games, 5);
        assert_eq!((s.black_wins, s.white_wins, s.draws, s.voids), (2, 1, 1, 1));
        let a = &s.engines[0];
        assert_eq!((a.total.wins, a.total.draws, a.total.losses), (2, 1, 1));
        assert_eq!(a.as_black.wins, 1);
        assert_eq!(a.as_white.wins, 1);
        assert_eq!(a.as_white.losses, 1);
        assert_eq!(s.pairs.len(), 1);
        assert_eq!(s.pair_wdl(1, 0).losses, 2);
        // A: 5 moves as Black in games 1, 3, 5 (1 s each) and as White in 2, 4 (3 s each).
        assert!((a.time_per_move().unwrap() - 9.0 / 25.0).abs() < 1e-9);
        let text = s.to_string();
        assert!(text.contains("A vs B: +2 =1 -1"), "{text}");
    }
}
