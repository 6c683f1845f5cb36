//! Query lines read with a bound: a line longer than the bound is skipped to its end
//! without being kept, so no line, however long, can exhaust memory.

use std::io::{self, BufRead};

/// The part of an overlong line kept to look for its `id`.
const KEPT: usize = 64 * 1024;

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line within the bound, without its line ending, trimmed of white space.
    Text(Vec<u8>),
    /// A line past the bound: its first bytes and its whole length.
    TooLong {
        /// The line's first bytes (at most 64 KiB).
        start: Vec<u8>,
        /// Its length in bytes.
        len: usize,
    },
}

/// Reads lines of at most `max` bytes from a buffered reader.
#[derive(Debug)]
pub struct LineReader<R> {
    input: R,
    max: usize,
}

impl<R: BufRead> LineReader<R> {
    /// Lines of `input`, each at most `max` bytes.
    pub fn new(input: R, max: usize) -> LineReader<R> {
        LineReader { input, max }
    }

    /// The next line that is not blank, or `None` at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        loop {
            let Some(line) = self.raw_line()? else {
                return Ok(None);
            };
            match line {
                Line::Text(t) if t.is_empty() => continue,
                other => return Ok(Some(other)),
            }
        }
    }

    fn raw_line(&mut self) -> io::Result<Option<Line>> {
        let mut kept = Vec::new();
        let mut len = 0usize;
        let mut any = false;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                if !any {
                    return Ok(None);
                }
                break;
            }
            any = true;
            let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], Some(i + 1)),
                None => (buf, None),
            };
            let room = if len <= self.max {
                self.max + 1 - len
            } else {
                0
            };
            kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
            len = len.saturating_add(chunk.len());
            let used = done.unwrap_or(buf.len());
            self.input.consume(used);
            if done.is_some() {
                break;
            }
        }
        if len > self.max {
            kept.truncate(KEPT);
            return Ok(Some(Line::TooLong { start: kept, len }));
        }
        Ok(Some(Line::Text(kept.trim_ascii().to_vec())))
    }
}

/// The `id` of a query from the start of its line, when the line is too long to read
/// whole: the string after the first `"id":` key.
pub fn id_in(start: &[u8]) -> Option<String> {
    let mut from = 0;
    while let Some(at) = find(&start[from..], b"\"id\"").map(|i| i + from) {
        from = at + 4;
        let before = start[..at].trim_ascii_end().last();
        if !matches!(before, Some(b'{' | b',')) {
            continue;
        }
        let rest = start[from..].trim_ascii_start();
        let Some(value) = rest.strip_prefix(b":") else {
            continue;
        };
        let mut strings =
            serde_json::Deserializer::from_slice(value.trim_ascii_start()).into_iter::<String>();
        if let Some(Ok(id)) = strings.next() {
            return Some(id);
        }
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<Line> {
        let mut r = LineReader::new(input, max);
        std::iter::from_fn(|| r.next_line().unwrap()).collect()
    }

    #[test]
    fn lines_are_trimmed_and_blank_ones_skipped() {
        assert_eq!(
            lines(b"{\"a\":1}\r\n\n  \n {} \nlast", 100),
            vec![
                Line::Text(b"{\"a\":1}".to_vec()),
                Line::Text(b"{}".to_vec()),
                Line::Text(b"last".to_vec())
            ]
        );
        assert!(lines(b"", 10).is_empty());
    }

    #[test]
    fn an_overlong_line_is_reported_and_the_next_one_read() {
        let mut input = b"{\"id\":\"big\",\"moves\":\"".to_vec();
        input.extend(std::iter::repeat_n(b'x', 5000));
        input.extend_from_slice(b"\"}\n{\"id\":\"next\"}\n");
        // A reader with a tiny buffer: the line spans many reads.
        let reader = io::BufReader::with_capacity(16, &input[..]);
        let mut r = LineReader::new(reader, 100);
        let Some(Line::TooLong { start, len }) = r.next_line().unwrap() else {
            panic!("expected an overlong line");
        };
        assert_eq!(len, 21 + 5000 + 2);
        assert!(start.len() <= 101);
        assert_eq!(id_in(&start), Some("big".to_string()));
        assert_eq!(
            r.next_line().unwrap(),
            Some(Line::Text(b"{\"id\":\"next\"}".to_vec()))
        );
        assert_eq!(r.next_line().unwrap(), None);
    }

    #[test]
    fn ids_are_found_only_as_keys() {
        assert_eq!(
            id_in(br#"{"x":"id", "id" : "a\"b", "#),
            Some("a\"b".to_string())
        );
        assert_eq!(id_in(br#"{"x":"\"id\":\"no\""#), None);
        assert_eq!(id_in(br#"{"id":"unfinish"#), None);
        assert_eq!(id_in(br#"{"id":7,"#), None);
    }
}
