//! Ratings of every engine from all the games between them: the maximum-likelihood fit
//! of the Bradley-Terry model (the logistic Elo model Ordo and BayesElo fit), with 95%
//! intervals from the Fisher information.
//!
//! Engine `i` scores against engine `j` with probability `1 / (1 + 10^((Rj − Ri)/400))`;
//! a draw counts half a win to each side. The ratings are anchored with their **mean at
//! 0** (every engine's interval is then its own uncertainty; a difference of two ratings
//! has an interval of its own, [`Ratings::difference`]).
//!
//! The fit is Newton's method on the log-likelihood (concave) with step halving. The
//! maximum is finite only when the engines cannot be split into two groups one of which
//! scored nothing against the other (an engine that won every game has no finite
//! rating). Then one virtual draw is added between every two engines that met, as
//! BayesElo's prior does, and the result says so ([`Ratings::prior`]). Engines that
//! played no game are not rated; engines in groups that never met, directly or through
//! others, have no common scale and the fit is refused ([`RatingProblem`]).

use std::fmt;

use crate::stats::Z95;

/// Elo points per natural-log unit of odds: `400 / ln 10`.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// Results between every two of `k` engines.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    k: usize,
    /// `points[i * k + j]`: points `i` scored against `j` (a win 1, a draw ½).
    points: Vec<f64>,
    /// `games[i * k + j]`: games between `i` and `j` (symmetric).
    games: Vec<f64>,
}

impl Results {
    /// No games yet between `k` engines.
    pub fn new(k: usize) -> Results {
        Results {
            k,
            points: vec![0.0; k * k],
            games: vec![0.0; k * k],
        }
    }

    /// The number of engines.
    pub fn engines(&self) -> usize {
        self.k
    }

    /// Records one game between `a` and `b` that `a` scored `score` in (1 a win, ½ a
    /// draw, 0 a loss). A game of an engine with itself, or of an engine out of range,
    /// is ignored.
    pub fn add(&mut self, a: usize, b: usize, score: f64) {
        if a == b || a >= self.k || b >= self.k {
            return;
        }
        let score = score.clamp(0.0, 1.0);
        self.points[a * self.k + b] += score;
        self.points[b * self.k + a] += 1.0 - score;
        self.games[a * self.k + b] += 1.0;
        self.games[b * self.k + a] += 1.0;
    }

    /// Games between `a` and `b`.
    pub fn games(&self, a: usize, b: usize) -> f64 {
        self.games[a * self.k + b]
    }

    /// Points `a` scored against `b`.
    pub fn points(&self, a: usize, b: usize) -> f64 {
        self.points[a * self.k + b]
    }

    /// Games engine `a` played in all.
    pub fn total_games(&self, a: usize) -> f64 {
        (0..self.k).map(|b| self.games(a, b)).sum()
    }
}

/// One engine's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Elo, the mean of the rated engines being 0.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// The fitted ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Each engine's rating, in the order of [`Results`]; `None` for an engine that
    /// played no game.
    pub engines: Vec<Option<Rating>>,
    /// Whether one virtual draw between every two engines that met was added because
    /// the maximum-likelihood ratings are not finite (an engine, or a group of engines,
    /// won or lost every game against the rest).
    pub prior: bool,
    /// The covariance of the ratings in Elo², `k × k` (rows of unrated engines 0).
    covariance: Vec<f64>,
}

impl Ratings {
    /// Engine `a`'s rating minus engine `b`'s, with its 95% interval; `None` if either
    /// is unrated.
    pub fn difference(&self, a: usize, b: usize) -> Option<Rating> {
        let (ra, rb) = (
            self.engines.get(a)?.as_ref()?,
            self.engines.get(b)?.as_ref()?,
        );
        let k = self.engines.len();
        let c = |i: usize, j: usize| self.covariance[i * k + j];
        let var = (c(a, a) + c(b, b) - 2.0 * c(a, b)).max(0.0);
        let d = ra.elo - rb.elo;
        let half = Z95 * var.sqrt();
        Some(Rating {
            elo: d,
            low: d - half,
            high: d + half,
        })
    }
}

/// Why no ratings could be fitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RatingProblem {
    /// Fewer than two engines played.
    TooFewEngines,
    /// The engines fall into groups that never met, directly or through other engines:
    /// the groups (indices), which have no common scale.
    Disconnected(Vec<Vec<usize>>),
}

impl fmt::Display for RatingProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RatingProblem::TooFewEngines => f.write_str("fewer than two engines have played"),
            RatingProblem::Disconnected(groups) => write!(
                f,
                "the engines fall into {} groups that never met, directly or through others",
                groups.len()
            ),
        }
    }
}

impl std::error::Error for RatingProblem {}

/// Fits the ratings of every engine of `results`.
pub fn fit(results: &Results) -> Result<Ratings, RatingProblem> {
    let k = results.engines();
    let rated: Vec<usize> = (0..k).filter(|&i| results.total_games(i) > 0.0).collect();
    if rated.len() < 2 {
        return Err(RatingProblem::TooFewEngines);
    }
    let groups = groups(results, &rated);
    if groups.len() > 1 {
        return Err(RatingProblem::Disconnected(groups));
    }
    // The rated engines' own results, with the virtual draws where they are needed.
    let m = rated.len();
    let mut sub = Results::new(m);
    for (a, &i) in rated.iter().enumerate() {
        for (b, &j) in rated.iter().enumerate() {
            sub.points[a * m + b] = results.points(i, j);
            sub.games[a * m + b] = results.games(i, j);
        }
    }
    let prior = !finite_maximum(&sub);
    if prior {
        for a in 0..m {
            for b in 0..m {
                if a != b && sub.games[a * m + b] > 0.0 {
                    sub.points[a * m + b] += 0.5;
                    sub.games[a * m + b] += 1.0;
                }
            }
        }
    }
    let r = maximise(&sub);
    let cov = covariance(&sub, &r);
    let mut engines = vec![None; k];
    let mut covariance = vec![0.0; k * k];
    for (a, &i) in rated.iter().enumerate() {
        let elo = r[a] * ELO_PER_NAT;
        let half = Z95 * cov[a * m + a].max(0.0).sqrt() * ELO_PER_NAT;
        engines[i] = Some(Rating {
            elo,
            low: elo - half,
            high: elo + half,
        });
        for (b, &j) in rated.iter().enumerate() {
            covariance[i * k + j] = cov[a * m + b] * ELO_PER_NAT * ELO_PER_NAT;
        }
    }
    Ok(Ratings {
        engines,
        prior,
        covariance,
    })
}

/// The groups of `rated` engines that met, directly or through others.
fn groups(results: &Results, rated: &[usize]) -> Vec<Vec<usize>> {
    let mut group = vec![usize::MAX; results.engines()];
    let mut out: Vec<Vec<usize>> = Vec::new();
    for &start in rated {
        if group[start] != usize::MAX {
            continue;
        }
        let id = out.len();
        let mut members = vec![start];
        group[start] = id;
        let mut next = 0;
        while next < members.len() {
            let i = members[next];
            next += 1;
            for &j in rated {
                if group[j] == usize::MAX && results.games(i, j) > 0.0 {
                    group[j] = id;
                    members.push(j);
                }
            }
        }
        members.sort_unstable();
        out.push(members);
    }
    out
}

/// Whether the maximum-likelihood ratings are finite: every engine reaches every other
/// along "scored something against" (Zermelo's and Ford's condition).
fn finite_maximum(results: &Results) -> bool {
    let k = results.engines();
    let reach = |forward: bool| {
        let mut seen = vec![false; k];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for (j, seen_j) in seen.iter_mut().enumerate() {
                let scored = if forward {
                    results.points(i, j)
                } else {
                    results.points(j, i)
                };
                if !*seen_j && scored > 0.0 {
                    *seen_j = true;
                    stack.push(j);
                }
            }
        }
        seen.into_iter().all(|s| s)
    };
    reach(true) && reach(false)
}

/// `ln(1 / (1 + e^−x))` without overflow.
fn log_sigmoid(x: f64) -> f64 {
    if x > 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// `1 / (1 + e^−x)`.
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The log-likelihood of ratings `r` (natural units).
fn log_likelihood(results: &Results, r: &[f64]) -> f64 {
    let k = results.engines();
    let mut sum = 0.0;
    for i in 0..k {
        for j in 0..k {
            let s = results.points(i, j);
            if i != j && s > 0.0 {
                sum += s * log_sigmoid(r[i] - r[j]);
            }
        }
    }
    sum
}

/// The Fisher information plus `1/k` in every cell (which pins the mean, the one
/// direction the likelihood does not see, without changing anything else).
fn pinned_information(results: &Results, r: &[f64]) -> Vec<f64> {
    let k = results.engines();
    let mut info = vec![1.0 / k as f64; k * k];
    for i in 0..k {
        for j in 0..k {
            if i != j {
                let p = sigmoid(r[i] - r[j]);
                let w = results.games(i, j) * p * (1.0 - p);
                info[i * k + j] -= w;
                info[i * k + i] += w;
            }
        }
    }
    info
}

/// The maximum-likelihood ratings (natural units, mean 0) of connected results whose
/// maximum is finite.
fn maximise(results: &Results) -> Vec<f64> {
    let k = results.engines();
    let mut r = vec![0.0; k];
    let mut ll = log_likelihood(results, &r);
    for _ in 0..200 {
        let gradient: Vec<f64> = (0..k)
            .map(|i| {
                (0..k)
                    .filter(|&j| j != i)
                    .map(|j| results.points(i, j) - results.games(i, j) * sigmoid(r[i] - r[j]))
                    .sum()
            })
            .collect();
        let Some(inverse) = invert(pinned_information(results, &r), k) else {
            break;
        };
        let step: Vec<f64> = (0..k)
            .map(|i| (0..k).map(|j| inverse[i * k + j] * gradient[j]).sum())
            .collect();
        let mut scale = 1.0;
        let mut moved = false;
        while scale > 1e-6 {
            let tried: Vec<f64> = r.iter().zip(&step).map(|(x, d)| x + scale * d).collect();
            let tried_ll = log_likelihood(results, &tried);
            if tried_ll >= ll - 1e-12 {
                r = tried;
                ll = tried_ll;
                moved = true;
                break;
            }
            scale /= 2.0;
        }
        let size = step.iter().fold(0.0f64, |m, d| m.max(d.abs())) * scale;
        if !moved || size < 1e-10 {
            break;
        }
    }
    let mean = r.iter().sum::<f64>() / k as f64;
    r.iter().map(|x| x - mean).collect()
}

/// The covariance of the ratings (natural units) with their mean fixed at 0: the
/// pseudo-inverse of the Fisher information, `(I + J/k)^−1 − J/k`.
fn covariance(results: &Results, r: &[f64]) -> Vec<f64> {
    let k = results.engines();
    match invert(pinned_information(results, r), k) {
        Some(mut inv) => {
            for x in &mut inv {
                *x -= 1.0 / k as f64;
            }
            inv
        }
        // Unreachable for connected results (the pinned information is then positive
        // definite); no interval rather than a wrong one.
        None => vec![f64::INFINITY; k * k],
    }
}

/// The inverse of the `k × k` matrix `m` (row-major) by Gauss-Jordan elimination with
/// partial pivoting; `None` if it is singular.
fn invert(mut m: Vec<f64>, k: usize) -> Option<Vec<f64>> {
    let mut inv = vec![0.0; k * k];
    for i in 0..k {
        inv[i * k + i] = 1.0;
    }
    for col in 0..k {
        let pivot =
            (col..k).max_by(|&a, &b| m[a * k + col].abs().total_cmp(&m[b * k + col].abs()))?;
        if m[pivot * k + col].abs() < 1e-12 {
            return None;
        }
        for c in 0..k {
            m.swap(col * k + c, pivot * k + c);
            inv.swap(col * k + c, pivot * k + c);
        }
        let d = m[col * k + col];
        for c in 0..k {
            m[col * k + c] /= d;
            inv[col * k + c] /= d;
        }
        for row in 0..k {
            if row != col {
                let f = m[row * k + col];
                if f != 0.0 {
                    for c in 0..k {
                        m[row * k + c] -= f * m[col * k + c];
                        inv[row * k + c] -= f * inv[col * k + c];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// `games` games between every two of the engines of Elo `truth`, won by each side
    /// with the Bradley-Terry probability; a fixed seed.
    fn simulate(truth: &[f64], games: u32, seed: u64) -> Results {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut results = Results::new(truth.len());
        for a in 0..truth.len() {
            for b in a + 1..truth.len() {
                let p = crate::stats::score_from_elo(truth[a] - truth[b]);
                for _ in 0..games {
                    let won = rng.random::<f64>() < p;
                    results.add(a, b, if won { 1.0 } else { 0.0 });
                }
            }
        }
        results
    }

    fn rating(r: &Ratings, i: usize) -> Rating {
        r.engines[i].unwrap()
    }

    #[test]
    fn three_engines_of_known_strength_come_out_in_order_with_intervals_covering_them() {
        // Mean 0, as the fit anchors them.
        let truth = [150.0, 0.0, -150.0];
        for seed in [1, 2, 3] {
            let r = fit(&simulate(&truth, 300, seed)).unwrap();
            assert!(!r.prior);
            let got: Vec<Rating> = (0..3).map(|i| rating(&r, i)).collect();
            assert!(
                got[0].elo > got[1].elo && got[1].elo > got[2].elo,
                "{got:?}"
            );
            for (g, t) in got.iter().zip(truth) {
                assert!(g.low <= t && t <= g.high, "seed {seed}: {g:?} vs {t}");
                // 600 games each: the interval is some tens of Elo wide, not hundreds.
                assert!(g.high - g.low < 100.0, "{g:?}");
            }
            let mean: f64 = got.iter().map(|g| g.elo).sum::<f64>() / 3.0;
            assert!(mean.abs() < 1e-9, "{mean}");
            let d = r.difference(0, 2).unwrap();
            assert!(d.low <= 300.0 && 300.0 <= d.high, "{d:?}");
        }
    }

    #[test]
    fn two_engines_match_the_elo_of_their_score() {
        // 30 wins and 10 losses: score 0.75, Elo difference 400·log10(3) = 190.85; the
        // mean at 0 puts them at ±95.42.
        let mut results = Results::new(2);
        for g in 0..40 {
            results.add(0, 1, if g < 30 { 1.0 } else { 0.0 });
        }
        let r = fit(&results).unwrap();
        let d = r.difference(0, 1).unwrap();
        assert!((d.elo - 400.0 * 3f64.log10()).abs() < 1e-6, "{d:?}");
        assert!((rating(&r, 0).elo - 95.424_250_9).abs() < 1e-6);
        // The interval of the difference: 1/sqrt(N p q) natural units, ·1.96·173.72.
        let half = Z95 / (40.0f64 * 0.75 * 0.25).sqrt() * ELO_PER_NAT;
        assert!((d.high - d.elo - half).abs() < 1e-6, "{d:?} {half}");
    }

    #[test]
    fn an_engine_that_won_every_game_gets_a_finite_rating_with_the_prior() {
        // Three engines that split their games, and a fourth that won all of its.
        let mut sweep = Results::new(4);
        for a in 0..3 {
            for b in a + 1..3 {
                for g in 0..20 {
                    sweep.add(a, b, f64::from(g % 2));
                }
            }
        }
        for b in 0..3 {
            for _ in 0..10 {
                sweep.add(3, b, 1.0);
            }
        }
        let r = fit(&sweep).unwrap();
        assert!(r.prior);
        let top = rating(&r, 3);
        assert!(top.elo.is_finite() && top.low.is_finite() && top.high.is_finite());
        assert!((0..3).all(|i| rating(&r, i).elo < top.elo), "{r:?}");
        // Every game a draw: all equal, finite intervals.
        let mut draws = Results::new(3);
        for _ in 0..5 {
            draws.add(0, 1, 0.5);
            draws.add(1, 2, 0.5);
        }
        let r = fit(&draws).unwrap();
        assert!(!r.prior);
        for i in 0..3 {
            let g = rating(&r, i);
            assert!(
                g.elo.abs() < 1e-9 && g.high.is_finite() && g.high > g.low,
                "{g:?}"
            );
        }
        // One game, one win.
        let mut one = Results::new(2);
        one.add(1, 0, 1.0);
        let r = fit(&one).unwrap();
        assert!(r.prior && rating(&r, 1).elo > 0.0 && rating(&r, 1).high.is_finite());
    }

    #[test]
    fn unrated_and_disconnected_engines_are_said_so() {
        assert_eq!(fit(&Results::new(3)), Err(RatingProblem::TooFewEngines));
        assert_eq!(fit(&Results::new(0)), Err(RatingProblem::TooFewEngines));
        // Engine 2 never played: the others are rated, it is not.
        let mut results = Results::new(3);
        results.add(0, 1, 1.0);
        results.add(0, 1, 0.0);
        results.add(0, 0, 1.0);
        results.add(0, 7, 1.0);
        let r = fit(&results).unwrap();
        assert_eq!(r.engines[2], None);
        assert!(r.difference(0, 2).is_none());
        assert!(rating(&r, 0).elo.abs() < 1e-9);
        // 0-1 and 2-3 never met.
        let mut split = Results::new(4);
        split.add(0, 1, 1.0);
        split.add(2, 3, 0.0);
        let err = fit(&split).unwrap_err();
        assert_eq!(
            err,
            RatingProblem::Disconnected(vec![vec![0, 1], vec![2, 3]])
        );
        assert!(err.to_string().contains("2 groups"));
    }
}
