//! Where `place_free_handicap` puts its stones: the fixed star points while they
//! last, then points spread as far as possible from the stones already placed.

use tengen_board::{BoardSize, Point, fixed_handicap, max_fixed_handicap};

/// `count` distinct points for Black's free handicap (`2 <= count < area`, checked by
/// the caller).
pub(crate) fn free_handicap(size: BoardSize, count: usize) -> Vec<Point> {
    let max_fixed = max_fixed_handicap(size) as usize;
    let mut chosen: Vec<Point> = if count <= max_fixed {
        return fixed_handicap(size, count as u32).unwrap_or_default();
    } else if max_fixed >= 2 {
        fixed_handicap(size, max_fixed as u32).unwrap_or_default()
    } else {
        Vec::new()
    };
    let n = size.get();
    let line = if n >= 13 {
        3
    } else if n >= 7 {
        2
    } else {
        n.saturating_sub(1) / 2
    };
    let points: Vec<Point> = size.points().collect();
    // Squared distance from every point to the nearest chosen stone.
    let mut dist = vec![usize::MAX; points.len()];
    let d2 = |a: Point, b: Point| {
        let (ax, ay) = size.coords(a);
        let (bx, by) = size.coords(b);
        ax.abs_diff(bx).pow(2) + ay.abs_diff(by).pow(2)
    };
    for &c in &chosen {
        for (i, &p) in points.iter().enumerate() {
            dist[i] = dist[i].min(d2(p, c));
        }
    }
    // How far a point is from the preferred line (3rd or 4th), to break ties.
    let off_line = |p: Point| {
        let (x, y) = size.coords(p);
        let ex = x.min(n - 1 - x);
        let ey = y.min(n - 1 - y);
        ex.abs_diff(line) + ey.abs_diff(line)
    };
    while chosen.len() < count {
        let best = points
            .iter()
            .enumerate()
            .filter(|&(i, _)| dist[i] > 0)
            .max_by_key(|&(i, &p)| {
                (
                    dist[i],
                    std::cmp::Reverse(off_line(p)),
                    std::cmp::Reverse(i),
                )
            })
            .map(|(_, &p)| p);
        let Some(p) = best else { break };
        chosen.push(p);
        for (i, &q) in points.iter().enumerate() {
            dist[i] = dist[i].min(d2(q, p));
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreads_distinct_points_on_every_size() {
        for n in 2..=25u32 {
            let size = BoardSize::new(n).unwrap();
            for count in [2, 3, 5, 9, 10, size.area() - 1] {
                if count >= size.area() {
                    continue;
                }
                let pts = free_handicap(size, count);
                assert_eq!(pts.len(), count, "{n} {count}");
                let set: std::collections::HashSet<_> = pts.iter().collect();
                assert_eq!(set.len(), count);
            }
        }
        let s = BoardSize::new(19).unwrap();
        let v: Vec<String> = free_handicap(s, 2)
            .iter()
            .map(|&p| s.vertex(p).to_string())
            .collect();
        assert_eq!(v, ["D4", "Q16"]);
    }
}
