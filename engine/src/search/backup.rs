//! Backup: a playout's result along the path it started from.
//!
//! The descent already counted the visits (virtual loss), so the backup adds only
//! the wins, and the AMAF counts of every edge of the path's nodes whose move its
//! player made first later in the sequence (the path below it, then the playout).

use tengen_board::{Color, Move};

use crate::tree::Tree;

use super::Scratch;

/// Adds the result (`black_won`) to the path in the scratch, whose root node was
/// reached by `root_color`'s move; returns the root move the path started with.
/// The scratch AMAF map holds the playout's first plays and gains the path's.
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
        for e in tree.edges(id) {
            if let Move::Play(p) = e.mv() {
                if s.amaf.first(p) == Some(mover) {
                    e.add_amaf(mover_won);
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
