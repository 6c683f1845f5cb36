//! Seki by mutual self-atari: groups of both colours that live together because
//! neither side can fill a shared liberty without putting its own group in atari.
//!
//! The test is static and conservative. A set of chains (of both colours, none of them
//! pass-alive or proven dead), linked by the liberties they share, is a seki when
//! - every chain has at least two liberties;
//! - every liberty of every chain is either an *eye*, an empty point all of whose
//!   neighbours are stones of one colour, where the other colour may not play (it would
//!   be suicide), or a point where each colour's stone would be illegal or a *refuted
//!   fill*: a self-atari that captures nothing and hands the opponent a chain whose
//!   capture leaves an eye space that cannot be a dead shape (seven points or more,
//!   or a smaller shape with no 2×2 block and no point next to three others);
//! - at least one liberty is not an eye.
//!
//! A throw-in that could leave a dead shape (a nakade, as in a false seki) is not
//! refuted here, so such positions stay undecided rather than being called seki.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;
use crate::point::{Move, Point};

use super::benson::{Chain, chains};

/// The stones in a proven seki, and the liberties they share (the eyes excluded).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seki {
    /// The stones that live in seki.
    pub stones: Bitboard,
    /// The shared liberties: points that neither side can fill.
    pub shared: Bitboard,
}

/// The sekis of `board` among the chains outside `settled` (the pass-alive and proven
/// dead stones).
pub fn find_seki(board: &Board, settled: &Bitboard) -> Seki {
    let mut all: Vec<(Color, Chain)> = Vec::new();
    for c in Color::ALL {
        for chain in chains(board, c) {
            if chain.stones.and(settled).is_empty() {
                all.push((c, chain));
            }
        }
    }
    // Link chains that share a liberty (a small union-find over chain indices).
    let mut parent: Vec<usize> = (0..all.len()).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for i in 0..all.len() {
        for j in i + 1..all.len() {
            if !all[i].1.libs.and(&all[j].1.libs).is_empty() {
                let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                parent[a] = b;
            }
        }
    }
    let mut out = Seki::default();
    for root in 0..all.len() {
        if find(&mut parent, root) != root {
            continue;
        }
        let members: Vec<usize> = (0..all.len())
            .filter(|&i| find(&mut parent, i) == root)
            .collect();
        if let Some(shared) = seki_of(board, &members.iter().map(|&i| all[i]).collect::<Vec<_>>()) {
            for &i in &members {
                out.stones = out.stones.or(&all[i].1.stones);
            }
            out.shared = out.shared.or(&shared);
        }
    }
    out
}

/// The shared liberties if these linked chains form a seki.
fn seki_of(board: &Board, group: &[(Color, Chain)]) -> Option<Bitboard> {
    let has = |c: Color| group.iter().any(|(gc, _)| *gc == c);
    if !has(Color::Black) || !has(Color::White) {
        return None;
    }
    if group.iter().any(|(_, ch)| ch.libs.count() < 2) {
        return None;
    }
    let mut libs = Bitboard::EMPTY;
    for (_, ch) in group {
        libs = libs.or(&ch.libs);
    }
    let mut shared = Bitboard::EMPTY;
    for l in libs.iter() {
        if let Some(owner) = eye_owner(board, l) {
            if board.is_legal(owner.opponent(), Move::Play(l)) {
                return None;
            }
            continue;
        }
        for c in Color::ALL {
            if !fill_is_refuted(board, c, l) {
                return None;
            }
        }
        shared.insert(l);
    }
    (!shared.is_empty()).then_some(shared)
}

/// The colour of every on-board neighbour of the empty point `p`, if they are all
/// stones of one colour.
fn eye_owner(board: &Board, p: Point) -> Option<Color> {
    let mut owner = None;
    for n in board.size().neighbours(p) {
        if board.is_border(n) {
            continue;
        }
        match (board.color_at(n), owner) {
            (None, _) => return None,
            (Some(c), None) => owner = Some(c),
            (Some(c), Some(o)) if c != o => return None,
            _ => {}
        }
    }
    owner
}

/// Whether `c` on `p` is illegal, or a self-atari that captures nothing and gives the
/// opponent a chain whose capture cannot leave a dead shape.
fn fill_is_refuted(board: &Board, c: Color, p: Point) -> bool {
    if board.check(c, p).is_err() {
        // Suicide is refuted; an occupied point cannot be a liberty; a ko point is
        // playable later, so it proves nothing.
        return matches!(board.check(c, p), Err(crate::board::IllegalMove::Suicide));
    }
    let mut after = board.clone();
    let info = after.play_unchecked(c, Move::Play(p));
    if info.captured > 0 || after.liberties(p) != 1 {
        return false;
    }
    let lost: Bitboard = after.group_stones(p).collect();
    !might_be_dead_shape(board, &lost)
}

/// Whether an eye space of these points could be a dead shape (a nakade): three
/// points or fewer, or up to six with a 2×2 block or a point next to three others.
/// Seven points or more never are, counted this way.
fn might_be_dead_shape(board: &Board, space: &Bitboard) -> bool {
    let n = space.count();
    if n <= 3 {
        return true;
    }
    if n >= 7 {
        return false;
    }
    let size = board.size();
    let stride = size.stride();
    for p in space.iter() {
        let inside = size
            .neighbours(p)
            .into_iter()
            .filter(|q| space.contains(*q))
            .count();
        if inside >= 3 {
            return true;
        }
        // `p` as the lower left of a 2×2 block.
        let i = p.index();
        let block = [i + 1, i + stride, i + stride + 1];
        if block.iter().all(|&j| space.contains(Point::from_index(j))) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(board: &Board, vertices: &[&str]) -> Bitboard {
        vertices
            .iter()
            .map(|v| board.size().parse_point(v).unwrap())
            .collect()
    }

    #[test]
    fn dead_shapes_are_the_small_and_the_bulky() {
        let board = Board::new(crate::point::BoardSize::new(9).unwrap());
        // Straight and bent four live; the square and the pyramid die.
        assert!(!might_be_dead_shape(
            &board,
            &set(&board, &["A1", "B1", "C1", "D1"])
        ));
        assert!(!might_be_dead_shape(
            &board,
            &set(&board, &["A1", "B1", "C1", "C2"])
        ));
        assert!(might_be_dead_shape(
            &board,
            &set(&board, &["A1", "B1", "A2", "B2"])
        ));
        assert!(might_be_dead_shape(
            &board,
            &set(&board, &["A1", "B1", "C1", "B2"])
        ));
        assert!(might_be_dead_shape(&board, &set(&board, &["E5"])));
        let seven = set(&board, &["A1", "B1", "C1", "D1", "E1", "F1", "G1"]);
        assert!(!might_be_dead_shape(&board, &seven));
    }
}
