//! The features of a candidate move for the move model (Coulom 2007): tactical facts
//! about the move, its distances, its 3×3 shape and its large patterns.
//!
//! Each tactical group gives every candidate exactly one value (0 is "none", "far" or
//! "left out", see [`LeftOut`]):
//! a candidate's team is one feature from each group.

use tengen_board::{Board, Color, Move, Point};

pub use super::groups::{GROUPS, TACTICAL};
use super::left_out::LeftOut;
use super::pattern::{PATTERNS, PatternHasher};
use crate::shape::shape_code;
use crate::tactics::escape_works;

/// Values of the `pass` group: not a pass, a pass, a pass answering a pass.
pub mod pass {
    /// A pass.
    pub const PASS: u8 = 1;
    /// A pass after the opponent passed.
    pub const AFTER_PASS: u8 = 2;
}

/// Values of the `capture` group, the first that applies.
pub mod capture {
    /// Takes the group the last move made, which put a group of ours in atari.
    pub const LAST_MOVE_ATARI: u8 = 1;
    /// Takes a group next to a group of ours in atari (saving it).
    pub const SAVES: u8 = 2;
    /// Takes one stone and leaves our stone in atari: a ko.
    pub const KO: u8 = 3;
    /// Takes a group that could have connected to another of its groups here.
    pub const COULD_CONNECT: u8 = 4;
    /// Takes one or two stones otherwise.
    pub const SMALL: u8 = 5;
    /// Takes three or more otherwise.
    pub const LARGE: u8 = 6;
}

/// Values of the `escape` group: extending a group of ours in atari.
pub mod escape {
    /// To safety: three liberties, or two and no ladder.
    pub const WORKS: u8 = 1;
    /// To two liberties and a ladder that captures it.
    pub const LADDER: u8 = 2;
    /// Still in atari.
    pub const FAILS: u8 = 3;
}

/// Values of the `atari` group.
pub mod atari {
    /// An atari the opponent can escape.
    pub const PLAIN: u8 = 1;
    /// An atari whose group a ladder captures.
    pub const LADDER: u8 = 2;
    /// An atari while a ko is on the board (a ko threat).
    pub const KO: u8 = 3;
}

/// The shape of a candidate that has none: a pass, or a move whose shape is left out.
pub const NO_SHAPE: u32 = u32::MAX;

/// A candidate's features before they are looked up in a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawFeatures {
    /// The move.
    pub mv: Move,
    /// One value for each of [`GROUPS`].
    pub tactical: [u8; TACTICAL],
    /// The raw 3×3 shape code ([`shape_code`]); [`NO_SHAPE`] for a pass or when the
    /// shape is left out.
    pub shape: u32,
    /// The large pattern hashes, smallest neighbourhood first; zeros for a pass.
    pub patterns: [u64; PATTERNS],
}

/// Where the game stands before the move: the two previous moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct History {
    /// The opponent's last move.
    pub last: Option<Move>,
    /// Our own move before it.
    pub before: Option<Move>,
}

/// Coulom's distance bucket: 0 for no move (or a pass), `d - 1` for distance
/// `d = dx + dy + max(dx, dy)` up to 16, 16 beyond.
fn distance_value(board: &Board, m: Option<Move>, p: Point) -> u8 {
    let Some(Move::Play(q)) = m else { return 0 };
    let size = board.size();
    let (px, py) = size.coords(p);
    let (qx, qy) = size.coords(q);
    let (dx, dy) = (px.abs_diff(qx), py.abs_diff(qy));
    (dx + dy + dx.max(dy)).clamp(2, 17) as u8 - 1
}

/// The line of `p` from 1 (the edge), as value 0..=5 (6 and more is 5).
fn edge_value(board: &Board, p: Point) -> u8 {
    let (x, y) = board.size().coords(p);
    line_value(board.size().get(), x, y)
}

/// The `edge` value of the point at column `x`, row `y` of a board of side `side`.
#[inline]
pub fn line_value(side: usize, x: usize, y: usize) -> u8 {
    x.min(y).min(side - 1 - x).min(side - 1 - y).min(5) as u8
}

/// Whether the group on `g` touches a group of `c` in atari.
fn touches_atari(board: &Board, g: Point, c: Color) -> bool {
    let size = board.size();
    board.group_stones(g).any(|s| {
        size.neighbours(s)
            .into_iter()
            .any(|n| board.color_at(n) == Some(c) && board.liberties(n) == 1)
    })
}

fn capture_value(board: &Board, c: Color, p: Point, history: &History) -> u8 {
    let size = board.size();
    let opp = c.opponent();
    let neighbours = size.neighbours(p);
    let mut best = 0u8;
    let mut taken = 0;
    let mut groups = [None; 4];
    for (i, &n) in neighbours.iter().enumerate() {
        if board.color_at(n) != Some(opp) || board.liberties(n) != 1 {
            continue;
        }
        let g = board.group(n);
        if groups[..i].contains(&g) {
            continue;
        }
        groups[i] = g;
        taken += board.group_size(n);
        let last_group = match history.last {
            Some(Move::Play(l)) => board.color_at(l).is_some() && board.group(l) == g,
            _ => false,
        };
        let saves = touches_atari(board, n, c);
        // Another opponent group next to `p` that this one could have joined.
        let could_connect = neighbours.iter().any(|&m| {
            board.color_at(m) == Some(opp) && board.group(m) != g && board.liberties(m) > 1
        });
        let v = if last_group && saves {
            capture::LAST_MOVE_ATARI
        } else if saves {
            capture::SAVES
        } else if could_connect {
            capture::COULD_CONNECT
        } else {
            0
        };
        if v != 0 && (best == 0 || v < best) {
            best = v;
        }
    }
    if taken == 0 {
        return 0;
    }
    if best == capture::LAST_MOVE_ATARI || best == capture::SAVES {
        return best;
    }
    if taken == 1 && board.liberties_after(c, p, 2) == 1 {
        return capture::KO;
    }
    if best != 0 {
        return best;
    }
    if taken <= 2 {
        capture::SMALL
    } else {
        capture::LARGE
    }
}

fn escape_value(board: &Board, c: Color, p: Point) -> u8 {
    let in_atari = board
        .size()
        .neighbours(p)
        .into_iter()
        .any(|n| board.color_at(n) == Some(c) && board.liberties(n) == 1);
    if !in_atari {
        return 0;
    }
    match board.liberties_after(c, p, 3) {
        0 | 1 => escape::FAILS,
        2 if !escape_works(board, c, p) => escape::LADDER,
        _ => escape::WORKS,
    }
}

fn atari_value(board: &Board, c: Color, p: Point) -> u8 {
    let opp = c.opponent();
    let targets: Vec<Point> = board
        .size()
        .neighbours(p)
        .into_iter()
        .filter(|&n| board.color_at(n) == Some(opp) && board.liberties(n) == 2)
        .collect();
    if targets.is_empty() {
        return 0;
    }
    if board.ko().is_some() {
        return atari::KO;
    }
    if board.liberties_after(c, p, 2) < 2 {
        // Our stone can be taken at once: no ladder.
        return atari::PLAIN;
    }
    let mut after = board.clone();
    after.play_unchecked(c, Move::Play(p));
    let ladder = targets.iter().any(|&t| {
        after.color_at(t) == Some(opp)
            && after
                .atari_liberty(t)
                .is_some_and(|lib| !escape_works(&after, opp, lib))
    });
    if ladder { atari::LADDER } else { atari::PLAIN }
}

fn self_atari_value(board: &Board, c: Color, p: Point) -> u8 {
    match board.self_atari_size(c, p) {
        None => 0,
        Some(1) => 1,
        Some(2) => 2,
        Some(3..=5) => 3,
        Some(_) => 4,
    }
}

/// The features of a move by `c` at the empty, legal point `p`; the groups in
/// `left_out` are not computed (their values are 0, the shape [`NO_SHAPE`], the
/// pattern hashes 0).
pub fn point_features(
    board: &Board,
    hasher: &PatternHasher,
    c: Color,
    p: Point,
    history: &History,
    left_out: LeftOut,
) -> RawFeatures {
    let mut tactical = [0; TACTICAL];
    // By the index of `GROUPS`; the pass group (0) is 0 for every point.
    for (k, value) in tactical.iter_mut().enumerate().skip(1) {
        if left_out.tactical(k) {
            continue;
        }
        *value = match k {
            1 => capture_value(board, c, p, history),
            2 => escape_value(board, c, p),
            3 => atari_value(board, c, p),
            4 => self_atari_value(board, c, p),
            5 => distance_value(board, history.last, p),
            6 => distance_value(board, history.before, p),
            _ => edge_value(board, p),
        };
    }
    RawFeatures {
        mv: Move::Play(p),
        tactical,
        shape: if left_out.shape() {
            NO_SHAPE
        } else {
            shape_code(board, c, p)
        },
        patterns: if left_out.large_patterns() {
            [0; PATTERNS]
        } else {
            hasher.hashes(board, c, p)
        },
    }
}

/// The features of a pass.
pub fn pass_features(history: &History) -> RawFeatures {
    let mut tactical = [0; TACTICAL];
    tactical[0] = if history.last == Some(Move::Pass) {
        pass::AFTER_PASS
    } else {
        pass::PASS
    };
    RawFeatures {
        mv: Move::Pass,
        tactical,
        shape: NO_SHAPE,
        patterns: [0; PATTERNS],
    }
}

/// Every candidate of a position: each legal point (simple ko forbidden) and a pass,
/// in the board's order of empty points, the pass last, without the groups in
/// `left_out`. `out` is cleared first.
pub fn candidates(
    board: &Board,
    hasher: &PatternHasher,
    c: Color,
    history: &History,
    left_out: LeftOut,
    out: &mut Vec<RawFeatures>,
) {
    out.clear();
    for &p in board.empty_points() {
        if board.check(c, p).is_ok() {
            out.push(point_features(board, hasher, c, p, history, left_out));
        }
    }
    out.push(pass_features(history));
}

/// A 5×5 board where Black's C3 and White's B3 are each in atari (C2 and B2 are
/// their last liberties) and A4 is a self-atari for White: the tactical features'
/// shared test position.
#[cfg(test)]
pub(crate) fn two_ataris() -> Board {
    tengen_board::parse_diagram(
        ". . . . .
         . X O . .
         X O X O .
         . . . . .
         . . . . .",
    )
    .expect("a valid diagram")
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_board::parse_diagram;

    fn features(diagram: &str, c: Color, v: &str, last: Option<&str>) -> [u8; TACTICAL] {
        let b = parse_diagram(diagram).unwrap();
        let size = b.size();
        let history = History {
            last: last.map(|l| Move::Play(size.parse_point(l).unwrap())),
            before: None,
        };
        point_features(
            &b,
            &PatternHasher::new(),
            c,
            size.parse_point(v).unwrap(),
            &history,
            LeftOut::NOTHING,
        )
        .tactical
    }

    #[test]
    fn captures_are_told_apart() {
        let lone = ". . . . . . .
                    . . . . . . .
                    . . . . . . .
                    . . X . . . .
                    . X O . . . .
                    . . X . . . .
                    . . . . . . .";
        assert_eq!(features(lone, Color::Black, "D3", None)[1], capture::SMALL);
        assert_eq!(features(lone, Color::Black, "E3", None)[1], 0);
        // Black C3 is in atari next to White B3, itself in atari at B2.
        let fight = ". . . . .
                     . X O . .
                     X O X O .
                     . . . . .
                     . . . . .";
        assert_eq!(
            features(fight, Color::Black, "B2", Some("D3"))[1],
            capture::SAVES
        );
        assert_eq!(
            features(fight, Color::Black, "B2", Some("B3"))[1],
            capture::LAST_MOVE_ATARI
        );
        // Extending C3 at C2 gives it three liberties.
        assert_eq!(features(fight, Color::Black, "C2", None)[2], escape::WORKS);
        let ko = ". . . . .
                  . X O . .
                  X O . O .
                  . X O . .
                  . . . . .";
        assert_eq!(features(ko, Color::Black, "C3", None)[1], capture::KO);
    }

    #[test]
    fn ladders_decide_ataris_and_escapes() {
        let ladder = ". . . . . . . . .
                      . . . . . . . . .
                      . . . . . . . . .
                      . . . . . . . . .
                      . . . X . . . . .
                      . . X O . . . . .
                      . . . . X . . . .
                      . . . . . . . . .
                      . . . . . . . . .";
        assert_eq!(features(ladder, Color::Black, "D3", None)[3], atari::LADDER);
        // With a White stone on F4 the escape at E4 joins it: a plain atari.
        let joined = ladder.replacen(". . X O . . . . .", ". . X O . O . . .", 1);
        assert_eq!(features(&joined, Color::Black, "D3", None)[3], atari::PLAIN);
        // After the atari, White's extension runs into the ladder.
        let atari = ladder.replacen(". . . . X . . . .", ". . . X X . . . .", 1);
        assert_eq!(
            features(&atari, Color::White, "E4", None)[2],
            escape::LADDER
        );
        // Without a group of White's in atari E4 is no escape.
        assert_eq!(features(ladder, Color::White, "E4", None)[2], 0);
    }

    #[test]
    fn distances_edges_and_self_ataris() {
        let d = ". . . . .
                 . . . . .
                 . . . . .
                 O . . . .
                 . . . . .";
        let f = features(d, Color::Black, "C1", Some("B1"));
        assert_eq!(
            (f[5], f[6], f[7]),
            (1, 0, 0),
            "distance 2, no move before, first line"
        );
        // E5 to B1 is dx 3, dy 4: distance 3 + 4 + 4 = 11.
        assert_eq!(features(d, Color::Black, "E5", Some("B1"))[5], 10);
        assert_eq!(features(d, Color::Black, "C3", None)[7], 2);
        assert_eq!(
            features(d, Color::Black, "A1", None)[4],
            1,
            "one liberty left"
        );
        assert_eq!(features(d, Color::Black, "C3", None)[4], 0);
        let pass = pass_features(&History {
            last: Some(Move::Pass),
            before: None,
        });
        assert_eq!(pass.tactical[0], pass::AFTER_PASS);
    }

    #[test]
    fn left_out_groups_are_not_computed() {
        let b = two_ataris();
        let size = b.size();
        let h = PatternHasher::new();
        let history = History {
            last: Some(Move::Play(size.parse_point("B3").unwrap())),
            before: Some(Move::Play(size.parse_point("D4").unwrap())),
        };
        let p = size.parse_point("B2").unwrap();
        let full = point_features(&b, &h, Color::Black, p, &history, LeftOut::NOTHING);
        assert!(full.tactical[1] != 0 && full.tactical[5] != 0 && full.tactical[6] != 0);
        let left_out = LeftOut::parse_list("capture,before-previous,shape,large-patterns").unwrap();
        let part = point_features(&b, &h, Color::Black, p, &history, left_out);
        for k in 0..TACTICAL {
            let want = if left_out.tactical(k) {
                0
            } else {
                full.tactical[k]
            };
            assert_eq!(part.tactical[k], want, "group {k}");
        }
        assert_eq!((part.shape, part.patterns), (NO_SHAPE, [0; PATTERNS]));
        assert_ne!(full.shape, NO_SHAPE);
        let mut all = Vec::new();
        candidates(&b, &h, Color::Black, &history, left_out, &mut all);
        assert!(
            all.iter()
                .all(|f| f.tactical[1] == 0 && f.shape == NO_SHAPE)
        );
    }
}
