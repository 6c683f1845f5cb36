//! Text diagrams of positions: `X` black, `O` white, `.` (or `+`) empty, top row first.
//! Used by tests, docs and GTP `showboard`.

use std::fmt::Write;

use crate::board::Board;
use crate::color::Color;
use crate::point::{BoardSize, Move};

/// The diagram could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiagramError {
    /// Rows of different lengths, or not a square of a supported size.
    NotSquare,
    /// A character other than `X`, `O`, `.`, `+` or whitespace.
    BadChar(char),
    /// A group on the diagram has no liberty.
    NoLiberty,
}

impl std::fmt::Display for DiagramError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DiagramError::NotSquare => f.write_str("diagram is not a square board of 2..=25"),
            DiagramError::BadChar(c) => write!(f, "unexpected character {c:?} in diagram"),
            DiagramError::NoLiberty => f.write_str("a group on the diagram has no liberty"),
        }
    }
}

impl std::error::Error for DiagramError {}

/// Reads a diagram (rows top first; spaces between points optional) into a board.
pub fn parse_diagram(text: &str) -> Result<Board, DiagramError> {
    let mut rows: Vec<Vec<Option<Color>>> = Vec::new();
    for line in text.lines() {
        let mut row = Vec::new();
        for ch in line.chars() {
            match ch {
                'X' | 'x' | '#' => row.push(Some(Color::Black)),
                'O' | 'o' | '@' => row.push(Some(Color::White)),
                '.' | '+' => row.push(None),
                c if c.is_whitespace() => {}
                c => return Err(DiagramError::BadChar(c)),
            }
        }
        if !row.is_empty() {
            rows.push(row);
        }
    }
    let n = rows.len();
    if rows.iter().any(|r| r.len() != n) {
        return Err(DiagramError::NotSquare);
    }
    let size = BoardSize::new(n as u32).map_err(|_| DiagramError::NotSquare)?;
    let mut board = Board::new(size);
    for (r, row) in rows.iter().enumerate() {
        for (x, cell) in row.iter().enumerate() {
            if let Some(c) = cell {
                let p = size.point(x, n - 1 - r).expect("inside the square");
                board.play_unchecked(*c, Move::Play(p));
            }
        }
    }
    // A group without liberties in the diagram gets captured on the way: it shows as a
    // missing stone.
    for (r, row) in rows.iter().enumerate() {
        for (x, cell) in row.iter().enumerate() {
            let p = size.point(x, n - 1 - r).expect("inside the square");
            if board.color_at(p) != *cell {
                return Err(DiagramError::NoLiberty);
            }
        }
    }
    // A valid diagram never captures on the way (every partial group touches a point
    // that is still empty), so there is no ko and no prisoner to clear.
    Ok(board)
}

/// The board as a diagram with GTP coordinates around it (no blank lines).
pub fn to_diagram(board: &Board) -> String {
    let size = board.size();
    let n = size.get();
    let letters: String = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
        .chars()
        .take(n)
        .flat_map(|c| [' ', c])
        .collect();
    let mut out = String::new();
    let _ = writeln!(out, "   {letters}");
    for y in (0..n).rev() {
        let _ = write!(out, "{:>2} ", y + 1);
        for x in 0..n {
            let p = size.point(x, y).expect("on board");
            let ch = match board.color_at(p) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            };
            let _ = write!(out, " {ch}");
        }
        let _ = writeln!(out, " {}", y + 1);
    }
    let _ = write!(out, "   {letters}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_errors() {
        let text = "X O .\n. X .\nO . .";
        let b = parse_diagram(text).unwrap();
        let s = b.size();
        assert_eq!(b.color_at(s.parse_point("A3").unwrap()), Some(Color::Black));
        assert_eq!(b.color_at(s.parse_point("A1").unwrap()), Some(Color::White));
        assert!(to_diagram(&b).contains(" 3  X O . 3"));
        assert_eq!(parse_diagram("X O\n."), Err(DiagramError::NotSquare));
        assert_eq!(parse_diagram("X ?\n. ."), Err(DiagramError::BadChar('?')));
        assert_eq!(parse_diagram("X O\nO ."), Err(DiagramError::NoLiberty));
        b.check_invariants().unwrap();
    }
}
