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
    let mut scan = MainLine::new(text);
    let mut value = Value::default();
    for (i, b) in text.bytes().enumerate() {
        if value.open {
            value.read(b);
            continue;
        }
        if scan.expect_node && !b.is_ascii_whitespace() {
            if b != b';' {
                return parse_error("a game tree must start with a node (';')");
            }
            scan.expect_node = false;
        }
        match b {
            b'[' => {
                value.open = true;
                scan.open_value()?;
            }
            b'(' => scan.open_tree(i)?,
            b')' => scan.close_tree(i)?,
            b';' if scan.copying => scan.count_node()?,
            _ => {}
        }
    }
    if value.open {
        return parse_error("a property value is not closed (']' missing)");
    }
    scan.finish()
}

/// A parse error saying `message`.
fn parse_error<T>(message: &str) -> Result<T, SgfError> {
    Err(SgfError::Parse(message.into()))
}

/// The state of the main-line scan outside property values: how deep it is, what it
/// counted, and the main line copied so far.
struct MainLine<'t> {
    /// The text scanned.
    text: &'t str,
    /// Built only once a `(` is taken out; until then the line is a slice of the text.
    line: String,
    /// The main line is copied until its end, the first `)` outside a value.
    copying: bool,
    /// The main line's nodes so far.
    nodes: usize,
    /// The main line's property values so far.
    values: usize,
    /// How many game trees and variations are open.
    depth: usize,
    /// After a `(`, the next byte outside white space must open a node.
    expect_node: bool,
    /// Where the text not yet copied into `line` starts.
    copied_from: usize,
    /// Where the main line ends.
    end: usize,
    /// Whether the main line took a `(` out.
    dropped: bool,
}

impl<'t> MainLine<'t> {
    /// The scan of `text` before its first byte.
    fn new(text: &'t str) -> Self {
        MainLine {
            text,
            line: String::new(),
            copying: true,
            nodes: 0,
            values: 0,
            depth: 0,
            expect_node: false,
            copied_from: 0,
            end: 0,
            dropped: false,
        }
    }

    /// A `[` opens a property value: one more in the main line while it is copied.
    fn open_value(&mut self) -> Result<(), SgfError> {
        self.values += usize::from(self.copying);
        if self.values > MAX_VALUES {
            return Err(SgfError::Unsupported(format!(
                "more than {MAX_VALUES} property values in the main line"
            )));
        }
        Ok(())
    }

    /// The `(` at `i` opens a game tree or a variation; a first variation's `(` is
    /// left out of the main line, which is copied from then on.
    fn open_tree(&mut self, i: usize) -> Result<(), SgfError> {
        self.depth += 1;
        if self.depth > MAX_TREE_DEPTH {
            return Err(SgfError::Unsupported(format!(
                "variations nested more than {MAX_TREE_DEPTH} deep"
            )));
        }
        self.expect_node = true;
        if self.copying && self.depth > 1 {
            if !self.dropped {
                self.line.push('(');
                self.dropped = true;
            }
            self.line.push_str(&self.text[self.copied_from..i]);
        }
        if self.copying {
            self.copied_from = i + 1;
        }
        Ok(())
    }

    /// The `)` at `i` closes a game tree or a variation; the first one ends the main
    /// line.
    fn close_tree(&mut self, i: usize) -> Result<(), SgfError> {
        if self.depth == 0 {
            return parse_error("unbalanced parentheses: ')' closes no game tree");
        }
        self.depth -= 1;
        if self.copying {
            if self.dropped {
                self.line.push_str(&self.text[self.copied_from..i]);
            }
            self.copying = false;
            self.end = i;
        }
        Ok(())
    }

    /// A `;` of the main line opens one more node.
    fn count_node(&mut self) -> Result<(), SgfError> {
        self.nodes += 1;
        if self.nodes > MAX_TREE_DEPTH {
            return Err(SgfError::Unsupported(format!(
                "main line longer than {MAX_TREE_DEPTH} nodes"
            )));
        }
        Ok(())
    }

    /// The main line once the whole text is scanned: a slice of the text where no `(`
    /// was taken out, else the copy closed.
    fn finish(mut self) -> Result<Cow<'t, str>, SgfError> {
        if self.depth > 0 {
            return parse_error("unbalanced parentheses: a game tree is not closed");
        }
        if self.copying {
            return parse_error("no game tree found");
        }
        if !self.dropped {
            return Ok(Cow::Borrowed(&self.text[..=self.end]));
        }
        self.line.push(')');
        Ok(Cow::Owned(self.line))
    }
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
