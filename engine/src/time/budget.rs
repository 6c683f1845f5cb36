//! The time for the next move: a [`MoveBudget`] from the time control and the clock,
//! and a search's [`Limit`].

use std::time::Duration;

use tengen_board::{Clock, TimeControl};

/// When a search stops (besides the stop flag): a playout budget, a move's
/// [`MoveBudget`], or never.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// This many playouts in total (over all threads).
    Playouts(u64),
    /// A soft and a hard time limit.
    Time(MoveBudget),
    /// Until the stop flag is raised.
    Infinite,
}

/// The limits for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveBudget {
    /// The planned time: a clear best move stops here (or before, see
    /// [`MoveBudget::should_stop`]).
    pub soft: Duration,
    /// Never think past this; an unclear move may think up to here.
    pub hard: Duration,
    /// Whether stopping before `hard` saves time for later moves. It does not when
    /// what the move leaves is lost: a Japanese byo-yomi period, the last stone of a
    /// Canadian period. Then the move thinks to `hard`.
    pub early_stop: bool,
}

impl MoveBudget {
    /// A fixed time a move (no clock): `soft == hard == t`, stopping early only when
    /// the best move can no longer change.
    pub fn fixed(t: Duration) -> MoveBudget {
        MoveBudget {
            soft: t,
            hard: t,
            early_stop: true,
        }
    }

    /// This budget with both limits multiplied by `f` (in `0..=1`).
    pub fn scaled(self, f: f64) -> MoveBudget {
        MoveBudget {
            soft: self.soft.mul_f64(f),
            hard: self.hard.mul_f64(f),
            early_stop: self.early_stop,
        }
    }

    /// This budget with `spent` already gone from both limits (the move's time began
    /// before its search could start).
    pub fn less(self, spent: Duration) -> MoveBudget {
        MoveBudget {
            soft: self.soft.saturating_sub(spent),
            hard: self.hard.saturating_sub(spent),
            early_stop: self.early_stop,
        }
    }

    /// This budget with both limits at most `most`.
    pub fn capped(self, most: Duration) -> MoveBudget {
        MoveBudget {
            soft: self.soft.min(most),
            hard: self.hard.min(most),
            early_stop: self.early_stop,
        }
    }
}

/// The smallest budget: even a nearly flagged engine answers with some search, but
/// never more than a twentieth of what is left on the clock.
const MIN_THINK: Duration = Duration::from_millis(10);

/// The time for the next move, or `None` with no limit.
///
/// `moves_played` counts both players' moves so far on a board of `area` points; `lag`
/// is kept back on every move for what the clock sees and the search does not: the
/// pipes, process scheduling, and the work before and after the search.
///
/// - Sudden death: the time left spread over the moves still expected, a reserve
///   kept; an unclear move may take three times its share, never a quarter of the
///   time left.
/// - Canadian overtime: the period's time shared among its stones; a move may borrow
///   one more share while stones remain, and the last stone uses all that is left.
/// - Japanese byo-yomi with no main time left: the whole period less the lag; time
///   not used in a period is lost, so the move thinks to the end.
/// - Main time before overtime: its share of the main time plus most of one period
///   (after main time every move gets a period anyway).
/// - Fischer: the time left spread over the moves expected plus most of the
///   increment (a move that thinks about its increment never runs the clock down); an
///   unclear move may take three times its share of the time left plus the whole
///   increment, never half of what is left (the increment comes only after the move).
///   Under a cap, what the increment would push past it is lost, so the move plans to
///   think at least that long.
pub fn budget(
    tc: &TimeControl,
    clock: &Clock,
    moves_played: usize,
    area: usize,
    lag: Duration,
) -> Option<MoveBudget> {
    // Our own moves still to come, with a floor so late moves keep a share.
    let expected = (area as f64 * 0.9 - moves_played as f64).max(area as f64 * 0.2) / 2.0;
    let moves_left = expected.max(8.0);
    let reserve = |t: Duration| t.saturating_sub(lag);
    let floor = MIN_THINK.min(clock.time_left / 20);
    let mk = |soft: Duration, hard: Duration, cap: Duration, early_stop: bool| {
        let hard = hard.min(cap).max(floor);
        MoveBudget {
            soft: soft.min(hard).max(floor),
            hard,
            early_stop,
        }
    };
    match *tc {
        TimeControl::Unlimited => None,
        TimeControl::Absolute { .. } => {
            // Keep a reserve that grows with the game's remaining time.
            let usable = reserve(clock.time_left).mul_f64(0.95);
            let soft = usable.div_f64(moves_left);
            Some(mk(soft, soft * 3, usable.mul_f64(0.25), true))
        }
        TimeControl::Canadian { period, stones, .. } => {
            if clock.stones == 0 {
                let main = reserve(clock.time_left);
                // What the main time gives, plus the pace the first period would allow.
                let per_stone_overtime = reserve(period).div_f64(f64::from(stones.max(1)));
                let soft = main.div_f64(moves_left) + per_stone_overtime.mul_f64(0.5);
                let cap = main.mul_f64(0.25).max(per_stone_overtime.mul_f64(0.8));
                Some(mk(soft, soft * 3, cap, true))
            } else {
                let left = clock.time_left.saturating_sub(lag * clock.stones);
                let per = left / clock.stones;
                if clock.stones == 1 {
                    Some(mk(per, per, per, false))
                } else {
                    Some(mk(per, per * 2, per * 2, true))
                }
            }
        }
        TimeControl::Byoyomi { period, .. } => {
            let in_period = reserve(period);
            if clock.stones == 0 && !clock.time_left.is_zero() {
                let main = clock.time_left;
                let soft = main.div_f64(moves_left) + in_period.mul_f64(0.7);
                let cap = main.mul_f64(0.25) + in_period;
                Some(mk(soft, soft * 3, cap, true))
            } else {
                // In overtime (or told that main time is over): this period.
                let now = if clock.stones == 0 {
                    in_period
                } else {
                    reserve(clock.time_left.min(period))
                };
                Some(mk(now, now, now, false))
            }
        }
        TimeControl::Fischer { increment, cap, .. } => {
            let usable = reserve(clock.time_left).mul_f64(0.95);
            let share = usable.div_f64(moves_left);
            // What the clock would lose to its cap if the move took no time at all.
            let lost = cap.map_or(Duration::ZERO, |c| {
                (clock.time_left + increment).saturating_sub(c + lag)
            });
            let soft = (share + increment.mul_f64(0.8)).max(lost);
            let hard = (share * 3 + increment).max(soft);
            Some(mk(soft, hard, usable / 2, true))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: f64) -> Duration {
        Duration::from_secs_f64(x)
    }

    const LAG: Duration = Duration::from_millis(100);

    #[test]
    fn time_already_spent_comes_off_both_limits() {
        let b = MoveBudget {
            soft: s(0.5),
            hard: s(1.5),
            early_stop: true,
        };
        let less = b.less(s(0.7));
        assert_eq!(
            (less.soft, less.hard, less.early_stop),
            (s(0.0), s(0.8), true)
        );
        assert_eq!(b.less(s(2.0)).hard, s(0.0));
    }

    #[test]
    fn unlimited_has_no_budget() {
        let tc = TimeControl::Unlimited;
        assert_eq!(budget(&tc, &tc.start_clock(), 0, 361, LAG), None);
    }

    #[test]
    fn absolute_spreads_time_and_keeps_a_reserve() {
        let tc = TimeControl::from_gtp(s(600.0), s(0.0), 0);
        let b = budget(&tc, &tc.start_clock(), 0, 361, LAG).unwrap();
        assert!(b.soft > s(2.0) && b.soft < s(6.0), "{b:?}");
        assert!(b.hard >= b.soft && b.hard < s(150.0));
        assert!(b.early_stop);
        // Nearly flagged: still a tiny positive think, never more than what is left.
        let b = budget(&tc, &Clock::main(s(0.5)), 200, 361, LAG).unwrap();
        assert!(b.hard < s(0.2), "{b:?}");
        // Below the lag reserve: a twentieth of what is left at most.
        let b = budget(&tc, &Clock::main(s(0.04)), 200, 81, LAG).unwrap();
        assert!(b.hard <= s(0.002), "{b:?}");
    }

    fn fischer(main: f64, increment: f64, cap: Option<f64>) -> TimeControl {
        TimeControl::Fischer {
            main: s(main),
            increment: s(increment),
            cap: cap.map(s),
        }
    }

    #[test]
    fn fischer_fast_game_keeps_a_reserve() {
        // 5 minutes and 2 s a move on 19x19, a game of 400 moves: the clock never runs
        // out, even when every move thinks to its hard limit, and planned moves keep a
        // reserve of several increments to the end.
        let tc = fischer(300.0, 2.0, None);
        let first = budget(&tc, &tc.start_clock(), 0, 361, LAG).unwrap();
        assert!(first.early_stop);
        assert!(first.soft > s(2.5) && first.soft < s(5.0), "{first:?}");
        assert!(
            first.hard >= first.soft && first.hard < s(150.0),
            "{first:?}"
        );
        for think_to_hard in [false, true] {
            let mut clock = tc.start_clock();
            for moves in (0..400).step_by(2) {
                let b = budget(&tc, &clock, moves, 361, LAG).unwrap();
                let used = if think_to_hard { b.hard } else { b.soft } + LAG;
                assert!(
                    clock.charge(&tc, used, Duration::ZERO),
                    "move {moves}: {b:?}"
                );
            }
            if !think_to_hard {
                assert!(clock.time_left > s(15.0), "{clock:?}");
            }
        }
    }

    #[test]
    fn fischer_big_increment_gives_about_the_increment() {
        let tc = fischer(60.0, 30.0, None);
        let mut clock = tc.start_clock();
        for moves in (0..100).step_by(2) {
            let b = budget(&tc, &clock, moves, 361, LAG).unwrap();
            assert!(
                b.soft <= b.hard && b.hard < clock.time_left,
                "{clock:?}: {b:?}"
            );
            if moves >= 10 {
                assert!(b.soft > s(23.0) && b.soft < s(32.0), "move {moves}: {b:?}");
            }
            assert!(clock.charge(&tc, b.soft + LAG, Duration::ZERO));
        }
        // Little on the clock but a big increment: still at most half of what is left.
        let b = budget(&tc, &Clock::main(s(5.0)), 50, 361, LAG).unwrap();
        assert!(b.hard <= s(2.5) && b.soft <= b.hard, "{b:?}");
    }

    #[test]
    fn fischer_nearly_flagged_answers_within_what_is_left() {
        let tc = fischer(60.0, 5.0, None);
        let b = budget(&tc, &Clock::main(s(0.5)), 200, 361, LAG).unwrap();
        assert!(b.hard < s(0.25) && b.soft <= b.hard, "{b:?}");
        let b = budget(&tc, &Clock::main(s(0.04)), 200, 81, LAG).unwrap();
        assert!(b.hard <= s(0.002), "{b:?}");
    }

    #[test]
    fn capped_fischer_uses_what_the_cap_would_take() {
        // A full clock: the whole increment would be cut off, so the move plans to use it.
        let tc = fischer(60.0, 10.0, Some(60.0));
        let b = budget(&tc, &tc.start_clock(), 0, 361, LAG).unwrap();
        assert!(b.soft >= s(9.8) && b.soft < s(11.0), "{b:?}");
        // Far under the cap: the plain Fischer share.
        let b = budget(&tc, &Clock::main(s(20.0)), 50, 361, LAG).unwrap();
        let plain = budget(
            &fischer(60.0, 10.0, None),
            &Clock::main(s(20.0)),
            50,
            361,
            LAG,
        );
        assert_eq!(Some(b), plain);
    }

    #[test]
    fn canadian_overtime_divides_the_period() {
        let tc = TimeControl::from_gtp(s(0.0), s(30.0), 10);
        let clock = Clock {
            time_left: s(30.0),
            stones: 10,
        };
        let b = budget(&tc, &clock, 100, 361, LAG).unwrap();
        assert!(b.soft <= s(2.9) && b.soft >= s(2.5), "{b:?}");
        assert!(b.hard <= s(5.8) && b.early_stop, "{b:?}");
        // The last stone of a period: all that is left but the lag, to the end.
        let last = Clock {
            time_left: s(1.0),
            stones: 1,
        };
        let b = budget(&tc, &last, 100, 361, LAG).unwrap();
        assert_eq!(b.hard, s(0.9), "{b:?}");
        assert_eq!(b.soft, b.hard);
        assert!(!b.early_stop);
    }

    #[test]
    fn byoyomi_uses_the_period_but_the_lag() {
        let tc = TimeControl::Byoyomi {
            main: s(0.0),
            period: s(1.0),
            periods: 3,
        };
        for clock in [tc.start_clock(), Clock::main(s(0.0))] {
            let b = budget(&tc, &clock, 50, 81, LAG).unwrap();
            assert_eq!(b.hard, s(0.9), "{clock:?}: {b:?}");
            assert_eq!(b.soft, b.hard);
            assert!(!b.early_stop);
        }
        // A controller that says less than a period is left.
        let short = Clock {
            time_left: s(0.5),
            stones: 2,
        };
        assert_eq!(budget(&tc, &short, 50, 81, LAG).unwrap().hard, s(0.4));
        // With main time left: its share plus most of a period, never the whole of both.
        let tc = TimeControl::Byoyomi {
            main: s(60.0),
            period: s(5.0),
            periods: 3,
        };
        let b = budget(&tc, &tc.start_clock(), 0, 81, LAG).unwrap();
        assert!(b.soft > s(4.0) && b.hard < s(65.0) && b.early_stop, "{b:?}");
    }
}
