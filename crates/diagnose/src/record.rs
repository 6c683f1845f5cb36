//! The match records read: SGF files as `tengen match` writes them (players in `PB`/`PW`,
//! the result in `RE`), given one by one, as a match directory (its `journal.jsonl`
//! names the records in game order; without one, every `*.sgf` in it) or as the journal
//! itself.

use std::path::{Path, PathBuf};

use tengen_arena::journal;
use tengen_board::sgf::parse_sgf;
use tengen_board::{BoardSize, Color, Game, Move};

use crate::error::DiagnoseError;

/// One game of a match, replayed.
#[derive(Debug, Clone)]
pub struct MatchGame {
    /// How the game is named in the report: the record's file name.
    pub name: String,
    /// Black's name (`PB`), empty when the record has none.
    pub black: String,
    /// White's name (`PW`), empty when the record has none.
    pub white: String,
    /// The result as recorded (`RE`), empty when the record has none.
    pub result: String,
    /// The whole game: rules, komi, setup and every move.
    pub game: Game,
}

impl MatchGame {
    /// Reads a record's text; `name` names it in errors and in the report.
    pub fn parse(name: &str, text: &str) -> Result<MatchGame, DiagnoseError> {
        let loaded = parse_sgf(text).map_err(|e| DiagnoseError::Record {
            path: name.to_string(),
            message: e.to_string(),
        })?;
        Ok(MatchGame {
            name: name.to_string(),
            black: loaded.info.black.unwrap_or_default(),
            white: loaded.info.white.unwrap_or_default(),
            result: loaded.info.result.unwrap_or_default(),
            game: loaded.game,
        })
    }

    /// Reads the record at `path`.
    pub fn load(path: &Path) -> Result<MatchGame, DiagnoseError> {
        let bytes = std::fs::read(path).map_err(|e| DiagnoseError::Read {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        let text = String::from_utf8_lossy(&bytes);
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        MatchGame::parse(&name, &text)
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        self.game.size()
    }

    /// The moves played, passes included.
    pub fn moves(&self) -> Vec<(Color, Move)> {
        self.game.moves().collect()
    }

    /// The colour the result names as the winner (`B+…`, `W+…`); `None` for a draw,
    /// a void game or no result.
    pub fn winner(&self) -> Option<Color> {
        let r = self.result.trim().to_ascii_uppercase();
        if r.starts_with("B+") {
            Some(Color::Black)
        } else if r.starts_with("W+") {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The colour `engine` played: the side whose name is `engine` (ASCII case
    /// ignored). `None` when neither side or both sides have that name.
    pub fn side_of(&self, engine: &str) -> Option<Color> {
        let b = self.black.eq_ignore_ascii_case(engine);
        let w = self.white.eq_ignore_ascii_case(engine);
        match (b, w) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        }
    }

    /// The position after the first `moves` moves (the whole game when `moves` is
    /// past its end).
    pub fn position(&self, moves: usize) -> Game {
        let mut g = self.game.clone();
        while g.move_count() > moves {
            if g.undo().is_none() {
                break;
            }
        }
        g
    }
}

/// The record files `inputs` name, in order: a file ending in `.jsonl` is a match
/// journal (its games' records, by game number), a directory is a match directory
/// (its journal if it has one, else its `*.sgf` files by name), any other path a
/// record.
pub fn record_paths(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, DiagnoseError> {
    let mut out = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let journal = input.join(journal::JOURNAL_FILE);
            if journal.is_file() {
                out.extend(journal_records(&journal)?);
            } else {
                out.extend(sgf_files(input)?);
            }
        } else if input.extension().is_some_and(|e| e == "jsonl") {
            out.extend(journal_records(input)?);
        } else {
            out.push(input.clone());
        }
    }
    Ok(out)
}

/// The records a journal names, by game number, beside the journal.
fn journal_records(path: &Path) -> Result<Vec<PathBuf>, DiagnoseError> {
    let contents = journal::read(path).map_err(|e| DiagnoseError::Read {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut entries = contents.entries;
    entries.sort_by_key(|e| e.game);
    Ok(entries
        .iter()
        .filter(|e| !e.sgf.is_empty())
        .map(|e| dir.join(&e.sgf))
        .collect())
}

/// The `*.sgf` files of a directory, by name.
fn sgf_files(dir: &Path) -> Result<Vec<PathBuf>, DiagnoseError> {
    let read = std::fs::read_dir(dir).map_err(|e| DiagnoseError::Read {
        path: dir.display().to_string(),
        message: e.to_string(),
    })?;
    let mut files: Vec<PathBuf> = read
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")))
        .collect();
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "(;SZ[9]KM[7.5]PB[tengen]PW[pachi]RE[W+R];B[ee];W[cc];B[gg])";

    #[test]
    fn a_record_names_its_players_winner_and_positions() {
        let g = MatchGame::parse("g.sgf", GAME).unwrap();
        assert_eq!(g.side_of("Tengen"), Some(Color::Black));
        assert_eq!(g.side_of("pachi"), Some(Color::White));
        assert_eq!(g.side_of("gnugo"), None);
        assert_eq!(g.winner(), Some(Color::White));
        assert_eq!(g.moves().len(), 3);
        assert_eq!(g.position(1).move_count(), 1);
        assert_eq!(g.position(9).move_count(), 3);
        assert_eq!(g.position(0).move_count(), 0);
        assert!(g.position(0).board().stones(Color::Black).is_empty());
    }

    #[test]
    fn a_broken_record_is_an_error_naming_it() {
        let e = MatchGame::parse("bad.sgf", "(;SZ[9];B[zz").unwrap_err();
        assert!(e.to_string().starts_with("bad.sgf: "), "{e}");
    }

    #[test]
    fn a_directory_without_a_journal_gives_its_records_by_name() {
        let dir = std::env::temp_dir().join(format!("tengen-diagnose-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["b.sgf", "a.sgf", "notes.txt"] {
            std::fs::write(dir.join(name), GAME).unwrap();
        }
        let paths = record_paths(std::slice::from_ref(&dir)).unwrap();
        let names: Vec<_> = paths
            .iter()
            .map(|p| p.file_name().unwrap().to_owned())
            .collect();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(names, ["a.sgf", "b.sgf"]);
    }
}
