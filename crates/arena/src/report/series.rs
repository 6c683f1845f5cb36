//! The figures the report plots, game by game: the Elo and the SPRT's log-likelihood
//! ratio of one engine against another as games accumulate, each game's length, and
//! each engine's time a move by the move's number.

use crate::journal::Entry;
use crate::stats::{self, EloEstimate, Sprt, Wdl};

/// One engine's standing against another after a game between them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// Games between them so far (void ones not counted).
    pub played: u32,
    /// The game number of the game just counted.
    pub game: u32,
    /// The first engine's record so far.
    pub wdl: Wdl,
    /// Its Elo difference with the 95% interval.
    pub elo: Option<EloEstimate>,
    /// The SPRT's log-likelihood ratio, if a test was asked for.
    pub llr: Option<f64>,
}

/// The first engine's result in `e` against the second (1 a win, ½ a draw, 0 a loss),
/// if `e` is a counted game between `a` and `b`.
pub fn score_of(e: &Entry, a: &str, b: &str) -> Option<f64> {
    let black = if e.black == a && e.white == b {
        true
    } else if e.black == b && e.white == a {
        false
    } else {
        return None;
    };
    let black_score = match e.winner.as_deref() {
        Some("B") => 1.0,
        Some("W") => 0.0,
        _ if e.result == "0" => 0.5,
        _ => return None,
    };
    Some(if black {
        black_score
    } else {
        1.0 - black_score
    })
}

/// Engine `a`'s standing against `b` after each of their games, in the order of
/// `entries` (game-number order in the report).
pub fn progression(entries: &[Entry], a: &str, b: &str, sprt: Option<Sprt>) -> Vec<Step> {
    let mut wdl = Wdl::default();
    let mut steps = Vec::new();
    for e in entries {
        let Some(score) = score_of(e, a, b) else {
            continue;
        };
        if score == 1.0 {
            wdl.wins += 1;
        } else if score == 0.0 {
            wdl.losses += 1;
        } else {
            wdl.draws += 1;
        }
        steps.push(Step {
            played: wdl.games(),
            game: e.game,
            wdl,
            elo: stats::elo(&wdl),
            llr: sprt.map(|t| t.llr(&wdl)),
        });
    }
    steps
}

/// Seconds an engine took for its n-th move of a game (from 1), averaged over the
/// games in which it played that many moves.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveTimes {
    /// The engine's label.
    pub label: String,
    /// `(n, mean seconds, games)` for n = 1, 2, … while some game had an n-th move.
    pub by_move: Vec<(u32, f64, u32)>,
}

/// Each engine's mean time by move number, from the games whose journal lines hold move
/// times; `None` if none does (journals written before move times were recorded).
pub fn move_times(entries: &[Entry], labels: &[String]) -> Option<Vec<MoveTimes>> {
    // Per engine: (sum of seconds, count) by move index.
    let mut sums: Vec<Vec<(f64, u32)>> = vec![Vec::new(); labels.len()];
    let mut any = false;
    for e in entries {
        for (label, times) in [(&e.black, &e.black_move_ms), (&e.white, &e.white_move_ms)] {
            let (Some(times), Some(i)) = (times, labels.iter().position(|l| l == label)) else {
                continue;
            };
            any = true;
            let sum = &mut sums[i];
            if sum.len() < times.len() {
                sum.resize(times.len(), (0.0, 0));
            }
            for (slot, &ms) in sum.iter_mut().zip(times) {
                slot.0 += f64::from(ms) / 1000.0;
                slot.1 += 1;
            }
        }
    }
    any.then(|| {
        labels
            .iter()
            .zip(sums)
            .map(|(label, sum)| MoveTimes {
                label: label.clone(),
                by_move: sum
                    .into_iter()
                    .enumerate()
                    .map(|(n, (s, k))| (n as u32 + 1, s / f64::from(k), k))
                    .collect(),
            })
            .collect()
    })
}

/// Who won a game, for the colour of its point in the game-length plot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// Black won.
    Black,
    /// White won.
    White,
    /// A draw or a void game.
    Neither,
}

/// Each game's number, length in moves and winner.
pub fn lengths(entries: &[Entry]) -> Vec<(u32, u32, Winner)> {
    entries
        .iter()
        .map(|e| {
            let w = match e.winner.as_deref() {
                Some("B") => Winner::Black,
                Some("W") => Winner::White,
                _ => Winner::Neither,
            };
            (e.game, e.moves, w)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(game: u32, black: &str, white: &str, winner: Option<&str>) -> Entry {
        Entry {
            moves: 10 + game,
            black_move_ms: Some(vec![1000, 3000]),
            white_move_ms: (game != 2).then(|| vec![500]),
            ..Entry::resigned(game, black, white, winner)
        }
    }

    #[test]
    fn the_standing_is_told_from_the_first_engine_game_by_game() {
        let sprt: Sprt = "0,10,0.05,0.05".parse().unwrap();
        let entries = [
            entry(1, "A", "B", Some("B")),
            entry(2, "B", "A", Some("B")),
            entry(3, "A", "C", Some("B")),
            entry(4, "A", "B", None),
        ];
        let steps = progression(&entries, "A", "B", Some(sprt));
        assert_eq!(
            steps.iter().map(|s| (s.played, s.game)).collect::<Vec<_>>(),
            [(1, 1), (2, 2), (3, 4)]
        );
        let last = steps[2];
        assert_eq!((last.wdl.wins, last.wdl.draws, last.wdl.losses), (1, 1, 1));
        assert_eq!(last.elo.unwrap().elo, 0.0);
        assert_eq!(last.llr, Some(sprt.llr(&last.wdl)));
        assert_eq!(steps[0].elo.unwrap().elo, f64::INFINITY);
        assert!(progression(&entries, "A", "B", None)[0].llr.is_none());
        let mut void = entry(5, "A", "B", None);
        void.result = "Void".into();
        assert_eq!(score_of(&void, "A", "B"), None);
    }

    #[test]
    fn move_times_are_averaged_by_move_number_and_missing_ones_said_so() {
        let labels = ["A".to_string(), "B".to_string()];
        let entries = [entry(1, "A", "B", Some("B")), entry(2, "B", "A", Some("B"))];
        let t = move_times(&entries, &labels).unwrap();
        // A: game 1 as Black [1, 3] s, game 2 as White (not recorded).
        assert_eq!(t[0].by_move, [(1, 1.0, 1), (2, 3.0, 1)]);
        // B: game 1 as White [0.5], game 2 as Black [1, 3].
        assert_eq!(t[1].by_move, [(1, 0.75, 2), (2, 3.0, 1)]);
        let mut old = entries.clone();
        for e in &mut old {
            e.black_move_ms = None;
            e.white_move_ms = None;
        }
        assert_eq!(move_times(&old, &labels), None);
        assert_eq!(
            lengths(&entries),
            [(1, 11, Winner::Black), (2, 12, Winner::Black)]
        );
    }
}
