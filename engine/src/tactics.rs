//! Small tactical readers shared by the heavy playouts and the priors: ladders.

use tengen_board::{Board, Color, Move, Point};

/// Most positions a ladder read visits before giving up (and calling it no capture).
const LADDER_NODES: u32 = 64;

/// Whether `c` extending its group in atari at the group's last liberty `lib` escapes:
/// the group ends with three or more liberties, or with two and the opponent cannot
/// capture it in a ladder. `board` is left unchanged.
pub fn escape_works(board: &Board, c: Color, lib: Point) -> bool {
    if board.check(c, lib).is_err() {
        return false;
    }
    match board.liberties_after(c, lib, 3) {
        0 | 1 => false,
        2 => {
            let mut b = board.clone();
            b.play_unchecked(c, Move::Play(lib));
            let mut budget = LADDER_NODES;
            !ladder_captures(&b, lib, c.opponent(), &mut budget)
        }
        _ => true,
    }
}

/// Whether `attacker`, to move, captures the two-liberty group on `group` by ataris
/// the defender can only answer by extending (capturing an attacker stone in atari
/// next to the group counts as escaping).
pub fn ladder_captures(board: &Board, group: Point, attacker: Color, budget: &mut u32) -> bool {
    let defender = attacker.opponent();
    if board.liberties(group) != 2 {
        return board.liberties(group) < 2;
    }
    let set = board.liberty_set(group);
    let mut it = set.iter();
    let libs = [it.next(), it.next()];
    for atari in libs.into_iter().flatten() {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        if board.check(attacker, atari).is_err() {
            continue;
        }
        let mut b = board.clone();
        b.play_unchecked(attacker, Move::Play(atari));
        if b.liberties(group) != 1 {
            continue; // the atari captured something and freed liberties
        }
        // The attacker's stone in atari can be taken: no ladder.
        if b.liberties(atari) == 1 || counter_capture(&b, group) {
            continue;
        }
        let Some(run) = b.atari_liberty(group) else {
            continue;
        };
        if b.check(defender, run).is_err() {
            return true;
        }
        match b.liberties_after(defender, run, 3) {
            0 | 1 => return true,
            2 => {
                b.play_unchecked(defender, Move::Play(run));
                if ladder_captures(&b, group, attacker, budget) {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// Whether some attacker group touching the group on `group` is in atari.
fn counter_capture(board: &Board, group: Point) -> bool {
    let Some(defender) = board.color_at(group) else {
        return false;
    };
    let size = board.size();
    board.group_stones(group).any(|s| {
        size.neighbours(s)
            .into_iter()
            .any(|n| board.color_at(n) == Some(defender.opponent()) && board.liberties(n) == 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_board::parse_diagram;

    #[test]
    fn a_ladder_towards_the_edge_captures_and_a_ladder_breaker_saves() {
        // Black B3 is in atari; extending to C3 leaves two liberties and White chases
        // it down to the first line.
        let open = ". . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                    . O O . . . . . .
                    O X . . . . . . .
                    . O . . . . . . .
                    . . . . . . . . .";
        let b = parse_diagram(open).unwrap();
        let s = b.size();
        let p = |v: &str| s.parse_point(v).unwrap();
        assert_eq!(b.liberties(p("B3")), 1);
        assert!(!escape_works(&b, Color::Black, p("C3")), "the ladder works");
        // A black stone on the ladder's path breaks it.
        let mut broken = b.clone();
        broken.play_unchecked(Color::Black, Move::Play(p("D2")));
        assert!(
            escape_works(&broken, Color::Black, p("C3")),
            "the breaker saves it"
        );
        // In open space three liberties: no ladder needed.
        let free = parse_diagram(
            ". . . . .
             . . O . .
             . O X . .
             . . O . .
             . . . . .",
        )
        .unwrap();
        let q = free.size().parse_point("D3").unwrap();
        assert!(escape_works(&free, Color::Black, q));
    }
}
