//! Fitting the move model ([`MoveModel`](tengen_knowledge::MoveModel)) to game
//! records, in two streamed passes over them: [`PatternCounts`] counts the large
//! patterns of the moves played, then [`MoveTraining`] makes every position a
//! competition of teams (tactical values, 3×3 shape, the largest pattern played at
//! least `min_played` times) and fits them by MM ([`Competitions`]).
//!
//! Memory does not grow with the records: the counts are a table of fixed size
//! ([`BoundedCounts`]), the competitions go to a temporary file, and what is kept is
//! one entry per 3×3 shape and per pattern named.

use std::collections::HashMap;
use std::io;
use std::path::Path;

use tengen_board::{Game, Move};
use tengen_knowledge::move_model::features::{GROUPS, NO_SHAPE, RawFeatures, TACTICAL, candidates};
use tengen_knowledge::move_model::left_out::LeftOut;
use tengen_knowledge::move_model::pattern::{PATTERN_SIZES, PATTERNS, PatternHasher};
use tengen_knowledge::shape::{canonical, describe};

use crate::counts::BoundedCounts;
use crate::eval::replay;
use crate::teams::{Competitions, FitProgress, TeamFit};

/// Distinct patterns [`PatternCounts`] holds by default: counts are exact up to
/// this many (about 4.8 million were played in 7 000 games of the 9-dan records),
/// and the table takes 128 MB.
pub const PATTERN_CAPACITY: usize = 6_000_000;

/// How often each large pattern was played: hash → (size index, count), in a table
/// of fixed size ([`BoundedCounts`]: exact until it fills, then within its floor).
#[derive(Debug)]
pub struct PatternCounts {
    hasher: PatternHasher,
    counts: BoundedCounts,
}

impl PatternCounts {
    /// No games yet; room for `capacity` distinct patterns.
    pub fn new(capacity: usize) -> PatternCounts {
        PatternCounts {
            hasher: PatternHasher::new(),
            counts: BoundedCounts::new(capacity),
        }
    }

    /// Counts the patterns of every move played in `game`.
    pub fn add_game(&mut self, game: &Game) {
        let PatternCounts { hasher, counts } = self;
        replay(game, |board, c, m, _, _| {
            if let Move::Play(p) = m
                && board.check(c, p).is_ok()
            {
                for (k, h) in hasher.hashes(board, c, p).into_iter().enumerate() {
                    counts.add(h, k as u8);
                }
            }
        });
    }

    /// Distinct patterns held.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// How many times the counts were lowered to make room (0: they are exact).
    pub fn floor(&self) -> u32 {
        self.counts.floor()
    }

    /// Whether nothing was counted.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// The patterns played at least `min_played` times, by hash: (hash, size index,
    /// count).
    pub fn frequent(&self, min_played: u32) -> Vec<(u64, u8, u32)> {
        self.counts.at_least(min_played)
    }
}

/// Team value slots: the tactical groups, then the shape, then the pattern.
const SHAPE: usize = TACTICAL;
const PATTERN: usize = TACTICAL + 1;
const SLOTS: usize = TACTICAL + 2;

/// The code of open space: eight empty neighbours, no flags.
const OPEN_SPACE: u32 = 0xAAAA;

/// Bits of each team slot in the competitions file: each tactical group's values,
/// then the shape (a 1-based index among at most 2^20 codes) and the pattern.
fn slot_bits() -> [u32; SLOTS] {
    let mut bits = [32; SLOTS];
    for (b, &(_, n)) in bits.iter_mut().zip(GROUPS.iter()) {
        *b = (usize::BITS - (n - 1).max(1).leading_zeros()).max(1);
    }
    bits[SHAPE] = 21;
    bits
}

/// The training set of the move model.
#[derive(Debug)]
pub struct MoveTraining {
    hasher: PatternHasher,
    /// The feature groups not computed: each takes the one value 0 in every team, so
    /// the fit leaves its strength at 1 and the table has no line for it.
    left_out: LeftOut,
    /// Known pattern hash → team value (1-based; 0 is none).
    patterns: HashMap<u64, u32>,
    /// (hash, size index, times played) by team value - 1.
    pattern_list: Vec<(u64, u8, u32)>,
    /// Raw 3×3 code → team value (1-based; 0 is the pass).
    shape_of_code: HashMap<u32, u32>,
    /// Canonical code → team value.
    shape_of_name: HashMap<u32, u32>,
    /// Canonical codes by team value - 1.
    shape_list: Vec<u32>,
    competitions: Competitions,
    cands: Vec<RawFeatures>,
    teams: Vec<u32>,
}

impl MoveTraining {
    /// A training set naming the `patterns` ([`PatternCounts::frequent`]; none
    /// are named when the large patterns are left out), without the groups in
    /// `left_out`, its competitions in a temporary file in `dir`.
    pub fn new(
        patterns: Vec<(u64, u8, u32)>,
        left_out: LeftOut,
        dir: &Path,
    ) -> io::Result<MoveTraining> {
        let patterns = if left_out.large_patterns() {
            Vec::new()
        } else {
            patterns
        };
        Ok(MoveTraining {
            hasher: PatternHasher::new(),
            left_out,
            patterns: patterns
                .iter()
                .enumerate()
                .map(|(i, p)| (p.0, i as u32 + 1))
                .collect(),
            pattern_list: patterns,
            shape_of_code: HashMap::new(),
            shape_of_name: HashMap::new(),
            shape_list: Vec::new(),
            competitions: Competitions::new(&slot_bits(), dir)?,
            cands: Vec::new(),
            teams: Vec::new(),
        })
    }

    /// The competitions so far.
    pub fn competitions(&self) -> &Competitions {
        &self.competitions
    }

    fn shape_value(&mut self, code: u32) -> u32 {
        if code == NO_SHAPE {
            return 0;
        }
        if let Some(&v) = self.shape_of_code.get(&code) {
            return v;
        }
        let name = canonical(code);
        let next = self.shape_list.len() as u32 + 1;
        let v = *self.shape_of_name.entry(name).or_insert(next);
        if v == next {
            self.shape_list.push(name);
        }
        self.shape_of_code.insert(code, v);
        v
    }

    /// Adds every move of `game` as a competition; `Ok(false)` if the replay stopped
    /// early (the moves before are kept). An error is the temporary file's.
    pub fn add_game(&mut self, game: &Game) -> io::Result<bool> {
        let mut cands = std::mem::take(&mut self.cands);
        let mut teams = std::mem::take(&mut self.teams);
        let hasher = self.hasher.clone();
        let left_out = self.left_out;
        let mut failed = None;
        let ok = replay(game, |board, c, m, history, _| {
            if failed.is_some() {
                return;
            }
            candidates(board, &hasher, c, history, left_out, &mut cands);
            let Some(won) = cands.iter().position(|f| f.mv == m) else {
                return;
            };
            teams.clear();
            for f in &cands {
                teams.extend(f.tactical.iter().map(|&v| u32::from(v)));
                teams.push(self.shape_value(f.shape));
                let pattern = if f.mv == Move::Pass || self.patterns.is_empty() {
                    0
                } else {
                    (0..PATTERNS)
                        .rev()
                        .find_map(|k| self.patterns.get(&f.patterns[k]).copied())
                        .unwrap_or(0)
                };
                teams.push(pattern);
            }
            if let Err(e) = self.competitions.add(&teams, won) {
                failed = Some(e);
            }
        });
        self.cands = cands;
        self.teams = teams;
        match failed {
            Some(e) => Err(e),
            None => Ok(ok),
        }
    }

    /// Fits the model (see [`Competitions::fit`]).
    pub fn fit(&mut self, rounds: usize, progress: impl FnMut(FitProgress)) -> io::Result<TeamFit> {
        self.competitions.fit(rounds, progress)
    }

    /// The fitted model as a table [`MoveModel::parse`] reads, `header` lines first
    /// as comments, then a `without` line naming the groups left out (none when
    /// nothing is), and no line for them. Each tactical group is scaled so that its
    /// value 0 has strength 1, the shapes so that open space has, the patterns so
    /// that "no pattern" has; what a pass's shape weighed goes into the pass values.
    ///
    /// [`MoveModel::parse`]: tengen_knowledge::MoveModel::parse
    pub fn table(&self, fit: &TeamFit, header: &[String]) -> String {
        let gamma = |k: usize, v: usize| fit.gammas[k].get(v).copied().unwrap_or(1.0);
        let open = self
            .shape_of_name
            .get(&canonical(OPEN_SPACE))
            .map_or(1.0, |&v| gamma(SHAPE, v as usize));
        let mut out = String::new();
        for h in header {
            out.push_str("# ");
            out.push_str(h);
            out.push('\n');
        }
        if !self.left_out.is_nothing() {
            out.push_str(&format!(
                "without {}\n",
                self.left_out.group_names().join(" ")
            ));
        }
        let num = |g: f64| {
            if g >= 0.01 {
                format!("{g:.4}")
            } else {
                format!("{g:.3e}")
            }
        };
        for (k, &(name, n)) in GROUPS.iter().enumerate() {
            if self.left_out.tactical(k) {
                continue;
            }
            let base = gamma(k, 0);
            let values: Vec<String> = (0..n)
                .map(|v| {
                    let mut g = gamma(k, v) / base;
                    if k == 0 && v > 0 {
                        g *= gamma(SHAPE, 0) / open;
                    }
                    num(g)
                })
                .collect();
            out.push_str(&format!("tactical {name} {}\n", values.join(" ")));
        }
        for (i, &code) in self.shape_list.iter().enumerate() {
            let g = gamma(SHAPE, i + 1) / open;
            out.push_str(&format!("shape {} {}\n", describe(code), num(g)));
        }
        let none = gamma(PATTERN, 0);
        for (i, &(hash, k, played)) in self.pattern_list.iter().enumerate() {
            let g = gamma(PATTERN, i + 1) / none;
            out.push_str(&format!(
                "pattern {} {hash:016x} {} {played}\n",
                PATTERN_SIZES[k as usize],
                num(g)
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluation;
    use tengen_board::sgf::parse_sgf;
    use tengen_knowledge::move_model::features::{History, point_features};
    use tengen_knowledge::move_model::{MoveModel, MoveScorer};

    /// A few games of one opening shape repeated with variations.
    fn games() -> Vec<Game> {
        [
            "(;SZ[9];B[ee];W[ec];B[cd];W[ge];B[gg];W[dg];B[cf];W[fg])",
            "(;SZ[9];B[ee];W[ce];B[dc];W[eg];B[gg];W[gd];B[fc];W[dg])",
            "(;SZ[9];B[ee];W[eg];B[cf];W[gc];B[cc];W[gf];B[dg];W[ge])",
            "(;SZ[9];B[ee];W[ge];B[fc];W[cg];B[cc];W[dg];B[gg];W[fg])",
        ]
        .iter()
        .map(|s| parse_sgf(s).unwrap().game)
        .collect()
    }

    #[test]
    fn a_fitted_table_reads_back_and_predicts_its_games() {
        let mut counts = PatternCounts::new(1000);
        for g in &games() {
            counts.add_game(g);
        }
        // The opening move's 60-point pattern (empty board) was played four times.
        let frequent = counts.frequent(4);
        assert!(!frequent.is_empty() && !counts.is_empty());
        let dir = std::env::temp_dir();
        let mut training = MoveTraining::new(frequent.clone(), LeftOut::NOTHING, &dir).unwrap();
        for g in &games() {
            assert!(training.add_game(g).unwrap());
        }
        assert_eq!(training.competitions().positions(), 32);
        let fit = training.fit(20, |_| {}).unwrap();
        let text = training.table(&fit, &["test".to_string()]);
        let model = MoveModel::parse(&text).unwrap();
        assert_eq!(model.patterns(), frequent.len());
        assert!(model.shapes() > 5);
        // The fit beats knowing nothing on its own games.
        let mut fitted = Evaluation::new();
        let mut blank = Evaluation::new();
        for g in &games() {
            fitted.add_game(g, &model);
            blank.add_game(g, &tengen_knowledge::shape::ShapeWeights::empty());
        }
        let (f, b) = (fitted.total(), blank.total());
        assert!(
            f.mean_log_likelihood() > b.mean_log_likelihood() + 0.5,
            "{f:?} {b:?}"
        );
        // The first move is always E5: its pattern makes it the first choice.
        assert_eq!(fitted.phases[0].positions, 32);
        // Deterministic: the same input writes the same table.
        let mut again = MoveTraining::new(frequent, LeftOut::NOTHING, &dir).unwrap();
        for g in &games() {
            again.add_game(g).unwrap();
        }
        let fit = again.fit(20, |_| {}).unwrap();
        assert_eq!(again.table(&fit, &["test".to_string()]), text);
    }

    /// Fits the test games without `left_out` and reads the table back.
    fn fitted(left_out: LeftOut) -> (String, MoveModel) {
        let mut counts = PatternCounts::new(1000);
        for g in &games() {
            counts.add_game(g);
        }
        let mut training =
            MoveTraining::new(counts.frequent(2), left_out, &std::env::temp_dir()).unwrap();
        for g in &games() {
            assert!(training.add_game(g).unwrap());
        }
        let fit = training.fit(20, |_| {}).unwrap();
        let text = training.table(&fit, &["test".to_string()]);
        let model = MoveModel::parse(&text).unwrap();
        (text, model)
    }

    #[test]
    fn a_fit_without_groups_says_so_and_its_ratings_ignore_them() {
        let (full_text, full) = fitted(LeftOut::NOTHING);
        assert!(!full_text.contains("without"));
        let left_out = LeftOut::parse_list("previous,shape,large-patterns").unwrap();
        let (text, model) = fitted(left_out);
        assert!(
            text.lines()
                .any(|l| l == "without previous shape large-patterns"),
            "{text}"
        );
        assert_eq!(model.left_out(), left_out);
        assert!(!text.contains("tactical previous"));
        assert!(text.contains("tactical before-previous"));
        assert_eq!((model.shapes(), model.patterns()), (0, 0));
        assert!(full.shapes() > 0 && full.patterns() > 0);
        // A candidate next to the last move against one far from it, with the same
        // shape and patterns: the full model tells them apart, the other does not.
        let game = &games()[0];
        let board = game.start_board().clone();
        let size = board.size();
        let p = size.parse_point("E5").unwrap();
        let history = History {
            last: Some(Move::Play(size.parse_point("E4").unwrap())),
            before: None,
        };
        let near = point_features(
            &board,
            &PatternHasher::new(),
            tengen_board::Color::Black,
            p,
            &history,
            LeftOut::NOTHING,
        );
        let mut far = near;
        far.tactical[5] = 16;
        let mut other_shape = near;
        other_shape.shape ^= 1;
        assert_ne!(full.log_strength(&near), full.log_strength(&far));
        assert_eq!(model.log_strength(&near), model.log_strength(&far));
        assert_eq!(model.log_strength(&near), model.log_strength(&other_shape));
    }
}
