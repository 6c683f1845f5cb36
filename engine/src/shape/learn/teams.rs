//! Minorization-maximization for teams of features (Coulom 2007): every candidate
//! move is a team with one feature from each group, a position is a competition the
//! played move's team won, and a team's strength is the product of its features'.
//!
//! Teams are stored once ([`Competitions`] interns them) and each position keeps its
//! distinct teams with their counts, so a position in open space costs a few dozen
//! entries, not one per legal move.

use std::collections::HashMap;

/// Training competitions: positions as (team, count) lists over interned teams.
#[derive(Debug)]
pub struct Competitions {
    groups: usize,
    /// Team `t`'s feature values, `groups` of them from `t * groups`.
    teams: Vec<u32>,
    index: HashMap<Box<[u32]>, u32>,
    /// Each position's range of `entries` and the winning team.
    positions: Vec<(u32, u32, u32)>,
    /// (team, how many candidates of the position have it).
    entries: Vec<(u32, u32)>,
}

/// Fitted strengths, by group and feature value.
#[derive(Clone, Debug, PartialEq)]
pub struct TeamFit {
    /// `gammas[g][v]`: the strength of value `v` of group `g`.
    pub gammas: Vec<Vec<f64>>,
    /// Mean log-likelihood of the winners after the fit.
    pub log_likelihood: f64,
}

impl Competitions {
    /// No positions yet; each team has `groups` feature values.
    pub fn new(groups: usize) -> Competitions {
        Competitions {
            groups,
            teams: Vec::new(),
            index: HashMap::new(),
            positions: Vec::new(),
            entries: Vec::new(),
        }
    }

    /// Positions so far.
    pub fn positions(&self) -> usize {
        self.positions.len()
    }

    /// Distinct teams so far.
    pub fn teams(&self) -> usize {
        self.teams.len() / self.groups.max(1)
    }

    /// (team, count) entries over all positions.
    pub fn entries(&self) -> usize {
        self.entries.len()
    }

    fn intern(&mut self, team: &[u32]) -> u32 {
        if let Some(&t) = self.index.get(team) {
            return t;
        }
        let t = self.teams() as u32;
        self.teams.extend_from_slice(team);
        self.index.insert(team.into(), t);
        t
    }

    /// Adds a position: `candidates` holds the teams one after another (`groups`
    /// values each), `winner` is the index of the one played. A position with fewer
    /// than two candidates teaches nothing and is left out.
    pub fn add(&mut self, candidates: &[u32], winner: usize) {
        let n = candidates.len() / self.groups;
        if n < 2 || winner >= n {
            return;
        }
        let mut ids: Vec<u32> = candidates
            .chunks_exact(self.groups)
            .map(|team| self.intern(team))
            .collect();
        let won = ids[winner];
        ids.sort_unstable();
        let start = self.entries.len() as u32;
        for chunk in ids.chunk_by(|a, b| a == b) {
            self.entries.push((chunk[0], chunk.len() as u32));
        }
        self.positions.push((start, self.entries.len() as u32, won));
    }

    fn team(&self, t: u32) -> &[u32] {
        let g = self.groups;
        &self.teams[t as usize * g..(t as usize + 1) * g]
    }

    /// Every team's strength under `gammas`.
    fn strengths(&self, gammas: &[Vec<f64>]) -> Vec<f64> {
        (0..self.teams() as u32)
            .map(|t| {
                self.team(t)
                    .iter()
                    .zip(gammas)
                    .map(|(&v, g)| g[v as usize])
                    .product()
            })
            .collect()
    }

    /// Mean log-likelihood of the winners, and each team's summed `count / E` over
    /// positions (`E` the position's total strength).
    fn pass(&self, strength: &[f64]) -> (f64, Vec<f64>) {
        let mut weight = vec![0.0; strength.len()];
        let mut ll = 0.0;
        for &(start, end, won) in &self.positions {
            let entries = &self.entries[start as usize..end as usize];
            let e: f64 = entries
                .iter()
                .map(|&(t, n)| f64::from(n) * strength[t as usize])
                .sum();
            for &(t, n) in entries {
                weight[t as usize] += f64::from(n) / e;
            }
            ll += (strength[won as usize] / e).ln();
        }
        (ll / self.positions.len().max(1) as f64, weight)
    }

    /// Fits the strengths by `rounds` rounds of one MM update per group (each with
    /// one virtual win and one virtual loss against strength 1 per feature).
    /// `progress` gets the round and the log-likelihood before it. Deterministic: the
    /// same competitions give the same strengths.
    pub fn fit(&self, rounds: usize, mut progress: impl FnMut(usize, f64)) -> TeamFit {
        let g = self.groups;
        let mut sizes = vec![1usize; g];
        for team in self.teams.chunks_exact(g) {
            for (s, &v) in sizes.iter_mut().zip(team) {
                *s = (*s).max(v as usize + 1);
            }
        }
        let mut gammas: Vec<Vec<f64>> = sizes.iter().map(|&n| vec![1.0; n]).collect();
        let mut wins: Vec<Vec<f64>> = sizes.iter().map(|&n| vec![0.0; n]).collect();
        for &(_, _, won) in &self.positions {
            for (k, &v) in self.team(won).iter().enumerate() {
                wins[k][v as usize] += 1.0;
            }
        }
        for round in 0..rounds {
            for k in 0..g {
                if sizes[k] < 2 {
                    continue;
                }
                let strength = self.strengths(&gammas);
                let (ll, weight) = self.pass(&strength);
                if k == 0 {
                    progress(round, ll);
                }
                let mut den = vec![0.0; sizes[k]];
                for t in 0..self.teams() {
                    let v = self.team(t as u32)[k] as usize;
                    den[v] += weight[t] * strength[t] / gammas[k][v];
                }
                for (v, gamma) in gammas[k].iter_mut().enumerate() {
                    *gamma = (wins[k][v] + 1.0) / (den[v] + 2.0 / (*gamma + 1.0));
                }
            }
        }
        let (log_likelihood, _) = self.pass(&self.strengths(&gammas));
        progress(rounds, log_likelihood);
        TeamFit {
            gammas,
            log_likelihood,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions where group 0's value 1 always wins, group 1 is noise.
    fn preferring_one() -> Competitions {
        let mut c = Competitions::new(2);
        for i in 0..200u32 {
            // Candidates: (0, i%3), (1, (i+1)%3), (0, (i+2)%3), (0, 0).
            let teams = [0, i % 3, 1, (i + 1) % 3, 0, (i + 2) % 3, 0, 0];
            c.add(&teams, 1);
        }
        c
    }

    #[test]
    fn the_fit_finds_the_winning_feature() {
        let c = preferring_one();
        assert_eq!(c.positions(), 200);
        assert!(c.teams() <= 6);
        let mut lls = Vec::new();
        let fit = c.fit(30, |_, ll| lls.push(ll));
        // The virtual wins and losses make MM climb the posterior, not the likelihood
        // itself: the likelihood rises far from the uniform start and stays there.
        assert!((lls[0] - (0.25f64).ln()).abs() < 1e-9, "{lls:?}");
        assert!(lls.iter().skip(1).all(|&l| l > -0.05), "{lls:?}");
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
        // The same input gives the same fit.
        assert_eq!(preferring_one().fit(30, |_, _| {}), fit);
    }

    #[test]
    fn repeated_teams_are_counted_not_stored() {
        let mut c = Competitions::new(1);
        c.add(&[0, 0, 0, 1, 0], 3);
        assert_eq!((c.teams(), c.entries()), (2, 2));
        // A lone candidate teaches nothing.
        c.add(&[1], 0);
        assert_eq!(c.positions(), 1);
        // MM's fixed point: the winner's expected wins match the observed (1 of 1),
        // up to the virtual win and loss: 4 candidates of strength 1 and one of g.
        let fit = c.fit(200, |_, _| {});
        let g = fit.gammas[0][1] / fit.gammas[0][0];
        assert!(g > 3.0, "{g}");
    }
}
