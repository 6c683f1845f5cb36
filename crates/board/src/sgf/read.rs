//! Reading the main line of an SGF record into a [`Game`].

mod setup;

use sgf_parse::go::{self, Prop};
use sgf_parse::{GameTree, SgfNode};

use super::scan::main_line;
use super::{GameInfo, MAX_WARNINGS, SgfError, SgfGame};
use crate::board::IllegalMove;
use crate::color::Color;
use crate::game::Game;
use crate::point::{BoardSize, MAX_SIZE, MIN_SIZE, Move, Point};
use crate::rules::Rules;

/// Reads the main line of the first game tree of an SGF collection.
pub fn parse_sgf(text: &str) -> Result<SgfGame, SgfError> {
    read(text, usize::MAX, &Rules::chinese())
}

/// Reads the position before move `move_number` of the main line (GTP's
/// `loadsgf FILE N`): 1 (or 0) gives the start position, a number past the last move
/// the whole game. Moves, comments and errors after the stopping point are not read.
pub fn parse_sgf_until(text: &str, move_number: usize) -> Result<SgfGame, SgfError> {
    read(text, move_number.max(1), &Rules::chinese())
}

/// Reads like [`parse_sgf`] (or [`parse_sgf_until`] with `until`), with `defaults`
/// for what the record does not name: a record without `RU` is played under their
/// counting and repetition rules, and one without `RU` or `KM` with their komi (GTP's
/// session settings). A record's `RU` without `KM` brings those rules' own komi.
pub fn parse_sgf_with(
    text: &str,
    defaults: &Rules,
    until: Option<usize>,
) -> Result<SgfGame, SgfError> {
    read(text, until.map_or(usize::MAX, |n| n.max(1)), defaults)
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

/// Reads up to (not including) move `stop` (1-based).
fn read(text: &str, stop: usize, defaults: &Rules) -> Result<SgfGame, SgfError> {
    let text = text.trim_start_matches('\u{feff}');
    // Headers before the first game tree (mail or web page remains) are skipped.
    let text = match text.find('(') {
        Some(i) => &text[i..],
        None => return Err(SgfError::Parse("no game tree found".into())),
    };
    // Only the main line of the first game tree reaches the parser: what it builds is
    // bounded by what is loaded, not by the collection around it.
    let line = main_line(text)?;
    let trees = sgf_parse::parse(&line).map_err(|e| SgfError::Parse(e.to_string()))?;
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
    let mut reader = Reader::new(&root, *defaults)?;
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
    /// The rules and komi where the record names none.
    defaults: Rules,
    /// The rules `RU` names, with their own komi.
    rules: Option<Rules>,
    komi: Option<f64>,
    handicap: Option<i64>,
    /// The setup position, by SGF point `(x, y)` from the top left, before the game
    /// is built at the first move, and after it while `pending`.
    setup: Vec<Option<Color>>,
    /// Setup after the game is built, applied at the next move or the end.
    pending: bool,
    /// `PL`, for the start position or the pending setup.
    to_move: Option<Color>,
    game: Option<Game>,
    info: GameInfo,
    warnings: Vec<String>,
    /// The moves of the record read so far, skipped ones included: the numbers
    /// messages and `stop` use.
    moves_read: usize,
    /// Warnings beyond [`MAX_WARNINGS`], only counted.
    more_warnings: usize,
}

impl Reader {
    fn new(root: &SgfNode<Prop>, defaults: Rules) -> Result<Reader, SgfError> {
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
            defaults,
            rules: None,
            komi: None,
            handicap: None,
            setup: vec![None; n * n],
            pending: false,
            to_move: None,
            game: None,
            info: GameInfo::default(),
            warnings: Vec::new(),
            moves_read: 0,
            more_warnings: 0,
        })
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
                            self.moves_read
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
                    self.set_up_points(key, c, points.iter().copied(), &mut set_up)?;
                }
                Prop::C(t) => comment = Some(&t.text),
                _ => self.game_property(prop, is_root)?,
            }
        }
        if let Some((c, m)) = mv
            && !self.node_move(c, m, stop)?
        {
            return Ok(false);
        }
        if let Some(text) = comment {
            let k = self.moves_so_far();
            self.info.comments.push((k, text.to_string()));
        }
        Ok(true)
    }

    /// A property that is neither a move, setup nor a comment: who moves, komi,
    /// handicap, rules, the game info, an invalid property, or a size that must not
    /// change after the root; anything else is passed over.
    fn game_property(&mut self, prop: &Prop, is_root: bool) -> Result<(), SgfError> {
        match prop {
            Prop::PL(c) => {
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
            Prop::RU(r) => self.rules_named(r.text.trim()),
            Prop::PB(t) => self.info.black = Some(simple(&t.text)),
            Prop::PW(t) => self.info.white = Some(simple(&t.text)),
            Prop::RE(t) => self.info.result = Some(simple(&t.text)),
            Prop::DT(t) => self.info.date = Some(simple(&t.text)),
            Prop::EV(t) => self.info.event = Some(simple(&t.text)),
            Prop::TM(t) if t.is_finite() && *t >= 0.0 => self.info.time_limit = Some(*t),
            Prop::TM(t) => self.warn(format!("TM[{t}] is not a time limit: ignored")),
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
        Ok(())
    }

    /// Plays a node's move `m` by `c`, the start position built (and a pending setup
    /// applied) first; `false`, with the move not played, when it is the stopping move.
    fn node_move(&mut self, c: Color, m: &go::Move, stop: usize) -> Result<bool, SgfError> {
        let number = self.moves_read + 1;
        // Build the start position (and apply a pending setup) even when stopping
        // before this move, so the side to move follows the record.
        self.build(Some(c))?;
        self.set_up(Some(c))?;
        if number >= stop {
            return Ok(false);
        }
        self.play(number, c, m)?;
        self.moves_read = number;
        // A PL without setup after the start says nothing the moves do not.
        self.to_move = None;
        Ok(true)
    }

    /// The stones of an `AB`, `AW` or `AE` property (`key`; `c` the colour, none for
    /// `AE`) set up for the next position, row by row; `set_up` holds the points this
    /// node set up so far and the property that named each, for one point may be named
    /// once only.
    fn set_up_points<'a>(
        &mut self,
        key: &'a str,
        c: Option<Color>,
        points: impl Iterator<Item = go::Point>,
        set_up: &mut Vec<(go::Point, &'a str)>,
    ) -> Result<(), SgfError> {
        if self.game.is_some() && !self.pending {
            self.setup_from_board();
        }
        let mut sorted: Vec<go::Point> = points.collect();
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
        Ok(())
    }

    /// The rules an `RU` property names; a warning where Tengen does not know them.
    fn rules_named(&mut self, name: &str) {
        match name.parse() {
            Ok(rules) => self.rules = Some(rules),
            Err(_) => {
                let ru = shown("RU", name);
                let then = "ignored (the rules where none are named stand)";
                self.warn(format!("{ru} names rules Tengen does not know: {then}"));
            }
        }
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
                self.moves_read
            ))),
            "AB" | "AW" | "AE" => Err(SgfError::BadProperty(format!(
                "{id}[{v}] is not a list of points"
            ))),
            "PL" => Err(SgfError::BadProperty(format!("PL[{v}] is not B or W"))),
            // HA[0] and HA[1] are common ways of saying "no handicap".
            "HA" if matches!(v.trim(), "0" | "1") => Ok(()),
            // The handicap stones themselves are in AB; the count only names them.
            "HA" => {
                self.warn(format!(
                    "{} is not a handicap count: ignored",
                    shown(id, &v)
                ));
                Ok(())
            }
            // Everything else the reader would keep is information (names, date,
            // result, time, …) or markup: what is malformed is left out, with a word.
            _ => {
                self.warn(format!("{} is malformed: ignored", shown(id, &v)));
                Ok(())
            }
        }
    }

    /// Notes a flaw the read goes on past.
    fn warn(&mut self, line: String) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(line);
        } else {
            self.more_warnings += 1;
        }
    }

    fn moves_so_far(&self) -> usize {
        self.game.as_ref().map_or(0, Game::move_count)
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
        // Not our superko rule: a repetition the record's rules allowed (a Japanese
        // triple ko) replays as played, and the moves after the load obey ours.
        match game.replay(c, mv) {
            Ok(_) => Ok(()),
            // What the board cannot take is left out, as GNU Go does (a server's
            // broken record): the moves after it still tell the game.
            Err(e @ (IllegalMove::Occupied | IllegalMove::Suicide)) => {
                let vertex = size.move_vertex(mv);
                self.warn(format!(
                    "move {number} ({} {vertex}) skipped: {e}",
                    c.letter()
                ));
                Ok(())
            }
            Err(e) => Err(SgfError::IllegalMove {
                number,
                mv: format!("{} {} ({e})", c.letter(), size.move_vertex(mv)),
            }),
        }
    }

    fn finish(mut self) -> Result<SgfGame, SgfError> {
        self.build(None)?;
        self.set_up(None)?;
        if self.more_warnings > 0 {
            let n = self.more_warnings;
            self.warnings.push(format!("and {n} more warnings"));
        }
        Ok(SgfGame {
            game: self.game.expect("built"),
            info: self.info,
            warnings: self.warnings,
        })
    }
}

/// A property as written, cut short when long (a warning is one line of a log).
fn shown(id: &str, value: &str) -> String {
    const LONG: usize = 40;
    let value = simple(value);
    match value.char_indices().nth(LONG) {
        Some((i, _)) => format!("{id}[{}…]", &value[..i]),
        None => format!("{id}[{value}]"),
    }
}

/// A SimpleText value on one line.
fn simple(text: &str) -> String {
    text.split(['\n', '\r'])
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
