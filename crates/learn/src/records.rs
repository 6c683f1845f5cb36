//! The games of SGF collections, streamed one at a time: a trainer reads records far
//! larger than memory, so each game is parsed, handed over and dropped before the
//! next is read ([`SgfGames`]).

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use tengen_board::Game;
use tengen_board::sgf::{SgfError, SgfGame, SgfGames};

/// Which games of which record files to read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// SGF collections (or single records), read in order.
    pub files: Vec<PathBuf>,
    /// Games skipped first, counted over all the files.
    pub skip: u64,
    /// The most games read after the skipped ones; `None` reads them all.
    pub games: Option<u64>,
}

/// What a pass over the records read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games read (after the skipped ones), the refused ones included.
    pub read: u64,
    /// Games the files hold that could not be read as a game.
    pub refused: u64,
}

/// Why a pass over the records stopped before their end.
#[derive(Debug)]
pub enum StreamError<E> {
    /// A record file could not be opened.
    Open {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// The visitor of a game stopped the pass.
    Visit(E),
}

impl<E: std::fmt::Display> std::fmt::Display for StreamError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StreamError::Open { path, error } => write!(f, "{}: {error}", path.display()),
            StreamError::Visit(e) => e.fmt(f),
        }
    }
}

impl<E: std::fmt::Debug + std::fmt::Display> std::error::Error for StreamError<E> {}

/// Calls `visit` on each game of `selection`, in order, until it returns an error;
/// `refused` hears of each game a file holds that is not one (its file, its number
/// counted from 1 over all the files, why), and the pass goes on.
pub fn for_each_game<E>(
    selection: &Selection,
    mut visit: impl FnMut(&Game) -> Result<(), E>,
    refused: impl FnMut(&Path, u64, &SgfError),
) -> Result<Tally, StreamError<E>> {
    for_each_record(selection, |g| visit(&g.game), refused)
}

/// [`for_each_game`] with each game's record: the game and what the record says
/// besides the moves (its date, result, …).
pub fn for_each_record<E>(
    selection: &Selection,
    mut visit: impl FnMut(&SgfGame) -> Result<(), E>,
    mut refused: impl FnMut(&Path, u64, &SgfError),
) -> Result<Tally, StreamError<E>> {
    let mut tally = Tally::default();
    let mut seen = 0u64;
    for path in &selection.files {
        let file = File::open(path).map_err(|error| StreamError::Open {
            path: path.clone(),
            error,
        })?;
        for game in SgfGames::new(BufReader::new(file)) {
            if selection.games.is_some_and(|n| tally.read >= n) {
                return Ok(tally);
            }
            seen += 1;
            if seen <= selection.skip {
                continue;
            }
            match game {
                Ok(g) => visit(&g).map_err(StreamError::Visit)?,
                Err(e) => {
                    tally.refused += 1;
                    refused(path, seen, &e);
                }
            }
            tally.read += 1;
        }
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two files of three and two games; the second game of the first is broken.
    fn files(dir: &Path) -> Vec<PathBuf> {
        let a = dir.join("a.sgf");
        let b = dir.join("b.sgf");
        std::fs::write(&a, "(;SZ[9];B[ee])\n(;SZ[9];B[zz9])\n(;SZ[9];B[cc];W[gg])").unwrap();
        std::fs::write(&b, "(;SZ[9];B[dd])(;SZ[9];B[ff];W[dd];B[cc])").unwrap();
        vec![a, b]
    }

    /// The games' move counts a selection reads, and the numbers of the refused.
    fn read(selection: &Selection) -> (Vec<usize>, Vec<u64>, Tally) {
        let (mut moves, mut refused) = (Vec::new(), Vec::new());
        let tally = for_each_game(
            selection,
            |g| {
                moves.push(g.move_count());
                Ok::<(), String>(())
            },
            |_, n, _| refused.push(n),
        )
        .unwrap();
        (moves, refused, tally)
    }

    #[test]
    fn games_stream_in_order_with_skip_and_limit_and_refusals() {
        let tmp = tempfile::tempdir().unwrap();
        let files = files(tmp.path());
        let all = Selection {
            files: files.clone(),
            ..Selection::default()
        };
        let (moves, refused, tally) = read(&all);
        assert_eq!(moves, [1, 2, 1, 3]);
        assert_eq!(refused, [2]);
        assert_eq!(
            tally,
            Tally {
                read: 5,
                refused: 1
            }
        );
        // Skip two games (the refused one among them), then read two, across files.
        let some = Selection {
            files,
            skip: 2,
            games: Some(2),
        };
        let (moves, refused, tally) = read(&some);
        assert_eq!((moves, refused), (vec![2, 1], vec![]));
        assert_eq!(
            tally,
            Tally {
                read: 2,
                refused: 0
            }
        );
    }

    #[test]
    fn a_missing_file_and_a_visitor_error_stop_the_pass() {
        let tmp = tempfile::tempdir().unwrap();
        let mut files = files(tmp.path());
        files.insert(1, tmp.path().join("missing.sgf"));
        let selection = Selection {
            files,
            ..Selection::default()
        };
        let e = for_each_game(&selection, |_| Ok::<(), String>(()), |_, _, _| {}).unwrap_err();
        assert!(e.to_string().contains("missing.sgf"), "{e}");
        let mut visited = 0;
        let e = for_each_game(
            &selection,
            |_| {
                visited += 1;
                Err("enough")
            },
            |_, _, _| {},
        )
        .unwrap_err();
        assert_eq!((e.to_string(), visited), ("enough".to_string(), 1));
    }
}
