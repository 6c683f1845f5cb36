//! Making room in a full tree, and re-rooting it for the next move.
//!
//! Both run with `&mut Tree`, so no thread searches meanwhile (the search pauses its
//! workers for it). They keep a node's edges only if the node is kept and visited
//! at least a threshold number of times (the root and the principal variation keep
//! theirs whatever their visits); a kept node whose edges go becomes a leaf
//! with its counts intact (it is expanded again when a descent next reaches it).
//! Since a node has at least as many visits as any node below it, what is kept is the
//! top of the tree, the principal lines first. Then everything kept slides down to the
//! start of its slab in its old order (a node is always stored after its parent, an
//! edge block never straddles a chunk), and the chunks past the end are freed.

use std::time::Instant;

use super::{EDGE_BYTES, EXPANDED, LEAF, NODE_CHARGE, NodeId, RATED, Tree};
use tengen_board::Color;

/// Marks of the forwarding table of [`Tree::compact`] before it holds the kept nodes'
/// new indices: a node not kept.
const DEAD: u32 = u32::MAX;
/// A protected node not reached yet (it is dropped unless a kept node reaches it).
const PENDING: u32 = u32::MAX - 1;
/// A node reached from the root: kept, its edges too if it is visited enough.
const LIVE: u32 = 0;
/// A node reached from the root and protected: kept with its edges.
const PROTECTED: u32 = 1;

/// Buckets of visit counts, a quarter of a binary order of magnitude wide.
const BUCKETS: usize = 4 * 32 + 1;

fn bucket(visits: u32) -> usize {
    // floor(4 log2(v + 1)), from the bit length and the two bits after the top one.
    let v = u64::from(visits) + 1;
    let top = 63 - v.leading_zeros();
    let frac = if top >= 2 {
        (v >> (top - 2)) & 3
    } else {
        (v << (2 - top)) & 3
    };
    ((top * 4) as usize + frac as usize).min(BUCKETS - 1)
}

/// What a compaction keeps of the subtree besides its nodes: the edges of nodes whose
/// visit bucket is at least `threshold`, and of the `protected` nodes.
#[derive(Clone, Copy)]
struct Keep<'a> {
    threshold: usize,
    protected: &'a [NodeId],
}

impl Tree {
    /// Frees at least half the budget: drops the edges of the least visited nodes
    /// (never the root's nor the principal variation's) and compacts what is left.
    /// Its duration is kept ([`Tree::room_cost`]).
    pub fn make_room(&mut self) {
        let start = std::time::Instant::now();
        self.drop_least_visited();
        self.room_cost = start.elapsed();
    }

    /// [`Tree::make_room`]'s work.
    fn drop_least_visited(&mut self) {
        // Half the budget, less what chunks round up: a partly used chunk of each
        // slab and the tails of chunks that a block did not fit in.
        let slack = self.nodes.chunk_charge() + self.edges.chunk_charge();
        let target = (self.budget.limit() / 2).saturating_sub(slack) / 16 * 15;
        let mut cost = [0usize; BUCKETS];
        // Every expanded node is reachable from the root: a node becomes unreachable
        // only by compaction, which frees it.
        for i in 0..self.nodes.len() {
            let id = NodeId(i);
            let edges = self.edges(id);
            if edges.is_empty() {
                continue;
            }
            let nodes = edges.iter().filter(|e| e.child().is_some()).count();
            cost[bucket(self.node(id).visits())] += edges.len() * EDGE_BYTES + nodes * NODE_CHARGE;
        }
        // The lowest bucket whose nodes, with every busier one, fit in the target.
        let mut kept = 0;
        let mut threshold = BUCKETS;
        for b in (0..BUCKETS).rev() {
            if kept + cost[b] > target {
                break;
            }
            kept += cost[b];
            threshold = b;
        }
        // The principal variation keeps its edges whatever its visits, so that it
        // goes on deepening however often the tree makes room.
        let mut principal = Vec::new();
        let mut node = self.root();
        while let Some(next) = self
            .edges(node)
            .iter()
            .filter_map(|e| e.child())
            .max_by_key(|&c| self.node(c).visits())
        {
            principal.push(next);
            node = next;
        }
        let keep = Keep {
            threshold,
            protected: &principal,
        };
        let done = self.compact(self.root(), self.root_color, keep, None);
        debug_assert!(done, "no deadline");
        self.compactions += 1;
    }

    /// The tree with `id` (a node by `color`) as its root and everything below it
    /// kept (tree reuse); `None` if `deadline` passes first, so a very large tree
    /// cannot eat a move's time.
    pub fn reroot(mut self, id: NodeId, color: Color, deadline: Option<Instant>) -> Option<Tree> {
        let keep = Keep {
            threshold: 0,
            protected: &[],
        };
        if self.compact(id, color, keep, deadline) {
            Some(self)
        } else {
            None
        }
    }

    /// Keeps the subtree of `root` (a node by `color`) with the edges of nodes whose
    /// visit bucket is at least `keep.threshold` (and the root's and
    /// `keep.protected` nodes'), slides it to the slabs' starts and frees the rest.
    /// False if `deadline` passed while marking (the tree is then unusable).
    fn compact(
        &mut self,
        root: NodeId,
        color: Color,
        keep: Keep<'_>,
        deadline: Option<Instant>,
    ) -> bool {
        let Some((mut forward, mut kept)) = self.mark(root, keep, deadline) else {
            return false;
        };
        let next = renumber(&mut forward, root);
        let cursor = self.slide_edges(&mut kept, &forward);
        self.slide_nodes(&forward);
        drop(forward);
        drop(kept);
        self.nodes.truncate(next, &self.budget);
        self.edges.truncate(cursor, &self.budget);
        self.root_color = color;
        self.full.store(false, std::sync::atomic::Ordering::Relaxed);
        true
    }

    /// Marks what [`Tree::compact`] keeps of the subtree of `root`: the forwarding
    /// table (each node [`LIVE`], [`PROTECTED`] or [`DEAD`]) and the nodes whose edges
    /// are kept, in index order; a node whose edges go becomes a leaf. `None` if
    /// `deadline` passed first. Both lists are charged in `NODE_CHARGE`.
    fn mark(
        &self,
        root: NodeId,
        keep: Keep<'_>,
        deadline: Option<Instant>,
    ) -> Option<(Vec<u32>, Vec<u32>)> {
        let Keep {
            threshold,
            protected,
        } = keep;
        let n_nodes = self.nodes.len() as usize;
        let mut forward = vec![DEAD; n_nodes];
        for p in protected {
            forward[p.index()] = PENDING;
        }
        forward[root.index()] = PROTECTED;
        let mut kept: Vec<u32> = Vec::new();
        let mut marked = 0usize;
        // A node is stored after its parent, so one pass in index order from the root
        // reaches every node below it.
        for i in root.index()..n_nodes {
            if forward[i] >= PENDING {
                continue;
            }
            marked += 1;
            if marked % 4096 == 1 && deadline.is_some_and(|d| Instant::now() >= d) {
                return None;
            }
            let node = self.nodes.get(i as u32);
            let link = node.link.load(std::sync::atomic::Ordering::Relaxed);
            if link & 3 != EXPANDED
                || (forward[i] != PROTECTED && bucket(node.visits()) < threshold)
            {
                // Leaves, claims no thread will finish (none is searching), and nodes
                // whose edges go.
                node.link.store(LEAF, std::sync::atomic::Ordering::Relaxed);
                continue;
            }
            kept.push(i as u32);
            for e in self.edges(NodeId(i as u32)) {
                if let Some(c) = e.child() {
                    let f = &mut forward[c.index()];
                    debug_assert!(c.index() > i, "a node is stored after its parent");
                    *f = if *f == PENDING { PROTECTED } else { LIVE };
                }
            }
        }
        for f in forward.iter_mut().filter(|f| **f == PENDING) {
            *f = DEAD;
        }
        Some((forward, kept))
    }

    /// Slides the edge blocks of the `kept` nodes down in their old order (sorting
    /// `kept` by it), a block never straddling a chunk, their children renumbered by
    /// `forward`; the number of edges kept.
    fn slide_edges(&self, kept: &mut [u32], forward: &[u32]) -> u32 {
        let first_edge = |tree: &Tree, node: u32| {
            (tree
                .nodes
                .get(node)
                .link
                .load(std::sync::atomic::Ordering::Relaxed)
                >> 32) as u32
        };
        kept.sort_unstable_by_key(|&node| first_edge(self, node));
        let chunk = self.edges.chunk_len();
        let mut cursor = 0u32;
        for &node in kept.iter() {
            let link = self
                .nodes
                .get(node)
                .link
                .load(std::sync::atomic::Ordering::Relaxed);
            let (first, n) = ((link >> 32) as u32, ((link >> 2) & 0xFFFF) as u32);
            if cursor % chunk + n > chunk {
                cursor = (cursor / chunk + 1) * chunk;
            }
            debug_assert!(cursor <= first);
            for k in 0..n {
                let (from, to) = (self.edges.get(first + k), self.edges.get(cursor + k));
                if cursor != first {
                    to.copy_from(from);
                }
                if let Some(c) = to.child() {
                    to.child
                        .store(forward[c.index()], std::sync::atomic::Ordering::Relaxed);
                }
            }
            self.nodes.get(node).link.store(
                (u64::from(cursor) << 32) | (u64::from(n) << 2) | (link & RATED) | EXPANDED,
                std::sync::atomic::Ordering::Relaxed,
            );
            cursor += n;
        }
        cursor
    }

    /// Slides the kept nodes down to their new indices in `forward`, in their old order.
    fn slide_nodes(&self, forward: &[u32]) {
        for (i, &f) in forward.iter().enumerate() {
            if f != DEAD && f as usize != i {
                let (from, to) = (self.nodes.get(i as u32), self.nodes.get(f));
                to.copy_from(from);
            }
        }
    }
}

/// Gives the nodes `forward` keeps their new indices, in their old order (the root,
/// stored before everything under it, becomes 0); the number of nodes kept.
fn renumber(forward: &mut [u32], root: NodeId) -> u32 {
    let mut next = 0u32;
    for (i, f) in forward.iter_mut().enumerate() {
        if *f != DEAD {
            debug_assert!(next > 0 || i == root.index());
            *f = next;
            next += 1;
        }
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prior::Candidate;
    use crate::tree::tests::p;

    #[test]
    fn buckets_grow_with_visits() {
        assert_eq!(bucket(0), 0);
        assert_eq!(bucket(1), 4);
        assert!(bucket(100) < bucket(130));
        assert_eq!(bucket(u32::MAX), BUCKETS - 1);
        let mut last = 0;
        for v in 0..10_000 {
            assert!(bucket(v) >= last);
            last = bucket(v);
        }
    }

    /// A root with `wide` children, each visited `i` times, each expanded with `wide`
    /// children of its own.
    fn two_levels(wide: usize, budget: usize) -> Tree {
        let t = Tree::new(Color::White, budget);
        let moves: Vec<Candidate> = (1..=wide).map(|i| (p(i), 1.0, 0.5)).collect();
        assert!(t.expand(t.root(), &moves));
        for (i, e) in t.edges(t.root()).iter().enumerate() {
            let c = t.child(e).unwrap();
            for _ in 0..i + 1 {
                t.node(c).add_visit(false);
                t.node(t.root()).add_visit(false);
            }
            t.node(c).add_win(false);
            assert!(t.expand(c, &moves));
        }
        t
    }

    #[test]
    fn reroot_keeps_the_subtree_in_place() {
        let t = two_levels(300, 64 << 20);
        let before = t.bytes();
        let a = t.find_child(t.root(), p(200)).unwrap();
        let grand = t.child(&t.edges(a)[7]).unwrap();
        t.node(grand).add_visit(false);
        let t = t.reroot(a, Color::Black, None).unwrap();
        assert_eq!(t.root_color(), Color::Black);
        assert_eq!(t.node(t.root()).visits(), 200);
        assert_eq!(t.node(t.root()).wins(), 1);
        assert_eq!(t.edges(t.root()).len(), 300);
        let g = t.find_child(t.root(), p(8)).unwrap();
        assert_eq!(g.index(), 1);
        assert_eq!(t.node(g).visits(), 1);
        assert!(t.bytes() < before);
        // The next node attached goes after the kept ones.
        let h = t.child(&t.edges(t.root())[9]).unwrap();
        assert_eq!(h.index(), 2);
        assert_eq!(t.node(h).visits(), 0);
    }

    #[test]
    fn a_copy_past_its_deadline_gives_up() {
        let t = two_levels(300, 64 << 20);
        let past = Instant::now() - std::time::Duration::from_secs(1);
        let root = t.root();
        assert!(t.reroot(root, Color::White, Some(past)).is_none());
        let t = two_levels(300, 64 << 20);
        let far = Instant::now() + std::time::Duration::from_secs(3600);
        let root = t.root();
        let t = t.reroot(root, Color::White, Some(far)).unwrap();
        assert_eq!(t.edges(t.find_child(t.root(), p(1)).unwrap()).len(), 300);
    }

    #[test]
    fn making_room_keeps_the_busiest_and_frees_half() {
        let budget = 3 << 19;
        let mut t = two_levels(300, budget);
        assert!(t.bytes() > budget * 3 / 4, "{}", t.bytes());
        let root_visits = t.node(t.root()).visits();
        // The principal variation goes on below the busiest child, to a node of one
        // visit: it keeps its edges.
        let busiest = t.find_child(t.root(), p(300)).unwrap();
        let deep = t.child(&t.edges(busiest)[0]).unwrap();
        t.node(deep).add_visit(false);
        assert!(t.expand(deep, &[(p(9), 1.0, 0.5)]));
        t.make_room();
        let busiest = t.find_child(t.root(), p(300)).unwrap();
        let deep = t.find_child(busiest, p(1)).unwrap();
        assert!(
            t.node(deep).is_expanded(),
            "the principal variation keeps its edges"
        );
        assert!(t.bytes() <= budget / 2, "{}", t.bytes());
        assert!(!t.needs_room());
        assert_eq!(t.compactions(), 1);
        assert_eq!(t.node(t.root()).visits(), root_visits);
        // Every child keeps its counts; only the busiest keep their edges.
        let kids: Vec<_> = t
            .edges(t.root())
            .iter()
            .map(|e| e.child().unwrap())
            .collect();
        assert_eq!(kids.len(), 300);
        for (i, &c) in kids.iter().enumerate() {
            assert_eq!(t.node(c).visits(), i as u32 + 1);
        }
        let expanded: Vec<bool> = kids.iter().map(|&c| t.node(c).is_expanded()).collect();
        assert!(expanded[299] && !expanded[0]);
        let first = expanded.iter().position(|&e| e).unwrap();
        assert!(expanded[first..].iter().all(|&e| e), "a top part is kept");
        // The dropped ones expand again.
        assert!(t.expand(kids[0], &[(p(5), 1.0, 0.5)]));
    }
}
