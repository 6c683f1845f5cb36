//! The match report: one self-contained HTML page (inline SVG plots, no script, nothing
//! fetched) of a match's settings, score, SPRT, results by colour, every game, and for
//! round robins the crosstable and every engine's rating ([`ratings`]).
//!
//! [`write()`] renders the page ([`page`], its plots [`plots`] from the figures of
//! [`series`]) and writes it through a temporary file and a rename, so the file under
//! the report's name is always a whole page.

pub mod page;
pub mod plots;
pub mod ratings;
pub mod series;

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::ArenaError;
use crate::journal::Entry;
use crate::meta::MatchInfo;
use crate::summary::Summary;

/// One game of the report: its journal line and the directory its SGF is in.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportGame {
    /// The journal line.
    pub entry: Entry,
    /// The output directory the journal and the SGF are in.
    pub dir: PathBuf,
}

/// What a report is made from.
#[derive(Clone, Copy, Debug)]
pub struct ReportSource<'a> {
    /// The match's settings (`match.json`), if the directories have one.
    pub info: Option<&'a MatchInfo>,
    /// Every game, in game-number order.
    pub games: &'a [ReportGame],
    /// The summary of those games.
    pub summary: &'a Summary,
    /// The directories the games were read from.
    pub dirs: &'a [PathBuf],
}

/// Why a report path cannot be used: `--report` must name an HTML file (which also keeps
/// it from replacing a journal, a `match.json` or a game record) in a directory that
/// exists and can be written.
pub fn check_path(path: &Path) -> Result<(), ArenaError> {
    let refuse = |problem: &str| ArenaError::Report {
        path: path.to_path_buf(),
        problem: problem.to_string(),
    };
    let html = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"));
    if !html {
        return Err(refuse("the report must be an .html file"));
    }
    if path.is_dir() {
        return Err(refuse("is a directory"));
    }
    let dir = parent(path);
    if !dir.is_dir() {
        return Err(refuse(&format!(
            "its directory {} does not exist",
            dir.display()
        )));
    }
    // The temporary file the report is written through must be creatable there.
    let tmp = temporary(path);
    fs::write(&tmp, b"").map_err(|e| ArenaError::io(&tmp, e))?;
    fs::remove_file(&tmp).map_err(|e| ArenaError::io(&tmp, e))
}

/// The directory `path` is in (`.` for a bare file name).
fn parent(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The temporary file a report at `path` is written to before the rename.
fn temporary(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    parent(path).join(format!(".{name}.tmp"))
}

/// Writes the report of `source` to `path`, through a temporary file and a rename.
pub fn write(path: &Path, source: &ReportSource<'_>) -> Result<(), ArenaError> {
    check_path(path)?;
    let html = page::render(source, &parent(path), crate::record::today().as_deref());
    let tmp = temporary(path);
    fs::write(&tmp, html).map_err(|e| {
        let _ = fs::remove_file(&tmp);
        ArenaError::io(&tmp, e)
    })?;
    fs::rename(&tmp, path).map_err(|e| {
        let _ = fs::remove_file(&tmp);
        ArenaError::io(path, e)
    })
}

/// The link from a page in `report_dir` to the record `sgf` in `dir`: a relative URL
/// where one exists (the page and the records can be moved together), each byte that
/// is not a plain URL character percent-encoded.
pub fn sgf_link(report_dir: &Path, dir: &Path, sgf: &str) -> String {
    let target = dir.join(sgf);
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let (target, base) = (absolute(&target), absolute(report_dir));
    match pathdiff::diff_paths(&target, &base) {
        Some(relative) => relative
            .components()
            .map(|c| encode(&c.as_os_str().to_string_lossy()))
            .collect::<Vec<_>>()
            .join("/"),
        None => format!("file://{}", encode_path(&target.to_string_lossy())),
    }
}

/// `text` with every byte other than letters, digits and `-._~` percent-encoded.
fn encode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// An absolute path percent-encoded segment by segment.
fn encode_path(path: &str) -> String {
    path.split('/').map(encode).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_relative_and_encoded() {
        assert_eq!(
            sgf_link(Path::new("/a/b"), Path::new("/a/b/m1"), "game-0001.sgf"),
            "m1/game-0001.sgf"
        );
        assert_eq!(
            sgf_link(Path::new("/a/r"), Path::new("/a/my run#2"), "game-0001.sgf"),
            "../my%20run%232/game-0001.sgf"
        );
        assert_eq!(
            sgf_link(Path::new("/a"), Path::new("/a"), "game-0001.sgf"),
            "game-0001.sgf"
        );
    }

    #[test]
    fn a_report_path_must_be_an_html_file_in_a_writable_directory() {
        let dir = tempfile::tempdir().unwrap();
        let err = |p: &Path| check_path(p).unwrap_err().to_string();
        assert!(err(&dir.path().join("journal.jsonl")).contains(".html file"));
        assert!(err(&dir.path().join("no/such/r.html")).contains("does not exist"));
        let sub = dir.path().join("x.html");
        fs::create_dir(&sub).unwrap();
        assert!(err(&sub).contains("is a directory"));
        check_path(&dir.path().join("r.HTML")).unwrap();
        // Nothing is left behind by the check.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
