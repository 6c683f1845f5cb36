//! Typed decoding of a command's arguments. Every accessor returns
//! `Result<_, GtpError>` with a `syntax error` detail; handlers never split strings.

use tengen_board::{BoardSize, Color, Move, ParseVertexError, Point};

use crate::error::{GtpError, quote};

/// The arguments of one command, consumed left to right.
#[derive(Clone, Debug)]
pub struct Args<'a> {
    tokens: Vec<&'a str>,
    pos: usize,
}

impl<'a> Args<'a> {
    /// Wraps the tokens after the command name.
    pub fn new(tokens: Vec<&'a str>) -> Args<'a> {
        Args { tokens, pos: 0 }
    }

    /// The next token, unread.
    pub fn peek(&self) -> Option<&'a str> {
        self.tokens.get(self.pos).copied()
    }

    /// Whether every argument has been read.
    pub fn is_empty(&self) -> bool {
        self.pos >= self.tokens.len()
    }

    /// How many arguments are left.
    pub fn remaining(&self) -> usize {
        self.tokens.len().saturating_sub(self.pos)
    }

    /// The next token as it is; `what` names it in the error.
    pub fn word(&mut self, what: &str) -> Result<&'a str, GtpError> {
        let t = self
            .peek()
            .ok_or_else(|| GtpError::syntax(format!("missing {what}")))?;
        self.pos += 1;
        Ok(t)
    }

    /// The rest of the tokens.
    pub fn rest(&mut self) -> Vec<&'a str> {
        let r = self.tokens[self.pos.min(self.tokens.len())..].to_vec();
        self.pos = self.tokens.len();
        r
    }

    /// Fails if arguments are left over.
    pub fn end(&self) -> Result<(), GtpError> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(GtpError::syntax(format!(
                "unexpected argument {}",
                quote(t)
            ))),
        }
    }

    /// A colour: `b`, `w`, `black`, `white`, any case.
    pub fn color(&mut self) -> Result<Color, GtpError> {
        let t = self.word("color")?;
        t.parse()
            .map_err(|_| GtpError::syntax(format!("invalid color {}", quote(t))))
    }

    /// A vertex that is a point of this board (not `pass`).
    pub fn point(&mut self, size: BoardSize) -> Result<Point, GtpError> {
        let t = self.word("vertex")?;
        size.parse_point(t).map_err(|e| vertex_error(t, &e))
    }

    /// A move: a vertex of this board or `pass`.
    pub fn mv(&mut self, size: BoardSize) -> Result<Move, GtpError> {
        let t = self.word("vertex")?;
        size.parse_move(t).map_err(|e| vertex_error(t, &e))
    }

    /// An integer (optional sign, decimal digits); out-of-range values saturate so the
    /// caller's range check words the error.
    pub fn int(&mut self, what: &str) -> Result<i64, GtpError> {
        let t = self.word(what)?;
        parse_int(t)
            .ok_or_else(|| GtpError::syntax(format!("{what} is not an integer: {}", quote(t))))
    }

    /// A non-negative integer that fits in `u32`.
    pub fn uint(&mut self, what: &str) -> Result<u32, GtpError> {
        let t = self.peek();
        let n = self.int(what)?;
        u32::try_from(n).map_err(|_| {
            GtpError::syntax(format!(
                "{what} must be a non-negative integer: {}",
                quote(t.unwrap_or(""))
            ))
        })
    }

    /// A finite number (NaN and infinities are refused).
    pub fn float(&mut self, what: &str) -> Result<f64, GtpError> {
        let t = self.word(what)?;
        parse_float(t)
            .ok_or_else(|| GtpError::syntax(format!("{what} is not a finite number: {}", quote(t))))
    }

    /// A boolean: `true`/`false`, `1`/`0`, `on`/`off`, `yes`/`no`.
    pub fn boolean(&mut self, what: &str) -> Result<bool, GtpError> {
        let t = self.word(what)?;
        parse_bool(t)
            .ok_or_else(|| GtpError::syntax(format!("{what} is not a boolean: {}", quote(t))))
    }

    /// Every remaining argument as a point of this board.
    pub fn points(&mut self, size: BoardSize) -> Result<Vec<Point>, GtpError> {
        let mut out = Vec::with_capacity(self.remaining());
        while !self.is_empty() {
            out.push(self.point(size)?);
        }
        Ok(out)
    }
}

fn vertex_error(token: &str, e: &ParseVertexError) -> GtpError {
    GtpError::syntax(format!("{e}: {}", quote(token)))
}

/// An integer with an optional sign; too many digits saturate.
pub fn parse_int(t: &str) -> Option<i64> {
    let (neg, digits) = match t.as_bytes().first()? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude = digits.bytes().fold(0i64, |acc, d| {
        acc.saturating_mul(10).saturating_add(i64::from(d - b'0'))
    });
    Some(if neg { -magnitude } else { magnitude })
}

/// A finite decimal number (`7`, `-3.5`, `6.5`, `1e1`); `NaN`, `inf` and overflow fail.
pub fn parse_float(t: &str) -> Option<f64> {
    let ok_chars = t
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'));
    if !ok_chars || t.len() > 64 {
        return None;
    }
    t.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// `true`/`false`, `1`/`0`, `on`/`off`, `yes`/`no`, any case.
pub fn parse_bool(t: &str) -> Option<bool> {
    match t.to_ascii_lowercase().as_str() {
        "true" | "1" | "on" | "yes" => Some(true),
        "false" | "0" | "off" | "no" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Args<'_> {
        Args::new(s.split(' ').filter(|t| !t.is_empty()).collect())
    }

    #[test]
    fn typed_accessors_decode_or_explain() {
        let size = BoardSize::new(9).unwrap();
        let mut a = args("W j9 PASS 7.5 -3 x");
        assert_eq!(a.color(), Ok(Color::White));
        assert_eq!(a.point(size), Ok(size.parse_point("J9").unwrap()));
        assert_eq!(a.mv(size), Ok(Move::Pass));
        assert_eq!(a.float("komi"), Ok(7.5));
        assert_eq!(a.int("n"), Ok(-3));
        assert!(a.end().is_err());
        assert!(
            a.color()
                .unwrap_err()
                .to_string()
                .starts_with("syntax error")
        );
        assert!(a.color().unwrap_err().to_string().contains("missing color"));
    }

    #[test]
    fn numbers_refuse_junk_and_non_finite_values() {
        for bad in [
            "NaN", "nan", "inf", "-inf", "infinity", "1e999", "", "1.2.3x", "0x10",
        ] {
            assert_eq!(parse_float(bad), None, "{bad}");
        }
        assert_eq!(parse_float("0"), Some(0.0));
        assert_eq!(parse_float("-3.5"), Some(-3.5));
        assert_eq!(parse_int("99999999999999999999999"), Some(i64::MAX));
        assert_eq!(parse_int("-5"), Some(-5));
        assert_eq!(parse_int("5a"), None);
        assert_eq!(parse_int("-"), None);
        let size = BoardSize::new(9).unwrap();
        assert!(args("Z1").point(size).is_err());
        assert!(args("A10").point(size).is_err());
        assert!(args("pass").point(size).is_err());
        assert!(args("-1").uint("n").is_err());
    }
}
