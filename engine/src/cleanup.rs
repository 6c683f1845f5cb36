//! The clean-up's proven captures: the killing line of an opponent chain that the
//! local search proves dead, played move by move instead of left to the playouts
//! (which never play a bent four's ko out).
//!
//! Each move's killing move is read afresh from the board
//! ([`LocalDeath::killing_move`]: the local search with the attacker to move), so it
//! answers whatever the opponent played. The deaths whose line is being played are
//! kept from move to move: once the defender has answered, the chain need not be
//! dead any longer with the defender to move (bent four in the corner, after the
//! defender has taken the attacker's four stones, lives if the defender moves twice
//! in a row), and the judgement no longer lists it, yet the proof goes on from the
//! attacker's side.
//!
//! Inside the area of a proven death the clean-up plays only the proof's killing move
//! from the current board; when none is proven from there (a ko ban, the search's
//! budget) it plays elsewhere or passes.

use tengen_board::life::LocalDeath;
use tengen_board::{Bitboard, Color, Game, Move, Point};

use crate::ownership::Judgement;

/// What the proofs say of the clean-up's next move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Proven {
    /// Play this killing move.
    Kill(Point),
    /// No killing move is proven from here (a ko ban, the search's budget), or one of
    /// our chains outside the area is in atari: play nowhere in these areas, where an
    /// unproven move may let a dead chain live (a move elsewhere is what the proof
    /// calls a pass, which it allows).
    Avoid(Bitboard),
}

/// The local deaths of opponent chains whose killing line the clean-up is playing.
#[derive(Clone, Debug, Default)]
pub(crate) struct KillLines {
    lines: Vec<LocalDeath>,
}

impl KillLines {
    /// Forgets every line (a new game, or a move taken back).
    pub(crate) fn clear(&mut self) {
        self.lines.clear();
    }

    /// The proofs' say on `color`'s next clean-up move in `game`, `judgement` being
    /// the judgement of the position: the deaths of opponent chains it applies, then
    /// the lines kept from earlier moves (in areas apart from those) that still hold
    /// under it, each asked for its killing move from the board as it is. The first
    /// proven move is the answer; with none, the areas where it was sought are to be
    /// avoided. The lines whose dead stones are all still on the board are kept for
    /// the next move; the others (captured: the line is over) are dropped.
    pub(crate) fn next_move(&mut self, game: &Game, judgement: &Judgement, color: Color) -> Proven {
        let board = game.board();
        let of = |c: Color| {
            move |d: &LocalDeath| {
                !d.stones.is_empty() && d.stones.and_not(board.stones(c)).is_empty()
            }
        };
        let theirs = of(color.opponent());
        let mut lines: Vec<LocalDeath> = judgement
            .proven_deaths()
            .into_iter()
            .filter(|d| theirs(d))
            .copied()
            .collect();
        let fresh = lines.iter().fold(Bitboard::EMPTY, |m, d| m.or(&d.area()));
        lines.extend(
            self.lines
                .iter()
                .filter(|d| theirs(d) && d.area().and(&fresh).is_empty() && judgement.holds(d))
                .copied(),
        );
        // A proof assumes the attacker's walls stand: while a chain of ours outside a
        // death's area is in atari (an attack on a wall, or a threat elsewhere), that
        // line waits and the search answers.
        let threatened = |d: &LocalDeath| {
            board
                .stones(color)
                .and_not(&d.area())
                .iter()
                .any(|p| board.liberties(p) == 1)
        };
        let mut avoid = Bitboard::EMPTY;
        let mut kill = None;
        for d in &lines {
            match d.killing_move(game) {
                Some(p) if game.is_legal(color, Move::Play(p)) && !threatened(d) => {
                    kill = Some(p);
                    break;
                }
                _ => avoid = avoid.or(&d.area()),
            }
        }
        // The lines the opponent plays against this colour's chains (one engine may
        // clean up for both sides) stay as they are.
        lines.extend(self.lines.iter().filter(|d| of(color)(d)).copied());
        self.lines = lines;
        match kill {
            Some(p) => Proven::Kill(p),
            None => Proven::Avoid(avoid),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ownership::Status;
    use tengen_board::{Rules, StaticLife, parse_diagram};

    /// The bent four in the corner (the first board of tests/data/life/bent-four.txt),
    /// from the diagram file the board's and the engine's tests share.
    const BENT_FOUR: &str = include_str!("../../tests/data/diagrams/bent-four-corner.txt");

    fn game_of(diagram: &str) -> Game {
        Game::from_setup(&parse_diagram(diagram).unwrap(), Rules::chinese()).unwrap()
    }

    /// A judgement that applies what the static analysis of `game` proves and
    /// nothing else.
    fn proofs_of(game: &Game) -> Judgement {
        Judgement {
            status: Status::default(),
            ownership: Vec::new(),
            life: StaticLife::of_game(game),
        }
    }

    #[test]
    fn a_line_kept_from_an_earlier_board_is_played_or_fenced_off() {
        let game = game_of(BENT_FOUR);
        let judged = proofs_of(&game);
        let death = judged.proven_deaths()[0].to_owned();
        let mut lines = KillLines::default();
        let Proven::Kill(p) = lines.next_move(&game, &judged, Color::Black) else {
            panic!("no killing move on the bent four")
        };
        assert!(death.area().contains(p));
        // White's own clean-up leaves Black's lines as they are.
        assert_eq!(
            lines.next_move(&game, &judged, Color::White),
            Proven::Avoid(Bitboard::EMPTY)
        );
        // A hole in the wall (E9) opens the area: the kept line proves no move, and
        // its area is fenced off.
        let opened = game_of(&BENT_FOUR.replacen("O X", "O .", 1));
        let nothing = proofs_of(&opened);
        assert!(nothing.proven_deaths().is_empty());
        assert_eq!(
            lines.next_move(&opened, &nothing, Color::Black),
            Proven::Avoid(death.area())
        );
        // Once its stones are gone the line is over.
        let taken = game_of(
            ". X . . X . . . .
             X . . . X . . . .
             . . . . X . . . .
             . . . . X . . . .
             X X X X X . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        );
        let judged = proofs_of(&taken);
        assert_eq!(
            lines.next_move(&taken, &judged, Color::Black),
            Proven::Avoid(Bitboard::EMPTY)
        );
        assert!(lines.lines.is_empty());
    }

    #[test]
    fn a_line_waits_while_a_chain_of_ours_is_in_atari() {
        // Black's H1 is in atari (White G1 and H2): the search answers that first, and
        // the corner's area is fenced off meanwhile; with H2 gone the line goes on.
        let threatened = ". X . O X . . . .
                          X O O O X . . . .
                          . O O O X . . . .
                          O O O O X . . . .
                          X X X X X . . . .
                          . . . . . . . . .
                          . . . . . . . . .
                          . . . . . . . O .
                          . . . . . . O X .";
        let game = game_of(threatened);
        let judged = proofs_of(&game);
        let death = judged.proven_deaths()[0].to_owned();
        let mut lines = KillLines::default();
        assert_eq!(
            lines.next_move(&game, &judged, Color::Black),
            Proven::Avoid(death.area())
        );
        let saved = game_of(&threatened.replacen(". . . . . . . O .", ". . . . . . . . .", 1));
        let judged = proofs_of(&saved);
        assert!(matches!(
            lines.next_move(&saved, &judged, Color::Black),
            Proven::Kill(p) if death.area().contains(p)
        ));
    }
}
