//! Time controls (`--time` specs) and the clock the referee keeps for each engine.

use std::fmt;
use std::str::FromStr;

/// Overruns up to this many seconds are forgiven (pipe and scheduling latency).
pub const TIME_GRACE: f64 = 0.1;

/// A time control for every engine of a match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// `M`: sudden death, `main` seconds for the whole game.
    Absolute {
        /// Seconds for the whole game.
        main: f64,
    },
    /// `M+PxT`: Japanese byo-yomi, `main` seconds then `periods` periods of `period`
    /// seconds; a move inside a period costs nothing, each period overrun is lost.
    Byoyomi {
        /// Main time in seconds.
        main: f64,
        /// Number of periods.
        periods: u32,
        /// Seconds in a period.
        period: f64,
    },
    /// `M+S/T`: Canadian, `main` seconds then `stones` moves in every `period` seconds.
    Canadian {
        /// Main time in seconds.
        main: f64,
        /// Moves to make in each period.
        stones: u32,
        /// Seconds in a period.
        period: f64,
    },
}

/// A `--time` spec that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeSpecError(pub String);

impl fmt::Display for TimeSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad time control {:?}: expected M (sudden death), M+PxT (byo-yomi: P periods of \
             T s) or M+S/T (Canadian: S stones in T s), seconds",
            self.0
        )
    }
}

impl std::error::Error for TimeSpecError {}

fn seconds(s: &str) -> Option<f64> {
    let v: f64 = s.trim().parse().ok()?;
    (0.0..1e9).contains(&v).then_some(v)
}

impl FromStr for TimeControl {
    type Err = TimeSpecError;

    fn from_str(s: &str) -> Result<TimeControl, TimeSpecError> {
        let err = || TimeSpecError(s.to_string());
        let t = s.trim();
        let Some((main, over)) = t.split_once('+') else {
            let main = seconds(t).filter(|&m| m > 0.0).ok_or_else(err)?;
            return Ok(TimeControl::Absolute { main });
        };
        let main = seconds(main).ok_or_else(err)?;
        if let Some((p, per)) = over.split_once(['x', 'X']) {
            let periods: u32 = p.trim().parse().map_err(|_| err())?;
            let period = seconds(per).filter(|&v| v > 0.0).ok_or_else(err)?;
            if periods == 0 {
                return Err(err());
            }
            Ok(TimeControl::Byoyomi {
                main,
                periods,
                period,
            })
        } else if let Some((st, per)) = over.split_once('/') {
            let stones: u32 = st.trim().parse().map_err(|_| err())?;
            let period = seconds(per).filter(|&v| v > 0.0).ok_or_else(err)?;
            if stones == 0 {
                return Err(err());
            }
            Ok(TimeControl::Canadian {
                main,
                stones,
                period,
            })
        } else {
            Err(err())
        }
    }
}

impl fmt::Display for TimeControl {
    /// The `--time` spelling.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Absolute { main } => write!(f, "{main}"),
            TimeControl::Byoyomi {
                main,
                periods,
                period,
            } => write!(f, "{main}+{periods}x{period}"),
            TimeControl::Canadian {
                main,
                stones,
                period,
            } => write!(f, "{main}+{stones}/{period}"),
        }
    }
}

/// Whole seconds for GTP (which takes integers), never more than the real value except
/// that a period is at least one second.
fn whole(s: f64) -> u64 {
    s.floor() as u64
}

impl TimeControl {
    /// Main time in seconds.
    pub fn main(&self) -> f64 {
        match *self {
            TimeControl::Absolute { main }
            | TimeControl::Byoyomi { main, .. }
            | TimeControl::Canadian { main, .. } => main,
        }
    }

    /// The SGF `OT` (overtime) text, if any.
    pub fn overtime(&self) -> Option<String> {
        match *self {
            TimeControl::Absolute { .. } => None,
            TimeControl::Byoyomi {
                periods, period, ..
            } => Some(format!("{periods}x{period} byo-yomi")),
            TimeControl::Canadian { stones, period, .. } => {
                Some(format!("{stones}/{period} Canadian"))
            }
        }
    }

    /// The command that tells an engine this time control: `kgs-time_settings` if it
    /// knows it, else `time_settings` (Canadian; byo-yomi sent as one stone a period).
    pub fn settings_command(&self, kgs: bool) -> String {
        match *self {
            TimeControl::Absolute { main } if kgs => {
                format!("kgs-time_settings absolute {}", whole(main))
            }
            TimeControl::Absolute { main } => format!("time_settings {} 0 0", whole(main)),
            TimeControl::Byoyomi {
                main,
                periods,
                period,
            } if kgs => format!(
                "kgs-time_settings byoyomi {} {} {periods}",
                whole(main),
                whole(period).max(1)
            ),
            TimeControl::Byoyomi { main, period, .. } => {
                format!("time_settings {} {} 1", whole(main), whole(period).max(1))
            }
            TimeControl::Canadian {
                main,
                stones,
                period,
            } if kgs => format!(
                "kgs-time_settings canadian {} {} {stones}",
                whole(main),
                whole(period).max(1)
            ),
            TimeControl::Canadian {
                main,
                stones,
                period,
            } => format!(
                "time_settings {} {} {stones}",
                whole(main),
                whole(period).max(1)
            ),
        }
    }
}

/// One engine's clock under a [`TimeControl`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    control: TimeControl,
    main_left: f64,
    /// Byo-yomi: periods left. Canadian: unused.
    periods_left: u32,
    /// Canadian: seconds left in the current period.
    period_left: f64,
    /// Canadian: stones still to play in the current period.
    stones_left: u32,
    in_overtime: bool,
    flagged: bool,
}

impl Clock {
    /// A fresh clock.
    pub fn new(control: TimeControl) -> Clock {
        let (periods_left, period_left, stones_left) = match control {
            TimeControl::Absolute { .. } => (0, 0.0, 0),
            TimeControl::Byoyomi {
                periods, period, ..
            } => (periods, period, 0),
            TimeControl::Canadian { stones, period, .. } => (0, period, stones),
        };
        Clock {
            control,
            main_left: control.main(),
            periods_left,
            period_left,
            stones_left,
            in_overtime: false,
            flagged: false,
        }
    }

    /// Whether the flag has fallen.
    pub fn flagged(&self) -> bool {
        self.flagged
    }

    /// The most seconds the next move may take before the flag falls (without grace).
    pub fn allowed(&self) -> f64 {
        match self.control {
            TimeControl::Absolute { .. } => self.main_left,
            TimeControl::Byoyomi { period, .. } => {
                self.main_left + f64::from(self.periods_left) * period
            }
            TimeControl::Canadian { period, .. } => {
                if self.in_overtime {
                    self.period_left
                } else {
                    self.main_left + period
                }
            }
        }
    }

    /// Charges a move that took `secs`; returns `false` if the flag fell.
    pub fn charge(&mut self, secs: f64) -> bool {
        if self.flagged {
            return false;
        }
        let mut t = secs.max(0.0);
        if !self.in_overtime {
            if t <= self.main_left {
                self.main_left -= t;
                return true;
            }
            t -= self.main_left;
            self.main_left = 0.0;
            if matches!(self.control, TimeControl::Absolute { .. }) {
                if t > TIME_GRACE {
                    self.flagged = true;
                }
                return !self.flagged;
            }
            self.in_overtime = true;
        }
        match self.control {
            TimeControl::Absolute { .. } => {}
            TimeControl::Byoyomi { period, .. } => {
                let lost = ((t - TIME_GRACE).max(0.0) / period).floor();
                if lost >= f64::from(self.periods_left) {
                    self.periods_left = 0;
                    self.flagged = true;
                } else {
                    self.periods_left -= lost as u32;
                }
            }
            TimeControl::Canadian { stones, period, .. } => {
                self.period_left -= t;
                if self.period_left < -TIME_GRACE {
                    self.flagged = true;
                } else {
                    self.stones_left -= 1;
                    if self.stones_left == 0 {
                        self.stones_left = stones;
                        self.period_left = period;
                    }
                    self.period_left = self.period_left.max(0.0);
                }
            }
        }
        !self.flagged
    }

    /// The arguments of `time_left` (seconds, stones or periods), as GTP expects: while
    /// in main time `(main, 0)`; in byo-yomi `(period, periods left)` for
    /// `kgs-time_settings`, `(period, 1)` for plain `time_settings`; Canadian
    /// `(seconds left in the period, stones left)`.
    pub fn time_left(&self, kgs: bool) -> (u64, u32) {
        if !self.in_overtime {
            return (whole(self.main_left), 0);
        }
        match self.control {
            TimeControl::Absolute { .. } => (0, 0),
            TimeControl::Byoyomi { period, .. } => {
                (whole(period), if kgs { self.periods_left } else { 1 })
            }
            TimeControl::Canadian { .. } => (whole(self.period_left), self.stones_left),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_print() {
        assert_eq!(
            "300".parse::<TimeControl>(),
            Ok(TimeControl::Absolute { main: 300.0 })
        );
        assert_eq!(
            "60+5x30".parse::<TimeControl>(),
            Ok(TimeControl::Byoyomi {
                main: 60.0,
                periods: 5,
                period: 30.0
            })
        );
        assert_eq!(
            "0+25/600".parse::<TimeControl>(),
            Ok(TimeControl::Canadian {
                main: 0.0,
                stones: 25,
                period: 600.0
            })
        );
        for bad in [
            "", "0", "-5", "x", "10+", "10+0x5", "10+3x0", "10+0/5", "10+5", "nan",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(
            "60+5x30".parse::<TimeControl>().unwrap().to_string(),
            "60+5x30"
        );
        assert_eq!("1.5".parse::<TimeControl>().unwrap().to_string(), "1.5");
    }

    #[test]
    fn commands() {
        let b: TimeControl = "60+5x30".parse().unwrap();
        assert_eq!(
            b.settings_command(true),
            "kgs-time_settings byoyomi 60 30 5"
        );
        assert_eq!(b.settings_command(false), "time_settings 60 30 1");
        let c: TimeControl = "10+25/600".parse().unwrap();
        assert_eq!(c.settings_command(false), "time_settings 10 600 25");
        let a: TimeControl = "5".parse().unwrap();
        assert_eq!(a.settings_command(false), "time_settings 5 0 0");
        assert_eq!(a.settings_command(true), "kgs-time_settings absolute 5");
    }

    #[test]
    fn absolute_clock() {
        let mut c = Clock::new("10".parse().unwrap());
        assert!(c.charge(4.0));
        assert_eq!(c.time_left(false), (6, 0));
        assert!(c.charge(6.05)); // inside the grace
        assert!(!c.charge(0.5));
        assert!(c.flagged());
    }

    #[test]
    fn byoyomi_clock() {
        let mut c = Clock::new("10+3x5".parse().unwrap());
        assert_eq!(c.allowed(), 25.0);
        assert!(c.charge(12.0)); // 10 main + 2 in a period: no period lost
        assert_eq!(c.time_left(true), (5, 3));
        assert!(c.charge(4.9));
        assert!(c.charge(7.0)); // one period lost
        assert_eq!(c.time_left(true), (5, 2));
        assert_eq!(c.allowed(), 10.0);
        assert!(!c.charge(10.5)); // both periods overrun
    }

    #[test]
    fn canadian_clock() {
        let mut c = Clock::new("2+2/10".parse().unwrap());
        assert_eq!(c.allowed(), 12.0);
        assert!(c.charge(5.0)); // 2 main, 3 of the period, 1 stone left
        assert_eq!(c.time_left(false), (7, 1));
        assert!(c.charge(6.0)); // period done: new period
        assert_eq!(c.time_left(false), (10, 2));
        assert!(c.charge(9.0));
        assert!(!c.charge(1.5)); // 1 s left in the period
    }
}
