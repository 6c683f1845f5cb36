//! Reading a collection of many SGF game trees one at a time (a month of server
//! games is tens of megabytes): [`SgfGames`] holds the text of one game tree at a time,
//! so its memory does not grow with the number of records.

use std::io::BufRead;

use super::scan::Value;
use super::{SgfError, SgfGame, parse_sgf};

/// The longest game tree read, in bytes: a long game with comments is a few tens of
/// kilobytes. A longer tree is skipped with an error (its text is not kept).
pub const MAX_TREE_BYTES: usize = 4 << 20;

/// The game trees of an SGF collection read from `source`, in order, each parsed by
/// [`parse_sgf`]: an item per top-level `(`…`)`. A tree that does not parse is an
/// `Err` item and the iterator goes on with the next one; a read error of the source,
/// or an unclosed last tree, is a last `Err` item.
#[derive(Debug)]
pub struct SgfGames<R> {
    source: R,
    /// The bytes of the tree being read (empty between trees).
    tree: Vec<u8>,
    /// Trees started so far (the 1-based number of the one being read).
    trees: usize,
    done: bool,
}

impl<R: BufRead> SgfGames<R> {
    /// A reader of the collection in `source`.
    pub fn new(source: R) -> SgfGames<R> {
        SgfGames {
            source,
            tree: Vec::new(),
            trees: 0,
            done: false,
        }
    }

    /// Game trees started so far: the number of the last one returned.
    pub fn trees(&self) -> usize {
        self.trees
    }

    /// The text of the next top-level game tree; `None` at the end of the source.
    fn next_tree(&mut self) -> Option<Result<String, SgfError>> {
        self.tree.clear();
        let (mut depth, mut too_long) = (0usize, false);
        let mut value = Value::default();
        loop {
            let buf = match self.source.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.done = true;
                    return Some(Err(SgfError::Parse(format!("read error: {e}"))));
                }
            };
            if buf.is_empty() {
                self.done = true;
                return (depth > 0).then(|| {
                    Err(SgfError::Parse(format!(
                        "game tree {} is not closed",
                        self.trees
                    )))
                });
            }
            let mut used = buf.len();
            let mut start = None;
            for (i, &b) in buf.iter().enumerate() {
                if depth == 0 {
                    // Between trees only a `(` matters (headers and white space are skipped).
                    if b == b'(' {
                        depth = 1;
                        self.trees += 1;
                        start = Some(i);
                    }
                    continue;
                }
                if value.open {
                    value.read(b);
                    continue;
                }
                match b {
                    b'[' => value.open = true,
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            used = i + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            // The part of this buffer inside the tree: from its `(` (or the buffer's
            // start, inside a tree begun earlier) to its `)` or the buffer's end.
            let inside = depth > 0 || start.is_some() || !self.tree.is_empty();
            if inside && !too_long {
                let piece = &buf[start.unwrap_or(0)..used];
                if self.tree.len() + piece.len() > MAX_TREE_BYTES {
                    too_long = true;
                    self.tree = Vec::new();
                } else {
                    self.tree.extend_from_slice(piece);
                }
            }
            self.source.consume(used);
            if depth == 0 && (start.is_some() || !self.tree.is_empty() || too_long) {
                if too_long {
                    return Some(Err(SgfError::Unsupported(format!(
                        "game tree {} is longer than {MAX_TREE_BYTES} bytes",
                        self.trees
                    ))));
                }
                let text = String::from_utf8_lossy(&self.tree).into_owned();
                return Some(Ok(text));
            }
        }
    }
}

impl<R: BufRead> Iterator for SgfGames<R> {
    type Item = Result<SgfGame, SgfError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        Some(self.next_tree()?.and_then(|text| parse_sgf(&text)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    fn games(text: &str, capacity: usize) -> Vec<Result<SgfGame, SgfError>> {
        SgfGames::new(BufReader::with_capacity(capacity, text.as_bytes())).collect()
    }

    #[test]
    fn every_tree_of_a_collection_is_read_in_order() {
        let text = "header\n(;SZ[9];B[aa]C[a ) \\] (])\n(;SZ[9];B[bb];W[cc](;B[dd])(;B[ee]))\n\n(;SZ[5];W[])\n";
        // Buffers of one byte split every tree and every value across reads.
        for capacity in [1, 3, 7, 4096] {
            let all = games(text, capacity);
            let moves: Vec<usize> = all
                .iter()
                .map(|g| g.as_ref().unwrap().game.move_count())
                .collect();
            assert_eq!(moves, [1, 3, 1], "capacity {capacity}");
            assert_eq!(all[0].as_ref().unwrap().info.comments[0].1, "a ) ] (");
            assert_eq!(all[2].as_ref().unwrap().game.size().get(), 5);
        }
    }

    #[test]
    fn a_bad_tree_is_an_error_and_the_next_one_is_read() {
        let all = games("(;SZ[9];B[zz])(;SZ[9];B[aa])(;SZ[9];W[bb]", 5);
        assert_eq!(all.len(), 3);
        assert!(all[0].is_err());
        assert_eq!(all[1].as_ref().unwrap().game.move_count(), 1);
        assert!(matches!(&all[2], Err(SgfError::Parse(m)) if m.contains("not closed")));
        assert!(games("", 5).is_empty());
        assert!(games("no trees here", 5).is_empty());
    }

    #[test]
    fn memory_is_one_tree_however_long_the_collection() {
        // A tree longer than the bound is refused without being kept.
        let long = format!(
            "(;SZ[9]C[{}])(;SZ[9];B[aa])",
            "x".repeat(MAX_TREE_BYTES + 10)
        );
        let mut it = SgfGames::new(BufReader::with_capacity(1 << 16, long.as_bytes()));
        assert!(matches!(it.next(), Some(Err(SgfError::Unsupported(_)))));
        assert!(it.tree.capacity() <= MAX_TREE_BYTES + (1 << 16));
        assert_eq!(it.next().unwrap().unwrap().game.move_count(), 1);
        assert!(it.next().is_none());
        // Many trees: the buffer holds one.
        let many = "(;SZ[9];B[aa];W[bb])".repeat(10_000);
        let mut it = SgfGames::new(BufReader::new(many.as_bytes()));
        let mut n = 0;
        for g in it.by_ref() {
            assert_eq!(g.unwrap().game.move_count(), 2);
            n += 1;
        }
        assert_eq!((n, it.trees()), (10_000, 10_000));
        assert!(it.tree.capacity() < 1024);
    }
}
