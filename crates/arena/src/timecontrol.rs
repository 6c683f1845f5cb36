//! The referee's side of the clock: the grace it forgives, and how it tells engines the
//! time over GTP. The time rules themselves ([`TimeControl`], [`Clock`], charging a
//! move, the flag, the `--time` spelling) are `tengen_board`'s, the same ones the
//! engine plans its moves by.

use std::time::Duration;

pub use tengen_board::{Clock, TimeControl, TimeSpecError};

/// Overruns up to this much are forgiven (pipe and scheduling latency).
pub const TIME_GRACE: Duration = Duration::from_millis(100);

/// Whole seconds for GTP (which takes integers), never more than the real value.
fn whole(d: Duration) -> u64 {
    d.as_secs()
}

/// Why GTP cannot tell engines `tc`, if it cannot: it gives times in whole seconds,
/// so a main time or a period under one second (other than none) would reach them as
/// 0, which `time_settings` reads as no limit and `time_left` as no time left.
pub fn gtp_problem(tc: &TimeControl) -> Option<String> {
    let (main, period) = match *tc {
        TimeControl::Unlimited => return None,
        TimeControl::Absolute { main } | TimeControl::Fischer { main, .. } => (main, None),
        TimeControl::Byoyomi { main, period, .. } | TimeControl::Canadian { main, period, .. } => {
            (main, Some(period))
        }
    };
    let under = |d: Duration| !d.is_zero() && d < Duration::from_secs(1);
    if under(main) {
        return Some(format!(
            "main time {} s is under a second, which GTP (whole seconds) cannot tell engines",
            main.as_secs_f64()
        ));
    }
    match period {
        Some(p) if p < Duration::from_secs(1) => Some(format!(
            "a period of {} s is under a second, which GTP (whole seconds) cannot tell engines",
            p.as_secs_f64()
        )),
        _ => None,
    }
}

/// KataGo's `kata-time_settings` for the controls only it can tell: Fischer (`fischer
/// M I`, or `fischer-capped M I C -1`, no limit a move), in seconds with fractions, as
/// the extension allows. `None` for the others, which [`settings_command`] tells.
pub fn kata_settings_command(tc: &TimeControl) -> Option<String> {
    let secs = |d: Duration| d.as_secs_f64();
    match *tc {
        TimeControl::Fischer {
            main,
            increment,
            cap: None,
        } => Some(format!(
            "kata-time_settings fischer {} {}",
            secs(main),
            secs(increment)
        )),
        TimeControl::Fischer {
            main,
            increment,
            cap: Some(cap),
        } => Some(format!(
            "kata-time_settings fischer-capped {} {} {} -1",
            secs(main),
            secs(increment),
            secs(cap)
        )),
        _ => None,
    }
}

/// The command that tells an engine `tc`: `kgs-time_settings` if it knows it, else
/// `time_settings` (Canadian; byo-yomi sent as one stone a period). A period is at
/// least one second. Fischer, for an engine without `kata-time_settings`, is sent as
/// sudden death with its main time: `time_left` before every move then tells it the
/// clock, increments included.
pub fn settings_command(tc: &TimeControl, kgs: bool) -> String {
    let period = |p: Duration| whole(p).max(1);
    match *tc {
        TimeControl::Fischer { main, .. } if kgs => {
            format!("kgs-time_settings absolute {}", whole(main))
        }
        TimeControl::Fischer { main, .. } => format!("time_settings {} 0 0", whole(main)),
        TimeControl::Unlimited if kgs => "kgs-time_settings none".to_string(),
        TimeControl::Unlimited => "time_settings 0 1 0".to_string(),
        TimeControl::Absolute { main } if kgs => {
            format!("kgs-time_settings absolute {}", whole(main))
        }
        TimeControl::Absolute { main } => format!("time_settings {} 0 0", whole(main)),
        TimeControl::Byoyomi {
            main,
            periods,
            period: p,
        } if kgs => format!(
            "kgs-time_settings byoyomi {} {} {periods}",
            whole(main),
            period(p)
        ),
        TimeControl::Byoyomi {
            main, period: p, ..
        } => {
            format!("time_settings {} {} 1", whole(main), period(p))
        }
        TimeControl::Canadian {
            main,
            stones,
            period: p,
        } if kgs => format!(
            "kgs-time_settings canadian {} {} {stones}",
            whole(main),
            period(p)
        ),
        TimeControl::Canadian {
            main,
            stones,
            period: p,
        } => format!("time_settings {} {} {stones}", whole(main), period(p)),
    }
}

/// The arguments of `time_left` (seconds, stones or periods), as GTP expects: in main
/// time `(main, 0)`; in byo-yomi `(period, periods left)` for `kgs-time_settings`,
/// `(period, 1)` for plain `time_settings` (which heard one stone a period); Canadian
/// `(seconds left in the period, stones left)`.
pub fn time_left_args(tc: &TimeControl, clock: &Clock, kgs: bool) -> (Duration, u32) {
    match *tc {
        TimeControl::Byoyomi { .. } if clock.in_overtime() && !kgs => (clock.time_left, 1),
        _ => (clock.time_left, clock.stones),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `time_left_args` in whole seconds, as a plain `time_left` sends it.
    fn whole_args((left, stones): (Duration, u32)) -> (u64, u32) {
        (whole(left), stones)
    }

    fn tc(spec: &str) -> TimeControl {
        spec.parse().unwrap()
    }

    #[test]
    fn times_under_a_second_cannot_be_told() {
        assert!(gtp_problem(&tc("0+1x0.5")).is_some());
        assert!(gtp_problem(&tc("0.5")).is_some());
        assert!(gtp_problem(&tc("0.5+1x1")).is_some());
        assert!(gtp_problem(&tc("0+5/0.5")).is_some());
        assert_eq!(gtp_problem(&tc("0+1x1")), None);
        assert_eq!(gtp_problem(&tc("60+3x1.5")), None);
        assert_eq!(gtp_problem(&tc("10")), None);
    }

    /// A referee's charge: with the grace.
    fn charge(c: &mut Clock, tc: &TimeControl, secs: f64) -> bool {
        c.charge(tc, Duration::from_secs_f64(secs), TIME_GRACE)
    }

    #[test]
    fn commands() {
        let b = tc("60+5x30");
        assert_eq!(
            settings_command(&b, true),
            "kgs-time_settings byoyomi 60 30 5"
        );
        assert_eq!(settings_command(&b, false), "time_settings 60 30 1");
        let c = tc("10+25/600");
        assert_eq!(settings_command(&c, false), "time_settings 10 600 25");
        assert_eq!(
            settings_command(&c, true),
            "kgs-time_settings canadian 10 600 25"
        );
        let a = tc("5");
        assert_eq!(settings_command(&a, false), "time_settings 5 0 0");
        assert_eq!(settings_command(&a, true), "kgs-time_settings absolute 5");
        // A period under a second is sent as one.
        assert_eq!(
            settings_command(&tc("0.5+2x0.3"), false),
            "time_settings 0 1 1"
        );
    }

    #[test]
    fn fischer_commands() {
        let f = tc("60+5f");
        assert_eq!(
            kata_settings_command(&f).as_deref(),
            Some("kata-time_settings fischer 60 5")
        );
        assert_eq!(
            kata_settings_command(&tc("30.5+0.5f:90")).as_deref(),
            Some("kata-time_settings fischer-capped 30.5 0.5 90 -1")
        );
        // Without the extension: sudden death, the clock told by time_left.
        assert_eq!(settings_command(&f, true), "kgs-time_settings absolute 60");
        assert_eq!(settings_command(&f, false), "time_settings 60 0 0");
        for other in ["60", "60+5x30", "10+25/600"] {
            assert_eq!(kata_settings_command(&tc(other)), None, "{other}");
        }
        assert!(gtp_problem(&tc("0.5+5f")).is_some());
        assert_eq!(gtp_problem(&tc("1+0.5f")), None);
    }

    #[test]
    fn fischer_clock() {
        let t = tc("10+2f:15");
        let mut c = t.start_clock();
        assert_eq!(whole_args(time_left_args(&t, &c, true)), (10, 0));
        assert!(charge(&mut c, &t, 4.0)); // 6 left, then the increment
        assert_eq!(whole_args(time_left_args(&t, &c, false)), (8, 0));
        assert!(charge(&mut c, &t, 0.5)); // 9.5 s
        assert_eq!(c.allowed(&t), Some(Duration::from_secs_f64(9.5)));
        for _ in 0..3 {
            assert!(charge(&mut c, &t, 0.0)); // 11.5, 13.5, then 15.5 cut to 15
        }
        assert_eq!(c.allowed(&t), Some(Duration::from_secs(15)));
        assert!(charge(&mut c, &t, 15.05)); // inside the grace: the increment still comes
        assert_eq!(whole_args(time_left_args(&t, &c, true)), (2, 0));
        assert!(!charge(&mut c, &t, 2.5));
    }

    #[test]
    fn absolute_clock() {
        let t = tc("10");
        let mut c = t.start_clock();
        assert!(charge(&mut c, &t, 4.0));
        assert_eq!(whole_args(time_left_args(&t, &c, false)), (6, 0));
        assert!(charge(&mut c, &t, 6.05)); // inside the grace
        assert!(!charge(&mut c, &t, 0.5));
    }

    #[test]
    fn byoyomi_clock() {
        let t = tc("10+3x5");
        let mut c = t.start_clock();
        assert_eq!(c.allowed(&t), Some(Duration::from_secs(25)));
        assert_eq!(whole_args(time_left_args(&t, &c, true)), (10, 0));
        assert!(charge(&mut c, &t, 12.0)); // 10 main + 2 in a period: no period lost
        assert_eq!(whole_args(time_left_args(&t, &c, true)), (5, 3));
        assert_eq!(whole_args(time_left_args(&t, &c, false)), (5, 1));
        assert!(charge(&mut c, &t, 4.9));
        assert!(charge(&mut c, &t, 7.0)); // one period lost
        assert_eq!(whole_args(time_left_args(&t, &c, true)), (5, 2));
        assert_eq!(c.allowed(&t), Some(Duration::from_secs(10)));
        assert!(!charge(&mut c, &t, 10.5)); // both periods overrun
        // No main time: overtime from the first move.
        let t = tc("0+1x1");
        assert_eq!(
            whole_args(time_left_args(&t, &t.start_clock(), true)),
            (1, 1)
        );
    }

    #[test]
    fn canadian_clock() {
        let t = tc("2+2/10");
        let mut c = t.start_clock();
        assert_eq!(c.allowed(&t), Some(Duration::from_secs(12)));
        assert!(charge(&mut c, &t, 5.0)); // 2 main, 3 of the period, 1 stone left
        assert_eq!(whole_args(time_left_args(&t, &c, false)), (7, 1));
        assert!(charge(&mut c, &t, 6.0)); // period done: new period
        assert_eq!(whole_args(time_left_args(&t, &c, false)), (10, 2));
        assert!(charge(&mut c, &t, 9.0));
        assert!(!charge(&mut c, &t, 1.5)); // 1 s left in the period
    }
}
