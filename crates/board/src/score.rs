//! Counting the end of a game: area (Chinese, Tromp-Taylor) and territory
//! (Japanese/Korean), and game results in SGF/GTP form.

use std::fmt;
use std::str::FromStr;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::{ByColor, Color};

/// Points each side counts, komi included in White's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    /// Black's points.
    pub black: f64,
    /// White's points, komi included.
    pub white: f64,
}

impl Score {
    /// Black's points minus White's: positive when Black wins.
    pub fn margin(&self) -> f64 {
        self.black - self.white
    }

    /// The winner and margin.
    pub fn result(&self) -> GameResult {
        let m = self.margin();
        if m > 0.0 {
            GameResult::Points(Color::Black, m)
        } else if m < 0.0 {
            GameResult::Points(Color::White, -m)
        } else {
            GameResult::Draw
        }
    }
}

/// How a game ended, written as SGF `RE` and GTP `final_score` write it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GameResult {
    /// The colour won by this many points (`B+3.5`).
    Points(Color, f64),
    /// The colour won by resignation (`W+R`).
    Resign(Color),
    /// The colour won on time (`B+T`).
    Time(Color),
    /// The colour won by forfeit: illegal move, crash, protocol failure (`B+F`).
    Forfeit(Color),
    /// Equal scores (`0`).
    Draw,
    /// No result (`Void`): the game was not finished.
    Void,
}

impl GameResult {
    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        match *self {
            GameResult::Points(c, _)
            | GameResult::Resign(c)
            | GameResult::Time(c)
            | GameResult::Forfeit(c) => Some(c),
            GameResult::Draw | GameResult::Void => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GameResult::Points(c, m) => write!(f, "{}+{}", c.letter(), format_points(m)),
            GameResult::Resign(c) => write!(f, "{}+R", c.letter()),
            GameResult::Time(c) => write!(f, "{}+T", c.letter()),
            GameResult::Forfeit(c) => write!(f, "{}+F", c.letter()),
            GameResult::Draw => f.write_str("0"),
            GameResult::Void => f.write_str("Void"),
        }
    }
}

/// Prints a score without a trailing `.0` (`3`, `3.5`, `0.25`).
pub fn format_points(m: f64) -> String {
    let s = format!("{m:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The text is not an SGF result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseResultError(pub String);

impl fmt::Display for ParseResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a game result: {:?}", self.0)
    }
}

impl std::error::Error for ParseResultError {}

impl FromStr for GameResult {
    type Err = ParseResultError;

    /// Reads `B+3.5`, `W+R`, `W+Resign`, `B+T`, `B+Time`, `B+F`, `0`, `Draw`, `Jigo`,
    /// `Void`; `B+` alone (winner, margin unknown) reads as a 0-point win.
    fn from_str(s: &str) -> Result<GameResult, ParseResultError> {
        let err = || ParseResultError(s.to_string());
        let t = s.trim();
        let lower = t.to_ascii_lowercase();
        match lower.as_str() {
            "0" | "draw" | "jigo" => return Ok(GameResult::Draw),
            "void" | "?" => return Ok(GameResult::Void),
            _ => {}
        }
        let (who, rest) = t.split_once('+').ok_or_else(err)?;
        let c: Color = who.parse().map_err(|_| err())?;
        match rest.to_ascii_lowercase().as_str() {
            "r" | "resign" => Ok(GameResult::Resign(c)),
            "t" | "time" => Ok(GameResult::Time(c)),
            "f" | "forfeit" => Ok(GameResult::Forfeit(c)),
            "" => Ok(GameResult::Points(c, 0.0)),
            m => {
                let m: f64 = m.parse().map_err(|_| err())?;
                if m.is_finite() && m >= 0.0 {
                    Ok(GameResult::Points(c, m))
                } else {
                    Err(err())
                }
            }
        }
    }
}

/// Empty points (dead stones counted as empty) reachable from each colour's living
/// stones through empty points.
fn reach(board: &Board, alive: &ByColor<Bitboard>) -> (Bitboard, ByColor<Bitboard>) {
    let stride = board.size().stride();
    let open = board.on_board().and_not(&alive.black).and_not(&alive.white);
    let reach = ByColor::new_with(|c| {
        let mut r = alive[c];
        loop {
            let grown = r.dilate(stride, &open).or(&r);
            if grown == r {
                break r.and(&open);
            }
            r = grown;
        }
    });
    (open, reach)
}

fn living(board: &Board, dead: &Bitboard) -> ByColor<Bitboard> {
    ByColor::new_with(|c| board.stones(c).and_not(dead))
}

/// Area count (Chinese rules): each side's living stones plus the empty points
/// (and dead-stone points) that only its stones reach. With no dead stones this is
/// Tromp-Taylor scoring.
pub fn area(board: &Board, dead: &Bitboard, komi: f64) -> Score {
    let alive = living(board, dead);
    let (_, reach) = reach(board, &alive);
    let points = ByColor::new_with(|c| {
        let own = reach[c].and_not(&reach[c.opponent()]);
        f64::from(alive[c].count() + own.count())
    });
    Score {
        black: points.black,
        white: points.white + komi,
    }
}

/// A connected region of points that are not living stones (empty points and dead
/// stones), with the points around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// The region's points.
    pub points: Bitboard,
    /// The points next to it that are not in it: all living stones.
    pub border: Bitboard,
}

impl Region {
    /// The one colour whose stones of `alive` border the region, if only one does.
    pub fn sole_border(&self, alive: &ByColor<Bitboard>) -> Option<Color> {
        let touches = |c: Color| !self.border.and(&alive[c]).is_empty();
        match (touches(Color::Black), touches(Color::White)) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        }
    }
}

/// Every region of points that are not living stones, `dead` counted as empty, in
/// board order of their first point.
pub fn regions(board: &Board, dead: &Bitboard) -> Vec<Region> {
    let alive = living(board, dead);
    let (open, _) = reach(board, &alive);
    let stride = board.size().stride();
    let mut left = open;
    let mut out = Vec::new();
    while let Some(start) = left.first() {
        let mut region = Bitboard::EMPTY;
        region.insert(start);
        loop {
            let grown = region.dilate(stride, &open).or(&region);
            if grown == region {
                break;
            }
            region = grown;
        }
        left = left.and_not(&region);
        let border = region.dilate(stride, board.on_board()).and_not(&region);
        out.push(Region {
            points: region,
            border,
        });
    }
    out
}

/// Territory count (Japanese/Korean rules): empty regions bordered by one colour only
/// and by no stone in `seki`, plus prisoners and the opponent's dead stones.
pub fn territory(board: &Board, dead: &Bitboard, seki: &Bitboard, komi: f64) -> Score {
    let alive = living(board, dead);
    let mut terr = ByColor::<u32>::default();
    for region in regions(board, dead) {
        if !region.border.and(seki).is_empty() {
            continue;
        }
        if let Some(c) = region.sole_border(&alive) {
            terr[c] += region.points.count();
        }
    }
    let prisoners = board.prisoners();
    let points = ByColor::new_with(|c| {
        let dead_taken = board.stones(c.opponent()).and(dead).count();
        f64::from(terr[c] + prisoners[c] + dead_taken)
    });
    Score {
        black: points.black,
        white: points.white + komi,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_print_and_parse() {
        assert_eq!(GameResult::Points(Color::Black, 3.5).to_string(), "B+3.5");
        assert_eq!(GameResult::Points(Color::White, 12.0).to_string(), "W+12");
        assert_eq!(GameResult::Resign(Color::White).to_string(), "W+R");
        assert_eq!(GameResult::Draw.to_string(), "0");
        for s in ["B+3.5", "W+R", "B+T", "W+F", "0", "Void", "W+12"] {
            assert_eq!(s.parse::<GameResult>().unwrap().to_string(), s);
        }
        assert_eq!(
            "W+Resign".parse::<GameResult>(),
            Ok(GameResult::Resign(Color::White))
        );
        assert!("B+x".parse::<GameResult>().is_err());
        assert!("B+NaN".parse::<GameResult>().is_err());
        assert!("nothing".parse::<GameResult>().is_err());
    }
}
