//! One lost game diagnosed: its positions every N moves evaluated from the loser's
//! side, the first below the threshold, the largest drop, and the drop's kind.

use serde::Serialize;
use tengen_board::{BoardSize, Color, Point};

use crate::error::DiagnoseError;
use crate::eval::{Evaluator, Ownership};
use crate::kind::{Kind, KindRules, classify};
use crate::phase::Phase;
use crate::record::MatchGame;

/// How a diagnosis is made.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Moves between evaluated positions; `None` for the board's default
    /// ([`default_every`]).
    pub every: Option<usize>,
    /// A win rate below this is a lost position, in [0, 1].
    pub threshold: f64,
    /// The thresholds of the kinds' rules.
    pub rules: KindRules,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            every: None,
            threshold: 0.35,
            rules: KindRules::default(),
        }
    }
}

/// The default moves between evaluated positions: 25 on boards larger than 15×15,
/// 20 on smaller ones (and 10 below 11×11).
pub fn default_every(size: BoardSize) -> usize {
    match size.get() {
        0..=10 => 10,
        11..=15 => 20,
        _ => 25,
    }
}

/// The positions evaluated in a game of `moves` moves: every `every` moves, and the
/// last position.
pub fn positions(moves: usize, every: usize) -> Vec<usize> {
    let every = every.max(1);
    let mut out: Vec<usize> = (1..)
        .map(|k| k * every)
        .take_while(|&p| p < moves)
        .collect();
    out.push(moves);
    out
}

/// One evaluated position.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PositionRow {
    /// Moves played.
    pub moves: usize,
    /// The phase of the game.
    pub phase: Phase,
    /// Tengen's win rate for the loser.
    pub tengen: f64,
    /// Tengen's score lead for the loser, in points.
    pub lead: Option<f64>,
    /// The referee's win rate for the loser, when a referee evaluated.
    pub referee: Option<f64>,
}

/// The largest fall in one evaluator's win rate between two evaluated positions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Drop {
    /// Moves played at the position before it.
    pub from: usize,
    /// Moves played at the position after it.
    pub to: usize,
    /// The loser's win rate before.
    pub before: f64,
    /// The loser's win rate after.
    pub after: f64,
    /// The phase of the position after it.
    pub phase: Phase,
}

/// A position: its moves and phase.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Crossing {
    /// Moves played.
    pub moves: usize,
    /// Its phase.
    pub phase: Phase,
}

/// What the kind rules found in the largest drop by Tengen's win rate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KindReport {
    /// The kind.
    pub kind: Kind,
    /// The loser's stones involved (GTP vertices).
    pub stones: Vec<String>,
    /// The winner's chain involved (GTP vertices).
    pub opponent: Vec<String>,
    /// The move the finding starts at, if it has one.
    pub key_move: Option<usize>,
    /// Points the ownership moved towards the winner across the drop.
    pub swing: f64,
    /// The drop's moves, `B D4` style, numbered from `from + 1`.
    pub moves: Vec<String>,
}

/// One lost game, diagnosed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameDiagnosis {
    /// The record's name.
    pub game: String,
    /// The board size.
    pub size: usize,
    /// The studied engine's colour: `B` or `W`.
    pub color: String,
    /// The result as recorded.
    pub result: String,
    /// Moves in the game.
    pub moves: usize,
    /// The evaluated positions.
    pub positions: Vec<PositionRow>,
    /// The first position Tengen's win rate puts below the threshold.
    pub first_below: Option<Crossing>,
    /// The first position the referee's win rate puts below the threshold.
    pub first_below_referee: Option<Crossing>,
    /// The largest drop by Tengen's win rate.
    pub largest_drop: Option<Drop>,
    /// The largest drop by the referee's win rate.
    pub largest_drop_referee: Option<Drop>,
    /// The kind of the largest drop by Tengen (whose ownership the rules read).
    pub kind: Option<KindReport>,
}

/// Diagnoses `game`, lost by `side`: its positions evaluated by `tengen` (which must
/// give ownership) and, if given, `referee`.
pub fn diagnose_game(
    game: &MatchGame,
    side: Color,
    tengen: &mut dyn Evaluator,
    mut referee: Option<&mut dyn Evaluator>,
    settings: &Settings,
) -> Result<GameDiagnosis, DiagnoseError> {
    let size = game.size();
    let all = game.moves();
    let every = settings.every.unwrap_or_else(|| default_every(size));
    tengen.new_game();
    if let Some(r) = referee.as_deref_mut() {
        r.new_game();
    }
    let mut rows = Vec::new();
    let mut maps: Vec<Ownership> = Vec::new();
    for p in positions(all.len(), every) {
        let position = game.position(p);
        let t = tengen.evaluate(&position, side)?;
        let map = t.ownership.ok_or_else(|| {
            DiagnoseError::Evaluation(format!("no ownership for move {p} of {}", game.name))
        })?;
        let r = match referee.as_deref_mut() {
            Some(r) => Some(
                r.evaluate(&position, side)
                    .map_err(|e| DiagnoseError::Evaluation(format!("move {p}: {e}")))?
                    .winrate,
            ),
            None => None,
        };
        rows.push(PositionRow {
            moves: p,
            phase: Phase::of_game(&position),
            tengen: t.winrate,
            lead: t.lead,
            referee: r,
        });
        maps.push(map);
    }
    let tengen_rates: Vec<f64> = rows.iter().map(|r| r.tengen).collect();
    let referee_rates: Option<Vec<f64>> = rows.iter().map(|r| r.referee).collect();
    let drop_at = largest_drop(&tengen_rates);
    let kind = drop_at.map(|i| {
        let (from, to) = (rows[i - 1].moves, rows[i].moves);
        let start = game.position(from);
        let window = &all[from..to];
        let last = maps.last().expect("a position was evaluated");
        let f = classify(
            &start,
            window,
            side,
            [&maps[i - 1], &maps[i], last],
            &settings.rules,
        );
        KindReport {
            kind: f.kind,
            stones: vertices(size, &f.stones),
            opponent: vertices(size, &f.opponent),
            key_move: f.key_move,
            swing: f.swing,
            moves: window
                .iter()
                .map(|&(c, m)| format!("{} {}", c.letter(), size.move_vertex(m)))
                .collect(),
        }
    });
    Ok(GameDiagnosis {
        game: game.name.clone(),
        size: size.get(),
        color: side.letter().to_string(),
        result: game.result.clone(),
        moves: all.len(),
        first_below: first_below(&rows, &tengen_rates, settings.threshold),
        first_below_referee: referee_rates
            .as_ref()
            .and_then(|r| first_below(&rows, r, settings.threshold)),
        largest_drop: drop_at.map(|i| drop_report(&rows, &tengen_rates, i)),
        largest_drop_referee: referee_rates
            .as_ref()
            .and_then(|r| largest_drop(r).map(|i| drop_report(&rows, r, i))),
        kind,
        positions: rows,
    })
}

/// The index `i` (from 1) whose fall from `rates[i - 1]` is the largest positive one.
fn largest_drop(rates: &[f64]) -> Option<usize> {
    (1..rates.len())
        .filter(|&i| rates[i] < rates[i - 1])
        .max_by(|&i, &j| (rates[i - 1] - rates[i]).total_cmp(&(rates[j - 1] - rates[j])))
}

fn drop_report(rows: &[PositionRow], rates: &[f64], i: usize) -> Drop {
    Drop {
        from: rows[i - 1].moves,
        to: rows[i].moves,
        before: rates[i - 1],
        after: rates[i],
        phase: rows[i].phase,
    }
}

fn first_below(rows: &[PositionRow], rates: &[f64], threshold: f64) -> Option<Crossing> {
    rates.iter().position(|&w| w < threshold).map(|i| Crossing {
        moves: rows[i].moves,
        phase: rows[i].phase,
    })
}

fn vertices(size: BoardSize, points: &[Point]) -> Vec<String> {
    points.iter().map(|&p| size.vertex(p).to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_step_by_the_interval_and_end_with_the_game() {
        assert_eq!(positions(65, 20), vec![20, 40, 60, 65]);
        assert_eq!(positions(60, 20), vec![20, 40, 60]);
        assert_eq!(positions(7, 20), vec![7]);
        assert_eq!(default_every(BoardSize::new(13).unwrap()), 20);
        assert_eq!(default_every(BoardSize::NINETEEN), 25);
    }

    #[test]
    fn the_largest_drop_is_the_largest_fall() {
        assert_eq!(largest_drop(&[0.5, 0.45, 0.2, 0.25, 0.1]), Some(2));
        assert_eq!(largest_drop(&[0.2, 0.3]), None);
        assert_eq!(largest_drop(&[0.2]), None);
    }
}
