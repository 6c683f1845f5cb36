//! How much each move lost against the engine's preferred move, and the verdict the
//! record's move annotations (`BM`, `DO`, `TE`) and the list of key mistakes give it.
//!
//! A loss is the difference of two searches' win rates, and a search of a few hundred
//! playouts is noisy: the same position searched again with another seed can come out
//! several percent apart. [`Noise`] is a model of that noise, measured; a move is judged
//! only on a loss that the noise alone would hardly make.

use tengen_board::{Color, Move};

use crate::eval::PositionEval;

/// The noise of the search's win rates and how far above it a loss must be to count.
///
/// One evaluation's win rate `w` from `n` playouts is taken to have the standard
/// deviation `scale × √(w(1−w)/n)` (the binomial error of `n` playouts, scaled to the
/// spread measured between two searches of the same positions with other seeds; `w`
/// kept within [`Noise::FLOOR`] of 0 and 1, where the measured spread is still
/// there). A loss is the difference of two evaluations, so its noise is the root of
/// the sum of their squares; a move must lose `multiple` times that to be judged.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Noise {
    /// The measured spread over the binomial one.
    pub scale: f64,
    /// How many standard deviations of the difference of two evaluations a loss must
    /// exceed to make a move doubtful or a mistake.
    pub multiple: f64,
}

impl Noise {
    /// Tengen's own noise, as measured on one 19×19 game (the first of the TYGEM
    /// 9-dan collection `tygem-9d-2011-01.sgf`, 255 moves), reviewed on one thread at
    /// 200 playouts a position with four seeds and at 1 000 with two. Between two
    /// reviews the same position's win rate differs by 6.3% at 200 and 3.1% at 1 000
    /// (root mean square; 7 pairs × 256 positions), 1.48 times the binomial error of
    /// the playouts (1.46 at 200, 1.60 at 1 000): `scale` 1.5. 1% of the differences
    /// exceed 2.69 such scaled deviations (5% exceed 2.0, 0.5% exceed 3.0: a normal
    /// law's tails, a little heavier): `multiple` 2.7, so that noise alone makes a
    /// move lose that much about once in 200 moves.
    pub const MEASURED: Noise = Noise {
        scale: 1.5,
        multiple: 2.7,
    };

    /// No noise: a move is judged on its loss alone (the verdicts before the model).
    pub const NONE: Noise = Noise {
        scale: 0.0,
        multiple: 0.0,
    };

    /// How close to 0 or 1 the win rate in the binomial error is taken to be at most.
    pub const FLOOR: f64 = 0.05;

    /// The standard deviation of an evaluation's win rate.
    pub fn sd(&self, e: &PositionEval) -> f64 {
        self.sd_at(e.winrate, e.visits)
    }

    /// The standard deviation of a win rate `w` found in `visits` playouts.
    pub fn sd_at(&self, w: f64, visits: u64) -> f64 {
        let w = w.clamp(Noise::FLOOR, 1.0 - Noise::FLOOR);
        self.scale * (w * (1.0 - w) / visits.max(1) as f64).sqrt()
    }

    /// The loss a move must exceed between the evaluations `before` and `after` it to
    /// be judged: `multiple` standard deviations of their difference.
    pub fn margin(&self, before: &PositionEval, after: &PositionEval) -> f64 {
        self.multiple * self.sd(before).hypot(self.sd(after))
    }

    /// The margin between two evaluations of `visits` playouts of an even position:
    /// the most noise a loss at that budget is judged against.
    pub fn margin_at(&self, visits: u64) -> f64 {
        let sd = self.sd_at(0.5, visits);
        self.multiple * sd.hypot(sd)
    }

    /// The fewest playouts a position at which [`Noise::margin_at`] is at most
    /// `margin`.
    pub fn playouts_for(&self, margin: f64) -> u64 {
        if margin <= 0.0 {
            return u64::MAX;
        }
        // margin_at(n) = multiple × scale × √(2 × 0.25 / n).
        let k = self.multiple * self.scale;
        (0.5 * k * k / (margin * margin)).ceil().max(1.0) as u64
    }
}

/// How the review judges a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It lost at least the mistake threshold, and more than the search's noise:
    /// `BM[1]`, or `BM[2]` at twice the threshold; listed among the key mistakes.
    Mistake,
    /// It lost at least half the mistake threshold, and more than the search's noise:
    /// `DO`.
    Doubtful,
    /// The engine's preferred move where the next best candidate loses at least the
    /// threshold, and more than the noise: the one good move was found, `TE`.
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
    /// The loss the search's noise could make between its two evaluations (see
    /// [`Noise::margin`]): a smaller loss is not judged.
    pub noise: f64,
    /// The verdict.
    pub verdict: Verdict,
}

impl MoveJudgement {
    /// Judges move `number`, `mv` by `color`, from the evaluations of the positions
    /// before and after it; `threshold` is the mistake threshold, a fraction of win
    /// rate, and `noise` the search's.
    pub fn new(
        number: usize,
        (color, mv): (Color, Move),
        (before, after): (&PositionEval, &PositionEval),
        threshold: f64,
        noise: &Noise,
    ) -> MoveJudgement {
        let loss = before.winrate_for(color) - after.winrate_for(color);
        let points = before.lead_for(color) - after.lead_for(color);
        let margin = noise.margin(before, after);
        let preferred = before.best == mv;
        let verdict = if preferred {
            // The preferred move's "loss" is the noise between two searches.
            let gap = before.runner_up.map(|r| before.winrate - r);
            let needed = threshold.max(margin);
            if before.color == color && gap.is_some_and(|g| g >= needed) {
                Verdict::Good
            } else {
                Verdict::Plain
            }
        } else if loss >= threshold && loss > margin {
            Verdict::Mistake
        } else if loss >= threshold / 2.0 && loss > margin {
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
            noise: margin,
            verdict,
        }
    }

    /// Whether the move played is the engine's preferred one.
    pub fn is_preferred(&self) -> bool {
        self.played == self.preferred
    }
}

/// What to tell the user when evaluations of `visits` playouts are too noisy to judge
/// at the mistake threshold `threshold`: when the noise alone can make an even
/// position's move lose the threshold ([`Noise::margin_at`] above it), so that mistakes
/// between the threshold and the noise go unmarked. `None` when the budget is enough.
pub fn budget_note(noise: &Noise, visits: u64, threshold: f64) -> Option<String> {
    let margin = noise.margin_at(visits);
    if margin <= threshold {
        return None;
    }
    Some(format!(
        "{visits} playouts a position are too few to judge at the {:.0}% mistake threshold: \
         two searches of the same even position can differ by {:.1}% of win rate by noise \
         alone (less where one side is far ahead); only a move that loses more than its \
         positions' noise is marked, so smaller mistakes go unmarked; {} playouts a \
         position or more judge at the threshold.",
        100.0 * threshold,
        // A win rate differs by 100% at most.
        100.0 * margin.min(1.0),
        noise.playouts_for(threshold)
    ))
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
        let j = MoveJudgement::new(7, d4, (&before, &after), 0.10, &Noise::NONE);
        assert!((j.loss - 0.15).abs() < 1e-12);
        assert_eq!(j.verdict, Verdict::Mistake);
        let j = MoveJudgement::new(7, d4, (&before, &after), 0.20, &Noise::NONE);
        assert_eq!(j.verdict, Verdict::Doubtful);
        let j = MoveJudgement::new(7, d4, (&before, &after), 0.40, &Noise::NONE);
        assert_eq!(j.verdict, Verdict::Plain);
        // The preferred move is never a mistake; it is good when the runner-up is
        // far behind.
        let before = eval(Color::Black, "D4", 0.60, Some(0.30));
        let j = MoveJudgement::new(7, d4, (&before, &after), 0.10, &Noise::NONE);
        assert_eq!(j.verdict, Verdict::Good);
        assert!(j.is_preferred());
        let before = eval(Color::Black, "D4", 0.60, Some(0.55));
        let j = MoveJudgement::new(7, d4, (&before, &after), 0.10, &Noise::NONE);
        assert_eq!(j.verdict, Verdict::Plain);
    }

    #[test]
    fn a_loss_within_the_search_s_noise_is_not_judged() {
        let size = BoardSize::new(9).unwrap();
        let d4 = (Color::Black, size.parse_move("D4").unwrap());
        let noise = Noise {
            scale: 1.0,
            multiple: 2.0,
        };
        // Black 60% with C3, 45% after D4: a loss of 15%, from evaluations of `visits`
        // playouts each.
        let judged = |visits: u64, threshold: f64| {
            let mut before = eval(Color::Black, "C3", 0.60, None);
            let mut after = eval(Color::White, "E5", 0.55, None);
            before.visits = visits;
            after.visits = visits;
            MoveJudgement::new(7, d4, (&before, &after), threshold, &noise)
        };
        // At 50 playouts two evaluations differ by σ = √(0.24/50 + 0.2475/50) ≈ 10%:
        // 15% is within two σ, nothing is said.
        let j = judged(50, 0.10);
        assert!((j.noise - 2.0 * (0.0048f64 + 0.00495).sqrt()).abs() < 1e-12);
        assert_eq!(j.verdict, Verdict::Plain);
        // At 400, σ ≈ 3.5%: a mistake; a doubtful move at a threshold of 20%.
        assert_eq!(judged(400, 0.10).verdict, Verdict::Mistake);
        assert_eq!(judged(400, 0.20).verdict, Verdict::Doubtful);
        // Below the threshold nothing is said, however exact the evaluations.
        assert_eq!(judged(1_000_000, 0.40).verdict, Verdict::Plain);
        // The one good move needs a gap beyond the noise too.
        let mut before = eval(Color::Black, "D4", 0.60, Some(0.45));
        before.visits = 20;
        let after = eval(Color::White, "E5", 0.40, None);
        let j = MoveJudgement::new(7, d4, (&before, &after), 0.10, &noise);
        assert_eq!(j.verdict, Verdict::Plain);
        before.visits = 1000;
        let j = MoveJudgement::new(7, d4, (&before, &after), 0.10, &noise);
        assert_eq!(j.verdict, Verdict::Good);
    }

    #[test]
    fn the_noise_shrinks_with_the_playouts() {
        let noise = Noise {
            scale: 1.5,
            multiple: 2.5,
        };
        // An even position: σ of one evaluation is 1.5 × √(0.25/n).
        assert!((noise.sd_at(0.5, 100) - 0.075).abs() < 1e-12);
        // Near 0 and 1 the binomial error is kept at its value at the floor.
        assert_eq!(
            noise.sd_at(0.999, 100),
            noise.sd_at(1.0 - Noise::FLOOR, 100)
        );
        assert_eq!(noise.sd_at(0.0, 100), noise.sd_at(Noise::FLOOR, 100));
        assert!((noise.margin_at(100) - 2.5 * 0.075 * 2f64.sqrt()).abs() < 1e-12);
        assert!(noise.margin_at(1000) < noise.margin_at(200));
        for margin in [0.02, 0.05, 0.1, 0.3] {
            let n = noise.playouts_for(margin);
            assert!(noise.margin_at(n) <= margin + 1e-12, "{margin}: {n}");
            assert!(noise.margin_at(n - 1) > margin, "{margin}: {n}");
        }
        assert_eq!(Noise::NONE.margin_at(10), 0.0);
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
                noise: 0.0,
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
