//! Engine settings over GTP: `tengen-get [key]`, `tengen-set key value`, and
//! `tengen-params` (GoGui's `param` type: the list without arguments, a setting with).
//! Changing a setting restarts the engine with the new configuration (the tree is
//! dropped; the game stays).

use std::time::Duration;

use tengen_engine::Config;

use crate::args::{Args, parse_bool, parse_float, parse_int};
use crate::error::{GtpError, quote};
use crate::session::{Ctx, Session};

type Answer = Result<String, GtpError>;

/// One setting: its name, GoGui's type for it, and how to read and write it.
struct Setting {
    name: &'static str,
    kind: &'static str,
    get: fn(&Config) -> String,
    set: fn(&mut Config, &str) -> Result<(), String>,
}

// A refused value is answered `invalid value "V" for NAME: WHY`, WHY worded as the
// command line words its flags' bounds (`crates/cli/bounds.rs`): `must be between LO
// and HI`, or `must be at least LO` where the type is the only upper bound.

/// Bounds `lo..=hi` said in words.
fn between(lo: impl std::fmt::Display, hi: impl std::fmt::Display) -> String {
    format!("must be between {lo} and {hi}")
}

/// An integer in `lo..=hi` (`hi` = `i64::MAX`: no bound but the type's).
fn int_in(v: &str, lo: i64, hi: i64) -> Result<i64, String> {
    let n = parse_int(v).ok_or("not a whole number")?;
    if (lo..=hi).contains(&n) {
        Ok(n)
    } else if hi == i64::MAX {
        Err(format!("must be at least {lo}"))
    } else {
        Err(between(lo, hi))
    }
}

/// A finite number in `lo..=hi`.
fn real_in(v: &str, lo: f64, hi: f64) -> Result<f64, String> {
    let x = parse_float(v).ok_or("not a number")?;
    if (lo..=hi).contains(&x) {
        Ok(x)
    } else {
        Err(between(lo, hi))
    }
}

/// Seconds from `lo` to a day.
fn seconds(v: &str, lo: f64) -> Result<Duration, String> {
    real_in(v, lo, 86_400.0).map(Duration::from_secs_f64)
}

/// Every setting, in the order they are listed.
const SETTINGS: &[Setting] = &[
    Setting {
        name: "threads",
        kind: "string",
        get: |c| c.threads.to_string(),
        set: |c, v| {
            c.threads = int_in(v, 1, 1024)? as usize;
            Ok(())
        },
    },
    Setting {
        name: "parallelism",
        kind: "list/root/tree",
        get: |c| c.parallelism.name().to_string(),
        set: |c, v| {
            c.parallelism = v
                .parse()
                .map_err(|e: tengen_engine::config::UnknownParallelism| e.to_string())?;
            Ok(())
        },
    },
    Setting {
        name: "playouts",
        kind: "string",
        get: |c| c.playouts.unwrap_or(0).to_string(),
        set: |c, v| {
            let n = int_in(v, 0, i64::MAX)? as u64;
            c.playouts = (n > 0).then_some(n);
            Ok(())
        },
    },
    Setting {
        name: "move_time",
        kind: "string",
        get: |c| format!("{}", c.default_move_time.as_secs_f64()),
        set: |c, v| {
            c.default_move_time = seconds(v, 0.0)?;
            Ok(())
        },
    },
    Setting {
        name: "seed",
        kind: "string",
        get: |c| c.seed.to_string(),
        set: |c, v| {
            c.seed = v.parse().map_err(|_| match parse_int(v) {
                Some(n) if n < 0 => "must be at least 0".to_string(),
                Some(_) => between(0, u64::MAX),
                None => "not a whole number".to_string(),
            })?;
            Ok(())
        },
    },
    Setting {
        name: "policy",
        kind: "list/light/heavy",
        get: |c| c.policy.name().to_string(),
        set: |c, v| {
            c.policy = v
                .parse()
                .map_err(|e: tengen_engine::playout::UnknownPolicy| e.to_string())?;
            Ok(())
        },
    },
    Setting {
        name: "resign_threshold",
        kind: "string",
        get: |c| c.resign_threshold.to_string(),
        set: |c, v| {
            c.resign_threshold = real_in(v, 0.0, 1.0)?;
            Ok(())
        },
    },
    Setting {
        name: "ponder",
        kind: "bool",
        get: |c| u8::from(c.ponder).to_string(),
        set: |c, v| {
            c.ponder = parse_bool(v).ok_or("expected true or false")?;
            Ok(())
        },
    },
    Setting {
        name: "memory",
        kind: "string",
        get: |c| c.memory_mib.to_string(),
        set: |c, v| {
            c.memory_mib = int_in(v, 1, tengen_engine::MAX_MEMORY_MIB as i64)? as usize;
            Ok(())
        },
    },
    Setting {
        name: "expand_after",
        kind: "string",
        get: |c| c.search.expand_after.to_string(),
        set: |c, v| {
            c.search.expand_after = int_in(v, 1, 1_000_000)? as u32;
            Ok(())
        },
    },
    Setting {
        name: "model_prior",
        kind: "list/off/wins/widen/both",
        get: |c| c.search.model_prior.name().to_string(),
        set: |c, v| {
            c.search.model_prior = v
                .parse()
                .map_err(|e: tengen_engine::config::UnknownModelPrior| e.to_string())?;
            Ok(())
        },
    },
    Setting {
        name: "model_weight",
        kind: "string",
        get: |c| c.search.model_weight.to_string(),
        set: |c, v| {
            c.search.model_weight = real_in(v, 0.0, 100_000.0)?;
            Ok(())
        },
    },
    Setting {
        name: "widen_visits",
        kind: "string",
        get: |c| c.search.widen_visits.to_string(),
        set: |c, v| {
            c.search.widen_visits = real_in(v, 1.0, 1e9)?;
            Ok(())
        },
    },
    Setting {
        name: "playout_model",
        kind: "string",
        get: |c| tengen_engine::config::LocalModelSetting(c.heavy.local_model).to_string(),
        set: |c, v| {
            c.heavy.local_model = if v.eq_ignore_ascii_case("off") {
                None
            } else {
                let max = tengen_engine::config::MAX_LOCAL_MODEL;
                Some(real_in(v, 0.0, max).map_err(|e| match parse_float(v) {
                    Some(_) => e,
                    None => "not a number, nor off".to_string(),
                })?)
            };
            Ok(())
        },
    },
    Setting {
        name: "lag",
        kind: "string",
        get: |c| format!("{}", c.lag.as_secs_f64()),
        set: |c, v| {
            c.lag = seconds(v, 0.0)?;
            Ok(())
        },
    },
    Setting {
        name: "max_move_time",
        kind: "string",
        get: |c| format!("{}", c.max_move_time.as_secs_f64()),
        set: |c, v| {
            c.max_move_time = seconds(v, 0.1)?;
            Ok(())
        },
    },
];

fn find(key: &str) -> Result<&'static Setting, GtpError> {
    SETTINGS
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(key))
        .ok_or_else(|| {
            let names: Vec<&str> = SETTINGS.iter().map(|s| s.name).collect();
            GtpError::syntax(format!(
                "unknown setting {} ({})",
                quote(key),
                names.join(", ")
            ))
        })
}

/// The names of every setting, in the order they are listed.
pub(crate) fn names() -> impl Iterator<Item = &'static str> {
    SETTINGS.iter().map(|s| s.name)
}

/// The value of the setting `key` (any case), as `tengen-get key` answers it.
pub(crate) fn value(c: &Config, key: &str) -> Result<String, GtpError> {
    Ok((find(key)?.get)(c))
}

/// Sets the setting `key` (any case) to `value` as `tengen-set` does: the same parsing,
/// bounds and restart; `label` names the setting in the error. On error nothing changes.
pub(crate) fn apply(s: &mut Session, key: &str, value: &str, label: &str) -> Result<(), GtpError> {
    let setting = find(key)?;
    let mut config = s.engine.config().clone();
    (setting.set)(&mut config, value).map_err(|e| {
        GtpError::syntax(format!("invalid value {} for {label}: {e}", quote(value)))
    })?;
    if config != *s.engine.config() {
        s.engine = s.engine.reconfigured(config);
        s.status_cache = None;
    }
    Ok(())
}

fn set(s: &mut Session, a: &mut Args<'_>) -> Answer {
    let key = a.word("setting")?;
    let value = a.word("value")?;
    a.end()?;
    let setting = find(key)?;
    apply(s, setting.name, value, setting.name)?;
    Ok(String::new())
}

/// `tengen-set key value`.
pub(crate) fn tengen_set(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    set(s, a)
}

/// `tengen-get [key]`: one value, or every `key value` line.
pub(crate) fn tengen_get(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let c = s.engine.config();
    if a.is_empty() {
        let lines: Vec<String> = SETTINGS
            .iter()
            .map(|st| format!("{} {}", st.name, (st.get)(c)))
            .collect();
        return Ok(lines.join("\n"));
    }
    let key = a.word("setting")?;
    a.end()?;
    Ok((find(key)?.get)(c))
}

/// `tengen-params [key value]`: GoGui's parameter dialog.
pub(crate) fn tengen_params(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    if !a.is_empty() {
        return set(s, a);
    }
    let c = s.engine.config();
    let lines: Vec<String> = SETTINGS
        .iter()
        .map(|st| format!("[{}] {} {}", st.kind, st.name, (st.get)(c)))
        .collect();
    Ok(lines.join("\n"))
}
