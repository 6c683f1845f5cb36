//! Backup: a playout's result along the path it started from.
//!
//! The descent already counted the visits (virtual loss), so the backup adds only
//! the wins, and the AMAF counts of every edge of the path's nodes whose move its
//! player made first later in the sequence (the path below it, then the playout).
//!
//! Every playout updates the AMAF counts of about half the root's edges. When
//! threads share the tree, each worker adds the root's into its own [`RootAmaf`]
//! and flushes them into the tree every [`ROOT_AMAF_BATCH`] playouts: otherwise the
//! cache lines of the root's edges would move from core to core on every playout.

use tengen_board::{Color, Move};

use crate::tree::{Edge, Tree};

use super::Scratch;

/// Playouts a worker's root AMAF counts wait before they go into a shared tree.
const ROOT_AMAF_BATCH: u32 = 16;
const _: () = assert!(ROOT_AMAF_BATCH <= crate::tree::MAX_AMAF_BATCH);

/// One worker's AMAF counts for the root's edges, not yet in the tree: per edge,
/// playouts (high 16 bits) and wins (low 16 bits).
#[derive(Debug, Default)]
pub(super) struct RootAmaf {
    counts: Vec<u32>,
    /// Playouts added since the last flush.
    pending: u32,
}

impl RootAmaf {
    /// Empty, for a root of `edges` edges.
    pub(super) fn reset(&mut self, edges: usize) {
        self.counts.clear();
        self.counts.resize(edges, 0);
        self.pending = 0;
    }

    /// Adds the waiting counts to `edges` (the root's) and empties.
    pub(super) fn flush(&mut self, edges: &[Edge]) {
        if self.pending == 0 {
            return;
        }
        for (e, c) in edges.iter().zip(self.counts.iter_mut()) {
            if *c != 0 {
                e.add_amaf_batch(*c >> 16, *c & 0xFFFF);
                *c = 0;
            }
        }
        self.pending = 0;
    }
}

/// Adds the result (`black_won`) to the path in the scratch, whose root node was
/// reached by `root_color`'s move; returns the root move the path started with.
/// The scratch AMAF map holds the playout's first plays and gains the path's.
/// `exclusive`: no other thread searches the tree (the root's AMAF counts then go
/// straight into it).
pub(super) fn backup(
    tree: &Tree,
    s: &mut Scratch,
    root_color: Color,
    black_won: bool,
    exclusive: bool,
) -> Option<Move> {
    let won = |c: Color| (c == Color::Black) == black_won;
    for k in (0..s.path.len()).rev() {
        let (id, mv) = s.path[k];
        // The colour of the player who made the node's move alternates with depth.
        let color = if k % 2 == 0 {
            root_color
        } else {
            root_color.opponent()
        };
        let mover = color.opponent();
        let mover_won = won(mover);
        let edges = tree.edges(id);
        if k == 0 && !exclusive {
            let add = (1 << 16) | u32::from(mover_won);
            for (e, c) in edges.iter().zip(s.root_amaf.counts.iter_mut()) {
                if let Move::Play(p) = e.mv() {
                    if s.amaf.first(p) == Some(mover) {
                        *c += add;
                    }
                }
            }
            s.root_amaf.pending += 1;
            if s.root_amaf.pending >= ROOT_AMAF_BATCH {
                s.root_amaf.flush(edges);
            }
        } else {
            for e in edges {
                if let Move::Play(p) = e.mv() {
                    if s.amaf.first(p) == Some(mover) {
                        e.add_amaf(mover_won);
                    }
                }
            }
        }
        let node = tree.node(id);
        if won(color) {
            node.add_win(exclusive);
        }
        if let Move::Play(p) = mv {
            s.amaf.overwrite(color, p);
        }
    }
    s.path.get(1).map(|&(_, mv)| mv)
}
