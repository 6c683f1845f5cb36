//! Numbers with bounds, read from text, and the one wording of a refused value.
//!
//! Every numeric setting ([`super::SETTINGS`]) and every numeric flag of the command
//! line reads its value here. A refused value is said by one of [`BadNumber`]'s
//! phrases: `not a whole number`, `not a number`, `must be between LO and HI`, or
//! `must be at least LO` where the type is the only upper bound.

use std::fmt;

/// Why a value was refused: the text after `invalid value 'V' for '--flag <V>': ` on
/// the command line, and after `invalid value "V" for NAME: ` over GTP.
#[derive(Clone, Debug, PartialEq)]
pub enum BadNumber {
    /// Not an integer, for a value that must be one.
    NotWhole,
    /// Not a number.
    NotNumber,
    /// A number between `lo` and `hi` (both included) was expected.
    Between(String, String),
    /// A number of at least `lo` was expected (said of a value below `lo` where the
    /// value's type is its only upper bound).
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

/// The integer types a bounded value can have.
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

/// The bounds of an integer value, both included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Whole {
    lo: i128,
    /// `None`: the value's type is the only upper bound.
    hi: Option<i128>,
}

impl Whole {
    /// From `lo` to `hi`.
    pub const fn between(lo: i128, hi: i128) -> Whole {
        Whole { lo, hi: Some(hi) }
    }

    /// From `lo` to the value type's largest value.
    pub const fn at_least(lo: i128) -> Whole {
        Whole { lo, hi: None }
    }

    /// Reads an integer of type `T` within these bounds: an optional sign, then digits,
    /// or a decimal number whose value is whole (`1e9`, `2.5E3`, `1.0`).
    pub fn parse<T: WholeNumber>(self, text: &str) -> Result<T, BadNumber> {
        self.check::<T>(whole_value(text)?)
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

    /// A parser of values of type `T` within these bounds (a clap value parser).
    pub fn parser<T: WholeNumber + Clone>(
        self,
    ) -> impl Fn(&str) -> Result<T, BadNumber> + Clone + Send + Sync + 'static {
        move |text: &str| self.parse::<T>(text)
    }
}

/// The integer `text` writes: an optional sign, then digits with an optional
/// fraction and exponent (`12`, `-3`, `1e9`, `2.5E3`, `1.50`), exact however many digits
/// it has. A value past an `i128` is out of any value's bounds: it comes back as
/// `i128::MIN` or `i128::MAX`. Refused as not a whole number: a value with a
/// fraction (`1.5`, `1e-3`), and anything else (`0x10`, ` 1`, `lots`).
fn whole_value(text: &str) -> Result<i128, BadNumber> {
    let negative = text.starts_with('-');
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => {
            let digits = e.strip_prefix(['-', '+']).unwrap_or(e);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(BadNumber::NotWhole);
            }
            // An exponent past any value's digits: saturated, still exact in effect.
            (
                m,
                e.parse::<i64>()
                    .unwrap_or(if e.starts_with('-') { -1000 } else { 1000 }),
            )
        }
        None => (unsigned, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !all_digits(whole) || !all_digits(fraction) {
        return Err(BadNumber::NotWhole);
    }
    // The value is DIGITS × 10^scale.
    let digits = format!("{whole}{fraction}");
    let digits = digits.trim_start_matches('0');
    let scale = exponent.clamp(-1000, 1000) - fraction.len() as i64;
    let digits = if scale < 0 {
        let cut = usize::try_from(-scale).unwrap_or(usize::MAX);
        let kept = digits.len().saturating_sub(cut);
        if !digits[kept..].bytes().all(|b| b == b'0') {
            return Err(BadNumber::NotWhole);
        }
        digits[..kept].to_string()
    } else if digits.is_empty() {
        String::new()
    } else {
        format!(
            "{digits}{}",
            "0".repeat(usize::try_from(scale).unwrap_or(0).min(1000))
        )
    };
    if digits.is_empty() {
        return Ok(0);
    }
    Ok(match digits.parse::<i128>() {
        Ok(n) if negative => -n,
        Ok(n) => n,
        Err(_) if negative => i128::MIN,
        Err(_) => i128::MAX,
    })
}

/// `LO to HI`, or `at least LO`.
impl fmt::Display for Whole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.hi {
            Some(hi) => write!(f, "{} to {hi}", self.lo),
            None => write!(f, "at least {}", self.lo),
        }
    }
}

/// The bounds of a real value, both included (and finite).
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

    /// A parser of values within these bounds (a clap value parser).
    pub fn parser(self) -> impl Fn(&str) -> Result<f64, BadNumber> + Clone + Send + Sync + 'static {
        move |text: &str| self.parse(text)
    }
}

/// `LO to HI`.
impl fmt::Display for Real {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} to {}", self.lo, self.hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_read_with_their_bounds_named() {
        let playouts = Whole::at_least(1).parser::<u64>();
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
        for bad in [
            "", "-", "1.5", "1e-3", "1.5e0", "lots", " 1", "0x10", "e5", "1e", "1e+", ".", "1..0",
            "1e3.0", "--1",
        ] {
            assert_eq!(playouts(bad), Err(BadNumber::NotWhole), "{bad:?}");
        }
        // A whole number in scientific or decimal notation is read exactly.
        for (text, n) in [
            ("1e9", 1_000_000_000),
            ("1E9", 1_000_000_000),
            ("+2.5e3", 2500),
            ("1.0", 1),
            ("1.", 1),
            (".5e1", 5),
            ("1500e-2", 15),
            ("1.8446744073709551615e19", u64::MAX),
        ] {
            assert_eq!(playouts(text), Ok(n), "{text:?}");
        }
        assert_eq!(
            playouts("1e20").unwrap_err().to_string(),
            "must be between 1 and 18446744073709551615"
        );
        assert_eq!(
            playouts("1e999999999999").unwrap_err().to_string(),
            "must be between 1 and 18446744073709551615"
        );
        assert_eq!(
            playouts("-1e3").unwrap_err().to_string(),
            "must be at least 1"
        );
        assert_eq!(Whole::at_least(0).parse::<u64>("0e5"), Ok(0));
        assert_eq!(Whole::at_least(0).parse::<u64>("-0.0"), Ok(0));
        let threads = Whole::between(1, 1024).parser::<usize>();
        assert_eq!(threads("1024"), Ok(1024));
        for bad in ["0", "-3", "1025"] {
            assert_eq!(
                threads(bad).unwrap_err().to_string(),
                "must be between 1 and 1024"
            );
        }
        assert_eq!(
            Whole::at_least(0).parser::<u32>()("-1")
                .unwrap_err()
                .to_string(),
            "must be at least 0"
        );
    }

    #[test]
    fn reals_are_read_with_their_bounds_named() {
        let seconds = Real::between(0.001, 86_400.0).parser();
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
        assert_eq!(Real::between(-1000.0, 1000.0).parse("-7.5"), Ok(-7.5));
        assert_eq!(
            Real::between(-1000.0, 1000.0)
                .parse("-1000.5")
                .unwrap_err()
                .to_string(),
            "must be between -1000 and 1000"
        );
    }
}
