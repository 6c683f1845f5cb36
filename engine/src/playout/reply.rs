//! Last good reply with forgetting (LGRF-1, Baier and Drake 2010): the playouts learn
//! answers to moves from their own results.
//!
//! After each playout, every move the winner made is stored as the reply to the move
//! just before it; a stored reply that the loser made is forgotten. The heavy policy
//! then tries the stored reply to the last move (see `HeavyParams::reply`). A table
//! belongs to one search thread and lives across its playouts and moves.

use tengen_board::{Color, MAX_SLOTS, Move, Point};

/// The reply table and the record of the playout being played. Not `Clone`: a clone
/// of the record would lose the capacity that keeps recording free of allocation.
pub struct Replies {
    /// For each colour and previous move's point, the reply point's index (0: none).
    reply: [[u16; MAX_SLOTS]; 2],
    /// The moves of the current playout, as point indices (0: pass).
    moves: Vec<u16>,
    /// Who made the first recorded move.
    first: Color,
}

impl std::fmt::Debug for Replies {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let stored = self.reply.iter().flatten().filter(|&&r| r != 0).count();
        write!(f, "Replies({stored} stored)")
    }
}

impl Default for Replies {
    fn default() -> Replies {
        Replies {
            reply: [[0; MAX_SLOTS]; 2],
            // Room for the longest playout (three times the largest board) and the
            // move before it, so recording never allocates.
            moves: Vec::with_capacity(3 * MAX_SLOTS + 1),
            first: Color::Black,
        }
    }
}

fn index(mv: Move) -> u16 {
    match mv {
        Move::Play(p) => p.index() as u16,
        Move::Pass => 0,
    }
}

impl Replies {
    /// The stored reply of `c` to `last`, if any.
    #[inline]
    pub fn get(&self, c: Color, last: Point) -> Option<Point> {
        match self.reply[c as usize][last.index()] {
            0 => None,
            r => Some(Point::from_index(r as usize)),
        }
    }

    /// Starts recording a playout that `to_move` begins; `last` is the move before
    /// it (the opponent's), so the reply to it can be learned too.
    #[inline]
    pub fn start(&mut self, to_move: Color, last: Option<Point>) {
        self.moves.clear();
        match last {
            Some(p) => {
                self.moves.push(p.index() as u16);
                self.first = to_move.opponent();
            }
            None => self.first = to_move,
        }
    }

    /// Records the next move (the colours alternate).
    #[inline]
    pub fn record(&mut self, mv: Move) {
        if self.moves.len() < self.moves.capacity() {
            self.moves.push(index(mv));
        }
    }

    /// Learns from the finished playout that `winner` won.
    pub fn learn(&mut self, winner: Color) {
        let mut c = self.first.opponent();
        for pair in self.moves.windows(2) {
            let (prev, cur) = (pair[0] as usize, pair[1]);
            if prev != 0 && cur != 0 {
                let slot = &mut self.reply[c as usize][prev];
                if c == winner {
                    *slot = cur;
                } else if *slot == cur {
                    *slot = 0;
                }
            }
            c = c.opponent();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_board::BoardSize;

    #[test]
    fn learns_the_winners_replies_and_forgets_the_losers() {
        let s = BoardSize::new(9).unwrap();
        let p = |v: &str| s.parse_point(v).unwrap();
        let mut r = Replies::default();
        // White played E5 before the playout; Black answers D4, White C3, Black pass.
        r.start(Color::Black, Some(p("E5")));
        for mv in [Move::Play(p("D4")), Move::Play(p("C3")), Move::Pass] {
            r.record(mv);
        }
        r.learn(Color::Black);
        assert_eq!(r.get(Color::Black, p("E5")), Some(p("D4")));
        assert_eq!(r.get(Color::White, p("D4")), None, "the loser's reply");
        // The same line lost by Black: its reply is forgotten.
        r.start(Color::Black, Some(p("E5")));
        r.record(Move::Play(p("D4")));
        r.learn(Color::White);
        assert_eq!(r.get(Color::Black, p("E5")), None);
        // Without a move before the playout, the first move answers nothing.
        r.start(Color::Black, None);
        r.record(Move::Play(p("G7")));
        r.record(Move::Play(p("G6")));
        r.learn(Color::White);
        assert_eq!(r.get(Color::White, p("G7")), Some(p("G6")));
    }
}
