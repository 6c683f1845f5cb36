//! Time controls and clocks: `time_settings`, `kgs-time_settings`, `time_left`.

use std::time::Duration;

use tengen_engine::{Clock, TimeControl};

use crate::args::Args;
use crate::error::{GtpError, quote};
use crate::session::{Ctx, Session};

type Answer = Result<String, GtpError>;

/// Longest time accepted (a year): enough for any game, small enough for `Duration`.
const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// A number of seconds: finite, not negative, at most a year.
fn seconds(a: &mut Args<'_>, what: &str) -> Result<Duration, GtpError> {
    let t = a.peek();
    let x = a.float(what)?;
    if x < 0.0 {
        return Err(GtpError::syntax(format!(
            "{what} must not be negative: {}",
            quote(t.unwrap_or(""))
        )));
    }
    Ok(Duration::from_secs_f64(x.min(MAX_SECONDS)))
}

fn set_control(s: &mut Session, tc: TimeControl) {
    s.time = tc;
    s.reset_clocks();
}

/// `time_settings main byo_yomi_time byo_yomi_stones` (Canadian; `byo 0` is sudden
/// death, `stones 0` with a period is no limit, as GoGui's `0 1 0`).
pub(crate) fn time_settings(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let main = seconds(a, "main time")?;
    let period = seconds(a, "byo-yomi time")?;
    let stones = a.uint("byo-yomi stones")?;
    a.end()?;
    set_control(s, TimeControl::from_gtp(main, period, stones));
    Ok(String::new())
}

/// `kgs-time_settings none | absolute M | byoyomi M P N | canadian M B S`.
pub(crate) fn kgs_time_settings(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let kind = a.word("time system")?;
    let tc = match kind.to_ascii_lowercase().as_str() {
        "none" => TimeControl::Unlimited,
        "absolute" => TimeControl::Absolute {
            main: seconds(a, "main time")?,
        },
        "byoyomi" => {
            let main = seconds(a, "main time")?;
            let period = seconds(a, "period time")?;
            let periods = a.uint("periods")?;
            if period.is_zero() || periods == 0 {
                TimeControl::Absolute { main }
            } else {
                TimeControl::Byoyomi {
                    main,
                    period,
                    periods,
                }
            }
        }
        "canadian" => {
            let main = seconds(a, "main time")?;
            let period = seconds(a, "byo-yomi time")?;
            let stones = a.uint("byo-yomi stones")?;
            TimeControl::from_gtp(main, period, stones)
        }
        _ => {
            return Err(GtpError::syntax(format!(
                "unknown time system {} (none, absolute, byoyomi, canadian)",
                quote(kind)
            )));
        }
    };
    a.end()?;
    set_control(s, tc);
    Ok(String::new())
}

/// `time_left color seconds stones`: what the controller's clock says; it replaces our
/// own accounting. Negative times (an overrun, as KataGo accepts) count as zero.
pub(crate) fn time_left(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let color = a.color()?;
    let t = a.float("time left")?;
    let stones = a.uint("stones")?;
    a.end()?;
    s.clocks[color] = Clock {
        time_left: Duration::from_secs_f64(t.clamp(0.0, MAX_SECONDS)),
        stones,
    };
    Ok(String::new())
}
