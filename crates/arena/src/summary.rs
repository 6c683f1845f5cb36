//! The match summary: wins per engine and colour, draws, game length, time per move,
//! win rate with a 95% interval, Elo difference with its interval, SPRT state.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use crate::error::ArenaError;
use crate::journal::Entry;
use crate::meta::EngineRecord;
use crate::stats::{self, EloEstimate, Sprt, SprtDecision, Wdl, Z95};

/// The engine a summary is about (`--focus`): its head-to-head records, score and Elo
/// are told from its side, and the SPRT tests it. Read from a 1-based index in `-e`
/// order (`2`), else a label or GTP name (`Tengen`), any case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Focus {
    /// The engine given N-th, counted from 1.
    Index(usize),
    /// The engine with this label, or else the one engine with this GTP name.
    Name(String),
}

/// Why a `--focus` did not read: it was empty, or the index 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FocusSpecError(pub String);

impl fmt::Display for FocusSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad focus {:?} (expected an engine's label, its GTP name, or its number from 1 \
             in -e order)",
            self.0
        )
    }
}

impl std::error::Error for FocusSpecError {}

impl FromStr for Focus {
    type Err = FocusSpecError;

    fn from_str(s: &str) -> Result<Focus, FocusSpecError> {
        let text = s.trim();
        if text.is_empty() {
            return Err(FocusSpecError(s.to_string()));
        }
        if text.bytes().all(|b| b.is_ascii_digit()) {
            return match text.parse::<usize>() {
                Ok(n) if n >= 1 => Ok(Focus::Index(n)),
                _ => Err(FocusSpecError(s.to_string())),
            };
        }
        Ok(Focus::Name(text.to_string()))
    }
}

impl fmt::Display for Focus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Focus::Index(n) => write!(f, "{n}"),
            Focus::Name(name) => f.write_str(name),
        }
    }
}

impl Focus {
    /// The index in `engines` of the engine this names: by number, else by label, else
    /// by GTP name where one engine alone has it.
    pub fn resolve(&self, engines: &[EngineRecord]) -> Result<usize, ArenaError> {
        let refuse = |why: String| ArenaError::Config(format!("--focus {self}: {why}"));
        let listed = || {
            engines
                .iter()
                .enumerate()
                .map(|(i, e)| format!("{} {}", i + 1, e.label))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Focus::Index(n) if (1..=engines.len()).contains(n) => Ok(n - 1),
            Focus::Index(_) => Err(refuse(format!(
                "the match has {} engines ({})",
                engines.len(),
                listed()
            ))),
            Focus::Name(name) => {
                if let Some(i) = engines
                    .iter()
                    .position(|e| e.label.eq_ignore_ascii_case(name))
                {
                    return Ok(i);
                }
                let named: Vec<usize> = (0..engines.len())
                    .filter(|&i| engines[i].name.eq_ignore_ascii_case(name))
                    .collect();
                match named[..] {
                    [i] => Ok(i),
                    [] => Err(refuse(format!(
                        "no engine has that label or GTP name ({})",
                        listed()
                    ))),
                    _ => Err(refuse(format!(
                        "{} engines have that GTP name ({}): give a label or a number",
                        named.len(),
                        listed()
                    ))),
                }
            }
        }
    }
}

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

/// The head-to-head record of two engines, from the first one's point of view (the
/// summary's focus where it is one of them).
#[derive(Clone, Debug, PartialEq)]
pub struct PairStats {
    /// Index of the first engine, whose side the record is told from.
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

impl PairStats {
    /// The head-to-head record `wdl` of engine `a` against engine `b`, told from the
    /// side of `focus` where it plays, with its score and Elo.
    fn told_from(focus: usize, a: usize, b: usize, wdl: Wdl) -> PairStats {
        let (a, b, wdl) = if b == focus {
            (b, a, wdl.flipped())
        } else {
            (a, b, wdl)
        };
        PairStats {
            a,
            b,
            wdl,
            score: wdl
                .score()
                .and_then(|p| stats::wilson(p, wdl.games(), Z95).map(|(lo, hi)| (p, lo, hi))),
            elo: stats::elo(&wdl),
        }
    }
}

/// The SPRT's state: the focus (by default the first engine) against the first other
/// engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtReport {
    /// The engine tested (the summary's focus).
    pub engine: usize,
    /// The engine it is tested against.
    pub opponent: usize,
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
    /// The engine the summary is about (an index in `engines`): the pairs it plays in
    /// are told from its side, and the SPRT tests it.
    pub focus: usize,
}

impl Summary {
    /// Builds the summary of `entries` for engines labelled `labels` (labels found only
    /// in the entries are added at the end), from the first engine's side.
    pub fn build(labels: &[String], entries: &[Entry], sprt: Option<Sprt>) -> Summary {
        Summary::build_for(labels, entries, sprt, 0)
    }

    /// Builds the summary of `entries` from the side of engine `focus` (an index in
    /// `labels`; the first engine where there is no such engine).
    pub fn build_for(
        labels: &[String],
        entries: &[Entry],
        sprt: Option<Sprt>,
        focus: usize,
    ) -> Summary {
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
            total_moves += u64::from(e.moves);
            s.count(e, &mut head);
        }
        s.avg_moves = if entries.is_empty() {
            0.0
        } else {
            total_moves as f64 / entries.len() as f64
        };
        s.focus = if focus < s.engines.len() { focus } else { 0 };
        s.pairs = head
            .into_iter()
            .map(|((a, b), wdl)| PairStats::told_from(s.focus, a, b, wdl))
            .collect();
        // The focus's pairs first.
        let focus = s.focus;
        s.pairs.sort_by_key(|p| p.a != focus);
        s.sprt = sprt.map(|t| {
            let (engine, opponent) = (s.focus, usize::from(s.focus == 0));
            let wdl = s.pair_wdl(engine, opponent);
            SprtReport {
                engine,
                opponent,
                sprt: t,
                llr: t.llr(&wdl),
                bounds: t.bounds(),
                decision: t.decide(&wdl),
            }
        });
        s
    }

    /// Counts one game: its ending, each engine's time and moves, and (unless it is
    /// void) its result by colour, by engine and in `head`, the head-to-head records
    /// keyed by the pair's lower index first.
    fn count(&mut self, e: &Entry, head: &mut BTreeMap<(usize, usize), Wdl>) {
        let b = self.index(&e.black);
        let w = self.index(&e.white);
        *self.reasons.entry(e.reason.clone()).or_default() += 1;
        if let Some(m) = &e.method {
            *self.methods.entry(m.clone()).or_default() += 1;
        }
        self.engines[b].time += e.black_time;
        self.engines[b].moves += e.black_moves;
        self.engines[w].time += e.white_time;
        self.engines[w].moves += e.white_moves;
        // Black's result: +1 win, 0 draw, -1 loss; void games are not counted.
        let black_result = match e.winner.as_deref() {
            Some("B") => 1,
            Some("W") => -1,
            _ if e.result == "0" => 0,
            _ => {
                self.voids += 1;
                return;
            }
        };
        match black_result {
            1 => self.black_wins += 1,
            -1 => self.white_wins += 1,
            _ => self.draws += 1,
        }
        let add = |wdl: &mut Wdl, r: i32| match r {
            1 => wdl.wins += 1,
            -1 => wdl.losses += 1,
            _ => wdl.draws += 1,
        };
        add(&mut self.engines[b].total, black_result);
        add(&mut self.engines[b].as_black, black_result);
        add(&mut self.engines[w].total, -black_result);
        add(&mut self.engines[w].as_white, -black_result);
        let (key, r) = if b < w {
            ((b, w), black_result)
        } else {
            ((w, b), -black_result)
        };
        add(head.entry(key).or_default(), r);
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
        self.write_engines(f)?;
        self.write_pairs(f)?;
        writeln!(
            f,
            "Colours: Black won {}, White won {}, {}, {}",
            self.black_wins,
            self.white_wins,
            plural(self.draws, "draw", "draws"),
            plural(self.voids, "void", "void")
        )?;
        if !self.reasons.is_empty() {
            write!(f, "Endings: {}", counts(&self.reasons))?;
            if !self.methods.is_empty() {
                write!(f, " (scored by {})", counts(&self.methods))?;
            }
            writeln!(f)?;
        }
        writeln!(f, "Average length: {:.1} moves", self.avg_moves)?;
        if let Some(r) = &self.sprt {
            let name = |i: usize| self.engines.get(i).map_or("?", |e| e.label.as_str());
            writeln!(
                f,
                "SPRT [{}] for {} against {}: LLR {:.2} (bounds {:.2}, {:.2}): {}",
                r.sprt,
                name(r.engine),
                name(r.opponent),
                r.llr,
                r.bounds.0,
                r.bounds.1,
                r.decision
            )?;
        }
        if self.duplicates > 0 {
            writeln!(f, "({} duplicate journal lines ignored)", self.duplicates)?;
        }
        Ok(())
    }
}

/// `name count` for each entry, joined by commas.
fn counts(by_name: &BTreeMap<String, u32>) -> String {
    let each: Vec<String> = by_name.iter().map(|(r, n)| format!("{r} {n}")).collect();
    each.join(", ")
}

impl Summary {
    /// A line for each engine: its wins, draws and losses in all and by colour, and
    /// its time a move.
    fn write_engines(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
        Ok(())
    }

    /// A line for each pair that met: its record, score and Elo from its first
    /// engine's side.
    fn write_pairs(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
            // Whose wins, score and Elo these are.
            writeln!(f, " for {a}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(game: u32, black: &str, white: &str, winner: Option<&str>, result: &str) -> Entry {
        Entry {
            result: result.into(),
            sgf: String::new(),
            white_time: 3.0,
            ..Entry::resigned(game, black, white, winner)
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
        assert!(
            text.contains("[95%: ") && text.contains("] for A\n"),
            "{text}"
        );
    }

    /// Four games the second engine won, all of them.
    fn swept() -> Vec<Entry> {
        (1..=4)
            .map(|g| {
                if g % 2 == 1 {
                    e(g, "GNU Go 3.8", "Tengen", Some("W"), "W+R")
                } else {
                    e(g, "Tengen", "GNU Go 3.8", Some("B"), "B+R")
                }
            })
            .collect()
    }

    #[test]
    fn the_summary_is_told_from_the_focus_side() {
        let labels = ["GNU Go 3.8".to_string(), "Tengen".to_string()];
        let sprt: Sprt = "0,10,0.05,0.05".parse().unwrap();
        let first = Summary::build(&labels, &swept(), Some(sprt));
        assert_eq!(first.focus, 0);
        let text = first.to_string();
        assert!(text.contains("GNU Go 3.8 vs Tengen: +0 =0 -4"), "{text}");
        assert!(
            text.contains("Elo -inf") && text.contains(" for GNU Go 3.8\n"),
            "{text}"
        );
        let focused = Summary::build_for(&labels, &swept(), Some(sprt), 1);
        assert_eq!(focused.focus, 1);
        let pair = &focused.pairs[0];
        assert_eq!(
            (pair.a, pair.b, pair.wdl.wins, pair.wdl.losses),
            (1, 0, 4, 0)
        );
        assert_eq!(pair.score.map(|s| s.0), Some(1.0));
        let text = focused.to_string();
        assert!(
            text.contains("Tengen vs GNU Go 3.8: +4 =0 -0, score 100.0% [95%: "),
            "{text}"
        );
        assert!(text.contains(", Elo +inf [95%: "), "{text}");
        assert!(text.contains("] for Tengen\n"), "{text}");
        // The SPRT tests the focus against the other engine.
        let r = focused.sprt.unwrap();
        assert_eq!((r.engine, r.opponent), (1, 0));
        assert!(r.llr > 0.0 && first.sprt.unwrap().llr < 0.0);
        assert!(
            text.contains("SPRT [0,10,0.05,0.05] for Tengen against GNU Go 3.8: "),
            "{text}"
        );
        // A focus that is no engine falls back to the first.
        assert_eq!(Summary::build_for(&labels, &swept(), None, 7).focus, 0);
    }

    fn record(label: &str, name: &str) -> EngineRecord {
        EngineRecord {
            label: label.into(),
            command: String::new(),
            name: name.into(),
            version: String::new(),
        }
    }

    #[test]
    fn a_focus_names_an_engine_by_number_label_or_gtp_name() {
        let engines = [
            record("GNU Go 3.8", "GNU Go"),
            record("Tengen 0.2.0 (abc1234)", "Tengen"),
            record("fast", "Tengen"),
        ];
        let find = |spec: &str| spec.parse::<Focus>().unwrap().resolve(&engines);
        assert_eq!(find("2").unwrap(), 1);
        assert_eq!(find("gnu go").unwrap(), 0);
        assert_eq!(find("Tengen 0.2.0 (abc1234)").unwrap(), 1);
        assert_eq!(find("FAST").unwrap(), 2);
        let err = |spec: &str| find(spec).unwrap_err().to_string();
        // Two engines answer `name` with Tengen.
        assert!(
            err("Tengen").contains("2 engines have that GTP name"),
            "{}",
            err("Tengen")
        );
        assert!(err("4").contains("the match has 3 engines"), "{}", err("4"));
        assert!(
            err("Leela").contains("no engine has that label"),
            "{}",
            err("Leela")
        );
        assert!(
            err("Leela").contains("1 GNU Go 3.8, 2 Tengen"),
            "{}",
            err("Leela")
        );
        for bad in ["", " ", "0"] {
            assert!(bad.parse::<Focus>().is_err(), "{bad:?}");
        }
    }
}
