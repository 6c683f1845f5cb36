//! Analysis responses in KataGo's shape: `id`, `turnNumber`, `isDuringSearch`,
//! `moveInfos`, `rootInfo`, and `ownership` and `policy` when asked for.
//!
//! `utility` and `utilityLcb` are KataGo's with its score utility at 0: Tengen's search
//! maximises the win rate alone, so a move's utility is its win/loss value,
//! `2 × winrate − 1` (and `2 × lcb − 1`), from the side the values are reported from.
//! `rootInfo`'s `thisHash` and `symHash` are [`PositionHashes`]. `scoreStdev` is
//! the standard deviation of the final score over the search's playouts (through the
//! move, or all of them for `rootInfo`), in points.
//!
//! `rootInfo`'s `scoreLead` is the median of the playouts' final scores
//! ([`Analysis::score_lead`]); a move's is the root's plus how much more its playouts
//! scored on average ([`MoveStat::score_lead`]). A move's `winrate`, `scoreLead` and
//! `scoreStdev` count two pseudo-playouts at the root's values besides its own
//! playouts ([`MoveStat::winrate`]). `prior` is the
//! policy the search's prior followed ([`MoveStat::prior`]). Each playout weighs 1 and
//! a position is reached by one path only in Tengen's tree, so `weight`, `edgeVisits`
//! and `edgeWeight` are the visits; `playSelectionValue` is what the player chooses its
//! move by, the visits (ties go to the higher win rate). Tengen has one score
//! estimate, so `scoreSelfplay` is `scoreLead`. KataGo 1.17 no longer sends
//! `scoreMean` here, and neither does Tengen (GTP's `kata-analyze` keeps it). The
//! network value fields (`rawWinrate`, `rawLead`, `rawScoreSelfplay`,
//! `rawScoreSelfplayStdev`) are left out: Tengen has no value network.

use serde_json::{Map, Value, json};
use tengen_board::{BoardSize, Move};
use tengen_engine::{Analysis, MoveStat};

use crate::hashes::PositionHashes;
use crate::options::SearchOptions;
use crate::vertex::{move_text, player_letter};

/// The turn a response is for.
#[derive(Clone, Copy, Debug)]
pub struct TurnRef<'a> {
    /// The query's id.
    pub id: &'a str,
    /// The turn number.
    pub turn: usize,
    /// The board size.
    pub size: BoardSize,
    /// The query's settings.
    pub options: &'a SearchOptions,
    /// The analysed position's hashes.
    pub hashes: PositionHashes,
}

/// The response to a turn whose search ended before a single playout (it was
/// terminated): KataGo's `noResults` shape.
pub fn no_results(id: &str, turn: usize) -> String {
    json!({"id": id, "turnNumber": turn, "isDuringSearch": false, "noResults": true}).to_string()
}

/// The response line for a snapshot of a turn's search; `policy` is the move model's
/// probabilities when the query asked for them.
pub fn analysis_response(
    at: &TurnRef<'_>,
    a: &Analysis,
    during_search: bool,
    policy: Option<&[f64]>,
) -> String {
    let opts = at.options;
    let side = Side {
        sign: opts.perspective.sign(a.color),
    };
    let infos: Vec<Value> = a
        .moves
        .iter()
        .filter(|m| m.visits > 0 && opts.filter.shows(a.color, m.mv))
        .enumerate()
        .map(|(order, m)| move_info(at, side, order, m))
        .collect();
    let mut out = Map::new();
    out.insert("id".into(), json!(at.id));
    out.insert("turnNumber".into(), json!(at.turn));
    out.insert("isDuringSearch".into(), json!(during_search));
    out.insert("moveInfos".into(), Value::Array(infos));
    out.insert("rootInfo".into(), root_info(at, side, a));
    if a.ownership.len() == at.size.area() {
        if opts.ownership {
            out.insert("ownership".into(), grid(&a.ownership, side.sign));
        }
        if opts.ownership_stdev {
            out.insert("ownershipStdev".into(), grid(&a.ownership_stdev(), 1.0));
        }
    }
    if let Some(p) = policy {
        out.insert("policy".into(), json!(p));
    }
    Value::Object(out).to_string()
}

/// The side the values are reported from: `sign` is 1 for the searching side's own
/// values, -1 for its opponent's.
#[derive(Clone, Copy, Debug)]
struct Side {
    sign: f64,
}

impl Side {
    /// A win rate from this side (an undefined one is even).
    fn rate(self, w: f64) -> f64 {
        let w = if w.is_finite() { w } else { 0.5 };
        if self.sign > 0.0 { w } else { 1.0 - w }
    }

    /// Points from this side (undefined ones are 0).
    fn points(self, s: f64) -> f64 {
        if s.is_finite() { self.sign * s } else { 0.0 }
    }
}

/// One candidate's entry of `moveInfos`, `order` its place among those shown: its
/// values, its principal variation cut to the query's length, and the visits and
/// ownership the query asked for.
fn move_info(at: &TurnRef<'_>, side: Side, order: usize, m: &MoveStat) -> Value {
    let opts = at.options;
    let vertex = |mv: Move| move_text(at.size, mv);
    let mut pv: Vec<String> = Vec::with_capacity(m.pv.len() + 1);
    let mut visits: Vec<u64> = m.pv_visits.clone();
    if m.pv.first() != Some(&m.mv) {
        pv.push(vertex(m.mv));
        visits.insert(0, m.visits);
    }
    pv.extend(m.pv.iter().map(|&mv| vertex(mv)));
    pv.truncate(opts.pv_len);
    visits.truncate(pv.len());
    let mut info = json!({
        "move": vertex(m.mv),
        "visits": m.visits,
        "edgeVisits": m.visits,
        "weight": m.visits as f64,
        "edgeWeight": m.visits as f64,
        "playSelectionValue": m.visits as f64,
        "winrate": side.rate(m.winrate),
        "scoreLead": side.points(m.score_lead),
        "scoreSelfplay": side.points(m.score_lead),
        "scoreStdev": spread(m.score_stdev),
        "prior": finite(m.prior),
        "lcb": side.rate(m.lcb),
        "utility": utility(side.rate(m.winrate)),
        "utilityLcb": utility(side.rate(m.lcb)),
        "order": order,
        "pv": pv,
    });
    let fields = info.as_object_mut().expect("a JSON object");
    if opts.pv_visits && visits.len() == pv.len() {
        fields.insert("pvVisits".into(), json!(visits));
        fields.insert("pvEdgeVisits".into(), json!(visits));
    }
    if m.ownership.len() == at.size.area() {
        if opts.moves_ownership {
            fields.insert("ownership".into(), grid(&m.ownership, side.sign));
        }
        if opts.moves_ownership_stdev {
            fields.insert("ownershipStdev".into(), grid(&m.ownership_stdev(), 1.0));
        }
    }
    info
}

/// `rootInfo`: the position's values, visits, the player to move and its hashes.
fn root_info(at: &TurnRef<'_>, side: Side, a: &Analysis) -> Value {
    json!({
        "winrate": side.rate(a.winrate),
        "scoreLead": side.points(a.score_lead),
        "scoreSelfplay": side.points(a.score_lead),
        "scoreStdev": spread(a.score_stdev),
        "utility": utility(side.rate(a.winrate)),
        "visits": a.visits,
        "weight": a.visits as f64,
        "currentPlayer": player_letter(a.color),
        "thisHash": at.hashes.this_text(),
        "symHash": at.hashes.sym_text(),
    })
}

/// A value a point, times `sign`, to a millionth, in [-1, 1].
fn grid(values: &[f32], sign: f64) -> Value {
    json!(
        values
            .iter()
            .map(|&o| round6(sign * f64::from(o).clamp(-1.0, 1.0)))
            .collect::<Vec<f64>>()
    )
}

/// The win/loss utility of a win rate, in [-1, 1] (KataGo's `winLossUtilityFactor` 1,
/// no score utility).
fn utility(winrate: f64) -> f64 {
    (2.0 * winrate - 1.0).clamp(-1.0, 1.0)
}

fn finite(x: f64) -> f64 {
    if x.is_finite() { x } else { 0.0 }
}

/// A standard deviation, the same from either side: never negative (an undefined one
/// is 0).
fn spread(x: f64) -> f64 {
    finite(x).max(0.0)
}

/// Six decimals: ownership to a millionth, in short numbers.
fn round6(x: f64) -> f64 {
    if x.is_finite() {
        (x * 1e6).round() / 1e6
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Perspective;
    use std::time::Duration;
    use tengen_board::Color;
    use tengen_engine::MoveStat;

    fn snapshot(size: BoardSize) -> Analysis {
        let d4 = size.parse_move("D4").unwrap();
        let c3 = size.parse_move("C3").unwrap();
        let stat = |mv: Move, visits: u64, winrate: f64| MoveStat {
            mv,
            visits,
            wins: (winrate * visits as f64).round() as u64,
            winrate,
            prior: 0.25,
            lcb: winrate - 0.1,
            score_lead: 3.0,
            score_stdev: 12.5,
            pv: [mv, c3].into_iter().collect(),
            pv_visits: vec![visits, visits / 2],
            ownership: vec![0.25; size.area()],
            neutral: vec![0.5; size.area()],
        };
        Analysis {
            color: Color::White,
            visits: 10,
            reused: 0,
            winrate: 0.75,
            score_lead: 3.0,
            score_stdev: 14.25,
            moves: vec![stat(d4, 9, 0.8), stat(c3, 1, 0.4), stat(Move::Pass, 0, 0.1)],
            ownership: vec![0.5; size.area()],
            neutral: vec![0.0; size.area()],
            elapsed: Duration::from_millis(5),
            tree_bytes: 0,
            tree_compactions: 0,
        }
    }

    #[test]
    fn values_turn_to_blacks_side_and_unvisited_moves_stay_out() {
        let size = BoardSize::new(9).unwrap();
        let mut options = SearchOptions::new(10, Perspective::Black);
        options.ownership = true;
        options.pv_len = 1;
        let at = TurnRef {
            id: "q",
            turn: 3,
            size,
            options: &options,
            hashes: PositionHashes {
                this: 0xAB,
                sym: 0x1F,
            },
        };
        let line = analysis_response(&at, &snapshot(size), false, None);
        let v: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["id"], "q");
        assert_eq!(v["turnNumber"], 3);
        assert_eq!(v["isDuringSearch"], false);
        let infos = v["moveInfos"].as_array().unwrap();
        assert_eq!(infos.len(), 2);
        assert_eq!(infos[0]["move"], "D4");
        assert!((infos[0]["winrate"].as_f64().unwrap() - 0.2).abs() < 1e-9);
        assert_eq!(infos[0]["scoreLead"], -3.0);
        // A spread is the same from either side.
        assert_eq!(infos[0]["scoreStdev"], 12.5);
        assert_eq!(v["rootInfo"]["scoreStdev"], 14.25);
        assert_eq!(infos[1]["order"], 1);
        assert_eq!(infos[0]["pv"], json!(["D4"]));
        assert_eq!(v["rootInfo"]["currentPlayer"], "W");
        assert!((v["rootInfo"]["winrate"].as_f64().unwrap() - 0.25).abs() < 1e-9);
        // Utilities from the same side as the win rates.
        assert!((v["rootInfo"]["utility"].as_f64().unwrap() + 0.5).abs() < 1e-9);
        assert!((infos[0]["utility"].as_f64().unwrap() + 0.6).abs() < 1e-9);
        assert!((infos[0]["utilityLcb"].as_f64().unwrap() + 0.4).abs() < 1e-9);
        assert_eq!(v["rootInfo"]["thisHash"], "00000000000000AB");
        assert_eq!(v["rootInfo"]["symHash"], "000000000000001F");
        assert_eq!(v["ownership"].as_array().unwrap().len(), 81);
        assert_eq!(v["ownership"][0], -0.5);
        assert!(v.get("policy").is_none());
    }

    /// The response to turn 0 of query `q` (hashes 0) on [`snapshot`], as JSON.
    fn first_turn(
        size: BoardSize,
        options: &SearchOptions,
        during_search: bool,
        policy: Option<&[f64]>,
    ) -> Value {
        let at = TurnRef {
            id: "q",
            turn: 0,
            size,
            options,
            hashes: PositionHashes { this: 0, sym: 0 },
        };
        serde_json::from_str(&analysis_response(
            &at,
            &snapshot(size),
            during_search,
            policy,
        ))
        .unwrap()
    }

    #[test]
    fn katago_1_17_fields_are_sent_and_no_value_network_is_made_up() {
        let size = BoardSize::new(9).unwrap();
        let options = SearchOptions::new(10, Perspective::Black);
        let v = first_turn(size, &options, false, None);
        let d4 = &v["moveInfos"][0];
        // Each playout weighs 1 and a position has one path: all of them the visits,
        // which is also what the player chooses by.
        for key in ["edgeVisits", "weight", "edgeWeight", "playSelectionValue"] {
            assert_eq!(d4[key].as_f64(), Some(9.0), "{key}");
        }
        assert_eq!(v["moveInfos"][1]["playSelectionValue"].as_f64(), Some(1.0));
        assert_eq!(v["rootInfo"]["weight"].as_f64(), Some(10.0));
        // One score estimate, from the same side as scoreLead.
        assert_eq!(d4["scoreSelfplay"], d4["scoreLead"]);
        assert_eq!(v["rootInfo"]["scoreSelfplay"], -3.0);
        for key in [
            "scoreMean",
            "rawWinrate",
            "rawLead",
            "rawScoreSelfplay",
            "rawScoreSelfplayStdev",
        ] {
            assert!(d4.get(key).is_none(), "{key}");
            assert!(v["rootInfo"].get(key).is_none(), "{key}");
        }
    }

    #[test]
    fn filtered_moves_are_left_out_and_the_order_closes_up() {
        let size = BoardSize::new(9).unwrap();
        let mut options = SearchOptions::new(10, Perspective::SideToMove);
        options.filter.avoid[Color::White.index()].push(size.parse_move("D4").unwrap());
        let v = first_turn(size, &options, true, Some(&[0.5]));
        assert_eq!(v["moveInfos"][0]["move"], "C3");
        assert_eq!(v["moveInfos"][0]["order"], 0);
        assert_eq!(v["moveInfos"][0]["winrate"], 0.4);
        assert!(v.get("ownership").is_none());
        assert_eq!(v["policy"], json!([0.5]));
        assert_eq!(v["isDuringSearch"], true);
        assert_eq!(
            no_results("q", 2),
            r#"{"id":"q","isDuringSearch":false,"noResults":true,"turnNumber":2}"#
        );
    }
}
