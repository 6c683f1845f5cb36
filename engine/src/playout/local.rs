//! The move model in the heavy playout: a move next to the last one, drawn by its
//! learned strength, against the rest of the board as one more choice.
//!
//! The strengths are [`LocalModel`]'s, from a move table fitted without large patterns
//! (`crates/knowledge/data/playouts.txt`; its header gives the command): a candidate on one of
//! the last move's eight neighbours weighs the product of its 3×3 shape's strength,
//! its distance to the last move's (the `previous` group: adjacent or diagonal) and
//! its line's (the `edge` group). The rest of the board weighs `elsewhere` times the
//! table's strength of a far point, once for every other empty point (an own eye next
//! to the last move is neither a candidate nor counted there). A draw that
//! lands on "elsewhere" leaves the move to the next step of the playout.
//!
//! Only the drawn candidate is checked for legality and self-atari; one that fails
//! is struck off and the draw repeated, so a move costs a shape code for each empty
//! neighbour and, usually, one legality check.

use tengen_board::{Board, Color, Point};

use super::{Rng, below};
use tengen_knowledge::LocalModel;
use tengen_knowledge::move_model::features::line_value;

/// The offsets of the eight points around a point, as (column, row).
const NEIGHBOURHOOD: [(isize, isize); 8] = [
    (0, 1),
    (-1, 0),
    (1, 0),
    (0, -1),
    (-1, 1),
    (1, 1),
    (-1, -1),
    (1, -1),
];

/// Draws a move for `c` near `last`, or `None` for "elsewhere" (and when no
/// neighbour qualifies, or every one drawn was refused). `allowed` says whether a
/// candidate may be played (legal, no self-atari); it is asked only of drawn
/// candidates.
pub fn draw(
    model: &LocalModel,
    board: &Board,
    c: Color,
    last: Point,
    elsewhere: f32,
    rng: &mut Rng,
    mut allowed: impl FnMut(&Board, Point) -> bool,
) -> Option<Point> {
    let size = board.size();
    let side = size.get();
    // The last move's coordinates once (a division), its neighbours' by offset.
    let (lx, ly) = size.coords(last);
    let mut points = [last; 8];
    let mut weights = [0.0f32; 8];
    let mut n = 0;
    // Empty neighbours, own eyes included: the rest of the board is the others.
    let mut empty_near = 0;
    for (dx, dy) in NEIGHBOURHOOD {
        let (Some(x), Some(y)) = (lx.checked_add_signed(dx), ly.checked_add_signed(dy)) else {
            continue;
        };
        let Some(q) = size.point(x, y) else { continue };
        if !board.is_empty_point(q) {
            continue;
        }
        empty_near += 1;
        if !board.is_eye(c, q) {
            let line = usize::from(line_value(side, x, y));
            points[n] = q;
            weights[n] = model.strength(board, c, q, line, dx != 0 && dy != 0);
            n += 1;
        }
    }
    let others = board.empty_points().len().saturating_sub(empty_near);
    let rest = elsewhere * model.far() * others as f32;
    while n > 0 {
        // Summed afresh after each strike-off, so no rounding builds up.
        let total: f32 = weights[..n].iter().sum::<f32>() + rest;
        if total <= 0.0 {
            return None;
        }
        // A draw in [0, total): 24 random bits are all an f32 holds.
        let mut r = below(rng, 1 << 24) as f32 / (1 << 24) as f32 * total;
        let k = match weights[..n].iter().position(|&w| {
            r -= w;
            r < 0.0
        }) {
            Some(k) => k,
            // Past the last candidate: the rest of the board, unless it weighs
            // nothing and rounding carried the draw past the end.
            None if rest > 0.0 => return None,
            None => n - 1,
        };
        if allowed(board, points[k]) {
            return Some(points[k]);
        }
        n -= 1;
        points.swap(k, n);
        weights.swap(k, n);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use tengen_board::parse_diagram;

    /// How often each outcome of `draw` comes up in 4 000 draws for Black after
    /// `last`, with `refused` not allowed.
    fn tally(
        board: &Board,
        last: Point,
        refused: Point,
        elsewhere: f32,
    ) -> std::collections::HashMap<String, u32> {
        let m = LocalModel::shipped();
        let mut rng = Rng::seed_from_u64(7);
        let mut out = std::collections::HashMap::new();
        for _ in 0..4000 {
            let drawn = draw(
                &m,
                board,
                Color::Black,
                last,
                elsewhere,
                &mut rng,
                |_, p| p != refused,
            );
            let key = drawn.map_or("elsewhere".to_string(), |p| {
                board.size().vertex(p).to_string()
            });
            *out.entry(key).or_insert(0) += 1;
        }
        out
    }

    #[test]
    fn draws_neighbours_by_strength_and_never_a_refused_one() {
        // White's last move D3 under Black's D4: Black's candidates are D3's empty
        // neighbours; E4, between D4 and White's E5 and F4, is refused below.
        let b = parse_diagram(
            ". . . . . . .
             . . . . . . .
             . . . . O . .
             . . . X . O .
             . . . O . . .
             . . . . . . .
             . . . . . . .",
        )
        .unwrap();
        let size = b.size();
        let last = size.parse_point("D3").unwrap();
        let refused = size.parse_point("E4").unwrap();
        let t = tally(&b, last, refused, 1.0);
        assert!(t.get("elsewhere").copied().unwrap_or(0) > 0, "{t:?}");
        assert_eq!(t.get("E4"), None, "{t:?}");
        // Without "elsewhere" every draw is local, and each candidate comes up in
        // proportion to its strength.
        let t = tally(&b, last, refused, 0.0);
        assert_eq!(t.get("elsewhere"), None, "{t:?}");
        let m = LocalModel::shipped();
        let (lx, ly) = size.coords(last);
        let candidates: Vec<(String, f32)> = size
            .neighbours(last)
            .into_iter()
            .chain(size.diagonals(last))
            .filter(|&q| b.is_empty_point(q) && q != refused)
            .map(|q| {
                let (x, y) = size.coords(q);
                let line = usize::from(line_value(7, x, y));
                let w = m.strength(&b, Color::Black, q, line, x != lx && y != ly);
                (size.vertex(q).to_string(), w)
            })
            .collect();
        assert_eq!(candidates.len(), 6);
        let total: f32 = candidates.iter().map(|c| c.1).sum();
        for (name, w) in &candidates {
            let share = f64::from(t.get(name).copied().unwrap_or(0)) / 4000.0;
            let expected = f64::from(w / total);
            assert!(
                (share - expected).abs() < 0.03,
                "{name}: {share} against {expected}: {t:?}"
            );
        }
    }

    #[test]
    fn a_refused_candidate_is_struck_off() {
        // Every neighbour of the last move but one is refused: that one comes up
        // whenever the draw is local.
        let b = Board::new(tengen_board::BoardSize::new(9).unwrap());
        let m = LocalModel::shipped();
        let size = b.size();
        let last = size.parse_point("E5").unwrap();
        let only = size.parse_point("E6").unwrap();
        let mut rng = Rng::seed_from_u64(3);
        for _ in 0..500 {
            let got = draw(&m, &b, Color::Black, last, 0.0, &mut rng, |_, p| p == only);
            assert_eq!(got, Some(only));
        }
        let none = draw(&m, &b, Color::Black, last, 0.0, &mut rng, |_, _| false);
        assert_eq!(none, None);
    }
}
