//! Minorization-maximization for teams of features (Coulom 2007): every candidate
//! move is a team with one feature from each group, a position is a competition the
//! played move's team won, and a team's strength is the product of its features'.
//!
//! This is the one fit loop of Tengen's learners: the move model
//! ([`crate::moves`]) and the 3×3 shape table ([`crate::shapes`]) both describe their
//! positions as teams and fit them here.
//!
//! The competitions are not kept in memory: [`Competitions`] packs each position's
//! distinct teams with their counts into a temporary file ([`spill`](crate::spill))
//! and reads them back once per group and round, so memory does not grow with the
//! positions trained on. What stays in memory is one strength and one win count per
//! feature value.

use std::io;
use std::path::Path;

use crate::spill::{SpillReader, SpillWriter, TEAM_BITS};

/// Training competitions: positions as (team, count) lists, on disk.
#[derive(Debug)]
pub struct Competitions {
    layout: Layout,
    spill: SpillWriter,
    /// Per group, how often each value was in a winning team.
    wins: Vec<Vec<f64>>,
    /// Per group, one more than the largest value seen.
    sizes: Vec<usize>,
    positions: u64,
    entries: u64,
    /// Reused buffers: the packed teams of the position being added.
    keys: Vec<u128>,
}

/// Fitted strengths, by group and feature value.
#[derive(Clone, Debug, PartialEq)]
pub struct TeamFit {
    /// `gammas[g][v]`: the strength of value `v` of group `g`.
    pub gammas: Vec<Vec<f64>>,
    /// Mean log-likelihood of the winners after the fit.
    pub log_likelihood: f64,
}

/// Where the fit is: after the MM pass of `group` in `round` (0-based), of
/// `passes` in all; `log_likelihood` is the winners' mean log-likelihood the pass
/// measured (under the strengths before its update).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitProgress {
    /// The round, from 0.
    pub round: usize,
    /// Passes done so far.
    pub pass: usize,
    /// Passes of the whole fit (one per group with two values or more, per round,
    /// and a last one that measures the result).
    pub passes: usize,
    /// Mean log-likelihood of the winners measured by this pass.
    pub log_likelihood: f64,
}

/// How a team's values are packed into the low 96 bits of a `u128`: group `g`
/// takes `bits[g]` bits from `shift[g]`; the candidate count goes above them.
#[derive(Clone, Debug)]
struct Layout {
    shift: Vec<u32>,
    mask: Vec<u128>,
    count_shift: u32,
}

/// Bits for a position's candidate count: at most 2^16 - 1 candidates.
const COUNT_BITS: u32 = 16;

impl Layout {
    fn new(bits: &[u32]) -> io::Result<Layout> {
        let total: u32 = bits.iter().sum();
        if bits.iter().any(|&b| b == 0 || b > 32) || total + COUNT_BITS > TEAM_BITS {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("team layout {bits:?} does not fit {TEAM_BITS} bits with its count"),
            ));
        }
        let mut shift = Vec::with_capacity(bits.len());
        let mut at = 0;
        for &b in bits {
            shift.push(at);
            at += b;
        }
        Ok(Layout {
            shift,
            mask: bits.iter().map(|&b| (1u128 << b) - 1).collect(),
            count_shift: total,
        })
    }

    fn groups(&self) -> usize {
        self.shift.len()
    }

    fn value(&self, key: u128, g: usize) -> usize {
        ((key >> self.shift[g]) & self.mask[g]) as usize
    }

    fn count(&self, key: u128) -> f64 {
        ((key >> self.count_shift) & ((1 << COUNT_BITS) - 1)) as f64
    }

    fn strength(&self, key: u128, gammas: &[Vec<f64>]) -> f64 {
        gammas
            .iter()
            .enumerate()
            .map(|(g, gamma)| gamma[self.value(key, g)])
            .product()
    }
}

impl Competitions {
    /// No positions yet; group `g` of a team takes values below `2^bits[g]` (at most
    /// 32 bits a group, 80 in all). The competitions go to a temporary file in
    /// `dir`, which is gone when this value is dropped (on Unix at once: it is
    /// unlinked as soon as it is open).
    pub fn new(bits: &[u32], dir: &Path) -> io::Result<Competitions> {
        let layout = Layout::new(bits)?;
        let groups = layout.groups();
        Ok(Competitions {
            layout,
            spill: SpillWriter::create(dir)?,
            wins: vec![Vec::new(); groups],
            sizes: vec![1; groups],
            positions: 0,
            entries: 0,
            keys: Vec::new(),
        })
    }

    /// Positions so far.
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// (team, count) entries over all positions.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// Bytes written to the temporary file so far.
    pub fn bytes(&self) -> u64 {
        self.spill.bytes()
    }

    /// Adds a position: `candidates` holds the teams one after another (one value
    /// per group each), `winner` is the index of the one played. A position with
    /// fewer than two candidates teaches nothing and is left out. A value too large
    /// for its group's bits, or more than 2^16 - 1 candidates, is an error and adds
    /// nothing; so is a failed write (the file is then unusable).
    pub fn add(&mut self, candidates: &[u32], winner: usize) -> io::Result<()> {
        let groups = self.layout.groups();
        let n = candidates.len() / groups;
        if n < 2 || winner >= n {
            return Ok(());
        }
        if n >= 1 << COUNT_BITS {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{n} candidates in one position"),
            ));
        }
        self.keys.clear();
        for team in candidates.chunks_exact(groups) {
            let mut key = 0u128;
            for (g, &v) in team.iter().enumerate() {
                if u128::from(v) > self.layout.mask[g] {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!("value {v} too large for group {g}"),
                    ));
                }
                key |= u128::from(v) << self.layout.shift[g];
            }
            self.keys.push(key);
        }
        let won = self.keys[winner];
        let one = 1u128 << self.layout.count_shift;
        let team_mask = one - 1;
        self.keys.sort_unstable();
        // Equal teams become one key whose count bits say how many more there were.
        self.keys.dedup_by(|later, kept| {
            let same = *later == *kept & team_mask;
            if same {
                *kept += one;
            }
            same
        });
        // Make the count bits the count.
        let mut won_at = 0;
        for (i, key) in self.keys.iter_mut().enumerate() {
            *key += one;
            if *key & team_mask == won {
                won_at = i;
            }
        }
        self.spill.position(&self.keys, won_at as u32)?;
        for (g, &v) in candidates[winner * groups..(winner + 1) * groups]
            .iter()
            .enumerate()
        {
            let wins = &mut self.wins[g];
            if wins.len() <= v as usize {
                wins.resize(v as usize + 1, 0.0);
            }
            wins[v as usize] += 1.0;
        }
        for team in candidates.chunks_exact(groups) {
            for (s, &v) in self.sizes.iter_mut().zip(team) {
                *s = (*s).max(v as usize + 1);
            }
        }
        self.positions += 1;
        self.entries += self.keys.len() as u64;
        Ok(())
    }

    /// One pass over the competitions under `gammas`: the winners' mean
    /// log-likelihood, and, when `group` is given, each of its values' summed
    /// `count × strength / (γ × E)` over positions (`E` the position's total
    /// strength): the denominator of its MM update.
    fn pass(
        &self,
        reader: &mut SpillReader,
        gammas: &[Vec<f64>],
        group: Option<usize>,
    ) -> io::Result<(f64, Vec<f64>)> {
        let layout = &self.layout;
        let mut den = vec![0.0; group.map_or(0, |g| self.sizes[g])];
        let mut strengths: Vec<f64> = Vec::new();
        let mut ll = 0.0;
        reader.rewind()?;
        while let Some((keys, won)) = reader.next_position()? {
            strengths.clear();
            strengths.extend(keys.iter().map(|&k| layout.strength(k, gammas)));
            let e: f64 = keys
                .iter()
                .zip(&strengths)
                .map(|(&k, s)| layout.count(k) * s)
                .sum();
            ll += (strengths[won as usize] / e).ln();
            if let Some(g) = group {
                let gamma = &gammas[g];
                for (&k, s) in keys.iter().zip(&strengths) {
                    let v = layout.value(k, g);
                    den[v] += layout.count(k) * s / (gamma[v] * e);
                }
            }
        }
        Ok((ll / self.positions.max(1) as f64, den))
    }

    /// Fits the strengths by `rounds` rounds of one MM update per group (each with
    /// one virtual win and one virtual loss against strength 1 per feature), one
    /// pass over the file per update. `progress` hears after every pass.
    /// Deterministic: the same competitions give the same strengths.
    pub fn fit(
        &mut self,
        rounds: usize,
        mut progress: impl FnMut(FitProgress),
    ) -> io::Result<TeamFit> {
        let mut reader = self.spill.reader()?;
        let sizes = self.sizes.clone();
        let mut gammas: Vec<Vec<f64>> = sizes.iter().map(|&n| vec![1.0; n]).collect();
        let active: Vec<usize> = (0..sizes.len()).filter(|&g| sizes[g] >= 2).collect();
        let passes = rounds * active.len() + 1;
        let mut done = 0;
        for round in 0..rounds {
            for &k in &active {
                let (ll, den) = self.pass(&mut reader, &gammas, Some(k))?;
                for (v, gamma) in gammas[k].iter_mut().enumerate() {
                    let wins = self.wins[k].get(v).copied().unwrap_or(0.0);
                    *gamma = (wins + 1.0) / (den[v] + 2.0 / (*gamma + 1.0));
                }
                done += 1;
                progress(FitProgress {
                    round,
                    pass: done,
                    passes,
                    log_likelihood: ll,
                });
            }
        }
        let (log_likelihood, _) = self.pass(&mut reader, &gammas, None)?;
        progress(FitProgress {
            round: rounds,
            pass: passes,
            passes,
            log_likelihood,
        });
        Ok(TeamFit {
            gammas,
            log_likelihood,
        })
    }

    /// Under `gammas`, each group's expected wins by value (the summed probability
    /// of the candidates with it) and the observed ones: at MM's fixed point they
    /// match, up to the virtual win and loss.
    pub fn expected_and_observed(
        &mut self,
        gammas: &[Vec<f64>],
    ) -> io::Result<Vec<Vec<(f64, f64)>>> {
        let mut reader = self.spill.reader()?;
        let layout = &self.layout;
        let mut expected: Vec<Vec<f64>> = self.sizes.iter().map(|&n| vec![0.0; n]).collect();
        reader.rewind()?;
        while let Some((keys, _)) = reader.next_position()? {
            let e: f64 = keys
                .iter()
                .map(|&k| layout.count(k) * layout.strength(k, gammas))
                .sum();
            for &k in keys {
                let p = layout.count(k) * layout.strength(k, gammas) / e;
                for (g, x) in expected.iter_mut().enumerate() {
                    x[layout.value(k, g)] += p;
                }
            }
        }
        Ok(expected
            .into_iter()
            .zip(&self.wins)
            .map(|(x, w)| {
                x.into_iter()
                    .enumerate()
                    .map(|(v, x)| (x, w.get(v).copied().unwrap_or(0.0)))
                    .collect()
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> std::path::PathBuf {
        std::env::temp_dir()
    }

    /// Positions where group 0's value 1 always wins, group 1 is noise.
    fn preferring_one() -> Competitions {
        let mut c = Competitions::new(&[1, 2], &dir()).unwrap();
        for i in 0..200u32 {
            // Candidates: (0, i%3), (1, (i+1)%3), (0, (i+2)%3), (0, 0).
            let teams = [0, i % 3, 1, (i + 1) % 3, 0, (i + 2) % 3, 0, 0];
            c.add(&teams, 1).unwrap();
        }
        c
    }

    #[test]
    fn the_fit_finds_the_winning_feature() {
        let mut c = preferring_one();
        assert_eq!(c.positions(), 200);
        let mut lls = Vec::new();
        let fit = c.fit(30, |p| lls.push(p.log_likelihood)).unwrap();
        assert_eq!(lls.len(), 30 * 2 + 1);
        // The virtual wins and losses make MM climb the posterior, not the likelihood
        // itself: the likelihood rises far from the uniform start and stays there.
        assert!((lls[0] - (0.25f64).ln()).abs() < 1e-9, "{lls:?}");
        assert!(lls.iter().skip(2).all(|&l| l > -0.05), "{lls:?}");
        assert!(
            fit.gammas[0][1] > 50.0 * fit.gammas[0][0],
            "{:?}",
            fit.gammas
        );
        // The noise group stays near even.
        let g1 = &fit.gammas[1];
        assert!(
            g1.iter().all(|&x| x / g1[0] < 2.0 && g1[0] / x < 2.0),
            "{g1:?}"
        );
        // Far above a uniform guess among four.
        assert!(
            fit.log_likelihood > 0.5 * (0.25f64).ln(),
            "{}",
            fit.log_likelihood
        );
        // The same input gives the same fit, and a second fit of the same file too.
        assert_eq!(preferring_one().fit(30, |_| {}).unwrap(), fit);
        assert_eq!(c.fit(30, |_| {}).unwrap(), fit);
    }

    #[test]
    fn repeated_teams_are_counted_not_stored() {
        let mut c = Competitions::new(&[2], &dir()).unwrap();
        c.add(&[0, 0, 0, 1, 0], 3).unwrap();
        assert_eq!((c.positions(), c.entries()), (1, 2));
        // Two entries of 12 bytes and the position's 8-byte header.
        assert_eq!(c.bytes(), 32);
        // A lone candidate teaches nothing.
        c.add(&[1], 0).unwrap();
        assert_eq!(c.positions(), 1);
        // MM's fixed point: the winner's expected wins match the observed (1 of 1),
        // up to the virtual win and loss: 4 candidates of strength 1 and one of g.
        let fit = c.fit(200, |_| {}).unwrap();
        let g = fit.gammas[0][1] / fit.gammas[0][0];
        assert!(g > 3.0, "{g}");
    }

    #[test]
    fn the_fit_ends_where_expected_and_observed_wins_match() {
        let mut c = Competitions::new(&[2, 3], &dir()).unwrap();
        for i in 0..300u32 {
            let teams = [i % 4, i % 7, (i + 1) % 4, 3, 2, (i * 5) % 7, 1, 0];
            c.add(&teams, (i % 3 != 0) as usize * (1 + (i % 2) as usize))
                .unwrap();
        }
        let fit = c.fit(100, |_| {}).unwrap();
        for (g, values) in c
            .expected_and_observed(&fit.gammas)
            .unwrap()
            .iter()
            .enumerate()
        {
            for &(x, o) in values {
                assert!((x - o).abs() <= 0.05 * o + 2.0, "group {g}: {values:?}");
            }
        }
        // Break the fit and the counts no longer match.
        let mut wrong = fit.gammas.clone();
        wrong[0].iter_mut().for_each(|x| *x = 1.0);
        let off = c.expected_and_observed(&wrong).unwrap();
        assert!(
            off[0].iter().any(|&(x, o)| (x - o).abs() > 0.05 * o + 2.0),
            "{off:?}"
        );
    }

    #[test]
    fn bad_teams_are_refused_and_add_nothing() {
        let mut c = Competitions::new(&[2, 1], &dir()).unwrap();
        assert!(c.add(&[4, 0, 0, 0], 0).is_err());
        assert!(c.add(&[0, 2, 0, 0], 0).is_err());
        assert_eq!((c.positions(), c.bytes()), (0, 0));
        assert!(Competitions::new(&[64, 64], &dir()).is_err());
        assert!(Competitions::new(&[32, 32, 17], &dir()).is_err());
        assert!(Competitions::new(&[32, 32, 16], &dir()).is_ok());
        assert!(Competitions::new(&[0], &dir()).is_err());
    }
}
