//! Snapshots: what a search has found so far, as the analysis reports it.

use tengen_board::{Board, Color, Move};

use crate::analysis::{Analysis, Line, MoveStat};
use crate::select::lower_bound;
use crate::tree::{Edge, NodeId, Tree};

use super::descend::{avoided, prior};
use super::tally::RootCounts;
use super::{Ctx, slot};

/// The longest principal variation reported.
const PV_DEPTH: usize = 40;

/// The snapshot of a search: root statistics from the workers' counters and the reused
/// tree's, principal variations from `tree`, ownership merged over the workers.
pub(super) fn snapshot(tree: &Tree, ctx: &Ctx<'_>) -> Analysis {
    let root = tree.root();
    let color = ctx.job.color;
    // A root move the job avoids is no candidate: it is left out.
    let listed = |e: &&Edge| !matches!(e.mv(), Move::Play(p) if avoided(ctx, p));
    let edges = tree.edges(root);
    let rate = |(v, w): (f32, f32)| f64::from(w / v.max(1e-6));
    let prior_total: f64 = edges
        .iter()
        .filter(listed)
        .map(|e| rate(prior(ctx, true, e)))
        .sum::<f64>()
        .max(1e-9);
    let share = &ctx.share;
    // Each listed root move's counts, read once: the root's are their sum.
    let counts: Vec<(&Edge, RootCounts)> = edges
        .iter()
        .filter(listed)
        .map(|e| (e, share.root(&ctx.tallies, slot(e.mv()))))
        .collect();
    // The root's score, over every playout of this search.
    let root_score = counts
        .iter()
        .fold(RootCounts::default(), |sum, &(_, c)| sum + c)
        .score();
    let mut moves: Vec<MoveStat> = counts
        .iter()
        .map(|&(e, c)| {
            let mv = e.mv();
            let s = slot(mv);
            let visits = c.visits;
            let prior_rate = rate(prior(ctx, true, e));
            let winrate = if visits > 0 {
                c.wins as f64 / visits as f64
            } else {
                prior_rate
            };
            // The reused tree keeps no scores: this search's playouts only. A move
            // none of them went through (its visits all reused, or none) reads the
            // root's score and spread, never a made-up 0.
            let scored = c.scored;
            let (score_lead, score_stdev) = if scored > 0 { c.score() } else { root_score };
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
            MoveStat {
                mv,
                visits,
                winrate,
                prior: prior_rate / prior_total,
                lcb: lower_bound(winrate, visits),
                score_lead,
                score_stdev,
                pv,
                pv_visits,
                ownership,
                neutral,
            }
        })
        .collect();
    moves.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
    });
    let visits: u64 = moves.iter().map(|m| m.visits).sum();
    let reused: u64 = edges
        .iter()
        .filter(listed)
        .map(|e| share.reused(slot(e.mv())))
        .sum();
    let wins: f64 = moves.iter().map(|m| m.winrate * m.visits as f64).sum();
    let winrate = if visits > 0 {
        wins / visits as f64
    } else {
        0.5
    };
    let (score_lead, score_stdev) = root_score;
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
