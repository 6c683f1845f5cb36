//! Searches as the engine reports them, made by hand for the unit tests of the
//! lines and answers written from them.

use std::time::Duration;

use tengen_board::{BoardSize, Color, Move};
use tengen_engine::{Analysis, Line, MoveStat};

/// A White search of 300 playouts on `size` (9×9 points named): E5 visited 200
/// times (PV E5 C3 pass), C3 a candidate never visited; the root's lead 3.25, its
/// spread 11; the ownership all White's when `ownership`.
pub(crate) fn analysis(size: BoardSize, ownership: bool) -> Analysis {
    let p = |v: &str| Move::Play(size.parse_point(v).unwrap());
    Analysis {
        color: Color::White,
        visits: 300,
        reused: 0,
        winrate: 0.61,
        score_lead: 3.25,
        score_stdev: 11.0,
        moves: vec![
            MoveStat {
                mv: p("E5"),
                visits: 200,
                wins: 124,
                winrate: 0.62,
                prior: 0.3,
                lcb: 0.6,
                score_lead: 3.5,
                score_stdev: 10.5,
                pv: Line::from_slice(&[p("E5"), p("C3"), Move::Pass]),
                pv_visits: Vec::new(),
                ownership: Vec::new(),
                neutral: Vec::new(),
            },
            MoveStat {
                mv: p("C3"),
                visits: 0,
                wins: 0,
                winrate: 0.5,
                prior: 0.2,
                lcb: 0.0,
                score_lead: 0.0,
                score_stdev: 0.0,
                pv: Line::from_slice(&[p("C3")]),
                pv_visits: Vec::new(),
                ownership: Vec::new(),
                neutral: Vec::new(),
            },
        ],
        ownership: if ownership {
            vec![1.0; size.area()]
        } else {
            Vec::new()
        },
        neutral: Vec::new(),
        elapsed: Duration::from_millis(100),
        tree_bytes: 0,
        tree_compactions: 0,
    }
}
