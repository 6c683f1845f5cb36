//! SGF files: `loadsgf FILE [N]` and `printsgf [FILE]`.

use std::io::Read;

use tengen_board::sgf::{parse_sgf_with, write_sgf};

use crate::args::Args;
use crate::error::{Answer, GtpError};
use crate::session::{Ctx, Session};

/// Largest SGF file read (a long game with comments is a few hundred kilobytes).
const MAX_SGF_BYTES: u64 = 16 << 20;

/// The text of the SGF file `path`. A failure to read it names the file, since the
/// system's reason (`No such file or directory`) does not.
fn read_file(path: &str) -> Result<String, GtpError> {
    let fail = |why: String| GtpError::CannotLoadFile(format!("{path}: {why}"));
    let meta = std::fs::metadata(path).map_err(|e| fail(e.to_string()))?;
    if !meta.is_file() {
        return Err(fail("not a regular file".into()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SGF_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| fail(e.to_string()))?;
    if bytes.len() as u64 > MAX_SGF_BYTES {
        return Err(fail(format!(
            "file too large (more than {} MiB)",
            MAX_SGF_BYTES >> 20
        )));
    }
    // Valid UTF-8 (nearly every record) is used as it is, without a copy.
    Ok(String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// `loadsgf FILE [N]`: the game in the file, up to the position before move `N` (GNU
/// Go's and GoGui regress's convention). On any failure the current game stays. What
/// the record's reader read past (a malformed informational property, …) is printed on
/// stderr, one `tengen: loadsgf FILE: …` line each, even under `--quiet`. The record's
/// `RU` and `KM` hold for its game; where it names none, the session's rules and komi
/// do, and they return at `clear_board` and `boardsize`.
pub(crate) fn loadsgf(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let path = a.word("file name")?;
    let until = if a.is_empty() {
        None
    } else {
        Some(a.uint("move number")? as usize)
    };
    a.end()?;
    let text = read_file(path)?;
    let record = parse_sgf_with(&text, &s.options.rules, until)
        .map_err(|e| GtpError::CannotLoadFile(e.to_string()))?;
    for w in &record.warnings {
        s.warn(&format!("tengen: loadsgf {path}: {w}"));
    }
    s.load(record.game, record.info);
    Ok(String::new())
}

/// `printsgf [FILE]`: the game as SGF, as the answer or into `FILE`, answering the
/// full name of the file written. Engines run under bridges that pass commands through,
/// so a file is written only where that cannot destroy anything or litter: the name
/// must end in `.sgf` (so a stray word such as `printsgf komi` writes nothing), and a
/// file already there must be a regular file that is empty or an SGF record.
pub(crate) fn printsgf(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let path = if a.is_empty() {
        None
    } else {
        Some(a.word("file name")?)
    };
    a.end()?;
    let text = write_sgf(&s.game, &s.info);
    match path {
        None => Ok(text),
        Some(p) => write_record(p, &(text + "\n")),
    }
}

/// Writes an SGF record to `path` if [`printsgf`]'s rules allow it; the answer is
/// the file's full name.
fn write_record(path: &str, text: &str) -> Answer {
    let fail = |why: String| GtpError::CannotWriteFile(why);
    let name = std::path::Path::new(path);
    let is_sgf_name = name
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"));
    if !is_sgf_name {
        return Err(fail(format!("{path}: the name must end in .sgf")));
    }
    match std::fs::metadata(name) {
        Ok(meta) if !meta.is_file() => {
            return Err(fail(format!("{path}: not a regular file")));
        }
        Ok(meta) if meta.len() > 0 && !is_sgf_record(name) => {
            return Err(fail(format!(
                "{path}: exists and is not an SGF record (not replaced)"
            )));
        }
        _ => {}
    }
    std::fs::write(name, text).map_err(|e| fail(format!("{path}: {e}")))?;
    let full = std::fs::canonicalize(name).map_err(|e| fail(format!("{path}: {e}")))?;
    Ok(full.to_string_lossy().into_owned())
}

/// Whether a file starts as an SGF record does: a game tree, `(` then `;`, after
/// white space (and a byte order mark).
fn is_sgf_record(path: &std::path::Path) -> bool {
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(4096).read_to_end(&mut head));
    if read.is_err() {
        return false;
    }
    let head = head.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&head);
    let mut bytes = head.iter().filter(|b| !b.is_ascii_whitespace());
    bytes.next() == Some(&b'(') && bytes.next() == Some(&b';')
}
