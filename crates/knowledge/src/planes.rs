//! The input planes of the policy network: a position seen from the side to move, one
//! bit a point in each plane ([`PLANES`] names them in order).
//!
//! The tactical planes are the move model's own facts ([`point_features`]: captures,
//! ataris a ladder wins, escapes, self-ataris), computed for the side to move at each
//! legal point; the shape and the large patterns are not computed.
//!
//! Points are numbered `y * side + x`, column `x` and row `y` from 0, row 0 at the
//! bottom (GTP row 1), as [`BoardSize::coords`](tengen_board::BoardSize::coords) gives
//! them. The export of training positions (`tengen learn export`) and the network's
//! inference ([`PolicyNet`](crate::PolicyNet)) both build their planes here, so the
//! network reads in play exactly what it was trained on.

use tengen_board::{Board, Color, Move, Point};

use crate::move_model::features::{History, atari, escape, point_features};
use crate::move_model::left_out::LeftOut;
use crate::move_model::pattern::PatternHasher;

/// The planes, in order: their names as the shard format documents them.
pub const PLANES: [&str; 18] = [
    "own stones",
    "opponent stones",
    "empty",
    "own stones, 1 liberty",
    "own stones, 2 liberties",
    "own stones, 3+ liberties",
    "opponent stones, 1 liberty",
    "opponent stones, 2 liberties",
    "opponent stones, 3+ liberties",
    "last move (the opponent's)",
    "the move before it (our own)",
    "ko point (we may not play it)",
    "legal move",
    "a move here captures",
    "a move here is an atari a ladder wins",
    "a move here extends a group of ours in atari and is caught (ladder or no escape)",
    "a move here extends a group of ours in atari to safety",
    "a move here is a self-atari",
];

/// How many planes there are.
pub const PLANE_COUNT: usize = PLANES.len();

// Indices into `PLANES`.
const OWN: usize = 0;
const OPPONENT: usize = 1;
const EMPTY: usize = 2;
const OWN_LIBERTIES: usize = 3;
const OPPONENT_LIBERTIES: usize = 6;
const LAST: usize = 9;
const BEFORE: usize = 10;
const KO: usize = 11;
pub(crate) const LEGAL: usize = 12;
const CAPTURES: usize = 13;
const LADDER_ATARI: usize = 14;
const CAUGHT: usize = 15;
const ESCAPES: usize = 16;
const SELF_ATARI: usize = 17;

/// Bytes one plane takes on a board of side `side`: one bit a point, rounded up.
pub const fn plane_bytes(side: usize) -> usize {
    (side * side).div_ceil(8)
}

/// Turns positions into planes; holds the reusable pieces.
#[derive(Debug)]
pub struct PlaneEncoder {
    hasher: PatternHasher,
    /// The move model's groups not needed here: distances, edge, shape, patterns.
    left_out: LeftOut,
}

impl Default for PlaneEncoder {
    fn default() -> Self {
        PlaneEncoder::new()
    }
}

impl PlaneEncoder {
    /// An encoder.
    pub fn new() -> PlaneEncoder {
        let left_out = LeftOut::parse_list("previous,before-previous,edge,shape,large-patterns")
            .expect("the move model's group names");
        PlaneEncoder {
            hasher: PatternHasher::new(),
            left_out,
        }
    }

    /// Writes the planes of `board` with `mover` to play after `history` into `out`,
    /// [`PLANE_COUNT`] planes of [`plane_bytes`] bytes each, bit `i % 8` (least
    /// significant first) of byte `i / 8` for point `i`. `out` must be that long.
    pub fn encode(&self, board: &Board, mover: Color, history: &History, out: &mut [u8]) {
        let side = board.size().get();
        let stride = plane_bytes(side);
        debug_assert_eq!(out.len(), PLANE_COUNT * stride);
        out.fill(0);
        let size = board.size();
        let mut set = |plane: usize, p: Point| {
            let (x, y) = size.coords(p);
            let i = y * side + x;
            out[plane * stride + i / 8] |= 1 << (i % 8);
        };
        for p in size.points() {
            match board.color_at(p) {
                None => set(EMPTY, p),
                Some(c) => {
                    let (stones, liberties) = if c == mover {
                        (OWN, OWN_LIBERTIES)
                    } else {
                        (OPPONENT, OPPONENT_LIBERTIES)
                    };
                    set(stones, p);
                    let k = board.liberties(p).clamp(1, 3) as usize - 1;
                    set(liberties + k, p);
                }
            }
        }
        if let Some(Move::Play(p)) = history.last {
            set(LAST, p);
        }
        if let Some(Move::Play(p)) = history.before {
            set(BEFORE, p);
        }
        if let Some((p, c)) = board.ko()
            && c == mover
        {
            set(KO, p);
        }
        for &p in board.empty_points() {
            if board.check(mover, p).is_err() {
                continue;
            }
            set(LEGAL, p);
            let f = point_features(board, &self.hasher, mover, p, history, self.left_out);
            // By the index of the move model's groups: capture, escape, atari, self-atari.
            if f.tactical[1] != 0 {
                set(CAPTURES, p);
            }
            match f.tactical[2] {
                escape::WORKS => set(ESCAPES, p),
                escape::LADDER | escape::FAILS => set(CAUGHT, p),
                _ => {}
            }
            if f.tactical[3] == atari::LADDER {
                set(LADDER_ATARI, p);
            }
            if f.tactical[4] != 0 {
                set(SELF_ATARI, p);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::move_model::features::two_ataris;
    use crate::move_model::groups::GROUPS;
    use tengen_board::parse_diagram;

    /// The points set in plane `k`, as GTP vertices.
    fn plane(board: &Board, out: &[u8], k: usize) -> Vec<String> {
        let size = board.size();
        let side = size.get();
        let stride = plane_bytes(side);
        size.points()
            .filter(|&p| {
                let (x, y) = size.coords(p);
                let i = y * side + x;
                out[k * stride + i / 8] & (1 << (i % 8)) != 0
            })
            .map(|p| size.vertex(p).to_string())
            .collect()
    }

    #[test]
    fn the_tactical_planes_read_the_move_models_groups() {
        // The features' indices this module reads by number.
        assert_eq!(
            [GROUPS[1].0, GROUPS[2].0, GROUPS[3].0, GROUPS[4].0],
            ["capture", "escape", "atari", "self-atari"]
        );
    }

    #[test]
    fn stones_liberties_and_history_from_the_movers_view() {
        let b = two_ataris();
        let size = b.size();
        let history = History {
            last: Some(Move::Play(size.parse_point("D3").unwrap())),
            before: Some(Move::Play(size.parse_point("C3").unwrap())),
        };
        let enc = PlaneEncoder::new();
        let mut out = vec![0; PLANE_COUNT * plane_bytes(5)];
        enc.encode(&b, Color::White, &history, &mut out);
        assert_eq!(plane(&b, &out, OWN), ["B3", "D3", "C4"]);
        assert_eq!(plane(&b, &out, OPPONENT), ["A3", "C3", "B4"]);
        assert_eq!(plane(&b, &out, EMPTY).len(), 25 - 6);
        // Black C3 is in atari (C2 is its last liberty), as is White B3 (B2).
        assert_eq!(plane(&b, &out, OPPONENT_LIBERTIES), ["C3"]);
        assert_eq!(plane(&b, &out, OWN_LIBERTIES), ["B3"]);
        assert_eq!(plane(&b, &out, LAST), ["D3"]);
        assert_eq!(plane(&b, &out, BEFORE), ["C3"]);
        assert!(plane(&b, &out, KO).is_empty());
        // White takes C3 at C2; extending B3 at B2 gives it three liberties; A4 has one.
        assert_eq!(plane(&b, &out, CAPTURES), ["C2"]);
        assert_eq!(plane(&b, &out, ESCAPES), ["B2"]);
        assert!(plane(&b, &out, CAUGHT).is_empty());
        assert!(plane(&b, &out, SELF_ATARI).contains(&"A4".to_string()));
        assert_eq!(plane(&b, &out, LEGAL).len(), 19);
        // Black's view swaps the stones.
        enc.encode(&b, Color::Black, &history, &mut out);
        assert_eq!(plane(&b, &out, OWN), ["A3", "C3", "B4"]);
        assert_eq!(plane(&b, &out, CAPTURES), ["B2"]);
    }

    #[test]
    fn the_ko_point_is_the_movers_only() {
        // Black has just taken at C3: White may not retake at B3 at once.
        let mut b = parse_diagram(
            ". . . . .
             . X O . .
             X O . O .
             . X O . .
             . . . . .",
        )
        .unwrap();
        let size = b.size();
        b.try_play(Color::Black, Move::Play(size.parse_point("C3").unwrap()))
            .unwrap();
        let enc = PlaneEncoder::new();
        let mut out = vec![0; PLANE_COUNT * plane_bytes(5)];
        let history = History::default();
        enc.encode(&b, Color::White, &history, &mut out);
        assert_eq!(plane(&b, &out, KO), ["B3"]);
        assert!(!plane(&b, &out, LEGAL).contains(&"B3".to_string()));
        enc.encode(&b, Color::Black, &history, &mut out);
        assert!(plane(&b, &out, KO).is_empty());
    }

    #[test]
    fn a_ladder_atari_is_marked() {
        let b = parse_diagram(
            ". . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . X . . . . .
             . . X O . . . . .
             . . . . X . . . .
             . . . . . . . . .
             . . . . . . . . .",
        )
        .unwrap();
        let enc = PlaneEncoder::new();
        let mut out = vec![0; PLANE_COUNT * plane_bytes(9)];
        enc.encode(&b, Color::Black, &History::default(), &mut out);
        // From either side: White's extension runs into the ladder.
        assert_eq!(plane(&b, &out, LADDER_ATARI), ["D3", "E4"]);
        assert!(plane(&b, &out, CAUGHT).is_empty());
        // After the atari at D3, White's extension at E4 is caught.
        let size = b.size();
        let mut after = b.clone();
        after
            .try_play(Color::Black, Move::Play(size.parse_point("D3").unwrap()))
            .unwrap();
        enc.encode(&after, Color::White, &History::default(), &mut out);
        assert_eq!(plane(&after, &out, CAUGHT), ["E4"]);
        assert!(plane(&after, &out, ESCAPES).is_empty());
    }
}
