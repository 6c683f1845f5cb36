//! Analysis streams in the Leela Zero and KataGo dialects that Sabaki and Lizzie parse:
//! how a request of `lz-analyze`, `kata-analyze`, `lz-genmove_analyze` and
//! `kata-genmove_analyze` is read ([`Stream::parse`]) and what its lines hold (the
//! commands themselves are `handlers/analyze.rs`).
//!
//! A line holds one `info` block per candidate, best first:
//! `info move D4 visits 836 winrate 4656 prior 839 lcb 4640 order 0 pv D4 Q16 D16`.
//! The Leela Zero dialect writes win rate, prior and lcb as integers in 1/10000; the
//! KataGo dialect writes them as decimals in [0, 1] (always with a decimal point, so
//! every Sabaki version reads them right) and adds `scoreMean`, `scoreStdev` (the
//! standard deviation of the final score over the playouts) and `scoreLead`, in
//! KataGo's order.
//!
//! KataGo's options add keys where KataGo prints them: in each block after `pv` (the
//! last key of a block without them), `pvVisits`, `pvEdgeVisits` (one count per move
//! of `pv`), `movesOwnership` and `movesOwnershipStdev` (one value per point, row by
//! row from the top left); after all blocks, `rootInfo`, `ownership`, then
//! `ownershipStdev`. These options belong to the KataGo dialect: `lz-analyze`
//! refuses them, as KataGo does.

use std::fmt::Write as _;
use std::time::Duration;

use tengen_board::{Bitboard, BoardSize, Color, Move};

use crate::args::{Args, parse_int};
use crate::error::{GtpError, quote};
use crate::session::Ctx;
use tengen_engine::{Analysis, Extras, MoveStat};

/// Interval used when a command gives none: one snapshot a second.
const DEFAULT_INTERVAL_CS: u64 = 100;

/// The two line formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// Leela Zero: integer win rates in 1/10000.
    Lz,
    /// KataGo: decimal win rates, score keys, ownership.
    Kata,
}

/// A parsed analysis request: whose moves, how often, and what to print.
#[derive(Clone, Debug)]
pub(crate) struct Stream {
    dialect: Dialect,
    /// The side analysed.
    pub color: Color,
    /// Centiseconds between lines; 0 prints one line only, from the final snapshot
    /// (when the stream is stopped, or before `play`).
    interval_cs: u64,
    min_moves: usize,
    max_moves: usize,
    /// Whether the lines carry the board's ownership (`ownership true`).
    pub ownership: bool,
    root_info: bool,
    /// KataGo's per-point and per-candidate extras (`ownershipStdev`, `pvVisits`, …).
    kata: KataKeys,
    /// Root moves not to show (`avoid`), or the only ones to show (`allow`).
    avoid: Vec<Move>,
    allow: Option<Vec<Move>>,
}

/// The KataGo dialect's options beyond `ownership` and `rootInfo`.
#[derive(Clone, Copy, Debug, Default)]
struct KataKeys {
    ownership_stdev: bool,
    moves_ownership: bool,
    moves_ownership_stdev: bool,
    pv_visits: bool,
    pv_edge_visits: bool,
}

impl KataKeys {
    /// The flag of a KataGo option by its name in lower case, and the name as KataGo
    /// spells it.
    fn flag(&mut self, lower: &str) -> Option<(&mut bool, &'static str)> {
        Some(match lower {
            "ownershipstdev" => (&mut self.ownership_stdev, "ownershipStdev"),
            "movesownership" => (&mut self.moves_ownership, "movesOwnership"),
            "movesownershipstdev" => (&mut self.moves_ownership_stdev, "movesOwnershipStdev"),
            "pvvisits" => (&mut self.pv_visits, "pvVisits"),
            "pvedgevisits" => (&mut self.pv_edge_visits, "pvEdgeVisits"),
            _ => return None,
        })
    }
}

impl Stream {
    /// Reads `[color] [interval] [key value]…` as KataGo's GTP extensions define it.
    pub(crate) fn parse(
        dialect: Dialect,
        a: &mut Args<'_>,
        size: BoardSize,
        to_move: Color,
    ) -> Result<Stream, GtpError> {
        let mut st = Stream {
            dialect,
            color: to_move,
            interval_cs: DEFAULT_INTERVAL_CS,
            min_moves: 0,
            max_moves: 0,
            ownership: false,
            root_info: false,
            kata: KataKeys::default(),
            avoid: Vec::new(),
            allow: None,
        };
        if let Some(c) = a.peek().and_then(|t| t.parse::<Color>().ok()) {
            st.color = c;
            a.word("color")?;
        }
        if a.peek().and_then(parse_int).is_some() {
            st.interval_cs = interval(a)?;
        }
        while let Some(key) = a.peek() {
            a.word("key")?;
            let lower = key.to_ascii_lowercase();
            if let Some((flag, name)) = st.kata.flag(&lower) {
                if dialect == Dialect::Lz {
                    return Err(GtpError::syntax(format!(
                        "{name} is a kata-analyze option (lz-analyze has none of KataGo's keys)"
                    )));
                }
                *flag = a.boolean(name)?;
                continue;
            }
            match lower.as_str() {
                "interval" => st.interval_cs = interval(a)?,
                "minmoves" => st.min_moves = a.uint("minmoves")? as usize,
                "maxmoves" => st.max_moves = a.uint("maxmoves")? as usize,
                "ownership" => st.ownership = a.boolean("ownership")?,
                "rootinfo" => st.root_info = a.boolean("rootInfo")?,
                k @ ("avoid" | "allow") => {
                    let who = a.color()?;
                    let list = a.word("vertex list")?;
                    let moves = list
                        .split(',')
                        .filter(|t| !t.is_empty())
                        .map(|t| size.parse_move(t))
                        .collect::<Result<Vec<Move>, _>>()
                        .map_err(|_| {
                            GtpError::syntax(format!("bad vertex list {}", quote(list)))
                        })?;
                    a.uint("untilDepth")?;
                    if who == st.color {
                        if k == "avoid" {
                            st.avoid.extend(moves);
                        } else {
                            st.allow.get_or_insert_with(Vec::new).extend(moves);
                        }
                    }
                }
                _ => return Err(GtpError::syntax(format!("unknown key {}", quote(key)))),
            }
        }
        Ok(st)
    }

    /// The points the search must not choose at the root: the `avoid`ed ones, and
    /// with `allow` every point not allowed. (A pass in either list only filters what
    /// is shown.)
    pub(crate) fn avoided(&self, size: BoardSize) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for p in size.points() {
            let mv = Move::Play(p);
            let allowed = self.allow.as_ref().is_none_or(|al| al.contains(&mv));
            if self.avoid.contains(&mv) || !allowed {
                set.insert(p);
            }
        }
        set
    }

    /// What the engine's snapshots must hold for this stream's keys.
    pub(crate) fn extras(&self) -> Extras {
        let k = &self.kata;
        Extras {
            ownership: self.ownership || k.ownership_stdev,
            moves_ownership: k.moves_ownership || k.moves_ownership_stdev,
        }
    }

    /// Whether only the final snapshot is printed (an interval of 0).
    pub(crate) fn final_only(&self) -> bool {
        self.interval_cs == 0
    }

    /// Writes the line of the search's final snapshot `last` (if it reported one) when
    /// only that one is printed; the periodic lines went out during the search.
    pub(crate) fn write_final(&self, ctx: &mut Ctx<'_>, last: Option<&Analysis>, size: BoardSize) {
        let last = last.filter(|_| self.final_only());
        if let Some(line) = last.and_then(|an| self.format(an, size)) {
            ctx.stream_line(&line);
        }
    }

    /// The report interval to ask the engine for (with [`Stream::final_only`], an hour:
    /// the snapshots are then not printed).
    pub(crate) fn interval(&self) -> Duration {
        if self.interval_cs == 0 {
            Duration::from_secs(3600)
        } else {
            Duration::from_millis(self.interval_cs * 10)
        }
    }

    /// One output line for a snapshot, or `None` when there is nothing to show yet:
    /// one `info` block per candidate shown, best first, then the keys of the whole
    /// position.
    pub(crate) fn format(&self, a: &Analysis, size: BoardSize) -> Option<String> {
        let shown = a.moves.iter().filter(|m| {
            !self.avoid.contains(&m.mv) && self.allow.as_ref().is_none_or(|al| al.contains(&m.mv))
        });
        let cap = if self.max_moves == 0 {
            usize::MAX
        } else {
            self.max_moves
        };
        let mut line = String::new();
        for (order, m) in shown
            .enumerate()
            .filter(|(i, m)| m.visits > 0 || *i < self.min_moves)
            .map(|(_, m)| m)
            .take(cap)
            .enumerate()
        {
            if !line.is_empty() {
                line.push(' ');
            }
            self.info_block(&mut line, order, m, size);
        }
        self.position_keys(&mut line, a, size);
        (!line.is_empty()).then_some(line)
    }

    /// Appends the `info` block of candidate `m`, `order`-th shown: its statistics in
    /// the dialect's form, its line, then the KataGo options' keys of a block.
    fn info_block(&self, line: &mut String, order: usize, m: &MoveStat, size: BoardSize) {
        let mv = size.move_vertex(m.mv);
        let _ = write!(line, "info move {mv} visits {}", m.visits);
        match self.dialect {
            Dialect::Lz => {
                let _ = write!(
                    line,
                    " winrate {} prior {} lcb {}",
                    per10000(m.winrate),
                    per10000(m.prior),
                    per10000(m.lcb)
                );
            }
            Dialect::Kata => {
                let _ = write!(
                    line,
                    " winrate {} scoreMean {:.2} scoreStdev {:.2} scoreLead {:.2} prior {} lcb {}",
                    unit(m.winrate),
                    m.score_lead,
                    m.score_stdev,
                    m.score_lead,
                    unit(m.prior),
                    unit(m.lcb)
                );
            }
        }
        let _ = write!(line, " order {order} pv");
        let mut pv = m.pv.clone();
        let mut pv_visits = m.pv_visits.clone();
        if pv.first() != Some(&m.mv) {
            pv.insert(0, m.mv);
            pv_visits.insert(0, m.visits);
        }
        let moves = pv.len();
        for v in pv {
            let _ = write!(line, " {}", size.move_vertex(v));
        }
        let k = &self.kata;
        // One count per move of the line, as KataGo prints them; a tree reaches a
        // position by one path, so the visits of a position and of the move that
        // leads there are the same count.
        for (asked, name) in [
            (k.pv_visits, "pvVisits"),
            (k.pv_edge_visits, "pvEdgeVisits"),
        ] {
            if asked && pv_visits.len() == moves {
                let _ = write!(line, " {name}");
                for v in &pv_visits {
                    let _ = write!(line, " {v}");
                }
            }
        }
        if k.moves_ownership {
            points(line, "movesOwnership", &m.ownership, size, -1.0);
        }
        if k.moves_ownership_stdev {
            points(line, "movesOwnershipStdev", &m.ownership_stdev(), size, 0.0);
        }
    }

    /// Appends the keys of the whole position, after all blocks: `rootInfo`,
    /// `ownership`, then `ownershipStdev`, as asked.
    fn position_keys(&self, line: &mut String, a: &Analysis, size: BoardSize) {
        if self.dialect == Dialect::Kata && self.root_info {
            if !line.is_empty() {
                line.push(' ');
            }
            let _ = write!(
                line,
                "rootInfo visits {} winrate {} scoreMean {:.2} scoreStdev {:.2} scoreLead {:.2}",
                a.visits,
                unit(a.winrate),
                a.score_lead,
                a.score_stdev,
                a.score_lead
            );
        }
        if self.ownership {
            points(line, "ownership", &a.ownership, size, -1.0);
        }
        if self.kata.ownership_stdev {
            points(line, "ownershipStdev", &a.ownership_stdev(), size, 0.0);
        }
    }
}

/// Appends ` key v1 v2 …` (after a space, unless `line` is empty), one value per
/// point of the board in `values`, each within [`low`, 1] to four decimals; nothing
/// when `values` is not one per point (a snapshot without them).
fn points(line: &mut String, key: &str, values: &[f32], size: BoardSize, low: f32) {
    if values.len() != size.area() {
        return;
    }
    if !line.is_empty() {
        line.push(' ');
    }
    line.push_str(key);
    for v in values {
        let _ = write!(line, " {:.4}", v.clamp(low, 1.0));
    }
}

fn interval(a: &mut Args<'_>) -> Result<u64, GtpError> {
    let n = a.int("interval")?;
    u64::try_from(n)
        .map(|n| n.min(360_000))
        .map_err(|_| GtpError::syntax("interval must not be negative"))
}

/// A win rate as Leela Zero writes it: an integer in 1/10000.
fn per10000(x: f64) -> i64 {
    if x.is_finite() {
        (x.clamp(0.0, 1.0) * 10000.0).round() as i64
    } else {
        0
    }
}

/// A value in [0, 1] as KataGo writes it, always with a decimal point.
fn unit(x: f64) -> String {
    let x = if x.is_finite() {
        x.clamp(0.0, 1.0)
    } else {
        0.0
    };
    format!("{x:.6}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_engine::{Line, MoveStat};

    fn stream(dialect: Dialect, line: &str) -> Result<Stream, GtpError> {
        let size = BoardSize::new(2).unwrap();
        let mut a = Args::new(line.split(' ').filter(|t| !t.is_empty()).collect());
        Stream::parse(dialect, &mut a, size, Color::Black)
    }

    /// A 2×2 snapshot: two candidates, A1 (a line of two moves) and pass.
    fn snapshot() -> Analysis {
        let size = BoardSize::new(2).unwrap();
        let (a1, b2) = (
            size.parse_move("A1").unwrap(),
            size.parse_move("B2").unwrap(),
        );
        let stat = |mv, visits, pv: &[Move], pv_visits: Vec<u64>, own: f32| MoveStat {
            mv,
            visits,
            wins: visits / 2,
            winrate: 0.5,
            prior: 0.5,
            lcb: 0.25,
            score_lead: 1.0,
            score_stdev: 2.5,
            pv: Line::from_slice(pv),
            pv_visits,
            ownership: vec![own, -own, 0.0, 1.0],
            neutral: vec![0.0, 0.0, 1.0, 0.0],
        };
        Analysis {
            color: Color::Black,
            visits: 12,
            reused: 0,
            winrate: 0.5,
            score_lead: 1.0,
            score_stdev: 3.25,
            moves: vec![
                stat(a1, 10, &[a1, b2], vec![10, 7], 0.5),
                stat(Move::Pass, 2, &[Move::Pass], vec![2], 1.0),
            ],
            ownership: vec![0.0, 1.0, -1.0, 0.5],
            neutral: vec![0.0, 0.0, 0.0, 0.5],
            elapsed: Duration::from_millis(10),
            tree_bytes: 0,
            tree_compactions: 0,
        }
    }

    #[test]
    fn katago_keys_come_where_katago_prints_them() {
        let st = stream(
            Dialect::Kata,
            "b 0 ownershipStdev true movesOwnership true pvEdgeVisits true pvVisits true \
             ownership true movesOwnershipStdev true rootInfo true maxmoves 1",
        )
        .unwrap();
        assert_eq!(
            st.extras(),
            Extras {
                ownership: true,
                moves_ownership: true
            }
        );
        let line = st.format(&snapshot(), BoardSize::new(2).unwrap()).unwrap();
        assert_eq!(
            line,
            "info move A1 visits 10 winrate 0.500000 scoreMean 1.00 scoreStdev 2.50 \
             scoreLead 1.00 prior 0.500000 lcb 0.250000 order 0 pv A1 B2 pvVisits 10 7 \
             pvEdgeVisits 10 7 \
             movesOwnership 0.5000 -0.5000 0.0000 1.0000 \
             movesOwnershipStdev 0.8660 0.8660 0.0000 0.0000 \
             rootInfo visits 12 winrate 0.500000 scoreMean 1.00 scoreStdev 3.25 \
             scoreLead 1.00 \
             ownership 0.0000 1.0000 -1.0000 0.5000 \
             ownershipStdev 1.0000 0.0000 0.0000 0.5000"
        );
    }

    #[test]
    fn each_key_prints_alone_and_nothing_unasked() {
        let size = BoardSize::new(2).unwrap();
        let only = |keys: &str| {
            let st = stream(Dialect::Kata, &format!("b 0 maxmoves 1 {keys}")).unwrap();
            st.format(&snapshot(), size).unwrap()
        };
        let plain = only("");
        assert!(plain.ends_with("order 0 pv A1 B2"), "{plain}");
        assert_eq!(only("pvVisits true"), format!("{plain} pvVisits 10 7"));
        assert_eq!(
            only("pvEdgeVisits true"),
            format!("{plain} pvEdgeVisits 10 7")
        );
        assert_eq!(
            only("movesOwnership true"),
            format!("{plain} movesOwnership 0.5000 -0.5000 0.0000 1.0000")
        );
        assert_eq!(
            only("ownershipStdev true"),
            format!("{plain} ownershipStdev 1.0000 0.0000 0.0000 0.5000")
        );
        assert_eq!(only("pvVisits false movesOwnership false"), plain);
        // Only ownershipStdev asked: the board's ownership is counted, not printed.
        let st = stream(Dialect::Kata, "b 0 ownershipStdev true").unwrap();
        assert_eq!(
            st.extras(),
            Extras {
                ownership: true,
                moves_ownership: false
            }
        );
    }

    #[test]
    fn katago_keys_take_a_boolean_and_only_in_kata_analyze() {
        let err = |dialect, line: &str| stream(dialect, line).unwrap_err().to_string();
        assert_eq!(
            err(Dialect::Kata, "b 10 pvVisits maybe"),
            "syntax error: pvVisits is not a boolean: \"maybe\""
        );
        assert_eq!(
            err(Dialect::Kata, "b 10 movesOwnership"),
            "syntax error: missing movesOwnership"
        );
        assert_eq!(
            err(Dialect::Lz, "b 10 pvVisits true"),
            "syntax error: pvVisits is a kata-analyze option (lz-analyze has none of \
             KataGo's keys)"
        );
        assert_eq!(
            err(Dialect::Kata, "b 10 movesOwnershipStdevs true"),
            "syntax error: unknown key \"movesOwnershipStdevs\""
        );
        // KataGo's spelling, and any case.
        assert!(stream(Dialect::Kata, "b 10 PVVISITS 1 pvedgevisits 0").is_ok());
    }
}
