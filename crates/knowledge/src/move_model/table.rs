//! The move model: strengths of tactical features, 3×3 shapes and large patterns,
//! fitted by `tengen learn fit` (the `tengen-learn` crate's `moves`), read from a text table.
//!
//! A table is comment lines (`# …`), then an optional header line, then lines of
//! three kinds:
//!
//! - `without NAME …` (the header, before every other line): the feature groups the
//!   fit left out ([`LeftOut`]); the table has no line for them, and rating a
//!   candidate neither computes nor weighs them. No such line: nothing left out;
//! - `tactical NAME G0 G1 …`: the strengths of the values of one of
//!   [`GROUPS`], every group not left out once, all its
//!   values;
//! - `shape SHAPE G …`: a 3×3 shape as [`describe`](crate::shape::describe) writes it;
//! - `pattern SIZE HASH G …`: a large pattern, the neighbourhood's largest distance
//!   and its hash in hexadecimal.
//!
//! Further columns are notes (counts). A shape or pattern the table does not name has
//! strength 1; a candidate's strength is the product of its tactical values', its
//! shape's and its largest named pattern's.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use tengen_board::Move;

use super::features::{GROUPS, NO_SHAPE, RawFeatures, TACTICAL};
use super::left_out::{LARGE_PATTERNS, LeftOut, SHAPE};
use super::pattern::{PATTERN_SIZES, PATTERNS};
use crate::shape::{ShapeWeights, canonical, parse_shape, symmetries};

/// Why a move table could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelError {
    /// 1-based line number (0: the table as a whole).
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.reason)
        } else {
            write!(f, "line {}: {}", self.line, self.reason)
        }
    }
}

impl std::error::Error for ModelError {}

/// Anything that rates candidate moves: the log strength of a candidate.
pub trait MoveScorer {
    /// The natural log of the candidate's strength.
    fn log_strength(&self, f: &RawFeatures) -> f32;

    /// The feature groups it does not weigh, which its candidates need not compute
    /// (default: nothing left out).
    fn left_out(&self) -> LeftOut {
        LeftOut::NOTHING
    }
}

impl MoveScorer for ShapeWeights {
    fn log_strength(&self, f: &RawFeatures) -> f32 {
        if f.shape == NO_SHAPE {
            0.0
        } else {
            self.log_gamma(f.shape)
        }
    }
}

/// The hasher of the pattern map: a pattern's hash is already random (the least of 8
/// random keys' sums, so its high bits lean to zero), so one multiplication mixes it
/// enough (the standard SipHash was 7% of the time to rate a position).
#[derive(Clone, Copy, Default)]
struct PatternKeyHasher(u64);

impl Hasher for PatternKeyHasher {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

/// Large patterns by hash, with their log strengths.
type PatternMap = HashMap<u64, f32, BuildHasherDefault<PatternKeyHasher>>;

/// A fitted move model (log strengths).
#[derive(Clone)]
pub struct MoveModel {
    left_out: LeftOut,
    tactical: [Vec<f32>; TACTICAL],
    shapes: ShapeWeights,
    patterns: PatternMap,
}

impl std::fmt::Debug for MoveModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "MoveModel({} shapes, {} patterns, without {})",
            self.shapes.len(),
            self.patterns.len(),
            self.left_out
        )
    }
}

fn strength(text: Option<&str>) -> Option<f32> {
    text?
        .parse::<f32>()
        .ok()
        .filter(|g| g.is_finite() && *g > 0.0)
}

/// A move table being read, line by line.
struct TableReader {
    tactical: [Option<Vec<f32>>; TACTICAL],
    shapes: ShapeWeights,
    /// The shapes named so far, each as its canonical symmetry.
    named: HashSet<u32>,
    patterns: PatternMap,
    left_out: LeftOut,
    /// The line of the `without` header, and whether a line of the table came yet.
    header_line: Option<usize>,
    body: bool,
}

impl TableReader {
    fn new() -> TableReader {
        TableReader {
            tactical: Default::default(),
            shapes: ShapeWeights::empty(),
            named: HashSet::new(),
            patterns: PatternMap::default(),
            left_out: LeftOut::NOTHING,
            header_line: None,
            body: false,
        }
    }

    /// Reads line number `at` (neither blank nor a comment); the error is why it
    /// cannot be.
    fn read(&mut self, at: usize, line: &str) -> Result<(), String> {
        let mut fields = line.split_whitespace();
        match fields.next() {
            Some("without") => return self.without(at, fields),
            Some("tactical") => self.tactical(fields)?,
            Some("shape") => self.shape(fields)?,
            Some("pattern") => self.pattern(fields)?,
            Some(other) => return Err(format!("unknown line kind {other:?}")),
            None => {}
        }
        self.body = true;
        Ok(())
    }

    /// Why a line of the left-out group `name` cannot be.
    fn left(&self, name: &str) -> String {
        let header_at = self.header_line.unwrap_or(0);
        format!("{name} is left out (the without line, line {header_at}) but has a line")
    }

    /// The `without` header, at line `at`.
    fn without<'a>(
        &mut self,
        at: usize,
        names: impl Iterator<Item = &'a str>,
    ) -> Result<(), String> {
        if let Some(first) = self.header_line {
            return Err(format!("a second without line (the first: line {first})"));
        }
        if self.body {
            return Err(
                "the without line must come before the tactical, shape and pattern lines".into(),
            );
        }
        self.left_out = LeftOut::from_names(names)?;
        self.header_line = Some(at);
        Ok(())
    }

    /// A `tactical NAME G0 G1 …` line's fields after its kind.
    fn tactical<'a>(&mut self, mut fields: impl Iterator<Item = &'a str>) -> Result<(), String> {
        let name = fields.next().unwrap_or("");
        let Some(k) = GROUPS.iter().position(|g| g.0 == name) else {
            return Err(format!("unknown tactical group {name:?}"));
        };
        if self.left_out.tactical(k) {
            return Err(self.left(name));
        }
        let values: Option<Vec<f32>> = fields.map(|g| strength(Some(g))).collect();
        let values = values.ok_or("a strength is not a positive number")?;
        if values.len() != GROUPS[k].1 {
            return Err(format!(
                "{name} has {} values, not {}",
                values.len(),
                GROUPS[k].1
            ));
        }
        if self.tactical[k].is_some() {
            return Err(format!("{name} is named twice"));
        }
        self.tactical[k] = Some(values.iter().map(|g| g.ln()).collect());
        Ok(())
    }

    /// A `shape SHAPE G` line's fields after its kind.
    fn shape<'a>(&mut self, mut fields: impl Iterator<Item = &'a str>) -> Result<(), String> {
        if self.left_out.shape() {
            return Err(self.left(SHAPE));
        }
        let code = fields.next().and_then(parse_shape).ok_or("not a shape")?;
        let g = strength(fields.next()).ok_or("the strength is not a positive number")?;
        if !self.named.insert(canonical(code)) {
            return Err("the shape is named twice".into());
        }
        for v in symmetries(code) {
            self.shapes.set(v, g.ln());
        }
        self.shapes.shapes += 1;
        Ok(())
    }

    /// A `pattern SIZE HASH G` line's fields after its kind.
    fn pattern<'a>(&mut self, mut fields: impl Iterator<Item = &'a str>) -> Result<(), String> {
        if self.left_out.large_patterns() {
            return Err(self.left(LARGE_PATTERNS));
        }
        let size: Option<u32> = fields.next().and_then(|s| s.parse().ok());
        if !size.is_some_and(|s| PATTERN_SIZES.contains(&s)) {
            return Err(format!("the size is not one of {PATTERN_SIZES:?}"));
        }
        let hash = fields
            .next()
            .and_then(|h| u64::from_str_radix(h, 16).ok())
            .ok_or("the hash is not hexadecimal")?;
        let g = strength(fields.next()).ok_or("the strength is not a positive number")?;
        if self.patterns.insert(hash, g.ln()).is_some() {
            return Err("the pattern is named twice".into());
        }
        Ok(())
    }

    /// The model read, once every group not left out has had its line.
    fn finish(self) -> Result<MoveModel, ModelError> {
        let mut groups = Vec::with_capacity(TACTICAL);
        for (k, t) in self.tactical.into_iter().enumerate() {
            if self.left_out.tactical(k) {
                // Weighs nothing: every value has strength 1.
                groups.push(vec![0.0; GROUPS[k].1]);
                continue;
            }
            groups.push(t.ok_or_else(|| ModelError {
                line: 0,
                reason: format!("no tactical {} line", GROUPS[k].0),
            })?);
        }
        Ok(MoveModel {
            left_out: self.left_out,
            tactical: groups.try_into().expect("one per group"),
            shapes: self.shapes,
            patterns: self.patterns,
        })
    }
}

impl MoveModel {
    /// Reads a table (see the module's documentation).
    pub fn parse(text: &str) -> Result<MoveModel, ModelError> {
        let mut table = TableReader::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line == "#" || line.starts_with("# ") {
                continue;
            }
            table.read(i + 1, line).map_err(|reason| ModelError {
                line: i + 1,
                reason,
            })?;
        }
        table.finish()
    }

    /// Reads the table in `path`; the error names the file (and line).
    pub fn load(path: &std::path::Path) -> Result<MoveModel, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        MoveModel::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The feature groups the table was fitted without (its `without` line).
    pub fn left_out(&self) -> LeftOut {
        self.left_out
    }

    /// Shapes named.
    pub fn shapes(&self) -> usize {
        self.shapes.len()
    }

    /// The log strength of value `value` of tactical group `group` (an index into
    /// [`GROUPS`]); 0 for a left-out group, and for a value out of range.
    pub fn tactical_log_strength(&self, group: usize, value: usize) -> f32 {
        self.tactical
            .get(group)
            .and_then(|g| g.get(value))
            .copied()
            .unwrap_or(0.0)
    }

    /// The log strength of the 3×3 shape with raw code `code` (as
    /// [`shape_code`](crate::shape::shape_code) makes it); 0 when the shape is not named or
    /// the shape is left out.
    pub fn shape_log_strength(&self, code: u32) -> f32 {
        if self.left_out.shape() || code as usize >= crate::shape::SHAPE_CODES {
            0.0
        } else {
            self.shapes.log_gamma(code)
        }
    }

    /// Large patterns named.
    pub fn patterns(&self) -> usize {
        self.patterns.len()
    }

    /// The log strength of the largest named pattern of a candidate (0 if none).
    pub fn pattern_log_strength(&self, f: &RawFeatures) -> f32 {
        if f.mv == Move::Pass || self.left_out.large_patterns() {
            return 0.0;
        }
        (0..PATTERNS)
            .rev()
            .find_map(|k| self.patterns.get(&f.patterns[k]).copied())
            .unwrap_or(0.0)
    }
}

impl MoveScorer for MoveModel {
    fn log_strength(&self, f: &RawFeatures) -> f32 {
        // A left-out group's values all weigh 0, whatever `f` says.
        let tactical: f32 = f
            .tactical
            .iter()
            .zip(&self.tactical)
            .map(|(&v, g)| g[v as usize])
            .sum();
        let shape = if self.left_out.shape() {
            0.0
        } else {
            self.shapes.log_strength(f)
        };
        tactical + shape + self.pattern_log_strength(f)
    }

    fn left_out(&self) -> LeftOut {
        self.left_out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::move_model::features::{History, point_features};
    use crate::move_model::pattern::PatternHasher;
    use tengen_board::{Board, BoardSize, Color};

    fn tactical_lines() -> String {
        GROUPS
            .iter()
            .map(|(name, n)| format!("tactical {name} {}\n", vec!["1"; *n].join(" ")))
            .collect()
    }

    /// Each table is refused, the error naming its line (0: the table as a whole).
    fn assert_refused_at(cases: impl IntoIterator<Item = (String, usize)>) {
        for (bad, line) in cases {
            let e = MoveModel::parse(&bad).unwrap_err();
            assert_eq!(e.line, line, "{bad:?}: {e}");
        }
    }

    /// The features of Black's D4 on an empty 19×19 board.
    fn d4_on_an_empty_board() -> RawFeatures {
        let size = BoardSize::new(19).unwrap();
        let board = Board::new(size);
        let p = size.parse_point("D4").unwrap();
        point_features(
            &board,
            &PatternHasher::new(),
            Color::Black,
            p,
            &History::default(),
            LeftOut::NOTHING,
        )
    }

    #[test]
    fn a_table_reads_and_rates() {
        let f = d4_on_an_empty_board();
        let text = format!(
            "# test\n{}shape .../.*./... 2\npattern 5 {:x} 3 10\npattern 9 {:x} 5\n",
            tactical_lines().replace("tactical edge 1 1 1", "tactical edge 1 1 1.5"),
            f.patterns[2],
            f.patterns[6]
        );
        let m = MoveModel::parse(&text).unwrap();
        assert_eq!((m.shapes(), m.patterns()), (1, 2));
        // D4 is on the fourth line (edge value 3: strength 1, only value 2 is 1.5); its
        // largest named pattern is the size-9 one.
        let want = 2f32.ln() + 5f32.ln();
        let got = m.log_strength(&f);
        assert!((got - want).abs() < 1e-5, "{got} {want}");
    }

    #[test]
    fn a_without_line_leaves_groups_out_of_the_table_and_the_rating() {
        let f = d4_on_an_empty_board();
        let kept = tactical_lines()
            .replace("tactical edge 1 1 1 1 1 1\n", "")
            .replace("tactical atari 1 1 1 1", "tactical atari 1 2 1 1");
        let text = format!("# a test\nwithout edge shape large-patterns\n{kept}");
        let m = MoveModel::parse(&text).unwrap();
        assert_eq!(
            m.left_out(),
            LeftOut::parse_list("edge,shape,large-patterns").unwrap()
        );
        assert_eq!(MoveScorer::left_out(&m), m.left_out());
        // D4 is on the fourth line: edge value 3, which the table does not weigh even
        // when the candidate's features were computed in full.
        let mut g = f;
        g.tactical[7] = 0;
        assert_eq!(m.log_strength(&f), m.log_strength(&g));
        assert_eq!(m.log_strength(&f), 0.0);
        g.tactical[3] = 1;
        assert!((m.log_strength(&g) - 2f32.ln()).abs() < 1e-6);
        // Lines of a left-out group, and a without line that is not the header, are
        // errors naming the line.
        assert_refused_at([
            (format!("{text}tactical edge 1 1 1 1 1 1\n"), 10),
            (format!("{text}shape .../.*./... 2\n"), 10),
            (format!("{text}pattern 5 ab 2\n"), 10),
            (format!("{text}without capture\n"), 10),
            (format!("{kept}without edge\n"), 8),
            ("without bogus\n".to_string(), 1),
            ("without pass\n".to_string(), 1),
            ("without\n".to_string(), 1),
            (format!("without shape\n{kept}"), 0),
        ]);
        let e = MoveModel::parse("# x\nwithout bogus\n").unwrap_err();
        assert!(
            e.reason.contains("bogus") && e.reason.contains("large-patterns"),
            "{e}"
        );
    }

    #[test]
    fn the_shipped_table_reads_and_is_not_empty() {
        let m = MoveModel::parse(include_str!("../../data/moves.txt"))
            .expect("crates/knowledge/data/moves.txt");
        assert!(m.shapes() > 500, "{} shapes", m.shapes());
        assert!(m.patterns() > 1000, "{} patterns", m.patterns());
        // Its header has no without line: nothing is left out.
        assert_eq!(m.left_out(), LeftOut::NOTHING);
        // Taking the stones that just put ours in atari is far better than a quiet move.
        let capture = m.tactical[1][1].exp();
        assert!(capture > 10.0, "{capture}");
    }

    #[test]
    fn bad_tables_name_the_line() {
        let good = tactical_lines();
        assert!(MoveModel::parse(&good).is_ok());
        assert_refused_at([
            (format!("{good}shape XO./.*. 2\n"), 9),
            (format!("{good}pattern 10 ab 2\n"), 9),
            (format!("{good}pattern 5 xyz 2\n"), 9),
            (format!("{good}pattern 5 ab -2\n"), 9),
            (format!("{good}pattern 5 ab 2\npattern 6 ab 2\n"), 10),
            (format!("{good}bogus 1\n"), 9),
            (good.replace("tactical pass 1 1 1", "tactical pass 1 1"), 1),
            (format!("{good}tactical pass 1 1 1\n"), 9),
            (good.replace("tactical pass 1 1 1\n", ""), 0),
        ]);
    }
}
