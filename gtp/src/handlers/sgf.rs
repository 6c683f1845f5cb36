//! SGF files: `loadsgf FILE [N]` and `printsgf [FILE]`.

use std::io::Read;

use tengen_board::sgf::{parse_sgf_with, write_sgf};

use crate::args::Args;
use crate::error::GtpError;
use crate::session::{Ctx, Session};

type Answer = Result<String, GtpError>;

/// Largest SGF file read (a long game with comments is a few hundred kilobytes).
const MAX_SGF_BYTES: u64 = 16 << 20;

fn read_file(path: &str) -> Result<String, GtpError> {
    let fail = |why: String| GtpError::CannotLoadFile(why);
    let meta = std::fs::metadata(path).map_err(|e| fail(e.to_string()))?;
    if !meta.is_file() {
        return Err(fail("not a regular file".into()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SGF_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| fail(e.to_string()))?;
    if bytes.len() as u64 > MAX_SGF_BYTES {
        return Err(fail("file too large".into()));
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
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

/// `printsgf [FILE]`: the game as SGF, as the answer or into `FILE`.
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
        Some(p) => std::fs::write(p, text + "\n")
            .map(|()| String::new())
            .map_err(|e| GtpError::Other(format!("cannot write file: {e}"))),
    }
}
