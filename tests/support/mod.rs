//! Helpers shared by the integration tests, and a slow, obviously correct reference
//! implementation of the rules that knows nothing of `tengen_board`'s internals.
//!
//! The reference keeps the board as a plain `Vec<Option<Color>>` indexed by
//! `x + y * n` (row 0 at the bottom, as GTP counts), finds groups and liberties by flood
//! fill every time it needs them, and remembers earlier positions as full copies of the
//! grid in a hash set. It is meant to be read and believed, not to be fast.
#![allow(dead_code)]

pub mod cases;
pub mod cpu;
pub mod process;
pub mod programs;
pub mod scratch;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use tengen_board::{BoardSize, Color, KoRule, Point, Rules};

/// A board as the reference sees it: `grid[x + y * n]`, row 0 at the bottom.
pub type Grid = Vec<Option<Color>>;

/// The repetition rule, in the reference's own terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefKo {
    /// Only the immediate recapture of a single stone is forbidden.
    Simple,
    /// No move may recreate an earlier board.
    Positional,
    /// No move may recreate an earlier board with the same player to move.
    Situational,
}

/// Why the reference refuses a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefError {
    Occupied,
    Ko,
    Suicide,
    Superko,
}

impl RefError {
    /// The name fixtures use: `occupied`, `ko`, `suicide`, `superko`.
    pub fn name(self) -> &'static str {
        match self {
            RefError::Occupied => "occupied",
            RefError::Ko => "ko",
            RefError::Suicide => "suicide",
            RefError::Superko => "superko",
        }
    }
}

/// The name of a `tengen_board` error in the same terms.
pub fn tengen_error_name(e: tengen_board::IllegalMove) -> &'static str {
    match e {
        tengen_board::IllegalMove::OffBoard => "offboard",
        tengen_board::IllegalMove::Occupied => "occupied",
        tengen_board::IllegalMove::Suicide => "suicide",
        tengen_board::IllegalMove::Ko => "ko",
        tengen_board::IllegalMove::Superko => "superko",
    }
}

/// The rules the reference plays by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefRules {
    pub ko: RefKo,
    /// Whether a move may remove its own group. Even then, a lone stone may not remove
    /// itself: that changes nothing (Tengen's convention, as under Tromp-Taylor where
    /// it repeats the position).
    pub suicide: bool,
}

impl RefRules {
    /// The reference's view of a `tengen_board` rule set.
    pub fn of(rules: &Rules) -> RefRules {
        RefRules {
            ko: match rules.ko {
                KoRule::Simple => RefKo::Simple,
                KoRule::Positional => RefKo::Positional,
                KoRule::Situational => RefKo::Situational,
            },
            suicide: rules.suicide,
        }
    }
}

/// A position: the grid, the simple-ko point and the prisoners.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefBoard {
    pub n: usize,
    pub grid: Grid,
    /// The point the given colour may not play next (simple ko).
    pub ko: Option<(usize, Color)>,
    /// Stones captured by Black, by White (a suicide's stones go to the opponent).
    pub prisoners: [u32; 2],
}

/// What a move did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RefOutcome {
    pub captured: u32,
    pub suicided: u32,
}

impl RefBoard {
    pub fn new(n: usize) -> RefBoard {
        RefBoard {
            n,
            grid: vec![None; n * n],
            ko: None,
            prisoners: [0, 0],
        }
    }

    pub fn at(&self, x: usize, y: usize) -> Option<Color> {
        self.grid[x + y * self.n]
    }

    /// The orthogonal neighbours of point `i` that are on the board.
    pub fn neighbours(&self, i: usize) -> Vec<usize> {
        let n = self.n;
        let (x, y) = (i % n, i / n);
        let mut v = Vec::with_capacity(4);
        if x > 0 {
            v.push(i - 1);
        }
        if x + 1 < n {
            v.push(i + 1);
        }
        if y > 0 {
            v.push(i - n);
        }
        if y + 1 < n {
            v.push(i + n);
        }
        v
    }

    /// The stones of the group on `i` and its liberties, by flood fill.
    pub fn group(&self, i: usize) -> (Vec<usize>, Vec<usize>) {
        let color = self.grid[i];
        assert!(color.is_some(), "group of an empty point");
        let mut in_group = vec![false; self.grid.len()];
        let mut is_liberty = vec![false; self.grid.len()];
        let mut stones = vec![i];
        let mut liberties = Vec::new();
        in_group[i] = true;
        let mut k = 0;
        while k < stones.len() {
            for m in self.neighbours(stones[k]) {
                if self.grid[m] == color && !in_group[m] {
                    in_group[m] = true;
                    stones.push(m);
                } else if self.grid[m].is_none() && !is_liberty[m] {
                    is_liberty[m] = true;
                    liberties.push(m);
                }
            }
            k += 1;
        }
        (stones, liberties)
    }

    /// The position after `c` plays on `i` under the board-level rules (occupied,
    /// simple ko, suicide), or why it may not.
    pub fn after(
        &self,
        c: Color,
        i: usize,
        suicide_allowed: bool,
    ) -> Result<(RefBoard, RefOutcome), RefError> {
        if self.grid[i].is_some() {
            return Err(RefError::Occupied);
        }
        if self.ko == Some((i, c)) {
            return Err(RefError::Ko);
        }
        let mut b = self.clone();
        b.grid[i] = Some(c);
        b.ko = None;
        let mut captured_points = Vec::new();
        for m in b.neighbours(i) {
            if b.grid[m] == Some(c.opponent()) {
                let (stones, libs) = b.group(m);
                if libs.is_empty() {
                    for s in stones {
                        b.grid[s] = None;
                        captured_points.push(s);
                    }
                }
            }
        }
        let mut out = RefOutcome {
            captured: captured_points.len() as u32,
            suicided: 0,
        };
        b.prisoners[c as usize] += out.captured;
        let (own, libs) = b.group(i);
        if libs.is_empty() {
            if !suicide_allowed || own.len() == 1 {
                return Err(RefError::Suicide);
            }
            for s in &own {
                b.grid[*s] = None;
            }
            out.suicided = own.len() as u32;
            b.prisoners[c.opponent() as usize] += out.suicided;
        } else if captured_points.len() == 1 && own.len() == 1 && libs.len() == 1 {
            b.ko = Some((captured_points[0], c.opponent()));
        }
        Ok((b, out))
    }

    /// The board as a diagram, top row first, `X` black, `O` white, `.` empty.
    pub fn diagram(&self) -> String {
        grid_diagram(self.n, &self.grid)
    }
}

/// A diagram of a grid, top row first.
pub fn grid_diagram(n: usize, grid: &Grid) -> String {
    let mut s = String::new();
    for y in (0..n).rev() {
        for x in 0..n {
            s.push(match grid[x + y * n] {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            });
            s.push(if x + 1 < n { ' ' } else { '\n' });
        }
    }
    s
}

/// A fast, simple hasher for the history set (equality still decides membership).
#[derive(Default)]
pub struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

/// A history key: the grid, one byte a point (0 empty, 1 black, 2 white), and for
/// situational superko the side to move (0 when it does not matter).
type Key = (Vec<u8>, u8);

/// A game as the reference sees it: a board, the side to move and every position seen.
#[derive(Clone, Debug)]
pub struct RefGame {
    pub board: RefBoard,
    pub rules: RefRules,
    pub to_move: Color,
    /// Every key seen so far (the start included), with how often.
    seen: HashMap<Key, u32, BuildHasherDefault<MixHasher>>,
    /// For undo: the board, side to move and key before each move.
    undo: Vec<(RefBoard, Color, Key)>,
}

impl RefGame {
    /// A game from a start position (setup stones, no ko) with `to_move` to play.
    pub fn new(board: RefBoard, rules: RefRules, to_move: Color) -> RefGame {
        let mut g = RefGame {
            board,
            rules,
            to_move,
            seen: HashMap::default(),
            undo: Vec::new(),
        };
        let k = g.key(&g.board.grid, to_move);
        g.seen.insert(k, 1);
        g
    }

    pub fn empty(n: usize, rules: RefRules) -> RefGame {
        RefGame::new(RefBoard::new(n), rules, Color::Black)
    }

    fn key(&self, grid: &Grid, to_move: Color) -> Key {
        let cells = grid
            .iter()
            .map(|c| match c {
                None => 0,
                Some(Color::Black) => 1,
                Some(Color::White) => 2,
            })
            .collect();
        match self.rules.ko {
            RefKo::Situational => (cells, 1 + to_move as u8),
            _ => (cells, 0),
        }
    }

    /// The position after `c` plays `mv` (`None` is a pass), or why it is illegal.
    pub fn after(&self, c: Color, mv: Option<usize>) -> Result<(RefBoard, RefOutcome), RefError> {
        let Some(i) = mv else {
            let mut b = self.board.clone();
            b.ko = None;
            return Ok((b, RefOutcome::default()));
        };
        let (b, out) = self.board.after(c, i, self.rules.suicide)?;
        if self.rules.ko != RefKo::Simple
            && self.seen.contains_key(&self.key(&b.grid, c.opponent()))
        {
            return Err(RefError::Superko);
        }
        Ok((b, out))
    }

    pub fn legal(&self, c: Color, mv: Option<usize>) -> bool {
        self.after(c, mv).is_ok()
    }

    pub fn play(&mut self, c: Color, mv: Option<usize>) -> Result<RefOutcome, RefError> {
        let (b, out) = self.after(c, mv)?;
        let key = self.key(&b.grid, c.opponent());
        *self.seen.entry(key.clone()).or_insert(0) += 1;
        let before = std::mem::replace(&mut self.board, b);
        self.undo.push((before, self.to_move, key));
        self.to_move = c.opponent();
        Ok(out)
    }

    pub fn undo(&mut self) -> bool {
        let Some((board, to_move, key)) = self.undo.pop() else {
            return false;
        };
        let n = self
            .seen
            .get_mut(&key)
            .expect("a played key is in the history");
        *n -= 1;
        if *n == 0 {
            self.seen.remove(&key);
        }
        self.board = board;
        self.to_move = to_move;
        true
    }

    pub fn moves_played(&self) -> usize {
        self.undo.len()
    }
}

/// Area score by the reference: living stones plus empty (or dead) points reached
/// only by one colour's living stones. Returns (black, white + komi).
pub fn ref_area_score(b: &RefBoard, dead: &[usize], komi: f64) -> (f64, f64) {
    let alive = |i: usize| b.grid[i].filter(|_| !dead.contains(&i));
    let mut pts = [0.0f64; 2];
    for c in (0..b.grid.len()).filter_map(alive) {
        pts[c as usize] += 1.0;
    }
    for region in open_regions(b, dead) {
        let (black, white) = region_borders(b, &region, dead);
        if black && !white {
            pts[0] += region.len() as f64;
        } else if white && !black {
            pts[1] += region.len() as f64;
        }
    }
    (pts[0], pts[1] + komi)
}

/// Territory score by the reference: empty (or dead) regions bordered by one colour
/// only and by no stone in `seki`, plus prisoners and the opponent's dead stones.
pub fn ref_territory_score(b: &RefBoard, dead: &[usize], seki: &[usize], komi: f64) -> (f64, f64) {
    let mut pts = [0.0f64; 2];
    for region in open_regions(b, dead) {
        let touches_seki = region.iter().any(|&i| {
            b.neighbours(i)
                .into_iter()
                .any(|m| seki.contains(&m) && !region.contains(&m))
        });
        if touches_seki {
            continue;
        }
        let (black, white) = region_borders(b, &region, dead);
        if black && !white {
            pts[0] += region.len() as f64;
        } else if white && !black {
            pts[1] += region.len() as f64;
        }
    }
    for c in Color::ALL {
        pts[c as usize] += f64::from(b.prisoners[c as usize]);
        pts[c as usize] += dead
            .iter()
            .filter(|&&i| b.grid[i] == Some(c.opponent()))
            .count() as f64;
    }
    (pts[0], pts[1] + komi)
}

/// Maximal connected sets of points that are empty or hold a dead stone.
fn open_regions(b: &RefBoard, dead: &[usize]) -> Vec<Vec<usize>> {
    let open = |i: usize| b.grid[i].is_none() || dead.contains(&i);
    let mut done = vec![false; b.grid.len()];
    let mut regions = Vec::new();
    for start in 0..b.grid.len() {
        if done[start] || !open(start) {
            continue;
        }
        let mut region = vec![start];
        done[start] = true;
        let mut k = 0;
        while k < region.len() {
            for m in b.neighbours(region[k]) {
                if !done[m] && open(m) {
                    done[m] = true;
                    region.push(m);
                }
            }
            k += 1;
        }
        regions.push(region);
    }
    regions
}

/// Whether a region touches living black stones, living white stones.
fn region_borders(b: &RefBoard, region: &[usize], dead: &[usize]) -> (bool, bool) {
    let (mut black, mut white) = (false, false);
    for &i in region {
        for m in b.neighbours(i) {
            if dead.contains(&m) {
                continue;
            }
            match b.grid[m] {
                Some(Color::Black) => black = true,
                Some(Color::White) => white = true,
                None => {}
            }
        }
    }
    (black, white)
}

/// The reference index of a `tengen_board` point.
pub fn index_of(size: BoardSize, p: Point) -> usize {
    let (x, y) = size.coords(p);
    x + y * size.get()
}

/// The `tengen_board` point of a reference index.
pub fn point_of(size: BoardSize, i: usize) -> Point {
    let n = size.get();
    size.point(i % n, i / n).expect("index on the board")
}

/// Reads a GTP vertex (`C3`, no `I`, any case) as a reference index, independently of
/// `tengen_board`'s parser.
pub fn parse_vertex(n: usize, s: &str) -> Option<usize> {
    const LETTERS: &str = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    let mut chars = s.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    let x = LETTERS.find(letter)?;
    let row: usize = chars.as_str().parse().ok()?;
    (x < n && (1..=n).contains(&row)).then(|| x + (row - 1) * n)
}

/// Reads a diagram (`X` black, `O` white, `.` or `+` empty, top row first; spaces
/// ignored) as a grid. `None` if it is not a square.
pub fn parse_grid(lines: &[&str]) -> Option<(usize, Grid)> {
    let rows: Vec<Vec<Option<Color>>> = lines
        .iter()
        .map(|l| {
            l.chars()
                .filter(|c| !c.is_whitespace())
                .map(|c| match c {
                    'X' => Some(Some(Color::Black)),
                    'O' => Some(Some(Color::White)),
                    '.' | '+' => Some(None),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()
        })
        .collect::<Option<Vec<_>>>()?;
    let n = rows.len();
    if n == 0 || rows.iter().any(|r| r.len() != n) {
        return None;
    }
    let mut grid = vec![None; n * n];
    for (r, row) in rows.iter().enumerate() {
        for (x, c) in row.iter().enumerate() {
            grid[x + (n - 1 - r) * n] = *c;
        }
    }
    Some((n, grid))
}

/// The grid of a `tengen_board` board, read point by point.
pub fn grid_of(board: &tengen_board::Board) -> Grid {
    let size = board.size();
    let n = size.get();
    (0..n * n)
        .map(|i| board.color_at(point_of(size, i)))
        .collect()
}

/// Whether a line is a diagram row: only `X`, `O`, `.`, `+` and spaces, not empty.
pub fn is_diagram_line(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && t.chars().all(|c| matches!(c, 'X' | 'O' | '.' | '+' | ' '))
}

/// The `.txt` fixture files of `tests/data/<dir>`, sorted by name.
pub fn fixture_files(dir: &str) -> Vec<std::path::PathBuf> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
}
