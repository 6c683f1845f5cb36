//! What the engine found in one position, and how it is kept in the reviewed record
//! (the private property `TGR`, one value a position) so that a review can resume.

use tengen_board::{BoardSize, Color, Move};
use tengen_engine::Analysis;

/// The SGF property that keeps a position's evaluation in the reviewed record, for
/// `--resume`: `TGR[p=12 c=W n=1000 m=D4 w=0.553100 s=-3.25 r=0.412000 pv=D4,C3]`.
/// SGF readers keep properties they do not know, as they keep KaTrain's `KT`.
pub const PROPERTY: &str = "TGR";

/// The longest principal variation kept, in moves.
pub const MAX_PV: usize = 10;

/// The engine's evaluation of one position of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionEval {
    /// The side the search played for: the colour of the record's next move (the side
    /// to move at the end of the game).
    pub color: Color,
    /// Playouts through the root's moves.
    pub visits: u64,
    /// The move the engine prefers (the most visited).
    pub best: Move,
    /// The preferred move's win rate for `color`, in [0, 1]: the position's value.
    pub winrate: f64,
    /// The preferred move's mean score for `color`, in points.
    pub lead: f64,
    /// The win rate for `color` of the second most visited move, if the search looked
    /// at one: how much finding the preferred move mattered.
    pub runner_up: Option<f64>,
    /// The preferred move's principal variation, starting with it, at most
    /// [`MAX_PV`] moves.
    pub pv: Vec<Move>,
}

impl PositionEval {
    /// The evaluation a search's final snapshot gives, or `None` if it has no
    /// candidate move.
    pub fn from_analysis(a: &Analysis) -> Option<PositionEval> {
        let best = a.best()?;
        // A runner-up with a tenth of the best move's visits was looked at enough to
        // say it is worse.
        let runner_up = a
            .moves
            .get(1)
            .filter(|m| m.visits > 0 && m.visits * 10 >= best.visits)
            .map(|m| m.winrate);
        Some(PositionEval {
            color: a.color,
            visits: a.visits,
            best: best.mv,
            winrate: best.winrate.clamp(0.0, 1.0),
            lead: finite_or_zero(best.score_lead),
            runner_up,
            pv: best.pv.iter().copied().take(MAX_PV).collect(),
        })
    }

    /// Black's win rate, in [0, 1].
    pub fn black_winrate(&self) -> f64 {
        match self.color {
            Color::Black => self.winrate,
            Color::White => 1.0 - self.winrate,
        }
    }

    /// Black's score lead in points (negative when White leads).
    pub fn black_lead(&self) -> f64 {
        match self.color {
            Color::Black => self.lead,
            Color::White => -self.lead,
        }
    }

    /// `c`'s win rate, in [0, 1].
    pub fn winrate_for(&self, c: Color) -> f64 {
        if c == self.color {
            self.winrate
        } else {
            1.0 - self.winrate
        }
    }

    /// `c`'s score lead in points.
    pub fn lead_for(&self, c: Color) -> f64 {
        if c == self.color {
            self.lead
        } else {
            -self.lead
        }
    }

    /// The value of the `TGR` property for position `position` (moves played).
    pub fn encode(&self, position: usize, size: BoardSize) -> String {
        let pv: Vec<String> = self
            .pv
            .iter()
            .map(|&m| size.move_vertex(m).to_string())
            .collect();
        let mut text = format!(
            "p={position} c={} n={} m={} w={:.6} s={:.2}",
            self.color.letter(),
            self.visits,
            size.move_vertex(self.best),
            self.winrate,
            self.lead
        );
        if let Some(r) = self.runner_up {
            text.push_str(&format!(" r={r:.6}"));
        }
        text.push_str(&format!(" pv={}", pv.join(",")));
        text
    }

    /// Reads a `TGR` value back: the position number and the evaluation, or `None`
    /// when it is not one this version wrote (it is then analysed again).
    pub fn decode(text: &str, size: BoardSize) -> Option<(usize, PositionEval)> {
        let mut position = None;
        let mut color = None;
        let mut visits = None;
        let mut best = None;
        let mut winrate = None;
        let mut lead = None;
        let mut runner_up = None;
        let mut pv = None;
        for field in text.split_whitespace() {
            let (key, value) = field.split_once('=')?;
            match key {
                "p" => position = Some(value.parse::<usize>().ok()?),
                "c" => {
                    color = Some(match value {
                        "B" => Color::Black,
                        "W" => Color::White,
                        _ => return None,
                    })
                }
                "n" => visits = Some(value.parse::<u64>().ok()?),
                "m" => best = Some(size.parse_move(value).ok()?),
                "w" => winrate = Some(unit(value)?),
                "s" => lead = Some(value.parse::<f64>().ok().filter(|s| s.is_finite())?),
                "r" => runner_up = Some(unit(value)?),
                "pv" => {
                    let moves: Option<Vec<Move>> = value
                        .split(',')
                        .filter(|v| !v.is_empty())
                        .map(|v| size.parse_move(v).ok())
                        .collect();
                    pv = Some(moves?);
                }
                _ => {}
            }
        }
        let eval = PositionEval {
            color: color?,
            visits: visits?,
            best: best?,
            winrate: winrate?,
            lead: lead?,
            runner_up,
            pv: pv.unwrap_or_default(),
        };
        Some((position?, eval))
    }
}

/// A number in [0, 1].
fn unit(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|x| (0.0..=1.0).contains(x))
}

fn finite_or_zero(x: f64) -> f64 {
    if x.is_finite() { x } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_evaluation_reads_back_as_written() {
        let size = BoardSize::new(9).unwrap();
        let eval = PositionEval {
            color: Color::White,
            visits: 1234,
            best: size.parse_move("D4").unwrap(),
            winrate: 0.625,
            lead: -3.25,
            runner_up: Some(0.5),
            pv: vec![
                size.parse_move("D4").unwrap(),
                Move::Pass,
                size.parse_move("J9").unwrap(),
            ],
        };
        let text = eval.encode(17, size);
        assert_eq!(
            text,
            "p=17 c=W n=1234 m=D4 w=0.625000 s=-3.25 r=0.500000 pv=D4,pass,J9"
        );
        assert_eq!(PositionEval::decode(&text, size), Some((17, eval.clone())));
        assert!((eval.black_winrate() - 0.375).abs() < 1e-12);
        assert_eq!(eval.black_lead(), 3.25);
    }

    #[test]
    fn a_damaged_value_is_not_taken_for_an_evaluation() {
        let size = BoardSize::new(9).unwrap();
        for text in [
            "",
            "p=1 c=B n=10 m=D4 w=1.5 s=0 pv=D4",
            "p=1 c=X n=10 m=D4 w=0.5 s=0 pv=D4",
            "p=1 c=B n=10 m=Z99 w=0.5 s=0 pv=D4",
            "p=1 c=B n=10 w=0.5 s=0 pv=D4",
            "p=x c=B n=10 m=D4 w=0.5 s=0 pv=D4",
            "p=1 c=B n=10 m=D4 w=0.5 s=inf pv=D4",
        ] {
            assert_eq!(PositionEval::decode(text, size), None, "{text}");
        }
    }
}
