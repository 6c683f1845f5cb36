//! Fitting the 3×3 shape strengths of `crates/knowledge/data/shapes.txt`
//! ([`ShapeWeights`](tengen_knowledge::shape::ShapeWeights)) to the moves of game records
//! (`examples/learn_shapes.rs` is the command line around it).
//!
//! Every move played is a "win" of the chosen point over every other point its player
//! could legally have played there, own eyes excepted. Each candidate has four
//! features: its shape, its distance to the last move, what it captures and whether
//! it is a self-atari. A move's strength is the product of its features' strengths,
//! fitted by the minorization-maximization of Coulom's "Computing Elo Ratings of
//! Move Patterns in the Game of Go" (2007), with one virtual win and one virtual loss
//! against a strength-1 opponent for each feature. The fit is the one MM core of
//! [`teams`](crate::teams), which the move model ([`moves`](crate::moves)) uses too; the positions go to a
//! temporary file, so memory does not grow with the records.

use std::collections::HashMap;
use std::io;
use std::path::Path;

use tengen_board::{Board, Color, Game, Move, Point};

use tengen_knowledge::shape::{canonical, describe, shape_code};
use tengen_knowledge::tactics::stones_captured;

use crate::eval::replay;
use crate::teams::{Competitions, FitProgress};

/// Distance-to-last-move buckets: far or none, then Coulom's distance
/// (`dx + dy + max(dx, dy)`) 2, 3, 4, 5, 6–7, 8–10.
pub const DISTANCE_BUCKETS: usize = 7;
/// Capture buckets: nothing, one stone, two or more.
pub const CAPTURE_BUCKETS: usize = 3;
/// Self-atari buckets: none, of one stone, of two or more.
pub const SELF_ATARI_BUCKETS: usize = 3;

/// The code of open space: eight empty neighbours, no flags.
const OPEN_SPACE: u32 = 0xAAAA;

/// Bits of a team's groups: the shape (an index among at most 2^20 codes), then
/// the distance, capture and self-atari buckets.
const TEAM_BITS: [u32; 4] = [20, 3, 2, 2];

/// The training positions read from game records, as competitions of teams (shape,
/// distance, capture, self-atari) in a temporary file ([`Competitions`]), with
/// how often each shape was a candidate and was played.
#[derive(Debug)]
pub struct Records {
    competitions: Competitions,
    shapes: Vec<u32>,
    shape_index: HashMap<u32, u32>,
    /// By shape index: times a candidate, times played.
    seen: Vec<u64>,
    played: Vec<u64>,
    candidates: u64,
    teams: Vec<u32>,
}

impl Records {
    /// No positions yet; the competitions go to a temporary file in `dir`.
    pub fn new(dir: &Path) -> io::Result<Records> {
        Ok(Records {
            competitions: Competitions::new(&TEAM_BITS, dir)?,
            shapes: Vec::new(),
            shape_index: HashMap::new(),
            seen: Vec::new(),
            played: Vec::new(),
            candidates: 0,
            teams: Vec::new(),
        })
    }

    /// Training positions so far.
    pub fn positions(&self) -> u64 {
        self.competitions.positions()
    }

    /// Candidates over all positions.
    pub fn candidates(&self) -> u64 {
        self.candidates
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
            self.seen.push(0);
            self.played.push(0);
            next
        })
    }

    /// Adds every move of `game` as a training position; `Ok(false)` if the replay
    /// stopped early (the positions before the failure are kept). The record is
    /// replayed on a [`Board`] with its checked play (the record was read by a
    /// `Game`, which checked the rule set); an error is the temporary file's.
    pub fn add_game(&mut self, game: &Game) -> io::Result<bool> {
        let mut failed = None;
        let ok = replay(game, |board, c, m, history, _| {
            let Move::Play(played) = m else { return };
            if failed.is_some() {
                return;
            }
            let last = match history.last {
                Some(Move::Play(p)) => Some(p),
                _ => None,
            };
            if let Err(e) = self.add_position(board, c, played, last) {
                failed = Some(e);
            }
        });
        match failed {
            Some(e) => Err(e),
            None => Ok(ok),
        }
    }

    fn add_position(
        &mut self,
        board: &Board,
        c: Color,
        played: Point,
        last: Option<Point>,
    ) -> io::Result<()> {
        let mut teams = std::mem::take(&mut self.teams);
        teams.clear();
        let mut chosen = None;
        for &q in board.empty_points() {
            if board.is_eye(c, q) || board.check(c, q).is_err() {
                continue;
            }
            if q == played {
                chosen = Some(teams.len() / TEAM_BITS.len());
            }
            teams.extend([
                self.shape(shape_code(board, c, q)),
                distance_bucket(board, last, q),
                capture_bucket(board, c, q),
                self_atari_bucket(board, c, q),
            ]);
        }
        let n = teams.len() / TEAM_BITS.len();
        let result = match chosen {
            // An own-eye fill or a forced move teaches nothing.
            Some(chosen) if n > 1 => {
                let added = self.competitions.add(&teams, chosen);
                if added.is_ok() {
                    for (k, team) in teams.chunks_exact(TEAM_BITS.len()).enumerate() {
                        self.seen[team[0] as usize] += 1;
                        if k == chosen {
                            self.played[team[0] as usize] += 1;
                        }
                    }
                    self.candidates += n as u64;
                }
                added
            }
            _ => Ok(()),
        };
        self.teams = teams;
        result
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
    gammas: Vec<Vec<f64>>,
    log_likelihood: f64,
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
    /// Mean log-probability the model gives the moves played.
    pub fn log_likelihood(&self) -> f64 {
        self.log_likelihood
    }

    /// Strengths of the distance buckets ([`DISTANCE_BUCKETS`]).
    pub fn distance(&self) -> &[f64] {
        &self.gammas[1]
    }

    /// Strengths of the capture buckets ([`CAPTURE_BUCKETS`]).
    pub fn capture(&self) -> &[f64] {
        &self.gammas[2]
    }

    /// Strengths of the self-atari buckets ([`SELF_ATARI_BUCKETS`]).
    pub fn self_atari(&self) -> &[f64] {
        &self.gammas[3]
    }

    /// The shapes seen at least `min_seen` times as candidates, strongest first, with
    /// strengths scaled so that open space has strength 1 (as every shape a table
    /// leaves out has in the engine).
    pub fn rows(&self, records: &Records, min_seen: u64) -> Vec<Row> {
        let shapes = &self.gammas[0];
        let open = records
            .shape_index
            .get(&canonical(OPEN_SPACE))
            .map_or(1.0, |&i| shapes[i as usize]);
        let mut rows: Vec<Row> = (0..records.shapes.len())
            .filter(|&i| records.seen[i] >= min_seen)
            .map(|i| Row {
                shape: records.shapes[i],
                strength: shapes.get(i).copied().unwrap_or(1.0) / open,
                played: records.played[i],
                seen: records.seen[i],
            })
            .collect();
        rows.sort_by(|a, b| b.strength.total_cmp(&a.strength));
        rows
    }
}

/// Fits the strengths by the MM of [`Competitions::fit`]: `iterations` rounds of
/// one update per feature group; `progress` hears after every pass.
pub fn fit(
    records: &mut Records,
    iterations: usize,
    progress: impl FnMut(FitProgress),
) -> io::Result<Fit> {
    let fit = records.competitions.fit(iterations, progress)?;
    let mut gammas = fit.gammas;
    // A bucket no candidate had keeps the prior's strength, 1.
    let buckets = [
        records.shapes.len(),
        DISTANCE_BUCKETS,
        CAPTURE_BUCKETS,
        SELF_ATARI_BUCKETS,
    ];
    for (g, n) in gammas.iter_mut().zip(buckets) {
        if g.len() < n {
            g.resize(n, 1.0);
        }
    }
    Ok(Fit {
        gammas,
        log_likelihood: fit.log_likelihood,
    })
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
    use rand::{RngCore, SeedableRng};
    use tengen_board::{BoardSize, Rules};
    use tengen_knowledge::shape::ShapeWeights;

    type Rng = rand::rngs::SmallRng;

    /// A uniform draw below `k` (the playouts' draw).
    fn below(rng: &mut Rng, k: usize) -> usize {
        ((u64::from(rng.next_u32()) * k as u64) >> 32) as usize
    }

    /// Games whose players answer next to the last move whenever they can.
    fn contact_games(n: usize) -> Records {
        let mut rng = Rng::seed_from_u64(7);
        let mut records = Records::new(&std::env::temp_dir()).unwrap();
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
            assert!(records.add_game(&game).unwrap());
        }
        records
    }

    #[test]
    fn the_fit_finds_what_the_players_prefer() {
        let mut records = contact_games(20);
        assert!(records.positions() > 500, "{}", records.positions());
        let mut lls = Vec::new();
        let fit = fit(&mut records, 20, |p| lls.push(p.log_likelihood)).unwrap();
        assert_eq!(lls.len(), 20 * 4 + 1);
        // Each round of MM raises the likelihood (measured at the round's first pass).
        let rounds: Vec<f64> = lls.iter().step_by(4).copied().collect();
        assert!(rounds.windows(2).all(|w| w[1] >= w[0] - 1e-9), "{rounds:?}");
        let d = fit.distance();
        assert_eq!(d.len(), DISTANCE_BUCKETS);
        // Adjacent to the last move (distance 2) is what these players do.
        assert!(d[1] > 20.0 * d[0], "{d:?}");
        assert!(d[1] > 20.0 * d[2], "{d:?}");
        // And the model beats a uniform guess by far.
        let uniform = -(60f64).ln();
        assert!(fit.log_likelihood() > uniform + 1.0);
        // The counts of the table: every shape played was a candidate.
        let seen: u64 = records.seen.iter().sum();
        assert_eq!(seen, records.candidates());
        assert_eq!(records.played.iter().sum::<u64>(), records.positions());
    }

    /// At the maximum of the likelihood each feature is expected to be played as
    /// often as it was (up to the virtual win and loss): the MM fixed point.
    #[test]
    fn the_fit_matches_expected_and_observed_counts() {
        let mut records = contact_games(10);
        let fit = fit(&mut records, 60, |_| {}).unwrap();
        let counts = records
            .competitions
            .expected_and_observed(&fit.gammas)
            .unwrap();
        for (g, values) in counts.iter().enumerate().skip(1) {
            for &(x, o) in values {
                assert!((x - o).abs() <= 0.03 * o + 2.0, "group {g}: {values:?}");
            }
        }
    }

    #[test]
    fn a_written_table_reads_back() {
        let mut records = contact_games(3);
        let fit = fit(&mut records, 5, |_| {}).unwrap();
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
