//! Enums written as fixed names: on the command line, over GTP and in files.
//!
//! A type lists its values and their names once ([`Keyword`]); reading a name (any
//! case), writing one, and the refusal of an unknown name, worded `unknown WHAT "text"
//! (expected a, b or c)`, all follow from that list. [`keyword_text!`](crate::keyword_text)
//! adds the `FromStr` and `Display` that go through it.

use std::fmt;
use std::marker::PhantomData;

/// An enum whose every value has one fixed name.
pub trait Keyword: Copy + PartialEq + 'static {
    /// Every value, in the order help lists them.
    const ALL: &'static [Self];
    /// The names of [`Keyword::ALL`], in the same order.
    const NAMES: &'static [&'static str];
    /// What the values are, as a refusal names them (`playout policy`).
    const WHAT: &'static str;
    /// Other spellings read as a value (`cn` for `chinese`), any case.
    const ALIASES: &'static [(&'static str, Self)] = &[];

    /// The value's name: its entry in [`Keyword::NAMES`].
    fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .position(|&k| k == self)
            .and_then(|i| Self::NAMES.get(i))
            .copied()
            .unwrap_or("")
    }

    /// The value called `text` (a name or an alias, any case).
    fn from_name(text: &str) -> Result<Self, UnknownKeyword<Self>> {
        Self::NAMES
            .iter()
            .copied()
            .zip(Self::ALL.iter().copied())
            .chain(Self::ALIASES.iter().copied())
            .find(|(name, _)| name.eq_ignore_ascii_case(text))
            .map(|(_, k)| k)
            .ok_or_else(|| UnknownKeyword::new(text))
    }

    /// The names of [`Keyword::ALL`], as a refusal lists them: `off, wins, widen or both`.
    fn alternatives() -> String {
        list_alternatives(Self::NAMES)
    }
}

/// Names as a refusal lists them: `a`, `a or b`, `a, b or c`.
pub fn list_alternatives(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// `n` with the noun that goes with it in a message: `1 game`, `0 games`, `2 games`.
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The text is none of a [`Keyword`]'s names.
pub struct UnknownKeyword<K> {
    /// The text as given.
    pub text: String,
    kind: PhantomData<K>,
}

impl<K> UnknownKeyword<K> {
    /// The refusal of `text`.
    pub fn new(text: &str) -> UnknownKeyword<K> {
        UnknownKeyword {
            text: text.to_string(),
            kind: PhantomData,
        }
    }
}

impl<K> Clone for UnknownKeyword<K> {
    fn clone(&self) -> Self {
        UnknownKeyword::new(&self.text)
    }
}

impl<K> PartialEq for UnknownKeyword<K> {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl<K> Eq for UnknownKeyword<K> {}

impl<K> fmt::Debug for UnknownKeyword<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UnknownKeyword").field(&self.text).finish()
    }
}

impl<K: Keyword> fmt::Display for UnknownKeyword<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} {:?} (expected {})",
            K::WHAT,
            self.text,
            K::alternatives()
        )
    }
}

impl<K: Keyword> std::error::Error for UnknownKeyword<K> {}

/// `FromStr` (by [`Keyword::from_name`]) and `Display` (the name) for [`Keyword`]
/// types.
#[macro_export]
macro_rules! keyword_text {
    ($($kind:ty),+ $(,)?) => {$(
        impl ::std::str::FromStr for $kind {
            type Err = $crate::UnknownKeyword<$kind>;
            fn from_str(s: &str) -> ::std::result::Result<$kind, Self::Err> {
                <$kind as $crate::Keyword>::from_name(s)
            }
        }

        impl ::std::fmt::Display for $kind {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::Keyword::name(*self))
            }
        }
    )+};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Speed {
        Slow,
        Fast,
        Light,
    }

    impl Keyword for Speed {
        const ALL: &'static [Speed] = &[Speed::Slow, Speed::Fast, Speed::Light];
        const WHAT: &'static str = "speed";
        const NAMES: &'static [&'static str] = &["slow", "fast", "light-speed"];
        const ALIASES: &'static [(&'static str, Speed)] = &[("quick", Speed::Fast)];
    }

    crate::keyword_text!(Speed);

    #[test]
    fn names_aliases_and_refusals() {
        for &s in Speed::ALL {
            assert_eq!(s.to_string().parse::<Speed>(), Ok(s));
        }
        assert_eq!("FAST".parse::<Speed>(), Ok(Speed::Fast));
        assert_eq!("Quick".parse::<Speed>(), Ok(Speed::Fast));
        assert_eq!(Speed::Light.to_string(), "light-speed");
        let refusal = "warp".parse::<Speed>().unwrap_err();
        assert_eq!(
            refusal.to_string(),
            "unknown speed \"warp\" (expected slow, fast or light-speed)"
        );
        assert_eq!(refusal.text, "warp");
    }

    #[test]
    fn a_count_takes_the_noun_of_its_number() {
        assert_eq!(counted(1, "game", "games"), "1 game");
        assert_eq!(counted(0, "game", "games"), "0 games");
        assert_eq!(counted(2, "game", "games"), "2 games");
    }
}
