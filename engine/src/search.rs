//! The search loop: descend the tree, expand, run a playout, back the result up.
//!
//! Two kinds of parallelism ([`Parallelism`]):
//! - **root**: each [`Worker`] owns a whole tree and shares nothing with the others
//!   but a [`RootShare`] of atomic counters per root move and the read-only policy;
//! - **tree**: the first worker's tree sits behind one mutex that every worker takes
//!   to descend, expand and back up; the playout itself runs outside the lock. A
//!   descent adds a virtual loss (a visit without a win) to every node of its path, so
//!   a concurrent descent is steered elsewhere; the backup then adds only the win.
//!
//! Every worker keeps its own [`Scratch`] (board, AMAF map, path, RNG, ownership
//! counts). One thread with a playout budget and a seed is deterministic.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use tengen_board::{Board, Color, Game, Hash, MAX_SLOTS, Move, Point};

use crate::analysis::{Analysis, Line, MoveStat, Report};
use crate::config::{Config, Parallelism};
use crate::playout::{Amaf, Policy, Replies, Rng};
use crate::prior::{Candidate, Knowledge, candidates, pass_prior};
use crate::select::{lower_bound, select};
use crate::time::{MoveBudget, Progress};
use crate::tree::{NodeId, Tree};

/// When a search stops (besides the stop flag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// This many playouts in total (over all threads).
    Playouts(u64),
    /// A soft and a hard time limit.
    Time(MoveBudget),
    /// Until the stop flag is raised.
    Infinite,
}

/// One thread's search state. Kept between searches so the tree can be reused.
#[derive(Debug)]
pub(crate) struct Worker {
    /// The worker's own tree (root parallelism); under tree parallelism only the first
    /// worker's tree is used, and shared.
    pub(crate) tree: Tree,
    pub(crate) scratch: Scratch,
}

/// What one thread needs besides a tree: never shared.
#[derive(Debug)]
pub(crate) struct Scratch {
    pub(crate) rng: Rng,
    board: Board,
    amaf: Amaf,
    replies: Replies,
    path: Vec<NodeId>,
    keys: Vec<Hash>,
    cands: Vec<Candidate>,
    /// Playouts that ended with each point Black's / White's (written by this worker
    /// only, read by the reporting thread: single-writer relaxed counters).
    black_owned: Box<[AtomicU32]>,
    white_owned: Box<[AtomicU32]>,
    owned_playouts: AtomicU32,
}

impl Worker {
    pub(crate) fn new(board: &Board, rng: Rng) -> Worker {
        Worker {
            tree: Tree::new(Color::White, Move::Pass),
            scratch: Scratch {
                rng,
                board: board.clone(),
                amaf: Amaf::default(),
                replies: Replies::default(),
                path: Vec::with_capacity(64),
                keys: Vec::with_capacity(64),
                cands: Vec::with_capacity(400),
                black_owned: (0..MAX_SLOTS).map(|_| AtomicU32::new(0)).collect(),
                white_owned: (0..MAX_SLOTS).map(|_| AtomicU32::new(0)).collect(),
                owned_playouts: AtomicU32::new(0),
            },
        }
    }
}

impl Scratch {
    fn reset_ownership(&mut self) {
        for a in self.black_owned.iter().chain(self.white_owned.iter()) {
            a.store(0, Relaxed);
        }
        self.owned_playouts.store(0, Relaxed);
    }
}

/// Counters per root move shared by the workers, indexed by point slot (0 = pass).
pub(crate) struct RootShare {
    visits: Box<[AtomicU64]>,
    wins: Box<[AtomicU64]>,
    /// Sum of final scores for the side to move, in half points, over this search's
    /// playouts (the reused tree keeps no scores).
    score2: Box<[AtomicI64]>,
    /// The visits of `visits` that came from the reused tree (earlier searches).
    reused: Box<[AtomicU64]>,
    playouts: AtomicU64,
    stop: AtomicBool,
}

impl RootShare {
    fn new() -> RootShare {
        RootShare {
            visits: (0..MAX_SLOTS).map(|_| AtomicU64::new(0)).collect(),
            wins: (0..MAX_SLOTS).map(|_| AtomicU64::new(0)).collect(),
            score2: (0..MAX_SLOTS).map(|_| AtomicI64::new(0)).collect(),
            reused: (0..MAX_SLOTS).map(|_| AtomicU64::new(0)).collect(),
            playouts: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        }
    }
}

fn slot(mv: Move) -> usize {
    match mv {
        Move::Play(p) => p.index(),
        Move::Pass => 0,
    }
}

/// What one search is asked to do.
pub(crate) struct Job<'a> {
    pub game: &'a Game,
    pub color: Color,
    pub limit: Limit,
    pub stop: &'a AtomicBool,
    pub ownership: bool,
    pub with_pass: bool,
}

/// The fixed inputs every worker reads.
struct Ctx<'a> {
    job: &'a Job<'a>,
    policy: &'a Policy,
    config: &'a Config,
    root: Board,
    root_last: Option<Point>,
    /// What a playout's area count is compared with: the komi, handicap
    /// compensation included ([`Game::area_komi`]).
    komi: f64,
    node_budget: usize,
    share: RootShare,
    start: Instant,
}

/// Where the tree a worker searches lives during one search.
#[derive(Clone, Copy)]
enum TreeAccess<'a> {
    /// The worker's own tree (root parallelism, or a single thread).
    Own,
    /// One tree for all workers, behind a lock (tree parallelism).
    Shared(&'a Mutex<Tree>),
}

/// Locks the shared tree; a worker that panicked holding it leaves a tree whose
/// counts are still consistent enough to read, so poisoning is ignored.
fn lock(tree: &Mutex<Tree>) -> std::sync::MutexGuard<'_, Tree> {
    tree.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs a search with `workers` (one thread each) and returns the final snapshot.
pub(crate) fn search(
    workers: &mut [Worker],
    policy: &Policy,
    config: &Config,
    job: &Job<'_>,
    start: Instant,
    mut report: Option<Report<'_>>,
) -> Analysis {
    let game = job.game;
    let root_last = match game.last_move() {
        Some((_, Move::Play(p))) => Some(p),
        _ => None,
    };
    let shared = workers.len() > 1 && config.parallelism == Parallelism::Tree;
    let trees = if shared { 1 } else { workers.len().max(1) };
    let ctx = Ctx {
        job,
        policy,
        config,
        root: game.board().clone(),
        root_last,
        komi: game.area_komi(),
        node_budget: (config.max_nodes / trees).max(1000),
        share: RootShare::new(),
        start,
    };
    for w in workers.iter_mut().take(trees) {
        if w.tree.node(w.tree.root()).color() != job.color.opponent() {
            w.tree = Tree::new(job.color.opponent(), Move::Pass);
        }
        let root = w.tree.root();
        if !w.tree.node(root).is_expanded() {
            w.scratch.board.copy_from(&ctx.root);
            w.scratch.path.clear();
            w.scratch.keys.clear();
            expand(
                &mut w.tree,
                &mut w.scratch,
                &ctx,
                root,
                job.color,
                root_last,
            );
        }
        if !job.with_pass {
            set_pass_prior(&mut w.tree, (1e6, 0.0));
        }
        for child in w.tree.child_nodes(root) {
            let s = slot(child.mv());
            ctx.share.visits[s].fetch_add(u64::from(child.visits), Relaxed);
            ctx.share.wins[s].fetch_add(child.wins as u64, Relaxed);
            ctx.share.reused[s].fetch_add(u64::from(child.visits), Relaxed);
        }
    }
    for w in workers.iter_mut() {
        w.scratch.reset_ownership();
    }
    let shared_tree = shared.then(|| {
        let color = workers[0].tree.node(workers[0].tree.root()).color();
        Mutex::new(std::mem::replace(
            &mut workers[0].tree,
            Tree::new(color, Move::Pass),
        ))
    });
    let access = match &shared_tree {
        Some(t) => TreeAccess::Shared(t),
        None => TreeAccess::Own,
    };
    let (main, rest) = workers.split_first_mut().expect("at least one worker");
    std::thread::scope(|scope| {
        for w in rest.iter_mut() {
            let ctx = &ctx;
            scope.spawn(move || run_worker(w, access, ctx, false, None));
        }
        run_worker(main, access, &ctx, true, report.as_mut());
    });
    if let Some(t) = shared_tree {
        workers[0].tree = t
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // The other workers' trees are stale; a root-only tree is never reused.
        for w in workers.iter_mut().skip(1) {
            w.tree = Tree::new(job.color.opponent(), Move::Pass);
        }
    }
    if !job.with_pass {
        for w in workers.iter_mut().take(trees) {
            set_pass_prior(&mut w.tree, pass_prior(&config.search));
        }
    }
    snapshot(&workers[0].tree, workers, &ctx)
}

/// Sets the prior of the root's pass. Clean-up play makes the pass look lost for the
/// search (it is then chosen only when nothing else is left) and restores it after.
fn set_pass_prior(tree: &mut Tree, (visits, wins): (f32, f32)) {
    let root = tree.root();
    if let Some(p) = tree.find_child(root, Move::Pass) {
        let n = tree.node_mut(p);
        n.prior_visits = visits;
        n.prior_wins = wins;
    }
}

/// Runs playouts until a stop condition; the main worker also applies the soft stop
/// rules and sends the reports.
fn run_worker(
    w: &mut Worker,
    access: TreeAccess<'_>,
    ctx: &Ctx<'_>,
    main: bool,
    mut report: Option<&mut Report<'_>>,
) {
    let mut next_report = report.as_ref().map(|r| ctx.start + r.interval);
    let mut done = 0u64;
    loop {
        if ctx.job.stop.load(Relaxed) || ctx.share.stop.load(Relaxed) {
            break;
        }
        if let Limit::Playouts(n) = ctx.job.limit {
            if ctx.share.playouts.fetch_add(1, Relaxed) >= n {
                break;
            }
        } else {
            ctx.share.playouts.fetch_add(1, Relaxed);
        }
        playout(w, access, ctx);
        done += 1;
        // The hard limit after every playout (a 19×19 playout on a busy machine can
        // take a millisecond or two), the whole rule every 16.
        let now = Instant::now();
        if should_stop(ctx, now, main && done % 16 == 0) {
            ctx.share.stop.store(true, Relaxed);
            break;
        }
        if done % 16 == 0 {
            if let (Some(r), Some(at)) = (report.as_deref_mut(), next_report) {
                if now >= at {
                    let owners = std::slice::from_ref(&*w);
                    let snap = match access {
                        TreeAccess::Own => snapshot(&w.tree, owners, ctx),
                        TreeAccess::Shared(t) => snapshot(&lock(t), owners, ctx),
                    };
                    (r.sink)(&snap);
                    next_report = Some(now + r.interval);
                }
            }
        }
    }
}

/// The stop rule for time limits: the hard limit, and with `full` (the main thread,
/// every few playouts) the whole rule ([`MoveBudget::should_stop`]).
/// A playout budget is spent in full: the extra playouts deepen the tree the next move
/// reuses, and the count stays exact and repeatable.
fn should_stop(ctx: &Ctx<'_>, now: Instant, full: bool) -> bool {
    let Limit::Time(budget) = ctx.job.limit else {
        return false;
    };
    let elapsed = now - ctx.start;
    if !full {
        return elapsed >= budget.hard;
    }
    let (best, second) = top_two(&ctx.share);
    let playouts = ctx.share.playouts.load(Relaxed);
    budget.should_stop(&Progress {
        elapsed,
        playouts,
        best,
        second,
    })
}

/// Visits of the two most visited root moves (all workers).
fn top_two(share: &RootShare) -> (u64, u64) {
    let (mut a, mut b) = (0, 0);
    for v in share.visits.iter().map(|v| v.load(Relaxed)) {
        if v > a {
            b = a;
            a = v;
        } else if v > b {
            b = v;
        }
    }
    (a, b)
}

/// One descent, playout and backup.
fn playout(w: &mut Worker, access: TreeAccess<'_>, ctx: &Ctx<'_>) {
    let job = ctx.job;
    let s = &mut w.scratch;
    let Descent { c, last, .. } = match access {
        TreeAccess::Own => descend_own(&mut w.tree, s, ctx),
        TreeAccess::Shared(t) => descend_shared(t, s, ctx),
    };
    s.amaf.clear();
    let out = ctx.policy.run(
        &mut s.board,
        c,
        last,
        ctx.komi,
        &mut s.rng,
        &mut s.amaf,
        (ctx.config.heavy.reply > 0.0).then_some(&mut s.replies),
    );
    let black_won = out.score > 0.0;
    if job.ownership {
        for p in out.black_area.iter() {
            let a = &s.black_owned[p.index()];
            a.store(a.load(Relaxed) + 1, Relaxed);
        }
        for p in out.white_area.iter() {
            let a = &s.white_owned[p.index()];
            a.store(a.load(Relaxed) + 1, Relaxed);
        }
        s.owned_playouts
            .store(s.owned_playouts.load(Relaxed) + 1, Relaxed);
    }
    let first = match access {
        TreeAccess::Own => backup(&mut w.tree, s, black_won, false),
        TreeAccess::Shared(t) => backup(&mut lock(t), s, black_won, true),
    };
    if let Some(mv) = first {
        let slot = slot(mv);
        let mover_won = black_won == (job.color == Color::Black);
        ctx.share.visits[slot].fetch_add(1, Relaxed);
        ctx.share.wins[slot].fetch_add(u64::from(mover_won), Relaxed);
        let score = if job.color == Color::Black {
            out.score
        } else {
            -out.score
        };
        ctx.share.score2[slot].fetch_add((score * 2.0).round() as i64, Relaxed);
    }
}

/// Where a descent stands: the node reached, the player to move there, the last move
/// and the passes in a row that led to it.
#[derive(Clone, Copy)]
struct Descent {
    node: NodeId,
    c: Color,
    last: Option<Point>,
    passes: u32,
}

/// What stopped a descent.
enum Step {
    /// A leaf: the playout starts here.
    Leaf,
    /// The node reached is ready to be expanded; the descent resumes after that.
    Expand,
}

impl Descent {
    /// A descent from the root: resets the scratch board, path and keys.
    fn start(tree: &Tree, s: &mut Scratch, ctx: &Ctx<'_>) -> Descent {
        s.board.copy_from(&ctx.root);
        s.path.clear();
        s.keys.clear();
        s.path.push(tree.root());
        Descent {
            node: tree.root(),
            c: ctx.job.color,
            last: ctx.root_last,
            passes: 0,
        }
    }
}

/// Descends to a leaf in the worker's own tree, expanding the ready nodes on the way.
fn descend_own(tree: &mut Tree, s: &mut Scratch, ctx: &Ctx<'_>) -> Descent {
    let mut d = Descent::start(tree, s, ctx);
    while let Step::Expand = descend(tree, s, ctx, &mut d, false) {
        generate(s, ctx, d.c, d.last);
        tree.expand(d.node, d.c, &s.cands);
    }
    d
}

/// Descends to a leaf in the shared tree with virtual loss. The children of a node to
/// expand are generated with the lock released; if another thread expanded the node
/// meanwhile, its children stand and the descent goes on through them.
fn descend_shared(shared: &Mutex<Tree>, s: &mut Scratch, ctx: &Ctx<'_>) -> Descent {
    let mut tree = lock(shared);
    let mut d = Descent::start(&tree, s, ctx);
    while let Step::Expand = descend(&mut tree, s, ctx, &mut d, true) {
        drop(tree);
        generate(s, ctx, d.c, d.last);
        tree = lock(shared);
        if !tree.node(d.node).is_expanded() && tree.len() + MAX_SLOTS < ctx.node_budget {
            tree.expand(d.node, d.c, &s.cands);
        }
    }
    d
}

/// Walks down from `d`, playing the path's moves on the scratch board, until a leaf or
/// a node ready to be expanded. With `virtual_loss`, every node the walk leaves, and
/// the leaf, gets its visit now (the backup then adds only the result).
fn descend(
    tree: &mut Tree,
    s: &mut Scratch,
    ctx: &Ctx<'_>,
    d: &mut Descent,
    virtual_loss: bool,
) -> Step {
    let job = ctx.job;
    loop {
        let n = tree.node(d.node);
        if !n.is_expanded() {
            if n.visits >= ctx.config.search.expand_after
                && tree.len() + MAX_SLOTS < ctx.node_budget
            {
                return Step::Expand;
            }
            break;
        }
        let parent_visits = n.visits;
        let Some(i) = select(tree.child_nodes(d.node), parent_visits, &ctx.config.search) else {
            break;
        };
        if virtual_loss {
            tree.node_mut(d.node).visits += 1;
        }
        let child = tree.children(d.node).nth(i).expect("selected child exists");
        let mv = tree.node(child).mv();
        s.board.play_unchecked(d.c, mv);
        s.keys
            .push(job.game.position_key(s.board.hash(), d.c.opponent()));
        s.path.push(child);
        d.node = child;
        d.c = d.c.opponent();
        match mv {
            Move::Play(p) => {
                d.last = Some(p);
                d.passes = 0;
            }
            Move::Pass => {
                d.last = None;
                d.passes += 1;
                if d.passes >= 2 {
                    break;
                }
            }
        }
    }
    if virtual_loss {
        tree.node_mut(d.node).visits += 1;
    }
    Step::Leaf
}

/// Updates wins (and, without virtual loss, visits) along the path, and AMAF
/// statistics of every sibling whose move its player made first later in the
/// sequence. Returns the root move the path started with.
fn backup(tree: &mut Tree, s: &mut Scratch, black_won: bool, virtual_loss: bool) -> Option<Move> {
    let won = |c: Color| (c == Color::Black) == black_won;
    for k in (0..s.path.len()).rev() {
        let id = s.path[k];
        if tree.node(id).is_expanded() {
            for ch in tree.children(id) {
                let node = tree.node(ch);
                if let Move::Play(p) = node.mv() {
                    if s.amaf.first(p) == Some(node.color()) {
                        let win = won(node.color());
                        let n = tree.node_mut(ch);
                        n.amaf_visits += 1;
                        n.amaf_wins += f32::from(u8::from(win));
                    }
                }
            }
        }
        let n = tree.node_mut(id);
        if !virtual_loss {
            n.visits += 1;
        }
        n.wins += f32::from(u8::from(won(n.color())));
        if let Move::Play(p) = n.mv() {
            let c = n.color();
            s.amaf.overwrite(c, p);
        }
    }
    s.path.get(1).map(|&first| tree.node(first).mv())
}

/// Generates the children of `node` for `c` on the scratch board.
fn expand(
    tree: &mut Tree,
    s: &mut Scratch,
    ctx: &Ctx<'_>,
    node: NodeId,
    c: Color,
    last: Option<Point>,
) {
    generate(s, ctx, c, last);
    tree.expand(node, c, &s.cands);
}

/// Fills the scratch candidate list with the moves of `c` on the scratch board, with
/// their priors; a move that repeats a position of the game or of the path is left out
/// (superko in the tree).
fn generate(s: &mut Scratch, ctx: &Ctx<'_>, c: Color, last: Option<Point>) {
    let game = ctx.job.game;
    let board = &s.board;
    let keys = &s.keys;
    // The pass is always a child; clean-up play only makes it look lost at the root
    // (`set_pass_prior`), so a later normal search of the same node can still pass.
    let with_pass = true;
    candidates(
        board,
        c,
        last,
        Knowledge {
            patterns: ctx.policy.patterns(),
            shapes: ctx.policy.shapes(),
            params: &ctx.config.search,
            with_pass,
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

/// The snapshot of a search: root statistics from the shared counters, principal
/// variations from `tree`, ownership merged over `workers`.
fn snapshot(tree: &Tree, workers: &[Worker], ctx: &Ctx<'_>) -> Analysis {
    let root = tree.root();
    let color = ctx.job.color;
    let prior_total: f64 = tree
        .child_nodes(root)
        .iter()
        .map(|n| f64::from(n.prior_wins / n.prior_visits.max(1e-6)))
        .sum::<f64>()
        .max(1e-9);
    let mut moves: Vec<MoveStat> = tree
        .children(root)
        .map(|id| {
            let n = tree.node(id);
            let s = slot(n.mv());
            let visits = ctx.share.visits[s].load(Relaxed);
            let wins = ctx.share.wins[s].load(Relaxed);
            let winrate = if visits > 0 {
                wins as f64 / visits as f64
            } else {
                f64::from(n.prior_wins / n.prior_visits.max(1e-6))
            };
            // The reused tree keeps no scores: average this search's playouts only.
            let scored = visits.saturating_sub(ctx.share.reused[s].load(Relaxed));
            let score_lead = if scored > 0 {
                ctx.share.score2[s].load(Relaxed) as f64 / 2.0 / scored as f64
            } else {
                0.0
            };
            MoveStat {
                mv: n.mv(),
                visits,
                winrate,
                prior: f64::from(n.prior_wins / n.prior_visits.max(1e-6)) / prior_total,
                lcb: lower_bound(winrate, visits),
                score_lead,
                pv: principal_variation(tree, id, 12),
            }
        })
        .collect();
    moves.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
    });
    let visits: u64 = moves.iter().map(|m| m.visits).sum();
    let reused: u64 = ctx.share.reused.iter().map(|r| r.load(Relaxed)).sum();
    let wins: f64 = moves.iter().map(|m| m.winrate * m.visits as f64).sum();
    let score2: i64 = ctx.share.score2.iter().map(|x| x.load(Relaxed)).sum();
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
    Analysis {
        color,
        visits,
        reused,
        winrate,
        score_lead,
        moves,
        ownership: if ctx.job.ownership {
            ownership(workers, &ctx.root, color, false)
        } else {
            Vec::new()
        },
        neutral: if ctx.job.ownership {
            ownership(workers, &ctx.root, color, true)
        } else {
            Vec::new()
        },
        elapsed: ctx.start.elapsed(),
    }
}

/// The most visited line from `id`, at most `depth` moves, starting with its move.
fn principal_variation(tree: &Tree, id: NodeId, depth: usize) -> Line {
    let mut pv = Line::new();
    pv.push(tree.node(id).mv());
    let mut node = id;
    while pv.len() < depth {
        let Some(next) = tree
            .children(node)
            .filter(|&c| tree.node(c).visits > 0)
            .max_by_key(|&c| tree.node(c).visits)
        else {
            break;
        };
        pv.push(tree.node(next).mv());
        node = next;
    }
    pv
}

/// Ownership for `color` (or, with `neutral`, the share of playouts a point ended as
/// nobody's), row by row from the top left.
pub(crate) fn ownership(
    workers: &[Worker],
    board: &Board,
    color: Color,
    neutral: bool,
) -> Vec<f32> {
    let n: u32 = workers
        .iter()
        .map(|w| w.scratch.owned_playouts.load(Relaxed))
        .sum();
    let size = board.size();
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    let mut out = Vec::with_capacity(size.area());
    for y in (0..size.get()).rev() {
        for x in 0..size.get() {
            let p = size.point(x, y).expect("on the board");
            let b: u32 = workers
                .iter()
                .map(|w| w.scratch.black_owned[p.index()].load(Relaxed))
                .sum();
            let wh: u32 = workers
                .iter()
                .map(|w| w.scratch.white_owned[p.index()].load(Relaxed))
                .sum();
            let v = match (n, neutral) {
                (0, _) => 0.0,
                (_, true) => f64::from(n - b - wh) / f64::from(n),
                (_, false) => sign * (f64::from(b) - f64::from(wh)) / f64::from(n),
            };
            out.push(v as f32);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use tengen_board::{BoardSize, Rules};

    /// Runs one search of the 9×9 position after Black's E5 with `threads` workers.
    fn run(threads: usize, parallelism: Parallelism, playouts: u64) -> Vec<Worker> {
        let size = BoardSize::new(9).unwrap();
        let mut game = Game::new(size, Rules::chinese());
        game.play(Color::Black, size.parse_move("E5").unwrap())
            .unwrap();
        let config = Config {
            threads,
            parallelism,
            ..Config::default()
        };
        let policy = Policy::new(config.policy, config.heavy.clone());
        let mut workers: Vec<Worker> = (0..threads)
            .map(|i| Worker::new(game.board(), Rng::seed_from_u64(i as u64)))
            .collect();
        let stop = AtomicBool::new(false);
        let job = Job {
            game: &game,
            color: Color::White,
            limit: Limit::Playouts(playouts),
            stop: &stop,
            ownership: false,
            with_pass: true,
        };
        let analysis = search(&mut workers, &policy, &config, &job, Instant::now(), None);
        assert_eq!(analysis.visits, playouts);
        workers
    }

    #[test]
    fn playouts_count_the_handicap_compensation() {
        // 5×5, every empty point a one-point eye, so every playout ends as it starts:
        // Black 15 points (two of its stones handicap), White 10. With komi 4, Black
        // wins by 1 without the compensation and loses by 1 with it.
        let size = BoardSize::new(5).unwrap();
        let mut game = Game::new(size, Rules::chinese().with_komi(4.0).unwrap());
        let pt = |v: &str| size.parse_point(v).unwrap();
        game.place_handicap(&[pt("A1"), pt("A5")]).unwrap();
        let rows = [
            "X . X O .",
            "X X X O O",
            "X . X O .",
            "X X X O O",
            "X . X O .",
        ];
        for (r, row) in rows.iter().enumerate() {
            for (col, cell) in row.split(' ').enumerate() {
                let p = size.point(col, 4 - r).unwrap();
                let c = match cell {
                    "X" => Color::Black,
                    "O" => Color::White,
                    _ => continue,
                };
                if game.board().color_at(p).is_none() {
                    game.add_setup_stone(c, p).unwrap();
                }
            }
        }
        let config = Config::default();
        let policy = Policy::new(config.policy, config.heavy.clone());
        let mut workers = vec![Worker::new(game.board(), Rng::seed_from_u64(1))];
        let stop = AtomicBool::new(false);
        let job = Job {
            game: &game,
            color: Color::White,
            limit: Limit::Playouts(200),
            stop: &stop,
            ownership: false,
            with_pass: true,
        };
        let analysis = search(&mut workers, &policy, &config, &job, Instant::now(), None);
        assert!(
            analysis.winrate > 0.9,
            "White's win rate {}",
            analysis.winrate
        );
        assert!(
            (analysis.score_lead - 1.0).abs() < 0.01,
            "White's lead {}",
            analysis.score_lead
        );
    }

    /// Every node of `tree`: wins never exceed visits, and the children of a node were
    /// visited at most as often as the node itself (no virtual loss left behind and
    /// none counted twice).
    fn check_counts(tree: &Tree) {
        let mut stack = vec![tree.root()];
        while let Some(id) = stack.pop() {
            let n = tree.node(id);
            assert!(
                n.wins <= n.visits as f32,
                "wins {} visits {}",
                n.wins,
                n.visits
            );
            let below: u32 = tree.child_nodes(id).iter().map(|c| c.visits).sum();
            assert!(below <= n.visits, "children {below} > node {}", n.visits);
            stack.extend(tree.children(id));
        }
    }

    #[test]
    fn shared_tree_counts_every_playout_once() {
        let workers = run(2, Parallelism::Tree, 3000);
        let tree = &workers[0].tree;
        let root_children: u32 = tree.child_nodes(tree.root()).iter().map(|c| c.visits).sum();
        assert_eq!(root_children, 3000);
        assert_eq!(tree.node(tree.root()).visits, 3000);
        check_counts(tree);
        // The second worker searched the shared tree, not one of its own.
        assert!(!workers[1].tree.node(workers[1].tree.root()).is_expanded());
    }

    #[test]
    fn root_parallel_workers_grow_their_own_trees() {
        let workers = run(2, Parallelism::Root, 3000);
        let total: u32 = workers
            .iter()
            .map(|w| w.tree.node(w.tree.root()).visits)
            .sum();
        assert_eq!(total, 3000);
        for w in &workers {
            assert!(w.tree.node(w.tree.root()).visits > 0);
            check_counts(&w.tree);
        }
    }
}
