//! How far moves run past their hard limit on this machine: the search stops at its
//! limit, but the threads' joining, the work after the search and a busy scheduler add
//! to it. Twice the recent worst is kept back from the clock on top of `Config::lag`
//! (overruns come in bursts, and the next may be worse), so a loaded machine thinks a
//! little less instead of losing on time.

use std::time::Duration;

/// How many of our recent moves are remembered.
const REMEMBERED: usize = 8;

/// What a move not yet measured is assumed to overrun: the first moves of a session,
/// before the machine's load is known, keep this much more back.
pub const UNMEASURED: Duration = Duration::from_millis(50);

/// The overruns of the last few moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overruns {
    recent: [Duration; REMEMBERED],
    next: usize,
}

impl Default for Overruns {
    /// Nothing measured yet: every remembered move counts as `UNMEASURED` (50 ms).
    fn default() -> Overruns {
        Overruns {
            recent: [UNMEASURED; REMEMBERED],
            next: 0,
        }
    }
}

impl Overruns {
    /// Records a move that was given `hard` and took `used`, as the engine measured
    /// it from the command to the answer.
    pub fn record(&mut self, hard: Duration, used: Duration) {
        self.recent[self.next] = used.saturating_sub(hard);
        self.next = (self.next + 1) % REMEMBERED;
    }

    /// The extra reserve for the next move: twice the largest recent overrun.
    pub fn reserve(&self) -> Duration {
        self.recent.iter().copied().max().unwrap_or_default() * 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    #[test]
    fn the_worst_recent_overrun_is_kept_back_then_forgotten() {
        let mut o = Overruns::default();
        assert_eq!(o.reserve(), UNMEASURED * 2);
        for _ in 0..REMEMBERED {
            o.record(ms(950), ms(900)); // inside the limit
        }
        assert_eq!(o.reserve(), Duration::ZERO);
        o.record(ms(950), ms(1010));
        o.record(ms(950), ms(960));
        assert_eq!(o.reserve(), ms(120));
        for _ in 0..REMEMBERED - 1 {
            o.record(ms(950), ms(955));
        }
        assert_eq!(o.reserve(), ms(20), "the 60 ms overrun is forgotten");
        o.record(ms(950), ms(955));
        assert_eq!(o.reserve(), ms(10));
    }
}
