//! The settings and rules commands of KataGo and Leela Zero, which Lizzie, LizzieYzy,
//! LizGoban and KaTrain-era clients send: `kata-list-params`, `kata-get-param`,
//! `kata-set-param`, `kata-get-rules`, `kata-set-rules` and `lz-setoption`.
//!
//! The settings are `tengen-set`'s table (`settings.rs`), under their own names and
//! under the KataGo and Leela Zero names whose meaning is Tengen's: a name or value
//! Tengen has no setting for is refused, naming it, and nothing changes.
//! The rules are the game's `Rules` in KataGo's JSON; a combination Tengen cannot play
//! is refused, naming what is missing, and nothing changes.

use serde_json::{Map, Value};
use tengen_board::{HandicapCompensation, KataRulesError, KataValue, KoRule, Rules, Scoring};
use tengen_engine::Config;

use super::settings;
use crate::args::Args;
use crate::error::{Answer, GtpError, quote};
use crate::session::{Ctx, Session};

/// KataGo's 'no limit' for `maxVisits` and `maxPlayouts` (2^50, the most its config
/// takes): Tengen's playout budget 0, and so is any budget at least this large.
const KATAGO_UNLIMITED: &str = "1125899906842624";

/// Leela Zero's largest `Visits` and `Playouts` (its options' maximum, which Lizzie
/// sends to lift the limit): Tengen's playout budget 0, and so is any larger one. As a
/// budget it would not lift the limit here but stop the clock's say (a budget plays
/// every move to `max_move_time`).
const LZ_UNLIMITED: i64 = 1_000_000_000;

/// A playout budget `value` as Tengen's setting takes it: 0 (none) from `unlimited` up.
fn budget(value: &str, unlimited: i64) -> &str {
    match crate::args::parse_int(value) {
        Some(n) if n >= unlimited => "0",
        _ => value,
    }
}

/// How a KataGo name's values are written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// As Tengen writes them.
    Same,
    /// A playout budget: Tengen's 0 (none) is KataGo's [`KATAGO_UNLIMITED`].
    Budget,
    /// A switch: `true`/`false` where Tengen writes `1`/`0`.
    Switch,
}

/// A KataGo parameter that is one of Tengen's settings.
struct Alias {
    name: &'static str,
    setting: &'static str,
    form: Form,
}

/// KataGo's names for Tengen's settings, in `kata-list-params` order.
const ALIASES: &[Alias] = &[
    Alias {
        name: "numSearchThreads",
        setting: "threads",
        form: Form::Same,
    },
    Alias {
        name: "maxVisits",
        setting: "playouts",
        form: Form::Budget,
    },
    Alias {
        name: "maxPlayouts",
        setting: "playouts",
        form: Form::Budget,
    },
    Alias {
        name: "maxTime",
        setting: "move_time",
        form: Form::Same,
    },
    Alias {
        name: "ponderingEnabled",
        setting: "ponder",
        form: Form::Switch,
    },
];

/// What a `kata-*-param` name refers to (any case): a KataGo name, or Tengen's own.
fn param(name: &str) -> Result<(&'static str, Form), GtpError> {
    if let Some(a) = ALIASES.iter().find(|a| a.name.eq_ignore_ascii_case(name)) {
        return Ok((a.setting, a.form));
    }
    if let Some(own) = settings::names().find(|n| n.eq_ignore_ascii_case(name)) {
        return Ok((own, Form::Same));
    }
    Err(GtpError::syntax(format!(
        "unknown parameter {} (kata-list-params lists them)",
        quote(name)
    )))
}

/// `kata-list-params`: KataGo's names Tengen has, then Tengen's own, space separated.
pub(crate) fn kata_list_params(_: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    a.end()?;
    let names: Vec<&str> = ALIASES
        .iter()
        .map(|a| a.name)
        .chain(settings::names())
        .collect();
    Ok(names.join(" "))
}

/// `kata-get-param NAME`.
pub(crate) fn kata_get_param(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let name = a.word("parameter")?;
    a.end()?;
    let (setting, form) = param(name)?;
    let value = settings::value(s.engine.config(), setting)?;
    Ok(match (form, value.as_str()) {
        (Form::Budget, "0") => KATAGO_UNLIMITED.to_string(),
        (Form::Switch, "1") => "true".to_string(),
        (Form::Switch, "0") => "false".to_string(),
        _ => value,
    })
}

/// `kata-set-param NAME VALUE`.
pub(crate) fn kata_set_param(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let name = a.word("parameter")?;
    let value = a.word("value")?;
    a.end()?;
    let (setting, form) = param(name)?;
    let value = match form {
        Form::Budget => budget(value, 1 << 50),
        _ => value,
    };
    settings::apply(s, setting, value, &label(name, setting))?;
    Ok(String::new())
}

/// A setting as an error names it: `maxVisits (playouts)`, or Tengen's own name.
fn label(name: &str, setting: &str) -> String {
    if name.eq_ignore_ascii_case(setting) {
        setting.to_string()
    } else {
        format!("{name} ({setting})")
    }
}

/// `lz-setoption name NAME value VALUE`: Leela Zero's options (the name may hold
/// spaces, any case).
pub(crate) fn lz_setoption(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let first = a.word("name")?;
    if !first.eq_ignore_ascii_case("name") {
        return Err(GtpError::syntax(format!(
            "expected name NAME value VALUE, got {}",
            quote(first)
        )));
    }
    let mut words = Vec::new();
    let mut has_value = false;
    while let Some(w) = a.peek() {
        a.word("name")?;
        if w.eq_ignore_ascii_case("value") {
            has_value = true;
            break;
        }
        words.push(w);
    }
    if words.is_empty() {
        return Err(GtpError::syntax("missing option name"));
    }
    let name = words.join(" ");
    let value = a.rest().join(" ");
    if !has_value || value.is_empty() {
        return Err(GtpError::syntax(format!(
            "missing value for {}",
            quote(&name)
        )));
    }
    let (setting, value) = match name.to_ascii_lowercase().as_str() {
        "threads" => ("threads", value),
        "visits" | "playouts" => ("playouts", budget(&value, LZ_UNLIMITED).to_string()),
        "pondering" => ("ponder", value),
        "resign percentage" => ("resign_threshold", resign_fraction(&name, &value)?),
        "maximum memory use (mib)" => {
            return Err(unsupported_option(
                "Maximum Memory Use (MiB)",
                "it counts the network and caches too; Tengen's memory setting is its trees \
                 alone (tengen-set memory MIB)",
            ));
        }
        "percentage of memory for cache" => {
            return Err(unsupported_option(
                "Percentage of memory for cache",
                "Tengen has no evaluation cache",
            ));
        }
        "lagbuffer" => {
            return Err(unsupported_option(
                "Lagbuffer",
                "Tengen keeps back its lag plus twice the worst overrun (tengen-set lag MS)",
            ));
        }
        _ => return Err(GtpError::syntax(format!("unknown option {}", quote(&name)))),
    };
    settings::apply(s, setting, &value, &label(&name, setting))?;
    Ok(String::new())
}

/// Leela Zero's `Resign Percentage` as Tengen's `resign_threshold`: a win rate in
/// percent, 0 never resigns, -1 is the engine's default.
fn resign_fraction(name: &str, value: &str) -> Result<String, GtpError> {
    let bad = || {
        GtpError::syntax(format!(
            "invalid value {} for {name} (resign_threshold): must be -1 (the default) or \
             between 0 and 100",
            quote(value)
        ))
    };
    let pct = crate::args::parse_float(value).ok_or_else(bad)?;
    if pct == -1.0 {
        Ok(Config::default().resign_threshold.to_string())
    } else if (0.0..=100.0).contains(&pct) {
        Ok((pct / 100.0).to_string())
    } else {
        Err(bad())
    }
}

/// Leela Zero's option `name` (its own spelling) has no exact Tengen setting.
fn unsupported_option(name: &'static str, why: &str) -> GtpError {
    GtpError::Other(format!("unsupported option {name:?}: {why}"))
}

/// `kata-get-rules`: the game's rules in KataGo's JSON (its keys, in its order; the
/// komi is not part of it, as in KataGo).
pub(crate) fn kata_get_rules(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    a.end()?;
    Ok(rules_json(s.game.rules()))
}

/// `rules` in KataGo's JSON. `friendlyPassOk` is the rules' friendly pass (false:
/// Tromp-Taylor and CGOS count the board as it stands, and Tengen captures dead stones
/// before it passes); Tengen has no button, leaves eyes in seki neutral under territory
/// scoring only, and gives a handicap bonus under area scoring only.
fn rules_json(rules: &Rules) -> String {
    let territory = rules.scoring == Scoring::Territory;
    let ko = match rules.ko {
        KoRule::Simple => "SIMPLE",
        KoRule::Positional => "POSITIONAL",
        KoRule::Situational => "SITUATIONAL",
    };
    let (scoring, tax) = if territory {
        ("TERRITORY", "SEKI")
    } else {
        ("AREA", "NONE")
    };
    let bonus = match rules.handicap_compensation {
        _ if territory => "0",
        HandicapCompensation::None => "0",
        HandicapCompensation::PerStone => "N",
        HandicapCompensation::PerStoneAfterFirst => "N-1",
    };
    format!(
        "{{\"friendlyPassOk\":{},\"hasButton\":false,\"ko\":\"{ko}\",\"scoring\":\"{scoring}\",\
         \"suicide\":{},\"tax\":\"{tax}\",\"whiteHandicapBonus\":\"{bonus}\"}}",
        rules.friendly_pass || territory,
        rules.suicide
    )
}

/// `kata-set-rules RULES`: a name (`chinese`, `japanese`, `korean`, `aga`, `bga`,
/// `tromp-taylor`, `new-zealand`, `chinese-ogs`, `chinese-kgs`, …) meaning what it means
/// to `kgs-rules`, or a JSON object of KataGo's rule keys. The game's rules and the
/// session's change, the komi stays (as in KataGo).
pub(crate) fn kata_set_rules(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    if a.is_empty() {
        return Err(GtpError::syntax("missing rules"));
    }
    let text = a.rest().join(" ");
    let rules = if text.starts_with('{') {
        from_json(&text)?
    } else {
        from_name(&text)?
    };
    super::board::set_rules_keeping_komi(s, rules)?;
    Ok(String::new())
}

/// A KataGo rules name as Tengen's rules (the board crate's mapping).
fn from_name(text: &str) -> Result<Rules, GtpError> {
    Rules::from_katago_name(text).map_err(|e| refusal(e, ""))
}

/// A refusal of KataGo rules: `unsupported rules: why` for rules Tengen cannot play,
/// a syntax error (after `context`) for what KataGo would not read either.
fn refusal(e: KataRulesError, context: &str) -> GtpError {
    if e.is_unsupported() {
        GtpError::Other(format!("unsupported rules: {e}"))
    } else {
        GtpError::syntax(format!("{context}{e}"))
    }
}

/// A KataGo rules object as Tengen's rules (the board crate's mapping; a key given
/// twice keeps its last value).
fn from_json(text: &str) -> Result<Rules, GtpError> {
    let fields =
        parse_object(text).map_err(|e| GtpError::syntax(format!("bad rules JSON: {e}")))?;
    Rules::from_katago_object(
        fields
            .iter()
            .map(|(key, value)| (key.as_str(), kata_value(value))),
    )
    .map_err(|e| refusal(e, "bad rules JSON: "))
}

/// A JSON value as a rules key's value.
fn kata_value(value: &Value) -> KataValue<'_> {
    match value {
        Value::String(s) => KataValue::Text(s),
        Value::Bool(b) => KataValue::Flag(*b),
        other => KataValue::Other(other.to_string()),
    }
}

/// A JSON object's fields (serde_json; a key given twice keeps its last value).
fn parse_object(text: &str) -> Result<Map<String, Value>, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_round_trip_through_json() {
        for rules in [
            Rules::chinese(),
            Rules::aga(),
            Rules::japanese(),
            Rules::tromp_taylor(),
        ] {
            let back = from_json(&rules_json(&rules)).unwrap();
            assert_eq!(back.with_komi(rules.komi()).unwrap(), rules);
        }
        let mut simple = Rules::chinese();
        simple.ko = KoRule::Simple;
        assert_eq!(from_json(&rules_json(&simple)).unwrap(), simple);
    }

    #[test]
    fn rules_json_is_refused_when_malformed_or_nested() {
        for bad in [
            "",
            "{",
            r#"{"a"}"#,
            r#"{"ko":}"#,
            r#"{"ko":"SIMPLE",}"#,
            r#"{"ko":{"b":1}}"#,
            r#"{"ko":"SIMPLE"} x"#,
            r#"{"suicide":"yes"}"#,
            r#"{"ko":1}"#,
        ] {
            assert!(from_json(bad).is_err(), "{bad}");
        }
        assert_eq!(
            from_json(r#" { "ko" : "simple", "scoring":"AREA","suicide":false } "#)
                .unwrap()
                .ko,
            KoRule::Simple
        );
    }
}
