//! The results journal: `DIR/journal.jsonl`, append-only, one JSON object per finished
//! game, each line written whole, flushed and synced before the next game is counted.
//!
//! Reading tolerates a torn last line (a crash in the middle of a write): it is ignored,
//! and cut off before anything is appended, so it is never counted, nor counted twice.
//! A game number that occurs twice counts once (the first line wins); when the two
//! lines differ, [`Contents::conflicts`] names the game.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::ArenaError;

/// The journal's file name inside the output directory.
pub const JOURNAL_FILE: &str = "journal.jsonl";

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The game number (from 1, unique across shards).
    pub game: u32,
    /// Black's engine label.
    pub black: String,
    /// White's engine label.
    pub white: String,
    /// `"B"`, `"W"`, or `null` for a draw or a void game.
    pub winner: Option<String>,
    /// The result as SGF `RE` writes it (`B+3.5`, `W+R`, `B+T`, `W+F`, `0`, `Void`).
    pub result: String,
    /// Why the game ended: `resign`, `score`, `illegal`, `crash`, `closed`, `timeout`,
    /// `time`, `protocol`, `rejected`, `start`, `max-moves`.
    pub reason: String,
    /// Details of the reason, e.g. the illegal move and who played it.
    #[serde(default)]
    pub detail: String,
    /// How a scored game was counted: `agreement`, `cleanup` or `tromp-taylor`.
    #[serde(default)]
    pub method: Option<String>,
    /// Moves played (passes and opening moves included).
    pub moves: u32,
    /// The SGF file name, relative to the output directory.
    pub sgf: String,
    /// The opening index, if openings were used.
    #[serde(default)]
    pub opening: Option<usize>,
    /// Seconds Black's engine spent on its `genmove`s.
    #[serde(default)]
    pub black_time: f64,
    /// Seconds White's engine spent on its `genmove`s.
    #[serde(default)]
    pub white_time: f64,
    /// Moves Black's engine generated.
    #[serde(default)]
    pub black_moves: u32,
    /// Moves White's engine generated.
    #[serde(default)]
    pub white_moves: u32,
    /// Milliseconds each move Black's engine played took, in order (opening moves,
    /// which nobody generated, left out); `None` in journals written before move times
    /// were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_move_ms: Option<Vec<u32>>,
    /// Milliseconds each move White's engine played took, as [`Entry::black_move_ms`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_move_ms: Option<Vec<u32>>,
}

#[cfg(test)]
impl Entry {
    /// A game of the unit tests: `black` against `white`, won by resignation by the
    /// colour `winner` names (`"B"` or `"W"`; a draw where there is none), 10 moves
    /// (5 each, in 1 s for Black and 2 s for White, without each move's time).
    pub(crate) fn resigned(game: u32, black: &str, white: &str, winner: Option<&str>) -> Entry {
        Entry {
            game,
            black: black.into(),
            white: white.into(),
            winner: winner.map(str::to_string),
            result: winner.map_or_else(|| "0".into(), |w| format!("{w}+R")),
            reason: "resign".into(),
            detail: String::new(),
            method: None,
            moves: 10,
            sgf: format!("game-{game:04}.sgf"),
            opening: None,
            black_time: 1.0,
            white_time: 2.0,
            black_moves: 5,
            white_moves: 5,
            black_move_ms: None,
            white_move_ms: None,
        }
    }
}

/// What reading a journal found.
#[derive(Debug, Default)]
pub struct Contents {
    /// The games, first occurrence of each number, in file order.
    pub entries: Vec<Entry>,
    /// Lines skipped because their game number was already there.
    pub duplicates: u32,
    /// Game numbers whose skipped line differs from the first one (another result,
    /// other times): two runs' lines, not one line copied twice.
    pub conflicts: Vec<u32>,
    /// Length of the valid prefix of the file in bytes (everything before a torn tail).
    pub valid_len: u64,
    /// Whether a torn or unreadable last line was ignored.
    pub torn: bool,
}

/// Reads a journal; a missing file reads as empty. A bad line other than the last is an
/// error: the journal was damaged in a way a crash cannot explain.
pub fn read(path: &Path) -> Result<Contents, ArenaError> {
    let mut text = Vec::new();
    match File::open(path) {
        Ok(mut f) => {
            f.read_to_end(&mut text)
                .map_err(|e| ArenaError::io(path, e))?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Contents::default()),
        Err(e) => return Err(ArenaError::io(path, e)),
    }
    let mut out = Contents::default();
    // Game number -> index in `out.entries`.
    let mut seen = HashMap::new();
    let mut offset = 0usize;
    let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
    for (i, raw) in lines.iter().enumerate() {
        let last = i + 1 == lines.len();
        let complete = raw.ends_with(b"\n");
        let body = String::from_utf8_lossy(raw);
        let body = body.trim();
        if body.is_empty() {
            if complete {
                offset += raw.len();
                out.valid_len = offset as u64;
            } else {
                out.torn = true;
            }
            continue;
        }
        match serde_json::from_str::<Entry>(body) {
            Ok(e) if complete => {
                match seen.get(&e.game) {
                    None => {
                        seen.insert(e.game, out.entries.len());
                        out.entries.push(e);
                    }
                    Some(&first) => {
                        out.duplicates += 1;
                        if out.entries[first] != e && !out.conflicts.contains(&e.game) {
                            out.conflicts.push(e.game);
                        }
                    }
                }
                offset += raw.len();
                out.valid_len = offset as u64;
            }
            _ if last => out.torn = true,
            Ok(_) | Err(_) => {
                return Err(ArenaError::journal(
                    path,
                    format!("line {} is not a journal entry", i + 1),
                ));
            }
        }
    }
    Ok(out)
}

/// An open journal to append to.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: File,
}

impl Journal {
    /// Opens (creating if needed) the journal at `path` for appending, after cutting
    /// off a torn last line; returns it with the games already recorded.
    pub fn open(path: &Path) -> Result<(Journal, Contents), ArenaError> {
        let contents = read(path)?;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| ArenaError::io(path, e))?;
        let len = file.metadata().map_err(|e| ArenaError::io(path, e))?.len();
        if len != contents.valid_len {
            file.set_len(contents.valid_len)
                .and_then(|()| file.sync_all())
                .map_err(|e| ArenaError::io(path, e))?;
        }
        Ok((
            Journal {
                path: path.to_path_buf(),
                file,
            },
            contents,
        ))
    }

    /// Appends one entry as a single line, flushed and synced to disk.
    pub fn append(&mut self, e: &Entry) -> Result<(), ArenaError> {
        let mut line = serde_json::to_string(e)
            .map_err(|err| ArenaError::journal(&self.path, err.to_string()))?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .and_then(|()| self.file.sync_data())
            .map_err(|err| ArenaError::io(&self.path, err))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(game: u32) -> Entry {
        Entry {
            black_move_ms: Some(vec![200; 5]),
            white_move_ms: Some(vec![400; 5]),
            ..Entry::resigned(game, "A", "B", Some("B"))
        }
    }

    /// A scratch directory, removed when dropped (a failing test included).
    fn temp_dir(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("tengen-journal-{name}-"))
            .tempdir()
            .unwrap()
    }

    #[test]
    fn torn_tail_is_ignored_and_cut() {
        let dir = temp_dir("torn");
        let path = dir.path().join(JOURNAL_FILE);
        {
            let (mut j, c) = Journal::open(&path).unwrap();
            assert!(c.entries.is_empty());
            j.append(&entry(1)).unwrap();
            j.append(&entry(2)).unwrap();
        }
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(br#"{"game":3,"black":"A","whi"#).unwrap();
        drop(f);
        let c = read(&path).unwrap();
        assert_eq!(c.entries.len(), 2);
        assert!(c.torn);
        {
            let (mut j, c) = Journal::open(&path).unwrap();
            assert_eq!(c.entries.len(), 2);
            j.append(&entry(3)).unwrap();
        }
        let c = read(&path).unwrap();
        assert_eq!(
            c.entries.iter().map(|e| e.game).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        assert!(!c.torn);
    }

    #[test]
    fn duplicates_count_once_and_damage_is_an_error() {
        let dir = temp_dir("dup");
        let path = dir.path().join(JOURNAL_FILE);
        let line = serde_json::to_string(&entry(1)).unwrap();
        std::fs::write(&path, format!("{line}\n{line}\n")).unwrap();
        let c = read(&path).unwrap();
        assert_eq!((c.entries.len(), c.duplicates), (1, 1));
        assert!(c.conflicts.is_empty());
        let mut other = entry(1);
        other.result = "W+R".into();
        let other = serde_json::to_string(&other).unwrap();
        std::fs::write(&path, format!("{line}\n{other}\n")).unwrap();
        let c = read(&path).unwrap();
        assert_eq!(
            (c.entries[0].result.as_str(), c.conflicts),
            ("B+R", vec![1])
        );
        std::fs::write(&path, format!("garbage\n{line}\n")).unwrap();
        assert!(read(&path).is_err());
        assert!(
            read(&dir.path().join("missing.jsonl"))
                .unwrap()
                .entries
                .is_empty()
        );
    }
}
