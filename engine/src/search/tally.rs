//! The counters a search keeps besides its tree.
//!
//! What every playout records (its root move's result and score, the ownership of its
//! final position, over the board and, when asked, per root move, a count) goes to
//! the worker's own [`Tally`]: counters that only
//! that worker writes, with a plain load and store, on cache lines no other worker
//! writes, read by whoever reports. Nothing a playout writes is shared but the tree.
//! The [`RootShare`] holds the little the workers do share: what the reused tree
//! already knew of each root move, the flags, and the claim count of a playout budget.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, Ordering::Relaxed};

use tengen_board::{MAX_SLOTS, Point};

use crate::padded::Padded;

/// One worker's counters, per root move by point slot (0 = pass) and per point.
#[derive(Debug)]
pub(crate) struct Tally {
    /// Playouts through each root move.
    visits: Box<[AtomicU64]>,
    /// Their wins for the side to move.
    wins: Box<[AtomicU64]>,
    /// Their final scores for the side to move, in half points.
    score2: Box<[AtomicI64]>,
    /// The sum of the squares of those scores, for their spread.
    score_sq: Box<[AtomicU64]>,
    /// Playouts that ended with each point Black's / White's (when asked for).
    black_owned: Box<[AtomicU32]>,
    white_owned: Box<[AtomicU32]>,
    /// Playouts counted in the ownership.
    owned_playouts: AtomicU32,
    /// The ownership per root move, when a search asks for it (kept for the next).
    moves: Option<MovesOwnership>,
    /// Playouts finished.
    playouts: AtomicU64,
    /// How many playouts (through any root move) ended with each final score for the
    /// side to move: bin `i` holds the score of `i - SCORE_HALF` half points, the
    /// ends also every score beyond them.
    scores: Box<[AtomicU32]>,
}

/// The half points each side of 0 the score histogram tells apart: any area count of
/// the largest board with any komi the rules accept (at most 1000 points).
const SCORE_HALF: i64 = 2 * (MAX_SLOTS as i64 + 1000);

/// Ownership counts per root move: for each root move slot, a row of `stride` point
/// slots (the board's padded slots) of Black's and of White's, and the playouts
/// counted in that row.
#[derive(Debug)]
struct MovesOwnership {
    stride: usize,
    black: Box<[AtomicU32]>,
    white: Box<[AtomicU32]>,
    playouts: Box<[AtomicU32]>,
}

impl MovesOwnership {
    /// Counters at zero for a board of `stride` slots.
    fn new(stride: usize) -> MovesOwnership {
        let zeros = |n: usize| (0..n).map(|_| AtomicU32::new(0)).collect();
        MovesOwnership {
            stride,
            black: zeros(stride * stride),
            white: zeros(stride * stride),
            playouts: zeros(stride),
        }
    }

    /// Back to zero.
    fn reset(&mut self) {
        for a in self
            .black
            .iter_mut()
            .chain(self.white.iter_mut())
            .chain(self.playouts.iter_mut())
        {
            *a.get_mut() = 0;
        }
    }
}

/// Adds `by` to a counter only the calling worker writes.
#[inline]
fn add_u64(a: &AtomicU64, by: u64) {
    a.store(a.load(Relaxed) + by, Relaxed);
}

#[inline]
fn add_u32(a: &AtomicU32) {
    a.store(a.load(Relaxed) + 1, Relaxed);
}

fn zeros<T: Default>() -> Box<[T]> {
    (0..MAX_SLOTS).map(|_| T::default()).collect()
}

impl Tally {
    /// Counters at zero.
    pub(crate) fn new() -> Tally {
        Tally {
            visits: zeros(),
            wins: zeros(),
            score2: zeros(),
            score_sq: zeros(),
            black_owned: zeros(),
            white_owned: zeros(),
            owned_playouts: AtomicU32::new(0),
            moves: None,
            playouts: AtomicU64::new(0),
            scores: (0..=2 * SCORE_HALF).map(|_| AtomicU32::new(0)).collect(),
        }
    }

    /// Back to zero (before a search; no other thread reads it then), with counters
    /// of the ownership per root move on a board of `moves_stride` slots when it is
    /// given (see [`Tally::add_move_ownership`]); without it, counters an earlier
    /// search made are kept as they are, for a later one, and must not be read.
    pub(crate) fn reset(&mut self, moves_stride: Option<usize>) {
        match (moves_stride, &mut self.moves) {
            (Some(stride), Some(m)) if m.stride == stride => m.reset(),
            (Some(stride), _) => self.moves = Some(MovesOwnership::new(stride)),
            (None, _) => {}
        }
        for a in self
            .visits
            .iter_mut()
            .chain(self.wins.iter_mut())
            .chain(self.score_sq.iter_mut())
        {
            *a.get_mut() = 0;
        }
        for a in self.score2.iter_mut() {
            *a.get_mut() = 0;
        }
        for a in self
            .black_owned
            .iter_mut()
            .chain(self.white_owned.iter_mut())
        {
            *a.get_mut() = 0;
        }
        *self.owned_playouts.get_mut() = 0;
        *self.playouts.get_mut() = 0;
        for a in self.scores.iter_mut() {
            *a.get_mut() = 0;
        }
    }

    /// A finished playout (counted whatever it reached).
    #[inline]
    pub(crate) fn count_playout(&self) {
        add_u64(&self.playouts, 1);
    }

    /// A playout through the root move at `slot`: won or not by the side to move, and
    /// its score for the side to move in half points.
    #[inline]
    pub(crate) fn add_root(&self, slot: usize, won: bool, score2: i64) {
        add_u64(&self.visits[slot], 1);
        add_u64(&self.wins[slot], u64::from(won));
        let s = &self.score2[slot];
        s.store(s.load(Relaxed) + score2, Relaxed);
        add_u64(&self.score_sq[slot], score2.unsigned_abs().pow(2));
        add_u32(&self.scores[(score2.clamp(-SCORE_HALF, SCORE_HALF) + SCORE_HALF) as usize]);
    }

    /// Playouts of this search that ended `i - SCORE_HALF` half points up for the
    /// side to move (the ends: that far or further).
    fn score_count(&self, i: usize) -> u32 {
        self.scores[i].load(Relaxed)
    }

    /// The final position's owners: the points of each colour's area.
    #[inline]
    pub(crate) fn add_ownership(
        &self,
        black: impl Iterator<Item = Point>,
        white: impl Iterator<Item = Point>,
    ) {
        for p in black {
            add_u32(&self.black_owned[p.index()]);
        }
        for p in white {
            add_u32(&self.white_owned[p.index()]);
        }
        add_u32(&self.owned_playouts);
    }

    /// The final position's owners, for the root move at `slot` the playout went
    /// through. Nothing before a [`Tally::reset`] made counters for it.
    #[inline]
    pub(crate) fn add_move_ownership(
        &self,
        slot: usize,
        black: impl Iterator<Item = Point>,
        white: impl Iterator<Item = Point>,
    ) {
        let Some(m) = &self.moves else { return };
        if slot >= m.stride {
            return;
        }
        let row = slot * m.stride;
        for p in black {
            add_u32(&m.black[row + p.index()]);
        }
        for p in white {
            add_u32(&m.white[row + p.index()]);
        }
        add_u32(&m.playouts[slot]);
    }

    /// Playouts through the root move at `slot` counted in its ownership, and how many
    /// of them ended with point slot `p` Black's and White's (zeros without counters).
    pub(crate) fn move_owned(&self, slot: usize, p: usize) -> (u32, u32, u32) {
        match &self.moves {
            Some(m) if slot < m.stride && p < m.stride => {
                let i = slot * m.stride + p;
                (
                    m.playouts[slot].load(Relaxed),
                    m.black[i].load(Relaxed),
                    m.white[i].load(Relaxed),
                )
            }
            _ => (0, 0, 0),
        }
    }

    /// Playouts finished.
    pub(crate) fn playouts(&self) -> u64 {
        self.playouts.load(Relaxed)
    }

    /// Playouts through the root move at `slot`, their wins and scores.
    pub(crate) fn root(&self, slot: usize) -> RootCounts {
        let visits = self.visits[slot].load(Relaxed);
        RootCounts {
            visits,
            wins: self.wins[slot].load(Relaxed),
            scored: visits,
            score2: self.score2[slot].load(Relaxed),
            score_sq: self.score_sq[slot].load(Relaxed),
        }
    }

    /// Playouts counted in the ownership, and how many of them ended with point slot
    /// `p` Black's and White's.
    pub(crate) fn owned(&self, p: usize) -> (u32, u32, u32) {
        (
            self.owned_playouts.load(Relaxed),
            self.black_owned[p].load(Relaxed),
            self.white_owned[p].load(Relaxed),
        )
    }
}

/// The median final score for the side to move, in points, over every playout of
/// this search the workers' `tallies` counted (the mean of the two middle ones for an
/// even count); `None` before any. At least half the playouts ended at or above it
/// and at least half at or below, so it has the sign of the side the playouts favour.
pub(crate) fn median_score(tallies: &[&Tally]) -> Option<f64> {
    let bins = 2 * SCORE_HALF as usize + 1;
    let counts: Vec<u64> = (0..bins)
        .map(|i| tallies.iter().map(|t| u64::from(t.score_count(i))).sum())
        .collect();
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    // The bins holding the playouts of rank (n - 1) / 2 and n / 2 (from 0).
    let at = |rank: u64| {
        let mut seen = 0;
        counts
            .iter()
            .position(|&c| {
                seen += c;
                seen > rank
            })
            .unwrap_or(bins - 1) as i64
            - SCORE_HALF
    };
    Some((at((n - 1) / 2) + at(n / 2)) as f64 / 4.0)
}

/// What the playouts through one root move add up to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RootCounts {
    /// Playouts through it (with, summed by [`RootShare::root`], the reused tree's
    /// visits).
    pub(crate) visits: u64,
    /// Their wins for the side to move.
    pub(crate) wins: u64,
    /// The playouts of this search among `visits`: those the scores count (the
    /// reused tree keeps no scores).
    pub(crate) scored: u64,
    /// The sum of their final scores for the side to move, in half points.
    pub(crate) score2: i64,
    /// The sum of the squares of those scores.
    pub(crate) score_sq: u64,
}

impl std::ops::Add for RootCounts {
    type Output = RootCounts;

    fn add(self, o: RootCounts) -> RootCounts {
        RootCounts {
            visits: self.visits + o.visits,
            wins: self.wins + o.wins,
            scored: self.scored + o.scored,
            score2: self.score2 + o.score2,
            score_sq: self.score_sq + o.score_sq,
        }
    }
}

impl RootCounts {
    /// The mean final score for the side to move over the `scored` playouts, in
    /// points, and its (population) standard deviation; both 0 without any. From
    /// the sums in integers, so that the spread of scores all alike is exactly 0.
    pub(crate) fn score(&self) -> (f64, f64) {
        if self.scored == 0 {
            return (0.0, 0.0);
        }
        let n = self.scored as f64;
        let mean = self.score2 as f64 / 2.0 / n;
        // n² times the variance in half points: n Σs² − (Σs)², never below 0 but
        // in a live snapshot, whose counters the workers are still adding to.
        let spread = i128::from(self.scored) * i128::from(self.score_sq)
            - i128::from(self.score2) * i128::from(self.score2);
        let stdev = (spread.max(0) as f64).sqrt() / 2.0 / n;
        (mean, stdev)
    }
}

/// What the workers of one search share besides the tree.
pub(crate) struct RootShare {
    /// Visits and wins of each root move that came from the reused tree (earlier
    /// searches), by point slot; written before the workers start.
    reused_visits: Box<[AtomicU64]>,
    reused_wins: Box<[AtomicU64]>,
    /// Playouts claimed under a playout budget (each worker claims one before it
    /// starts it; other limits never touch this).
    pub(crate) claimed: Padded<AtomicU64>,
    /// Raised to stop every worker.
    pub(crate) stop: Padded<AtomicBool>,
    /// Raised by the worker that makes room in the full tree: the others let go of
    /// the tree and wait.
    pub(crate) pause: Padded<AtomicBool>,
    /// The longest pause between two clock reads of one worker in this search, in
    /// nanoseconds: how late a stop at the hard limit can be seen (a playout, or the
    /// scheduler keeping the thread off the CPU). See [`RootShare::note_gap`].
    stall: Padded<AtomicU64>,
}

impl RootShare {
    pub(crate) fn new() -> RootShare {
        RootShare {
            reused_visits: zeros(),
            reused_wins: zeros(),
            claimed: Padded(AtomicU64::new(0)),
            stop: Padded(AtomicBool::new(false)),
            pause: Padded(AtomicBool::new(false)),
            stall: Padded(AtomicU64::new(0)),
        }
    }

    /// Records a pause of `gap` between two clock reads of one worker.
    pub(crate) fn note_gap(&self, gap: std::time::Duration) {
        let nanos = u64::try_from(gap.as_nanos()).unwrap_or(u64::MAX);
        // Most gaps are a playout long: a load first keeps the line shared.
        if nanos > self.stall.0.load(Relaxed) {
            self.stall.0.fetch_max(nanos, Relaxed);
        }
    }

    /// The longest pause [`RootShare::note_gap`] has seen in this search.
    pub(crate) fn stall(&self) -> std::time::Duration {
        std::time::Duration::from_nanos(self.stall.0.load(Relaxed))
    }

    /// Records what a reused tree knew of the root move at `slot`.
    pub(crate) fn add_reused(&self, slot: usize, visits: u32, wins: u32) {
        self.reused_visits[slot].fetch_add(u64::from(visits), Relaxed);
        self.reused_wins[slot].fetch_add(u64::from(wins), Relaxed);
    }

    /// Visits of the root move at `slot` that came from the reused tree.
    pub(crate) fn reused(&self, slot: usize) -> u64 {
        self.reused_visits[slot].load(Relaxed)
    }

    /// The root move at `slot` over the reused tree and every worker of `tallies`:
    /// visits, wins and the scores (of this search's playouts only).
    pub(crate) fn root(&self, tallies: &[&Tally], slot: usize) -> RootCounts {
        let reused = RootCounts {
            visits: self.reused(slot),
            wins: self.reused_wins[slot].load(Relaxed),
            ..RootCounts::default()
        };
        tallies.iter().fold(reused, |sum, t| sum + t.root(slot))
    }

    /// The visits alone of [`RootShare::root`] (the stop rule's reads, none more).
    pub(crate) fn visits(&self, tallies: &[&Tally], slot: usize) -> u64 {
        tallies
            .iter()
            .fold(self.reused(slot), |v, t| v + t.visits[slot].load(Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_root_move_sums_the_reused_tree_and_every_worker() {
        let share = RootShare::new();
        let (mut a, b) = (Tally::new(), Tally::new());
        share.add_reused(5, 10, 4);
        a.add_root(5, true, 7);
        b.add_root(5, false, -3);
        b.add_root(6, true, 1);
        let counts = |visits, wins, scored, score2, score_sq| RootCounts {
            visits,
            wins,
            scored,
            score2,
            score_sq,
        };
        assert_eq!(share.root(&[&a, &b], 5), counts(12, 5, 2, 4, 58));
        assert_eq!(share.root(&[&a, &b], 6), counts(1, 1, 1, 1, 1));
        assert_eq!(share.visits(&[&a, &b], 5), 12);
        a.reset(None);
        assert_eq!(share.root(&[&a, &b], 5), counts(11, 4, 1, -3, 9));
        assert_eq!(share.visits(&[&a, &b], 5), 11);
    }

    #[test]
    fn the_score_and_its_spread_come_from_this_searchs_playouts_alone() {
        let share = RootShare::new();
        let (a, b) = (Tally::new(), Tally::new());
        // Reused visits keep no scores: they change neither the mean nor the spread.
        share.add_reused(5, 100, 50);
        // Playouts ending 2, 4 and 6 points up (4, 8 and 12 half points): mean 4,
        // variance (4 + 0 + 4) / 3.
        a.add_root(5, true, 4);
        b.add_root(5, true, 8);
        a.add_root(5, true, 12);
        let (mean, stdev) = share.root(&[&a, &b], 5).score();
        assert_eq!(mean, 4.0);
        assert!((stdev - (8.0f64 / 3.0).sqrt()).abs() < 1e-12, "{stdev}");
        assert!((stdev - 1.633).abs() < 1e-3, "{stdev}");
        // One playout 1.5 points down, one 1.5 up: mean 0, spread 1.5.
        a.add_root(6, false, -3);
        b.add_root(6, true, 3);
        assert_eq!(share.root(&[&a, &b], 6).score(), (0.0, 1.5));
        // Scores all alike spread by exactly 0; no playout, no score.
        for _ in 0..1000 {
            a.add_root(7, true, 15);
        }
        assert_eq!(share.root(&[&a, &b], 7).score(), (7.5, 0.0));
        assert_eq!(share.root(&[&a, &b], 8).score(), (0.0, 0.0));
        // Counters read while a playout is half counted never give a negative spread.
        let torn = RootCounts {
            scored: 2,
            score2: 10,
            score_sq: 25,
            ..RootCounts::default()
        };
        assert_eq!(torn.score(), (2.5, 0.0));
    }

    #[test]
    fn the_median_score_is_the_middle_playouts_over_every_worker() {
        let (mut a, b) = (Tally::new(), Tally::new());
        assert_eq!(median_score(&[&a, &b]), None);
        // 2.5, 3.5 and -40.5 points: the middle one, whatever the outlier.
        a.add_root(3, true, 5);
        b.add_root(4, true, 7);
        a.add_root(3, false, -81);
        assert_eq!(median_score(&[&a, &b]), Some(2.5));
        // A fourth, 100.5 up: the mean of the two middle ones.
        b.add_root(5, true, 201);
        assert_eq!(median_score(&[&a, &b]), Some(3.0));
        // Two of three playouts lost by a little, one won by a lot: the mean says the
        // side to move leads, the median that it trails, as its win rate does.
        a.reset(None);
        let c = Tally::new();
        c.add_root(1, false, -1);
        c.add_root(1, false, -3);
        c.add_root(1, true, 301);
        assert!(c.root(1).score().0 > 0.0);
        assert_eq!(median_score(&[&a, &c]), Some(-0.5));
        // Scores beyond the histogram's ends count at the ends.
        let far = Tally::new();
        far.add_root(0, true, 10 * SCORE_HALF);
        assert_eq!(median_score(&[&far]), Some(SCORE_HALF as f64 / 2.0));
    }

    #[test]
    fn ownership_per_root_move_is_counted_only_when_asked_for() {
        let mut t = Tally::new();
        let (p, q) = (Point::from_index(12), Point::from_index(13));
        t.add_move_ownership(5, [p].into_iter(), [q].into_iter());
        assert_eq!(t.move_owned(5, 12), (0, 0, 0));
        t.reset(Some(30));
        t.add_move_ownership(5, [p].into_iter(), [q].into_iter());
        t.add_move_ownership(5, [p, q].into_iter(), std::iter::empty());
        t.add_move_ownership(0, std::iter::empty(), [p].into_iter());
        assert_eq!(t.move_owned(5, 12), (2, 2, 0));
        assert_eq!(t.move_owned(5, 13), (2, 1, 1));
        assert_eq!(t.move_owned(0, 12), (1, 0, 1));
        assert_eq!(t.move_owned(6, 12), (0, 0, 0));
        // A reset for the same board zeroes the counters and keeps them.
        t.reset(Some(30));
        assert_eq!(t.move_owned(5, 12), (0, 0, 0));
        t.add_move_ownership(5, [p].into_iter(), std::iter::empty());
        assert_eq!(t.move_owned(5, 12), (1, 1, 0));
    }
}
