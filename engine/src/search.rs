//! The search loop: descend the tree, expand, run a playout, back the result up.
//!
//! The parts, each in its own file:
//! - `descend.rs`: descent and selection, and the claiming of expansions;
//! - `backup.rs`: the result and the AMAF counts along the path;
//! - `tally.rs`: each worker's own counters (root moves, ownership, playouts) and the
//!   little the workers share besides the tree;
//! - `snapshot.rs`: root statistics, principal variations and ownership for the
//!   analysis;
//! - the tree itself, with its memory budget and compaction, is `crate::tree`.
//!
//! Two kinds of parallelism ([`Parallelism`]):
//! - **tree**: all workers search one tree through `&Tree`; its counters are atomics,
//!   so no lock is held while descending, expanding or backing up. Each worker holds
//!   a read guard of the tree's `RwLock` from playout to playout; a worker that finds
//!   the tree full raises the share's pause flag, the others let go of the tree after
//!   their playout and wait, and it takes the write guard and makes room.
//! - **root**: each worker searches a whole tree of its own and shares nothing with
//!   the others but the read-only policy and the stop flag; a tree searched by one
//!   thread is updated with plain loads and stores (`exclusive`), not
//!   read-modify-writes.
//!
//! Every worker keeps its own [`Scratch`] (board, AMAF map, path, RNG) and [`Tally`],
//! each on cache lines of its own, so a playout writes nothing shared but the tree.
//! Only the first tree is built under tree parallelism, and under root parallelism
//! each tree gets its share of the budget (at least `MIN_TREE_BYTES`, so only a
//! budget under 64 KiB a thread is exceeded). One thread with a playout budget and a
//! seed is deterministic: no clock is read per playout but under a time limit, where
//! the hard limit is checked after every playout (a report reads it every 16).
//!
//! A full tree makes room between playouts (`make_room`; a timed search only before
//! its soft limit and while twice the last making of room fits before the hard
//! limit), and every playout still counts for one root move: a descent that cannot
//! attach a node under the root move it chose goes to the best root move that has one.

mod backup;
mod descend;
#[cfg(test)]
mod extras_tests;
#[cfg(test)]
mod net_tests;
mod snapshot;
mod tally;

use std::sync::atomic::{AtomicBool, Ordering::Acquire, Ordering::Relaxed, Ordering::Release};
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::Instant;

use tengen_board::{Bitboard, Board, Color, Game, Hash, Move, Point};

use crate::analysis::{Analysis, Extras, Report};
use crate::config::{Config, Parallelism};
use crate::komi::playout_komi;
use crate::padded::Padded;
use crate::playout::{Amaf, Komi, Policy, Replies, Rng};
use crate::prior::Candidate;
use crate::prior::model::{Position, policy_shares};
use crate::time::{Limit, MoveBudget, Progress};
use crate::tree::{MIN_TREE_BYTES, NodeId, Tree};
use tengen_knowledge::NetPolicy;
use tengen_knowledge::{Knowledge, NetScratch};

use backup::{RootAmaf, backup};
use descend::{Descent, descend, expand_now, history, rate};
use snapshot::snapshot;
use tally::{RootShare, Tally};
use tengen_knowledge::PolicyNetFile;

/// One thread's search state. Kept between searches so the tree can be reused.
#[derive(Debug)]
pub(crate) struct Worker {
    /// The worker's own tree, once a search built it: every worker's under root
    /// parallelism, only the first worker's (shared) under tree parallelism.
    pub(crate) tree: Option<Tree>,
    pub(crate) scratch: Padded<Scratch>,
    tally: Padded<Tally>,
}

/// What one thread needs besides a tree: never shared.
#[derive(Debug)]
pub(crate) struct Scratch {
    pub(crate) rng: Rng,
    board: Board,
    amaf: Amaf,
    replies: Replies,
    /// The descent's nodes and the moves that led to them (the root's is a pass).
    path: Vec<(NodeId, Move)>,
    keys: Vec<Hash>,
    cands: Vec<Candidate>,
    /// The root's AMAF counts waiting to go into a shared tree.
    root_amaf: RootAmaf,
    /// The policy network's buffers, made at the worker's first evaluation.
    net: Option<NetScratch>,
}

impl Worker {
    /// A worker without a tree (the search builds the trees it needs).
    pub(crate) fn new(board: &Board, rng: Rng) -> Worker {
        Worker {
            tree: None,
            scratch: Padded(Scratch {
                rng,
                board: board.clone(),
                amaf: Amaf::default(),
                replies: Replies::default(),
                path: Vec::with_capacity(64),
                keys: Vec::with_capacity(64),
                cands: Vec::with_capacity(400),
                root_amaf: RootAmaf::default(),
                net: None,
            }),
            tally: Padded(Tally::new()),
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
#[derive(Clone, Copy, Debug)]
pub(crate) struct Job<'a> {
    pub game: &'a Game,
    pub color: Color,
    pub limit: Limit,
    pub stop: &'a AtomicBool,
    pub ownership: bool,
    pub with_pass: bool,
    /// Root moves the search never chooses (KataGo's `avoid`/`allow` at depth 1):
    /// selection sees them as lost, and the snapshots leave them out.
    pub avoid: Bitboard,
    /// Points added to the komi the playouts are scored against (dynamic komi in a
    /// handicap game, [`crate::komi`]); 0 for the real komi.
    pub komi_shift: f64,
}

impl<'a> Job<'a> {
    /// A plain search for `color` within `limit`: no ownership asked for, a pass among
    /// the candidates, no root move avoided, the real komi.
    pub(crate) fn plain(
        game: &'a Game,
        color: Color,
        limit: Limit,
        stop: &'a AtomicBool,
    ) -> Job<'a> {
        Job {
            game,
            color,
            limit,
            stop,
            ownership: false,
            with_pass: true,
            avoid: Bitboard::EMPTY,
            komi_shift: 0.0,
        }
    }
}

/// What a search plays by, read-only: the tables, the playout policy (over the same
/// tables), the settings and the policy network loaded for them, if any.
#[derive(Clone, Copy)]
pub(crate) struct Means<'a> {
    pub knowledge: &'a Knowledge,
    pub policy: &'a Policy,
    pub config: &'a Config,
    /// The network `config.policy_net` names, loaded (with the cache of its ratings).
    pub net: Option<&'a PolicyNetFile>,
}

/// Runs `job` on `workers` under `config` and `net` (the network loaded for it) with
/// a fresh policy of the configuration's kind and parameters (over the shipped
/// tables), its clock started at `start`.
#[cfg(test)]
fn search_by_config(
    workers: &mut [Worker],
    (config, net): (&Config, Option<&PolicyNetFile>),
    job: &Job<'_>,
    start: Instant,
    report: Option<Report<'_>>,
) -> Analysis {
    let policy = Policy::new(config.policy, config.heavy.clone());
    let means = Means {
        knowledge: policy.knowledge(),
        policy: &policy,
        config,
        net,
    };
    search(workers, means, job, start, report)
}

/// The fixed inputs every worker reads.
struct Ctx<'a> {
    job: &'a Job<'a>,
    /// The tables the tree's prior reads (the playouts read the policy's, the same).
    knowledge: &'a Knowledge,
    policy: &'a Policy,
    config: &'a Config,
    root: Board,
    root_last: Option<Point>,
    /// What a playout's area count is compared with: the komi, handicap
    /// compensation included, and the job's dynamic komi ([`playout_komi`]).
    komi: Komi,
    /// What the snapshots hold: the job's ownership and what the report asks for.
    extras: Extras,
    /// Visits a leaf needs before it is expanded, from the root's empty points.
    expand_after: u32,
    /// The policy network, where the configuration has one for this board's size.
    net: Option<&'a PolicyNetFile>,
    /// Visits an expanded node needs before the network rates it.
    net_visits: u32,
    share: RootShare,
    /// The policy the root's prior was shaped by, by point slot (0 = pass): each root
    /// move's share ([`policy_shares`]), 0 for a slot with no root move. Set once the
    /// roots are ready; empty before.
    root_policy: Vec<f32>,
    /// Every worker's counters, the first worker's first.
    tallies: Vec<&'a Tally>,
    start: Instant,
    /// When the workers were started, the roots ready: a timed search's pauses are
    /// measured from here (the preparation is in the elapsed time already).
    workers_start: Instant,
}

impl Ctx<'_> {
    /// Playouts finished by every worker.
    fn playouts(&self) -> u64 {
        self.tallies.iter().map(|t| t.playouts()).sum()
    }
}

/// Reads a tree; a worker that panicked holding a guard leaves counts that are still
/// consistent enough to read, so poisoning is ignored.
fn read(tree: &RwLock<Tree>) -> RwLockReadGuard<'_, Tree> {
    tree.read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn write(tree: &RwLock<Tree>) -> RwLockWriteGuard<'_, Tree> {
    tree.write()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Whether `threads` workers share one tree under `config`.
fn shares_tree(config: &Config, threads: usize) -> bool {
    threads > 1 && config.parallelism == Parallelism::Tree
}

/// How many trees a search by `threads` workers grows under `config`.
fn tree_count(config: &Config, threads: usize) -> usize {
    if shares_tree(config, threads) {
        1
    } else {
        threads.max(1)
    }
}

/// The bytes each tree of a search by `threads` workers may take: the whole
/// `Config::memory_mib` for a shared tree, a share of it for a tree each (never less
/// than [`MIN_TREE_BYTES`]).
pub(crate) fn tree_budget(config: &Config, threads: usize) -> usize {
    let trees = tree_count(config, threads);
    (config.memory_mib.saturating_mul(1 << 20) / trees).max(MIN_TREE_BYTES)
}

/// Runs a search with `workers` (one thread each) and returns the final snapshot.
pub(crate) fn search(
    workers: &mut [Worker],
    means: Means<'_>,
    job: &Job<'_>,
    start: Instant,
    mut report: Option<Report<'_>>,
) -> Analysis {
    let Means {
        knowledge,
        policy,
        config,
        net,
    } = means;
    let game = job.game;
    let root_last = match game.last_move() {
        Some((_, Move::Play(p))) => Some(p),
        _ => None,
    };
    let shared = shares_tree(config, workers.len());
    let n_trees = tree_count(config, workers.len());
    let budget = tree_budget(config, workers.len());
    let share = RootShare::new();
    let extras = Extras {
        ownership: job.ownership || report.as_ref().is_some_and(|r| r.extras.ownership),
        moves_ownership: report.as_ref().is_some_and(|r| r.extras.moves_ownership),
    };
    let moves_stride = extras.moves_ownership.then(|| game.size().slots());
    let expand_after = config
        .search
        .expansion_threshold(game.board().empty_points().len());
    fit_trees(workers, job.color, n_trees, budget, moves_stride);
    // The trees move behind locks for the search and back after it.
    let trees: Vec<RwLock<Tree>> = workers
        .iter_mut()
        .filter_map(|w| w.tree.take())
        .map(RwLock::new)
        .collect();
    let (mut scratches, tallies): (Vec<&mut Scratch>, Vec<&Tally>) = workers
        .iter_mut()
        .map(|w| (&mut *w.scratch, &*w.tally))
        .unzip();
    let ctx = Ctx {
        job,
        knowledge,
        policy,
        config,
        root: game.board().clone(),
        root_last,
        komi: playout_komi(game, job.komi_shift),
        extras,
        expand_after,
        net: net.filter(|net| net.serves_search(game.board(), config.search.net_min_size)),
        net_visits: config.search.net_visits,
        share,
        root_policy: Vec::new(),
        tallies,
        start,
        workers_start: start,
    };
    let root_policy = ready_roots(&trees, &mut scratches, shared, &ctx);
    let ctx = Ctx {
        workers_start: Instant::now(),
        root_policy,
        ..ctx
    };
    run_workers(&mut scratches, &trees, shared, &ctx, report.as_mut());
    let trees: Vec<Tree> = trees
        .into_iter()
        .map(|t| {
            t.into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        })
        .collect();
    let analysis = snapshot(&trees[0], &ctx);
    drop(ctx);
    for (w, t) in workers.iter_mut().zip(trees) {
        w.tree = Some(t);
    }
    analysis
}

/// Gives each of the first `n_trees` workers a tree for a search by `color` within
/// `budget` bytes (its own, reused, where the root colour and the budget fit; else a
/// fresh one), takes the others' away, and resets every worker's counters
/// (`moves_stride`: see [`Tally::reset`]).
fn fit_trees(
    workers: &mut [Worker],
    color: Color,
    n_trees: usize,
    budget: usize,
    moves_stride: Option<usize>,
) {
    for (i, w) in workers.iter_mut().enumerate() {
        let wanted = i < n_trees;
        let fits = w
            .tree
            .as_ref()
            .is_some_and(|t| t.root_color() == color.opponent() && t.budget() == budget);
        if !wanted || !fits {
            // The old tree goes before a new one is built.
            w.tree = None;
        }
        if wanted && w.tree.is_none() {
            w.tree = Some(Tree::new(color.opponent(), budget));
        }
        w.tally.reset(moves_stride);
    }
}

/// Readies each tree's root ([`prepare_root`]) and sizes each worker's root AMAF to
/// the root moves of the tree it searches (the first, when `shared`). Returns the
/// first tree's root policy, by point slot (see `Ctx::root_policy`): every tree's
/// root has the same moves and priors.
fn ready_roots(
    trees: &[RwLock<Tree>],
    scratches: &mut [&mut Scratch],
    shared: bool,
    ctx: &Ctx<'_>,
) -> Vec<f32> {
    let mut root_policy = Vec::new();
    for (i, (tree, s)) in trees.iter().zip(scratches.iter_mut()).enumerate() {
        let rating = prepare_root(&mut write(tree), s, ctx);
        if i == 0 {
            root_policy = root_shares(&read(tree), s, ctx, rating.as_deref());
        }
    }
    for (i, s) in scratches.iter_mut().enumerate() {
        let tree = read(&trees[if shared { 0 } else { i }]);
        s.root_amaf.reset(tree.edges(tree.root()).len());
    }
    root_policy
}

/// The policy the prior of `tree`'s root (ready for the search) was shaped by, by
/// point slot: [`policy_shares`] of its moves, from the network's `rating` of the
/// root where it rated it. Read once a search: the root's moves and priors do not
/// change while it runs.
fn root_shares(tree: &Tree, s: &Scratch, ctx: &Ctx<'_>, rating: Option<&NetPolicy>) -> Vec<f32> {
    let moves: Vec<Move> = tree.edges(tree.root()).iter().map(|e| e.mv()).collect();
    let history = history(s, ctx);
    let at = Position {
        board: &ctx.root,
        c: ctx.job.color,
        history: &history,
    };
    let shares = policy_shares(
        ctx.knowledge.model(),
        at,
        &ctx.config.search,
        rating,
        &moves,
    );
    let mut by_slot = vec![0.0; ctx.root.size().slots()];
    for (mv, share) in moves.into_iter().zip(shares) {
        if let Some(at) = by_slot.get_mut(slot(mv)) {
            *at = share;
        }
    }
    by_slot
}

/// Runs every worker until the search ends: the first, the main worker, on this
/// thread (it also applies the soft stop rules and sends the reports), the others on
/// threads of their own; each searches its own tree, or the first when `shared`.
fn run_workers(
    scratches: &mut [&mut Scratch],
    trees: &[RwLock<Tree>],
    shared: bool,
    ctx: &Ctx<'_>,
    report: Option<&mut Report<'_>>,
) {
    let (main, rest) = scratches.split_first_mut().expect("at least one worker");
    std::thread::scope(|scope| {
        for (i, s) in rest.iter_mut().enumerate() {
            let seat = Seat {
                tree: &trees[if shared { 0 } else { i + 1 }],
                tally: ctx.tallies[i + 1],
                exclusive: !shared,
            };
            scope.spawn(move || run_worker(s, seat, ctx, Role::Helper));
        }
        let seat = Seat {
            tree: &trees[0],
            tally: ctx.tallies[0],
            exclusive: !shared,
        };
        run_worker(main, seat, ctx, Role::Main(report));
    });
}

/// Readies a tree's root for the search: expanded (rated by the policy network, if the
/// search has one, a reused root too), and what it knows of each root move recorded in
/// the share. Returns the network's rating of the root, where it rated it (a reused
/// root rated by an earlier search: the cached rating, if the cache still holds it).
fn prepare_root(tree: &mut Tree, s: &mut Scratch, ctx: &Ctx<'_>) -> Option<Arc<NetPolicy>> {
    let root = tree.root();
    s.board.copy_from(&ctx.root);
    s.path.clear();
    s.path.push((root, Move::Pass));
    s.keys.clear();
    let at = Descent {
        c: ctx.job.color,
        last: ctx.root_last,
    };
    let rating = if !tree.node(root).is_expanded() {
        expand_now(tree, s, ctx, root, at)
    } else if ctx.net.is_some() && tree.claim_rating(root) {
        rate(tree, s, ctx, root, at)
    } else {
        // Rated by an earlier search: the cache's rating, else (evicted since) the
        // network's again.
        ctx.net.and_then(|net| {
            let history = history(s, ctx);
            net.peek(&ctx.root, ctx.job.color, &history)
                .or_else(|| net.rate(&ctx.root, ctx.job.color, &history, &mut s.net))
        })
    };
    for e in tree.edges(root) {
        let Some(child) = e.child() else { continue };
        let node = tree.node(child);
        ctx.share
            .add_reused(slot(e.mv()), node.visits(), node.wins());
    }
    rating
}

/// The tree a worker searches and the counters it keeps.
#[derive(Clone, Copy)]
struct Seat<'a> {
    tree: &'a RwLock<Tree>,
    tally: &'a Tally,
    /// This worker is the tree's only one.
    exclusive: bool,
}

/// What a worker does besides its playouts.
enum Role<'r, 'a> {
    /// The main worker, on the thread that started the search: it also applies the
    /// soft stop rules and sends the reports, if any.
    Main(Option<&'r mut Report<'a>>),
    /// Only playouts.
    Helper,
}

/// Runs playouts until a stop condition; the main worker also applies the soft stop
/// rules and sends the reports.
fn run_worker(s: &mut Scratch, seat: Seat<'_>, ctx: &Ctx<'_>, role: Role<'_, '_>) {
    let Seat {
        tree,
        tally,
        exclusive,
    } = seat;
    let (main, mut report) = match role {
        Role::Main(report) => (true, report),
        Role::Helper => (false, None),
    };
    let timed = matches!(ctx.job.limit, Limit::Time(_));
    let mut next_report = report.as_ref().map(|r| ctx.start + r.interval);
    // The last clock read: a timed search measures the pauses between reads, from the
    // workers' start (a thread the scheduler starts late has paused too).
    let mut last_read = ctx.workers_start;
    let mut done = 0u64;
    let mut guard = read(tree);
    loop {
        if ctx.job.stop.load(Relaxed) || ctx.share.stop.load(Relaxed) {
            break;
        }
        if let Limit::Playouts(n) = ctx.job.limit {
            if ctx.share.claimed.fetch_add(1, Relaxed) >= n {
                break;
            }
        }
        playout(&guard, s, tally, ctx, exclusive);
        tally.count_playout();
        let room = guard.needs_room() && room_in_time(ctx, guard.room_cost());
        if room || ctx.share.pause.load(Relaxed) {
            s.root_amaf.flush(guard.edges(guard.root()));
            drop(guard);
            guard = make_room(tree, ctx, room);
            // Making room is a pause the search chose (it fits before the hard limit,
            // see `room_in_time`), not one the scheduler imposed.
            last_read = Instant::now();
        }
        done += 1;
        let every16 = done % 16 == 0;
        // The clock only where it matters: the hard limit after every playout of a
        // timed search (a 19×19 playout on a busy machine can take a millisecond or
        // two), the whole rule every 16, the reports every 16.
        let reporting = every16 && report.is_some();
        if !(timed || reporting) {
            continue;
        }
        let now = Instant::now();
        if timed {
            ctx.share.note_gap(now.saturating_duration_since(last_read));
            last_read = now;
        }
        if should_stop(ctx, &guard, now, main && every16) {
            ctx.share.stop.store(true, Relaxed);
            break;
        }
        if reporting {
            if let (Some(r), Some(at)) = (report.as_deref_mut(), next_report) {
                if now >= at {
                    let snap = snapshot(&guard, ctx);
                    (r.sink)(&snap);
                    next_report = Some(now + r.interval);
                }
            }
        }
    }
    s.root_amaf.flush(guard.edges(guard.root()));
}

/// Makes room in the full tree (`wanted`) or waits while another worker does, and
/// returns a read guard again. The worker that raises the share's pause flag first
/// takes the write guard (every other worker lets go of its read guard at its next
/// playout and waits for the flag to fall) and lowers the flag when done.
fn make_room<'t>(tree: &'t RwLock<Tree>, ctx: &Ctx<'_>, wanted: bool) -> RwLockReadGuard<'t, Tree> {
    let pause = &ctx.share.pause;
    if wanted
        && pause
            .compare_exchange(false, true, Acquire, Relaxed)
            .is_ok()
    {
        {
            let mut t = write(tree);
            if t.needs_room() {
                t.make_room();
            }
        }
        pause.store(false, Release);
        return read(tree);
    }
    loop {
        let guard = read(tree);
        if !pause.load(Acquire) {
            return guard;
        }
        drop(guard);
        std::thread::yield_now();
    }
}

/// Whether a full tree may make room now. Making room pauses every worker and the hard
/// limit is checked only after it, so a timed search leaves it out past its soft limit,
/// or when twice the last one's duration would reach the hard limit; the tree then
/// stops growing for the rest of the move and makes room at the next search's first
/// playout. Other limits always make room (no clock is read for them).
fn room_in_time(ctx: &Ctx<'_>, last: std::time::Duration) -> bool {
    match ctx.job.limit {
        Limit::Time(budget) => room_fits(&budget, ctx.start.elapsed(), last),
        _ => true,
    }
}

/// [`room_in_time`]'s rule for a timed search `elapsed` into its `budget`.
fn room_fits(budget: &MoveBudget, elapsed: std::time::Duration, last: std::time::Duration) -> bool {
    elapsed < budget.soft && elapsed + last * 2 < budget.hard
}

/// The stop rule for time limits: the hard limit, and with `full` (the main thread,
/// every few playouts) the whole rule ([`MoveBudget::should_stop`]) over the root
/// moves of `tree`.
/// A playout budget is spent in full: the extra playouts deepen the tree the next move
/// reuses, and the count stays exact and repeatable.
///
/// The hard limit is honoured [`stop_lead`] early: a worker sees the clock only between
/// playouts, so the stop can come as late as the longest pause this search has seen.
fn should_stop(ctx: &Ctx<'_>, tree: &Tree, now: Instant, full: bool) -> bool {
    let Limit::Time(budget) = ctx.job.limit else {
        return false;
    };
    let elapsed = now - ctx.start;
    if elapsed + stop_lead(budget.hard, ctx.share.stall()) >= budget.hard {
        return true;
    }
    if !full {
        return false;
    }
    let (best, second) = top_two(ctx, tree);
    budget.should_stop(&Progress {
        elapsed,
        playouts: ctx.playouts(),
        best,
        second,
    })
}

/// How long before the hard limit a timed search stops, given the longest pause
/// between two clock reads seen so far (`stall`): that pause, so that one more like it
/// still ends the search by `hard`, but never more than half of `hard`, so a move that
/// was starved once still searches. On an idle machine the pause is a playout long.
fn stop_lead(hard: std::time::Duration, stall: std::time::Duration) -> std::time::Duration {
    stall.min(hard / 2)
}

/// Visits of the two most visited root moves the search may choose (all workers): a
/// barred move (an avoided one, or the pass in clean-up play) holding a reused tree's
/// visits must not end the search early.
fn top_two(ctx: &Ctx<'_>, tree: &Tree) -> (u64, u64) {
    let (mut a, mut b) = (0, 0);
    for e in tree.edges(tree.root()) {
        if descend::barred(ctx, e.mv()) {
            continue;
        }
        let v = ctx.share.visits(&ctx.tallies, slot(e.mv()));
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
fn playout(tree: &Tree, s: &mut Scratch, tally: &Tally, ctx: &Ctx<'_>, exclusive: bool) {
    let job = ctx.job;
    let d = descend(tree, s, ctx, exclusive);
    s.amaf.clear();
    let out = ctx.policy.run(
        &mut s.board,
        d.c,
        d.last,
        ctx.komi,
        &mut s.rng,
        &mut s.amaf,
        (ctx.config.heavy.reply > 0.0).then_some(&mut s.replies),
    );
    let black_won = out.winner() == Color::Black;
    if ctx.extras.ownership {
        tally.add_ownership(out.black_area.iter(), out.white_area.iter());
    }
    let first = backup(tree, s, job.color.opponent(), black_won, exclusive);
    if let Some(mv) = first {
        if ctx.extras.moves_ownership {
            tally.add_move_ownership(slot(mv), out.black_area.iter(), out.white_area.iter());
        }
        let mover_won = black_won == (job.color == Color::Black);
        let score = if job.color == Color::Black {
            out.score
        } else {
            -out.score
        };
        tally.add_root(slot(mv), mover_won, (score * 2.0).round() as i64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Line;
    use rand::SeedableRng;
    use tengen_board::{BoardSize, Rules};

    #[test]
    fn the_hard_limit_is_honoured_as_early_as_the_longest_pause() {
        let ms = std::time::Duration::from_millis;
        // An idle machine: a playout's pause.
        assert_eq!(
            stop_lead(ms(850), std::time::Duration::from_micros(300)).as_micros(),
            300
        );
        // A starved worker: as early as its pause, but never more than half the move.
        assert_eq!(stop_lead(ms(850), ms(120)), ms(120));
        assert_eq!(stop_lead(ms(850), ms(700)), ms(425));
    }

    #[test]
    fn the_share_keeps_the_longest_pause() {
        let share = RootShare::new();
        assert_eq!(share.stall(), std::time::Duration::ZERO);
        for us in [40, 900, 70] {
            share.note_gap(std::time::Duration::from_micros(us));
        }
        assert_eq!(share.stall(), std::time::Duration::from_micros(900));
    }

    /// The tree a search left to `w`.
    fn tree_of(w: &Worker) -> &Tree {
        w.tree.as_ref().expect("the worker has a tree")
    }

    /// Runs one search of the 9×9 position after Black's E5 with `threads` workers.
    fn run(threads: usize, parallelism: Parallelism, playouts: u64) -> Vec<Worker> {
        run_in(threads, parallelism, playouts, Config::default().memory_mib)
    }

    /// [`run`] with a tree budget of `memory_mib`.
    fn run_in(
        threads: usize,
        parallelism: Parallelism,
        playouts: u64,
        memory_mib: usize,
    ) -> Vec<Worker> {
        run_from(threads, parallelism, playouts, memory_mib, Instant::now()).0
    }

    /// [`run_in`] with the search's clock started at `start`.
    fn run_from(
        threads: usize,
        parallelism: Parallelism,
        playouts: u64,
        memory_mib: usize,
        start: Instant,
    ) -> (Vec<Worker>, Analysis) {
        let game = after_e5();
        let mut workers = workers_for(&game, threads);
        let config = Config {
            threads,
            parallelism,
            memory_mib,
            ..Config::default()
        };
        let analysis = search_on(
            &mut workers,
            &game,
            &config,
            Limit::Playouts(playouts),
            start,
        );
        assert_eq!(analysis.visits, playouts);
        (workers, analysis)
    }

    /// The 9×9 game after Black's E5.
    fn after_e5() -> Game {
        let size = BoardSize::new(9).unwrap();
        let mut game = Game::new(size, Rules::chinese());
        game.play(Color::Black, size.parse_move("E5").unwrap())
            .unwrap();
        game
    }

    /// `threads` workers without trees, seeded by their index.
    fn workers_for(game: &Game, threads: usize) -> Vec<Worker> {
        (0..threads)
            .map(|i| Worker::new(game.board(), Rng::seed_from_u64(i as u64)))
            .collect()
    }

    /// One search for White in `game` by `workers` under `config`.
    fn search_on(
        workers: &mut [Worker],
        game: &Game,
        config: &Config,
        limit: Limit,
        start: Instant,
    ) -> Analysis {
        let stop = AtomicBool::new(false);
        let job = Job::plain(game, Color::White, limit, &stop);
        search_by_config(workers, (config, None), &job, start, None)
    }

    #[test]
    fn a_timed_search_makes_room_only_while_it_has_time() {
        let ms = std::time::Duration::from_millis;
        let budget = MoveBudget {
            soft: ms(600),
            hard: ms(900),
            early_stop: true,
        };
        assert!(room_fits(&budget, ms(100), ms(0)));
        assert!(room_fits(&budget, ms(100), ms(300)));
        // Past the soft limit, or when twice the last one's time reaches the hard one.
        assert!(!room_fits(&budget, ms(600), ms(0)));
        assert!(!room_fits(&budget, ms(500), ms(200)));
    }

    #[test]
    fn a_playout_budget_ignores_the_wall_clock() {
        // A search whose clock says it has run for ten minutes (a machine so loaded
        // that the move took that long) plays the same playouts as one just begun:
        // at a fixed budget the move must not depend on the machine's speed.
        let long_ago = [600, 5]
            .into_iter()
            .find_map(|s| Instant::now().checked_sub(std::time::Duration::from_secs(s)))
            .expect("the monotonic clock reaches 5 s back");
        let mib = Config::default().memory_mib;
        let (_, now) = run_from(1, Parallelism::Tree, 800, mib, Instant::now());
        let (_, late) = run_from(1, Parallelism::Tree, 800, mib, long_ago);
        assert_eq!(late.visits, 800);
        assert_eq!(late.moves, now.moves);
        assert_eq!(late.winrate, now.winrate);
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
        let mut workers = vec![Worker::new(game.board(), Rng::seed_from_u64(1))];
        let playouts = Limit::Playouts(200);
        let analysis = search_on(&mut workers, &game, &config, playouts, Instant::now());
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
        // Every playout ends alike: the score does not spread, at the root or any move.
        assert_eq!(analysis.score_stdev, 0.0);
        assert!(analysis.moves.iter().all(|m| m.score_stdev == 0.0));
    }

    /// Every node of `tree`: wins never exceed visits, the children of a node were
    /// visited at most as often as the node itself (no virtual loss left behind and
    /// none counted twice), no claim is left unfinished and no expansion is empty.
    /// Returns the number of nodes.
    fn check_counts(tree: &Tree) -> usize {
        let mut stack = vec![tree.root()];
        let mut nodes = 0;
        while let Some(id) = stack.pop() {
            nodes += 1;
            let n = tree.node(id);
            assert!(
                n.wins() <= n.visits(),
                "wins {} visits {}",
                n.wins(),
                n.visits()
            );
            assert_ne!(
                n.state(),
                crate::tree::State::Claimed,
                "a claim left behind"
            );
            if n.is_expanded() {
                assert!(!tree.edges(id).is_empty());
            }
            let kids: Vec<NodeId> = tree.edges(id).iter().filter_map(|e| e.child()).collect();
            let below: u32 = kids.iter().map(|&c| tree.node(c).visits()).sum();
            assert!(
                below <= n.visits(),
                "children {below} > node {}",
                n.visits()
            );
            stack.extend(kids);
        }
        nodes
    }

    fn root_children_visits(tree: &Tree) -> u32 {
        tree.edges(tree.root())
            .iter()
            .filter_map(|e| e.child())
            .map(|c| tree.node(c).visits())
            .sum()
    }

    #[test]
    fn shared_tree_counts_every_playout_once() {
        let workers = run(2, Parallelism::Tree, 3000);
        let tree = tree_of(&workers[0]);
        assert_eq!(root_children_visits(tree), 3000);
        assert_eq!(tree.node(tree.root()).visits(), 3000);
        check_counts(tree);
        // The second worker searched the shared tree and has none of its own.
        assert!(workers[1].tree.is_none());
    }

    #[test]
    fn more_threads_than_cores_keep_the_tree_consistent() {
        let threads = 3 * std::thread::available_parallelism()
            .map_or(2, |n| n.get())
            .max(6);
        let workers = run(threads, Parallelism::Tree, 20_000);
        let tree = tree_of(&workers[0]);
        assert_eq!(tree.node(tree.root()).visits(), 20_000);
        assert_eq!(root_children_visits(tree), 20_000);
        let nodes = check_counts(tree);
        assert!(nodes > 2_000, "{nodes} nodes");
        // And with a budget they fill many times over: every pause to make room
        // happens between playouts, so the counts stay exact.
        let workers = run_in(threads, Parallelism::Tree, 20_000, 1);
        let tree = tree_of(&workers[0]);
        assert!(
            tree.compactions() >= 2,
            "{} compactions",
            tree.compactions()
        );
        assert!(tree.bytes() <= 1 << 20);
        assert_eq!(tree.node(tree.root()).visits(), 20_000);
        assert_eq!(root_children_visits(tree), 20_000);
        check_counts(tree);
    }

    #[test]
    fn root_parallel_workers_grow_their_own_trees() {
        let workers = run(2, Parallelism::Root, 3000);
        let total: u32 = workers
            .iter()
            .map(|w| tree_of(w).node(tree_of(w).root()).visits())
            .sum();
        assert_eq!(total, 3000);
        for w in &workers {
            assert!(tree_of(w).node(tree_of(w).root()).visits() > 0);
            check_counts(tree_of(w));
        }
    }

    #[test]
    fn a_search_builds_only_the_trees_it_grows_within_one_budget() {
        let game = after_e5();
        let mut workers = workers_for(&game, 4);
        let mut config = Config {
            threads: 4,
            parallelism: Parallelism::Root,
            memory_mib: 2,
            ..Config::default()
        };
        let playouts = Limit::Playouts(400);
        search_on(&mut workers, &game, &config, playouts, Instant::now());
        // A tree each, a quarter of the budget each, all within it.
        let budgets: Vec<usize> = workers.iter().map(|w| tree_of(w).budget()).collect();
        assert_eq!(budgets, vec![512 << 10; 4]);
        let bytes: usize = workers.iter().map(|w| tree_of(w).bytes()).sum();
        assert!(bytes <= 2 << 20, "{bytes} bytes");
        // One shared tree: the other workers' trees go, and build no new ones.
        config.parallelism = Parallelism::Tree;
        search_on(&mut workers, &game, &config, playouts, Instant::now());
        assert_eq!(tree_of(&workers[0]).budget(), 2 << 20);
        assert!(workers[1..].iter().all(|w| w.tree.is_none()));
        // Many trees under a tiny budget: each gets the floor.
        assert_eq!(
            tree_budget(
                &Config {
                    memory_mib: 1,
                    ..config.clone()
                },
                64
            ),
            1 << 20
        );
        let root = Config {
            memory_mib: 1,
            parallelism: Parallelism::Root,
            ..config
        };
        assert_eq!(tree_budget(&root, 8), 128 << 10);
        assert_eq!(tree_budget(&root, 64), MIN_TREE_BYTES);
    }

    #[test]
    fn time_spent_before_the_workers_start_is_no_pause() {
        // The move's clock started 300 ms before the search (re-rooting a reused tree,
        // a line that waited): that time is spent, but it is not a pause between two
        // clock reads, so the search still runs to about its hard limit of 600 ms
        // rather than stopping at its first playout.
        let ms = std::time::Duration::from_millis;
        let game = after_e5();
        let mut workers = workers_for(&game, 1);
        let config = Config {
            threads: 1,
            ..Config::default()
        };
        let timed = Limit::Time(MoveBudget {
            soft: ms(600),
            hard: ms(600),
            early_stop: false,
        });
        let start = Instant::now() - ms(300);
        let analysis = search_on(&mut workers, &game, &config, timed, start);
        let searched = start.elapsed() - ms(300);
        assert!(searched >= ms(200), "searched {searched:?}");
        assert!(analysis.visits > 100, "{} visits", analysis.visits);
    }

    #[test]
    fn a_full_tree_still_counts_every_playout_for_a_root_move() {
        // A tree full from the start of a timed search that never makes room (its soft
        // limit is zero): a descent that cannot attach a node to the root move it
        // chose must still count for a root move, or the visits would not add up.
        let game = after_e5();
        let mut workers = workers_for(&game, 1);
        let config = Config {
            threads: 1,
            memory_mib: 1,
            ..Config::default()
        };
        search_on(
            &mut workers,
            &game,
            &config,
            Limit::Playouts(100),
            Instant::now(),
        );
        let before = tree_of(&workers[0])
            .node(tree_of(&workers[0]).root())
            .visits();
        tree_of(&workers[0]).exhaust();
        let timed = Limit::Time(MoveBudget {
            soft: std::time::Duration::ZERO,
            hard: std::time::Duration::from_millis(300),
            early_stop: false,
        });
        let analysis = search_on(&mut workers, &game, &config, timed, Instant::now());
        let t = tree_of(&workers[0]);
        assert_eq!(t.compactions(), 0, "no room made");
        let root_visits = t.node(t.root()).visits();
        assert!(root_visits > before + 50, "{root_visits} visits");
        assert_eq!(analysis.visits, u64::from(root_visits));
        assert_eq!(analysis.reused, u64::from(before));
        assert_eq!(root_children_visits(t), root_visits);
    }

    #[test]
    fn a_move_with_only_reused_visits_reads_the_roots_score() {
        let game = after_e5();
        let mut workers = workers_for(&game, 1);
        let config = Config {
            threads: 1,
            ..Config::default()
        };
        let first = Limit::Playouts(400);
        search_on(&mut workers, &game, &config, first, Instant::now());
        // One playout more: every other visited move holds reused visits only.
        let again = Limit::Playouts(1);
        let a = search_on(&mut workers, &game, &config, again, Instant::now());
        assert!(a.reused > 0, "the tree was reused");
        let visited: Vec<_> = a.moves.iter().filter(|m| m.visits > 0).collect();
        assert!(visited.len() > 2, "{} moves visited", visited.len());
        // At komi 7.5 no final score is whole, so one playout's lead is never 0.
        assert!(a.score_lead != 0.0);
        let roots = visited
            .iter()
            .filter(|m| (m.score_lead, m.score_stdev) == (a.score_lead, a.score_stdev))
            .count();
        assert!(roots >= visited.len() - 1, "{roots} of {}", visited.len());
    }

    #[test]
    fn one_thread_and_a_seed_repeat() {
        let a = run(1, Parallelism::Tree, 2000);
        let b = run(1, Parallelism::Tree, 2000);
        let key = |w: &[Worker]| {
            let t = tree_of(&w[0]);
            let mut pv = Line::new();
            snapshot::extend_principal_variation(t, t.root(), 30, &mut pv);
            let kids: Vec<(Move, u32, u32)> = t
                .edges(t.root())
                .iter()
                .map(|e| {
                    let n = e.child().map(|c| t.node(c));
                    (
                        e.mv(),
                        n.map_or(0, |n| n.visits()),
                        n.map_or(0, |n| n.wins()),
                    )
                })
                .collect();
            (pv, kids)
        };
        assert_eq!(key(&a), key(&b));
    }

    #[test]
    fn a_full_tree_makes_room_and_keeps_growing() {
        // 1 MiB on 9×9 is full within 4 000 playouts: less than half a CPU-second on
        // the benchmark machine (a playout count, so a loaded machine cannot fail it).
        let size = BoardSize::new(9).unwrap();
        let game = Game::new(size, Rules::chinese());
        let config = Config {
            threads: 1,
            memory_mib: 1,
            ..Config::default()
        };
        let policy = Policy::new(config.policy, config.heavy.clone());
        let budget = tree_budget(&config, 1);
        assert_eq!(budget, 1 << 20);
        let mut workers = vec![Worker::new(game.board(), Rng::seed_from_u64(3))];
        let stop = AtomicBool::new(false);
        let job = Job::plain(&game, Color::Black, Limit::Playouts(2000), &stop);
        // The principal variation as far as its nodes have 200 visits or more (the
        // full line's length flickers as the best move changes on an empty board).
        let pv_len = |t: &Tree| {
            let mut pv = Line::new();
            snapshot::extend_principal_variation(t, t.root(), 80, &mut pv);
            let mut node = t.root();
            let mut n = 0;
            for &mv in &pv {
                match t.find_child(node, mv) {
                    Some(c) if t.node(c).visits() >= 200 => {
                        node = c;
                        n += 1;
                    }
                    _ => break,
                }
            }
            n
        };
        let mut filled = None;
        let mut last_visits = 0;
        for round in 0..20 {
            let means = Means {
                knowledge: policy.knowledge(),
                policy: &policy,
                config: &config,
                net: None,
            };
            search(&mut workers, means, &job, Instant::now(), None);
            let t = tree_of(&workers[0]);
            assert!(t.bytes() <= budget, "{} bytes", t.bytes());
            let visits = t.node(t.root()).visits();
            assert_eq!(visits, 2000 * (round + 1), "root visits keep rising");
            assert!(visits > last_visits);
            last_visits = visits;
            check_counts(t);
            if filled.is_none() && t.compactions() > 0 {
                filled = Some((visits, pv_len(t), t.expansions()));
            }
        }
        let (when, pv_then, expanded_then) = filled.expect("the budget filled");
        assert!(when <= 4000, "filled after {when} playouts");
        let t = tree_of(&workers[0]);
        // About one expansion in four playouts goes on after the budget filled.
        let later = t.expansions() - expanded_then;
        assert!(later > 5_000, "{later} expansions after the budget filled");
        assert!(t.compactions() >= 3, "{} compactions", t.compactions());
        assert!(pv_len(t) > pv_then, "PV {} then {pv_then}", pv_len(t));
    }
}
