//! Descent and selection: from the root to a leaf, expanding the nodes that are ready.
//!
//! A descent adds a visit to every node it passes, the leaf included, before the
//! playout (a virtual loss: other threads see a visit without a win and look
//! elsewhere); the backup then adds only the result. A leaf visited
//! `Ctx::expand_after` times (`SearchParams::expansion_threshold`) is claimed by the first thread to get there,
//! which generates its moves and publishes them (`Tree::claim`, `Tree::publish`);
//! a thread that finds a node claimed starts its playout there instead of waiting.
//!
//! With a policy network, the first thread to pass an expanded node of at least
//! `SearchParams::net_visits` visits claims its rating (`Tree::claim_rating`), rates
//! the position (`net.rs`: the cache, or an evaluation) and gives the node's edges
//! the blended priors (`Tree::set_priors`), then descends on; a node expanded at a
//! position the cache holds, or with `net_visits` visits already, is rated as it is
//! expanded.

use std::sync::Arc;

use tengen_board::{Color, Move, Point};

use crate::prior::{PriorInput, candidates};
use crate::select::{ChildStats, select};
use crate::tree::{Edge, NodeId, State, Tree};
use tengen_knowledge::NetPolicy;
use tengen_knowledge::move_model::features::History;

use super::{Ctx, Scratch};

/// Where a descent is (and ended): the player to move at its node and the last move.
#[derive(Clone, Copy)]
pub(super) struct Descent {
    pub(super) c: Color,
    pub(super) last: Option<Point>,
}

/// The prior selection sees for `edge` of the root or of a deeper node: clean-up
/// play makes the root's pass look lost, so that it is chosen only when nothing
/// else is left, and so does a root move the job avoids.
#[inline]
pub(super) fn prior(ctx: &Ctx<'_>, at_root: bool, edge: &Edge) -> (f32, f32) {
    if at_root && barred(ctx, edge.mv()) {
        (1e6, 0.0)
    } else {
        edge.prior()
    }
}

/// Whether the job keeps `mv` out of the root's choices: the pass in clean-up play,
/// or a move it avoids.
#[inline]
pub(super) fn barred(ctx: &Ctx<'_>, mv: Move) -> bool {
    match mv {
        Move::Pass => !ctx.job.with_pass,
        Move::Play(p) => avoided(ctx, p),
    }
}

/// Whether the job avoids `p` at the root.
#[inline]
pub(super) fn avoided(ctx: &Ctx<'_>, p: tengen_board::Point) -> bool {
    ctx.job.avoid.contains(p)
}

/// What selection knows of `edge` (inlined in selection's loop over the edges).
#[inline(always)]
pub(super) fn stats(tree: &Tree, ctx: &Ctx<'_>, at_root: bool, edge: &Edge) -> ChildStats {
    let (prior_visits, prior_wins) = prior(ctx, at_root, edge);
    let (amaf_visits, amaf_wins) = edge.amaf();
    let (visits, wins) = match edge.child() {
        Some(c) => (tree.node(c).visits(), tree.node(c).wins()),
        None => (0, 0),
    };
    ChildStats {
        visits,
        wins,
        amaf_visits,
        amaf_wins,
        prior_visits,
        prior_wins,
    }
}

/// Descends from the root to a leaf, playing the path's moves on the scratch board
/// and recording the path (nodes and moves) and position keys in the scratch.
/// `exclusive`: no other thread searches this tree.
pub(super) fn descend(tree: &Tree, s: &mut Scratch, ctx: &Ctx<'_>, exclusive: bool) -> Descent {
    let params = &ctx.config.search;
    s.board.copy_from(&ctx.root);
    s.path.clear();
    s.keys.clear();
    let mut id = tree.root();
    s.path.push((id, Move::Pass));
    let mut d = Descent {
        c: ctx.job.color,
        last: ctx.root_last,
    };
    let mut passes = 0;
    loop {
        let node = tree.node(id);
        match node.state() {
            State::Leaf => {
                if node.visits() >= ctx.expand_after && !tree.needs_room() && tree.claim(id) {
                    // A node that already has the visits a rating needs is rated as it
                    // is expanded (one generation, not a model one and then a blended
                    // one); below that, only a rating the cache holds is used.
                    let visits = node.visits();
                    let rated = ctx.net.and_then(|net| {
                        let history = history(s, ctx);
                        if visits >= ctx.net_visits {
                            net.rate(&s.board, d.c, &history, &mut s.net)
                        } else {
                            net.cached(&s.board, d.c, &history)
                        }
                    });
                    generate(s, ctx, d.c, d.last, rated.as_deref());
                    if tree.publish(id, &s.cands, rated.is_some()) {
                        continue;
                    }
                }
                break;
            }
            State::Claimed => break,
            State::Expanded => {
                if ctx.net.is_some() && node.visits() >= ctx.net_visits && tree.claim_rating(id) {
                    rate(tree, s, ctx, id, d);
                }
            }
        }
        let at_root = id == tree.root();
        let edges = tree.edges(id);
        let parent_visits = node.visits();
        let width = params.width(parent_visits);
        let children = edges
            .iter()
            .take(width)
            .map(|e| stats(tree, ctx, at_root, e));
        let Some(i) = select(children, parent_visits, params) else {
            break;
        };
        let (edge, child) = match tree.child(&edges[i]) {
            Some(child) => (&edges[i], child),
            // No room for a new node. A playout must start below a root move to count
            // for one: at the root it goes to the best move that has a node already.
            None if at_root => match best_attached(tree, ctx, edges, parent_visits) {
                Some(found) => found,
                None => break,
            },
            None => break,
        };
        node.add_visit(exclusive);
        let mv = edge.mv();
        s.board.play_unchecked(d.c, mv);
        s.keys
            .push(ctx.job.game.position_key(s.board.hash(), d.c.opponent()));
        s.path.push((child, mv));
        id = child;
        d.c = d.c.opponent();
        match mv {
            Move::Play(p) => {
                d.last = Some(p);
                passes = 0;
            }
            Move::Pass => {
                d.last = None;
                passes += 1;
                if passes >= 2 {
                    break;
                }
            }
        }
    }
    tree.node(id).add_visit(exclusive);
    d
}

/// The best of the root's `edges` that have a node (for a descent in a full tree).
fn best_attached<'t>(
    tree: &'t Tree,
    ctx: &Ctx<'_>,
    edges: &'t [Edge],
    parent_visits: u32,
) -> Option<(&'t Edge, NodeId)> {
    let attached = || edges.iter().filter_map(|e| e.child().map(|c| (e, c)));
    let children = attached().map(|(e, _)| stats(tree, ctx, true, e));
    let k = select(children, parent_visits, &ctx.config.search)?;
    attached().nth(k)
}

/// Expands `id` (a leaf, `at.c` to move after `at.last`) at once, from the position
/// on the scratch board and the path in it (the root before a search), rated by the
/// policy network if the search has one; returns that rating, if any.
pub(super) fn expand_now(
    tree: &Tree,
    s: &mut Scratch,
    ctx: &Ctx<'_>,
    id: NodeId,
    at: Descent,
) -> Option<Arc<NetPolicy>> {
    let Descent { c, last } = at;
    let rating = ctx
        .net
        .and_then(|net| net.rate(&s.board, c, &history(s, ctx), &mut s.net));
    generate(s, ctx, c, last, rating.as_deref());
    if tree.expand(id, &s.cands) && rating.is_some() {
        tree.claim_rating(id);
    }
    rating
}

/// Rates the position of `id` (an expanded node whose rating this thread claimed,
/// `at.c` to move on the scratch board after `at.last`) by the policy network and
/// gives its edges the blended priors; a position the network cannot rate keeps its
/// priors. Returns the rating, if any.
pub(super) fn rate(
    tree: &Tree,
    s: &mut Scratch,
    ctx: &Ctx<'_>,
    id: NodeId,
    at: Descent,
) -> Option<Arc<NetPolicy>> {
    let Descent { c, last } = at;
    let net = ctx.net?;
    let rating = net.rate(&s.board, c, &history(s, ctx), &mut s.net)?;
    generate(s, ctx, c, last, Some(&rating));
    tree.set_priors(id, &s.cands);
    Some(rating)
}

/// The two moves before the scratch board's position: the path's last two, then the
/// game's.
pub(super) fn history(s: &Scratch, ctx: &Ctx<'_>) -> History {
    let game = ctx.job.game;
    let mut played = [None; 2];
    for (_, mv) in game.moves().skip(game.move_count().saturating_sub(2)) {
        played = [played[1], Some(mv)];
    }
    // The root's entry in the path carries no move.
    for &(_, mv) in s.path.iter().skip(1).rev().take(2).rev() {
        played = [played[1], Some(mv)];
    }
    History {
        last: played[1],
        before: played[0],
    }
}

/// Fills the scratch candidate list with the moves of `c` on the scratch board, with
/// their priors (blended with the network's `rating` where there is one); a move that
/// repeats a position of the game or of the path is left out (superko in the tree).
fn generate(
    s: &mut Scratch,
    ctx: &Ctx<'_>,
    c: Color,
    last: Option<Point>,
    rating: Option<&NetPolicy>,
) {
    let game = ctx.job.game;
    let board = &s.board;
    let keys = &s.keys;
    // The pass is always a child; clean-up play only makes it look lost at the root
    // (`prior`), so a later normal search of the same node can still pass.
    candidates(
        board,
        c,
        PriorInput {
            knowledge: ctx.knowledge,
            params: &ctx.config.search,
            with_pass: true,
            history: history(s, ctx),
            last,
            net: rating,
        },
        |p| {
            let key = game.position_key(board.hash_after(c, Move::Play(p)), c.opponent());
            !game.has_seen(key) && !keys.contains(&key)
        },
        &mut s.cands,
    );
    if s.cands.is_empty() {
        s.cands.push((Move::Pass, 1.0, 0.5));
    }
}
