//! When a timed search stops: the hard limit always; before it, as soon as more
//! thinking cannot change what the search would play at its planned time.

use std::time::Duration;

use super::MoveBudget;

/// Where a timed search stands, as its stop rule sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Time since the move's search started.
    pub elapsed: Duration,
    /// Playouts this search has run (all threads).
    pub playouts: u64,
    /// Visits of the most visited root move (reused ones included).
    pub best: u64,
    /// Visits of the runner-up.
    pub second: u64,
}

/// The best move is clear when the runner-up has fewer than this share of its visits.
const CLEAR: f64 = 0.7;

/// No early stop before this fraction of the soft limit: until then the playout rate
/// and the visit counts are too noisy to trust.
const MIN_SHARE: u32 = 4;

impl MoveBudget {
    /// Whether a search at `p` stops now. With `early_stop` off it thinks to `hard`;
    /// else, from a quarter of `soft` on, it stops as soon as either
    ///
    /// - the runner-up cannot catch the best move before `hard` even if every playout
    ///   left went to it (nothing is left to decide), or
    /// - the runner-up cannot come within `CLEAR` (70 %) of the best move's visits before
    ///   `soft`, where a clear best move stops anyway (an obvious move; past `soft`
    ///   this is the plain test "the best move is clear").
    ///
    /// So an obvious move stops early, a clear one at `soft`, and while the top two
    /// are close the search extends towards `hard`. The playouts left are the rate so
    /// far times the time left.
    pub fn should_stop(&self, p: &Progress) -> bool {
        if p.elapsed >= self.hard {
            return true;
        }
        if !self.early_stop || p.elapsed < self.soft / MIN_SHARE {
            return false;
        }
        let rate = p.playouts as f64 / p.elapsed.as_secs_f64().max(1e-3);
        let left_until = |t: Duration| rate * t.saturating_sub(p.elapsed).as_secs_f64();
        let (best, second) = (p.best as f64, p.second as f64);
        best - second > left_until(self.hard) || second + left_until(self.soft) < CLEAR * best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    /// A search that has run at 10 000 playouts a second for `elapsed`, with `best`
    /// and `second` visits at the root.
    fn at(elapsed: u64, best: u64, second: u64) -> Progress {
        Progress {
            elapsed: ms(elapsed),
            playouts: elapsed * 10,
            best,
            second,
        }
    }

    const PLANNED: MoveBudget = MoveBudget {
        soft: Duration::from_millis(1000),
        hard: Duration::from_millis(3000),
        early_stop: true,
    };

    #[test]
    fn the_hard_limit_always_stops() {
        let no_early = MoveBudget {
            early_stop: false,
            ..PLANNED
        };
        for b in [PLANNED, no_early] {
            assert!(b.should_stop(&at(3000, 15000, 14900)));
            assert!(!b.should_stop(&at(2990, 15000, 14900)));
        }
    }

    #[test]
    fn a_period_that_would_be_lost_is_used_to_the_end() {
        let period = MoveBudget {
            soft: ms(950),
            hard: ms(950),
            early_stop: false,
        };
        // Even a move that nothing can overtake thinks on.
        assert!(!period.should_stop(&at(900, 9000, 0)));
        assert!(period.should_stop(&at(950, 9000, 0)));
        let fixed = MoveBudget::fixed(ms(950));
        assert!(fixed.should_stop(&at(900, 9000, 0)));
    }

    #[test]
    fn an_obvious_move_stops_before_the_soft_limit() {
        // 6000 visits of 7000 on the best move at 0.7 s: the 3000 playouts left until
        // 1 s cannot bring the runner-up (500) near 70% of it.
        assert!(PLANNED.should_stop(&at(700, 6000, 500)));
        // A reused tree that already settles it stops at a quarter of the soft
        // limit, not before, however lopsided.
        assert!(PLANNED.should_stop(&at(250, 40000, 2000)));
        assert!(!PLANNED.should_stop(&at(200, 40000, 2000)));
        // The same lead earlier, with more time left for the runner-up, goes on.
        assert!(!PLANNED.should_stop(&at(400, 3500, 300)));
    }

    #[test]
    fn a_clear_move_stops_at_the_soft_limit() {
        // Clear (6 < 0.7 × 10) but catchable before 1 s: on.
        assert!(!PLANNED.should_stop(&at(900, 5000, 3000)));
        assert!(PLANNED.should_stop(&at(1000, 5000, 3400)));
    }

    #[test]
    fn close_moves_extend_towards_the_hard_limit() {
        assert!(!PLANNED.should_stop(&at(1000, 5000, 4000)));
        assert!(!PLANNED.should_stop(&at(2000, 9000, 8000)));
        // Until one pulls away, or the other can no longer catch up.
        assert!(PLANNED.should_stop(&at(2000, 11000, 7000)));
        assert!(PLANNED.should_stop(&at(2950, 15000, 14000)));
    }
}
