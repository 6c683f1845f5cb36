//! The search tree: a flat arena of nodes with contiguous children.
//!
//! Nodes live in one `Vec` and refer to each other by index, so the tree is one
//! allocation that grows up to a node budget; a node's children are a contiguous run,
//! so a selection scans one slice. Statistics are kept from the point of view of the
//! player who made the node's move.

use std::time::Instant;

use tengen_board::{Color, Move, Point};

/// Index of a node in its [`Tree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeId(u32);

impl NodeId {
    /// The arena index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One move in the tree and what the search learned about it.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// The move's point index, 0 for a pass (slot 0 is never a point).
    point: u16,
    /// The player who made the move (0 Black, 1 White).
    color: u8,
    /// Whether the children were generated.
    expanded: bool,
    /// Number of children (they start at `first_child`).
    n_children: u16,
    /// Playouts through this node.
    pub visits: u32,
    /// Sum of results (1 win, 0 loss) for `color`.
    pub wins: f32,
    /// AMAF playouts in which the move was played first by `color` below the parent.
    pub amaf_visits: u32,
    /// Sum of their results for `color`.
    pub amaf_wins: f32,
    /// Prior knowledge: virtual visits and wins.
    pub prior_visits: f32,
    /// Virtual wins of the prior.
    pub prior_wins: f32,
    first_child: u32,
}

/// Bytes a node takes in the arena (the memory cost the node budget bounds).
pub const NODE_BYTES: usize = std::mem::size_of::<Node>();

impl Node {
    fn new(color: Color, mv: Move) -> Node {
        Node {
            point: match mv {
                Move::Play(p) => p.index() as u16,
                Move::Pass => 0,
            },
            color: color as u8,
            expanded: false,
            n_children: 0,
            visits: 0,
            wins: 0.0,
            amaf_visits: 0,
            amaf_wins: 0.0,
            prior_visits: 0.0,
            prior_wins: 0.0,
            first_child: 0,
        }
    }

    /// The move.
    #[inline]
    pub fn mv(&self) -> Move {
        match self.point {
            0 => Move::Pass,
            p => Move::Play(Point::from_index(p as usize)),
        }
    }

    /// The player who made the move.
    #[inline]
    pub fn color(&self) -> Color {
        if self.color == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Whether children were generated.
    #[inline]
    pub fn is_expanded(&self) -> bool {
        self.expanded
    }
}

/// A search tree.
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
}

impl Tree {
    /// A tree with only a root, standing for the position after `color` played `mv`
    /// (for the real root: the opponent of the side to move, and a pass).
    pub fn new(color: Color, mv: Move) -> Tree {
        Tree {
            nodes: vec![Node::new(color, mv)],
        }
    }

    /// The root.
    #[inline]
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// Number of nodes.
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// A node.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// A node, mutably.
    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.index()]
    }

    /// The ids of a node's children.
    #[inline]
    pub fn children(&self, id: NodeId) -> impl ExactSizeIterator<Item = NodeId> + Clone + use<> {
        let n = &self.nodes[id.index()];
        (n.first_child..n.first_child + u32::from(n.n_children)).map(NodeId)
    }

    /// A node's children as a slice.
    #[inline]
    pub fn child_nodes(&self, id: NodeId) -> &[Node] {
        let n = &self.nodes[id.index()];
        let start = n.first_child as usize;
        &self.nodes[start..start + n.n_children as usize]
    }

    /// Adds the children of `id` (moves by `color`, each with prior virtual visits and
    /// wins) and marks it expanded. Does nothing if `moves` is empty except marking.
    pub fn expand(&mut self, id: NodeId, color: Color, moves: &[(Move, f32, f32)]) {
        let first = self.nodes.len() as u32;
        for &(mv, pv, pw) in moves {
            let mut node = Node::new(color, mv);
            node.prior_visits = pv;
            node.prior_wins = pw;
            self.nodes.push(node);
        }
        let n = &mut self.nodes[id.index()];
        n.first_child = first;
        n.n_children = moves.len() as u16;
        n.expanded = true;
    }

    /// The child of `id` for move `mv`.
    pub fn find_child(&self, id: NodeId, mv: Move) -> Option<NodeId> {
        self.children(id).find(|&c| self.node(c).mv() == mv)
    }

    /// A new tree holding the subtree under `id`, with `id` as its root (tree reuse);
    /// `None` if `deadline` passes first, so a very large subtree cannot eat a move's
    /// time.
    pub fn subtree_until(&self, id: NodeId, deadline: Option<Instant>) -> Option<Tree> {
        let mut out = Tree {
            nodes: vec![self.nodes[id.index()]],
        };
        // Breadth first, so each node's children stay contiguous.
        let mut queue = std::collections::VecDeque::from([(id, NodeId(0))]);
        let mut copied = 0usize;
        while let Some((old, new)) = queue.pop_front() {
            copied += 1;
            if copied % 4096 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                return None;
            }
            let first = out.nodes.len() as u32;
            for c in self.children(old) {
                out.nodes.push(self.nodes[c.index()]);
            }
            out.nodes[new.index()].first_child = first;
            for (k, c) in self.children(old).enumerate() {
                queue.push_back((c, NodeId(first + k as u32)));
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expand_find_and_reroot() {
        let mut t = Tree::new(Color::White, Move::Pass);
        let p = |i| Move::Play(Point::from_index(i));
        t.expand(
            t.root(),
            Color::Black,
            &[(p(20), 1.0, 0.5), (p(21), 1.0, 0.5), (Move::Pass, 1.0, 0.1)],
        );
        assert_eq!(t.children(t.root()).len(), 3);
        let a = t.find_child(t.root(), p(21)).unwrap();
        t.expand(a, Color::White, &[(p(30), 2.0, 1.0), (p(31), 2.0, 1.0)]);
        t.node_mut(a).visits = 7;
        let b = t.find_child(a, p(31)).unwrap();
        t.expand(b, Color::Black, &[(p(40), 1.0, 1.0)]);
        let sub = t.subtree_until(a, None).unwrap();
        assert_eq!(sub.len(), 4);
        assert_eq!(sub.node(sub.root()).visits, 7);
        assert_eq!(sub.node(sub.root()).mv(), p(21));
        let b2 = sub.find_child(sub.root(), p(31)).unwrap();
        assert_eq!(sub.child_nodes(b2)[0].mv(), p(40));
        assert_eq!(sub.child_nodes(b2)[0].color(), Color::Black);
        const { assert!(NODE_BYTES <= 40) };
    }

    #[test]
    fn a_copy_past_its_deadline_gives_up() {
        // A root with 300 children, each with 300 children: 90 301 nodes.
        let mut t = Tree::new(Color::White, Move::Pass);
        let moves: Vec<(Move, f32, f32)> = (1..=300)
            .map(|i| (Move::Play(Point::from_index(i)), 1.0, 0.5))
            .collect();
        t.expand(t.root(), Color::Black, &moves);
        for c in t.children(t.root()).collect::<Vec<_>>() {
            t.expand(c, Color::White, &moves);
        }
        let past = Instant::now() - std::time::Duration::from_secs(1);
        assert!(t.subtree_until(t.root(), Some(past)).is_none());
        let far = Instant::now() + std::time::Duration::from_secs(3600);
        assert_eq!(t.subtree_until(t.root(), Some(far)).unwrap().len(), t.len());
    }
}
