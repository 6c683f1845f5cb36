//! The diagnosis written out: Markdown (the tables for STRENGTH.md and a list of the
//! games) and JSON for scripts.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;
use tengen_board::counted;

use crate::diagnosis::{Crossing, Drop, GameDiagnosis};
use crate::kind::Kind;
use crate::phase::Phase;

/// A whole diagnosis: what was studied, how, and each lost game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The studied engine's name, as the records give it.
    pub engine: String,
    /// How Tengen evaluated (version, playouts, threads).
    pub tengen: String,
    /// The referee engine's command and name, if one evaluated.
    pub referee: Option<String>,
    /// The win rate below which a position counts as lost.
    pub threshold: f64,
    /// The fewest stones of a group whose death counts.
    pub min_group: usize,
    /// Records read in which the engine played.
    pub games: usize,
    /// Of them, the games it lost.
    pub lost: usize,
    /// Records skipped, with the reason: the engine played neither side, or a lost
    /// game could not be diagnosed.
    pub skipped: Vec<String>,
    /// What happened to the referee engine during the run (restarted after its
    /// connection broke, or given up on for the games after).
    pub referee_notes: Vec<String>,
    /// The lost games, diagnosed.
    pub diagnoses: Vec<GameDiagnosis>,
}

impl Report {
    /// The JSON form, pretty-printed.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("plain data serializes")
    }

    /// The Markdown form: the tables, then one line a game.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let pct = self.threshold * 100.0;
        let _ = writeln!(
            out,
            "{} played {} and lost {}; evaluated by {}{}.\n",
            self.engine,
            counted(self.games as u64, "game", "games"),
            self.lost,
            self.tengen,
            self.referee
                .as_ref()
                .map_or(String::new(), |r| format!(" and by the referee {r}"))
        );
        self.phase_table(&mut out, pct);
        self.kind_table(&mut out);
        self.curve_table(&mut out);
        self.game_list(&mut out, pct);
        self.notes(&mut out);
        out
    }

    fn phase_table(&self, out: &mut String, pct: f64) {
        let referee = self.referee.is_some();
        let firsts: Vec<Option<&Crossing>> = self
            .diagnoses
            .iter()
            .map(|d| d.first_below.as_ref())
            .collect();
        // The referee's columns count only the games it evaluated.
        let refereed = || {
            self.diagnoses
                .iter()
                .filter(|d| d.referee_unavailable.is_none())
        };
        let firsts_r: Vec<Option<&Crossing>> =
            refereed().map(|d| d.first_below_referee.as_ref()).collect();
        let drops: Vec<Option<&Drop>> = self
            .diagnoses
            .iter()
            .map(|d| d.largest_drop.as_ref())
            .collect();
        let drops_r: Vec<Option<&Drop>> = refereed()
            .map(|d| d.largest_drop_referee.as_ref())
            .collect();
        let _ = write!(out, "| phase | first position below {pct:.0}% (Tengen) |");
        if referee {
            let _ = write!(out, " first below {pct:.0}% (referee) |");
        }
        let _ = write!(out, " largest drop (Tengen) |");
        if referee {
            let _ = write!(out, " largest drop (referee) |");
        }
        let cols = if referee { 4 } else { 2 };
        let _ = writeln!(out, "\n|---|{}", "---|".repeat(cols));
        for phase in Phase::ALL {
            let _ = write!(
                out,
                "| {phase} | {} |",
                count(&firsts, |c| c.phase == phase)
            );
            if referee {
                let _ = write!(out, " {} |", count(&firsts_r, |c| c.phase == phase));
            }
            let _ = write!(out, " {} |", count(&drops, |d| d.phase == phase));
            if referee {
                let _ = write!(out, " {} |", count(&drops_r, |d| d.phase == phase));
            }
            out.push('\n');
        }
        let never = |v: &[Option<&Crossing>]| v.iter().filter(|c| c.is_none()).count();
        let _ = write!(out, "| never below | {} |", never(&firsts));
        if referee {
            let _ = write!(out, " {} |", never(&firsts_r));
        }
        let _ = write!(out, " – |");
        if referee {
            let _ = write!(out, " – |");
        }
        out.push_str("\n\n");
    }

    fn kind_table(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "| kind of the largest drop (Tengen) | lost games | in the opening / middle game / endgame | mean swing (points) |\n|---|---|---|---|"
        );
        for kind in Kind::ALL {
            let games: Vec<&GameDiagnosis> = self
                .diagnoses
                .iter()
                .filter(|d| d.kind.as_ref().is_some_and(|k| k.kind == kind))
                .collect();
            let by_phase: Vec<String> = Phase::ALL
                .iter()
                .map(|&p| {
                    games
                        .iter()
                        .filter(|d| d.largest_drop.as_ref().is_some_and(|x| x.phase == p))
                        .count()
                        .to_string()
                })
                .collect();
            let swing = if games.is_empty() {
                "–".to_string()
            } else {
                let sum: f64 = games
                    .iter()
                    .filter_map(|d| d.kind.as_ref())
                    .map(|k| k.swing)
                    .sum();
                format!("{:.1}", sum / games.len() as f64)
            };
            let _ = writeln!(
                out,
                "| {kind} | {} | {} | {swing} |",
                games.len(),
                by_phase.join(" / ")
            );
        }
        let none = self.diagnoses.iter().filter(|d| d.kind.is_none()).count();
        if none > 0 {
            let _ = writeln!(
                out,
                "| no drop (the win rate never fell) | {none} | – | – |"
            );
        }
        out.push('\n');
    }

    fn curve_table(&self, out: &mut String) {
        // Mean win rate of the lost games at each evaluated move number (the final
        // positions, at odd move numbers, are left out).
        let mut at: BTreeMap<usize, (usize, f64, usize, f64)> = BTreeMap::new();
        for d in &self.diagnoses {
            for row in d.positions.iter().filter(|r| r.moves != d.moves) {
                let e = at.entry(row.moves).or_default();
                e.0 += 1;
                e.1 += row.tengen;
                if let Some(r) = row.referee {
                    e.2 += 1;
                    e.3 += r;
                }
            }
        }
        if at.is_empty() {
            return;
        }
        let _ = writeln!(
            out,
            "| move | lost games still going | mean win rate (Tengen) | mean win rate (referee) |\n|---|---|---|---|"
        );
        for (m, (n, t, nr, r)) in at {
            let referee = if nr > 0 {
                format!("{:.2}", r / nr as f64)
            } else {
                "–".into()
            };
            let _ = writeln!(out, "| {m} | {n} | {:.2} | {referee} |", t / n as f64);
        }
        out.push('\n');
    }

    fn game_list(&self, out: &mut String, pct: f64) {
        for d in &self.diagnoses {
            let first = |c: &Option<Crossing>| {
                c.as_ref().map_or("never".to_string(), |c| {
                    format!("move {} ({})", c.moves, c.phase)
                })
            };
            let _ = write!(
                out,
                "- **{}** ({} as {}, {}, {}): below {pct:.0}% at {}",
                d.game,
                self.engine,
                if d.color == "B" { "Black" } else { "White" },
                d.result,
                counted(d.moves as u64, "move", "moves"),
                first(&d.first_below)
            );
            if let Some(why) = &d.referee_unavailable {
                let _ = write!(out, " (referee unavailable: {why})");
            } else if self.referee.is_some() {
                let _ = write!(out, " (referee: {})", first(&d.first_below_referee));
            }
            match &d.largest_drop {
                Some(x) => {
                    let _ = write!(
                        out,
                        "; largest drop {:.2} → {:.2} in moves {}–{} ({})",
                        x.before,
                        x.after,
                        x.from + 1,
                        x.to,
                        x.phase
                    );
                }
                None => out.push_str("; no drop"),
            }
            if let Some(x) = &d.largest_drop_referee {
                let _ = write!(
                    out,
                    " (referee: {:.2} → {:.2} in moves {}–{})",
                    x.before,
                    x.after,
                    x.from + 1,
                    x.to
                );
            }
            if let Some(k) = &d.kind {
                let _ = write!(out, "; **{}**", k.kind);
                if !k.stones.is_empty() {
                    let stones = counted(k.stones.len() as u64, "stone", "stones");
                    let _ = write!(out, ", {stones} at {}", k.stones.join(" "));
                }
                if !k.opponent.is_empty() {
                    let _ = write!(out, " against {}", k.opponent.join(" "));
                }
                if let Some(m) = k.key_move {
                    let _ = write!(out, " from move {m}");
                }
                let _ = write!(
                    out,
                    ", {:.1} points swung; moves: {}",
                    k.swing,
                    k.moves.join(", ")
                );
            }
            out.push('\n');
        }
    }
}

impl Report {
    /// The skipped records and the referee's notes, each a list with its heading.
    fn notes(&self, out: &mut String) {
        if !self.skipped.is_empty() {
            let _ = writeln!(out, "\nSkipped ({}):\n", self.skipped.len());
            for s in &self.skipped {
                let _ = writeln!(out, "- {s}");
            }
        }
        if !self.referee_notes.is_empty() {
            let _ = writeln!(out, "\nReferee:\n");
            for n in &self.referee_notes {
                let _ = writeln!(out, "- {n}");
            }
        }
    }
}

fn count<T>(items: &[Option<&T>], f: impl Fn(&T) -> bool) -> usize {
    items.iter().filter(|x| x.is_some_and(&f)).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnosis::{KindReport, PositionRow};

    fn game(name: &str, referee: Option<f64>, unavailable: Option<&str>) -> GameDiagnosis {
        GameDiagnosis {
            game: name.into(),
            size: 9,
            color: "W".into(),
            result: "B+R".into(),
            moves: 12,
            positions: vec![PositionRow {
                moves: 10,
                phase: Phase::Opening,
                tengen: 0.2,
                lead: None,
                referee,
            }],
            first_below: Some(Crossing {
                moves: 10,
                phase: Phase::Opening,
            }),
            first_below_referee: None,
            largest_drop: None,
            largest_drop_referee: None,
            kind: None,
            deaths: Vec::new(),
            referee_unavailable: unavailable.map(String::from),
        }
    }

    #[test]
    fn skipped_games_and_an_unavailable_referee_are_written_with_their_reasons() {
        let report = Report {
            engine: "studied".into(),
            tengen: "Tengen".into(),
            referee: Some("Pachi".into()),
            threshold: 0.35,
            min_group: 4,
            games: 3,
            lost: 3,
            skipped: vec!["c.sgf: evaluation: no ownership".into()],
            referee_notes: vec!["its connection broke; restarted before b.sgf".into()],
            diagnoses: vec![
                game("a.sgf", Some(0.5), None),
                game("b.sgf", None, Some("move 10: referee engine: timed out")),
            ],
        };
        let md = report.to_markdown();
        assert!(
            md.contains("Skipped (1):\n\n- c.sgf: evaluation: no ownership\n"),
            "{md}"
        );
        assert!(
            md.contains("Referee:\n\n- its connection broke; restarted before b.sgf\n"),
            "{md}"
        );
        assert!(
            md.contains("(referee unavailable: move 10: referee engine: timed out)"),
            "{md}"
        );
        // The referee's "never below" counts only the game it evaluated.
        assert!(md.contains("| never below | 0 | 1 | – | – |"), "{md}");
        let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(json["skipped"][0], "c.sgf: evaluation: no ownership");
        assert_eq!(
            json["diagnoses"][1]["referee_unavailable"],
            "move 10: referee engine: timed out"
        );
    }

    #[test]
    fn counts_of_one_take_the_singular() {
        let mut one = game("a.sgf", None, None);
        one.moves = 1;
        one.kind = Some(KindReport {
            kind: Kind::GroupDied,
            stones: vec!["D4".into()],
            opponent: Vec::new(),
            key_move: None,
            swing: 1.0,
            moves: Vec::new(),
        });
        let report = Report {
            engine: "studied".into(),
            tengen: "Tengen".into(),
            referee: None,
            threshold: 0.35,
            min_group: 4,
            games: 1,
            lost: 1,
            skipped: Vec::new(),
            referee_notes: Vec::new(),
            diagnoses: vec![one],
        };
        let md = report.to_markdown();
        assert!(md.starts_with("studied played 1 game and lost 1;"), "{md}");
        assert!(md.contains(", 1 move): below"), "{md}");
        assert!(md.contains(", 1 stone at D4"), "{md}");
    }
}
