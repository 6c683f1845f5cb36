//! The counters a search keeps besides its tree.
//!
//! What every playout records (its root move's result and score, the ownership of its
//! final position, a count) goes to the worker's own [`Tally`]: counters that only
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
    /// Playouts that ended with each point Black's / White's (when asked for).
    black_owned: Box<[AtomicU32]>,
    white_owned: Box<[AtomicU32]>,
    /// Playouts counted in the ownership.
    owned_playouts: AtomicU32,
    /// Playouts finished.
    playouts: AtomicU64,
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
            black_owned: zeros(),
            white_owned: zeros(),
            owned_playouts: AtomicU32::new(0),
            playouts: AtomicU64::new(0),
        }
    }

    /// Back to zero (before a search; no other thread reads it then).
    pub(crate) fn reset(&mut self) {
        for a in self.visits.iter_mut().chain(self.wins.iter_mut()) {
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

    /// Playouts finished.
    pub(crate) fn playouts(&self) -> u64 {
        self.playouts.load(Relaxed)
    }

    /// Playouts through the root move at `slot`, their wins and scores.
    pub(crate) fn root(&self, slot: usize) -> (u64, u64, i64) {
        (
            self.visits[slot].load(Relaxed),
            self.wins[slot].load(Relaxed),
            self.score2[slot].load(Relaxed),
        )
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
    pub(crate) fn root(&self, tallies: &[&Tally], slot: usize) -> (u64, u64, i64) {
        tallies.iter().fold(
            (self.reused(slot), self.reused_wins[slot].load(Relaxed), 0),
            |(v, w, s), t| {
                let (tv, tw, ts) = t.root(slot);
                (v + tv, w + tw, s + ts)
            },
        )
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
        assert_eq!(share.root(&[&a, &b], 5), (12, 5, 4));
        assert_eq!(share.root(&[&a, &b], 6), (1, 1, 1));
        a.reset();
        assert_eq!(share.root(&[&a, &b], 5), (11, 4, -3));
    }
}
