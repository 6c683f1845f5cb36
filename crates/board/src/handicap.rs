//! GTP's fixed handicap placement (`fixed_handicap`), for every size it covers.
//!
//! The star points are on the 3rd line below 13×13 and on the 4th from 13×13; the
//! middle lines are used only on odd sizes from 9×9; at most 9 stones on odd sizes from
//! 9×9, at most 4 on even sizes and 7×7, none below 7×7 (GTP spec, GoGui, Fuego).

use std::fmt;

use crate::point::{BoardSize, Point};

/// The handicap cannot be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandicapError {
    /// The number of stones is outside 2..=max for this size.
    InvalidCount {
        /// Stones asked for.
        asked: u32,
        /// Most stones this size allows (0: none).
        max: u32,
    },
    /// Handicap goes on an empty board only.
    BoardNotEmpty,
    /// A free handicap list repeats a point, or has fewer than 2 points.
    BadList,
}

impl fmt::Display for HandicapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandicapError::InvalidCount { asked, max } => {
                write!(
                    f,
                    "invalid number of stones: {asked} (this board takes 2..={max})"
                )
            }
            HandicapError::BoardNotEmpty => f.write_str("board not empty"),
            HandicapError::BadList => f.write_str("bad vertex list"),
        }
    }
}

impl std::error::Error for HandicapError {}

/// The most fixed handicap stones a size takes.
pub fn max_fixed_handicap(size: BoardSize) -> u32 {
    match size.get() {
        n if n < 7 => 0,
        7 => 4,
        n if n % 2 == 0 => 4,
        _ => 9,
    }
}

/// The star points for `count` handicap stones, in the GTP specification's order.
pub fn fixed_handicap(size: BoardSize, count: u32) -> Result<Vec<Point>, HandicapError> {
    let max = max_fixed_handicap(size);
    if count < 2 || count > max {
        return Err(HandicapError::InvalidCount { asked: count, max });
    }
    let n = size.get();
    let lo = if n >= 13 { 3 } else { 2 };
    let hi = n - 1 - lo;
    let mid = n / 2;
    let corners = [(lo, lo), (hi, hi), (lo, hi), (hi, lo)];
    let mut coords: Vec<(usize, usize)> = corners[..count.min(4) as usize].to_vec();
    if count >= 6 {
        coords.extend([(lo, mid), (hi, mid)]);
    }
    if count >= 8 {
        coords.extend([(mid, lo), (mid, hi)]);
    }
    if count % 2 == 1 && count >= 5 {
        coords.push((mid, mid));
    }
    Ok(coords
        .into_iter()
        .map(|(x, y)| size.point(x, y).expect("star points are on the board"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: u32, k: u32) -> Vec<String> {
        let s = BoardSize::new(n).unwrap();
        let mut v: Vec<String> = fixed_handicap(s, k)
            .unwrap()
            .into_iter()
            .map(|p| s.vertex(p).to_string())
            .collect();
        v.sort();
        v
    }

    fn sorted(v: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn matches_the_spec_tables() {
        assert_eq!(names(19, 2), sorted(&["D4", "Q16"]));
        assert_eq!(names(19, 3), sorted(&["D4", "Q16", "D16"]));
        assert_eq!(names(19, 5), sorted(&["D4", "Q16", "D16", "Q4", "K10"]));
        assert_eq!(
            names(19, 6),
            sorted(&["D4", "Q16", "D16", "Q4", "D10", "Q10"])
        );
        assert_eq!(
            names(19, 8),
            sorted(&["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16"])
        );
        assert_eq!(
            names(9, 9),
            sorted(&["C7", "E7", "G7", "C5", "E5", "G5", "C3", "E3", "G3"])
        );
        assert_eq!(names(13, 5), sorted(&["D10", "K10", "G7", "D4", "K4"]));
        assert_eq!(names(10, 4), sorted(&["C8", "H8", "C3", "H3"]));
        assert_eq!(
            names(25, 9),
            sorted(&["D4", "N4", "W4", "D13", "N13", "W13", "D22", "N22", "W22"])
        );
        let s7 = BoardSize::new(7).unwrap();
        assert_eq!(fixed_handicap(s7, 4).unwrap().len(), 4);
        assert!(fixed_handicap(s7, 5).is_err());
        assert!(fixed_handicap(BoardSize::new(6).unwrap(), 2).is_err());
        assert!(fixed_handicap(BoardSize::new(19).unwrap(), 1).is_err());
        assert!(fixed_handicap(BoardSize::new(19).unwrap(), 10).is_err());
        assert!(fixed_handicap(BoardSize::new(12).unwrap(), 5).is_err());
    }
}
