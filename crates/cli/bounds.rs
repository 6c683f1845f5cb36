//! The numeric flags' value parsers, and the one wording of their errors.
//!
//! Every numeric flag of every subcommand reads its value here (the flag takes values
//! that start with `-`, so `--playouts -1` reaches its parser rather than being taken
//! for a flag), and a refused value is reported by clap as
//! `error: invalid value '-1' for '--playouts <N>': must be at least 1`: the flag, the
//! value, then one of [`BadNumber`]'s phrases, `must be between LO and HI` or
//! `must be at least LO`. [`check`] words a value refused after parsing the same way.

use std::fmt;

/// Why a flag's value was refused: the text clap writes after
/// `invalid value 'V' for '--flag <V>': `.
#[derive(Clone, Debug, PartialEq)]
pub enum BadNumber {
    /// Not an integer, for a flag that takes one.
    NotWhole,
    /// Not a number.
    NotNumber,
    /// A number between `lo` and `hi` (both included) was expected.
    Between(String, String),
    /// A number of at least `lo` was expected (said of a value below `lo` where the
    /// flag's type is its only upper bound).
    AtLeast(String),
    /// Refused for a reason of its own (e.g. a handicap of one stone).
    Other(String),
}

impl fmt::Display for BadNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadNumber::NotWhole => f.write_str("not a whole number"),
            BadNumber::NotNumber => f.write_str("not a number"),
            BadNumber::Between(lo, hi) => write!(f, "must be between {lo} and {hi}"),
            BadNumber::AtLeast(lo) => write!(f, "must be at least {lo}"),
            BadNumber::Other(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for BadNumber {}

/// The integer types a flag can take.
pub trait WholeNumber: Copy + Send + Sync + 'static {
    /// The type's largest value.
    const MAX: i128;
    /// The value, known to fit.
    fn from_i128(n: i128) -> Self;
    /// The value as an `i128`.
    fn to_i128(self) -> i128;
}

macro_rules! whole_number {
    ($($t:ty),*) => {$(
        impl WholeNumber for $t {
            const MAX: i128 = <$t>::MAX as i128;
            fn from_i128(n: i128) -> Self {
                // Only called with `n` within the type's bounds.
                <$t>::try_from(n).unwrap_or(<$t>::MAX)
            }
            fn to_i128(self) -> i128 {
                self as i128
            }
        }
    )*};
}

whole_number!(u32, u64, usize);

/// The bounds of an integer flag, both included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Whole {
    lo: i128,
    /// `None`: the flag's type is the only upper bound.
    hi: Option<i128>,
}

impl Whole {
    /// From `lo` to `hi`.
    pub const fn between(lo: i128, hi: i128) -> Whole {
        Whole { lo, hi: Some(hi) }
    }

    /// From `lo` to the flag type's largest value.
    pub const fn at_least(lo: i128) -> Whole {
        Whole { lo, hi: None }
    }

    /// Reads an integer of type `T` within these bounds: an optional sign, then digits.
    pub fn parse<T: WholeNumber>(self, text: &str) -> Result<T, BadNumber> {
        let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(BadNumber::NotWhole);
        }
        // Too many digits for an i128 is out of any flag's bounds.
        let n = text.parse::<i128>().unwrap_or(if text.starts_with('-') {
            i128::MIN
        } else {
            i128::MAX
        });
        self.check::<T>(n)
    }

    /// `n` as a `T`, if it is within these bounds.
    pub fn check<T: WholeNumber>(self, n: i128) -> Result<T, BadNumber> {
        let hi = self.hi.unwrap_or(T::MAX).min(T::MAX);
        if (self.lo..=hi).contains(&n) {
            Ok(T::from_i128(n))
        } else if n < self.lo && hi == T::MAX {
            Err(BadNumber::AtLeast(self.lo.to_string()))
        } else {
            Err(BadNumber::Between(self.lo.to_string(), hi.to_string()))
        }
    }

    /// The clap value parser of a flag of type `T` within these bounds.
    pub fn parser<T: WholeNumber + Clone>(
        self,
    ) -> impl Fn(&str) -> Result<T, BadNumber> + Clone + Send + Sync + 'static {
        move |text: &str| self.parse::<T>(text)
    }
}

/// The bounds of a real-valued flag, both included (and finite).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Real {
    lo: f64,
    hi: f64,
}

impl Real {
    /// From `lo` to `hi`.
    pub const fn between(lo: f64, hi: f64) -> Real {
        Real { lo, hi }
    }

    /// Reads a number within these bounds.
    pub fn parse(self, text: &str) -> Result<f64, BadNumber> {
        let x: f64 = text.trim().parse().map_err(|_| BadNumber::NotNumber)?;
        self.check(x)
    }

    /// `x`, if it is within these bounds.
    pub fn check(self, x: f64) -> Result<f64, BadNumber> {
        if x.is_nan() {
            Err(BadNumber::NotNumber)
        } else if (self.lo..=self.hi).contains(&x) {
            Ok(x)
        } else {
            Err(BadNumber::Between(self.lo.to_string(), self.hi.to_string()))
        }
    }

    /// The clap value parser of a flag within these bounds.
    pub fn parser(self) -> impl Fn(&str) -> Result<f64, BadNumber> + Clone + Send + Sync + 'static {
        move |text: &str| self.parse(text)
    }
}

/// The error for `value` of `flag` refused after parsing, worded as clap words a
/// value its parser refused: `invalid value '0' for '--games': must be at least 1`.
pub fn refused(flag: &str, value: impl fmt::Display, why: impl fmt::Display) -> String {
    format!("invalid value '{value}' for '{flag}': {why}")
}

/// `value` of `flag` if `bounds` hold, else the error [`refused`] words.
pub fn check(flag: &str, value: f64, bounds: Real) -> Result<f64, String> {
    bounds.check(value).map_err(|why| refused(flag, value, why))
}

/// `value` of the integer `flag` if `bounds` hold, else the error [`refused`] words.
pub fn check_whole<T: WholeNumber + fmt::Display>(
    flag: &str,
    value: T,
    bounds: Whole,
) -> Result<T, String> {
    bounds
        .check::<T>(value.to_i128())
        .map_err(|why| refused(flag, value, why))
}

/// Seconds a move, a measurement or an engine may be given: a millisecond to a day.
pub const SECONDS: Real = Real::between(0.001, 86_400.0);

/// Komi, in points (the board crate's bounds).
pub const KOMI: Real = Real::between(-1000.0, 1000.0);

/// Board sizes.
pub const BOARD_SIZE: Whole = Whole::between(2, 25);

/// Search threads.
pub const THREADS: Whole = Whole::between(1, 1024);

/// Any value of the flag's type (a seed, a count of games to skip).
pub const ANY: Whole = Whole::at_least(0);

/// At least one (playouts, games, moves).
pub const POSITIVE: Whole = Whole::at_least(1);

/// The weight of `--playout-model`: `off`, or a number in these bounds.
pub const PLAYOUT_MODEL: Real = Real::between(0.0, tengen_engine::config::MAX_LOCAL_MODEL);

/// Reads `--playout-model`: `off` or a weight within [`PLAYOUT_MODEL`].
pub fn playout_model(text: &str) -> Result<tengen_engine::config::LocalModelSetting, BadNumber> {
    use tengen_engine::config::LocalModelSetting;
    if text.eq_ignore_ascii_case("off") {
        return Ok(LocalModelSetting(None));
    }
    match PLAYOUT_MODEL.parse(text) {
        Ok(w) => Ok(LocalModelSetting(Some(w))),
        Err(BadNumber::NotNumber) => Err(BadNumber::Other("not a number, nor off".into())),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_read_with_their_bounds_named() {
        let playouts = POSITIVE.parser::<u64>();
        assert_eq!(playouts("1000"), Ok(1000));
        assert_eq!(playouts("+7"), Ok(7));
        assert_eq!(playouts("18446744073709551615"), Ok(u64::MAX));
        for bad in ["-1", "0", "-99999999999999999999999999999999999999999"] {
            assert_eq!(
                playouts(bad).unwrap_err().to_string(),
                "must be at least 1",
                "{bad}"
            );
        }
        // Past the type's largest value, that value is named.
        for bad in [
            "18446744073709551616",
            "99999999999999999999999999999999999999999",
        ] {
            assert_eq!(
                playouts(bad).unwrap_err().to_string(),
                "must be between 1 and 18446744073709551615",
                "{bad}"
            );
        }
        for bad in ["", "-", "1.5", "1e3", "lots", " 1", "0x10"] {
            assert_eq!(playouts(bad), Err(BadNumber::NotWhole), "{bad:?}");
        }
        let threads = THREADS.parser::<usize>();
        assert_eq!(threads("1024"), Ok(1024));
        for bad in ["0", "-3", "1025"] {
            assert_eq!(
                threads(bad).unwrap_err().to_string(),
                "must be between 1 and 1024"
            );
        }
        assert_eq!(
            ANY.parser::<u32>()("-1").unwrap_err().to_string(),
            "must be at least 0"
        );
    }

    #[test]
    fn reals_are_read_with_their_bounds_named() {
        let seconds = SECONDS.parser();
        assert_eq!(seconds("2.5"), Ok(2.5));
        assert_eq!(seconds("86400"), Ok(86_400.0));
        for bad in ["0", "-1", "86401", "inf", "-inf", "1e400"] {
            assert_eq!(
                seconds(bad).unwrap_err().to_string(),
                "must be between 0.001 and 86400",
                "{bad}"
            );
        }
        for bad in ["NaN", "nan", "", "two", "1,5"] {
            assert_eq!(seconds(bad), Err(BadNumber::NotNumber), "{bad:?}");
        }
        assert_eq!(KOMI.parse("-7.5"), Ok(-7.5));
        assert_eq!(
            KOMI.parse("-1000.5").unwrap_err().to_string(),
            "must be between -1000 and 1000"
        );
    }

    #[test]
    fn the_playout_model_takes_off_or_a_weight() {
        assert_eq!(playout_model("off").unwrap().0, None);
        assert_eq!(playout_model("OFF").unwrap().0, None);
        assert_eq!(playout_model("0.5").unwrap().0, Some(0.5));
        assert_eq!(
            playout_model("-1").unwrap_err().to_string(),
            "must be between 0 and 1000"
        );
        assert_eq!(
            playout_model("on").unwrap_err().to_string(),
            "not a number, nor off"
        );
    }

    #[test]
    fn a_value_refused_after_parsing_is_worded_as_clap_words_it() {
        assert_eq!(
            check_whole::<u32>("--games", 0, POSITIVE).unwrap_err(),
            "invalid value '0' for '--games': must be at least 1"
        );
        assert_eq!(check_whole::<u32>("--games", 3, POSITIVE), Ok(3));
        assert_eq!(
            check("--komi", f64::INFINITY, KOMI).unwrap_err(),
            "invalid value 'inf' for '--komi': must be between -1000 and 1000"
        );
    }
}
