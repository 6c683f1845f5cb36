//! Snapshots: what a search has found so far, as the analysis reports it.

use tengen_board::{Board, Color, Move};

use crate::analysis::{Analysis, Line, MoveStat};
use crate::select::lower_bound;
use crate::tree::{Edge, NodeId, Tree};

use super::descend::{avoided, barred, prior};
use super::tally::{RootCounts, median_score};
use super::{Ctx, slot};

/// The longest principal variation reported.
const PV_DEPTH: usize = 40;

/// The pseudo-playouts each root move's reported values count besides its own: `K`
/// playouts that end as the root's do on average (its win rate, its mean score and
/// spread). Tengen has no value network to say what a move few playouts went through
/// is worth (KataGo shows its network's value there); without them one won playout
/// would read as a certain win. Two playouts' weight: a move's values lean to the
/// root's until a few playouts of its own outweigh them.
const PSEUDO_PLAYOUTS: f64 = 2.0;

/// The win rate of a move whose `visits` playouts won `wins`, with
/// [`PSEUDO_PLAYOUTS`] at the root's win rate `root`.
fn shrunk(wins: f64, visits: u64, root: f64) -> f64 {
    (wins + PSEUDO_PLAYOUTS * root) / (visits as f64 + PSEUDO_PLAYOUTS)
}

/// The mean and standard deviation of a move's final scores, over this search's
/// playouts through it (`c`) and [`PSEUDO_PLAYOUTS`] drawn from the root's scores
/// (`root`: their mean and standard deviation): the moments of that mixture.
fn shrunk_score(c: &RootCounts, root: (f64, f64)) -> (f64, f64) {
    if c.scored == 0 {
        return root;
    }
    let (mean, stdev) = c.score();
    let n = c.scored as f64;
    let k = PSEUDO_PLAYOUTS;
    let (root_mean, root_stdev) = root;
    let mixed = (n * mean + k * root_mean) / (n + k);
    // The pooled variance: each part's own, and the spread between their means.
    let gap = mean - root_mean;
    let variance =
        (n * stdev * stdev + k * root_stdev * root_stdev + n * k / (n + k) * gap * gap) / (n + k);
    (mixed, variance.max(0.0).sqrt())
}

/// The snapshot of a search: root statistics from the workers' counters and the reused
/// tree's, principal variations from `tree`, ownership merged over the workers.
pub(super) fn snapshot(tree: &Tree, ctx: &Ctx<'_>) -> Analysis {
    let root = tree.root();
    let color = ctx.job.color;
    // A root move the job avoids is no candidate: it is left out.
    let listed = |e: &&Edge| !matches!(e.mv(), Move::Play(p) if avoided(ctx, p));
    let edges = tree.edges(root);
    let rate = |(v, w): (f32, f32)| f64::from(w / v.max(1e-6));
    // The policy the root's prior was shaped by, over the listed moves (a pass the
    // clean-up bars weighs nothing: the search never chooses it).
    let policy = |e: &Edge| {
        if barred(ctx, e.mv()) {
            0.0
        } else {
            f64::from(ctx.root_policy.get(slot(e.mv())).copied().unwrap_or(0.0))
        }
    };
    let policy_total: f64 = edges.iter().filter(listed).map(policy).sum();
    let share = &ctx.share;
    // Each listed root move's counts, read once: the root's are their sum.
    let counts: Vec<(&Edge, RootCounts)> = edges
        .iter()
        .filter(listed)
        .map(|e| (e, share.root(&ctx.tallies, slot(e.mv()))))
        .collect();
    let total = counts
        .iter()
        .fold(RootCounts::default(), |sum, &(_, c)| sum + c);
    // The root's values, over every playout of this search (its score) and of the
    // reused tree (its win rate).
    let root_score = total.score();
    // The root's lead: the median of this search's final scores (see `Analysis::
    // score_lead`); the mean and spread are what the moves' own are measured against.
    let root_lead = median_score(&ctx.tallies).unwrap_or(root_score.0);
    let root_winrate = if total.visits > 0 {
        total.wins as f64 / total.visits as f64
    } else {
        0.5
    };
    let mut moves: Vec<(f64, MoveStat)> = counts
        .iter()
        .map(|&(e, c)| {
            let mv = e.mv();
            let s = slot(mv);
            let visits = c.visits;
            // What the candidates are ordered by after their visits: the playouts'
            // win rate, or before any the prior's.
            let order = if visits > 0 {
                c.wins as f64 / visits as f64
            } else {
                rate(prior(ctx, true, e))
            };
            let winrate = shrunk(c.wins as f64, visits, root_winrate);
            // The reused tree keeps no scores: this search's playouts only, with the
            // root's pseudo-playouts (a move none of them went through reads the
            // root's score and spread).
            let scored = c.scored;
            let (mean, score_stdev) = shrunk_score(&c, root_score);
            // The root's lead, moved by how much better this move's playouts ended
            // than the root's on average.
            let score_lead = root_lead + (mean - root_score.0);
            let mut pv = Line::new();
            pv.push(mv);
            let mut pv_visits = vec![visits];
            if let Some(c) = e.child() {
                extend_line(tree, c, PV_DEPTH, &mut pv, Some(&mut pv_visits));
            }
            let area = ctx.root.size().area();
            let (ownership, neutral) = if !ctx.extras.moves_ownership {
                (Vec::new(), Vec::new())
            } else if scored == 0 {
                // No playout of this search went through it: nothing to read.
                (vec![0.0; area], vec![1.0; area])
            } else {
                let count = |p: usize| {
                    ctx.tallies.iter().fold((0, 0, 0), |(n, b, w), t| {
                        let (tn, tb, tw) = t.move_owned(s, p);
                        (n + tn, b + tb, w + tw)
                    })
                };
                (
                    ownership(&ctx.root, color, false, count),
                    ownership(&ctx.root, color, true, count),
                )
            };
            let stat = MoveStat {
                mv,
                visits,
                wins: c.wins,
                winrate,
                prior: if policy_total > 0.0 {
                    policy(e) / policy_total
                } else {
                    0.0
                },
                lcb: lower_bound(winrate, visits),
                score_lead,
                score_stdev,
                pv,
                pv_visits,
                ownership,
                neutral,
            };
            (order, stat)
        })
        .collect();
    // Most visits first, then the playouts' own win rate: the order the player
    // chooses by, which the pseudo-playouts never change.
    moves.sort_by(|(ao, a), (bo, b)| b.visits.cmp(&a.visits).then(bo.total_cmp(ao)));
    let moves: Vec<MoveStat> = moves.into_iter().map(|(_, m)| m).collect();
    let visits = total.visits;
    let reused: u64 = edges
        .iter()
        .filter(listed)
        .map(|e| share.reused(slot(e.mv())))
        .sum();
    let winrate = root_winrate;
    let (score_lead, score_stdev) = (root_lead, root_score.1);
    let own = |neutral| {
        if ctx.extras.ownership {
            let count = |p: usize| {
                ctx.tallies.iter().fold((0, 0, 0), |(n, b, w), t| {
                    let (tn, tb, tw) = t.owned(p);
                    (n + tn, b + tb, w + tw)
                })
            };
            ownership(&ctx.root, color, neutral, count)
        } else {
            Vec::new()
        }
    };
    Analysis {
        color,
        visits,
        reused,
        winrate,
        score_lead,
        score_stdev,
        moves,
        ownership: own(false),
        neutral: own(true),
        elapsed: ctx.start.elapsed(),
        tree_bytes: tree.bytes() as u64,
        tree_compactions: tree.compactions(),
    }
}

/// Extends `pv` with the most visited line below node `id`, up to `depth` moves.
#[cfg(test)]
pub(crate) fn extend_principal_variation(tree: &Tree, id: NodeId, depth: usize, pv: &mut Line) {
    extend_line(tree, id, depth, pv, None);
}

/// [`extend_principal_variation`], adding to `visits` the visits of the node each
/// added move leads to, each capped by the last one `visits` holds (a live snapshot's
/// nodes count the descents still running, which the root moves' counts do not yet).
fn extend_line(
    tree: &Tree,
    id: NodeId,
    depth: usize,
    pv: &mut Line,
    mut visits: Option<&mut Vec<u64>>,
) {
    let mut node = id;
    while pv.len() < depth {
        let Some((mv, next)) = tree
            .edges(node)
            .iter()
            .filter_map(|e| e.child().map(|c| (e.mv(), c)))
            .filter(|&(_, c)| tree.node(c).visits() > 0)
            .max_by_key(|&(_, c)| tree.node(c).visits())
        else {
            break;
        };
        pv.push(mv);
        if let Some(v) = visits.as_deref_mut() {
            let n = u64::from(tree.node(next).visits());
            v.push(v.last().map_or(n, |&last| n.min(last)));
        }
        node = next;
    }
}

/// Ownership for `color` (or, with `neutral`, the share of playouts a point ended as
/// nobody's, 1 before any) per point of `board`, row by row from the top left, from
/// `count`: the playouts counted, and how many ended with the point at a slot Black's
/// and White's.
fn ownership(
    board: &Board,
    color: Color,
    neutral: bool,
    count: impl Fn(usize) -> (u32, u32, u32),
) -> Vec<f32> {
    let size = board.size();
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    let mut out = Vec::with_capacity(size.area());
    for y in (0..size.get()).rev() {
        for x in 0..size.get() {
            let p = size.point(x, y).expect("on the board");
            let (n, b, wh) = count(p.index());
            let v = match (n, neutral) {
                // No playout counted: nobody's in every one of them, owned by neither.
                (0, true) => 1.0,
                (0, false) => 0.0,
                // A live report reads the other workers' counts while they add to
                // them: a playout still counting may show in `b` or `wh` before `n`.
                (_, true) => f64::from(n.saturating_sub(b + wh)) / f64::from(n),
                (_, false) => {
                    (sign * (f64::from(b) - f64::from(wh)) / f64::from(n)).clamp(-1.0, 1.0)
                }
            };
            out.push(v as f32);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_playout_leans_to_the_root_and_many_outweigh_it() {
        // One won playout at an even root: (1 + 2 × 0.5) / 3, not a certain win.
        assert!((shrunk(1.0, 1, 0.5) - 2.0 / 3.0).abs() < 1e-12);
        assert!((shrunk(0.0, 1, 0.5) - 1.0 / 3.0).abs() < 1e-12);
        // No playout: the root's win rate.
        assert_eq!(shrunk(0.0, 0, 0.55), 0.55);
        // A thousand playouts: their own rate, within a thousandth.
        assert!((shrunk(800.0, 1000, 0.5) - 0.8).abs() < 1e-3);
        // The order of moves with as many visits is the order of their wins.
        assert!(shrunk(3.0, 5, 0.5) > shrunk(2.0, 5, 0.5));
    }

    #[test]
    fn a_moves_score_is_its_playouts_and_two_of_the_roots() {
        let scores = |half_points: &[i64]| RootCounts {
            visits: half_points.len() as u64,
            wins: half_points.iter().filter(|&&s| s > 0).count() as u64,
            scored: half_points.len() as u64,
            score2: half_points.iter().sum(),
            score_sq: half_points.iter().map(|s| s.unsigned_abs().pow(2)).sum(),
        };
        // One playout 175.5 points up, the root even with a spread of 60: the lead is
        // (175.5 + 2 × 0) / 3, the spread that of 175.5, 0 ± 60, 0 ± 60.
        let (lead, stdev) = shrunk_score(&scores(&[351]), (0.0, 60.0));
        assert!((lead - 58.5).abs() < 1e-9, "{lead}");
        let want = ((2.0 * 3600.0 + 2.0 / 3.0 * 175.5f64.powi(2)) / 3.0).sqrt();
        assert!((stdev - want).abs() < 1e-9, "{stdev} against {want}");
        // Without a playout: the root's values exactly.
        assert_eq!(
            shrunk_score(&RootCounts::default(), (3.5, 20.0)),
            (3.5, 20.0)
        );
        // Every playout and the root alike: no spread at all.
        assert_eq!(shrunk_score(&scores(&[3, 3, 3]), (1.5, 0.0)), (1.5, 0.0));
        // Many playouts: their own mean.
        let many = scores(&vec![10; 2000]);
        let (lead, _) = shrunk_score(&many, (-20.0, 5.0));
        assert!((lead - 5.0).abs() < 0.03, "{lead}");
    }
}
