//! Snapshots: what a search has found so far, as the analysis reports it.

use tengen_board::{Board, Color};

use crate::analysis::{Analysis, Line, MoveStat};
use crate::select::lower_bound;
use crate::tree::{NodeId, Tree};

use super::descend::prior;
use super::tally::Tally;
use super::{Ctx, slot};

/// The longest principal variation reported.
const PV_DEPTH: usize = 40;

/// The snapshot of a search: root statistics from the workers' counters and the reused
/// tree's, principal variations from `tree`, ownership merged over the workers.
pub(super) fn snapshot(tree: &Tree, ctx: &Ctx<'_>) -> Analysis {
    let root = tree.root();
    let color = ctx.job.color;
    let edges = tree.edges(root);
    let rate = |(v, w): (f32, f32)| f64::from(w / v.max(1e-6));
    let prior_total: f64 = edges
        .iter()
        .map(|e| rate(prior(ctx, true, e)))
        .sum::<f64>()
        .max(1e-9);
    let share = &ctx.share;
    let mut moves: Vec<MoveStat> = edges
        .iter()
        .map(|e| {
            let mv = e.mv();
            let s = slot(mv);
            let (visits, wins, score2) = share.root(&ctx.tallies, s);
            let prior_rate = rate(prior(ctx, true, e));
            let winrate = if visits > 0 {
                wins as f64 / visits as f64
            } else {
                prior_rate
            };
            // The reused tree keeps no scores: average this search's playouts only.
            let scored = visits.saturating_sub(share.reused(s));
            let score_lead = if scored > 0 {
                score2 as f64 / 2.0 / scored as f64
            } else {
                0.0
            };
            let mut pv = Line::new();
            pv.push(mv);
            if let Some(c) = e.child() {
                extend_principal_variation(tree, c, PV_DEPTH, &mut pv);
            }
            MoveStat {
                mv,
                visits,
                winrate,
                prior: prior_rate / prior_total,
                lcb: lower_bound(winrate, visits),
                score_lead,
                pv,
            }
        })
        .collect();
    moves.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
    });
    let visits: u64 = moves.iter().map(|m| m.visits).sum();
    let reused: u64 = edges.iter().map(|e| share.reused(slot(e.mv()))).sum();
    let wins: f64 = moves.iter().map(|m| m.winrate * m.visits as f64).sum();
    let score2: i64 = edges
        .iter()
        .map(|e| share.root(&ctx.tallies, slot(e.mv())).2)
        .sum();
    let winrate = if visits > 0 {
        wins / visits as f64
    } else {
        0.5
    };
    let scored = visits.saturating_sub(reused);
    let score_lead = if scored > 0 {
        score2 as f64 / 2.0 / scored as f64
    } else {
        0.0
    };
    let own = |neutral| {
        if ctx.job.ownership {
            ownership(&ctx.tallies, &ctx.root, color, neutral)
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
        moves,
        ownership: own(false),
        neutral: own(true),
        elapsed: ctx.start.elapsed(),
        tree_bytes: tree.bytes() as u64,
        tree_compactions: tree.compactions(),
    }
}

/// Extends `pv` with the most visited line below node `id`, up to `depth` moves.
pub(crate) fn extend_principal_variation(tree: &Tree, id: NodeId, depth: usize, pv: &mut Line) {
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
        node = next;
    }
}

/// Ownership for `color` (or, with `neutral`, the share of playouts a point ended as
/// nobody's) over the workers of `tallies`, row by row from the top left.
fn ownership(tallies: &[&Tally], board: &Board, color: Color, neutral: bool) -> Vec<f32> {
    let size = board.size();
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    let mut out = Vec::with_capacity(size.area());
    for y in (0..size.get()).rev() {
        for x in 0..size.get() {
            let p = size.point(x, y).expect("on the board");
            let (n, b, wh) = tallies.iter().fold((0, 0, 0), |(n, b, w), t| {
                let (tn, tb, tw) = t.owned(p.index());
                (n + tn, b + tb, w + tw)
            });
            let v = match (n, neutral) {
                (0, _) => 0.0,
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
