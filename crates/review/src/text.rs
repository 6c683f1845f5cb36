//! The words and numbers of the review's comments.

use tengen_board::{BoardSize, Color, Move};

use crate::eval::PositionEval;
use crate::judge::{MoveJudgement, Verdict};

/// A colour's name with a capital.
pub(crate) fn name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// A number with at most two decimals and no useless zeros, as Sabaki writes `SBKV`
/// and `SBKS`: `55.23`, `50`, `-0.5`.
pub(crate) fn two_decimals(x: f64) -> String {
    let rounded = (x * 100.0).round() / 100.0;
    // -0 reads as 0.
    let rounded = if rounded == 0.0 { 0.0 } else { rounded };
    let text = format!("{rounded:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `Black 55.2%`: the win rate of the side the position favours, or Black's at 50%.
pub(crate) fn winrate(eval: &PositionEval) -> String {
    let black = eval.black_winrate();
    let (c, w) = if black >= 0.5 {
        (Color::Black, black)
    } else {
        (Color::White, 1.0 - black)
    };
    format!("{} {:.1}%", name(c), 100.0 * w)
}

/// `Black leads by 3.5`, `White leads by 0.5`, `even`.
pub(crate) fn lead(eval: &PositionEval) -> String {
    let black = eval.black_lead();
    if black.abs() < 0.05 {
        "even".to_string()
    } else if black > 0.0 {
        format!("Black leads by {black:.1}")
    } else {
        format!("White leads by {:.1}", -black)
    }
}

/// Moves as GTP vertices, space-separated.
pub(crate) fn line(size: BoardSize, moves: &[Move]) -> String {
    moves
        .iter()
        .map(|&m| size.move_vertex(m).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The comment on a move's node: the position after it, the preferred move and what
/// the move lost against it; where it lost at least half the mistake threshold
/// `threshold` but no more than the search's noise, that it is not judged.
pub(crate) fn move_comment(
    size: BoardSize,
    j: &MoveJudgement,
    (before, after): (&PositionEval, &PositionEval),
    threshold: f64,
) -> String {
    let played = size.move_vertex(j.played);
    let mut text = format!(
        "Tengen: move {}, {} {played}. After it: {}, {}.",
        j.number,
        j.color.letter(),
        winrate(after),
        lead(after)
    );
    if j.is_preferred() {
        text.push_str(&format!("\n{played} is Tengen's preferred move too."));
    } else {
        let pv = line(size, &before.pv);
        text.push_str(&format!(
            "\nTengen prefers {} ({}, {}; the variation shows {pv}).",
            size.move_vertex(j.preferred),
            winrate(before),
            lead(before),
        ));
        if j.loss >= 0.0 {
            text.push_str(&format!(
                "\n{played} loses {:.1}% of win rate and {:.1} points against it.",
                100.0 * j.loss,
                j.points
            ));
            if j.loss >= threshold / 2.0 && j.loss <= j.noise {
                text.push_str(&format!(
                    " Two searches of these positions can differ by {:.1}% by noise alone: \
                     not judged.",
                    100.0 * j.noise.min(1.0)
                ));
            }
        } else {
            // Two searches' estimates: the move played came out better.
            text.push_str(&format!(
                "\n{played} loses nothing against it: {:.1}% of win rate better by the searches.",
                -100.0 * j.loss
            ));
        }
    }
    match j.verdict {
        Verdict::Mistake => text.push_str(" A mistake."),
        Verdict::Doubtful => text.push_str(" Doubtful."),
        Verdict::Good => text.push_str(" The only good move Tengen found."),
        Verdict::Plain => {}
    }
    text
}

/// The comment on the first node of the preferred move's variation.
pub(crate) fn variation_comment(size: BoardSize, before: &PositionEval) -> String {
    format!(
        "Tengen's preferred move, {}: {}, {} ({} playouts).",
        size.move_vertex(before.best),
        winrate(before),
        lead(before),
        before.visits
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_sabaki_writes_them() {
        assert_eq!(two_decimals(55.234), "55.23");
        assert_eq!(two_decimals(50.0), "50");
        assert_eq!(two_decimals(-0.5), "-0.5");
        assert_eq!(two_decimals(-0.001), "0");
        assert_eq!(two_decimals(100.0), "100");
    }
}
