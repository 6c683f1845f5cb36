//! KataGo's rules, as a query's `rules` field gives them (a name or a JSON object of
//! its rule keys), mapped to Tengen's [`Rules`]. A rule Tengen cannot play is refused
//! with the reason, never replaced by another silently.

use serde_json::{Map, Value};
use tengen_board::{HandicapCompensation, KoRule, Rules, Scoring};

/// Reads the `rules` field: a KataGo rules name or a rules object.
pub fn parse_rules(value: &Value) -> Result<Rules, String> {
    match value {
        Value::String(name) => from_name(name),
        Value::Object(fields) => from_object(fields),
        _ => Err(
            "Must specify rules string, such as \"chinese\" or \"tromp-taylor\", or a \
                  JSON object with detailed rules parameters."
                .to_string(),
        ),
    }
}

/// Reads `whiteHandicapBonus` (`0`, `N` or `N-1`).
pub fn parse_handicap_bonus(text: &str) -> Result<HandicapCompensation, String> {
    match text.trim().to_ascii_uppercase().as_str() {
        "0" => Ok(HandicapCompensation::None),
        "N" => Ok(HandicapCompensation::PerStone),
        "N-1" => Ok(HandicapCompensation::PerStoneAfterFirst),
        _ => Err(format!(
            "Could not parse whiteHandicapBonus: {text} (expected 0, N or N-1)"
        )),
    }
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

/// A KataGo rules name: case, `-`, `_` and spaces do not matter (KaTrain sends
/// `new zealand`).
fn from_name(name: &str) -> Result<Rules, String> {
    let key: String = name
        .to_ascii_lowercase()
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .collect();
    match key.as_str() {
        "chinese" | "cn" | "chineseogs" | "chinesekgs" => Ok(Rules::chinese()),
        "japanese" | "jp" | "korean" | "kr" | "ko" => Ok(Rules::japanese()),
        "aga" | "bga" | "french" => Ok(Rules::aga()),
        "tromptaylor" | "tt" | "goe" | "ing" => Ok(Rules::tromp_taylor()),
        "newzealand" | "nz" => {
            // KataGo's New Zealand: area count and suicide, situational superko, a
            // friendly pass.
            let mut rules = Rules::new_zealand();
            rules.ko = KoRule::Situational;
            Ok(rules)
        }
        "stonescoring" | "ancientarea" | "ancientterritory" => Err(could_not(
            name,
            "it taxes every group (tax ALL): Tengen has no group tax",
        )),
        "agabutton" => Err(could_not(name, "it uses a button: Tengen has none")),
        _ => Err(could_not(
            name,
            "expected chinese, japanese, korean, aga, bga, tromp-taylor, new-zealand, or a JSON \
             object",
        )),
    }
}

/// A KataGo rules object. A key left out takes KataGo's default (Tromp-Taylor's value;
/// `tax` follows the scoring), as `kata-set-rules` reads it.
fn from_object(fields: &Map<String, Value>) -> Result<Rules, String> {
    let shown = Value::Object(fields.clone()).to_string();
    let fail = |why: &str| could_not(&shown, why);
    let word = |key: &str| -> Result<Option<String>, String> {
        match fields.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.to_ascii_uppercase())),
            Some(_) => Err(could_not(&shown, &format!("{key} must be a string"))),
        }
    };
    let flag = |key: &str| -> Result<Option<bool>, String> {
        match fields.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(could_not(&shown, &format!("{key} must be true or false"))),
        }
    };
    if let Some(key) = fields.keys().find(|k| {
        !matches!(
            k.as_str(),
            "ko" | "scoring"
                | "score"
                | "tax"
                | "suicide"
                | "hasButton"
                | "whiteHandicapBonus"
                | "friendlyPassOk"
        )
    }) {
        return Err(fail(&format!("unknown key {key}")));
    }
    let mut rules = Rules::tromp_taylor();
    if let Some(ko) = word("ko")? {
        rules.ko = match ko.as_str() {
            "SIMPLE" => KoRule::Simple,
            "POSITIONAL" => KoRule::Positional,
            "SITUATIONAL" => KoRule::Situational,
            "SPIGHT" => return Err(fail("ko SPIGHT: Tengen has no Spight ko rule")),
            _ => return Err(fail(&format!("unknown ko {ko}"))),
        };
    }
    if let Some(s) = word("scoring")?.or(word("score")?) {
        rules.scoring = match s.as_str() {
            "AREA" => Scoring::Area,
            "TERRITORY" => Scoring::Territory,
            _ => return Err(fail(&format!("unknown scoring {s}"))),
        };
    }
    let territory = rules.scoring == Scoring::Territory;
    match word("tax")?.as_deref() {
        None => {}
        Some("ALL") => return Err(fail("tax ALL: Tengen has no group tax")),
        Some("NONE") if territory => {
            return Err(fail(
                "tax NONE with territory scoring: Tengen's territory count leaves eyes in seki \
                 neutral (tax SEKI)",
            ));
        }
        Some("SEKI") if !territory => {
            return Err(fail(
                "tax SEKI with area scoring: Tengen's area count gives eyes in seki to their \
                 owner (tax NONE)",
            ));
        }
        Some("NONE" | "SEKI") => {}
        Some(other) => return Err(fail(&format!("unknown tax {other}"))),
    }
    if let Some(s) = flag("suicide")? {
        rules.suicide = s;
    }
    if flag("hasButton")? == Some(true) {
        return Err(fail("hasButton true: Tengen has no button"));
    }
    let bonus = match word("whiteHandicapBonus")? {
        Some(text) => parse_handicap_bonus(&text).map_err(|e| fail(&e))?,
        None => HandicapCompensation::None,
    };
    // KataGo's friendly pass: a count that removes dead stones (true) or counts the
    // board as it stands (false, KataGo's default for a rules object). Tengen's
    // territory count always removes them.
    let friendly = flag("friendlyPassOk")?;
    if friendly == Some(false) && territory {
        return Err(fail(
            "friendlyPassOk false with territory scoring: Tengen's territory count removes \
             dead stones",
        ));
    }
    rules.friendly_pass = territory || friendly.unwrap_or(false);
    if territory {
        // KataGo's default komi under territory scoring.
        rules.set_komi(6.5).map_err(|e| e.to_string())?;
    }
    with_handicap_bonus(rules, bonus).map_err(|e| fail(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
        assert_eq!(t.komi(), 6.5);
        for (bad, why) in [
            (json!({"ko":"SPIGHT"}), "Spight"),
            (json!({"hasButton":true}), "button"),
            (json!({"tax":"ALL"}), "group tax"),
            (
                json!({"scoring":"TERRITORY","friendlyPassOk":false}),
                "friendlyPassOk false",
            ),
            (json!({"komi":7.5}), "unknown key komi"),
            (json!({"suicide":"yes"}), "true or false"),
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
