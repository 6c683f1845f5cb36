//! KataGo's rules, as its GTP command `kata-set-rules` and its analysis engine's
//! `rules` field give them: a name, or an object of its rule keys. One mapping for
//! every front end: a rule Tengen cannot play is refused with the reason, never
//! replaced by another silently. The front ends read the JSON and word the refusal.

use std::fmt;

use super::{HandicapCompensation, KoRule, Rules, Scoring};

/// The KataGo rules names Tengen plays, as a refusal lists them.
pub const KATAGO_RULES_NAMES: &str =
    "chinese, japanese, korean, aga, tromp-taylor, new-zealand, cgos";

/// The value of one key of a KataGo rules object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KataValue<'a> {
    /// A string.
    Text(&'a str),
    /// `true` or `false`.
    Flag(bool),
    /// Anything else, as written (for the refusal).
    Other(String),
}

impl fmt::Display for KataValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KataValue::Text(t) => f.write_str(t),
            KataValue::Flag(b) => write!(f, "{b}"),
            KataValue::Other(o) => f.write_str(o),
        }
    }
}

/// Why KataGo rules were refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KataRulesError {
    /// A name that is none of KataGo's.
    UnknownName(String),
    /// An object's key that is none of KataGo's rule keys.
    UnknownKey(String),
    /// `komi` in a rules object: as in KataGo, the komi is given on its own.
    Komi,
    /// A key's value that is not one of its values: the key and the value as written.
    BadValue(String, String),
    /// Rules Tengen cannot play, with the reason.
    Unsupported(String),
}

impl KataRulesError {
    /// Whether the rules are KataGo's but Tengen cannot play them (rather than a name,
    /// key or value KataGo does not know).
    pub fn is_unsupported(&self) -> bool {
        matches!(self, KataRulesError::Unsupported(_))
    }
}

/// `text` quoted, cut at 24 characters (a refusal does not echo a whole line).
fn quoted(text: &str) -> String {
    const MAX: usize = 24;
    let mut out: String = text.chars().take(MAX).collect();
    if text.chars().nth(MAX).is_some() {
        out.push('…');
    }
    format!("{out:?}")
}

impl fmt::Display for KataRulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KataRulesError::UnknownName(name) => write!(
                f,
                "unknown rules {} ({KATAGO_RULES_NAMES}, or a JSON object)",
                quoted(name)
            ),
            KataRulesError::UnknownKey(key) => write!(f, "unknown key {}", quoted(key)),
            KataRulesError::Komi => f.write_str("komi is not a rule here (as in KataGo): use komi"),
            KataRulesError::BadValue(key, value) => {
                write!(f, "invalid value {} for {key}", quoted(value))
            }
            KataRulesError::Unsupported(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for KataRulesError {}

fn unsupported(why: impl Into<String>) -> KataRulesError {
    KataRulesError::Unsupported(why.into())
}

impl HandicapCompensation {
    /// KataGo's `whiteHandicapBonus` word: `0`, `N` or `N-1` (any case).
    pub fn from_katago(word: &str) -> Option<HandicapCompensation> {
        match word.trim().to_ascii_uppercase().as_str() {
            "0" => Some(HandicapCompensation::None),
            "N" => Some(HandicapCompensation::PerStone),
            "N-1" => Some(HandicapCompensation::PerStoneAfterFirst),
            _ => None,
        }
    }
}

impl Rules {
    /// A KataGo rules name (case, `-`, `_` and spaces ignored, so KaTrain's
    /// `new zealand` reads), or one of Tengen's own names (`cgos`). The komi is
    /// Chinese rules' (the caller keeps or sets its own).
    pub fn from_katago_name(name: &str) -> Result<Rules, KataRulesError> {
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
                // As KataGo defines them: Tromp-Taylor's area count and suicide, with
                // situational superko (the side to move is part of the position) and a
                // friendly pass.
                let mut rules = Rules::new_zealand();
                rules.ko = KoRule::Situational;
                Ok(rules)
            }
            "cgos" => Ok(Rules::cgos()),
            "stonescoring" | "ancientarea" | "ancientterritory" => Err(unsupported(format!(
                "{} taxes every group (tax ALL): Tengen has no group tax",
                quoted(name)
            ))),
            "agabutton" => Err(unsupported(format!(
                "{} uses a button: Tengen has none",
                quoted(name)
            ))),
            _ => Err(KataRulesError::UnknownName(name.to_string())),
        }
    }

    /// A KataGo rules object, key by key (a key given twice keeps its last value). A
    /// key left out takes KataGo's default: its Tromp-Taylor value, `tax` following the
    /// scoring, `friendlyPassOk` false under area scoring. The komi is Chinese rules'.
    pub fn from_katago_object<'a>(
        fields: impl IntoIterator<Item = (&'a str, KataValue<'a>)>,
    ) -> Result<Rules, KataRulesError> {
        let mut keys = KataKeys::default();
        for (key, value) in fields {
            keys.set(key, &value)?;
        }
        keys.into_rules()
    }
}

/// The keys of a KataGo rules object, each read and checked on its own.
struct KataKeys {
    ko: KoRule,
    scoring: Scoring,
    /// `NONE`, `SEKI` or `ALL`; left out, it follows the scoring.
    tax: Option<String>,
    suicide: bool,
    bonus: HandicapCompensation,
    /// `whiteHandicapBonus` as written, for a refusal.
    bonus_text: String,
    friendly: Option<bool>,
}

impl Default for KataKeys {
    /// KataGo's values of the keys left out (its Tromp-Taylor rules).
    fn default() -> KataKeys {
        KataKeys {
            ko: KoRule::Positional,
            scoring: Scoring::Area,
            tax: None,
            suicide: true,
            bonus: HandicapCompensation::None,
            bonus_text: "0".to_string(),
            friendly: None,
        }
    }
}

impl KataKeys {
    /// Reads one key, refusing an unknown key, a bad value or a value Tengen has no
    /// rule for.
    fn set(&mut self, key: &str, value: &KataValue<'_>) -> Result<(), KataRulesError> {
        let bad = || KataRulesError::BadValue(key.to_string(), value.to_string());
        let word = || match value {
            KataValue::Text(t) => Ok(t.to_ascii_uppercase()),
            _ => Err(bad()),
        };
        let flag = || match value {
            KataValue::Flag(b) => Ok(*b),
            _ => Err(bad()),
        };
        match key {
            "ko" => {
                self.ko = match word()?.as_str() {
                    "SIMPLE" => KoRule::Simple,
                    "POSITIONAL" => KoRule::Positional,
                    "SITUATIONAL" => KoRule::Situational,
                    "SPIGHT" => return Err(unsupported("ko SPIGHT: Tengen has no Spight ko rule")),
                    _ => return Err(bad()),
                }
            }
            "scoring" | "score" => {
                self.scoring = match word()?.as_str() {
                    "AREA" => Scoring::Area,
                    "TERRITORY" => Scoring::Territory,
                    _ => return Err(bad()),
                }
            }
            "tax" => {
                let t = word()?;
                if !matches!(t.as_str(), "NONE" | "SEKI" | "ALL") {
                    return Err(bad());
                }
                self.tax = Some(t);
            }
            "suicide" => self.suicide = flag()?,
            "hasButton" => {
                if flag()? {
                    return Err(unsupported("hasButton true: Tengen has no button"));
                }
            }
            "whiteHandicapBonus" => {
                let w = word()?;
                self.bonus = HandicapCompensation::from_katago(&w).ok_or_else(bad)?;
                self.bonus_text = w;
            }
            "friendlyPassOk" => self.friendly = Some(flag()?),
            "komi" => return Err(KataRulesError::Komi),
            _ => return Err(KataRulesError::UnknownKey(key.to_string())),
        }
        Ok(())
    }

    /// Tengen's rules of these keys, refusing a combination Tengen cannot count.
    fn into_rules(self) -> Result<Rules, KataRulesError> {
        let territory = self.scoring == Scoring::Territory;
        match self.tax.as_deref() {
            Some("ALL") => return Err(unsupported("tax ALL: Tengen has no group tax")),
            Some("NONE") if territory => {
                return Err(unsupported(
                    "tax NONE with territory scoring: Tengen's territory count leaves eyes in \
                     seki neutral (tax SEKI)",
                ));
            }
            Some("SEKI") if !territory => {
                return Err(unsupported(
                    "tax SEKI with area scoring: Tengen's area count gives eyes in seki to \
                     their owner (tax NONE)",
                ));
            }
            _ => {}
        }
        if territory && self.bonus != HandicapCompensation::None {
            return Err(unsupported(format!(
                "whiteHandicapBonus {} with territory scoring: Tengen's territory count gives \
                 no handicap bonus (0)",
                self.bonus_text
            )));
        }
        if self.friendly == Some(false) && territory {
            return Err(unsupported(
                "friendlyPassOk false with territory scoring: Tengen's territory count removes \
                 dead stones",
            ));
        }
        let mut rules = Rules::chinese();
        rules.ko = self.ko;
        rules.scoring = self.scoring;
        rules.suicide = self.suicide;
        rules.handicap_compensation = self.bonus;
        // A count that removes dead stones (true) or counts the board as it stands
        // (false, KataGo's default for a rules object); territory scoring always
        // removes them.
        rules.friendly_pass = territory || self.friendly.unwrap_or(false);
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object<'a>(pairs: &[(&'a str, KataValue<'a>)]) -> Result<Rules, KataRulesError> {
        Rules::from_katago_object(pairs.iter().cloned())
    }

    #[test]
    fn names_as_katago_and_katrain_write_them() {
        assert_eq!(Rules::from_katago_name("Chinese-OGS"), Ok(Rules::chinese()));
        assert_eq!(Rules::from_katago_name("korean"), Ok(Rules::japanese()));
        assert_eq!(Rules::from_katago_name("BGA"), Ok(Rules::aga()));
        assert_eq!(
            Rules::from_katago_name("tromp_taylor"),
            Ok(Rules::tromp_taylor())
        );
        assert_eq!(Rules::from_katago_name("cgos"), Ok(Rules::cgos()));
        let nz = Rules::from_katago_name("new zealand").unwrap();
        assert!(nz.suicide && nz.friendly_pass);
        assert_eq!(nz.ko, KoRule::Situational);
        let tax = Rules::from_katago_name("stone-scoring").unwrap_err();
        assert!(tax.is_unsupported() && tax.to_string().contains("group tax"));
        let unknown = Rules::from_katago_name("fancy").unwrap_err();
        assert!(!unknown.is_unsupported());
        assert_eq!(
            unknown.to_string(),
            "unknown rules \"fancy\" (chinese, japanese, korean, aga, tromp-taylor, \
             new-zealand, cgos, or a JSON object)"
        );
        // Every name the refusal lists is one the mapping reads.
        for name in KATAGO_RULES_NAMES.split(", ") {
            assert!(Rules::from_katago_name(name).is_ok(), "{name}");
        }
    }

    #[test]
    fn objects_take_katago_defaults_and_refuse_what_tengen_cannot_count() {
        use KataValue::{Flag, Other, Text};
        let empty = object(&[]).unwrap();
        assert_eq!(empty, Rules::tromp_taylor());
        let simple = object(&[("ko", Text("simple")), ("suicide", Flag(false))]).unwrap();
        assert_eq!((simple.ko, simple.suicide), (KoRule::Simple, false));
        let t = object(&[("scoring", Text("TERRITORY")), ("tax", Text("SEKI"))]).unwrap();
        assert!(t.scoring == Scoring::Territory && t.friendly_pass);
        let bonus = object(&[("whiteHandicapBonus", Text("n-1"))]).unwrap();
        assert_eq!(
            bonus.handicap_compensation,
            HandicapCompensation::PerStoneAfterFirst
        );
        for (pairs, unsupported, why) in [
            (vec![("ko", Text("SPIGHT"))], true, "Spight"),
            (vec![("hasButton", Flag(true))], true, "button"),
            (vec![("tax", Text("ALL"))], true, "group tax"),
            (
                vec![
                    ("scoring", Text("TERRITORY")),
                    ("friendlyPassOk", Flag(false)),
                ],
                true,
                "friendlyPassOk false",
            ),
            (
                vec![
                    ("scoring", Text("TERRITORY")),
                    ("whiteHandicapBonus", Text("N")),
                ],
                true,
                "whiteHandicapBonus N with territory",
            ),
            (vec![("komi", Other("7.5".into()))], false, "use komi"),
            (
                vec![("colour", Text("blue"))],
                false,
                "unknown key \"colour\"",
            ),
            (
                vec![("suicide", Text("yes"))],
                false,
                "invalid value \"yes\" for suicide",
            ),
            (
                vec![("ko", Other("1".into()))],
                false,
                "invalid value \"1\" for ko",
            ),
        ] {
            let err = object(&pairs).unwrap_err();
            assert_eq!(err.is_unsupported(), unsupported, "{err}");
            assert!(err.to_string().contains(why), "{err}");
        }
    }
}
