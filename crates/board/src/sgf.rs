//! SGF in and out for a [`Game`]: the main line of a Go record (`FF[1]` to `FF[4]`).
//!
//! Reading takes the first game tree of a collection and follows its main line (the
//! first child of every node). It understands:
//!
//! - `SZ` (square boards 2..=25; 19 when absent), `KM` (the rules' own komi when
//!   absent), `RU` (through [`Rules`]'s names; an unknown name means Chinese), `HA`;
//! - setup `AB`/`AW`/`AE` in the nodes before the first move (a setup that leaves a
//!   group without liberties is refused); setup after a move is [`SgfError::Unsupported`];
//! - `PL`, then `B`/`W` moves and passes (`B[]`, and `B[tt]` on boards up to 19×19),
//!   each checked by [`Game::play`] under the record's rules;
//! - `PB`, `PW`, `RE`, `DT`, `EV`, `TM` and the `C` comments into [`GameInfo`].
//!
//! Everything else (markup, variations, other game info) is ignored. Reading never
//! panics: whatever the input, the answer is an [`SgfGame`] or an [`SgfError`].
//!
//! ```
//! use tengen_board::sgf::{parse_sgf, write_sgf};
//!
//! let record = parse_sgf("(;FF[4]GM[1]SZ[9]KM[7]PB[Ann];B[ee];W[cc];B[])").unwrap();
//! assert_eq!(record.game.move_count(), 3);
//! assert_eq!(record.game.rules().komi(), 7.0);
//! assert_eq!(record.info.black.as_deref(), Some("Ann"));
//! let again = parse_sgf(&write_sgf(&record.game, &record.info)).unwrap();
//! assert!(again.game.moves().eq(record.game.moves()));
//! ```

use std::fmt;
use std::fmt::Write as _;

use sgf_parse::go::{self, Prop};
use sgf_parse::{GameTree, SgfNode};

use crate::board::IllegalMove;
use crate::color::Color;
use crate::game::Game;
use crate::point::{BoardSize, MAX_SIZE, MIN_SIZE, Move, Point};
use crate::rules::{Rules, Scoring};

/// The deepest game tree read, in nodes along any line. The parser builds and drops
/// trees recursively; this bound keeps that far from any thread's stack limit, and is
/// far beyond any real game (a long game has about 400 moves).
pub const MAX_TREE_DEPTH: usize = 5_000;

/// A game read from SGF: the position and history, and the record's other data.
#[derive(Clone, Debug)]
pub struct SgfGame {
    /// The game: rules, setup, every move played.
    pub game: Game,
    /// Players, result, date, comments and so on.
    pub info: GameInfo,
}

/// What an SGF record says besides the moves.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameInfo {
    /// Black's name (`PB`).
    pub black: Option<String>,
    /// White's name (`PW`).
    pub white: Option<String>,
    /// The result (`RE`), as written: `B+3.5`, `W+R`, `0`…
    pub result: Option<String>,
    /// The date (`DT`).
    pub date: Option<String>,
    /// The event (`EV`).
    pub event: Option<String>,
    /// Comments (`C`) by move number: 0 is the root (before any move), `k` the node
    /// of the `k`-th move (1-based). Several entries may share a number.
    pub comments: Vec<(usize, String)>,
    /// The main time in seconds (`TM`).
    pub time_limit: Option<f64>,
}

/// Why an SGF record could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfError {
    /// Not well-formed SGF (unbalanced brackets, no game tree, …).
    Parse(String),
    /// Well-formed, but something Tengen does not play (another game, a rectangular
    /// or oversized board, setup in the middle of the game, …).
    Unsupported(String),
    /// Move `number` (1-based, passes counted) is illegal: `mv` is the move as
    /// `B D4` followed by the reason in parentheses.
    IllegalMove {
        /// The 1-based number of the move in the main line.
        number: usize,
        /// The move and why it is illegal, e.g. `W C3 (ko recapture)`.
        mv: String,
    },
    /// A property's value is malformed or out of range (`SZ[x]`, `KM[nan]`, `B[z9]`, …).
    BadProperty(String),
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfError::Parse(m) => write!(f, "SGF syntax error: {m}"),
            SgfError::Unsupported(m) => write!(f, "unsupported SGF: {m}"),
            SgfError::IllegalMove { number, mv } => write!(f, "illegal move {number}: {mv}"),
            SgfError::BadProperty(m) => write!(f, "bad SGF property: {m}"),
        }
    }
}

impl std::error::Error for SgfError {}

/// Reads the main line of the first game tree of an SGF collection.
pub fn parse_sgf(text: &str) -> Result<SgfGame, SgfError> {
    read(text, usize::MAX)
}

/// Reads the position before move `move_number` of the main line (GTP's
/// `loadsgf FILE N`): 1 (or 0) gives the start position, a number past the last move
/// the whole game. Moves, comments and errors after the stopping point are not read.
pub fn parse_sgf_until(text: &str, move_number: usize) -> Result<SgfGame, SgfError> {
    read(text, move_number.max(1))
}

/// Writes a game as an `FF[4]` record: root properties (`SZ`, `KM`, `RU`, `HA`, setup
/// stones, `PL` where a reader could not infer it, the game info present in `info`),
/// then the moves, each with its comments from `info.comments`.
pub fn write_sgf(game: &Game, info: &GameInfo) -> String {
    let size = game.size();
    let rules = game.rules();
    let mut out = String::from("(;FF[4]GM[1]CA[UTF-8]");
    let _ = write!(out, "AP[Tengen:{}]", env!("CARGO_PKG_VERSION"));
    let _ = write!(out, "SZ[{size}]");
    let _ = write!(out, "KM[{}]", format_real(rules.komi()));
    let ru = if rules.suicide {
        "NZ"
    } else if rules.scoring == Scoring::Territory {
        "Japanese"
    } else {
        "Chinese"
    };
    let _ = write!(out, "RU[{ru}]");
    for (key, value) in [
        ("PB", &info.black),
        ("PW", &info.white),
        ("RE", &info.result),
        ("DT", &info.date),
        ("EV", &info.event),
    ] {
        if let Some(v) = value {
            let _ = write!(out, "{key}[{}]", escape(v));
        }
    }
    if let Some(t) = info.time_limit.filter(|t| t.is_finite()) {
        let _ = write!(out, "TM[{}]", format_real(t));
    }
    if game.handicap() > 0 {
        let _ = write!(out, "HA[{}]", game.handicap());
    }
    let start = game.start_board();
    for (c, key) in [(Color::Black, "AB"), (Color::White, "AW")] {
        let stones: Vec<Point> = start.stones(c).iter().collect();
        if !stones.is_empty() {
            out.push_str(key);
            for p in stones {
                let _ = write!(out, "[{}]", sgf_point(size, p));
            }
        }
    }
    let first = game.moves().next().map(|(c, _)| c);
    // Written after handicap too, where readers would infer it, as is customary.
    if game.start_to_move() != inferred_to_move(first, false) {
        let _ = write!(out, "PL[{}]", game.start_to_move().letter());
    }
    let comment_at = |k: usize| -> Option<String> {
        let texts: Vec<&str> = info
            .comments
            .iter()
            .filter(|(i, _)| *i == k)
            .map(|(_, t)| t.as_str())
            .collect();
        (!texts.is_empty()).then(|| escape(&texts.join("\n\n")))
    };
    let last = game.move_count();
    let late: Vec<&str> = info
        .comments
        .iter()
        .filter(|(i, _)| *i > last)
        .map(|(_, t)| t.as_str())
        .collect();
    let comments_for = |k: usize| -> Option<String> {
        let mut c = comment_at(k);
        if k == last && !late.is_empty() {
            // Comments numbered past the last move go on the last node.
            let extra = escape(&late.join("\n\n"));
            c = Some(match c {
                Some(t) => format!("{t}\n\n{extra}"),
                None => extra,
            });
        }
        c
    };
    if let Some(c) = comments_for(0) {
        let _ = write!(out, "C[{c}]");
    }
    for (k, (c, m)) in game.moves().enumerate() {
        out.push(if k % 10 == 0 { '\n' } else { ' ' });
        let coord = match m {
            Move::Pass => String::new(),
            Move::Play(p) => sgf_point(size, p),
        };
        let _ = write!(out, ";{}[{coord}]", c.letter());
        if let Some(text) = comments_for(k + 1) {
            let _ = write!(out, "C[{text}]");
        }
    }
    out.push_str(")\n");
    out
}

/// Who moves first when `PL` is absent: the colour of the first move, else White after
/// handicap, else Black.
fn inferred_to_move(first_move: Option<Color>, handicap: bool) -> Color {
    match first_move {
        Some(c) => c,
        None if handicap => Color::White,
        None => Color::Black,
    }
}

/// A number without a useless fraction: `7.5`, `6`, `-0.5`.
fn format_real(x: f64) -> String {
    if x == x.trunc() && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// Escapes `\` and `]` for an SGF text value.
fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for ch in text.chars() {
        if ch == '\\' || ch == ']' {
            s.push('\\');
        }
        s.push(ch);
    }
    s
}

/// The SGF letters of a point: column from the left, row from the top.
fn sgf_point(size: BoardSize, p: Point) -> String {
    let (x, y) = size.coords(p);
    let row = size.get() - 1 - y;
    let letter = |i: usize| (b'a' + i as u8) as char;
    format!("{}{}", letter(x), letter(row))
}

fn sgf_letters(p: go::Point) -> String {
    let letter = |i: u8| match i {
        0..=25 => (b'a' + i) as char,
        26..=51 => (b'A' + i - 26) as char,
        _ => '?',
    };
    format!("{}{}", letter(p.x), letter(p.y))
}

/// The board point of an SGF point, `None` off the board.
fn board_point(size: BoardSize, p: go::Point) -> Option<Point> {
    let (x, y) = (usize::from(p.x), usize::from(p.y));
    let n = size.get();
    (x < n && y < n).then(|| size.point(x, n - 1 - y)).flatten()
}

/// The deepest line of nodes in the text (a conservative count: every `;` outside a
/// property value opens a node).
fn tree_depth(text: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let mut opened: Vec<usize> = Vec::new();
    let (mut in_value, mut escaped) = (false, false);
    for b in text.bytes() {
        if in_value {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b']' {
                in_value = false;
            }
            continue;
        }
        match b {
            b'[' => in_value = true,
            b'(' => opened.push(depth),
            b')' => depth = opened.pop().unwrap_or(depth),
            b';' => {
                depth += 1;
                max = max.max(depth);
            }
            _ => {}
        }
    }
    max
}

/// Reads up to (not including) move `stop` (1-based).
fn read(text: &str, stop: usize) -> Result<SgfGame, SgfError> {
    let text = text.trim_start_matches('\u{feff}');
    // Headers before the first game tree (mail or web page remains) are skipped.
    let text = match text.find('(') {
        Some(i) => &text[i..],
        None => return Err(SgfError::Parse("no game tree found".into())),
    };
    let depth = tree_depth(text);
    if depth > MAX_TREE_DEPTH {
        return Err(SgfError::Unsupported(format!(
            "game tree {depth} nodes deep (at most {MAX_TREE_DEPTH} are read)"
        )));
    }
    let trees = sgf_parse::parse(text).map_err(|e| SgfError::Parse(e.to_string()))?;
    let root = match trees.into_iter().next() {
        Some(GameTree::GoGame(root)) => root,
        Some(GameTree::Unknown(root)) => {
            let gm = root
                .properties()
                .find_map(|p| match p {
                    sgf_parse::unknown_game::Prop::GM(g) => Some(g.to_string()),
                    _ => None,
                })
                .unwrap_or_else(|| "?".into());
            return Err(SgfError::Unsupported(format!(
                "not a Go record (GM[{gm}]; Go is GM[1])"
            )));
        }
        None => return Err(SgfError::Parse("no game tree found".into())),
    };
    let mut reader = Reader::new(&root)?;
    for (i, node) in root.main_variation().enumerate() {
        if !reader.node(node, i == 0, stop)? {
            break;
        }
    }
    reader.finish()
}

/// The state of a read in progress.
struct Reader {
    size: BoardSize,
    rules: Option<Rules>,
    komi: Option<f64>,
    handicap: Option<i64>,
    /// The setup position, by SGF point `(x, y)` from the top left, before the game
    /// is built at the first move.
    setup: Vec<Option<Color>>,
    to_move: Option<Color>,
    game: Option<Game>,
    info: GameInfo,
}

impl Reader {
    fn new(root: &SgfNode<Prop>) -> Result<Reader, SgfError> {
        let mut size = BoardSize::NINETEEN;
        for p in root.properties() {
            match p {
                Prop::SZ((w, h)) => {
                    if w != h {
                        return Err(SgfError::Unsupported(format!(
                            "rectangular board SZ[{w}:{h}]"
                        )));
                    }
                    size = BoardSize::new(u32::from(*w)).map_err(|_| {
                        SgfError::Unsupported(format!(
                            "board size {w} (Tengen plays {MIN_SIZE}..={MAX_SIZE})"
                        ))
                    })?;
                }
                Prop::Invalid(id, values) if id == "SZ" => {
                    let v = values.join("][");
                    // A number too large for the parser's u8 is an unsupported size.
                    let digits = v.trim();
                    return Err(
                        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                            SgfError::Unsupported(format!(
                                "board size {v} (Tengen plays {MIN_SIZE}..={MAX_SIZE})"
                            ))
                        } else {
                            SgfError::BadProperty(format!("SZ[{v}] is not a board size"))
                        },
                    );
                }
                _ => {}
            }
        }
        let n = size.get();
        Ok(Reader {
            size,
            rules: None,
            komi: None,
            handicap: None,
            setup: vec![None; n * n],
            to_move: None,
            game: None,
            info: GameInfo::default(),
        })
    }

    fn started(&self) -> bool {
        self.game.as_ref().is_some_and(|g| g.move_count() > 0)
    }

    /// Reads one node of the main line; `false` when the stopping move is reached.
    fn node(&mut self, node: &SgfNode<Prop>, is_root: bool, stop: usize) -> Result<bool, SgfError> {
        let mut mv: Option<(Color, &go::Move)> = None;
        let mut comment: Option<&str> = None;
        // The points this node's AB, AW and AE name: one point may appear in one only.
        let mut set_up: Vec<(go::Point, &str)> = Vec::new();
        for prop in node.properties() {
            match prop {
                Prop::B(m) | Prop::W(m) => {
                    let c = if matches!(prop, Prop::B(_)) {
                        Color::Black
                    } else {
                        Color::White
                    };
                    if mv.is_some() {
                        return Err(SgfError::BadProperty(format!(
                            "two moves in one node (after move {})",
                            self.moves_so_far()
                        )));
                    }
                    mv = Some((c, m));
                }
                Prop::AB(points) | Prop::AW(points) | Prop::AE(points) => {
                    let (key, c) = match prop {
                        Prop::AB(_) => ("AB", Some(Color::Black)),
                        Prop::AW(_) => ("AW", Some(Color::White)),
                        _ => ("AE", None),
                    };
                    if self.started() {
                        return Err(SgfError::Unsupported(format!(
                            "setup ({key}) after move {}: only setup before the first move \
                             is read",
                            self.moves_so_far()
                        )));
                    }
                    let mut sorted: Vec<go::Point> = points.iter().copied().collect();
                    sorted.sort_by_key(|p| (p.y, p.x));
                    for p in sorted {
                        if let Some(&(_, other)) = set_up.iter().find(|(q, _)| *q == p) {
                            return Err(SgfError::BadProperty(format!(
                                "{}[{}] and {key}[{}] set up one point twice in a node",
                                other,
                                sgf_letters(p),
                                sgf_letters(p)
                            )));
                        }
                        set_up.push((p, key));
                        if board_point(self.size, p).is_none() {
                            return Err(SgfError::BadProperty(format!(
                                "{key}[{}] is off the {}x{} board",
                                sgf_letters(p),
                                self.size,
                                self.size
                            )));
                        }
                        let n = self.size.get();
                        self.setup[usize::from(p.y) * n + usize::from(p.x)] = c;
                    }
                }
                Prop::PL(c) if !self.started() => {
                    self.to_move = Some(match c {
                        sgf_parse::Color::Black => Color::Black,
                        sgf_parse::Color::White => Color::White,
                    });
                }
                Prop::KM(k) => {
                    let ok = k.is_finite() && k.abs() <= 1000.0;
                    if !ok {
                        return Err(SgfError::BadProperty(format!("KM[{k}] is not a komi")));
                    }
                    self.komi = Some(*k);
                }
                Prop::HA(h) => self.handicap = Some(*h),
                Prop::RU(r) => {
                    let name = r.text.trim();
                    self.rules = Some(name.parse().unwrap_or_else(|_| Rules::chinese()));
                }
                Prop::PB(t) => self.info.black = Some(simple(&t.text)),
                Prop::PW(t) => self.info.white = Some(simple(&t.text)),
                Prop::RE(t) => self.info.result = Some(simple(&t.text)),
                Prop::DT(t) => self.info.date = Some(simple(&t.text)),
                Prop::EV(t) => self.info.event = Some(simple(&t.text)),
                Prop::TM(t) if t.is_finite() && *t >= 0.0 => self.info.time_limit = Some(*t),
                Prop::C(t) => comment = Some(&t.text),
                Prop::Invalid(id, values) => self.invalid(id, values)?,
                Prop::SZ((w, h))
                    if !is_root && (*w, *h) != (self.size.get() as u8, self.size.get() as u8) =>
                {
                    return Err(SgfError::Unsupported(format!(
                        "board size changed to SZ[{w}:{h}] after the root node"
                    )));
                }
                _ => {}
            }
        }
        if let Some((c, m)) = mv {
            let number = self.moves_so_far() + 1;
            if number >= stop {
                // Build the start position even when stopping before the first move,
                // so its side to move follows the record.
                self.build(Some(c))?;
                return Ok(false);
            }
            self.build(Some(c))?;
            self.play(number, c, m)?;
        }
        if let Some(text) = comment {
            let k = self.moves_so_far();
            self.info.comments.push((k, text.to_string()));
        }
        Ok(true)
    }

    /// A property the parser could not read: an error where it matters to the game.
    fn invalid(&mut self, id: &str, values: &[String]) -> Result<(), SgfError> {
        let v = values.join("][");
        match id {
            "KM" => {
                // Some writers use a decimal comma.
                match v.trim().replace(',', ".").parse::<f64>() {
                    Ok(k) if k.is_finite() && k.abs() <= 1000.0 => {
                        self.komi = Some(k);
                        Ok(())
                    }
                    _ => Err(SgfError::BadProperty(format!("KM[{v}] is not a komi"))),
                }
            }
            "B" | "W" => Err(SgfError::BadProperty(format!(
                "{id}[{v}] is not a move (after move {})",
                self.moves_so_far()
            ))),
            "AB" | "AW" | "AE" => Err(SgfError::BadProperty(format!(
                "{id}[{v}] is not a list of points"
            ))),
            "PL" => Err(SgfError::BadProperty(format!("PL[{v}] is not B or W"))),
            // HA[0] and HA[1] are common ways of saying "no handicap".
            "HA" if matches!(v.trim(), "0" | "1") => Ok(()),
            "HA" => Err(SgfError::BadProperty(format!("HA[{v}] is not a handicap"))),
            _ => Ok(()),
        }
    }

    fn moves_so_far(&self) -> usize {
        self.game.as_ref().map_or(0, Game::move_count)
    }

    /// Builds the game from the setup, once, before the first move (or at the end).
    fn build(&mut self, first_move: Option<Color>) -> Result<(), SgfError> {
        if self.game.is_some() {
            return Ok(());
        }
        let mut rules = self.rules.unwrap_or_default();
        if let Some(k) = self.komi {
            rules
                .set_komi(k)
                .map_err(|_| SgfError::BadProperty(format!("KM[{k}] is not a komi")))?;
        }
        let size = self.size;
        let n = size.get();
        let mut game = Game::new(size, rules);
        let stones = |c: Color| -> Vec<Point> {
            (0..n * n)
                .filter(|&i| self.setup[i] == Some(c))
                .filter_map(|i| {
                    board_point(
                        size,
                        go::Point {
                            x: (i % n) as u8,
                            y: (i / n) as u8,
                        },
                    )
                })
                .collect()
        };
        let (black, white) = (stones(Color::Black), stones(Color::White));
        let handicap = self
            .handicap
            .is_some_and(|h| h >= 2 && white.is_empty() && h as usize == black.len());
        if handicap {
            game.place_handicap(&black)
                .map_err(|e| SgfError::BadProperty(format!("handicap stones AB: {e}")))?;
        } else {
            for (c, list) in [(Color::Black, &black), (Color::White, &white)] {
                for &p in list {
                    game.add_setup_stone(c, p).map_err(|e| {
                        let why = match e {
                            IllegalMove::Suicide => "leaves a group without liberties".into(),
                            e => e.to_string(),
                        };
                        SgfError::BadProperty(format!(
                            "setup stone {} {}: {why}",
                            c.letter(),
                            size.vertex(p)
                        ))
                    })?;
                }
            }
        }
        let to_move = self
            .to_move
            .unwrap_or_else(|| inferred_to_move(first_move, handicap));
        if game.to_move() != to_move {
            game.set_to_move(to_move);
        }
        self.game = Some(game);
        Ok(())
    }

    fn play(&mut self, number: usize, c: Color, m: &go::Move) -> Result<(), SgfError> {
        let size = self.size;
        let game = self.game.as_mut().expect("built before the first move");
        let mv = match *m {
            go::Move::Pass => Move::Pass,
            go::Move::Move(p) if size.get() <= 19 && p.x == 19 && p.y == 19 => Move::Pass,
            go::Move::Move(p) => match board_point(size, p) {
                Some(q) => Move::Play(q),
                None => {
                    return Err(SgfError::IllegalMove {
                        number,
                        mv: format!(
                            "{}[{}] (off the {size}x{size} board)",
                            c.letter(),
                            sgf_letters(p)
                        ),
                    });
                }
            },
        };
        game.play(c, mv).map_err(|e| SgfError::IllegalMove {
            number,
            mv: format!("{} {} ({e})", c.letter(), size.move_vertex(mv)),
        })?;
        Ok(())
    }

    fn finish(mut self) -> Result<SgfGame, SgfError> {
        self.build(None)?;
        Ok(SgfGame {
            game: self.game.expect("built"),
            info: self.info,
        })
    }
}

/// A SimpleText value on one line.
fn simple(text: &str) -> String {
    text.split(['\n', '\r'])
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::KoRule;

    fn mv(size: BoardSize, s: &str) -> Move {
        size.parse_move(s).unwrap()
    }

    #[test]
    fn round_trip_keeps_moves_setup_komi_rules_and_info() {
        let size = BoardSize::new(9).unwrap();
        let mut game = Game::new(size, Rules::japanese().with_komi(5.5).unwrap());
        game.add_setup_stone(Color::Black, size.parse_point("C3").unwrap())
            .unwrap();
        game.add_setup_stone(Color::White, size.parse_point("G7").unwrap())
            .unwrap();
        game.set_to_move(Color::White);
        for (c, m) in [
            (Color::White, "E5"),
            (Color::Black, "pass"),
            (Color::White, "A9"),
            (Color::Black, "J1"),
            (Color::White, "pass"),
            (Color::Black, "pass"),
        ] {
            game.play(c, mv(size, m)).unwrap();
        }
        let info = GameInfo {
            black: Some("Honinbo ]Shusaku[".into()),
            white: Some("back\\slash".into()),
            result: Some("W+2.5".into()),
            date: Some("1846-09-11".into()),
            event: Some("Castle game".into()),
            comments: vec![
                (0, "root".into()),
                (1, "first ] move \\ here".into()),
                (6, "two\nlines".into()),
            ],
            time_limit: Some(1800.0),
        };
        let text = write_sgf(&game, &info);
        assert!(
            text.starts_with("(;FF[4]GM[1]CA[UTF-8]AP[Tengen:"),
            "{text}"
        );
        assert!(
            text.contains("RU[Japanese]") && text.contains("KM[5.5]"),
            "{text}"
        );
        assert!(text.contains("AB[cg]") && text.contains("AW[gc]"), "{text}");
        assert!(
            !text.contains("PL["),
            "the first move says who starts: {text}"
        );
        let back = parse_sgf(&text).unwrap();
        assert!(back.game.moves().eq(game.moves()));
        assert_eq!(back.game.start_board(), game.start_board());
        assert_eq!(back.game.board(), game.board());
        assert_eq!(back.game.rules(), game.rules());
        assert_eq!(back.game.start_to_move(), Color::White);
        assert_eq!(back.info, info);
        assert_eq!(write_sgf(&back.game, &back.info), text);
    }

    #[test]
    fn handicap_and_player_to_move_survive_a_round_trip() {
        let size = BoardSize::new(19).unwrap();
        let mut game = Game::new(size, Rules::chinese().with_komi(0.5).unwrap());
        game.place_fixed_handicap(4).unwrap();
        let text = write_sgf(&game, &GameInfo::default());
        assert!(text.contains("HA[4]") && text.contains("PL[W]"), "{text}");
        let back = parse_sgf(&text).unwrap();
        assert_eq!(back.game.handicap(), 4);
        assert_eq!(back.game.to_move(), Color::White);
        assert_eq!(back.game.board(), game.board());
        // An empty game with Black to move writes no PL.
        let plain = write_sgf(&Game::new(size, Rules::chinese()), &GameInfo::default());
        assert!(!plain.contains("PL["));
        // Tromp-Taylor is written as NZ and read back with suicide allowed.
        let tt = write_sgf(
            &Game::new(size, Rules::tromp_taylor()),
            &GameInfo::default(),
        );
        assert!(tt.contains("RU[NZ]"));
        assert_eq!(parse_sgf(&tt).unwrap().game.rules(), &Rules::tromp_taylor());
    }

    #[test]
    fn defaults_when_properties_are_absent() {
        let g = parse_sgf("(;)").unwrap().game;
        assert_eq!(g.size().get(), 19);
        assert_eq!(g.rules(), &Rules::chinese());
        let g = parse_sgf("(;RU[Japanese])").unwrap().game;
        assert_eq!(g.rules().komi(), 6.5, "komi defaults to the rules' own");
        let g = parse_sgf("(;RU[Ing goe]KM[8])").unwrap().game;
        assert_eq!((g.rules().scoring, g.rules().komi()), (Scoring::Area, 8.0));
        assert_eq!(g.rules().ko, KoRule::Positional);
        let g = parse_sgf("(;KM[6,5])").unwrap().game;
        assert_eq!(g.rules().komi(), 6.5, "decimal comma");
        assert_eq!(parse_sgf("(;HA[0])").unwrap().game.handicap(), 0);
    }

    #[test]
    fn reads_an_ff3_record_with_old_identifiers_and_tt_passes() {
        let text = "Some header line\n(;GaMe[1]FF[3]SZ[9]\nKoMi[5.5]PlayerBlack[Old]HA[2]\
                    AddBlack[cc][gg]\n;W[ee];B[tt];W[dd]\n;B[]\n;W[tt]C[done])";
        let r = parse_sgf(text).unwrap();
        let size = r.game.size();
        assert_eq!(size.get(), 9);
        assert_eq!(r.game.rules().komi(), 5.5);
        assert_eq!(r.game.handicap(), 2);
        assert_eq!(r.info.black.as_deref(), Some("Old"));
        let moves: Vec<String> = r
            .game
            .moves()
            .map(|(c, m)| format!("{} {}", c.letter(), size.move_vertex(m)))
            .collect();
        assert_eq!(moves, ["W E5", "B pass", "W D6", "B pass", "W pass"]);
        assert_eq!(r.info.comments, vec![(5, "done".to_string())]);
    }

    #[test]
    fn tt_is_a_point_on_boards_above_19() {
        let r = parse_sgf("(;SZ[21];B[tt];W[])").unwrap();
        let size = r.game.size();
        let m: Vec<Move> = r.game.moves().map(|(_, m)| m).collect();
        assert_eq!(m, [Move::Play(size.point(19, 1).unwrap()), Move::Pass]);
        // and on 19×19 and below it is a pass, even where it is off the board
        let r = parse_sgf("(;SZ[5];B[tt])").unwrap();
        assert_eq!(r.game.last_move(), Some((Color::Black, Move::Pass)));
    }

    #[test]
    fn illegal_moves_are_refused_with_their_number() {
        let err = parse_sgf("(;SZ[9];B[ee];W[ff];B[ee])").unwrap_err();
        assert!(
            matches!(&err, SgfError::IllegalMove { number: 3, mv } if mv.starts_with("B E5")),
            "{err}"
        );
        assert_eq!(err.to_string(), "illegal move 3: B E5 (point is occupied)");
        // A ko: White takes at C3 (move 8), Black retakes at D3, White may not retake.
        let ko = "(;SZ[5];B[bc];W[cc];B[cb];W[db];B[cd];W[dd];B[ae];W[ec];B[dc];W[cc])";
        match parse_sgf(ko) {
            Err(SgfError::IllegalMove { number: 10, mv }) => assert!(mv.contains("ko"), "{mv}"),
            other => panic!("{other:?}"),
        }
        let off = parse_sgf("(;SZ[9];B[jj])").unwrap_err();
        assert!(
            matches!(off, SgfError::IllegalMove { number: 1, .. }),
            "{off}"
        );
        assert!(off.to_string().contains("off the 9x9 board"), "{off}");
    }

    #[test]
    fn until_stops_before_the_given_move() {
        let text = "(;SZ[9];B[ee]C[one];W[ff];B[gg];W[aa]C[four])";
        let all = parse_sgf(text).unwrap();
        assert_eq!(all.game.move_count(), 4);
        for n in 0..=6 {
            let r = parse_sgf_until(text, n).unwrap();
            assert_eq!(r.game.move_count(), n.clamp(1, 5) - 1, "N={n}");
        }
        let start = parse_sgf_until(text, 1).unwrap();
        assert_eq!(start.game.to_move(), Color::Black);
        assert!(start.info.comments.is_empty());
        // An illegal move after the stopping point does not matter.
        assert!(parse_sgf_until("(;SZ[9];B[ee];W[ee])", 2).is_ok());
        assert!(parse_sgf_until("(;SZ[9];B[ee];W[ee])", 3).is_err());
    }

    #[test]
    fn setup_before_the_first_move_is_read_and_after_it_refused() {
        let r = parse_sgf("(;SZ[9]AB[aa:bb];AE[aa]AW[ee];B[cc])").unwrap();
        let s = r.game.start_board();
        assert_eq!(s.stones(Color::Black).count(), 3);
        assert_eq!(s.stones(Color::White).count(), 1);
        let e = parse_sgf("(;SZ[9];B[cc];AB[dd];W[ee])").unwrap_err();
        assert!(matches!(e, SgfError::Unsupported(_)), "{e}");
        assert!(e.to_string().contains("after move 1"), "{e}");
        // A setup that leaves a group without liberties is no position.
        let e = parse_sgf("(;SZ[9]AB[aa]AW[ab][ba])").unwrap_err();
        assert!(matches!(e, SgfError::BadProperty(_)), "{e}");
        let e = parse_sgf("(;SZ[9]AB[zz])").unwrap_err();
        assert!(e.to_string().contains("off the 9x9 board"), "{e}");
        // One point set up twice in a node (the SGF specification forbids it).
        let e = parse_sgf("(;SZ[9]AB[cc][dd]AW[ee][cc])").unwrap_err();
        assert!(matches!(e, SgfError::BadProperty(_)), "{e}");
        assert!(e.to_string().contains("AB[cc] and AW[cc]"), "{e}");
    }

    #[test]
    fn broken_records_are_refused_never_panicking() {
        type Check = fn(&SgfError) -> bool;
        let cases: &[(&str, Check)] = &[
            ("", |e| matches!(e, SgfError::Parse(_))),
            ("garbage", |e| matches!(e, SgfError::Parse(_))),
            ("(;SZ[9];B[ee]", |e| matches!(e, SgfError::Parse(_))),
            ("(;SZ[9];B[ee", |e| matches!(e, SgfError::Parse(_))),
            ("(;SZ[9]))", |e| matches!(e, SgfError::Parse(_))),
            ("(;SZ[99])", |e| matches!(e, SgfError::Unsupported(_))),
            ("(;SZ[1])", |e| matches!(e, SgfError::Unsupported(_))),
            ("(;SZ[100000000000000000000])", |e| {
                matches!(e, SgfError::Unsupported(_))
            }),
            ("(;SZ[-9])", |e| matches!(e, SgfError::BadProperty(_))),
            ("(;SZ[19:13])", |e| matches!(e, SgfError::Unsupported(_))),
            ("(;SZ[nine])", |e| matches!(e, SgfError::BadProperty(_))),
            ("(;KM[nan])", |e| matches!(e, SgfError::BadProperty(_))),
            ("(;KM[1e300])", |e| matches!(e, SgfError::BadProperty(_))),
            ("(;KM[-inf])", |e| matches!(e, SgfError::BadProperty(_))),
            ("(;HA[-3])", |e| matches!(e, SgfError::BadProperty(_))),
            ("(;B[é1])", |e| matches!(e, SgfError::BadProperty(_))),
            ("(;B[aa]W[bb])", |e| matches!(e, SgfError::BadProperty(_))),
            ("(;GM[2];B[aa])", |e| matches!(e, SgfError::Unsupported(_))),
            ("(;PL[X])", |e| matches!(e, SgfError::BadProperty(_))),
            ("(;AB[])", |e| matches!(e, SgfError::BadProperty(_))),
            ("\u{fffd}\u{fffd}(;SZ\u{fffd}[9])", |e| {
                matches!(e, SgfError::Parse(_))
            }),
        ];
        for (text, ok) in cases {
            match parse_sgf(text) {
                Err(e) => {
                    assert!(ok(&e), "{text:?} gave {e:?}");
                    assert!(!e.to_string().is_empty());
                }
                Ok(r) => panic!("{text:?} was accepted: {:?}", r.game.board()),
            }
        }
        // Latin-1 names decoded badly are still text.
        let r = parse_sgf("(;PB[Mei\u{fffd}in]CA[ISO-8859-1])").unwrap();
        assert_eq!(r.info.black.as_deref(), Some("Mei\u{fffd}in"));
    }

    #[test]
    fn absurdly_deep_trees_are_refused_and_deep_ones_read() {
        let deep = format!("(;SZ[2]{})", ";B[];W[]".repeat(MAX_TREE_DEPTH));
        assert!(matches!(parse_sgf(&deep), Err(SgfError::Unsupported(_))));
        let nested = "(;C[x]".repeat(1_000_000);
        assert!(matches!(parse_sgf(&nested), Err(SgfError::Unsupported(_))));
        let ok = format!("(;SZ[2]{})", ";B[];W[]".repeat(MAX_TREE_DEPTH / 2 - 1));
        assert_eq!(
            parse_sgf(&ok).unwrap().game.move_count(),
            MAX_TREE_DEPTH - 2
        );
        let nested = format!("{})", "(;C[x]".repeat(MAX_TREE_DEPTH - 1));
        assert!(parse_sgf(&nested).is_err(), "unbalanced");
    }

    #[test]
    fn mutated_records_never_panic() {
        let base = "(;FF[4]GM[1]SZ[9]KM[6.5]HA[2]AB[cc][gg]PB[a]RE[W+R]\
                    ;W[ee]C[x\\]y];B[dc];W[tt];B[];W[ab]AE[aa];B[ba])";
        let mut seed = 0x9e37_79b9_u64;
        let mut rand = move |k: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % k as u64) as usize
        };
        let alphabet: Vec<char> = "()[];\\:ABWKMSZHAtaz019-.é \n".chars().collect();
        let (mut ok, mut err) = (0, 0);
        for _ in 0..3000 {
            let mut chars: Vec<char> = base.chars().collect();
            for _ in 0..1 + rand(4) {
                let i = rand(chars.len());
                match rand(3) {
                    0 => {
                        chars.remove(i);
                    }
                    1 => chars.insert(i, alphabet[rand(alphabet.len())]),
                    _ => chars[i] = alphabet[rand(alphabet.len())],
                }
            }
            let text: String = chars.into_iter().collect();
            match parse_sgf(&text) {
                Ok(r) => {
                    ok += 1;
                    r.game.board().check_invariants().unwrap();
                }
                Err(e) => {
                    err += 1;
                    assert!(!e.to_string().is_empty());
                }
            }
        }
        assert!(ok > 50 && err > 1000, "{ok} read, {err} refused");
    }
}
