//! The schedule: which engines play which game, with which colours and opening, and
//! the deterministic slice of it that one shard runs.

use std::fmt;
use std::str::FromStr;

use crate::error::BadSpec;

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// The game number, from 1, unique in the whole match (all shards).
    pub game: u32,
    /// Index of the engine playing Black.
    pub black: usize,
    /// Index of the engine playing White.
    pub white: usize,
    /// Index of the opening, if openings are used.
    pub opening: Option<usize>,
}

/// The whole match: `games` games for every pair of engines (round robin for more than
/// two). Pairs take turns game by game; within a pair colours alternate, and each
/// opening is played twice in a row, once with each engine as Black.
pub fn schedule(engines: usize, games: u32, openings: usize) -> Vec<Scheduled> {
    let pairs: Vec<(usize, usize)> = (0..engines)
        .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
        .collect();
    let mut out = Vec::with_capacity(pairs.len() * games as usize);
    for k in 0..games {
        for &(a, b) in &pairs {
            let (black, white) = if k % 2 == 0 { (a, b) } else { (b, a) };
            out.push(Scheduled {
                game: out.len() as u32 + 1,
                black,
                white,
                opening: (openings > 0).then(|| (k as usize / 2) % openings),
            });
        }
    }
    out
}

/// `--shard i/n`: this machine runs the games whose number is `i` modulo `n`
/// (`1 <= i <= n`): game `g` belongs to shard `(g - 1) % n + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, from 1.
    pub index: u32,
    /// Number of shards.
    pub count: u32,
}

impl Shard {
    /// Whether game number `game` (from 1) is this shard's.
    pub fn contains(&self, game: u32) -> bool {
        (game.saturating_sub(1)) % self.count == self.index - 1
    }
}

impl FromStr for Shard {
    type Err = BadSpec;

    fn from_str(s: &str) -> Result<Shard, BadSpec> {
        let err = || BadSpec::new("shard", s, "i/n with 1 <= i <= n (e.g. 2/4)");
        let (i, n) = s.split_once('/').ok_or_else(err)?;
        let index: u32 = i.trim().parse().map_err(|_| err())?;
        let count: u32 = n.trim().parse().map_err(|_| err())?;
        if index == 0 || index > count {
            return Err(err());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_engines_alternate_and_share_openings() {
        let s = schedule(2, 5, 2);
        let colours: Vec<(usize, usize)> = s.iter().map(|g| (g.black, g.white)).collect();
        assert_eq!(colours, [(0, 1), (1, 0), (0, 1), (1, 0), (0, 1)]);
        let openings: Vec<_> = s.iter().map(|g| g.opening).collect();
        assert_eq!(openings, [Some(0), Some(0), Some(1), Some(1), Some(0)]);
        assert_eq!(
            s.iter().map(|g| g.game).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5]
        );
    }

    #[test]
    fn round_robin() {
        let s = schedule(3, 2, 0);
        assert_eq!(s.len(), 6);
        let pairs: Vec<(usize, usize)> = s.iter().map(|g| (g.black, g.white)).collect();
        assert_eq!(pairs, [(0, 1), (0, 2), (1, 2), (1, 0), (2, 0), (2, 1)]);
        assert!(s.iter().all(|g| g.opening.is_none()));
    }

    #[test]
    fn shards_partition_the_schedule() {
        let all = schedule(2, 10, 0);
        let shards: Vec<Shard> = (1..=3).map(|i| format!("{i}/3").parse().unwrap()).collect();
        for g in &all {
            assert_eq!(shards.iter().filter(|s| s.contains(g.game)).count(), 1);
        }
        assert!(shards[0].contains(1) && shards[0].contains(4) && shards[2].contains(3));
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
