//! What a query asks of each of its turns' searches and responses: visits, time,
//! perspective, the optional response fields, reports during the search, and the moves
//! to avoid or allow.

use std::time::Duration;

use tengen_board::{Bitboard, BoardSize, Color, Move};
use tengen_engine::Extras;

/// Whose side the win rates, score leads and ownership are reported from
/// (KataGo's `reportAnalysisWinratesAs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Perspective {
    /// Black's (KataGo's analysis configs and KaTrain use this).
    Black,
    /// White's.
    White,
    /// The side to move at the analysed turn.
    SideToMove,
}

impl Perspective {
    /// Reads KataGo's word (`BLACK`, `WHITE`, `SIDETOMOVE`, any case).
    pub fn parse(text: &str) -> Option<Perspective> {
        match text.to_ascii_uppercase().as_str() {
            "BLACK" | "B" => Some(Perspective::Black),
            "WHITE" | "W" => Some(Perspective::White),
            "SIDETOMOVE" => Some(Perspective::SideToMove),
            _ => None,
        }
    }

    /// +1 when a value for `to_move` reads the same from this side, -1 when it flips.
    pub fn sign(self, to_move: Color) -> f64 {
        match (self, to_move) {
            (Perspective::SideToMove, _)
            | (Perspective::Black, Color::Black)
            | (Perspective::White, Color::White) => 1.0,
            _ => -1.0,
        }
    }
}

/// Root moves the client asked the search not to play (`avoidMoves`) or the only ones
/// it may play (`allowMoves`), for each player: the search never chooses them at the
/// analysed turn's first move ([`MoveFilter::avoided`]), and `moveInfos` leaves them
/// out. Deeper in the tree (`untilDepth` beyond 1) they are not applied; the query is
/// told so in a warning.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveFilter {
    /// Moves left out, by player index ([`Color::index`]).
    pub avoid: [Vec<Move>; 2],
    /// When set, the only moves shown, by player index.
    pub allow: [Option<Vec<Move>>; 2],
}

impl MoveFilter {
    /// Whether `mv` by `c` is shown.
    pub fn shows(&self, c: Color, mv: Move) -> bool {
        let i = c.index();
        !self.avoid[i].contains(&mv) && self.allow[i].as_ref().is_none_or(|a| a.contains(&mv))
    }

    /// The points the search for `c` must not choose at the root: those avoided, and
    /// when an allow list is given every point not on it. (A pass on either list only
    /// filters what is shown.)
    pub fn avoided(&self, c: Color, size: BoardSize) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for p in size.points() {
            if !self.shows(c, Move::Play(p)) {
                set.insert(p);
            }
        }
        set
    }

    /// Whether it filters anything.
    pub fn is_empty(&self) -> bool {
        self.avoid.iter().all(Vec::is_empty) && self.allow.iter().all(Option::is_none)
    }
}

/// A query's settings for each of its turns.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOptions {
    /// Playouts of each turn's search (`maxVisits`, or `maxVisits`/`maxPlayouts` in
    /// `overrideSettings`).
    pub max_visits: u64,
    /// The longest each turn's search may run (`maxTime` in `overrideSettings`).
    pub max_time: Option<Duration>,
    /// Whose side the values are from.
    pub perspective: Perspective,
    /// The longest principal variation reported (`analysisPVLen`).
    pub pv_len: usize,
    /// Report the root's ownership (`includeOwnership`).
    pub ownership: bool,
    /// Report the spread of the root's ownership (`includeOwnershipStdev`).
    pub ownership_stdev: bool,
    /// Report each candidate's ownership (`includeMovesOwnership`).
    pub moves_ownership: bool,
    /// Report the spread of each candidate's ownership (`includeMovesOwnershipStdev`).
    pub moves_ownership_stdev: bool,
    /// Report the visits along each principal variation (`includePVVisits`).
    pub pv_visits: bool,
    /// Report the move model's probabilities (`includePolicy`).
    pub policy: bool,
    /// Report a partial analysis this often while searching (`reportDuringSearchEvery`).
    pub report_every: Option<Duration>,
    /// The first partial report after this long (`firstReportDuringSearchAfter`).
    pub first_report: Option<Duration>,
    /// Moves left out of `moveInfos`.
    pub filter: MoveFilter,
}

impl SearchOptions {
    /// The defaults before a query's fields: `max_visits` playouts, values from
    /// `perspective`, principal variations of up to 15 moves (KataGo's default), no
    /// optional field, no report during the search.
    pub fn new(max_visits: u64, perspective: Perspective) -> SearchOptions {
        SearchOptions {
            max_visits,
            max_time: None,
            perspective,
            pv_len: 15,
            ownership: false,
            ownership_stdev: false,
            moves_ownership: false,
            moves_ownership_stdev: false,
            pv_visits: false,
            policy: false,
            report_every: None,
            first_report: None,
            filter: MoveFilter::default(),
        }
    }

    /// What the engine's snapshots must hold for the asked-for fields.
    pub fn extras(&self) -> Extras {
        Extras {
            ownership: self.ownership || self.ownership_stdev,
            moves_ownership: self.moves_ownership || self.moves_ownership_stdev,
        }
    }

    /// The interval of the engine's snapshots and the time of the first one reported,
    /// when reports are asked for.
    pub fn reports(&self) -> Option<(Duration, Duration)> {
        let every = self.report_every.or(self.first_report)?;
        let first = self.first_report.unwrap_or(every);
        Some((every.min(first), first))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perspectives_flip_for_the_other_side() {
        assert_eq!(Perspective::parse("black"), Some(Perspective::Black));
        assert_eq!(
            Perspective::parse("SIDETOMOVE"),
            Some(Perspective::SideToMove)
        );
        assert_eq!(Perspective::parse("both"), None);
        assert_eq!(Perspective::Black.sign(Color::White), -1.0);
        assert_eq!(Perspective::White.sign(Color::White), 1.0);
        assert_eq!(Perspective::SideToMove.sign(Color::White), 1.0);
    }

    #[test]
    fn filters_apply_to_their_player() {
        let size = tengen_board::BoardSize::NINETEEN;
        let d4 = size.parse_move("D4").unwrap();
        let q16 = size.parse_move("Q16").unwrap();
        let mut f = MoveFilter::default();
        assert!(f.is_empty());
        f.avoid[Color::Black.index()].push(d4);
        assert!(!f.shows(Color::Black, d4));
        assert!(f.shows(Color::White, d4));
        f.allow[Color::White.index()] = Some(vec![q16]);
        assert!(!f.shows(Color::White, d4));
        assert!(f.shows(Color::White, q16));
        // The search's root mask: Black avoids D4 alone; White may play only Q16.
        let black = f.avoided(Color::Black, size);
        assert_eq!(black.count(), 1);
        assert!(black.contains(size.parse_point("D4").unwrap()));
        let white = f.avoided(Color::White, size);
        assert_eq!(white.count() as usize, size.area() - 1);
        assert!(!white.contains(size.parse_point("Q16").unwrap()));
    }

    #[test]
    fn reports_start_at_the_first_and_tick_at_the_smaller() {
        let mut o = SearchOptions::new(10, Perspective::Black);
        assert_eq!(o.reports(), None);
        o.report_every = Some(Duration::from_millis(500));
        assert_eq!(
            o.reports(),
            Some((Duration::from_millis(500), Duration::from_millis(500)))
        );
        o.first_report = Some(Duration::from_millis(100));
        assert_eq!(
            o.reports(),
            Some((Duration::from_millis(100), Duration::from_millis(100)))
        );
    }
}
