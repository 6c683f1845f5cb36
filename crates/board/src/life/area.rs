//! A closed area of the board as the local search's enclosure: its points numbered,
//! their neighbours inside it, the walls around it and the Hashing keys that let
//! the search recognise a whole-board position the game has seen.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;
use crate::game::Game;
use crate::point::Point;
use crate::rules::{KoRule, Rules};
use crate::zobrist::stone_key;

use super::local::{Enclosure, Hashing, LocalRules, MAX_POINTS};

/// What the local game takes from `rules` and the game `history` (none: as if the
/// game started here).
pub(super) fn local_rules<'a>(rules: &Rules, history: Option<&'a Game>) -> LocalRules<'a> {
    LocalRules {
        suicide: rules.suicide,
        superko: rules.ko != KoRule::Simple,
        situational: rules.ko == KoRule::Situational,
        history,
    }
}

/// The enclosure of a closed area, with what its caller needs to read the board from it.
pub(super) struct ClosedEnclosure<'a> {
    /// The area as an enclosure.
    pub enclosure: Enclosure<'a>,
    /// The enclosure's points, by index.
    pub points: Vec<Point>,
    /// The stones next to the area, off it (the walls the proof assumes live).
    pub walls: Bitboard,
}

impl<'a> ClosedEnclosure<'a> {
    /// The enclosure of the area of `members` (stones) and `libs` (empty points), the
    /// local game played under `rules`; `None` when the area is not closed (an empty
    /// point next to it lies off it) or holds more than an enclosure's points.
    pub(super) fn of(
        board: &Board,
        members: &Bitboard,
        libs: &Bitboard,
        rules: LocalRules<'a>,
    ) -> Option<ClosedEnclosure<'a>> {
        let size = board.size();
        let area = members.or(libs);
        let points: Vec<Point> = area.iter().collect();
        if points.len() > MAX_POINTS {
            return None;
        }
        let index = |p: Point| points.iter().position(|&q| q == p);
        let mut nb = vec![0u64; points.len()];
        let mut wall = [0u64; 2];
        let mut start = [0u64; 2];
        let mut walls = Bitboard::EMPTY;
        let mut base = board.hash().0;
        let keys: Vec<[u64; 2]> = points
            .iter()
            .map(|&p| Color::ALL.map(|c| stone_key(c, p).0))
            .collect();
        for (i, &p) in points.iter().enumerate() {
            if let Some(c) = board.color_at(p) {
                start[c.index()] |= 1 << i;
                base ^= keys[i][c.index()];
            }
            for q in size.neighbours(p) {
                if board.is_border(q) {
                    continue;
                }
                match index(q) {
                    Some(j) => nb[i] |= 1 << j,
                    None => {
                        // Off the area: a stone (a closed area's empty points have no
                        // empty neighbour outside it, its stones only liberties inside).
                        let c = board.color_at(q)?;
                        wall[c.index()] |= 1 << i;
                        walls.insert(q);
                    }
                }
            }
        }
        Some(ClosedEnclosure {
            enclosure: Enclosure::new(nb, wall, start, Hashing { keys, base }, rules),
            points,
            walls,
        })
    }
}
