//! What a record says of its game's end (`RE`, `KM`, the rules), as the labels of a
//! training shard: who won, how the game ended, by how much where it was counted.
//!
//! A result that does not say both who won and how is no result: `B+` (a winner but
//! no margin nor reason), `?`, `Void` and anything unreadable are exported without a
//! result ([`Ending::Unknown`]) and counted, so that the trainer leaves them out of
//! the value and score losses. Tygem's `B+Offline` (the loser disconnected) is a
//! forfeit, like `B+F`; a game won on time or by forfeit keeps its winner, labelled as
//! such, for the trainer to leave out where the board did not decide it.

use tengen_board::{Color, GameResult, Scoring};

/// How a game ended, as a shard stores it (one byte).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// No result, or one that could not be read (`B+`, `?`, `Void`, `B+3.5.1`).
    Unknown = 0,
    /// Counted: the winner and the margin under the record's rules.
    Counted = 1,
    /// The loser resigned.
    Resignation = 2,
    /// The loser ran out of time.
    Time = 3,
    /// The loser forfeited or disconnected (`B+F`, Tygem's `B+Offline`).
    Forfeit = 4,
    /// Counted, equal scores.
    Draw = 5,
}

/// The end of one game as its record gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// The winner, where the result names one.
    pub winner: Option<Color>,
    /// How the game ended.
    pub ending: Ending,
    /// Black's points minus White's under the record's rules, where counted.
    pub margin: Option<f32>,
}

impl Outcome {
    /// No result.
    pub const UNKNOWN: Outcome = Outcome {
        winner: None,
        ending: Ending::Unknown,
        margin: None,
    };

    /// Reads a record's `RE`, if it has one.
    pub fn of_result(result: Option<&str>) -> Outcome {
        let Some(text) = result.map(str::trim) else {
            return Outcome::UNKNOWN;
        };
        // `B+` names a winner but neither a margin nor a reason: the board parser reads
        // it as a 0-point win, which would teach the score head a draw.
        if text.ends_with('+') {
            return Outcome::UNKNOWN;
        }
        if let Some((who, how)) = text.split_once('+')
            && how.eq_ignore_ascii_case("offline")
            && let Ok(c) = who.parse::<Color>()
        {
            return Outcome::won(c, Ending::Forfeit);
        }
        match text.parse::<GameResult>() {
            Ok(GameResult::Points(c, m)) => Outcome {
                winner: Some(c),
                ending: Ending::Counted,
                margin: Some(if c == Color::Black { m } else { -m } as f32),
            },
            Ok(GameResult::Resign(c)) => Outcome::won(c, Ending::Resignation),
            Ok(GameResult::Time(c)) => Outcome::won(c, Ending::Time),
            Ok(GameResult::Forfeit(c)) => Outcome::won(c, Ending::Forfeit),
            Ok(GameResult::Draw) => Outcome {
                winner: None,
                ending: Ending::Draw,
                margin: Some(0.0),
            },
            Ok(GameResult::Void) | Err(_) => Outcome::UNKNOWN,
        }
    }

    fn won(c: Color, ending: Ending) -> Outcome {
        Outcome {
            winner: Some(c),
            ending,
            margin: None,
        }
    }

    /// Whether the record gives a result (a winner, or a draw).
    pub fn is_known(&self) -> bool {
        self.ending != Ending::Unknown
    }
}

/// The byte a shard stores for the scoring of the record's rules.
pub fn scoring_byte(scoring: Scoring) -> u8 {
    match scoring {
        Scoring::Area => 0,
        Scoring::Territory => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_as_labels() {
        let cases: [(&str, Option<Color>, Ending, Option<f32>); 12] = [
            ("B+Resign", Some(Color::Black), Ending::Resignation, None),
            ("W+R", Some(Color::White), Ending::Resignation, None),
            ("W+3.5", Some(Color::White), Ending::Counted, Some(-3.5)),
            ("B+12", Some(Color::Black), Ending::Counted, Some(12.0)),
            ("B+Time", Some(Color::Black), Ending::Time, None),
            ("W+Offline", Some(Color::White), Ending::Forfeit, None),
            ("B+F", Some(Color::Black), Ending::Forfeit, None),
            ("0", None, Ending::Draw, Some(0.0)),
            ("B+", None, Ending::Unknown, None),
            ("?", None, Ending::Unknown, None),
            ("Void", None, Ending::Unknown, None),
            ("X+1", None, Ending::Unknown, None),
        ];
        for (text, winner, ending, margin) in cases {
            let o = Outcome::of_result(Some(text));
            assert_eq!(
                (o.winner, o.ending, o.margin),
                (winner, ending, margin),
                "{text}"
            );
        }
        assert_eq!(Outcome::of_result(None), Outcome::UNKNOWN);
        assert!(!Outcome::of_result(Some("B+")).is_known());
        assert!(Outcome::of_result(Some("0")).is_known());
    }
}
