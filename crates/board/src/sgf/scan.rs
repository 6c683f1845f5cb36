//! Scanning SGF text before it is parsed, so that the parser only ever sees what is
//! loaded: the main line of the first game tree.
//!
//! The parser builds every game tree of a collection, every variation and a token for
//! every bracket before the reader looks at one node, which costs tens of times the
//! text in memory. The scan allocates nothing but the main line's text, checks the
//! structure of the whole collection (brackets and parentheses balanced, every tree
//! starting with a node) and bounds how deep anything is nested.

use std::borrow::Cow;

use super::{MAX_TREE_DEPTH, MAX_VALUES, SgfError};

/// The main line of the first game tree of `text` (which starts with its first `(`) as
/// one sequence of nodes, `(;…;…)`: everything from the first `(` to the first `)`
/// outside a property value, the `(` of each first variation dropped. That is the
/// first child of every node, which is all the reader follows. A tree without
/// variations is its own main line and is not copied.
///
/// Refused: unbalanced parentheses or an unclosed property value anywhere in the
/// collection, a game tree without a node, variations nested or a main line longer
/// than [`MAX_TREE_DEPTH`], a main line of more than [`MAX_VALUES`] property values.
pub(super) fn main_line(text: &str) -> Result<Cow<'_, str>, SgfError> {
    let parse = |m: &str| Err(SgfError::Parse(m.into()));
    // Built only once a `(` is taken out; until then the line is a slice of the text.
    let mut line = String::new();
    // The main line is copied until its end, the first `)` outside a value.
    let mut copying = true;
    let (mut nodes, mut values) = (0usize, 0usize);
    let mut depth = 0usize;
    // After a `(`, the next byte outside white space must open a node.
    let mut expect_node = false;
    let mut value = Value::default();
    let mut copied_from = 0;
    // Where the main line ends, and whether it took a `(` out.
    let (mut end, mut dropped) = (0, false);
    for (i, b) in text.bytes().enumerate() {
        if value.open {
            value.read(b);
            continue;
        }
        if expect_node && !b.is_ascii_whitespace() {
            if b != b';' {
                return parse("a game tree must start with a node (';')");
            }
            expect_node = false;
        }
        match b {
            b'[' => {
                value.open = true;
                values += usize::from(copying);
                if values > MAX_VALUES {
                    return Err(SgfError::Unsupported(format!(
                        "more than {MAX_VALUES} property values in the main line"
                    )));
                }
            }
            b'(' => {
                depth += 1;
                if depth > MAX_TREE_DEPTH {
                    return Err(SgfError::Unsupported(format!(
                        "variations nested more than {MAX_TREE_DEPTH} deep"
                    )));
                }
                expect_node = true;
                if copying && depth > 1 {
                    if !dropped {
                        line.push('(');
                        dropped = true;
                    }
                    line.push_str(&text[copied_from..i]);
                }
                if copying {
                    copied_from = i + 1;
                }
            }
            b')' => {
                if depth == 0 {
                    return parse("unbalanced parentheses: ')' closes no game tree");
                }
                depth -= 1;
                if copying {
                    if dropped {
                        line.push_str(&text[copied_from..i]);
                    }
                    copying = false;
                    end = i;
                }
            }
            b';' if copying => {
                nodes += 1;
                if nodes > MAX_TREE_DEPTH {
                    return Err(SgfError::Unsupported(format!(
                        "main line longer than {MAX_TREE_DEPTH} nodes"
                    )));
                }
            }
            _ => {}
        }
    }
    if value.open {
        return parse("a property value is not closed (']' missing)");
    }
    if depth > 0 {
        return parse("unbalanced parentheses: a game tree is not closed");
    }
    if copying {
        return parse("no game tree found");
    }
    if !dropped {
        return Ok(Cow::Borrowed(&text[..=end]));
    }
    line.push(')');
    Ok(Cow::Owned(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_main_line_is_the_first_child_of_every_node() {
        let text = "(;SZ[9](;B[aa]C[a (b) \\] c](;W[bb])(;W[cc]))(;B[dd]))(;SZ[5];B[ee])";
        assert_eq!(
            main_line(text).unwrap(),
            "(;SZ[9];B[aa]C[a (b) \\] c];W[bb])"
        );
        assert_eq!(main_line("(;)").unwrap(), "(;)");
        // A tree without variations is not copied.
        let plain = "(;SZ[9];B[aa]C[x ( y])(;B[bb])";
        assert!(matches!(
            main_line(plain),
            Ok(Cow::Borrowed("(;SZ[9];B[aa]C[x ( y])"))
        ));
    }

    #[test]
    fn structure_is_checked_in_the_whole_collection() {
        for bad in [
            "(;SZ[9])(;B[aa]",
            "(;SZ[9]))",
            "(;C[open)",
            "()",
            "((;B[aa]))",
            "(;B[aa])(",
        ] {
            assert!(
                matches!(main_line(bad), Err(SgfError::Parse(_))),
                "{bad:?} was accepted"
            );
        }
    }

    #[test]
    fn nesting_and_long_lines_are_refused_early() {
        let parens = "(".repeat(16 << 20);
        assert!(matches!(main_line(&parens), Err(SgfError::Parse(_))));
        let nested = "(;".repeat(8 << 20);
        assert!(matches!(
            main_line(&nested),
            Err(SgfError::Unsupported(m)) if m.contains("nested")
        ));
        let long = format!("({})", ";".repeat(MAX_TREE_DEPTH + 1));
        assert!(matches!(main_line(&long), Err(SgfError::Unsupported(_))));
        let values = format!("(;TR{})", "[aa]".repeat(MAX_VALUES + 1));
        assert!(matches!(main_line(&values), Err(SgfError::Unsupported(_))));
        // Long lines elsewhere than the main line are never parsed.
        let side = format!("(;(;)(;{}))", ";".repeat(2 * MAX_TREE_DEPTH));
        assert_eq!(main_line(&side).unwrap(), "(;;)");
    }
}

/// Where a scanner stands inside a property value (`[...]`, where `\\` escapes the next
/// byte): the one rule both the main-line scan and [`super::SgfGames`] need to tell
/// structure from text.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Value {
    /// Inside a value: set at its `[`, cleared by [`Value::read`] at its `]`.
    pub(super) open: bool,
    /// The last byte read was an unescaped `\\`.
    escaped: bool,
}

impl Value {
    /// Reads one byte of an open value.
    pub(super) fn read(&mut self, b: u8) {
        if self.escaped {
            self.escaped = false;
        } else if b == b'\\' {
            self.escaped = true;
        } else if b == b']' {
            self.open = false;
        }
    }
}
