//! Openings: positions the engines start from, each played twice (once from each side).
//!
//! `--openings FILE` is either an SGF file (its main line is one opening) or a text
//! file with one opening a line: a move sequence (`D4 F6 C5 pass`, Black first,
//! separated by spaces or commas) or the path of an SGF file (relative to the list's
//! folder). Blank lines and lines starting with `#` are skipped. Every opening is
//! checked by a referee game at load time.

use std::fs;
use std::path::{Path, PathBuf};

use tengen_board::sgf::parse_sgf;
use tengen_board::{BoardSize, Color, Game, Move, Rules};

use crate::error::ArenaError;

/// One opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Where it comes from (file name, or file and line).
    pub name: String,
    /// The moves, in order.
    pub moves: Vec<(Color, Move)>,
}

fn err(path: &Path, problem: impl Into<String>) -> ArenaError {
    ArenaError::Openings {
        path: path.to_path_buf(),
        problem: problem.into(),
    }
}

/// Loads the openings from `path` for a board of `size`.
pub fn load(path: &Path, size: BoardSize, rules: Rules) -> Result<Vec<Opening>, ArenaError> {
    let text = fs::read_to_string(path).map_err(|e| err(path, format!("cannot read: {e}")))?;
    let is_sgf = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
        || text.trim_start().starts_with("(;");
    let openings = if is_sgf {
        vec![from_sgf(path, &text, size)?]
    } else {
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut out = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line.to_ascii_lowercase().ends_with(".sgf") {
                let file: PathBuf = dir.join(line);
                let t = fs::read_to_string(&file)
                    .map_err(|e| err(&file, format!("cannot read (line {}): {e}", i + 1)))?;
                out.push(from_sgf(&file, &t, size)?);
            } else {
                let moves = parse_sequence(line, size, rules)
                    .map_err(|m| err(path, format!("line {}: {m}", i + 1)))?;
                out.push(Opening {
                    name: format!("{} line {}", file_name(path), i + 1),
                    moves,
                });
            }
        }
        out
    };
    if openings.is_empty() {
        return Err(err(path, "holds no opening"));
    }
    Ok(openings)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// The main line of an SGF record as an opening (its size must be the match's).
fn from_sgf(path: &Path, text: &str, size: BoardSize) -> Result<Opening, ArenaError> {
    let rec = parse_sgf(text).map_err(|e| err(path, e.to_string()))?;
    if rec.game.size() != size {
        return Err(err(
            path,
            format!("board size {} but the match is on {size}", rec.game.size()),
        ));
    }
    if !rec.game.setup_stones().is_empty() {
        return Err(err(
            path,
            "setup stones (AB/AW) are not supported in openings; use moves",
        ));
    }
    Ok(Opening {
        name: file_name(path),
        moves: rec.game.moves().collect(),
    })
}

/// A move sequence, Black first, each move checked.
pub fn parse_sequence(
    line: &str,
    size: BoardSize,
    rules: Rules,
) -> Result<Vec<(Color, Move)>, String> {
    let mut game = Game::new(size, rules);
    let mut c = Color::Black;
    let mut moves = Vec::new();
    for word in line.split([' ', ',', '\t', ';']).filter(|w| !w.is_empty()) {
        let m = size
            .parse_move(word)
            .map_err(|e| format!("{word:?}: {e}"))?;
        game.play(c, m)
            .map_err(|e| format!("move {} {word} is illegal: {e}", moves.len() + 1))?;
        moves.push((c, m));
        c = c.opponent();
    }
    if moves.is_empty() {
        return Err("no moves".into());
    }
    if game.is_over() {
        return Err("the opening ends the game with two passes".into());
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences() {
        let s = BoardSize::new(9).unwrap();
        let r = Rules::chinese();
        let m = parse_sequence("E5 C3, pass", s, r).unwrap();
        assert_eq!(m.len(), 3);
        assert_eq!(m[1].0, Color::White);
        assert!(
            parse_sequence("E5 E5", s, r)
                .unwrap_err()
                .contains("illegal")
        );
        assert!(parse_sequence("Z9", s, r).is_err());
        assert!(parse_sequence("pass pass", s, r).is_err());
    }
}
