//! The numeric flags' value parsers, and the one wording of their errors.
//!
//! The engine's settings are flags made from the engine's table (`setting_flags.rs`);
//! the numbers (`Whole`, `Real`, `BadNumber`) are the engine's too. Every other numeric
//! flag of every subcommand reads its value here (the flag takes values
//! that start with `-`, so `--playouts -1` reaches its parser rather than being taken
//! for a flag), and a refused value is reported by clap as
//! `error: invalid value '-1' for '--playouts <N>': must be at least 1`: the flag, the
//! value, then one of [`BadNumber`]'s phrases, `must be between LO and HI` or
//! `must be at least LO`. [`check`] words a value refused after parsing the same way.

use std::fmt;

pub use tengen_engine::settings::{BadNumber, Real, Whole, WholeNumber};

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

/// Reads `--playout-model`: `off` or a weight, as the engine's setting
/// `playout_model` reads it (the same bounds and words).
pub fn playout_model(text: &str) -> Result<tengen_engine::config::LocalModelSetting, BadNumber> {
    use tengen_engine::config::LocalModelSetting;
    use tengen_engine::settings::{Value, find};
    match find("playout_model").map(|s| s.parse(text)) {
        Some(Ok(Value::Real(w))) => Ok(LocalModelSetting(Some(w))),
        Some(Ok(_)) => Ok(LocalModelSetting(None)),
        Some(Err(e)) => Err(e),
        None => Err(BadNumber::Other("no playout_model setting".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
