//! How much each move lost against the engine's preferred move, and the verdict the
//! record's move annotations (`BM`, `DO`, `TE`) and the list of key mistakes give it.

use tengen_board::{Color, Move};

use crate::eval::PositionEval;

/// How the review judges a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It lost at least the mistake threshold: `BM[1]`, or `BM[2]` at twice the
    /// threshold; listed among the key mistakes.
    Mistake,
    /// It lost at least half the mistake threshold: `DO`.
    Doubtful,
    /// The engine's preferred move where the next best candidate loses at least the
    /// threshold: the one good move was found, `TE`.
    Good,
    /// Nothing to say.
    Plain,
}

/// The judgement of one move of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveJudgement {
    /// The move's number in the game, from 1.
    pub number: usize,
    /// Who played it.
    pub color: Color,
    /// The move played.
    pub played: Move,
    /// The engine's preferred move in the position before it.
    pub preferred: Move,
    /// The win rate it lost against the preferred move, for the side that played
    /// it, as a fraction (negative when it did better than expected).
    pub loss: f64,
    /// The points of score lead it lost.
    pub points: f64,
    /// The verdict.
    pub verdict: Verdict,
}

impl MoveJudgement {
    /// Judges move `number`, `mv` by `color`, from the evaluations of the positions
    /// before and after it; `threshold` is the mistake threshold, a fraction of win
    /// rate.
    pub fn new(
        number: usize,
        (color, mv): (Color, Move),
        before: &PositionEval,
        after: &PositionEval,
        threshold: f64,
    ) -> MoveJudgement {
        let loss = before.winrate_for(color) - after.winrate_for(color);
        let points = before.lead_for(color) - after.lead_for(color);
        let preferred = before.best == mv;
        let verdict = if preferred {
            // The preferred move's "loss" is the noise between two searches.
            let gap = before.runner_up.map(|r| before.winrate - r);
            if before.color == color && gap.is_some_and(|g| g >= threshold) {
                Verdict::Good
            } else {
                Verdict::Plain
            }
        } else if loss >= threshold {
            Verdict::Mistake
        } else if loss >= threshold / 2.0 {
            Verdict::Doubtful
        } else {
            Verdict::Plain
        };
        MoveJudgement {
            number,
            color,
            played: mv,
            preferred: before.best,
            loss,
            points,
            verdict,
        }
    }

    /// Whether the move played is the engine's preferred one.
    pub fn is_preferred(&self) -> bool {
        self.played == self.preferred
    }
}

/// The key mistakes among `judgements`: the moves judged mistakes, the largest loss
/// first, at most `most`.
pub fn key_mistakes(judgements: &[MoveJudgement], most: usize) -> Vec<&MoveJudgement> {
    let mut mistakes: Vec<&MoveJudgement> = judgements
        .iter()
        .filter(|j| j.verdict == Verdict::Mistake)
        .collect();
    mistakes.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(a.number.cmp(&b.number)));
    mistakes.truncate(most);
    mistakes
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_board::BoardSize;

    fn eval(color: Color, best: &str, winrate: f64, runner_up: Option<f64>) -> PositionEval {
        let size = BoardSize::new(9).unwrap();
        PositionEval {
            color,
            visits: 100,
            best: size.parse_move(best).unwrap(),
            winrate,
            lead: 0.0,
            runner_up,
            pv: Vec::new(),
        }
    }

    #[test]
    fn a_move_is_judged_by_what_it_lost_for_its_player() {
        let size = BoardSize::new(9).unwrap();
        let d4 = (Color::Black, size.parse_move("D4").unwrap());
        // Black 60% with C3; after D4 White has 55%: Black lost 15 points of win rate.
        let before = eval(Color::Black, "C3", 0.60, None);
        let after = eval(Color::White, "E5", 0.55, None);
        let j = MoveJudgement::new(7, d4, &before, &after, 0.10);
        assert!((j.loss - 0.15).abs() < 1e-12);
        assert_eq!(j.verdict, Verdict::Mistake);
        let j = MoveJudgement::new(7, d4, &before, &after, 0.20);
        assert_eq!(j.verdict, Verdict::Doubtful);
        let j = MoveJudgement::new(7, d4, &before, &after, 0.40);
        assert_eq!(j.verdict, Verdict::Plain);
        // The preferred move is never a mistake; it is good when the runner-up is
        // far behind.
        let before = eval(Color::Black, "D4", 0.60, Some(0.30));
        let j = MoveJudgement::new(7, d4, &before, &after, 0.10);
        assert_eq!(j.verdict, Verdict::Good);
        assert!(j.is_preferred());
        let before = eval(Color::Black, "D4", 0.60, Some(0.55));
        let j = MoveJudgement::new(7, d4, &before, &after, 0.10);
        assert_eq!(j.verdict, Verdict::Plain);
    }

    #[test]
    fn the_key_mistakes_are_the_largest_losses() {
        let size = BoardSize::new(9).unwrap();
        let mv = |v: &str| size.parse_move(v).unwrap();
        let judged: Vec<MoveJudgement> = [0.3, 0.05, 0.5, 0.2]
            .iter()
            .enumerate()
            .map(|(i, &loss)| MoveJudgement {
                number: i + 1,
                color: Color::Black,
                played: mv("A1"),
                preferred: mv("B2"),
                loss,
                points: 0.0,
                verdict: if loss >= 0.1 {
                    Verdict::Mistake
                } else {
                    Verdict::Plain
                },
            })
            .collect();
        let key: Vec<usize> = key_mistakes(&judged, 2).iter().map(|j| j.number).collect();
        assert_eq!(key, vec![3, 1]);
    }
}
