//! A query's `overrideSettings`: KataGo config parameters for this query alone. The
//! ones Tengen's search has are applied; the others are named back in a warning.

use std::time::Duration;

use serde_json::{Map, Value};

use crate::options::{Perspective, SearchOptions};

/// The longest `maxTime` taken as a limit; KataGo configs write 1e20 for none.
const MAX_TIME_SECONDS: f64 = 1e9;

/// Applies the settings Tengen has to `options` and returns the names of the others
/// (ignored), or why a setting's value is refused.
pub fn apply_overrides(
    settings: &Map<String, Value>,
    options: &mut SearchOptions,
) -> Result<Vec<String>, String> {
    let mut ignored = Vec::new();
    for (key, value) in settings {
        match key.as_str() {
            "reportAnalysisWinratesAs" => {
                options.perspective = text(value)
                    .as_deref()
                    .and_then(Perspective::parse)
                    .ok_or_else(|| {
                        format!(
                            "reportAnalysisWinratesAs must be BLACK, WHITE or SIDETOMOVE, not {value}"
                        )
                    })?;
            }
            "maxVisits" | "maxPlayouts" => {
                options.max_visits = number(value)
                    .filter(|v| v.fract() == 0.0 && (1.0..=(1u64 << 50) as f64).contains(v))
                    .ok_or_else(|| {
                        format!("{key} must be an integer from 1 to 2^50, not {value}")
                    })? as u64;
            }
            "maxTime" => {
                let secs = number(value).filter(|s| *s > 0.0).ok_or_else(|| {
                    format!("maxTime must be a positive number of seconds, not {value}")
                })?;
                options.max_time =
                    (secs <= MAX_TIME_SECONDS).then(|| Duration::from_secs_f64(secs));
            }
            "analysisPVLen" => {
                options.pv_len = number(value)
                    .filter(|v| v.fract() == 0.0 && (1.0..=1000.0).contains(v))
                    .ok_or_else(|| {
                        format!("analysisPVLen must be an integer from 1 to 1000, not {value}")
                    })? as usize;
            }
            _ => ignored.push(key.clone()),
        }
    }
    Ok(ignored)
}

/// A string, or any other value's JSON text (KataGo reads every setting as text).
fn text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Null | Value::Array(_) | Value::Object(_) => None,
        other => Some(other.to_string()),
    }
}

/// A number, or a string holding one.
fn number(value: &Value) -> Option<f64> {
    let x = match value {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().parse().ok()?,
        _ => return None,
    };
    x.is_finite().then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn apply(v: Value) -> (Result<Vec<String>, String>, SearchOptions) {
        let mut o = SearchOptions::new(500, Perspective::SideToMove);
        let Value::Object(m) = v else { unreachable!() };
        (apply_overrides(&m, &mut o), o)
    }

    #[test]
    fn katrains_settings_apply_or_are_named() {
        let (r, o) = apply(json!({
            "reportAnalysisWinratesAs": "BLACK", "maxTime": 8.0, "wideRootNoise": 0.04
        }));
        assert_eq!(r, Ok(vec!["wideRootNoise".to_string()]));
        assert_eq!(o.perspective, Perspective::Black);
        assert_eq!(o.max_time, Some(Duration::from_secs(8)));
        let (r, o) = apply(json!({"maxVisits": "40", "maxTime": 1e20, "analysisPVLen": 3}));
        assert_eq!(r, Ok(vec![]));
        assert_eq!((o.max_visits, o.max_time, o.pv_len), (40, None, 3));
    }

    #[test]
    fn bad_values_are_refused_with_the_setting() {
        for bad in [
            json!({"reportAnalysisWinratesAs": "GREEN"}),
            json!({"maxVisits": 0}),
            json!({"maxVisits": 2.5}),
            json!({"maxTime": -1}),
            json!({"maxTime": "soon"}),
            json!({"analysisPVLen": [1]}),
        ] {
            let key = bad.as_object().unwrap().keys().next().unwrap().clone();
            let err = apply(bad).0.unwrap_err();
            assert!(err.starts_with(&key), "{err}");
        }
    }
}
