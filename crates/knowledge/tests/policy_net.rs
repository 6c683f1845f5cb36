//! The shipped policy network (`crates/knowledge/data/policy-19.safetensors`) loads and ranks the
//! 9-dan player's move first in positions of the held-out month (Tygem 9-dan records of
//! 2011-03, which no training shard holds).

use std::path::Path;

use tengen_board::sgf::parse_sgf;
use tengen_board::{Color, Move};
use tengen_knowledge::move_model::features::History;
use tengen_knowledge::{NetScratch, PolicyNet};

/// Openings of held-out games up to and including the move to predict (the last).
const POSITIONS: [&str; 4] = [
    "(;SZ[19];B[pd];W[qp];B[cd];W[cp];B[oq];W[mp];B[no];W[np];B[op];W[oo];B[po];W[on])",
    "(;SZ[19];B[pd];W[dc];B[dp];W[qp];B[oq];W[mq];B[po];W[pp];B[op];W[oo];B[no];W[on])",
    "(;SZ[19];B[pd];W[dd];B[pq];W[po];B[qo];W[qn];B[qp];W[qf];B[nc];W[pn];B[nq];W[pj];B[cp];\
     W[ep];B[eo];W[cq];B[dp];W[dq];B[fp];W[eq])",
    "(;SZ[19];B[pd];W[dp];B[pq];W[dc];B[de];W[cg];B[be];W[fd];B[ef];W[cj];B[hc];W[hd];B[id];\
     W[he];B[ec];W[ed];B[dd];W[db];B[gb];W[fc];B[fb];W[eb])",
];

#[test]
fn the_shipped_network_ranks_the_9_dan_move_first() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/policy-19.safetensors");
    let net = PolicyNet::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(net.side(), 19, "{}", net.describe());
    let mut scratch = NetScratch::new(&net);
    for text in POSITIONS {
        let game = parse_sgf(text).unwrap().game;
        let moves: Vec<(Color, Move)> = game.moves().collect();
        let (&(mover, played), before) = moves.split_last().unwrap();
        let mut board = game.start_board().clone();
        let mut history = History::default();
        for &(c, m) in before {
            board.try_play(c, m).unwrap();
            history = History {
                last: Some(m),
                before: history.last,
            };
        }
        let out = net
            .evaluate(&board, mover, &history, &mut scratch)
            .unwrap_or_else(|e| panic!("{e}"));
        let top = out.top(3);
        assert_eq!(top[0].0, played, "{text}: the network's choices {top:?}");
        assert!(top[0].1 > 0.5, "{text}: {top:?}");
    }
}
