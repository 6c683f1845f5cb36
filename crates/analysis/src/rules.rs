//! KataGo's rules, as a query's `rules` field gives them (a name or a JSON object of
//! its rule keys), mapped to Tengen's [`Rules`]. A rule Tengen cannot play is refused
//! with the reason, never replaced by another silently.

use serde_json::Value;
use tengen_board::{
    HandicapCompensation, KATAGO_RULES_NAMES, KataRulesError, KataValue, Rules, Scoring,
};

/// Reads the `rules` field: a KataGo rules name or a rules object (the board crate's
/// mapping, shared with `kata-set-rules`).
pub fn parse_rules(value: &Value) -> Result<Rules, String> {
    match value {
        Value::String(name) => Rules::from_katago_name(name).map_err(|e| match e {
            KataRulesError::UnknownName(_) => could_not(
                name,
                &format!("expected {KATAGO_RULES_NAMES}, or a JSON object"),
            ),
            other => could_not(name, &other.to_string()),
        }),
        Value::Object(fields) => Rules::from_katago_object(
            fields
                .iter()
                .map(|(key, value)| (key.as_str(), kata_value(value))),
        )
        .map_err(|e| could_not(&value.to_string(), &e.to_string())),
        _ => Err(
            "Must specify rules string, such as \"chinese\" or \"tromp-taylor\", or a \
                  JSON object with detailed rules parameters."
                .to_string(),
        ),
    }
}

/// A JSON value as a rules key's value.
fn kata_value(value: &Value) -> KataValue<'_> {
    match value {
        Value::String(s) => KataValue::Text(s),
        Value::Bool(b) => KataValue::Flag(*b),
        other => KataValue::Other(other.to_string()),
    }
}

/// Reads `whiteHandicapBonus` (`0`, `N` or `N-1`).
pub fn parse_handicap_bonus(text: &str) -> Result<HandicapCompensation, String> {
    HandicapCompensation::from_katago(text)
        .ok_or_else(|| format!("Could not parse whiteHandicapBonus: {text} (expected 0, N or N-1)"))
}

/// Sets the handicap compensation, refusing a bonus under territory scoring (Tengen's
/// territory count gives none).
pub fn with_handicap_bonus(mut rules: Rules, bonus: HandicapCompensation) -> Result<Rules, String> {
    if rules.scoring == Scoring::Territory && bonus != HandicapCompensation::None {
        return Err(
            "Tengen's territory count gives no handicap bonus: use whiteHandicapBonus 0 with \
             territory scoring"
                .to_string(),
        );
    }
    rules.handicap_compensation = bonus;
    Ok(rules)
}

fn could_not(what: &str, why: &str) -> String {
    format!("Could not parse rules: {what} ({why})")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tengen_board::KoRule;

    #[test]
    fn katrain_names_map_to_tengen_rules() {
        assert_eq!(parse_rules(&json!("japanese")), Ok(Rules::japanese()));
        assert_eq!(parse_rules(&json!("Chinese")), Ok(Rules::chinese()));
        assert_eq!(parse_rules(&json!("aga")), Ok(Rules::aga()));
        assert_eq!(
            parse_rules(&json!("tromp-taylor")),
            Ok(Rules::tromp_taylor())
        );
        let nz = parse_rules(&json!("new zealand")).unwrap();
        assert!(nz.suicide);
        assert_eq!(nz.ko, KoRule::Situational);
        let err = parse_rules(&json!("stone_scoring")).unwrap_err();
        assert!(err.contains("group tax"), "{err}");
        assert!(
            parse_rules(&json!("bogus"))
                .unwrap_err()
                .starts_with("Could not parse rules")
        );
        assert!(parse_rules(&json!(7)).is_err());
    }

    #[test]
    fn rules_objects_read_or_are_refused_with_a_reason() {
        let r = parse_rules(&json!({"ko":"SIMPLE","scoring":"AREA","suicide":false,"tax":"NONE"}))
            .unwrap();
        assert_eq!(r.ko, KoRule::Simple);
        assert!(!r.suicide);
        let board = parse_rules(&json!({"suicide":false,"friendlyPassOk":false})).unwrap();
        assert!(!board.friendly_pass && !board.suicide);
        let friendly = parse_rules(&json!({"friendlyPassOk":true})).unwrap();
        assert!(friendly.friendly_pass);
        let t = parse_rules(&json!({"scoring":"TERRITORY","tax":"SEKI"})).unwrap();
        assert_eq!(t.scoring, Scoring::Territory);
        for (bad, why) in [
            (json!({"ko":"SPIGHT"}), "Spight"),
            (json!({"hasButton":true}), "button"),
            (json!({"tax":"ALL"}), "group tax"),
            (
                json!({"scoring":"TERRITORY","friendlyPassOk":false}),
                "friendlyPassOk false",
            ),
            (json!({"komi":7.5}), "komi is not a rule"),
            (
                json!({"suicide":"yes"}),
                "invalid value \"yes\" for suicide",
            ),
            (
                json!({"scoring":"TERRITORY","whiteHandicapBonus":"N"}),
                "handicap bonus",
            ),
        ] {
            let err = parse_rules(&bad).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn handicap_bonus_words() {
        assert_eq!(
            parse_handicap_bonus("N-1"),
            Ok(HandicapCompensation::PerStoneAfterFirst)
        );
        assert_eq!(parse_handicap_bonus("0"), Ok(HandicapCompensation::None));
        assert!(parse_handicap_bonus("2").is_err());
    }
}
