//! Board locations and players as KataGo's analysis queries spell them.

use tengen_board::{BoardSize, Color, Move};

/// Reads a player: `B`, `W`, `black` or `white`, any case.
pub fn parse_player(text: &str) -> Option<Color> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// The letter KataGo writes for a player.
pub fn player_letter(c: Color) -> &'static str {
    match c {
        Color::Black => "B",
        Color::White => "W",
    }
}

/// Reads a location: a GTP vertex (`Q16`, any case), `pass`, or `(x,y)` with the
/// column and the row counted from 0 at the top left, as KataGo allows. `None` when it
/// is none of these or lies off the board.
pub fn parse_location(size: BoardSize, text: &str) -> Option<Move> {
    let text = text.trim();
    if let Some(inner) = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        let (x, y) = inner.split_once(',')?;
        let x: usize = x.trim().parse().ok()?;
        let y: usize = y.trim().parse().ok()?;
        let n = size.get();
        if y >= n {
            return None;
        }
        return size.point(x, n - 1 - y).map(Move::Play);
    }
    size.parse_move(text).ok()
}

/// The GTP spelling of a move (`Q16`, `pass`).
pub fn move_text(size: BoardSize, mv: Move) -> String {
    size.move_vertex(mv).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_pass_and_coordinates_read() {
        let size = BoardSize::NINETEEN;
        let q16 = size.parse_move("Q16").unwrap();
        assert_eq!(parse_location(size, "q16"), Some(q16));
        assert_eq!(parse_location(size, "pass"), Some(Move::Pass));
        assert_eq!(parse_location(size, "PASS"), Some(Move::Pass));
        // A19 is (0,0): the top left.
        assert_eq!(
            parse_location(size, "(0,0)"),
            Some(size.parse_move("A19").unwrap())
        );
        assert_eq!(
            parse_location(size, "(18, 18)"),
            Some(size.parse_move("T1").unwrap())
        );
        for bad in [
            "", "Z1", "A20", "I5", "(19,0)", "(0,19)", "(1)", "(-1,2)", "Q", "tengen",
        ] {
            assert_eq!(parse_location(size, bad), None, "{bad:?}");
        }
        assert_eq!(move_text(size, q16), "Q16");
        assert_eq!(move_text(size, Move::Pass), "pass");
    }

    #[test]
    fn players_read_in_any_case() {
        assert_eq!(parse_player("B"), Some(Color::Black));
        assert_eq!(parse_player("white"), Some(Color::White));
        assert_eq!(parse_player("x"), None);
        assert_eq!(player_letter(Color::White), "W");
    }
}
