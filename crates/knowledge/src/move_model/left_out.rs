//! Which feature groups of the move model a fit leaves out (`tengen learn fit
//! --without …`), so that each group's prediction gain and cost can be measured: a
//! model fitted without a group records it in its table (a `without` line), and
//! whatever rates candidates with that table neither computes nor weighs the group.
//!
//! The groups that can be left out are the tactical ones of
//! [`GROUPS`] but the pass (a pass has no other feature to
//! tell it from a move), the 3×3 `shape` and the `large-patterns`.

use super::groups::{GROUPS, TACTICAL};

/// The name of the 3×3 shape group.
pub const SHAPE: &str = "shape";

/// The name of the large-pattern group.
pub const LARGE_PATTERNS: &str = "large-patterns";

/// The bit of the shape group (the tactical groups take bits `0..TACTICAL`).
const SHAPE_BIT: u32 = TACTICAL as u32;

/// The bit of the large-pattern group.
const PATTERNS_BIT: u32 = TACTICAL as u32 + 1;

/// A set of feature groups left out of a move model; [`LeftOut::NOTHING`] is the
/// full model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LeftOut(u16);

/// The names of the groups that can be left out, in table order.
pub fn names() -> Vec<&'static str> {
    GROUPS[1..]
        .iter()
        .map(|g| g.0)
        .chain([SHAPE, LARGE_PATTERNS])
        .collect()
}

impl LeftOut {
    /// Nothing left out: the full model.
    pub const NOTHING: LeftOut = LeftOut(0);

    /// The group named `name` left out, or why not (an unknown name, or the pass).
    pub fn group(name: &str) -> Result<LeftOut, String> {
        let valid = || names().join(", ");
        if name == GROUPS[0].0 {
            return Err(format!(
                "the {name} group cannot be left out (a pass has no other feature); \
                 the groups that can be: {}",
                valid()
            ));
        }
        let bit = match name {
            SHAPE => SHAPE_BIT,
            LARGE_PATTERNS => PATTERNS_BIT,
            _ => match GROUPS.iter().position(|g| g.0 == name) {
                Some(k) => k as u32,
                None => {
                    return Err(format!(
                        "unknown feature group {name:?}; the groups that can be left out: {}",
                        valid()
                    ));
                }
            },
        };
        Ok(LeftOut(1 << bit))
    }

    /// The groups of a comma-separated list (`shape,capture`); an empty list or an
    /// empty or unknown name is an error naming the valid ones.
    pub fn parse_list(text: &str) -> Result<LeftOut, String> {
        LeftOut::from_names(text.split(','))
    }

    /// The groups named, each once or more; none at all is an error.
    pub fn from_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<LeftOut, String> {
        let mut set = LeftOut::NOTHING;
        let mut any = false;
        for name in names {
            let name = name.trim();
            if name.is_empty() {
                return Err(format!(
                    "an empty group name; the groups that can be left out: {}",
                    self::names().join(", ")
                ));
            }
            set.0 |= LeftOut::group(name)?.0;
            any = true;
        }
        if !any {
            return Err(format!(
                "no group named; the groups that can be left out: {}",
                self::names().join(", ")
            ));
        }
        Ok(set)
    }

    /// Whether nothing is left out.
    pub fn is_nothing(self) -> bool {
        self.0 == 0
    }

    /// Whether tactical group `k` (an index into [`GROUPS`]) is left out.
    pub fn tactical(self, k: usize) -> bool {
        k < TACTICAL && self.0 & (1 << k) != 0
    }

    /// Whether the 3×3 shape is left out.
    pub fn shape(self) -> bool {
        self.0 & (1 << SHAPE_BIT) != 0
    }

    /// Whether the large patterns are left out.
    pub fn large_patterns(self) -> bool {
        self.0 & (1 << PATTERNS_BIT) != 0
    }

    /// The names of the groups left out, in table order.
    pub fn group_names(self) -> Vec<&'static str> {
        names()
            .into_iter()
            .filter(|&n| LeftOut::group(n).is_ok_and(|g| self.0 & g.0 != 0))
            .collect()
    }
}

impl std::fmt::Display for LeftOut {
    /// The names separated by commas, or `nothing`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_nothing() {
            write!(f, "nothing")
        } else {
            write!(f, "{}", self.group_names().join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_print_back() {
        let set = LeftOut::parse_list("large-patterns,shape, capture").unwrap();
        assert!(set.shape() && set.large_patterns() && set.tactical(1));
        assert!(!set.tactical(2) && !set.tactical(0) && !set.is_nothing());
        assert_eq!(set.to_string(), "capture,shape,large-patterns");
        assert_eq!(LeftOut::parse_list(&set.to_string()), Ok(set));
        let distances = LeftOut::parse_list("previous,before-previous").unwrap();
        assert!(distances.tactical(5) && distances.tactical(6) && !distances.tactical(7));
        assert_eq!(LeftOut::NOTHING.to_string(), "nothing");
        for name in names() {
            assert_eq!(LeftOut::group(name).unwrap().group_names(), vec![name]);
        }
        assert_eq!(names().len(), TACTICAL + 1);
    }

    #[test]
    fn bad_names_are_errors_listing_the_valid_ones() {
        for bad in ["bogus", "shape,", "", "capture,,edge", "Shape", "pass"] {
            let e = LeftOut::parse_list(bad).unwrap_err();
            assert!(
                e.contains("capture, escape, atari, self-atari, previous, before-previous, edge, shape, large-patterns"),
                "{bad:?}: {e}"
            );
        }
        assert!(
            LeftOut::parse_list("bogus")
                .unwrap_err()
                .contains("\"bogus\"")
        );
        assert!(LeftOut::from_names([]).is_err());
    }
}
