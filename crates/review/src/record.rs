//! The record under review: its whole game tree as read (comments, variations and
//! properties Tengen does not know, all kept for the output), and its main line
//! replayed on the board, one position a move.

use sgf_parse::go::{self, Prop};
use sgf_parse::{GameTree, SgfNode};
use tengen_board::sgf::{GameInfo, MAX_TREE_BYTES, MAX_TREE_DEPTH, parse_sgf, parse_sgf_until};
use tengen_board::{BoardSize, Color, Game, IllegalMove, Move};

use crate::error::ReviewError;

/// One node of the record's main line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LineNode {
    /// The position the node shows: the number of reviewed moves played up to and
    /// including it.
    pub position: usize,
    /// The node's move, when it is one of the reviewed moves (a move the board could
    /// not take is left out, as loading the record leaves it out).
    pub mv: Option<(Color, Move)>,
}

/// A record read for review.
#[derive(Debug)]
pub struct Record {
    /// The first game tree, as read.
    pub(crate) root: SgfNode<Prop>,
    /// The position before the first move, with the record's rules and komi.
    pub(crate) start: Game,
    /// The main line, root first.
    pub(crate) line: Vec<LineNode>,
    /// The reviewed moves: position `p` is the start after the first `p` of them.
    pub(crate) moves: Vec<(Color, Move)>,
    /// Players, result and the like.
    pub(crate) info: GameInfo,
    /// What was read despite a flaw, or is worth a word, one line each.
    pub(crate) warnings: Vec<String>,
    /// Each node's properties as they stand in the text (identifier and values,
    /// escapes and all), node by node in the order of the text, which is the order the
    /// tree's nodes are written in: what the review writes back for them.
    pub(crate) raw: Vec<Vec<String>>,
}

impl Record {
    /// Reads the first game tree of an SGF collection and replays its main line.
    pub fn parse(text: &str) -> Result<Record, ReviewError> {
        let text = text.trim_start_matches('\u{feff}');
        if text.len() > MAX_TREE_BYTES {
            return Err(ReviewError::Record(format!(
                "{} bytes, more than the {MAX_TREE_BYTES} a record may have",
                text.len()
            )));
        }
        // The loader checks the main line: syntax, board size, rules, every move.
        let loaded = parse_sgf(text).map_err(|e| ReviewError::Record(e.to_string()))?;
        let start = parse_sgf_until(text, 1)
            .map_err(|e| ReviewError::Record(e.to_string()))?
            .game;
        // Text before the first game tree (mail headers) is skipped, as the loader
        // skips it.
        let text = &text[text.find('(').unwrap_or(0)..];
        let depth = deepest_line(text);
        if depth > MAX_TREE_DEPTH {
            return Err(ReviewError::Record(format!(
                "a line of {depth} nodes, more than the {MAX_TREE_DEPTH} a record may have"
            )));
        }
        let mut trees =
            sgf_parse::parse(text).map_err(|e| ReviewError::Record(format!("SGF: {e}")))?;
        // The parser reads the text it was given; a scan it cannot make (it read the
        // text, so there is none) leaves each property to be written from its value.
        let raw = raw_properties(text).unwrap_or_default();
        // What the loader ignores is still written back, as it was read.
        let mut warnings: Vec<String> = loaded
            .warnings
            .iter()
            .map(|w| match w.strip_suffix(": ignored") {
                Some(what) => format!("{what}: not read, but written back as it was"),
                None => w.clone(),
            })
            .collect();
        if trees.len() > 1 {
            warnings.push(format!(
                "the file holds {} game trees: the first is reviewed, the others are not written",
                trees.len()
            ));
        }
        let root = match trees.swap_remove(0) {
            GameTree::GoGame(root) => root,
            GameTree::Unknown(_) => {
                return Err(ReviewError::Record("not a Go record".into()));
            }
        };
        let mut record = Record {
            root,
            start,
            line: Vec::new(),
            moves: Vec::new(),
            info: loaded.info,
            warnings,
            raw,
        };
        record.replay()?;
        if record.moves.is_empty() {
            return Err(ReviewError::NoMoves);
        }
        let area = record.size().area();
        if record.moves.len() > 2 * area {
            let (n, side) = (record.moves.len(), record.size());
            record.warnings.push(format!(
                "the record has {n} moves, more than twice the {area} points of a {side}x{side} \
                 board: a real game is shorter; all {} positions are analysed",
                n + 1
            ));
        }
        Ok(record)
    }

    /// Replays the main line from the start position, node by node.
    fn replay(&mut self) -> Result<(), ReviewError> {
        let size = self.size();
        let mut game = self.start.clone();
        let mut line = Vec::new();
        let mut moves = Vec::new();
        let mut moves_read = 0;
        for node in self.root.main_variation() {
            let mut mv = None;
            let mut setup = false;
            for prop in node.properties() {
                match prop {
                    Prop::B(m) => mv = Some((Color::Black, *m)),
                    Prop::W(m) => mv = Some((Color::White, *m)),
                    Prop::AB(_) | Prop::AW(_) | Prop::AE(_) => setup = true,
                    _ => {}
                }
            }
            if setup && moves_read > 0 {
                let at = match mv {
                    Some(_) => format!("with move {}", moves_read + 1),
                    None => format!("after move {moves_read}"),
                };
                return Err(ReviewError::Unsupported(format!(
                    "setup stones (AB, AW or AE) {at}: a review follows a game played out \
                     from one position"
                )));
            }
            let mut reviewed = None;
            if let Some((c, m)) = mv {
                moves_read += 1;
                let m = board_move(size, m).ok_or_else(|| {
                    ReviewError::Record(format!("move {moves_read} is off the board"))
                })?;
                match game.replay(c, m) {
                    Ok(_) => {
                        moves.push((c, m));
                        reviewed = Some((c, m));
                    }
                    // The loader left it out too, with a warning.
                    Err(IllegalMove::Occupied | IllegalMove::Suicide) => {}
                    Err(e) => {
                        return Err(ReviewError::Record(format!(
                            "move {moves_read} ({} {}): {e}",
                            c.letter(),
                            size.move_vertex(m)
                        )));
                    }
                }
            }
            line.push(LineNode {
                position: moves.len(),
                mv: reviewed,
            });
        }
        self.line = line;
        self.moves = moves;
        Ok(())
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        self.start.size()
    }

    /// The number of positions to analyse: the start and one after each move.
    pub fn positions(&self) -> usize {
        self.moves.len() + 1
    }

    /// The reviewed moves, in order.
    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }

    /// What was read despite a flaw, or is worth a word, one line each.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The players' names, Black's first, where the record gives them.
    pub fn players(&self) -> (Option<&str>, Option<&str>) {
        (self.info.black.as_deref(), self.info.white.as_deref())
    }

    /// The game at position `p` (after `p` moves; at most [`Record::positions`] − 1).
    pub fn game_at(&self, p: usize) -> Game {
        let mut game = self.start.clone();
        for &(c, m) in &self.moves[..p.min(self.moves.len())] {
            // Each move was replayed on this very sequence when the record was read.
            let _ = game.replay(c, m);
        }
        game
    }

    /// The side whose move is analysed at position `p`: the colour of the record's
    /// next move, or after the last move the side to move.
    pub fn to_move_at(&self, p: usize) -> Color {
        match self.moves.get(p) {
            Some(&(c, _)) => c,
            None => self
                .moves
                .last()
                .map_or(self.start.to_move(), |&(c, _)| c.opponent()),
        }
    }
}

/// The board move of an SGF move: `tt` is a pass on boards up to 19×19; `None` off the
/// board.
pub(crate) fn board_move(size: BoardSize, m: go::Move) -> Option<Move> {
    let n = size.get();
    match m {
        go::Move::Pass => Some(Move::Pass),
        go::Move::Move(p) if n <= 19 && p.x == 19 && p.y == 19 => Some(Move::Pass),
        go::Move::Move(p) => {
            let (x, y) = (usize::from(p.x), usize::from(p.y));
            (x < n && y < n)
                .then(|| size.point(x, n - 1 - y))
                .flatten()
                .map(Move::Play)
        }
    }
}

/// The SGF move of a board move.
pub(crate) fn sgf_move(size: BoardSize, m: Move) -> go::Move {
    match m {
        Move::Pass => go::Move::Pass,
        Move::Play(p) => {
            let (x, y) = size.coords(p);
            let row = size.get() - 1 - y;
            go::Move::Move(go::Point {
                x: x as u8,
                y: row as u8,
            })
        }
    }
}

/// The properties of each node of the first game tree of `text` (which starts at its
/// first `(`) exactly as they stand in it: `SZ[19]`, `AP[a:b:c]`, `AB[aa][bb]`, node by
/// node in the order of the text. The scan follows `sgf_parse`'s lexer token for token
/// (white space after a token skipped, a property's values possibly apart), so the
/// `k`-th node's list lines up with the parsed node's properties. `None` where the
/// lexer would fail.
pub(crate) fn raw_properties(text: &str) -> Option<Vec<Vec<String>>> {
    let bytes = text.as_bytes();
    let skip_space = |mut i: usize| {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    let mut nodes: Vec<Vec<String>> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => {
                depth += 1;
                i += 1;
            }
            b')' => {
                depth = depth.checked_sub(1)?;
                i += 1;
                if depth == 0 {
                    break;
                }
            }
            b';' => {
                nodes.push(Vec::new());
                i += 1;
            }
            _ => {
                let start = i;
                // The identifier: ASCII up to the first `[`.
                while i < bytes.len() && bytes[i] != b'[' {
                    if !bytes[i].is_ascii() {
                        return None;
                    }
                    i += 1;
                }
                if i == bytes.len() {
                    return None;
                }
                // The values, each up to its unescaped `]`.
                let mut end = i;
                loop {
                    let at = skip_space(end);
                    if bytes.get(at) != Some(&b'[') {
                        break;
                    }
                    let mut j = at + 1;
                    let mut escaped = false;
                    loop {
                        match *bytes.get(j)? {
                            b']' if !escaped => break,
                            b'\\' if !escaped => escaped = true,
                            _ => escaped = false,
                        }
                        j += 1;
                    }
                    end = j + 1;
                }
                nodes.last_mut()?.push(text[start..end].to_string());
                i = end;
            }
        }
        i = skip_space(i);
    }
    Some(nodes)
}

/// The most nodes along any line of the collection `text` (nodes in nested
/// variations add up), read without building the tree: what a deep tree would cost to
/// build and to drop is known before it is built.
pub(crate) fn deepest_line(text: &str) -> usize {
    let mut depth = 0usize;
    let mut deepest = 0usize;
    let mut at_open: Vec<usize> = Vec::new();
    let mut in_value = false;
    let mut escaped = false;
    for ch in text.chars() {
        if in_value {
            match ch {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                ']' => in_value = false,
                _ => {}
            }
            continue;
        }
        match ch {
            '[' => in_value = true,
            '(' => at_open.push(depth),
            ')' => depth = at_open.pop().unwrap_or(0),
            ';' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            _ => {}
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_main_line_is_replayed_node_by_node() {
        let r = Record::parse("(;SZ[9]KM[6.5]C[hi];B[ee];W[cc]C[x](;B[gg];W[]C[end])(;B[cg]))")
            .unwrap();
        assert_eq!(r.positions(), 5);
        let positions: Vec<usize> = r.line.iter().map(|n| n.position).collect();
        assert_eq!(positions, vec![0, 1, 2, 3, 4]);
        assert_eq!(r.moves[3], (Color::White, Move::Pass));
        assert_eq!(r.to_move_at(0), Color::Black);
        assert_eq!(r.to_move_at(4), Color::Black);
        assert_eq!(r.game_at(2).move_count(), 2);
        assert_eq!(r.start.rules().komi(), 6.5);
    }

    #[test]
    fn what_cannot_be_reviewed_is_refused() {
        assert_eq!(
            Record::parse("(;SZ[9]C[empty])").unwrap_err(),
            ReviewError::NoMoves
        );
        assert!(matches!(
            Record::parse("(;SZ[9];B[ee]"),
            Err(ReviewError::Record(_))
        ));
        assert!(matches!(
            Record::parse("(;SZ[9];B[ee];W[cc]AB[aa];B[dd])"),
            Err(ReviewError::Unsupported(_))
        ));
        assert!(matches!(
            Record::parse("(;SZ[27];B[ee])"),
            Err(ReviewError::Record(_))
        ));
        let deep = format!("(;SZ[9]({}))", ";C[x]".repeat(MAX_TREE_DEPTH + 1));
        assert!(matches!(Record::parse(&deep), Err(ReviewError::Record(_))));
    }

    #[test]
    fn a_move_the_board_cannot_take_is_left_out_with_a_warning() {
        let r = Record::parse("(;SZ[9];B[ee];W[ee];W[cc])").unwrap();
        assert_eq!(r.moves.len(), 2);
        assert_eq!(r.line[2].mv, None);
        assert_eq!(r.line[2].position, 1);
        assert!(
            r.warnings[0].contains("move 2 (W E5) skipped"),
            "{:?}",
            r.warnings
        );
    }

    #[test]
    fn a_malformed_property_is_kept_as_read_with_a_warning() {
        let text = "(;GM[1]SZ[19]AP[Tygem:1.0:beta]HA[x];B[pd];W[dp])";
        let r = Record::parse(text).unwrap();
        assert!(
            r.warnings
                .iter()
                .any(|w| w.ends_with(": not read, but written back as it was")),
            "{:?}",
            r.warnings
        );
        assert_eq!(r.raw[0], ["GM[1]", "SZ[19]", "AP[Tygem:1.0:beta]", "HA[x]"]);
        assert_eq!(r.raw.len(), 3);
    }

    #[test]
    fn the_nesting_of_variations_counts_in_a_line() {
        assert_eq!(deepest_line("(;a;b(;c;d)(;e))"), 4);
        assert_eq!(deepest_line("(;C[(;;;;])"), 1);
        assert_eq!(deepest_line("(;C[\\];;;]))"), 1);
    }
}
