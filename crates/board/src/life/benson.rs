//! Benson's algorithm: the chains of one colour that no sequence of opponent moves can
//! capture, even if their owner passes every turn (pass-alive chains), and the regions
//! they enclose.
//!
//! D. B. Benson, "Life in the game of Go", Information Sciences 10 (1976). A region is
//! a maximal connected set of points without a stone of the colour; it is *vital* to a
//! chain when every empty point in it is a liberty of that chain. Repeat until nothing
//! changes: drop every chain with fewer than two vital regions left, then every region
//! that touches a dropped chain. What is left is pass-alive.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;

/// A chain of stones (one group) as sets.
#[derive(Clone, Copy, Debug)]
pub(super) struct Chain {
    /// The chain's stones.
    pub stones: Bitboard,
    /// Its liberties.
    pub libs: Bitboard,
}

/// The chains of colour `c`.
pub(super) fn chains(board: &Board, c: Color) -> Vec<Chain> {
    let stride = board.size().stride();
    let own = *board.stones(c);
    let empties = board.empties();
    let mut left = own;
    let mut out = Vec::new();
    while let Some(p) = left.first() {
        let stones = flood(p, &own, stride);
        left = left.and_not(&stones);
        let libs = stones.dilate(stride, &empties);
        out.push(Chain { stones, libs });
    }
    out
}

/// The connected part of `within` that holds `start` (orthogonal steps).
pub(super) fn flood(start: crate::point::Point, within: &Bitboard, stride: usize) -> Bitboard {
    let mut set = Bitboard::EMPTY;
    set.insert(start);
    loop {
        let grown = set.dilate(stride, within).or(&set);
        if grown == set {
            return set;
        }
        set = grown;
    }
}

/// What Benson's algorithm proves for one colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PassAlive {
    /// The stones of the pass-alive chains.
    pub stones: Bitboard,
    /// The points of the regions that only pass-alive chains of the colour border
    /// (empty points and the opponent's stones in them).
    pub enclosed: Bitboard,
}

/// Benson's algorithm for the chains of `c`.
pub fn pass_alive(board: &Board, c: Color) -> PassAlive {
    let chains = chains(board, c);
    if chains.is_empty() {
        return PassAlive::default();
    }
    let regions = regions(board, c, &chains);
    let (chain_in, region_in) = drop_until_settled(&chains, &regions);
    let mut out = PassAlive::default();
    for (chain, _) in chains.iter().zip(&chain_in).filter(|(_, a)| **a) {
        out.stones = out.stones.or(&chain.stones);
    }
    for (r, _) in regions.iter().zip(&region_in).filter(|(_, k)| **k) {
        // A region that touches no chain at all (an empty board) proves nothing.
        if !r.touches.is_empty() {
            out.enclosed = out.enclosed.or(&r.points);
        }
    }
    out
}

/// A region of colour `c`: a maximal connected set of points without a stone of `c`,
/// with the chains it touches and the chains it is vital to (indices into the chains).
struct Region {
    points: Bitboard,
    touches: Vec<usize>,
    vital_to: Vec<usize>,
}

/// The regions of colour `c`, whose chains are `chains`.
fn regions(board: &Board, c: Color, chains: &[Chain]) -> Vec<Region> {
    let stride = board.size().stride();
    let open = board.on_board().and_not(board.stones(c));
    let empties = board.empties();
    let mut regions = Vec::new();
    let mut left = open;
    while let Some(p) = left.first() {
        let points = flood(p, &open, stride);
        left = left.and_not(&points);
        let region_empties = points.and(&empties);
        let mut touches = Vec::new();
        let mut vital_to = Vec::new();
        for (i, chain) in chains.iter().enumerate() {
            if chain.stones.dilate(stride, &points).is_empty() {
                continue;
            }
            touches.push(i);
            // A region with no empty point cannot occur on a legal board; it is never
            // counted as vital.
            if !region_empties.is_empty() && region_empties.and_not(&chain.libs).is_empty() {
                vital_to.push(i);
            }
        }
        regions.push(Region {
            points,
            touches,
            vital_to,
        });
    }
    regions
}

/// The repeated step of the algorithm until nothing changes: drop every chain with
/// fewer than two vital regions left, then every region that touches a dropped chain.
/// Which chains and which regions are left, in the order given.
fn drop_until_settled(chains: &[Chain], regions: &[Region]) -> (Vec<bool>, Vec<bool>) {
    let mut chain_in = vec![true; chains.len()];
    let mut region_in = vec![true; regions.len()];
    loop {
        let mut changed = false;
        for (i, alive) in chain_in.iter_mut().enumerate() {
            if !*alive {
                continue;
            }
            let vital = regions
                .iter()
                .zip(&region_in)
                .filter(|(r, keep)| **keep && r.vital_to.contains(&i))
                .count();
            if vital < 2 {
                *alive = false;
                changed = true;
            }
        }
        for (r, keep) in regions.iter().zip(region_in.iter_mut()) {
            if *keep && r.touches.iter().any(|&i| !chain_in[i]) {
                *keep = false;
                changed = true;
            }
        }
        if !changed {
            return (chain_in, region_in);
        }
    }
}
