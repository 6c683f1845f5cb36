//! The policy network's probabilities as prior knowledge: one position's softmax over
//! its moves, kept by point slot so that the prior and the search read a move's share
//! in one load, and shared between threads and searches (the search's cache holds
//! them by position).
//!
//! At a node the network has rated, the engine's prior (`prior::model::apply`) gives
//! each candidate the blend `(1 − net_blend) × s_mm + net_blend × s_net` of the move
//! model's share `s_mm` and the network's `s_net` (both over the node's candidates),
//! as extra won virtual visits, `net_weight` of them in all.
//! Under progressive widening the blend also sets the candidates' order, but
//! only where the node is rated as it is expanded (the root, or a position the cache
//! already holds); a node rated later, at `net_visits`, keeps the order its edges were
//! published in and takes the blend as virtual visits alone.

use tengen_board::{BoardSize, Move, Point};

/// One position's probabilities from the policy network, by point slot (the pass at
/// slot 0); a point the network gave nothing (occupied, illegal) holds 0.
#[derive(Clone, Debug, PartialEq)]
pub struct NetPolicy {
    probs: Box<[f32]>,
    /// Whether the position's board is of the size the network was trained on.
    native: bool,
}

impl NetPolicy {
    /// The probabilities `point` gives each point of a board of `size`, and `pass`
    /// the pass's (negative or not finite values are read as 0), from a network
    /// trained on that size (see [`NetPolicy::on_native_size`]).
    pub fn new(size: BoardSize, point: impl Fn(Point) -> f32, pass: f32) -> NetPolicy {
        let clean = |p: f32| if p.is_finite() && p > 0.0 { p } else { 0.0 };
        let mut probs = vec![0.0; size.slots()].into_boxed_slice();
        probs[0] = clean(pass);
        for p in size.points() {
            probs[p.index()] = clean(point(p));
        }
        NetPolicy {
            probs,
            native: true,
        }
    }

    /// The same probabilities, saying whether the network was trained on the size of
    /// the board it rated (a net reads any size; `SearchParams::net_floor` holds only
    /// on its own).
    pub fn on_native_size(self, native: bool) -> NetPolicy {
        NetPolicy { native, ..self }
    }

    /// Whether the network rated a board of the size it was trained on.
    pub fn is_native(&self) -> bool {
        self.native
    }

    /// The network's probability of `mv` (0 for a move it did not rate).
    #[inline]
    pub fn probability(&self, mv: Move) -> f32 {
        let slot = match mv {
            Move::Play(p) => p.index(),
            Move::Pass => 0,
        };
        self.probs.get(slot).copied().unwrap_or(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_are_read_by_move_and_bad_values_are_none() {
        let size = BoardSize::new(9).unwrap();
        let e5 = size.parse_point("E5").unwrap();
        let a1 = size.parse_point("A1").unwrap();
        let net = NetPolicy::new(
            size,
            |p| match p {
                p if p == e5 => 0.5,
                p if p == a1 => f32::NAN,
                _ => -1.0,
            },
            0.25,
        );
        assert_eq!(net.probability(Move::Play(e5)), 0.5);
        assert_eq!(net.probability(Move::Play(a1)), 0.0);
        assert_eq!(net.probability(Move::Pass), 0.25);
        // A point of a wider board than the one rated.
        let far = BoardSize::new(19).unwrap().parse_point("T19").unwrap();
        assert_eq!(net.probability(Move::Play(far)), 0.0);
    }
}
