//! The tree policy as pure functions: RAVE-blended values and the selection rule.

use crate::config::SearchParams;

/// What selection knows of one child: its own counts, AMAF counts and prior.
#[derive(Clone, Copy, Debug, Default)]
pub struct ChildStats {
    /// Playouts through the child (running ones included).
    pub visits: u32,
    /// Their wins for the player choosing it.
    pub wins: u32,
    /// AMAF playouts.
    pub amaf_visits: u32,
    /// Their wins.
    pub amaf_wins: u32,
    /// Prior virtual visits.
    pub prior_visits: f32,
    /// Prior virtual wins.
    pub prior_wins: f32,
}

/// Weight of the AMAF value against the node's own: near 1 with few visits, falling
/// towards 0 as visits pass `equiv` (Gelly and Silver's schedule).
#[inline]
pub fn rave_beta(visits: f64, amaf_visits: f64, equiv: f64) -> f64 {
    if amaf_visits <= 0.0 {
        return 0.0;
    }
    amaf_visits / (amaf_visits + visits + visits * amaf_visits / equiv)
}

/// The value of a child for the player choosing it: its own results with the prior's
/// virtual playouts, blended with AMAF, plus the UCT exploration term.
#[inline]
pub fn child_value(child: &ChildStats, parent_visits: u32, params: &SearchParams) -> f64 {
    let n = f64::from(child.visits) + f64::from(child.prior_visits);
    let q = if n > 0.0 {
        (f64::from(child.wins) + f64::from(child.prior_wins)) / n
    } else {
        1.0
    };
    let na = f64::from(child.amaf_visits);
    let value = if na > 0.0 {
        let qa = f64::from(child.amaf_wins) / na;
        let beta = rave_beta(n, na, params.rave_equiv);
        (1.0 - beta) * q + beta * qa
    } else {
        q
    };
    if params.exploration > 0.0 {
        let parent = f64::from(parent_visits.max(1));
        value + params.exploration * (parent.ln() / (n + 1.0)).sqrt()
    } else {
        value
    }
}

/// The index of the child to descend into (highest value, first on ties).
#[inline]
pub fn select(
    children: impl Iterator<Item = ChildStats>,
    parent_visits: u32,
    params: &SearchParams,
) -> Option<usize> {
    let mut best = None;
    let mut best_value = f64::NEG_INFINITY;
    for (i, c) in children.enumerate() {
        let v = child_value(&c, parent_visits, params);
        if v > best_value {
            best_value = v;
            best = Some(i);
        }
    }
    best
}

/// A lower confidence bound of a win rate (normal approximation, about 95%).
pub fn lower_bound(winrate: f64, visits: u64) -> f64 {
    if visits == 0 {
        return 0.0;
    }
    let n = visits as f64;
    (winrate - 1.96 * (winrate * (1.0 - winrate) / n).sqrt()).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beta_moves_from_amaf_to_own_value() {
        assert_eq!(rave_beta(0.0, 0.0, 1000.0), 0.0);
        assert!((rave_beta(0.0, 50.0, 1000.0) - 1.0).abs() < 1e-12);
        let early = rave_beta(10.0, 100.0, 1000.0);
        let late = rave_beta(10_000.0, 20_000.0, 1000.0);
        assert!(early > 0.8 && late < 0.1, "{early} {late}");
        // Monotone in own visits.
        assert!(rave_beta(100.0, 500.0, 1000.0) > rave_beta(200.0, 500.0, 1000.0));
    }

    #[test]
    fn lower_bound_tightens_with_visits() {
        assert!(lower_bound(0.6, 10) < lower_bound(0.6, 1000));
        assert!((lower_bound(0.6, 1_000_000) - 0.6).abs() < 0.001);
        assert_eq!(lower_bound(0.5, 0), 0.0);
    }
}
