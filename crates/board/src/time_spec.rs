//! A time control written out: the `M`, `M+PxT`, `M+S/T`, `M+If` spelling (seconds) that
//! `tengen match --time` takes, and the overtime text of an SGF record's `OT`.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::time_control::TimeControl;

/// A time-control spec that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeSpecError(pub String);

impl fmt::Display for TimeSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad time control {:?}: expected M (sudden death), M+PxT (byo-yomi: P periods of \
             T s), M+S/T (Canadian: S stones in T s) or M+If (Fischer: I s added after each \
             move; M+If:C keeps at most C s on the clock), seconds",
            self.0
        )
    }
}

impl std::error::Error for TimeSpecError {}

/// Seconds, finite and in `0..1e9`.
fn seconds(s: &str) -> Option<Duration> {
    let v: f64 = s.trim().parse().ok()?;
    (0.0..1e9).contains(&v).then(|| Duration::from_secs_f64(v))
}

impl FromStr for TimeControl {
    type Err = TimeSpecError;

    /// `M` (sudden death, M > 0), `M+PxT` (Japanese byo-yomi, P ≥ 1 periods of T > 0
    /// seconds), `M+S/T` (Canadian, S ≥ 1 stones in T > 0 seconds) or `M+If` (Fischer,
    /// M > 0, I > 0 seconds added after each move; `M+If:C`, the clock capped at C ≥ M).
    fn from_str(s: &str) -> Result<TimeControl, TimeSpecError> {
        let err = || TimeSpecError(s.to_string());
        let t = s.trim();
        let Some((main, over)) = t.split_once('+') else {
            let main = seconds(t).filter(|m| !m.is_zero()).ok_or_else(err)?;
            return Ok(TimeControl::Absolute { main });
        };
        let main = seconds(main).ok_or_else(err)?;
        if let Some((increment, cap)) = over.split_once(['f', 'F']) {
            let increment = seconds(increment)
                .filter(|v| !v.is_zero())
                .ok_or_else(err)?;
            let cap = match cap.trim() {
                "" => None,
                c => Some(
                    c.strip_prefix(':')
                        .and_then(seconds)
                        .filter(|&c| c >= main)
                        .ok_or_else(err)?,
                ),
            };
            if main.is_zero() {
                return Err(err());
            }
            return Ok(TimeControl::Fischer {
                main,
                increment,
                cap,
            });
        }
        let (count, period, byoyomi) = if let Some((p, per)) = over.split_once(['x', 'X']) {
            (p, per, true)
        } else if let Some((st, per)) = over.split_once('/') {
            (st, per, false)
        } else {
            return Err(err());
        };
        let count: u32 = count.trim().parse().map_err(|_| err())?;
        let period = seconds(period).filter(|v| !v.is_zero()).ok_or_else(err)?;
        if count == 0 {
            return Err(err());
        }
        Ok(if byoyomi {
            TimeControl::Byoyomi {
                main,
                period,
                periods: count,
            }
        } else {
            TimeControl::Canadian {
                main,
                period,
                stones: count,
            }
        })
    }
}

impl fmt::Display for TimeControl {
    /// The spec spelling (`none` without a limit, which does not parse back).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = |d: Duration| d.as_secs_f64();
        match *self {
            TimeControl::Unlimited => write!(f, "none"),
            TimeControl::Absolute { main } => write!(f, "{}", secs(main)),
            TimeControl::Byoyomi {
                main,
                period,
                periods,
            } => write!(f, "{}+{periods}x{}", secs(main), secs(period)),
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => write!(f, "{}+{stones}/{}", secs(main), secs(period)),
            TimeControl::Fischer {
                main,
                increment,
                cap,
            } => {
                write!(f, "{}+{}f", secs(main), secs(increment))?;
                match cap {
                    Some(c) => write!(f, ":{}", secs(c)),
                    None => Ok(()),
                }
            }
        }
    }
}

impl TimeControl {
    /// The SGF `OT` (overtime) text, if there is overtime.
    pub fn overtime(&self) -> Option<String> {
        match *self {
            TimeControl::Unlimited | TimeControl::Absolute { .. } => None,
            TimeControl::Byoyomi {
                periods, period, ..
            } => Some(format!("{periods}x{} byo-yomi", period.as_secs_f64())),
            TimeControl::Canadian { stones, period, .. } => {
                Some(format!("{stones}/{} Canadian", period.as_secs_f64()))
            }
            TimeControl::Fischer { increment, cap, .. } => Some(format!(
                "{} s Fischer increment{}",
                increment.as_secs_f64(),
                cap.map(|c| format!(", at most {} s", c.as_secs_f64()))
                    .unwrap_or_default()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: f64) -> Duration {
        Duration::from_secs_f64(x)
    }

    #[test]
    fn specs_parse_and_print() {
        assert_eq!(
            "300".parse::<TimeControl>(),
            Ok(TimeControl::Absolute { main: s(300.0) })
        );
        assert_eq!(
            "60+5x30".parse::<TimeControl>(),
            Ok(TimeControl::Byoyomi {
                main: s(60.0),
                periods: 5,
                period: s(30.0)
            })
        );
        assert_eq!(
            "0+25/600".parse::<TimeControl>(),
            Ok(TimeControl::Canadian {
                main: s(0.0),
                stones: 25,
                period: s(600.0)
            })
        );
        for bad in [
            "", "0", "-5", "x", "10+", "10+0x5", "10+3x0", "10+0/5", "10+5", "nan", "1e9",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        for spec in ["60+5x30", "1.5", "0+1x1", "10+25/600", "0.5+2x0.3"] {
            assert_eq!(spec.parse::<TimeControl>().unwrap().to_string(), spec);
        }
        assert_eq!(
            "60+5x30".parse::<TimeControl>().unwrap().overtime(),
            Some("5x30 byo-yomi".to_string())
        );
        assert_eq!("60".parse::<TimeControl>().unwrap().overtime(), None);
    }

    #[test]
    fn fischer_specs_parse_and_print() {
        assert_eq!(
            "60+5f".parse::<TimeControl>(),
            Ok(TimeControl::Fischer {
                main: s(60.0),
                increment: s(5.0),
                cap: None
            })
        );
        assert_eq!(
            "30+10F:60".parse::<TimeControl>(),
            Ok(TimeControl::Fischer {
                main: s(30.0),
                increment: s(10.0),
                cap: Some(s(60.0))
            })
        );
        for bad in [
            "0+5f",
            "60+0f",
            "60+f",
            "60+5f:",
            "60+5f:30",
            "60+5f60",
            "60+-1f",
            "60+5fx3",
            "60+5f:nan",
            "60+inff",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        for spec in ["60+5f", "1.5+0.5f", "30+10f:60", "30+10f:30"] {
            assert_eq!(spec.parse::<TimeControl>().unwrap().to_string(), spec);
        }
        assert_eq!(
            "60+5f".parse::<TimeControl>().unwrap().overtime(),
            Some("5 s Fischer increment".to_string())
        );
        assert_eq!(
            "30+10f:60".parse::<TimeControl>().unwrap().overtime(),
            Some("10 s Fischer increment, at most 60 s".to_string())
        );
        // Byo-yomi and Canadian spellings are unchanged.
        assert!(matches!(
            "60+5x30".parse::<TimeControl>(),
            Ok(TimeControl::Byoyomi { .. })
        ));
    }
}
