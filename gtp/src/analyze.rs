//! Analysis streams in the Leela Zero and KataGo dialects that Sabaki and Lizzie parse:
//! `lz-analyze`, `kata-analyze` (until the next input line) and `lz-genmove_analyze`,
//! `kata-genmove_analyze` (until the move is chosen, then `play <vertex>`).
//!
//! A line holds one `info` block per candidate, best first:
//! `info move D4 visits 836 winrate 4656 prior 839 lcb 4640 order 0 pv D4 Q16 D16`.
//! The Leela Zero dialect writes win rate, prior and lcb as integers in 1/10000; the
//! KataGo dialect writes them as decimals in [0, 1] (always with a decimal point, so
//! every Sabaki version reads them right) and adds `scoreMean` and `scoreLead`; `pv` is
//! the last key of every block. `rootInfo` and `ownership` (KataGo options) come after
//! all blocks.

use std::fmt::Write as _;
use std::time::Duration;

use tengen_board::{BoardSize, Color, Move};

use crate::args::{Args, parse_int};
use crate::error::{GtpError, quote};
use crate::handlers::play::{commit, think};
use crate::session::{Ctx, Session};
use tengen_engine::{Analysis, Limit, Mode, Report};

type Answer = Result<String, GtpError>;

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
    ownership: bool,
    root_info: bool,
    /// Root moves not to show (`avoid`), or the only ones to show (`allow`).
    avoid: Vec<Move>,
    allow: Option<Vec<Move>>,
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
            match key.to_ascii_lowercase().as_str() {
                "interval" => st.interval_cs = interval(a)?,
                "minmoves" => st.min_moves = a.uint("minmoves")? as usize,
                "maxmoves" => st.max_moves = a.uint("maxmoves")? as usize,
                "ownership" => st.ownership = a.boolean("ownership")?,
                "rootinfo" => st.root_info = a.boolean("rootInfo")?,
                // Accepted and not produced: per-move ownership and PV visit counts.
                "ownershipstdev" | "movesownership" | "pvvisits" | "pvedgevisits" => {
                    a.boolean(key)?;
                }
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

    /// Whether only the final snapshot is printed (an interval of 0).
    pub(crate) fn final_only(&self) -> bool {
        self.interval_cs == 0
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

    /// One output line for a snapshot, or `None` when there is nothing to show yet.
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
                        " winrate {} scoreMean {:.2} scoreLead {:.2} prior {} lcb {}",
                        unit(m.winrate),
                        m.score_lead,
                        m.score_lead,
                        unit(m.prior),
                        unit(m.lcb)
                    );
                }
            }
            let _ = write!(line, " order {order} pv");
            let mut pv = m.pv.clone();
            if pv.first() != Some(&m.mv) {
                pv.insert(0, m.mv);
            }
            for v in pv {
                let _ = write!(line, " {}", size.move_vertex(v));
            }
        }
        if self.dialect == Dialect::Kata && self.root_info {
            if !line.is_empty() {
                line.push(' ');
            }
            let _ = write!(
                line,
                "rootInfo visits {} winrate {} scoreMean {:.2} scoreLead {:.2}",
                a.visits,
                unit(a.winrate),
                a.score_lead,
                a.score_lead
            );
        }
        if self.ownership && a.ownership.len() == size.area() {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str("ownership");
            for o in &a.ownership {
                let _ = write!(line, " {:.4}", o.clamp(-1.0, 1.0));
            }
        }
        (!line.is_empty()).then_some(line)
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

/// Runs an analysis stream until the next input line arrives; with an interval of 0,
/// the final snapshot is its one line.
fn analyze(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>, dialect: Dialect) -> Answer {
    let size = s.game.size();
    let st = Stream::parse(dialect, a, size, s.game.to_move())?;
    ctx.start_stream();
    let signals = ctx.signals;
    let stop = signals.arm_input();
    let mut sink = |an: &Analysis| {
        if let Some(line) = st.format(an, size).filter(|_| !st.final_only()) {
            ctx.stream_line(&line);
        }
    };
    let report = Report {
        interval: st.interval(),
        sink: &mut sink,
        extras: Default::default(),
    };
    let Session { engine, game, .. } = s;
    let last = engine.analyze(game, st.color, Limit::Infinite, stop, st.ownership, report);
    if let Some(line) = st.format(&last, size).filter(|_| st.final_only()) {
        ctx.stream_line(&line);
    }
    Ok(String::new())
}

/// Streams `info` lines while choosing a move (with an interval of 0, one line from
/// the final snapshot), then plays it: `play <vertex>`.
fn genmove_analyze(
    s: &mut Session,
    a: &mut Args<'_>,
    ctx: &mut Ctx<'_>,
    dialect: Dialect,
) -> Answer {
    let st = Stream::parse(dialect, a, s.game.size(), s.game.to_move())?;
    ctx.start_stream();
    let thought = think(s, ctx, st.color, Mode::Normal, Some(&st));
    if let Some(line) = thought
        .last
        .as_ref()
        .and_then(|an| st.format(an, s.game.size()))
        .filter(|_| st.final_only())
    {
        ctx.stream_line(&line);
    }
    let word = commit(s, st.color, &thought);
    Ok(format!("play {word}"))
}

/// `lz-analyze [color] [interval] [key value…]`.
pub(crate) fn lz_analyze(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>) -> Answer {
    analyze(s, a, ctx, Dialect::Lz)
}

/// `kata-analyze [color] [interval] [key value…]`.
pub(crate) fn kata_analyze(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>) -> Answer {
    analyze(s, a, ctx, Dialect::Kata)
}

/// `lz-genmove_analyze [color] [interval] [key value…]`.
pub(crate) fn lz_genmove_analyze(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>) -> Answer {
    genmove_analyze(s, a, ctx, Dialect::Lz)
}

/// `kata-genmove_analyze [color] [interval] [key value…]`.
pub(crate) fn kata_genmove_analyze(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>) -> Answer {
    genmove_analyze(s, a, ctx, Dialect::Kata)
}
