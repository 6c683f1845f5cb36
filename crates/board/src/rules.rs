//! Rule sets: komi, the ko rule, suicide, the scoring method and the handicap
//! compensation; KataGo's names and rules objects for them ([`Rules::from_katago_name`],
//! [`Rules::from_katago_object`]).

use std::fmt;
use std::str::FromStr;

mod katago;

pub use katago::{KATAGO_RULES_NAMES, KataRulesError, KataValue};

/// How repetition is forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KoRule {
    /// Only the immediate recapture of a single-stone ko is forbidden.
    Simple,
    /// No move may recreate an earlier whole-board position (the default).
    Positional,
    /// No move may recreate an earlier position with the same player to move.
    Situational,
}

/// How the end of the game is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Chinese area counting: stones plus surrounded empty points.
    Area,
    /// Japanese/Korean territory counting: surrounded empty points plus prisoners,
    /// seki eyes neutral.
    Territory,
}

/// A rule set. [`Rules::chinese`] is the default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rules {
    /// Points given to White; finite (see [`Rules::set_komi`]).
    komi: f64,
    /// The repetition rule.
    pub ko: KoRule,
    /// Whether a move may remove its own group (New Zealand, Tromp-Taylor).
    pub suicide: bool,
    /// The counting method.
    pub scoring: Scoring,
    /// What White receives for Black's handicap stones under area scoring: area
    /// counting counts each handicap stone for Black, territory counting does not, so
    /// the compensation makes the two counts agree. Territory scoring never
    /// compensates. See [`Rules::effective_komi`].
    pub handicap_compensation: HandicapCompensation,
    /// Whether the count removes the stones both players agree are dead, so that
    /// passing with dead stones on the board is safe (KataGo's `friendlyPassOk`). When
    /// false, the opponent's count (Tromp-Taylor's, CGOS's) takes the board as it stands,
    /// every stone alive, so Tengen captures dead stones before it passes, and its own
    /// `final_score` after a pass counts the board that way too.
    pub friendly_pass: bool,
}

/// White's points for `N` handicap stones under area scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandicapCompensation {
    /// None (Tromp-Taylor counts the board and nothing else, as KataGo applies it).
    None,
    /// `N` points: the Chinese rules as KGS, GNU Go and KataGo apply them.
    PerStone,
    /// `N − 1` points: the AGA rules (Black's first stone stands for White's
    /// first move, as in an even game).
    PerStoneAfterFirst,
}

/// Komi must be a finite number of at most 1000 points either way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KomiError;

impl fmt::Display for KomiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("komi must be a finite number between -1000 and 1000")
    }
}

impl std::error::Error for KomiError {}

impl Default for Rules {
    fn default() -> Rules {
        Rules::chinese()
    }
}

impl Rules {
    /// Chinese rules: area scoring, komi 7.5, positional superko, no suicide; White
    /// receives one point per handicap stone.
    pub const fn chinese() -> Rules {
        Rules {
            komi: 7.5,
            ko: KoRule::Positional,
            suicide: false,
            scoring: Scoring::Area,
            handicap_compensation: HandicapCompensation::PerStone,
            friendly_pass: true,
        }
    }

    /// AGA rules: area scoring, komi 7.5, situational superko, no suicide; White
    /// receives one point per handicap stone after the first.
    pub const fn aga() -> Rules {
        Rules {
            komi: 7.5,
            ko: KoRule::Situational,
            suicide: false,
            scoring: Scoring::Area,
            handicap_compensation: HandicapCompensation::PerStoneAfterFirst,
            friendly_pass: true,
        }
    }

    /// Japanese/Korean rules: territory scoring, komi 6.5, no suicide. Repetition is
    /// still refused by positional superko (as KGS does), so games always end.
    pub const fn japanese() -> Rules {
        Rules {
            komi: 6.5,
            ko: KoRule::Positional,
            suicide: false,
            scoring: Scoring::Territory,
            handicap_compensation: HandicapCompensation::None,
            friendly_pass: true,
        }
    }

    /// Tromp-Taylor: area scoring of the board as it stands (no dead stones removed), positional superko, suicide allowed; no handicap compensation
    /// (these rules count the board and nothing else, as KataGo applies them).
    pub const fn tromp_taylor() -> Rules {
        Rules {
            komi: 7.5,
            ko: KoRule::Positional,
            suicide: true,
            scoring: Scoring::Area,
            handicap_compensation: HandicapCompensation::None,
            friendly_pass: false,
        }
    }

    /// New Zealand: Tromp-Taylor's area count and suicide, but dead stones are removed
    /// by agreement (a friendly pass), as KataGo and KGS apply them.
    pub const fn new_zealand() -> Rules {
        Rules {
            friendly_pass: true,
            ..Rules::tromp_taylor()
        }
    }

    /// The rules of the Computer Go Server (CGOS): Tromp-Taylor's count of the board as
    /// it stands, positional superko, but suicide is an illegal move.
    pub const fn cgos() -> Rules {
        Rules {
            suicide: false,
            ..Rules::tromp_taylor()
        }
    }

    /// The komi.
    pub fn komi(&self) -> f64 {
        self.komi
    }

    /// The points White receives for `handicap` stones under area scoring, as
    /// [`Rules::handicap_compensation`] says; none under territory scoring.
    pub fn handicap_bonus(&self, handicap: u32) -> f64 {
        if self.scoring == Scoring::Territory {
            return 0.0;
        }
        match self.handicap_compensation {
            HandicapCompensation::None => 0.0,
            HandicapCompensation::PerStone => f64::from(handicap),
            HandicapCompensation::PerStoneAfterFirst => f64::from(handicap.saturating_sub(1)),
        }
    }

    /// The name an SGF `RU` property gives these rules, one [`Rules::from_str`] reads
    /// back: `Tromp-Taylor` or `CGOS` for an area count of the board as it stands
    /// (with or without suicide), `NZ` when suicide is allowed, `Japanese` for territory
    /// scoring, `AGA` for the AGA compensation, else `Chinese`.
    pub fn sgf_name(&self) -> &'static str {
        if !self.friendly_pass && self.scoring == Scoring::Area {
            if self.suicide { "Tromp-Taylor" } else { "CGOS" }
        } else if self.suicide {
            "NZ"
        } else if self.scoring == Scoring::Territory {
            "Japanese"
        } else if self.handicap_compensation == HandicapCompensation::PerStoneAfterFirst {
            "AGA"
        } else {
            "Chinese"
        }
    }

    /// The komi plus [`Rules::handicap_bonus`]: what White's count receives in a game
    /// with `handicap` stones (see [`crate::Game::handicap`] for how they are known).
    pub fn effective_komi(&self, handicap: u32) -> f64 {
        self.komi + self.handicap_bonus(handicap)
    }

    /// Sets the komi; a non-finite or absurd value is refused and nothing changes.
    pub fn set_komi(&mut self, komi: f64) -> Result<(), KomiError> {
        if komi.is_finite() && komi.abs() <= 1000.0 {
            self.komi = komi;
            Ok(())
        } else {
            Err(KomiError)
        }
    }

    /// The same rules with another komi.
    pub fn with_komi(mut self, komi: f64) -> Result<Rules, KomiError> {
        self.set_komi(komi)?;
        Ok(self)
    }
}

/// The rule sets' names that [`Rules`]' `FromStr` reads, as an error lists them.
pub const RULES_NAMES: &str = "chinese, japanese, korean, aga, tromp-taylor, new_zealand or cgos";

/// The name is not a known rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRules(pub String);

impl fmt::Display for UnknownRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown rules {:?} (expected {RULES_NAMES})", self.0)
    }
}

impl std::error::Error for UnknownRules {}

impl FromStr for Rules {
    type Err = UnknownRules;

    /// `chinese`, `japanese`, `korean`, `tromp-taylor`/`tromp_taylor`, `new_zealand`/`nz`,
    /// `aga`, `cgos`, any case.
    fn from_str(s: &str) -> Result<Rules, UnknownRules> {
        match s.to_ascii_lowercase().replace('-', "_").as_str() {
            "chinese" | "cn" => Ok(Rules::chinese()),
            "aga" => Ok(Rules::aga()),
            "japanese" | "jp" | "korean" | "kr" => Ok(Rules::japanese()),
            "tromp_taylor" | "tt" => Ok(Rules::tromp_taylor()),
            "new_zealand" | "nz" => Ok(Rules::new_zealand()),
            "cgos" => Ok(Rules::cgos()),
            _ => Err(UnknownRules(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_komi() {
        assert_eq!("Chinese".parse::<Rules>().unwrap(), Rules::chinese());
        assert_eq!(
            "korean".parse::<Rules>().unwrap().scoring,
            Scoring::Territory
        );
        assert!("tromp-taylor".parse::<Rules>().unwrap().suicide);
        let cgos = "CGOS".parse::<Rules>().unwrap();
        assert!(!cgos.suicide && !cgos.friendly_pass);
        assert_eq!(cgos.scoring, Scoring::Area);
        assert!(Rules::chinese().friendly_pass && !Rules::tromp_taylor().friendly_pass);
        let nz = "new_zealand".parse::<Rules>().unwrap();
        assert!(nz.suicide && nz.friendly_pass);
        assert!("bogus".parse::<Rules>().is_err());
        let mut r = Rules::chinese();
        assert!(r.set_komi(f64::NAN).is_err());
        assert!(r.set_komi(f64::INFINITY).is_err());
        assert_eq!(r.komi(), 7.5);
        r.set_komi(-3.0).unwrap();
        assert_eq!(r.komi(), -3.0);
    }

    #[test]
    fn handicap_compensation_only_under_area_scoring() {
        let chinese = Rules::chinese().with_komi(0.5).unwrap();
        assert_eq!(chinese.effective_komi(0), 0.5);
        assert_eq!(chinese.effective_komi(2), 2.5);
        assert_eq!(chinese.komi(), 0.5, "the komi itself is unchanged");
        let japanese = Rules::japanese().with_komi(0.5).unwrap();
        assert_eq!(japanese.effective_komi(2), 0.5);
        let mut territory = chinese;
        territory.scoring = Scoring::Territory;
        assert_eq!(
            territory.effective_komi(2),
            0.5,
            "territory never compensates"
        );
        let mut off = chinese;
        off.handicap_compensation = HandicapCompensation::None;
        assert_eq!(off.effective_komi(9), 0.5);
        assert_eq!(Rules::tromp_taylor().effective_komi(4), 7.5);
    }

    #[test]
    fn aga_gives_one_point_per_handicap_stone_after_the_first() {
        let aga = "AGA".parse::<Rules>().unwrap().with_komi(0.5).unwrap();
        assert_eq!(aga.effective_komi(0), 0.5);
        assert_eq!(aga.effective_komi(2), 1.5);
        assert_eq!(aga.effective_komi(9), 8.5);
        assert_eq!(aga.ko, KoRule::Situational);
        assert_eq!(aga.sgf_name(), "AGA");
        assert_eq!(Rules::chinese().sgf_name(), "Chinese");
        assert_eq!(Rules::japanese().sgf_name(), "Japanese");
        assert_eq!(Rules::tromp_taylor().sgf_name(), "Tromp-Taylor");
        assert_eq!(Rules::new_zealand().sgf_name(), "NZ");
        assert_eq!(Rules::cgos().sgf_name(), "CGOS");
        for rules in [Rules::tromp_taylor(), Rules::new_zealand(), Rules::cgos()] {
            assert_eq!(rules.sgf_name().parse::<Rules>(), Ok(rules));
        }
    }
}
