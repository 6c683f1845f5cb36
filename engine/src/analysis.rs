//! What the search reports while it runs and when it ends: the data GUIs display.

use std::time::Duration;

use smallvec::SmallVec;
use tengen_board::{Color, Move};

/// A sequence of moves (a principal variation), inline up to 12 moves.
pub type Line = SmallVec<[Move; 12]>;

/// One candidate move at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStat {
    /// The move.
    pub mv: Move,
    /// Playouts through it (each weighs 1: KataGo's `weight`, and, a position being
    /// reached by one path only in Tengen's tree, its `edgeVisits`).
    pub visits: u64,
    /// Those of `visits` the side to move won: the raw count behind `winrate`.
    pub wins: u64,
    /// Its win rate for the side to move, in [0, 1]: its playouts' wins with two
    /// pseudo-playouts at the root's win rate, `(wins + 2 × root) / (visits + 2)`
    /// (Tengen has no value network to judge a move few playouts went through: one
    /// won playout reads about 0.67 at an even root, not a certain win); the root's
    /// win rate before any playout.
    pub winrate: f64,
    /// The policy the search's prior followed for this move, in [0, 1] (KataGo's
    /// `prior`): where the policy network rated the root, the move's share of the
    /// blend the prior gave (`SearchParams::net_blend`), else the move model's
    /// softmax share (what `SearchParams::model_prior`'s virtual wins follow; with
    /// the model prior off the search follows no learned policy, and the model's is
    /// still the one shown); over the listed candidates the priors add up to 1.
    pub prior: f64,
    /// A lower confidence bound of `winrate` (normal approximation over `visits`).
    pub lcb: f64,
    /// The lead for the side to move after this move, in points: the root's
    /// [`Analysis::score_lead`] plus how much more the mean final score of this
    /// search's playouts through the move (the reused tree keeps no scores), with the
    /// same two pseudo-playouts at the root's mean, is than the root's mean. The
    /// differences between moves are the differences of their mean scores; without
    /// any playout, the root's lead.
    pub score_lead: f64,
    /// The standard deviation of the final score, in points, over this search's
    /// playouts through the move and the two pseudo-playouts drawn from the root's
    /// scores (KataGo's `scoreStdev`); without any playout, the root's
    /// [`Analysis::score_stdev`].
    pub score_stdev: f64,
    /// The principal variation, starting with `mv`.
    pub pv: Line,
    /// Visits of the position each move of `pv` leads to, one per move (KataGo's
    /// `pvVisits`): the first is `visits`, the later ones count the tree's nodes along
    /// the line (the first tree's under root parallelism), each capped by the one
    /// before it, so they never increase (a live snapshot's tree counts the descents
    /// still running). In Tengen's tree a position is reached by one path only, so
    /// these are also the visits of each move of the line (KataGo's `pvEdgeVisits`).
    pub pv_visits: Vec<u64>,
    /// Ownership per point after this move, as [`Analysis::ownership`] (same order,
    /// +1 owned by the analysed colour), from this search's playouts through it (0
    /// where none went through it). Empty unless [`Extras::moves_ownership`] was
    /// asked for.
    pub ownership: Vec<f32>,
    /// Share of this search's playouts through the move in which each point ended as
    /// nobody's, as [`Analysis::neutral`] (1 where none went through it); empty when
    /// `ownership` is.
    pub neutral: Vec<f32>,
}

impl MoveStat {
    /// The standard deviation of each point's final ownership over this search's
    /// playouts through the move, in [0, 1], in the order of `ownership` (KataGo's
    /// `movesOwnershipStdev`): 0 where they all ended alike, or before any; empty when
    /// `ownership` is.
    pub fn ownership_stdev(&self) -> Vec<f32> {
        ownership_stdev(&self.ownership, &self.neutral)
    }
}

/// A snapshot of the search.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The side the search plays for.
    pub color: Color,
    /// Playouts through the root's moves: this search's (all threads) and those the
    /// reused tree brought.
    pub visits: u64,
    /// The visits of `visits` that came from the reused tree (earlier searches).
    pub reused: u64,
    /// The root win rate for `color`: the wins over every visit of the root's moves.
    pub winrate: f64,
    /// The lead for `color`, in points: the median of this search's playouts' final
    /// scores (0 without any), KataGo's "points the side would need to be given to
    /// make the game fair" read from the playouts: half of them end above it, half
    /// below. Its sign is that of the playouts' win rate less ½ (the reused tree's
    /// visits, which keep no scores, aside). The mean is not used: a few lopsided
    /// playouts (a big group dying) move it away from the side the win rate favours.
    pub score_lead: f64,
    /// The standard deviation of the final score, in points, over this search's
    /// playouts from the root (KataGo's `scoreStdev`); 0 without any scored playout.
    pub score_stdev: f64,
    /// Candidates, best first (most visits, then their playouts' win rate, then the
    /// prior's): the order the player chooses by.
    pub moves: Vec<MoveStat>,
    /// Ownership per point, row by row from the top left (A19 on 19×19) to the bottom
    /// right, in [-1, 1], +1 owned by `color`. Empty unless ownership was asked for.
    pub ownership: Vec<f32>,
    /// Share of playouts in which each point ended as nobody's (an empty point next to
    /// both colours: dame, or a liberty shared in seki), in the same order (1 before
    /// any playout was counted); empty when `ownership` is.
    pub neutral: Vec<f32>,
    /// Time searched so far.
    pub elapsed: Duration,
    /// Bytes the search tree took (the first tree's, under root parallelism), never
    /// more than its budget, `Config::memory_mib`.
    pub tree_bytes: u64,
    /// Times that tree was full and made room, since it was made.
    pub tree_compactions: u32,
}

impl Analysis {
    /// The best candidate, if any.
    pub fn best(&self) -> Option<&MoveStat> {
        self.moves.first()
    }

    /// The score lead from Black's side (positive when Black is ahead), whichever
    /// colour searched: `score_lead` is `color`'s.
    pub fn black_lead(&self) -> f64 {
        match self.color {
            Color::Black => self.score_lead,
            Color::White => -self.score_lead,
        }
    }

    /// The playouts of this search alone: `visits` without the reused ones.
    pub fn playouts(&self) -> u64 {
        self.visits.saturating_sub(self.reused)
    }

    /// The standard deviation of each point's final ownership over this search's
    /// playouts, in [0, 1], in the order of `ownership` (KataGo's `ownershipStdev`):
    /// 0 where every playout ended alike, or before any; empty when `ownership` is.
    pub fn ownership_stdev(&self) -> Vec<f32> {
        ownership_stdev(&self.ownership, &self.neutral)
    }
}

/// The standard deviation of final ownership per point from its mean (`ownership`)
/// and the share of playouts that left the point nobody's (`neutral`). A playout ends
/// each point at +1, -1 or 0, so the mean of the squares is the share owned by
/// either colour, `1 - neutral`, and the variance that less the mean squared.
fn ownership_stdev(ownership: &[f32], neutral: &[f32]) -> Vec<f32> {
    if ownership.len() != neutral.len() {
        return Vec::new();
    }
    ownership
        .iter()
        .zip(neutral)
        .map(|(&o, &n)| {
            let owned = (1.0 - f64::from(n)).clamp(0.0, 1.0);
            let mean = f64::from(o).clamp(-1.0, 1.0);
            (owned - mean * mean).max(0.0).sqrt() as f32
        })
        .collect()
}

/// What snapshots hold besides the candidates' statistics and principal variations.
/// Each costs playout time, so a search computes it only when asked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extras {
    /// The whole board's ownership: [`Analysis::ownership`], [`Analysis::neutral`]
    /// and [`Analysis::ownership_stdev`].
    pub ownership: bool,
    /// Each candidate's ownership: [`MoveStat::ownership`], [`MoveStat::neutral`] and
    /// [`MoveStat::ownership_stdev`].
    pub moves_ownership: bool,
}

/// Where the search sends its snapshots, how often, and what they hold.
pub struct Report<'a> {
    /// Time between snapshots.
    pub interval: Duration,
    /// Called with each snapshot, on the thread that started the search.
    pub sink: &'a mut dyn FnMut(&Analysis),
    /// What the snapshots hold besides the candidates, the final one included (on
    /// top of what the caller of the search asks for itself).
    pub extras: Extras,
}

impl std::fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Report")
            .field("interval", &self.interval)
            .field("extras", &self.extras)
            .finish()
    }
}

#[cfg(test)]
impl Analysis {
    /// A search of the unit tests, for Black: `visits` playouts in `elapsed`, an even
    /// game, no move, no ownership.
    pub(crate) fn searched(visits: u64, elapsed: Duration) -> Analysis {
        Analysis {
            color: Color::Black,
            visits,
            reused: 0,
            winrate: 0.5,
            score_lead: 0.0,
            score_stdev: 0.0,
            moves: Vec::new(),
            ownership: Vec::new(),
            neutral: Vec::new(),
            elapsed,
            tree_bytes: 0,
            tree_compactions: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ownership_stdev;

    #[test]
    fn the_spread_of_ownership_follows_from_its_mean_and_the_neutral_share() {
        // Always Black's, always White's, always nobody's: no spread.
        assert_eq!(
            ownership_stdev(&[1.0, -1.0, 0.0], &[0.0, 0.0, 1.0]),
            vec![0.0; 3]
        );
        // Half Black's, half White's: the widest spread. Half Black's, half nobody's:
        // mean 0.5, mean square 0.5, so the variance is 0.25.
        assert_eq!(ownership_stdev(&[0.0, 0.5], &[0.0, 0.5]), vec![1.0, 0.5]);
        // Three quarters Black's, a quarter White's: mean 0.5, variance 0.75.
        let s = ownership_stdev(&[0.5], &[0.0])[0];
        assert!((s - 0.75f32.sqrt()).abs() < 1e-6, "{s}");
        // Rounding never takes it below 0 or above 1; mismatched inputs give nothing.
        assert_eq!(ownership_stdev(&[1.0000001], &[0.0]), vec![0.0]);
        assert!(ownership_stdev(&[0.0], &[]).is_empty());
    }
}
