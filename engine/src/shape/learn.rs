//! Fitting shape strengths to the moves of game records (`examples/learn_shapes.rs`
//! is the command line around it).
//!
//! Every move played is a "win" of the chosen point over every other point its player
//! could legally have played there, own eyes excepted. Each candidate has four
//! features: its shape, its distance to the last move, what it captures and whether
//! it is a self-atari. A move's strength is the product of its features' strengths,
//! fitted by the minorization-maximization of Coulom's "Computing Elo Ratings of
//! Move Patterns in the Game of Go" (2007), with one virtual win and one virtual loss
//! against a strength-1 opponent for each feature.

pub mod moves;
pub mod teams;

use std::collections::HashMap;

use tengen_board::{Board, Color, Game, Move, Point};

use super::{canonical, describe, shape_code};
use crate::tactics::stones_captured;

/// Distance-to-last-move buckets: far or none, then Coulom's distance
/// (`dx + dy + max(dx, dy)`) 2, 3, 4, 5, 6–7, 8–10.
pub const DISTANCE_BUCKETS: usize = 7;
/// Capture buckets: nothing, one stone, two or more.
pub const CAPTURE_BUCKETS: usize = 3;
/// Self-atari buckets: none, of one stone, of two or more.
pub const SELF_ATARI_BUCKETS: usize = 3;

/// The code of open space: eight empty neighbours, no flags.
const OPEN_SPACE: u32 = 0xAAAA;

/// One training position: its candidates (a range of `Records::candidates`) and the
/// index of the move played among them.
#[derive(Debug)]
struct Position {
    start: usize,
    end: usize,
    chosen: usize,
}

/// A candidate's features: shape index, distance, capture and self-atari buckets.
type Features = [u32; 4];

/// The training positions read from game records.
#[derive(Debug, Default)]
pub struct Records {
    positions: Vec<Position>,
    candidates: Vec<Features>,
    shapes: Vec<u32>,
    shape_index: HashMap<u32, u32>,
}

impl Records {
    /// No positions yet.
    pub fn new() -> Records {
        Records::default()
    }

    /// Training positions so far.
    pub fn positions(&self) -> usize {
        self.positions.len()
    }

    /// Candidates over all positions.
    pub fn candidates(&self) -> usize {
        self.candidates.len()
    }

    /// Distinct shapes seen.
    pub fn shapes(&self) -> usize {
        self.shapes.len()
    }

    fn shape(&mut self, code: u32) -> u32 {
        let name = canonical(code);
        let next = self.shapes.len() as u32;
        *self.shape_index.entry(name).or_insert_with(|| {
            self.shapes.push(name);
            next
        })
    }

    /// Adds every move of `game` as a training position; false if the replay stopped
    /// early (the positions before the failure are kept).
    pub fn add_game(&mut self, game: &Game) -> bool {
        let mut replay = Game::new(game.size(), *game.rules());
        for &(c, p) in game.setup_stones() {
            if replay.add_setup_stone(c, p).is_err() {
                return false;
            }
        }
        // After handicap stones (or `PL[W]`) White moves first; superko keys need it.
        replay.set_to_move(game.start_to_move());
        let mut last = None;
        for (c, m) in game.moves() {
            if let Move::Play(played) = m {
                self.add_position(&replay, c, played, last);
            }
            if replay.play(c, m).is_err() {
                return false;
            }
            last = match m {
                Move::Play(p) => Some(p),
                Move::Pass => None,
            };
        }
        true
    }

    fn add_position(&mut self, game: &Game, c: Color, played: Point, last: Option<Point>) {
        let board = game.board();
        let start = self.candidates.len();
        let mut chosen = None;
        for &q in board.empty_points() {
            if board.is_eye(c, q) || game.check(c, Move::Play(q)).is_err() {
                continue;
            }
            if q == played {
                chosen = Some(self.candidates.len() - start);
            }
            let shape = self.shape(shape_code(board, c, q));
            self.candidates.push([
                shape,
                distance_bucket(board, last, q),
                capture_bucket(board, c, q),
                self_atari_bucket(board, c, q),
            ]);
        }
        match chosen {
            Some(chosen) if self.candidates.len() - start > 1 => self.positions.push(Position {
                start,
                end: self.candidates.len(),
                chosen,
            }),
            // An own-eye fill or a forced move teaches nothing.
            _ => self.candidates.truncate(start),
        }
    }
}

fn distance_bucket(board: &Board, last: Option<Point>, p: Point) -> u32 {
    let Some(l) = last else { return 0 };
    let size = board.size();
    let (px, py) = size.coords(p);
    let (lx, ly) = size.coords(l);
    let (dx, dy) = (px.abs_diff(lx), py.abs_diff(ly));
    match dx + dy + dx.max(dy) {
        2 => 1,
        3 => 2,
        4 => 3,
        5 => 4,
        6..=7 => 5,
        8..=10 => 6,
        _ => 0,
    }
}

/// Stones captured (each adjacent group counted once), capped at 2.
fn capture_bucket(board: &Board, c: Color, p: Point) -> u32 {
    stones_captured(board, c, p).min(2)
}

fn self_atari_bucket(board: &Board, c: Color, p: Point) -> u32 {
    match board.self_atari_size(c, p) {
        Some(n) if n >= 2 => 2,
        Some(_) => 1,
        None => 0,
    }
}

/// Fitted strengths: the shapes (by `Records` index), then the distance, capture and
/// self-atari buckets.
#[derive(Debug)]
pub struct Fit {
    gamma: Vec<f64>,
    offsets: [usize; 4],
}

/// One row of a shape table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The shape's canonical code.
    pub shape: u32,
    /// Its strength, open space being 1.
    pub strength: f64,
    /// Times it was played.
    pub played: u64,
    /// Times it was a candidate.
    pub seen: u64,
}

impl Fit {
    fn strength(&self, f: &Features) -> f64 {
        (0..4)
            .map(|g| self.gamma[self.offsets[g] + f[g] as usize])
            .product()
    }

    /// Mean log-probability the model gives the moves played.
    pub fn log_likelihood(&self, records: &Records) -> f64 {
        let mut sum = 0.0;
        for pos in &records.positions {
            let cands = &records.candidates[pos.start..pos.end];
            let e: f64 = cands.iter().map(|f| self.strength(f)).sum();
            sum += (self.strength(&cands[pos.chosen]) / e).ln();
        }
        sum / records.positions.len().max(1) as f64
    }

    fn group(&self, g: usize, len: usize) -> &[f64] {
        &self.gamma[self.offsets[g]..self.offsets[g] + len]
    }

    /// Strengths of the distance buckets ([`DISTANCE_BUCKETS`]).
    pub fn distance(&self) -> &[f64] {
        self.group(1, DISTANCE_BUCKETS)
    }

    /// Strengths of the capture buckets ([`CAPTURE_BUCKETS`]).
    pub fn capture(&self) -> &[f64] {
        self.group(2, CAPTURE_BUCKETS)
    }

    /// Strengths of the self-atari buckets ([`SELF_ATARI_BUCKETS`]).
    pub fn self_atari(&self) -> &[f64] {
        self.group(3, SELF_ATARI_BUCKETS)
    }

    /// The shapes seen at least `min_seen` times as candidates, strongest first, with
    /// strengths scaled so that open space has strength 1 (as every shape a table
    /// leaves out has in the engine).
    pub fn rows(&self, records: &Records, min_seen: u64) -> Vec<Row> {
        let n = records.shapes.len();
        let mut seen = vec![0u64; n];
        let mut played = vec![0u64; n];
        for pos in &records.positions {
            for (k, f) in records.candidates[pos.start..pos.end].iter().enumerate() {
                seen[f[0] as usize] += 1;
                if k == pos.chosen {
                    played[f[0] as usize] += 1;
                }
            }
        }
        let open = records
            .shape_index
            .get(&canonical(OPEN_SPACE))
            .map_or(1.0, |&i| self.gamma[i as usize]);
        let mut rows: Vec<Row> = (0..n)
            .filter(|&i| seen[i] >= min_seen)
            .map(|i| Row {
                shape: records.shapes[i],
                strength: self.gamma[i] / open,
                played: played[i],
                seen: seen[i],
            })
            .collect();
        rows.sort_by(|a, b| b.strength.total_cmp(&a.strength));
        rows
    }
}

/// Fits the strengths: `iterations` rounds of one MM update per feature group;
/// `progress` gets the round number and the log-likelihood every ten rounds and at
/// the end.
pub fn fit(records: &Records, iterations: usize, mut progress: impl FnMut(usize, f64)) -> Fit {
    let d = records.shapes.len();
    let c = d + DISTANCE_BUCKETS;
    let s = c + CAPTURE_BUCKETS;
    let total = s + SELF_ATARI_BUCKETS;
    let mut fit = Fit {
        gamma: vec![1.0; total],
        offsets: [0, d, c, s],
    };
    let off = fit.offsets;
    let mut wins = vec![0.0f64; total];
    for pos in &records.positions {
        let f = &records.candidates[pos.start + pos.chosen];
        for g in 0..4 {
            wins[off[g] + f[g] as usize] += 1.0;
        }
    }
    let mut denominators = vec![0.0f64; total];
    for round in 1..=iterations {
        for g in 0..4 {
            denominators.iter_mut().for_each(|d| *d = 0.0);
            for pos in &records.positions {
                let cands = &records.candidates[pos.start..pos.end];
                let e: f64 = cands.iter().map(|f| fit.strength(f)).sum();
                for f in cands {
                    let i = off[g] + f[g] as usize;
                    denominators[i] += fit.strength(f) / fit.gamma[i] / e;
                }
            }
            let end = if g == 3 { total } else { off[g + 1] };
            for i in off[g]..end {
                // One virtual win and one virtual loss against strength 1.
                fit.gamma[i] = (wins[i] + 1.0) / (denominators[i] + 2.0 / (fit.gamma[i] + 1.0));
            }
        }
        if round % 10 == 0 || round == iterations {
            progress(round, fit.log_likelihood(records));
        }
    }
    fit
}

/// A table in the format `ShapeWeights::parse` reads: `header` lines as comments,
/// then `SHAPE STRENGTH PLAYED SEEN` rows.
pub fn write_table(header: &[String], rows: &[Row]) -> String {
    let mut out = String::new();
    for h in header {
        out.push_str("# ");
        out.push_str(h);
        out.push('\n');
    }
    for r in rows {
        // Four decimals, or four significant digits below 0.01 (never a written 0).
        let strength = if r.strength >= 0.01 {
            format!("{:.4}", r.strength)
        } else {
            format!("{:.3e}", r.strength)
        };
        out.push_str(&format!(
            "{} {strength} {} {}\n",
            describe(r.shape),
            r.played,
            r.seen
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playout::{Rng, below};
    use crate::shape::ShapeWeights;
    use rand::SeedableRng;
    use tengen_board::{BoardSize, Rules};

    /// Games whose players answer next to the last move whenever they can.
    fn contact_games(n: usize) -> Records {
        let mut rng = Rng::seed_from_u64(7);
        let mut records = Records::new();
        let size = BoardSize::new(9).unwrap();
        for _ in 0..n {
            let mut game = Game::new(size, Rules::chinese());
            let mut last: Option<Point> = None;
            for _ in 0..50 {
                let c = game.to_move();
                let legal: Vec<Point> = game
                    .legal_points(c)
                    .into_iter()
                    .filter(|&p| !game.board().is_eye(c, p))
                    .collect();
                let near: Vec<Point> = legal
                    .iter()
                    .copied()
                    .filter(|&p| last.is_some_and(|l| size.neighbours(l).contains(&p)))
                    .collect();
                let pool = if near.is_empty() { &legal } else { &near };
                if pool.is_empty() {
                    break;
                }
                let p = pool[below(&mut rng, pool.len())];
                game.play(c, Move::Play(p)).unwrap();
                last = Some(p);
            }
            assert!(records.add_game(&game));
        }
        records
    }

    #[test]
    fn the_fit_finds_what_the_players_prefer() {
        let records = contact_games(20);
        assert!(records.positions() > 500, "{}", records.positions());
        let mut rounds = Vec::new();
        let fit = fit(&records, 20, |r, ll| rounds.push((r, ll)));
        assert_eq!(rounds.iter().map(|r| r.0).collect::<Vec<_>>(), [10, 20]);
        // Each round of MM raises the likelihood.
        assert!(rounds[1].1 >= rounds[0].1 - 1e-9, "{rounds:?}");
        let d = fit.distance();
        // Adjacent to the last move (distance 2) is what these players do.
        assert!(d[1] > 20.0 * d[0], "{d:?}");
        assert!(d[1] > 20.0 * d[2], "{d:?}");
        // And the model beats a uniform guess by far.
        let uniform = -(60f64).ln();
        assert!(fit.log_likelihood(&records) > uniform + 1.0);
    }

    /// At the maximum of the likelihood each feature is expected to be played as
    /// often as it was (up to the virtual win and loss): the MM fixed point.
    #[test]
    fn the_fit_matches_expected_and_observed_counts() {
        let records = contact_games(10);
        let fit = fit(&records, 60, |_, _| {});
        for g in 1..4 {
            let mut expected = [0.0f64; DISTANCE_BUCKETS];
            let mut observed = [0.0f64; DISTANCE_BUCKETS];
            for pos in &records.positions {
                let cands = &records.candidates[pos.start..pos.end];
                let e: f64 = cands.iter().map(|f| fit.strength(f)).sum();
                for f in cands {
                    expected[f[g] as usize] += fit.strength(f) / e;
                }
                observed[cands[pos.chosen][g] as usize] += 1.0;
            }
            for (x, o) in expected.iter().zip(observed) {
                assert!(
                    (x - o).abs() <= 0.03 * o + 2.0,
                    "group {g}: {expected:?} {observed:?}"
                );
            }
        }
    }

    #[test]
    fn a_written_table_reads_back() {
        let records = contact_games(3);
        let fit = fit(&records, 5, |_, _| {});
        let rows = fit.rows(&records, 1);
        assert!(rows.windows(2).all(|w| w[0].strength >= w[1].strength));
        assert!(rows.iter().all(|r| r.seen >= r.played && r.seen >= 1));
        let text = write_table(&["a test".to_string()], &rows);
        let table = ShapeWeights::parse(&text).unwrap();
        assert_eq!(table.len(), rows.len());
        for r in &rows {
            let got = f64::from(table.log_gamma(r.shape));
            // Written with four decimals or four significant digits.
            assert!(
                (got.exp() - r.strength).abs() < 1e-4 + r.strength * 1e-3,
                "{r:?}"
            );
        }
    }
}
