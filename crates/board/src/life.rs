//! Static life and death: what the position proves without reading or playouts.
//!
//! - [`pass_alive`]: Benson's pass-alive chains of one colour and the regions they
//!   enclose.
//! - [`StaticLife`]: both colours at once: pass-alive stones, and the territory they
//!   make safe (and the opponent's stones in it, which are dead whatever anyone plays).
//!
//! - [`find_seki`]: sekis proven by an exhaustive search of the small closed area
//!   they stand in (`local.rs`): neither side can capture a stone of the other there,
//!   whatever it plays, as long as the stones around the area live (proven outright
//!   when those are pass-alive); [`find_local`] adds the chains the same search
//!   proves dead there, kos played out without threats (bent four in the corner);
//!   [`LocalDeath::killing_move`] reads the attacker's next move of that proof from
//!   the position on the board.
//!
//! Everything here is a pure function, with no randomness: of a [`Board`]
//! ([`StaticLife::of`], as if the game started there under the Chinese rules) or of a
//! [`Game`] ([`StaticLife::of_game`]: its rules and history, what the
//! engine's judgement and GTP use).
//!
//! What it proves holds whatever either side plays: a pass-alive stone is never
//! captured and a dead one never escapes; what it cannot prove it leaves undecided.
//! A local death proves the chain dead, not its capturers alive.

mod area;
mod benson;
mod kill;
mod local;
mod seki;

use std::fmt;

pub use benson::{PassAlive, pass_alive};
pub use seki::{LocalDeath, Seki, find_local, find_seki};

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::{ByColor, Color};
use crate::game::Game;
use crate::point::Point;
use crate::rules::{Rules, Scoring};

/// The unconditional status of a point, in GNU Go's words (`unconditional_status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unconditional {
    /// A stone of a pass-alive chain.
    Alive,
    /// A stone inside the opponent's pass-alive territory: it dies whatever is played.
    Dead,
    /// An empty point of this colour's pass-alive territory.
    Territory(Color),
    /// Anything the static analysis does not settle.
    Undecided,
}

impl fmt::Display for Unconditional {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unconditional::Alive => "alive",
            Unconditional::Dead => "dead",
            Unconditional::Territory(Color::Black) => "black_territory",
            Unconditional::Territory(Color::White) => "white_territory",
            Unconditional::Undecided => "undecided",
        })
    }
}

/// What the position proves about life and death, for both colours.
///
/// Invariants: the sets of the two colours are disjoint; `dead` lies inside the
/// opponent's `territory`; no stone is both pass-alive and dead; seki stones are
/// neither pass-alive nor dead.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StaticLife {
    /// The stones of pass-alive chains.
    pub pass_alive: ByColor<Bitboard>,
    /// Points only the colour can ever own: the regions its pass-alive chains enclose
    /// in which the opponent can never make two eyes (empty points and the
    /// opponent's stones in them).
    pub territory: ByColor<Bitboard>,
    /// Stones inside the opponent's territory: dead whatever is played.
    pub dead: Bitboard,
    /// The sekis the local search proves, outright or as long as their walls live
    /// ([`Seki::proven`]).
    pub seki: Vec<Seki>,
    /// The chains the local search proves dead, outright or as long as their walls
    /// live ([`LocalDeath::proven`]).
    pub local_dead: Vec<LocalDeath>,
    /// Whether the game is scored by area, where a death proven by a ko won without
    /// threats ([`LocalDeath::ko`]) holds only when the defender has no ko threat
    /// that the attacker cannot first remove (under territory scoring the
    /// confirmation of life and death allows none).
    pub area_scoring: bool,
}

impl StaticLife {
    /// Analyses a position as if the game started there, under the Chinese rules
    /// (no suicide, positional superko). [`StaticLife::of_game`] reads a game's rules
    /// and history.
    pub fn of(board: &Board) -> StaticLife {
        StaticLife::analyse(board, &Rules::chinese(), None)
    }

    /// Analyses a game's position under its rules: the local search allows a
    /// suicide where they do and plays no move that recreates a position the game
    /// has seen.
    pub fn of_game(game: &Game) -> StaticLife {
        StaticLife::analyse(game.board(), game.rules(), Some(game))
    }

    fn analyse(board: &Board, rules: &Rules, history: Option<&Game>) -> StaticLife {
        let mut out = StaticLife {
            area_scoring: rules.scoring == Scoring::Area,
            ..StaticLife::default()
        };
        for c in Color::ALL {
            let pa = pass_alive(board, c);
            out.pass_alive[c] = pa.stones;
            out.territory[c] = safe_territory(board, &pa);
        }
        out.dead = out
            .territory
            .black
            .and(board.stones(Color::White))
            .or(&out.territory.white.and(board.stones(Color::Black)));
        let pass_alive = out.pass_alive.black.or(&out.pass_alive.white);
        (out.seki, out.local_dead) = find_local(board, &pass_alive, &out.dead, rules, history);
        out
    }

    /// The stones and the area of the sekis proven outright (their walls are
    /// pass-alive).
    pub fn proven_seki(&self) -> (Bitboard, Bitboard) {
        self.seki
            .iter()
            .filter(|s| s.proven)
            .fold((Bitboard::EMPTY, Bitboard::EMPTY), |(st, ar), s| {
                (st.or(&s.stones), ar.or(&s.liberties))
            })
    }

    /// The unconditional status of a point (see [`Unconditional`]).
    pub fn unconditional(&self, board: &Board, p: Point) -> Unconditional {
        match board.color_at(p) {
            Some(c) if self.pass_alive[c].contains(p) => Unconditional::Alive,
            Some(_) if self.dead.contains(p) => Unconditional::Dead,
            Some(_) => Unconditional::Undecided,
            None => Color::ALL
                .into_iter()
                .find(|&c| self.territory[c].contains(p))
                .map_or(Unconditional::Undecided, Unconditional::Territory),
        }
    }

    /// Whether the analysis settles the stone or point at `p` (its status cannot be
    /// overruled by playouts): pass-alive, safe territory, or a seki proven outright.
    pub fn settles(&self, p: Point) -> bool {
        let (seki, area) = self.proven_seki();
        seki.contains(p)
            || area.contains(p)
            || self.pass_alive.black.contains(p)
            || self.pass_alive.white.contains(p)
            || self.territory.black.contains(p)
            || self.territory.white.contains(p)
    }
}

/// The enclosed regions of a pass-alive colour in which the opponent can never make
/// two eyes: every point of the region but at most one, or two adjacent ones, touches
/// a pass-alive chain. An opponent eye can only be a point that touches none (those
/// stones never leave the board), and two eyes are never adjacent.
fn safe_territory(board: &Board, pa: &PassAlive) -> Bitboard {
    let size = board.size();
    let stride = size.stride();
    let near = pa.stones.dilate(stride, board.on_board());
    let mut out = Bitboard::EMPTY;
    let mut left = pa.enclosed;
    while let Some(p) = left.first() {
        let region = benson::flood(p, &pa.enclosed, stride);
        left = left.and_not(&region);
        let interior = region.and_not(&near);
        let safe = match interior.count() {
            0 | 1 => true,
            2 => {
                let mut it = interior.iter();
                let (a, b) = (it.next(), it.next());
                matches!((a, b), (Some(a), Some(b)) if size.neighbours(a).contains(&b))
            }
            _ => false,
        };
        if safe {
            out = out.or(&region);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagram::parse_diagram;

    fn status_of(diagram: &str, vertex: &str) -> Unconditional {
        let board = parse_diagram(diagram).unwrap();
        let life = StaticLife::of(&board);
        let p = board.size().parse_point(vertex).unwrap();
        life.unconditional(&board, p)
    }

    /// Two separate one-point eyes in the corner: pass-alive, the eyes its territory.
    const TWO_EYES: &str = ". X . X O . .
                            X X X X O . .
                            . . . . O . .
                            . . . . O . .
                            . . . . O . .
                            . . . . O . .
                            . . . . O . .";

    #[test]
    fn two_eyes_are_pass_alive() {
        assert_eq!(status_of(TWO_EYES, "B7"), Unconditional::Alive);
        assert_eq!(
            status_of(TWO_EYES, "A7"),
            Unconditional::Territory(Color::Black)
        );
        assert_eq!(
            status_of(TWO_EYES, "C7"),
            Unconditional::Territory(Color::Black)
        );
        // White's wall has a big open side but no two vital regions.
        assert_eq!(status_of(TWO_EYES, "E7"), Unconditional::Undecided);
        assert_eq!(status_of(TWO_EYES, "A1"), Unconditional::Undecided);
    }

    #[test]
    fn one_eye_is_not_pass_alive() {
        // The two eyes with C7 filled.
        let one = TWO_EYES.replacen(". X . X", ". X X X", 1);
        assert_eq!(status_of(&one, "B7"), Unconditional::Undecided);
        assert_eq!(status_of(&one, "A7"), Unconditional::Undecided);
    }

    #[test]
    fn a_stone_inside_pass_alive_territory_is_dead() {
        // Black's chain has three vital regions: {C7}, {A4} and {A7, A6}, whose one
        // empty point is a liberty; the white stone on A6 can never make an eye.
        let d = ". X . X O . .
                 O X X X O . .
                 X X . . O . .
                 . X . . O . .
                 X X . . O . .
                 . . . . O . .
                 . . . . O . .";
        let board = parse_diagram(d).unwrap();
        let life = StaticLife::of(&board);
        let a6 = board.size().parse_point("A6").unwrap();
        let b7 = board.size().parse_point("B7").unwrap();
        assert!(life.pass_alive.black.contains(b7));
        assert!(life.dead.contains(a6));
        assert_eq!(life.unconditional(&board, a6), Unconditional::Dead);
        assert_eq!(status_of(d, "A7"), Unconditional::Territory(Color::Black));
    }

    #[test]
    fn chains_sharing_their_eyes_live_together() {
        // The lone stone on B7 and the chain around it share three one-point regions
        // (A7, C7, B6): each is vital to both, so both chains are pass-alive.
        let d = ". X . X O . .
                 X . X X O . .
                 X X X X O . .
                 . . . . O . .
                 . . . . O . .
                 . . . . O . .
                 . . . . O . .";
        let board = parse_diagram(d).unwrap();
        let life = StaticLife::of(&board);
        let s = board.size();
        for v in ["B7", "A6", "D7", "D5"] {
            assert!(
                life.pass_alive.black.contains(s.parse_point(v).unwrap()),
                "{v}"
            );
        }
        assert_eq!(status_of(d, "B6"), Unconditional::Territory(Color::Black));
    }

    #[test]
    fn statuses_print_as_gnu_go_spells_them() {
        assert_eq!(Unconditional::Alive.to_string(), "alive");
        assert_eq!(Unconditional::Dead.to_string(), "dead");
        assert_eq!(
            Unconditional::Territory(Color::White).to_string(),
            "white_territory"
        );
        assert_eq!(Unconditional::Undecided.to_string(), "undecided");
    }
}
