//! Groups that changed hands: the loser's groups that died across a drop, and whether
//! one died in a capturing race (semeai).
//!
//! A *group* here is a chain: stones of one colour connected along the lines.

use tengen_board::{Board, Color, Game, Move, Point};

use crate::eval::Ownership;
use crate::kind::KindRules;

/// The chains of `c` on `board` with at least `min` stones, each as its stones, in
/// board order.
pub fn chains(board: &Board, c: Color, min: usize) -> Vec<Vec<Point>> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for p in board.size().points() {
        if board.color_at(p) != Some(c) {
            continue;
        }
        let Some(root) = board.group(p) else { continue };
        if seen.contains(&root) {
            continue;
        }
        seen.push(root);
        let stones: Vec<Point> = board.group_stones(p).collect();
        if stones.len() >= min {
            out.push(stones);
        }
    }
    out
}

/// The positions of a drop: `moves` played from `start`.
#[derive(Clone, Copy, Debug)]
pub struct Replay<'a> {
    /// The position before the drop.
    pub start: &'a Game,
    /// The moves of the drop.
    pub moves: &'a [(Color, Move)],
}

impl Replay<'_> {
    /// The first `Some` that `visit` returns for the positions from the start, a move
    /// at a time (none once the moves end or one of them is illegal).
    fn find_map<T>(&self, mut visit: impl FnMut(&Game) -> Option<T>) -> Option<T> {
        let mut game = self.start.clone();
        let mut moves = self.moves.iter();
        loop {
            if let Some(found) = visit(&game) {
                return Some(found);
            }
            let &(c, m) = moves.next()?;
            game.play(c, m).ok()?;
        }
    }
}

/// The chains of `side` of at least `rules.min_group` stones that died across a drop
/// (the positions of `replay`): their points `side`'s by `before` (mean ownership at
/// least `rules.owned`), the opponent's by `after` and by the final map `last` (mean
/// at most `-rules.owned`), the maps being `[before, after, last]`. Every position of
/// the drop is looked at, so a chain that grew in it (the loser adding stones to a
/// group in trouble) counts at its largest, and one captured in it counts as it stood
/// before. Largest first.
pub fn died(
    replay: Replay<'_>,
    side: Color,
    maps: [&Ownership; 3],
    rules: &KindRules,
) -> Vec<Vec<Point>> {
    let [before, after, last] = maps;
    let mut seen: Vec<Vec<Point>> = Vec::new();
    replay.find_map(|game| {
        for chain in chains(game.board(), side, rules.min_group) {
            remember(&mut seen, chain);
        }
        None::<()>
    });
    let mut dead: Vec<Vec<Point>> = seen
        .into_iter()
        .filter(|g| {
            before.mean(g) >= rules.owned
                && after.mean(g) <= -rules.owned
                && last.mean(g) <= -rules.owned
        })
        .collect();
    dead.sort_by_key(|g| std::cmp::Reverse(g.len()));
    dead
}

/// Keeps `chain` among `seen`, each chain at its largest: every kept chain sharing a
/// stone with `chain` (two kept chains that merged into it both do) is taken out, and
/// the largest of them and `chain` is kept in their place, so that one group is never
/// kept twice.
fn remember(seen: &mut Vec<Vec<Point>>, chain: Vec<Point>) {
    let mut largest = chain;
    let mut i = 0;
    while i < seen.len() {
        if seen[i].iter().any(|p| largest.contains(p)) {
            let kept = seen.swap_remove(i);
            if kept.len() > largest.len() {
                largest = kept;
            }
        } else {
            i += 1;
        }
    }
    seen.push(largest);
}

/// A capturing race `group` (stones of `side`) lost: of the positions of `replay`,
/// the first (moves played) where a chain holding stones of `group` and an adjacent
/// opponent chain of at least two stones both had at most `rules.short_liberties`
/// liberties, and that opponent chain's points are the opponent's in the final map
/// `last`. Returns the move count and the opponent chain.
pub fn lost_semeai(
    replay: Replay<'_>,
    group: &[Point],
    side: Color,
    last: &Ownership,
    rules: &KindRules,
) -> Option<(usize, Vec<Point>)> {
    replay.find_map(|game| {
        race(game.board(), group, side, last, rules).map(|h| (game.move_count(), h))
    })
}

/// The opponent chain `group` is racing on `board`, if any.
fn race(
    board: &Board,
    group: &[Point],
    side: Color,
    last: &Ownership,
    rules: &KindRules,
) -> Option<Vec<Point>> {
    let size = board.size();
    for &s in group {
        if board.color_at(s) != Some(side) || board.liberties(s) > rules.short_liberties {
            continue;
        }
        for stone in board.group_stones(s) {
            for n in size.neighbours(stone) {
                if board.color_at(n) != Some(side.opponent()) {
                    continue;
                }
                if board.liberties(n) > rules.short_liberties || board.group_size(n) < 2 {
                    continue;
                }
                let h: Vec<Point> = board.group_stones(n).collect();
                if last.mean(&h) <= -rules.owned {
                    return Some(h);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MatchGame;
    use std::ops::RangeInclusive;
    use tengen_board::BoardSize;

    fn rules() -> KindRules {
        KindRules::default()
    }

    /// The one position `game`, no move played.
    fn still(game: &Game) -> Replay<'_> {
        Replay {
            start: game,
            moves: &[],
        }
    }

    /// The match record of the game `sgf`.
    fn record(sgf: &str) -> MatchGame {
        MatchGame::parse("t", sgf).unwrap()
    }

    /// Black's ownership of the whole board (0.8), and the same with the columns
    /// `lost` (0-based) the winner's (−0.9).
    fn columns_lost(size: BoardSize, lost: RangeInclusive<usize>) -> (Ownership, Ownership) {
        let mine = Ownership::from_fn(size, |_| 0.8);
        let after = Ownership::from_fn(size, |p| {
            if lost.contains(&size.coords(p).0) {
                -0.9
            } else {
                0.8
            }
        });
        (mine, after)
    }

    /// Black's groups that died replaying `m` from move `from` to its end: Black's
    /// before, `lost` at the drop and at the end.
    fn black_deaths(
        m: &MatchGame,
        from: usize,
        mine: &Ownership,
        lost: &Ownership,
        rules: &KindRules,
    ) -> Vec<Vec<Point>> {
        let moves = &m.moves()[from..];
        let start = m.position(from);
        let replay = Replay {
            start: &start,
            moves,
        };
        died(replay, Color::Black, [mine, lost, lost], rules)
    }

    #[test]
    fn chains_are_counted_by_their_stones() {
        let g = record("(;SZ[9];B[ee];W[aa];B[ef];W[ab];B[eg];W[ba];B[ii])").game;
        let black = chains(g.board(), Color::Black, 3);
        assert_eq!(black.len(), 1);
        assert_eq!(black[0].len(), 3);
        assert_eq!(chains(g.board(), Color::White, 3).len(), 1);
        assert_eq!(chains(g.board(), Color::Black, 1).len(), 2);
    }

    #[test]
    fn a_group_owned_before_and_lost_after_died() {
        let g = record("(;SZ[9];B[ee];W[aa];B[ef];W[ab];B[eg];W[ba];B[eh])").game;
        let e5 = g.size().parse_point("E5").unwrap();
        let (mine, lost) = columns_lost(g.size(), 4..=4);
        let dead = died(still(&g), Color::Black, [&mine, &lost, &lost], &rules());
        assert_eq!(dead.len(), 1);
        assert!(dead[0].contains(&e5));
        // Lost at the drop but the loser's again at the end: not dead.
        assert!(died(still(&g), Color::Black, [&mine, &lost, &mine], &rules()).is_empty());
        // Never the loser's: it did not die in the drop.
        assert!(died(still(&g), Color::Black, [&lost, &lost, &lost], &rules()).is_empty());
    }

    #[test]
    fn a_chain_that_grows_in_the_drop_counts_at_its_largest() {
        // Three black stones at move 5 (below the group size), five by move 9.
        let m = record("(;SZ[9];B[ee];W[aa];B[ef];W[ab];B[eg];W[ba];B[eh];W[ia];B[ei])");
        let (mine, lost) = columns_lost(m.size(), 4..=4);
        let start = m.position(5);
        assert!(died(still(&start), Color::Black, [&mine, &lost, &lost], &rules()).is_empty());
        let dead = black_deaths(&m, 5, &mine, &lost, &rules());
        assert_eq!(dead.len(), 1);
        assert_eq!(dead[0].len(), 5);
    }

    #[test]
    fn two_chains_that_merge_and_then_die_are_one_death() {
        // Black's two chains of three (d-f on the fifth and third lines from the top)
        // join at ef into one chain of seven; then all of it is lost.
        let m = record(
            "(;SZ[9];B[de];W[aa];B[ee];W[ba];B[fe];W[ca];B[dg];W[da];B[eg];W[ea];B[fg];W[fa];B[ef])",
        );
        let (mine, lost) = columns_lost(m.size(), 3..=5);
        // Chains of three count: both are kept before the merge.
        let rules = KindRules {
            min_group: 3,
            ..rules()
        };
        // Replayed from move 11: two chains of three, then the merged seven.
        assert_eq!(chains(m.position(11).board(), Color::Black, 3).len(), 2);
        let dead = black_deaths(&m, 11, &mine, &lost, &rules);
        assert_eq!(dead.len(), 1, "{dead:?}");
        assert_eq!(dead[0].len(), 7);
    }

    #[test]
    fn two_short_chains_side_by_side_are_a_race() {
        // Black C1-C2-B2-A2 (two liberties) against White's D1-D2-D3-C3-B3-A3 around
        // it, which Black's E1-E2-E3 and D4 leave three.
        let m = record(
            "(;SZ[9];B[ci];W[di];B[ch];W[dh];B[bh];W[dg];B[ah];W[cg];B[ei];W[bg];B[eh];W[ag]\
             ;B[eg];W[ia];B[df];W[ib])",
        );
        let size = m.size();
        let group: Vec<Point> = ["C1", "C2", "B2", "A2"]
            .iter()
            .map(|v| size.parse_point(v).unwrap())
            .collect();
        // Replayed from move 12 (White still has five liberties), the race starts when
        // D4 leaves White three.
        let start = m.position(12);
        let race = |moves: &[(Color, Move)], last: &Ownership| {
            let replay = Replay {
                start: &start,
                moves,
            };
            lost_semeai(replay, &group, Color::Black, last, &rules())
        };
        let moves = &m.moves()[12..];
        let white_wins = Ownership::from_fn(size, |_| -0.9);
        let (at, h) = race(moves, &white_wins).unwrap();
        assert_eq!(at, 15);
        assert_eq!(h.len(), 6);
        // Before it, no race.
        assert!(race(&[], &white_wins).is_none());
        // If White's chain did not live, it was no race Black lost.
        let black_wins = Ownership::from_fn(size, |_| 0.9);
        assert!(race(moves, &black_wins).is_none());
    }
}
