//! Time controls and the clock, as the competition rules define them: the one model
//! the engine plans its moves with and the match referee keeps the players' time by.
//!
//! A [`Clock`] reads as GTP's `time_left color time stones` does: `stones == 0` is
//! main time, anything else overtime. [`Clock::charge`] is the referee's rule for one
//! move, flag included; [`Clock::allowed`] is how long the next move may take.

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
        /// Moves to play in each period (at least 1).
        stones: u32,
    },
    /// Main time, then `periods` periods; a move inside a period costs nothing and
    /// each period overrun is lost (Japanese byo-yomi, `kgs-time_settings byoyomi`).
    Byoyomi {
        /// Main time.
        main: Duration,
        /// Length of a period.
        period: Duration,
        /// Number of periods (at least 1).
        periods: u32,
    },
    /// Fischer: `main` to start with, and `increment` added after every move, the
    /// clock never holding more than `cap` (`None` for plain Fischer; KataGo's
    /// `fischer-capped` main time limit). Running out is a loss, as in sudden death.
    Fischer {
        /// The time on the clock at the start.
        main: Duration,
        /// Added after each move.
        increment: Duration,
        /// The most the clock can hold after an increment.
        cap: Option<Duration>,
    },
}

impl TimeControl {
    /// GTP `time_settings main period stones`: period 0 means sudden death, stones 0
    /// with a period means no limit.
    pub fn from_gtp(main: Duration, period: Duration, stones: u32) -> TimeControl {
        if period.is_zero() {
            // "0 0 0" leaves no time at all; an engine's budget floor still answers.
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

    /// Main time (zero without a limit).
    pub fn main(&self) -> Duration {
        match *self {
            TimeControl::Unlimited => Duration::ZERO,
            TimeControl::Absolute { main }
            | TimeControl::Canadian { main, .. }
            | TimeControl::Byoyomi { main, .. }
            | TimeControl::Fischer { main, .. } => main,
        }
    }

    /// A fresh clock: main time, or straight into overtime when there is none.
    pub fn start_clock(&self) -> Clock {
        match *self {
            TimeControl::Unlimited => Clock::default(),
            TimeControl::Absolute { main } | TimeControl::Fischer { main, .. } => Clock::main(main),
            TimeControl::Canadian {
                main,
                period,
                stones,
            } if main.is_zero() => Clock {
                time_left: period,
                stones: stones.max(1),
            },
            TimeControl::Byoyomi {
                main,
                period,
                periods,
            } if main.is_zero() => Clock {
                time_left: period,
                stones: periods.max(1),
            },
            TimeControl::Canadian { main, .. } | TimeControl::Byoyomi { main, .. } => {
                Clock::main(main)
            }
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
    /// A clock in main time with `time_left`.
    pub fn main(time_left: Duration) -> Clock {
        Clock {
            time_left,
            stones: 0,
        }
    }

    /// Whether main time is over.
    pub fn in_overtime(&self) -> bool {
        self.stones > 0
    }

    /// The most the next move may take before the flag falls, `None` without a limit.
    pub fn allowed(&self, tc: &TimeControl) -> Option<Duration> {
        let more_periods = |n: u32, period: Duration| period * n;
        match *tc {
            TimeControl::Unlimited => None,
            TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => Some(self.time_left),
            TimeControl::Canadian { period, .. } if self.stones == 0 => {
                Some(self.time_left + period)
            }
            TimeControl::Canadian { .. } => Some(self.time_left),
            TimeControl::Byoyomi {
                period, periods, ..
            } if self.stones == 0 => Some(self.time_left + more_periods(periods, period)),
            TimeControl::Byoyomi { period, .. } => {
                Some(self.time_left + more_periods(self.stones - 1, period))
            }
        }
    }

    /// Charges a move that took `used`, forgiving overruns up to `grace` (pipe and
    /// scheduling latency; an engine keeping its own account uses zero). Returns
    /// `false` if the flag fell; the clock then shows no time left.
    ///
    /// Main time runs down first; what a move uses beyond it starts overtime. In
    /// Canadian overtime the period runs down and a fresh one starts after its last
    /// stone; in Japanese byo-yomi a move inside the period costs nothing and every
    /// period it overruns is lost. Sudden death flags when the main time is gone;
    /// so does Fischer, which then adds its increment to what is left (up to its cap).
    pub fn charge(&mut self, tc: &TimeControl, used: Duration, grace: Duration) -> bool {
        if let TimeControl::Fischer { increment, cap, .. } = *tc {
            // No overtime: whatever `stones` a controller said, the clock is main time.
            self.stones = 0;
            if used > self.time_left + grace {
                self.time_left = Duration::ZERO;
                return false;
            }
            let left = self.time_left.saturating_sub(used) + increment;
            self.time_left = cap.map_or(left, |c| left.min(c));
            return true;
        }
        let mut used = used;
        if self.stones == 0 {
            if used <= self.time_left {
                self.time_left -= used;
                return true;
            }
            used -= self.time_left;
            *self = match *tc {
                TimeControl::Unlimited => {
                    self.time_left = Duration::ZERO;
                    return true;
                }
                TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => {
                    self.time_left = Duration::ZERO;
                    return used <= grace;
                }
                TimeControl::Canadian { period, stones, .. } => Clock {
                    time_left: period,
                    stones: stones.max(1),
                },
                TimeControl::Byoyomi {
                    period, periods, ..
                } => Clock {
                    time_left: period,
                    stones: periods.max(1),
                },
            };
        }
        match *tc {
            TimeControl::Unlimited | TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => {
                true
            }
            TimeControl::Canadian { period, stones, .. } => {
                if used > self.time_left + grace {
                    self.time_left = Duration::ZERO;
                    return false;
                }
                self.time_left = self.time_left.saturating_sub(used);
                self.stones -= 1;
                if self.stones == 0 {
                    *self = Clock {
                        time_left: period,
                        stones: stones.max(1),
                    };
                }
                true
            }
            TimeControl::Byoyomi { period, .. } => {
                let over = used.saturating_sub(grace);
                let lost = if over <= self.time_left || period.is_zero() {
                    0
                } else {
                    // The current period, then one for each started further period.
                    let beyond = (over - self.time_left).as_nanos();
                    beyond.div_ceil(period.as_nanos())
                };
                if lost >= u128::from(self.stones) {
                    *self = Clock::default();
                    return false;
                }
                self.stones -= lost as u32;
                self.time_left = period;
                true
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

    /// A clock in overtime: `secs` left in the period, `stones` stones (Canadian) or
    /// periods (byo-yomi) left.
    fn overtime(secs: f64, stones: u32) -> Clock {
        Clock {
            time_left: s(secs),
            stones,
        }
    }

    /// Byo-yomi: `main` seconds, then `periods` periods of `period` seconds.
    fn byoyomi(main: f64, period: f64, periods: u32) -> TimeControl {
        TimeControl::Byoyomi {
            main: s(main),
            period: s(period),
            periods,
        }
    }

    /// Fischer: `main` seconds, `increment` more after each move, at most `cap`.
    fn fischer(main: f64, increment: f64, cap: Option<f64>) -> TimeControl {
        TimeControl::Fischer {
            main: s(main),
            increment: s(increment),
            cap: cap.map(s),
        }
    }

    const GRACE: Duration = Duration::from_millis(100);

    #[test]
    fn gtp_settings_map_to_controls() {
        assert_eq!(
            TimeControl::from_gtp(s(0.0), s(1.0), 0),
            TimeControl::Unlimited
        );
        assert_eq!(
            TimeControl::from_gtp(s(5.0), s(0.0), 3),
            TimeControl::Absolute { main: s(5.0) }
        );
        assert_eq!(
            TimeControl::from_gtp(s(0.0), s(1.0), 1).start_clock(),
            overtime(1.0, 1),
            "no main time starts in overtime"
        );
    }

    #[test]
    fn sudden_death_flags_past_the_grace() {
        let tc = TimeControl::Absolute { main: s(10.0) };
        let mut c = tc.start_clock();
        assert_eq!(c.allowed(&tc), Some(s(10.0)));
        assert!(c.charge(&tc, s(4.0), GRACE));
        assert_eq!(c, Clock::main(s(6.0)));
        assert!(c.charge(&tc, s(6.05), GRACE)); // inside the grace
        assert!(!c.charge(&tc, s(0.5), GRACE));
        assert_eq!(c.time_left, Duration::ZERO);
    }

    #[test]
    fn canadian_periods_run_down_and_restart() {
        let tc = TimeControl::Canadian {
            main: s(10.0),
            period: s(20.0),
            stones: 2,
        };
        let mut c = tc.start_clock();
        assert_eq!(c.allowed(&tc), Some(s(30.0)));
        assert!(c.charge(&tc, s(4.0), Duration::ZERO));
        assert_eq!(c, Clock::main(s(6.0)));
        // 1 s into overtime, the period's first stone played.
        assert!(c.charge(&tc, s(7.0), Duration::ZERO));
        assert_eq!(c, overtime(19.0, 1));
        assert_eq!(c.allowed(&tc), Some(s(19.0)));
        // Period complete: a fresh one.
        assert!(c.charge(&tc, s(9.0), Duration::ZERO));
        assert_eq!(c, overtime(20.0, 2));
        assert!(c.charge(&tc, s(19.0), Duration::ZERO));
        assert!(c.charge(&tc, s(1.05), GRACE), "inside the grace");
        assert!(c.charge(&tc, s(19.5), GRACE));
        assert!(!c.charge(&tc, s(0.7), GRACE), "0.5 s left");
    }

    #[test]
    fn byoyomi_loses_a_period_per_overrun() {
        let tc = byoyomi(10.0, 5.0, 3);
        let mut c = tc.start_clock();
        assert_eq!(c.allowed(&tc), Some(s(25.0)));
        // 10 s of main time and 2 s of a period: no period lost.
        assert!(c.charge(&tc, s(12.0), GRACE));
        assert_eq!(c, overtime(5.0, 3));
        assert!(c.charge(&tc, s(4.9), GRACE));
        assert!(c.charge(&tc, s(5.05), GRACE), "inside the grace");
        assert_eq!(c.stones, 3);
        assert!(c.charge(&tc, s(7.0), GRACE)); // one period lost
        assert_eq!(c.stones, 2);
        assert_eq!(c.allowed(&tc), Some(s(10.0)));
        assert!(!c.charge(&tc, s(10.5), GRACE), "both periods overrun");
        // Exactly a period is inside it; two and a bit lose two.
        let mut c = overtime(5.0, 3);
        assert!(c.charge(&tc, s(5.0), Duration::ZERO));
        assert_eq!(c.stones, 3);
        assert!(c.charge(&tc, s(10.1), Duration::ZERO));
        assert_eq!(c.stones, 1);
        // From main time: 1 s of main, then 6 s, one period lost.
        let jp = byoyomi(1.0, 5.0, 3);
        let mut c = jp.start_clock();
        assert!(c.charge(&jp, s(7.0), Duration::ZERO));
        assert_eq!(c, overtime(5.0, 2));
    }

    #[test]
    fn fischer_adds_the_increment_after_each_move() {
        let tc = fischer(10.0, 5.0, None);
        let mut c = tc.start_clock();
        assert_eq!(
            c,
            Clock::main(s(10.0)),
            "no increment before the first move"
        );
        assert_eq!(tc.main(), s(10.0));
        assert_eq!(c.allowed(&tc), Some(s(10.0)));
        assert!(c.charge(&tc, s(2.0), Duration::ZERO));
        assert_eq!(c, Clock::main(s(13.0)));
        // Fast moves bank their increments, without a limit.
        for _ in 0..10 {
            assert!(c.charge(&tc, s(1.0), Duration::ZERO));
        }
        assert_eq!(c, Clock::main(s(53.0)));
        assert_eq!(c.allowed(&tc), Some(s(53.0)));
        // Using it all but the grace's worth: the increment still comes.
        assert!(c.charge(&tc, s(53.05), GRACE));
        assert_eq!(c, Clock::main(s(5.0)));
        // Past what is left and the grace: the flag falls, nothing is added.
        assert!(!c.charge(&tc, s(5.2), GRACE));
        assert_eq!(c.time_left, Duration::ZERO);
        // A clock a controller put in overtime is main time again after a move.
        let mut c = overtime(4.0, 3);
        assert!(c.charge(&tc, s(1.0), Duration::ZERO));
        assert_eq!(c, Clock::main(s(8.0)));
    }

    #[test]
    fn capped_fischer_never_holds_more_than_its_cap() {
        let tc = fischer(30.0, 10.0, Some(35.0));
        let mut c = tc.start_clock();
        assert!(c.charge(&tc, s(1.0), Duration::ZERO));
        assert_eq!(c, Clock::main(s(35.0)), "29 + 10, cut to the cap");
        assert!(c.charge(&tc, s(20.0), Duration::ZERO));
        assert_eq!(
            c,
            Clock::main(s(25.0)),
            "under the cap: the whole increment"
        );
        assert!(!c.charge(&tc, s(26.0), Duration::ZERO));
    }

    #[test]
    fn unlimited_never_flags() {
        let tc = TimeControl::Unlimited;
        let mut c = tc.start_clock();
        assert_eq!(c.allowed(&tc), None);
        assert!(c.charge(&tc, s(1e6), Duration::ZERO));
    }
}
