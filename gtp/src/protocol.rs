//! The wire format: input line cleanup (GTP v2 spec §3.1), the optional numeric id, and
//! answer framing (`=id text` / `?id message`, ended by one empty line, never
//! containing one).

use std::io::{self, Write};

/// One cleaned, non-empty command line split into id, name and arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request<'a> {
    /// The numeric id, as written (echoed back verbatim, so any length works).
    pub id: Option<&'a str>,
    /// The command name (empty when the line held only an id).
    pub name: &'a str,
    /// The arguments, split on spaces.
    pub args: Vec<&'a str>,
}

/// Cleans a raw input line as GTP v2 §3.1 says: control characters other than HT and
/// LF are dropped (CR too), everything from `#` on is cut, HT becomes a space, and
/// outer spaces are trimmed. An empty result means "ignore this line". Bytes that are
/// not UTF-8 become U+FFFD, so a binary line still gets its (failure) answer.
pub fn clean_line(raw: &[u8]) -> String {
    let mut bytes = Vec::with_capacity(raw.len().min(4096));
    for &b in raw {
        match b {
            b'#' => break,
            b'\t' => bytes.push(b' '),
            0..=31 | 127 => {}
            _ => bytes.push(b),
        }
    }
    String::from_utf8_lossy(&bytes).trim().to_string()
}

/// Whether a raw line is GoGui's interrupt comment, `# interrupt`.
pub fn is_interrupt(raw: &[u8]) -> bool {
    let text = String::from_utf8_lossy(raw);
    let t = text.trim();
    t.strip_prefix('#')
        .is_some_and(|rest| rest.trim().eq_ignore_ascii_case("interrupt"))
}

/// Splits a cleaned line into id, command name and arguments; `None` for an empty line.
pub fn parse_request(clean: &str) -> Option<Request<'_>> {
    let mut tokens = clean.split(' ').filter(|t| !t.is_empty());
    let first = tokens.next()?;
    let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
        (Some(first), tokens.next().unwrap_or(""))
    } else {
        (None, first)
    };
    Some(Request {
        id,
        name,
        args: tokens.collect(),
    })
}

/// The id at the start of a raw line, if any (for answering a line too long to read).
pub fn leading_id(raw: &[u8]) -> Option<String> {
    let start = raw.iter().position(|b| !b.is_ascii_whitespace())?;
    let digits: Vec<u8> = raw[start..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .copied()
        .collect();
    let end = start + digits.len();
    let separated = raw.get(end).is_none_or(|b| b.is_ascii_whitespace());
    (!digits.is_empty() && separated && digits.len() <= 64)
        .then(|| String::from_utf8_lossy(&digits).into_owned())
}

/// Makes `text` safe inside an answer: no CR, no empty or blank line after the first.
/// The first line may be empty (multi-line answers such as `showboard` start on the
/// line after `=`).
pub fn sanitize(text: &str) -> String {
    let text = text.replace('\r', "");
    let mut lines = text.split('\n');
    let mut out = lines.next().unwrap_or("").trim_end().to_string();
    for line in lines {
        let line = line.trim_end();
        if !line.trim().is_empty() {
            out.push('\n');
            out.push_str(line);
        }
    }
    out
}

/// Writes a whole answer: `=id text` or `?id text`, then the empty line, and flushes.
pub fn write_answer(
    out: &mut dyn Write,
    id: Option<&str>,
    success: bool,
    text: &str,
) -> io::Result<()> {
    let text = sanitize(text);
    let mark = if success { '=' } else { '?' };
    let id = id.unwrap_or("");
    if text.is_empty() || text.starts_with('\n') {
        write!(out, "{mark}{id}{text}\n\n")?;
    } else {
        write!(out, "{mark}{id} {text}\n\n")?;
    }
    out.flush()
}

/// Starts a streamed success answer: `=id` alone on its line.
pub fn write_stream_start(out: &mut dyn Write, id: Option<&str>) -> io::Result<()> {
    writeln!(out, "={}", id.unwrap_or(""))?;
    out.flush()
}

/// Writes one line of a streamed answer (blank lines are dropped) and flushes.
pub fn write_stream_line(out: &mut dyn Write, line: &str) -> io::Result<()> {
    let line = sanitize(line);
    if line.trim().is_empty() {
        return Ok(());
    }
    writeln!(out, "{}", line.trim_start_matches('\n'))?;
    out.flush()
}

/// Ends a streamed answer: an optional last line, then the empty line.
pub fn write_stream_end(out: &mut dyn Write, last: &str) -> io::Result<()> {
    write_stream_line(out, last)?;
    writeln!(out)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleanup_follows_the_spec() {
        assert_eq!(clean_line(b"3\t  version  \r"), "3   version");
        assert_eq!(clean_line(b"ver\x01sion"), "version");
        assert_eq!(clean_line(b"# a comment"), "");
        assert_eq!(clean_line(b"play b d4 # move"), "play b d4");
        assert_eq!(clean_line(b"  \t "), "");
        assert_eq!(clean_line(b"\xff\xfename"), "\u{fffd}\u{fffd}name");
        assert!(is_interrupt(b"# interrupt\r"));
        assert!(!is_interrupt(b"interrupt"));
    }

    #[test]
    fn requests_split_id_name_and_args() {
        let r = parse_request("12 play b  D4").unwrap();
        assert_eq!(r.id, Some("12"));
        assert_eq!(r.name, "play");
        assert_eq!(r.args, ["b", "D4"]);
        let r = parse_request("name").unwrap();
        assert_eq!((r.id, r.name, r.args.len()), (None, "name", 0));
        let r = parse_request("7").unwrap();
        assert_eq!((r.id, r.name), (Some("7"), ""));
        assert!(parse_request("").is_none());
        assert_eq!(leading_id(b" 42 play"), Some("42".into()));
        assert_eq!(leading_id(b"42x"), None);
    }

    #[test]
    fn framing_never_puts_a_blank_line_inside() {
        let mut out = Vec::new();
        write_answer(&mut out, Some("3"), true, "a\n\n  \nb\n").unwrap();
        write_answer(&mut out, None, false, "unknown command").unwrap();
        write_answer(&mut out, Some("4"), true, "").unwrap();
        write_answer(&mut out, None, true, "\n   A B\n 2 . .").unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "=3 a\nb\n\n? unknown command\n\n=4\n\n=\n   A B\n 2 . .\n\n"
        );
    }
}
