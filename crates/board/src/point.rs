//! Board sizes, points, moves and their GTP vertex spelling.
//!
//! A [`Point`] is an index into a padded one-dimensional board: rows are `size + 1`
//! slots wide (slot 0 of each row is a border shared by both edges), with a border row
//! above and below and one more slot at the end. Neighbours are then `p ± 1` and
//! `p ± stride`, diagonals `p ± stride ± 1`, and every one of them is a valid slot.
//! `MAX_SLOTS` slots cover the largest board.

use std::fmt;

/// The smallest board side GTP allows.
pub const MIN_SIZE: u8 = 2;
/// The largest board side GTP can spell (columns `A`–`Z` without `I`).
pub const MAX_SIZE: u8 = 25;
/// Slots in the padded array of the largest board: `(25 + 2) * (25 + 1) + 1`.
pub const MAX_SLOTS: usize = (MAX_SIZE as usize + 2) * (MAX_SIZE as usize + 1) + 1;

/// The column letters GTP uses: `I` is skipped.
const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A point on the board, as an index into the padded array of its [`BoardSize`].
///
/// A `Point` only means something together with the size it was made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u16);

impl Point {
    /// The padded-array index of this point.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The point at a padded-array index. The caller keeps it on the board.
    #[inline]
    pub const fn from_index(i: usize) -> Point {
        Point(i as u16)
    }
}

/// A move: a stone on a point, or a pass. Resigning is not a board move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place a stone here.
    Play(Point),
    /// Pass.
    Pass,
}

/// A board side from [`MIN_SIZE`] to [`MAX_SIZE`], with the geometry derived from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardSize(u8);

/// The size is outside 2..=25.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeError(pub u32);

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "board size {} is outside {MIN_SIZE}..={MAX_SIZE}",
            self.0
        )
    }
}

impl std::error::Error for SizeError {}

/// A vertex that does not name a point of this board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseVertexError {
    /// Not a letter followed by a number, nor `pass`.
    Syntax,
    /// Well-formed but outside this board.
    OffBoard,
}

impl fmt::Display for ParseVertexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParseVertexError::Syntax => "invalid vertex",
            ParseVertexError::OffBoard => "vertex is off the board",
        })
    }
}

impl std::error::Error for ParseVertexError {}

impl BoardSize {
    /// The usual 19×19 board.
    pub const NINETEEN: BoardSize = BoardSize(19);

    /// A checked size.
    pub fn new(size: u32) -> Result<BoardSize, SizeError> {
        if (MIN_SIZE as u32..=MAX_SIZE as u32).contains(&size) {
            Ok(BoardSize(size as u8))
        } else {
            Err(SizeError(size))
        }
    }

    /// The side length.
    #[inline]
    pub const fn get(self) -> usize {
        self.0 as usize
    }

    /// Distance between vertically adjacent points in the padded array.
    #[inline]
    pub const fn stride(self) -> usize {
        self.0 as usize + 1
    }

    /// Slots used in the padded array, borders included.
    #[inline]
    pub const fn slots(self) -> usize {
        (self.0 as usize + 2) * (self.0 as usize + 1) + 1
    }

    /// Number of points on the board.
    #[inline]
    pub const fn area(self) -> usize {
        self.0 as usize * self.0 as usize
    }

    /// The point at column `x` and row `y`, both from 0, row 0 at the bottom (GTP row 1).
    /// `None` off the board.
    #[inline]
    pub fn point(self, x: usize, y: usize) -> Option<Point> {
        let n = self.get();
        (x < n && y < n).then(|| Point(((y + 1) * self.stride() + x + 1) as u16))
    }

    /// Column and row of a point, both from 0, row 0 at the bottom.
    #[inline]
    pub const fn coords(self, p: Point) -> (usize, usize) {
        let i = p.index();
        (i % self.stride() - 1, i / self.stride() - 1)
    }

    /// Whether a padded index is a point of this board (not a border slot).
    #[inline]
    pub const fn contains_index(self, i: usize) -> bool {
        let s = self.stride();
        i >= s && i < s * (self.0 as usize + 1) && i % s != 0
    }

    /// All points, row by row from the bottom left (A1, B1, …).
    pub fn points(self) -> impl Iterator<Item = Point> + Clone {
        let n = self.get();
        (0..n).flat_map(move |y| (0..n).map(move |x| Point(((y + 1) * (n + 1) + x + 1) as u16)))
    }

    /// The four orthogonal neighbours of a point, border slots included.
    #[inline]
    pub const fn neighbours(self, p: Point) -> [Point; 4] {
        let i = p.0;
        let s = self.0 as u16 + 1;
        [Point(i - s), Point(i - 1), Point(i + 1), Point(i + s)]
    }

    /// The four diagonal neighbours of a point, border slots included.
    #[inline]
    pub const fn diagonals(self, p: Point) -> [Point; 4] {
        let i = p.0;
        let s = self.0 as u16 + 1;
        [
            Point(i - s - 1),
            Point(i - s + 1),
            Point(i + s - 1),
            Point(i + s + 1),
        ]
    }

    /// Parses a GTP vertex (`D4`, `j10`, `pass`; no `I` column; any case).
    pub fn parse_move(self, s: &str) -> Result<Move, ParseVertexError> {
        if s.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        self.parse_point(s).map(Move::Play)
    }

    /// Parses a GTP vertex that must be a point (not `pass`).
    pub fn parse_point(self, s: &str) -> Result<Point, ParseVertexError> {
        let bytes = s.as_bytes();
        let (&letter, digits) = bytes.split_first().ok_or(ParseVertexError::Syntax)?;
        let letter = letter.to_ascii_uppercase();
        if digits.is_empty() || digits.len() > 3 || !digits.iter().all(u8::is_ascii_digit) {
            return Err(ParseVertexError::Syntax);
        }
        let x = COLUMNS
            .iter()
            .position(|&c| c == letter)
            .ok_or(ParseVertexError::Syntax)?;
        let row: usize = digits
            .iter()
            .fold(0, |acc, d| acc * 10 + usize::from(d - b'0'));
        if row == 0 {
            return Err(ParseVertexError::OffBoard);
        }
        self.point(x, row - 1).ok_or(ParseVertexError::OffBoard)
    }

    /// The GTP vertex of a point, e.g. `D4`.
    pub fn vertex(self, p: Point) -> Vertex {
        let (x, y) = self.coords(p);
        Vertex(Some((x as u8, y as u8 + 1)))
    }

    /// The GTP spelling of a move: a vertex or `pass`.
    pub fn move_vertex(self, m: Move) -> Vertex {
        match m {
            Move::Play(p) => self.vertex(p),
            Move::Pass => Vertex(None),
        }
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A printable GTP vertex (`D4`) or `pass`, from [`BoardSize::vertex`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vertex(Option<(u8, u8)>);

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some((x, row)) => write!(f, "{}{}", COLUMNS[x as usize] as char, row),
            None => f.write_str("pass"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_round_trips_through_its_vertex_on_every_size() {
        for n in MIN_SIZE..=MAX_SIZE {
            let size = BoardSize::new(n.into()).unwrap();
            assert!(size.slots() <= MAX_SLOTS);
            let mut count = 0;
            for p in size.points() {
                count += 1;
                assert!(size.contains_index(p.index()));
                let text = size.vertex(p).to_string();
                assert_eq!(size.parse_point(&text), Ok(p), "{text} on {n}");
                assert_eq!(size.parse_point(&text.to_lowercase()), Ok(p));
                for q in size.neighbours(p) {
                    assert!(q.index() < size.slots());
                }
            }
            assert_eq!(count, size.area());
            let on_board = (0..size.slots())
                .filter(|&i| size.contains_index(i))
                .count();
            assert_eq!(on_board, size.area());
        }
    }

    #[test]
    fn vertices_follow_gtp() {
        let s = BoardSize::new(19).unwrap();
        assert_eq!(s.vertex(s.point(0, 0).unwrap()).to_string(), "A1");
        assert_eq!(s.vertex(s.point(8, 0).unwrap()).to_string(), "J1");
        assert_eq!(s.vertex(s.point(18, 18).unwrap()).to_string(), "T19");
        assert_eq!(s.parse_move("PASS"), Ok(Move::Pass));
        assert_eq!(s.parse_point("I5"), Err(ParseVertexError::Syntax));
        assert_eq!(s.parse_point("U1"), Err(ParseVertexError::OffBoard));
        assert_eq!(s.parse_point("A20"), Err(ParseVertexError::OffBoard));
        assert_eq!(s.parse_point("A0"), Err(ParseVertexError::OffBoard));
        for bad in ["", "A", "4", "AA1", "A-1", "A1x", "A99999999999", "é1"] {
            assert!(s.parse_point(bad).is_err(), "{bad}");
        }
        let big = BoardSize::new(25).unwrap();
        assert_eq!(big.vertex(big.point(24, 24).unwrap()).to_string(), "Z25");
        assert!(BoardSize::new(1).is_err());
        assert!(BoardSize::new(26).is_err());
    }
}
