//! The search tree: nodes with statistics, edges with a move and a prior.
//!
//! A position's moves are **edges**, 12 bytes each: the move, its prior (packed in one
//! word), its AMAF counts and the index of its child node. A child gets a **node**
//! (16 bytes: visits, wins, and the link to its own edges) only when a descent first
//! goes through it, and edges of its own only once it has been visited
//! `SearchParams::expansion_threshold` times. Both live in [`Slab`]s under one [`Budget`]
//! of bytes; when the budget is full, expansions fail, [`Tree::needs_room`] says so,
//! and [`Tree::make_room`] (in `compact.rs`, with the searching threads paused) drops
//! the edges of the least visited nodes. Every chunk and the chunk tables are charged
//! before they exist, and a node is charged 24 bytes (16, and 8 for its slots in
//! compaction's tables), so a tree never takes more than its budget (at least
//! [`MIN_TREE_BYTES`]); an expansion or a new node that does not fit fails and leaves
//! the tree as it was.
//!
//! Every counter is an atomic, so threads share a tree through `&Tree`:
//! - a node's visits count the descents through it, the ones still running included
//!   (a virtual loss until the backup adds the result to its wins); visits and wins
//!   are exact, while an edge's AMAF counts take a plain load and store
//!   ([`Edge::add_amaf`]), so two threads that update one at once may lose one addition;
//! - a node is expanded by the one thread that claims it ([`Tree::claim`]); the
//!   claimant writes the edges and then publishes them in one release store
//!   ([`Tree::publish`]), and a thread that meets a claimed node treats it as a leaf;
//! - a child node is attached to its edge by one compare-and-swap ([`Tree::child`]);
//! - an expanded node's priors are rewritten at most once, by the thread that wins
//!   [`Tree::claim_rating`] (a bit of the node's link, kept by compaction and
//!   re-rooting), one atomic store an edge ([`Tree::set_priors`]): selection reads
//!   each edge's prior whole, the old one or the new.
//!
//! Statistics are kept for the player who made the node's move; a node's colour is
//! not stored but alternates with depth from the root's.

mod compact;
mod slab;

use std::sync::atomic::{
    AtomicBool, AtomicU32, AtomicU64, Ordering::Acquire, Ordering::Relaxed, Ordering::Release,
};

use tengen_board::{Color, MAX_SLOTS, Move, Point};

use crate::prior::Candidate;
use slab::{Budget, Slab};

/// Index of a node in its [`Tree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeId(u32);

impl NodeId {
    /// The slab index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What the search knows about a position reached in the tree.
#[derive(Debug, Default)]
pub struct Node {
    /// Descents through the node, running ones included.
    visits: AtomicU32,
    /// Won playouts for the player who made the node's move.
    wins: AtomicU32,
    /// The state (low 2 bits), the number of edges (bits 2..18), whether the edges'
    /// priors were rated again ([`RATED`], bit 18) and the first edge (high 32 bits),
    /// published together.
    link: AtomicU64,
}

/// Where a node stands in its expansion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// No edges: a playout starts here.
    Leaf,
    /// A thread is generating its edges.
    Claimed,
    /// Its edges are published.
    Expanded,
}

const LEAF: u64 = 0;
const CLAIMED: u64 = 1;
const EXPANDED: u64 = 2;
/// The bit of a node's link that says its edges' priors were rated again (by the
/// policy network): set once, by [`Tree::claim_rating`].
const RATED: u64 = 1 << 18;

impl Node {
    /// Descents through the node (running ones included).
    #[inline]
    pub fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    /// Wins of the player who made the node's move.
    #[inline]
    pub fn wins(&self) -> u32 {
        self.wins.load(Relaxed)
    }

    /// The expansion state.
    #[inline]
    pub fn state(&self) -> State {
        match self.link.load(Acquire) & 3 {
            LEAF => State::Leaf,
            CLAIMED => State::Claimed,
            _ => State::Expanded,
        }
    }

    /// Whether the edges are published.
    #[inline]
    pub fn is_expanded(&self) -> bool {
        self.state() == State::Expanded
    }

    /// Adds a visit (at descent: a virtual loss until the backup). `exclusive`: no
    /// other thread writes this tree, so a plain load and store do.
    #[inline]
    pub fn add_visit(&self, exclusive: bool) {
        bump(&self.visits, 1, exclusive);
    }

    /// Adds a win (at backup).
    #[inline]
    pub fn add_win(&self, exclusive: bool) {
        bump(&self.wins, 1, exclusive);
    }

    /// Whether the node's edges' priors were rated again ([`Tree::claim_rating`]).
    #[cfg(test)]
    pub fn is_rated(&self) -> bool {
        self.link.load(Relaxed) & RATED != 0
    }

    fn copy_from(&self, other: &Node) {
        self.visits.store(other.visits(), Relaxed);
        self.wins.store(other.wins(), Relaxed);
        self.link.store(other.link.load(Relaxed), Relaxed);
    }
}

/// Adds `by` to a counter: atomically, or with a plain load and store when only one
/// thread writes it.
#[inline]
fn bump(a: &AtomicU32, by: u32, exclusive: bool) {
    if exclusive {
        a.store(a.load(Relaxed).wrapping_add(by), Relaxed);
    } else {
        a.fetch_add(by, Relaxed);
    }
}

/// One move from a node: the move and its prior, AMAF counts, and its child.
#[derive(Debug, Default)]
pub struct Edge {
    /// Point slot (10 bits), prior visits in quarters (12 bits), prior win rate in
    /// 1023rds (10 bits).
    info: AtomicU32,
    /// AMAF playouts (high 16 bits) and their wins (low 16 bits); both are halved
    /// when the playouts near 65 536, which keeps the rate.
    amaf: AtomicU32,
    /// The child node's index, 0 while it has none (the root is never a child).
    child: AtomicU32,
}

/// The largest prior in virtual visits an edge holds (12 bits of quarters).
const MAX_PRIOR: f32 = 1023.75;
const AMAF_HALVE_AT: u32 = 0xFF00;
/// The most AMAF playouts [`Edge::add_amaf_batch`] adds at once: two batches from
/// just under the threshold stay within 16 bits.
pub const MAX_AMAF_BATCH: u32 = 0x7F;
const _: () = assert!(AMAF_HALVE_AT + 2 * MAX_AMAF_BATCH <= 0xFFFF);

impl Edge {
    /// The move.
    #[inline]
    pub fn mv(&self) -> Move {
        match self.info.load(Relaxed) & 0x3FF {
            0 => Move::Pass,
            s => Move::Play(Point::from_index(s as usize)),
        }
    }

    /// The prior: virtual visits and virtual wins (as stored, within a quarter visit
    /// and a thousandth of the rate).
    #[inline]
    pub fn prior(&self) -> (f32, f32) {
        let info = self.info.load(Relaxed);
        let visits = ((info >> 10) & 0xFFF) as f32 * 0.25;
        let rate = (info >> 22) as f32 / 1023.0;
        (visits, visits * rate)
    }

    /// AMAF playouts and wins.
    #[inline]
    pub fn amaf(&self) -> (u32, u32) {
        let a = self.amaf.load(Relaxed);
        (a >> 16, a & 0xFFFF)
    }

    /// Adds an AMAF playout, won or not, with a plain load and store even when other
    /// threads search the tree: a playout updates dozens of edges, and a
    /// read-modify-write each would cost more than the rare addition two threads
    /// lose when they meet on one edge (a statistic, unlike the visits and wins).
    /// Every value stored is consistent (wins never above playouts), so whichever
    /// store lands is.
    #[inline]
    pub fn add_amaf(&self, won: bool) {
        self.add_amaf_batch(1, u32::from(won));
    }

    /// Adds `playouts` AMAF playouts (at most [`MAX_AMAF_BATCH`]) of which `wins`
    /// were won, as [`Edge::add_amaf`] adds one.
    #[inline]
    pub fn add_amaf_batch(&self, playouts: u32, wins: u32) {
        debug_assert!(playouts <= MAX_AMAF_BATCH && wins <= playouts);
        let before = self.amaf.load(Relaxed);
        let after = before + ((playouts << 16) | wins);
        // Halved once past the threshold: below it there is room for a batch.
        let after = if before >> 16 >= AMAF_HALVE_AT {
            ((after >> 17) << 16) | ((after & 0xFFFF) >> 1)
        } else {
            after
        };
        self.amaf.store(after, Relaxed);
    }

    /// The child node, once a descent went through the edge.
    #[inline]
    pub fn child(&self) -> Option<NodeId> {
        match self.child.load(Acquire) {
            0 => None,
            c => Some(NodeId(c)),
        }
    }

    fn set(&self, (mv, visits, wins): Candidate) {
        self.info
            .store(edge_slot(mv) | packed_prior(visits, wins), Relaxed);
        self.amaf.store(0, Relaxed);
        self.child.store(0, Relaxed);
    }

    fn copy_from(&self, other: &Edge) {
        self.info.store(other.info.load(Relaxed), Relaxed);
        self.amaf.store(other.amaf.load(Relaxed), Relaxed);
        self.child.store(other.child.load(Relaxed), Relaxed);
    }
}

/// The slot of `mv` in an edge's info word: the point's index, 0 for a pass.
#[inline]
fn edge_slot(mv: Move) -> u32 {
    match mv {
        Move::Play(p) => p.index() as u32,
        Move::Pass => 0,
    }
}

/// A prior of `visits` virtual visits and `wins` virtual wins as an edge's info word
/// holds it, without the move's slot: quarters of a visit (bits 10..22), the rate in
/// 1023rds (bits 22..32).
fn packed_prior(visits: f32, wins: f32) -> u32 {
    let v = visits.clamp(0.0, MAX_PRIOR);
    let rate = if visits > 0.0 {
        (wins / visits).clamp(0.0, 1.0)
    } else {
        0.5
    };
    let quarters = (v * 4.0).round() as u32;
    let rate = (rate * 1023.0).round() as u32;
    (quarters << 10) | (rate << 22)
}

/// Bytes of one edge in the slab.
pub const EDGE_BYTES: usize = std::mem::size_of::<Edge>();
/// Bytes of one node in the slab.
pub const NODE_BYTES: usize = std::mem::size_of::<Node>();
/// What a node is charged: itself, and what compaction needs for it (its slot in the
/// forwarding table, and in the list of kept expansions).
const NODE_CHARGE: usize = NODE_BYTES + 8;

/// log2 of the nodes in a chunk: from 64 (1 280 bytes charged) in the smallest trees to
/// 4 096 (80 KiB) from a budget of 1.25 MiB up.
const NODE_BITS: (u32, u32) = (6, 12);
/// log2 of the edges in a chunk: from 1 024 (12 KiB) to 8 192 (96 KiB) from a budget of
/// 1.5 MiB up; a position has at most `MAX_SLOTS` moves, and a block of them must fit
/// in one chunk.
const EDGE_BITS: (u32, u32) = (10, 13);
const _: () = assert!(MAX_SLOTS <= 1 << EDGE_BITS.0 && MAX_SLOTS < 1 << 10);

/// The smallest budget a tree is given (a smaller one is raised to it): its chunk
/// tables, the root's chunk of nodes and four chunks of edges.
pub const MIN_TREE_BYTES: usize = 64 << 10;

/// A search tree under a byte budget.
#[derive(Debug)]
pub struct Tree {
    nodes: Slab<Node>,
    edges: Slab<Edge>,
    budget: Budget,
    /// The player who made the root's move.
    root_color: Color,
    /// An expansion or a new node failed for want of memory.
    full: AtomicBool,
    /// Times [`Tree::make_room`] ran.
    compactions: u32,
    /// How long the last [`Tree::make_room`] took (zero before the first), so that a
    /// timed search can leave out one it has no time for.
    room_cost: std::time::Duration,
    /// Expansions published since the tree was made (counted for the tests).
    #[cfg(test)]
    expansions: AtomicU64,
}

impl Tree {
    /// A tree with only a root, standing for the position after `color` played a move
    /// (for the real root: the opponent of the side to move), that may take `budget`
    /// bytes (at least [`MIN_TREE_BYTES`]). Everything it allocates is charged to the
    /// budget, its chunk tables included (they take 0.06% of it).
    pub fn new(color: Color, budget: usize) -> Tree {
        let budget = budget.max(MIN_TREE_BYTES);
        let node_bits = slab::chunk_bits(budget, NODE_CHARGE, NODE_BITS.0, NODE_BITS.1);
        let edge_bits = slab::chunk_bits(budget, EDGE_BYTES, EDGE_BITS.0, EDGE_BITS.1);
        let node_chunk = NODE_CHARGE << node_bits;
        let edge_chunk = EDGE_BYTES << edge_bits;
        let tree = Tree {
            nodes: Slab::new(node_bits, budget / node_chunk + 1, NODE_CHARGE),
            edges: Slab::new(edge_bits, budget / edge_chunk + 1, EDGE_BYTES),
            budget: Budget::new(budget),
            root_color: color,
            full: AtomicBool::new(false),
            compactions: 0,
            room_cost: std::time::Duration::ZERO,
            #[cfg(test)]
            expansions: AtomicU64::new(0),
        };
        tree.budget
            .force_charge(tree.nodes.table_bytes() + tree.edges.table_bytes());
        let root = tree.nodes.alloc(1, &tree.budget, true);
        debug_assert_eq!(root, Some(0));
        tree
    }

    /// The root.
    #[inline]
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// The player who made the root's move.
    #[inline]
    pub fn root_color(&self) -> Color {
        self.root_color
    }

    /// The budget in bytes.
    pub fn budget(&self) -> usize {
        self.budget.limit()
    }

    /// Bytes the tree is charged now: its chunk tables and the chunks in use (never
    /// more than the budget).
    pub fn bytes(&self) -> usize {
        self.budget.used()
    }

    /// Times the tree made room (since it was made; a reused tree's included).
    pub fn compactions(&self) -> u32 {
        self.compactions
    }

    /// Expansions published since the tree was made (a reused tree's included).
    #[cfg(test)]
    pub fn expansions(&self) -> u64 {
        self.expansions.load(Relaxed)
    }

    /// Takes every node the budget still allows, so that no new one fits (tests of a
    /// full tree).
    #[cfg(test)]
    pub fn exhaust(&self) {
        while self.nodes.alloc(1, &self.budget, false).is_some() {}
        self.full.store(true, Relaxed);
    }

    /// A node.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        self.nodes.get(id.0)
    }

    /// A node's edges (none unless it is expanded).
    #[inline]
    pub fn edges(&self, id: NodeId) -> &[Edge] {
        let link = self.node(id).link.load(Acquire);
        if link & 3 != EXPANDED {
            return &[];
        }
        self.edges
            .block((link >> 32) as u32, ((link >> 2) & 0xFFFF) as u32)
    }

    /// Whether an allocation failed since the tree last made room.
    #[inline]
    pub fn needs_room(&self) -> bool {
        self.full.load(Relaxed)
    }

    /// How long the last [`Tree::make_room`] took; zero before the first.
    #[inline]
    pub fn room_cost(&self) -> std::time::Duration {
        self.room_cost
    }

    /// Claims the expansion of a leaf for the calling thread; false if it is not a
    /// leaf any more (another thread claimed or expanded it).
    #[inline]
    pub fn claim(&self, id: NodeId) -> bool {
        self.node(id)
            .link
            .compare_exchange(LEAF, CLAIMED, Acquire, Relaxed)
            .is_ok()
    }

    /// Gives the node claimed by [`Tree::claim`] its edges and publishes them, already
    /// `rated` (their priors the policy network's: no thread may then claim the node's
    /// rating, [`Tree::claim_rating`]) or not; with no room for them it becomes a leaf
    /// again, marks the tree full and returns false.
    pub fn publish(&self, id: NodeId, moves: &[Candidate], rated: bool) -> bool {
        let node = self.node(id);
        debug_assert_eq!(node.state(), State::Claimed);
        let n = moves.len().clamp(1, MAX_SLOTS) as u32;
        let Some(first) = self.edges.alloc(n, &self.budget, false) else {
            self.full.store(true, Relaxed);
            node.link.store(LEAF, Release);
            return false;
        };
        for (e, &m) in self.edges.block(first, n).iter().zip(moves) {
            e.set(m);
        }
        if moves.is_empty() {
            self.edges.get(first).set((Move::Pass, 1.0, 0.5));
        }
        let rated = if rated { RATED } else { 0 };
        node.link.store(
            (u64::from(first) << 32) | (u64::from(n) << 2) | EXPANDED | rated,
            Release,
        );
        #[cfg(test)]
        self.expansions.fetch_add(1, Relaxed);
        true
    }

    /// The child node of `edge` (an edge of this tree), attached now if it had none;
    /// `None` when there is no room for it (the tree is then marked full).
    pub fn child(&self, edge: &Edge) -> Option<NodeId> {
        if let Some(c) = edge.child() {
            return Some(c);
        }
        let Some(new) = self.nodes.alloc(1, &self.budget, false) else {
            self.full.store(true, Relaxed);
            return None;
        };
        // A fresh slot: zero counts, a leaf (slots are reused after compaction).
        self.nodes.get(new).copy_from(&Node::default());
        match edge.child.compare_exchange(0, new, Release, Acquire) {
            Ok(_) => Some(NodeId(new)),
            // Another thread attached one first: use it (the slot stays unused until
            // the next compaction).
            Err(c) => Some(NodeId(c)),
        }
    }

    /// The child node for move `mv` of `id`, if a descent went there.
    pub fn find_child(&self, id: NodeId, mv: Move) -> Option<NodeId> {
        self.edges(id)
            .iter()
            .find(|e| e.mv() == mv)
            .and_then(Edge::child)
    }

    /// The node reached from the root by `moves`, each of which must be by the colour
    /// the depth gives (the colours alternate from the root's); `None` if one is
    /// missing or out of turn.
    pub fn descendant(&self, moves: &[(Color, Move)]) -> Option<(NodeId, Color)> {
        let mut node = self.root();
        let mut color = self.root_color;
        for &(c, mv) in moves {
            if c != color.opponent() {
                return None;
            }
            node = self.find_child(node, mv)?;
            color = c;
        }
        Some((node, color))
    }

    /// Claims the new rating of an expanded node's priors for the calling thread:
    /// true once per node (until compaction drops its edges), false if it is not
    /// expanded or another thread claimed it first.
    #[inline]
    pub fn claim_rating(&self, id: NodeId) -> bool {
        let link = &self.node(id).link;
        link.load(Relaxed) & (RATED | 3) == EXPANDED && link.fetch_or(RATED, Relaxed) & RATED == 0
    }

    /// Gives each edge of `id` whose move is in `moves` that candidate's prior, one
    /// atomic store an edge (its move, AMAF counts and child are kept); edges of moves
    /// not in `moves` keep theirs. Returns how many edges changed.
    pub fn set_priors(&self, id: NodeId, moves: &[Candidate]) -> usize {
        const NONE: u32 = u32::MAX;
        let mut by_slot = [NONE; MAX_SLOTS];
        for (i, c) in moves.iter().enumerate() {
            by_slot[edge_slot(c.0) as usize] = i as u32;
        }
        let mut changed = 0;
        for e in self.edges(id) {
            let slot = e.info.load(Relaxed) & 0x3FF;
            if let Some(&(_, visits, wins)) = moves.get(by_slot[slot as usize] as usize) {
                e.info.store(slot | packed_prior(visits, wins), Relaxed);
                changed += 1;
            }
        }
        changed
    }

    /// Expands `id` with `moves` at once (a root before a search, tests).
    pub fn expand(&self, id: NodeId, moves: &[Candidate]) -> bool {
        self.claim(id) && self.publish(id, moves, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The move at the point of index `i`.
    pub(super) fn p(i: usize) -> Move {
        Move::Play(Point::from_index(i))
    }

    #[test]
    fn edges_are_lean_and_keep_their_prior() {
        const { assert!(EDGE_BYTES == 12 && NODE_BYTES == 16) };
        let t = Tree::new(Color::White, 1 << 20);
        assert!(t.expand(t.root(), &[(p(20), 47.3, 30.1), (Move::Pass, 20.0, 3.0)]));
        let e = &t.edges(t.root())[0];
        assert_eq!(e.mv(), p(20));
        let (v, w) = e.prior();
        assert!((v - 47.25).abs() < 1e-3 && (w / v - 30.1 / 47.3).abs() < 1e-3);
        assert_eq!(t.edges(t.root())[1].mv(), Move::Pass);
        // AMAF halves near its limit and keeps the rate.
        for i in 0..70_000u32 {
            e.add_amaf(i % 4 == 0);
        }
        let (n, w) = e.amaf();
        assert!(n < 65_536 && n > 30_000, "{n}");
        assert!((f64::from(w) / f64::from(n) - 0.25).abs() < 0.01);
    }

    #[test]
    fn claims_children_and_descendants() {
        let t = Tree::new(Color::White, 1 << 20);
        let root = t.root();
        assert!(t.claim(root));
        assert!(!t.claim(root), "one claimant");
        assert_eq!(t.node(root).state(), State::Claimed);
        assert!(t.edges(root).is_empty());
        assert!(t.publish(root, &[(p(20), 1.0, 0.5), (p(21), 1.0, 0.5)], false));
        // Published unrated: its rating is claimed once; published rated, never.
        assert!(!t.node(root).is_rated());
        assert!(t.claim_rating(root));
        assert!(!t.claim_rating(root), "one rater");
        let a = t.child(&t.edges(root)[1]).unwrap();
        assert_eq!(t.child(&t.edges(root)[1]), Some(a), "attached once");
        assert_eq!(t.find_child(root, p(21)), Some(a));
        assert_eq!(t.find_child(root, p(20)), None, "never visited");
        assert!(t.expand(a, &[(p(30), 2.0, 1.0)]));
        let b = t.child(&t.edges(a)[0]).unwrap();
        assert_eq!(
            t.descendant(&[(Color::Black, p(21)), (Color::White, p(30))]),
            Some((b, Color::White))
        );
        assert_eq!(t.descendant(&[(Color::White, p(21))]), None, "out of turn");
        assert!(t.claim(b));
        assert!(t.publish(b, &[(p(40), 1.0, 0.5)], true));
        assert!(t.node(b).is_rated());
        assert!(!t.claim_rating(b), "rated as it was published");
        assert_eq!(t.edges(b).len(), 1);
    }

    #[test]
    fn priors_are_rated_again_once_and_keep_the_rest_of_the_edge() {
        let t = Tree::new(Color::White, 1 << 20);
        let root = t.root();
        assert!(!t.claim_rating(root), "a leaf has no priors to rate");
        assert!(t.expand(root, &[(p(20), 20.0, 10.0), (p(21), 20.0, 10.0)]));
        let a = t.child(&t.edges(root)[1]).unwrap();
        t.edges(root)[1].add_amaf(true);
        assert!(!t.node(root).is_rated());
        assert!(t.claim_rating(root));
        assert!(!t.claim_rating(root), "one claimant");
        assert!(t.node(root).is_rated());
        assert_eq!(t.node(root).state(), State::Expanded);
        // Only the moves given change; the edge keeps its move, AMAF and child.
        let first = t.edges(root)[0].prior();
        assert_eq!(
            t.set_priors(root, &[(p(21), 100.0, 90.0), (p(99), 5.0, 0.0)]),
            1
        );
        let e = &t.edges(root)[1];
        assert_eq!(e.mv(), p(21));
        let (v, w) = e.prior();
        assert!(
            (v - 100.0).abs() < 1e-3 && (w - 90.0).abs() < 0.1,
            "{v} {w}"
        );
        assert_eq!(e.amaf(), (1, 1));
        assert_eq!(e.child(), Some(a));
        assert_eq!(t.edges(root)[0].prior(), first);
        // Re-rooting keeps a rated node's bit, and its new priors.
        assert!(t.expand(a, &[(p(30), 2.0, 1.0)]));
        assert!(t.claim_rating(a));
        let t = t.reroot(a, Color::Black, None).unwrap();
        assert!(t.node(t.root()).is_rated());
        assert!(!t.claim_rating(t.root()));
    }

    #[test]
    fn a_tree_charges_its_tables_and_never_passes_its_budget() {
        for budget in [MIN_TREE_BYTES, 1 << 20, 256 << 20] {
            let t = Tree::new(Color::White, budget);
            let tables = t.nodes.table_bytes() + t.edges.table_bytes();
            // The tables and the root's chunk of nodes.
            assert_eq!(t.bytes(), tables + t.nodes.chunk_charge(), "{budget}");
            assert!(t.bytes() <= t.budget());
            // The widest root and a node on each of its edges fit in any tree.
            let moves: Vec<Candidate> = (1..MAX_SLOTS).map(|i| (p(i), 1.0, 0.5)).collect();
            assert!(t.expand(t.root(), &moves));
            assert!(t.edges(t.root()).iter().all(|e| t.child(e).is_some()));
            assert!(!t.needs_room());
        }
        // A budget under the floor is raised to it.
        assert_eq!(Tree::new(Color::White, 1000).budget(), MIN_TREE_BYTES);
        // 32 GiB: the tables alone take some 17 MiB, and are paid for.
        let t = Tree::new(Color::White, 32 << 30);
        assert!(t.bytes() > 12 << 20, "{} bytes", t.bytes());
        assert!(t.bytes() < (32 << 30) / 1000);
    }

    #[test]
    fn a_full_tree_refuses_and_says_so() {
        let t = Tree::new(Color::White, MIN_TREE_BYTES);
        let moves: Vec<Candidate> = (1..=300).map(|i| (p(i), 1.0, 0.5)).collect();
        assert!(t.expand(t.root(), &moves));
        let mut refused = false;
        for e in t.edges(t.root()) {
            let Some(c) = t.child(e) else {
                refused = true;
                break;
            };
            if !t.expand(c, &moves) {
                refused = true;
                assert_eq!(t.node(c).state(), State::Leaf, "a failed claim is undone");
                break;
            }
        }
        assert!(refused && t.needs_room());
        assert!(t.bytes() <= t.budget());
    }
}
