//! Engine settings over GTP: `tengen-get [key]`, `tengen-set key value`, and
//! `tengen-params` (GoGui's `param` type: the list without arguments, a setting with).
//! Changing a setting restarts the engine with the new configuration (the tree is
//! dropped; the game stays).

use tengen_engine::Config;
use tengen_engine::config::NetChoice;
use tengen_engine::settings::{Kind, SETTINGS, Setting};

use crate::args::Args;
use crate::error::{Answer, GtpError, quote};
use crate::session::{Ctx, Session};

// The settings, their bounds and units are the engine's one table
// (`tengen_engine::settings`), which the command line's flags read too. A refused value
// is answered `invalid value "V" for NAME: WHY`, WHY in the table's words: `must be
// between LO and HI`, `must be at least LO`, `not a whole number`, `expected A or B`.

fn find(key: &str) -> Result<&'static Setting, GtpError> {
    tengen_engine::settings::find(key).ok_or_else(|| {
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
    Ok(find(key)?.get(c))
}

/// Sets the setting `key` (any case) to `value` as `tengen-set` does: the same parsing,
/// bounds and restart; `label` names the setting in the error. On error nothing changes.
pub(crate) fn apply(s: &mut Session, key: &str, value: &str, label: &str) -> Result<(), GtpError> {
    let setting = find(key)?;
    let mut config = s.engine.config().clone();
    let invalid = |e: &dyn std::fmt::Display| {
        GtpError::syntax(format!("invalid value {} for {label}: {e}", quote(value)))
    };
    setting.set(&mut config, value).map_err(|e| invalid(&e))?;
    // Naming the network the engine has reads it again, as its file is now (training
    // may have rewritten it); naming another loads that one.
    let reload = setting.kind == Kind::FileOrOff
        && config.policy_net != NetChoice::Off
        && config.policy_net == s.engine.config().policy_net;
    if config != *s.engine.config() || reload {
        let mut engine = s.engine.reconfigured(config);
        if reload {
            engine.reload_net().map_err(|e| invalid(&e))?;
        }
        s.engine = engine;
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
            .map(|st| format!("{} {}", st.name, st.get(c)))
            .collect();
        return Ok(lines.join("\n"));
    }
    let key = a.word("setting")?;
    a.end()?;
    Ok(find(key)?.get(c))
}

/// `tengen-params [key value]`: GoGui's parameter dialog.
pub(crate) fn tengen_params(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    if !a.is_empty() {
        return set(s, a);
    }
    let c = s.engine.config();
    let lines: Vec<String> = SETTINGS
        .iter()
        .map(|st| format!("[{}] {} {}", st.gogui_type(), st.name, st.get(c)))
        .collect();
    Ok(lines.join("\n"))
}
