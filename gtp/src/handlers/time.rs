//! Time controls and clocks: `time_settings`, `kgs-time_settings`, KataGo's
//! `kata-time_settings` and `kata-list_time_settings`, `time_left`.

use std::time::Duration;

use tengen_engine::TimeControl;

use crate::args::Args;
use crate::error::{Answer, GtpError, quote};
use crate::session::{Ctx, Session};

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

/// `time_settings main byo_yomi_time byo_yomi_stones` (Canadian; `byo 0` is sudden
/// death, `stones 0` with a period is no limit, as GoGui's `0 1 0`).
pub(crate) fn time_settings(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let main = seconds(a, "main time")?;
    let period = seconds(a, "byo-yomi time")?;
    let stones = a.uint("byo-yomi stones")?;
    a.end()?;
    s.timekeeper
        .set_control(TimeControl::from_gtp(main, period, stones), None);
    Ok(String::new())
}

/// The systems `kata-time_settings` takes, as `kata-list_time_settings` answers them
/// (KataGo's words, on one line).
const KATA_SYSTEMS: &str = "none absolute byoyomi canadian fischer fischer-capped";

/// `kgs-time_settings none | absolute M | byoyomi M P N | canadian M B S`.
pub(crate) fn kgs_time_settings(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let (tc, per_move) = time_system(a, false)?;
    s.timekeeper.set_control(tc, per_move);
    Ok(String::new())
}

/// `kata-time_settings SYSTEM ...`: `kgs-time_settings`'s systems, and `fischer M I`
/// and `fischer-capped M I MAINCAP PERMOVE` (a negative cap or limit is none), in
/// seconds; `PERMOVE` caps every move (`Timekeeper::move_limit`).
pub(crate) fn kata_time_settings(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let (tc, per_move) = time_system(a, true)?;
    s.timekeeper.set_control(tc, per_move);
    Ok(String::new())
}

/// `kata-list_time_settings`: the systems `kata-time_settings` takes.
pub(crate) fn kata_list_time_settings(
    _: &mut Session,
    a: &mut Args<'_>,
    _: &mut Ctx<'_>,
) -> Answer {
    a.end()?;
    Ok(KATA_SYSTEMS.to_string())
}

/// A time system and its arguments, to the end of the line: `kgs-time_settings`'s, and
/// with `kata` KataGo's Fischer systems too; and the limit on one move, if it sets one.
fn time_system(a: &mut Args<'_>, kata: bool) -> Result<(TimeControl, Option<Duration>), GtpError> {
    let kind = a.word("time system")?;
    let mut per_move = None;
    let tc = match (kind.to_ascii_lowercase().as_str(), kata) {
        ("none", _) => TimeControl::Unlimited,
        ("absolute", _) => TimeControl::Absolute {
            main: seconds(a, "main time")?,
        },
        ("byoyomi", _) => {
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
        ("canadian", _) => {
            let main = seconds(a, "main time")?;
            let period = seconds(a, "byo-yomi time")?;
            let stones = a.uint("byo-yomi stones")?;
            TimeControl::from_gtp(main, period, stones)
        }
        ("fischer", true) => {
            let main = seconds(a, "main time")?;
            let increment = seconds(a, "increment")?;
            fischer(main, increment, None)
        }
        ("fischer-capped", true) => {
            let main = seconds(a, "main time")?;
            let increment = seconds(a, "increment")?;
            let cap = limit(a, "main time limit")?;
            if let Some(c) = cap.filter(|&c| c < main) {
                return Err(GtpError::syntax(format!(
                    "main time limit {} is below the main time {}",
                    c.as_secs_f64(),
                    main.as_secs_f64()
                )));
            }
            per_move = limit(a, "max time per move")?;
            fischer(main, increment, cap)
        }
        _ => {
            let systems = if kata {
                KATA_SYSTEMS.replace(' ', ", ")
            } else {
                "none, absolute, byoyomi, canadian".to_string()
            };
            return Err(GtpError::syntax(format!(
                "unknown time system {} ({systems})",
                quote(kind)
            )));
        }
    };
    a.end()?;
    Ok((tc, per_move))
}

/// Fischer; with no increment, sudden death.
fn fischer(main: Duration, increment: Duration, cap: Option<Duration>) -> TimeControl {
    if increment.is_zero() {
        TimeControl::Absolute { main }
    } else {
        TimeControl::Fischer {
            main,
            increment,
            cap,
        }
    }
}

/// A limit in seconds, `None` if negative (KataGo's "no limit", `-1`).
fn limit(a: &mut Args<'_>, what: &str) -> Result<Option<Duration>, GtpError> {
    let x = a.float(what)?;
    Ok((x >= 0.0).then(|| Duration::from_secs_f64(x.min(MAX_SECONDS))))
}

/// `time_left color seconds stones`: what the controller's clock says; it replaces our
/// own accounting (`Timekeeper::set_clock`). Negative times (an overrun, as KataGo
/// accepts) count as zero.
pub(crate) fn time_left(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let color = a.color()?;
    let t = a.float("time left")?;
    let stones = a.uint("stones")?;
    a.end()?;
    let time_left = Duration::from_secs_f64(t.clamp(0.0, MAX_SECONDS));
    s.timekeeper.set_clock(color, time_left, stones);
    Ok(String::new())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tengen_board::Color;
    use tengen_engine::{Clock, Config};

    use super::*;
    use crate::session::tests::{move_limit, quiet_session, send};

    fn session() -> Session {
        let config = Config {
            threads: 1,
            ..Config::default()
        };
        quiet_session(9, config)
    }

    fn secs(x: f64) -> Duration {
        Duration::from_secs_f64(x)
    }

    /// Fischer's clock: `main` seconds, `increment` added after each move, at most
    /// `cap` on the clock.
    fn fischer(main: f64, increment: f64, cap: Option<f64>) -> TimeControl {
        TimeControl::Fischer {
            main: secs(main),
            increment: secs(increment),
            cap: cap.map(secs),
        }
    }

    #[test]
    fn kata_time_settings_set_what_kgs_time_settings_set() {
        let mut s = session();
        for (kata, kgs) in [
            ("none", "none"),
            ("absolute 600.5", "absolute 600.5"),
            ("byoyomi 900 30 5", "byoyomi 900 30 5"),
            ("canadian 600 300 25", "canadian 600 300 25"),
            ("byoyomi 60 0 3", "absolute 60"),
        ] {
            assert_eq!(send(&mut s, &format!("kgs-time_settings {kgs}")), "=\n\n");
            let want = s.timekeeper.control();
            send(&mut s, "kgs-time_settings absolute 1");
            assert_eq!(send(&mut s, &format!("kata-time_settings {kata}")), "=\n\n");
            assert_eq!(s.timekeeper.control(), want, "{kata}");
        }
    }

    #[test]
    fn fischer_settings_and_clocks() {
        let mut s = session();
        send(&mut s, "kata-time_settings fischer 60 5.5");
        assert_eq!(s.timekeeper.control(), fischer(60.0, 5.5, None));
        assert_eq!(s.timekeeper.clock(Color::Black), Clock::main(secs(60.0)));
        send(&mut s, "kata-time_settings fischer-capped 30 10 45.5 -1");
        assert_eq!(s.timekeeper.control(), fischer(30.0, 10.0, Some(45.5)));
        // time_left sets the clock, in main time whatever the stones say.
        send(&mut s, "time_left w 12.5 2");
        assert_eq!(s.timekeeper.clock(Color::White), Clock::main(secs(12.5)));
        // Our own clock after a move: the time used off, the increment on, the cap kept.
        send(&mut s, "kata-time_settings fischer-capped 3 0.5 4 -1");
        send(&mut s, "time_left b 3.8 0");
        let start = std::time::Instant::now();
        assert!(send(&mut s, "genmove b").starts_with("= "));
        let at_least = secs(3.8 + 0.5)
            .saturating_sub(start.elapsed())
            .min(secs(4.0));
        let left = s.timekeeper.clock(Color::Black).time_left;
        assert!(left >= at_least && left <= secs(4.0), "{left:?}");
        // A refused setting (a main time limit below the main time) changes nothing.
        let before = (s.timekeeper.control(), s.timekeeper.per_move());
        assert!(send(&mut s, "kata-time_settings fischer-capped 30 10 20 5").starts_with("? "));
        assert_eq!((s.timekeeper.control(), s.timekeeper.per_move()), before);
        assert_eq!(
            send(&mut s, "kata-list_time_settings"),
            "= none absolute byoyomi canadian fischer fischer-capped\n\n"
        );
    }

    #[test]
    fn a_limit_on_one_move_caps_every_move() {
        use tengen_engine::Limit;
        let mut s = session();
        // 10 minutes and 5 s a move, but never more than 0.5 s on one move (as
        // LizzieYzy sends its seconds a move): the move ends the margin before it.
        send(&mut s, "kata-time_settings fischer-capped 600 5 -1 0.5");
        let margin = s.engine.config().lag + s.timekeeper.overruns().reserve();
        let Limit::Time(b) = move_limit(&s, Color::Black).0 else {
            panic!("a clock gives a time limit");
        };
        assert_eq!(b.hard, secs(0.5) - margin, "{b:?}");
        assert!(b.soft <= b.hard);
        // Another system drops the limit.
        send(&mut s, "kata-time_settings fischer 600 5");
        let Limit::Time(b) = move_limit(&s, Color::Black).0 else {
            panic!("a clock gives a time limit");
        };
        assert!(b.hard > secs(5.0), "{b:?}");
    }

    #[test]
    fn an_overrun_under_fischer_still_earns_the_increment() {
        // The controller said nothing was left and then says nothing: the move overruns
        // our own account, which then holds the increment (the controller decides the
        // flag), so the next move still thinks about 5 s rather than one playout.
        let mut s = session();
        send(&mut s, "kata-time_settings fischer 60 5");
        send(&mut s, "time_left b 0 0");
        assert!(send(&mut s, "genmove b").starts_with("= "));
        assert_eq!(s.timekeeper.clock(Color::Black), Clock::main(secs(5.0)));
        // Capped below the increment: the cap.
        send(&mut s, "kata-time_settings fischer-capped 2 5 3 -1");
        send(&mut s, "time_left b 0 0");
        assert!(send(&mut s, "genmove b").starts_with("= "));
        assert_eq!(s.timekeeper.clock(Color::Black), Clock::main(secs(3.0)));
    }
}
