//! What kind of loss a drop was: the rules in order, the first that holds names it.
//!
//! The drop is the stretch of moves between two evaluated positions, the position
//! before it `a` and after it `b`; `before`, `after` and `last` are Tengen's ownership
//! maps at `a`, at `b` and at the game's last position, from the loser's view.
//!
//! 1. **Ladder misread** ([`crate::ladder`]): in the drop's moves the loser ran a
//!    ladder (two or more extensions out of atari to two liberties) that the board's
//!    ladder reader says works for the chaser, and the chain ends the winner's; or the
//!    loser chased a ladder the reader says fails, and the runner's chain ends the
//!    winner's.
//! 2. **Semeai lost** ([`crate::groups::lost_semeai`]): a group of the loser died (as
//!    in 3) and at some position of the drop it and an adjacent chain of the winner of
//!    two or more stones both had at most `short_liberties` (3) liberties, the
//!    winner's chain living at the end.
//! 3. **Group died** ([`crate::groups::died`]): a chain of the loser on the board at
//!    some position of the drop (from `a` to `b`, taken at its largest), of at least
//!    `min_group` (4) stones, whose points `before` gives the loser (mean ownership at
//!    least `owned`, 0.3) and both `after` and `last` give the winner (mean at most
//!    -0.3).
//! 4. **Territory given away**: none of these; the drop is spread over the board
//!    (no group of `min_group` stones changed hands). [`Finding::swing`] says how many
//!    points the ownership moved towards the winner.

use std::fmt;

use serde::Serialize;
use tengen_board::{Color, Game, Move, Point};

use crate::eval::Ownership;
use crate::groups::{Replay, died, lost_semeai};
use crate::ladder::{ladders, misread};

/// The thresholds of the rules.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KindRules {
    /// The fewest stones of a group whose death counts.
    pub min_group: usize,
    /// The mean ownership that makes a group a side's.
    pub owned: f32,
    /// The most liberties of a chain short of liberties in a race.
    pub short_liberties: u32,
}

impl Default for KindRules {
    fn default() -> KindRules {
        KindRules {
            min_group: 4,
            owned: 0.3,
            short_liberties: 3,
        }
    }
}

/// A kind of loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A ladder played against the ladder reader's verdict.
    LadderMisread,
    /// A capturing race the loser's group lost.
    SemeaiLost,
    /// A group of the loser died.
    GroupDied,
    /// No group changed hands: points lost here and there.
    TerritoryGivenAway,
}

impl Kind {
    /// Every kind, in the order the rules try them.
    pub const ALL: [Kind; 4] = [
        Kind::LadderMisread,
        Kind::SemeaiLost,
        Kind::GroupDied,
        Kind::TerritoryGivenAway,
    ];
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::LadderMisread => "ladder misread",
            Kind::SemeaiLost => "semeai lost",
            Kind::GroupDied => "group died",
            Kind::TerritoryGivenAway => "territory given away",
        })
    }
}

/// What the rules found in one drop.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The kind of loss.
    pub kind: Kind,
    /// The loser's stones that died or ran (ladder, semeai, group); empty for territory.
    pub stones: Vec<Point>,
    /// The winner's chain in the race, or the runner's chain the loser failed to catch.
    pub opponent: Vec<Point>,
    /// The move the finding starts at: the ladder's first extension, the race's first
    /// position short of liberties.
    pub key_move: Option<usize>,
    /// Points the ownership moved towards the winner across the drop: the sum over the
    /// board of the fall in the loser's ownership, halved (a point that changes hands
    /// entirely counts 1).
    pub swing: f64,
}

/// Classifies the drop made by `moves` played from `start` (the position `a`), for the
/// loser `side`.
pub fn classify(
    start: &Game,
    moves: &[(Color, Move)],
    side: Color,
    maps: [&Ownership; 3],
    rules: &KindRules,
) -> Finding {
    let [before, after, last] = maps;
    let swing = start
        .size()
        .points()
        .map(|p| f64::from((before.at(p) - after.at(p)).max(0.0)))
        .sum::<f64>()
        / 2.0;
    let found = ladders(start, moves);
    if let Some(l) = misread(&found, side, last, rules.owned) {
        let (stones, opponent) = if l.runner == side {
            (l.chain.clone(), Vec::new())
        } else {
            (Vec::new(), l.chain.clone())
        };
        return Finding {
            kind: Kind::LadderMisread,
            stones,
            opponent,
            key_move: Some(l.first_move),
            swing,
        };
    }
    let replay = Replay { start, moves };
    let dead = died(replay, side, maps, rules);
    for g in &dead {
        if let Some((at, h)) = lost_semeai(replay, g, side, last, rules) {
            return Finding {
                kind: Kind::SemeaiLost,
                stones: g.clone(),
                opponent: h,
                key_move: Some(at),
                swing,
            };
        }
    }
    match dead.into_iter().next() {
        Some(g) => Finding {
            kind: Kind::GroupDied,
            stones: g,
            opponent: Vec::new(),
            key_move: None,
            swing,
        },
        None => Finding {
            kind: Kind::TerritoryGivenAway,
            stones: Vec::new(),
            opponent: Vec::new(),
            key_move: None,
            swing,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MatchGame;

    #[test]
    fn a_spread_loss_is_territory_and_a_lost_chain_a_dead_group() {
        let m =
            MatchGame::parse("t", "(;SZ[9];B[ee];W[aa];B[ef];W[ab];B[eg];W[ba];B[eh])").unwrap();
        let size = m.size();
        let even = Ownership::from_fn(size, |_| 0.4);
        let worse = Ownership::from_fn(size, |_| 0.2);
        let g = m.position(7);
        // Black's finding at move 7, `even` before and `after` at the drop and the end.
        let finding = |after: &Ownership, rules: &KindRules| {
            classify(&g, &[], Color::Black, [&even, after, after], rules)
        };
        let f = finding(&worse, &KindRules::default());
        assert_eq!(f.kind, Kind::TerritoryGivenAway);
        assert!((f.swing - 8.1).abs() < 1e-3, "{}", f.swing);
        let column_lost =
            Ownership::from_fn(size, |p| if size.coords(p).0 == 4 { -0.8 } else { 0.4 });
        let f = finding(&column_lost, &KindRules::default());
        assert_eq!(f.kind, Kind::GroupDied);
        assert_eq!(f.stones.len(), 4);
        // Three stones are below the group size that counts.
        let rules = KindRules {
            min_group: 5,
            ..KindRules::default()
        };
        let f = finding(&column_lost, &rules);
        assert_eq!(f.kind, Kind::TerritoryGivenAway);
    }

    #[test]
    fn a_ladder_run_against_the_reader_comes_before_the_dead_group() {
        // White's C3 runs a ladder the reader says works (D3 at move 8, D4, E4, E5)
        // and its five stones end Black's: White's misread, though they also died.
        let m = MatchGame::parse(
            "t",
            "(;SZ[9];B[cf];W[cg];B[bg];W[ai];B[ch];W[ah];B[dh];W[dg];B[eg];W[df];B[de];W[ef]\
             ;B[ff];W[ee];B[ed])",
        )
        .unwrap();
        let size = m.size();
        let mine = Ownership::from_fn(size, |_| 0.5);
        let lost = Ownership::from_fn(size, |_| -0.9);
        let rules = KindRules::default();
        let f = classify(
            &m.position(5),
            &m.moves()[5..],
            Color::White,
            [&mine, &lost, &lost],
            &rules,
        );
        assert_eq!(f.kind, Kind::LadderMisread);
        assert_eq!(f.key_move, Some(8));
        assert_eq!(f.stones.len(), 5);
        // Without the ladder's moves the same maps make it a dead group.
        let f = classify(
            &m.position(15),
            &[],
            Color::White,
            [&mine, &lost, &lost],
            &rules,
        );
        assert_eq!(f.kind, Kind::GroupDied);
    }
}
