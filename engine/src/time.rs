//! Time controls, clocks and the time budget of one move, as pure functions.
//!
//! GTP's `time_settings` is Canadian byo-yomi; `kgs-time_settings` adds absolute and
//! Japanese byo-yomi. `time_left` sets a [`Clock`]. [`budget`] turns them into a soft
//! and a hard limit for the next move; the search stops at the soft limit unless the
//! best move is unclear, and never passes the hard one.

use std::time::Duration;

/// How much time each player has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TimeControl {
    /// No limit.
    #[default]
    Unlimited,
    /// Sudden death: `main` for the whole game.
    Absolute {
        /// The whole game's time.
        main: Duration,
    },
    /// Main time, then `stones` moves in every `period` (GTP `time_settings`).
    Canadian {
        /// Main time.
        main: Duration,
        /// Length of a byo-yomi period.
        period: Duration,
        /// Moves to play in each period.
        stones: u32,
    },
    /// Main time, then `periods` periods; a move inside a period costs nothing and
    /// each period overrun is lost (Japanese byo-yomi, `kgs-time_settings byoyomi`).
    Byoyomi {
        /// Main time.
        main: Duration,
        /// Length of a period.
        period: Duration,
        /// Number of periods.
        periods: u32,
    },
}

impl TimeControl {
    /// GTP `time_settings main period stones` (seconds): period 0 means sudden death,
    /// stones 0 with a period means no limit.
    pub fn from_gtp(main: Duration, period: Duration, stones: u32) -> TimeControl {
        if period.is_zero() {
            // "0 0 0" leaves no time at all; the budget's floor still answers quickly.
            TimeControl::Absolute { main }
        } else if stones == 0 {
            TimeControl::Unlimited
        } else {
            TimeControl::Canadian {
                main,
                period,
                stones,
            }
        }
    }

    /// A fresh clock for this control.
    pub fn start_clock(&self) -> Clock {
        match *self {
            TimeControl::Unlimited => Clock::default(),
            TimeControl::Absolute { main }
            | TimeControl::Canadian { main, .. }
            | TimeControl::Byoyomi { main, .. } => Clock {
                time_left: main,
                stones: 0,
            },
        }
    }
}

/// One player's clock, as GTP `time_left color time stones` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Clock {
    /// Time left: main time while `stones == 0`, else time left in the current period.
    pub time_left: Duration,
    /// 0 in main time; in Canadian overtime the stones left in the period; in Japanese
    /// overtime the periods left.
    pub stones: u32,
}

impl Clock {
    /// Charges `used` for one move, as the opponent's referee would, when no
    /// `time_left` arrives to correct it.
    pub fn spend(&mut self, tc: &TimeControl, used: Duration) {
        match *tc {
            TimeControl::Unlimited => {}
            TimeControl::Absolute { .. } => {
                self.time_left = self.time_left.saturating_sub(used);
            }
            TimeControl::Canadian { period, stones, .. } => {
                if self.stones == 0 {
                    if used <= self.time_left {
                        self.time_left -= used;
                        return;
                    }
                    let over = used - self.time_left;
                    self.time_left = period.saturating_sub(over);
                    self.stones = stones;
                } else {
                    self.time_left = self.time_left.saturating_sub(used);
                }
                self.stones = self.stones.saturating_sub(1);
                if self.stones == 0 {
                    self.time_left = period;
                    self.stones = stones;
                }
            }
            TimeControl::Byoyomi {
                period, periods, ..
            } => {
                let mut used = used;
                if self.stones == 0 {
                    if used <= self.time_left {
                        self.time_left -= used;
                        return;
                    }
                    used -= self.time_left;
                    self.stones = periods;
                    self.time_left = period;
                }
                while used > period && self.stones > 0 {
                    used -= period;
                    self.stones -= 1;
                }
                self.time_left = period;
            }
        }
    }
}

/// The limits for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveBudget {
    /// Stop here unless the best move is unclear.
    pub soft: Duration,
    /// Never think past this.
    pub hard: Duration,
}

/// The smallest budget: even a nearly flagged engine answers with some search, but
/// never more than a twentieth of what is left on the clock.
const MIN_THINK: Duration = Duration::from_millis(10);

/// The time for the next move, or `None` with no limit.
///
/// `moves_played` counts both players' moves so far on a board of `area` points; `lag`
/// is kept in reserve for process start-up and pipe latency on every move.
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
    let mk = |soft: Duration, hard: Duration, cap: Duration| {
        let hard = hard.min(cap).max(floor);
        MoveBudget {
            soft: soft.min(hard).max(floor),
            hard,
        }
    };
    match *tc {
        TimeControl::Unlimited => None,
        TimeControl::Absolute { .. } => {
            // Keep a reserve that grows with the game's remaining time.
            let usable = reserve(clock.time_left).mul_f64(0.95);
            let soft = usable.div_f64(moves_left);
            Some(mk(soft, soft * 3, usable.mul_f64(0.25)))
        }
        TimeControl::Canadian { period, stones, .. } => {
            if clock.stones == 0 {
                let main = reserve(clock.time_left);
                // What the main time gives, plus the pace the first period would allow.
                let per_stone_overtime = reserve(period).div_f64(f64::from(stones.max(1)));
                let soft = main.div_f64(moves_left) + per_stone_overtime.mul_f64(0.5);
                let cap = main.mul_f64(0.25).max(per_stone_overtime.mul_f64(0.8));
                Some(mk(soft, soft * 3, cap))
            } else {
                let left = clock.time_left.saturating_sub(lag * clock.stones);
                let per = left.div_f64(f64::from(clock.stones));
                Some(mk(per.mul_f64(0.85), per, per))
            }
        }
        TimeControl::Byoyomi { period, .. } => {
            let in_period = reserve(period).mul_f64(0.9);
            if clock.stones == 0 && !clock.time_left.is_zero() {
                let main = reserve(clock.time_left);
                let soft = main.div_f64(moves_left) + in_period.mul_f64(0.5);
                let cap = main.mul_f64(0.25) + in_period;
                Some(mk(soft, soft * 3, cap))
            } else {
                let now = if clock.stones == 0 {
                    in_period
                } else {
                    reserve(clock.time_left).mul_f64(0.9).min(in_period)
                };
                Some(mk(now.mul_f64(0.7), now, now))
            }
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
    fn unlimited_has_no_budget() {
        let tc = TimeControl::Unlimited;
        assert_eq!(budget(&tc, &tc.start_clock(), 0, 361, LAG), None);
        assert_eq!(
            TimeControl::from_gtp(s(0.0), s(1.0), 0),
            TimeControl::Unlimited
        );
    }

    #[test]
    fn absolute_spreads_time_and_keeps_a_reserve() {
        let tc = TimeControl::from_gtp(s(600.0), s(0.0), 0);
        let b = budget(&tc, &tc.start_clock(), 0, 361, LAG).unwrap();
        assert!(b.soft > s(2.0) && b.soft < s(6.0), "{b:?}");
        assert!(b.hard >= b.soft && b.hard < s(150.0));
        // Nearly flagged: still a tiny positive think, never more than what is left.
        let low = Clock {
            time_left: s(0.5),
            stones: 0,
        };
        let b = budget(&tc, &low, 200, 361, LAG).unwrap();
        assert!(b.hard < s(0.2), "{b:?}");
        // Below the lag reserve: a twentieth of what is left at most.
        let flagging = Clock {
            time_left: s(0.04),
            stones: 0,
        };
        let b = budget(&tc, &flagging, 200, 81, LAG).unwrap();
        assert!(b.hard <= s(0.002), "{b:?}");
    }

    #[test]
    fn canadian_overtime_divides_the_period() {
        let tc = TimeControl::from_gtp(s(0.0), s(30.0), 10);
        let clock = Clock {
            time_left: s(30.0),
            stones: 10,
        };
        let b = budget(&tc, &clock, 100, 361, LAG).unwrap();
        assert!(b.hard <= s(2.9) && b.hard >= s(2.5), "{b:?}");
        let last = Clock {
            time_left: s(1.0),
            stones: 1,
        };
        let b = budget(&tc, &last, 100, 361, LAG).unwrap();
        assert!(b.hard <= s(0.9), "{b:?}");
    }

    #[test]
    fn byoyomi_period_is_never_overrun() {
        let tc = TimeControl::Byoyomi {
            main: s(0.0),
            period: s(5.0),
            periods: 3,
        };
        let clock = Clock {
            time_left: s(5.0),
            stones: 3,
        };
        let b = budget(&tc, &clock, 50, 81, LAG).unwrap();
        assert!(b.hard < s(5.0) && b.soft < b.hard + s(0.001), "{b:?}");
    }

    #[test]
    fn clock_spends_like_a_referee() {
        let tc = TimeControl::Canadian {
            main: s(10.0),
            period: s(20.0),
            stones: 2,
        };
        let mut c = tc.start_clock();
        c.spend(&tc, s(4.0));
        assert_eq!(
            c,
            Clock {
                time_left: s(6.0),
                stones: 0
            }
        );
        c.spend(&tc, s(7.0)); // 1 s into overtime, first stone of the period played
        assert_eq!(
            c,
            Clock {
                time_left: s(19.0),
                stones: 1
            }
        );
        c.spend(&tc, s(9.0)); // period complete: a fresh one
        assert_eq!(
            c,
            Clock {
                time_left: s(20.0),
                stones: 2
            }
        );
        let jp = TimeControl::Byoyomi {
            main: s(1.0),
            period: s(5.0),
            periods: 3,
        };
        let mut c = jp.start_clock();
        c.spend(&jp, s(7.0)); // 1 s main, then 6 s: one period lost
        assert_eq!(
            c,
            Clock {
                time_left: s(5.0),
                stones: 2
            }
        );
    }
}
