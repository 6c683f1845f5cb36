//! The fuzz target's properties (`fuzz/fuzz_targets/analysis_query.rs`) as property
//! tests, so that `cargo test` checks them without nightly: arbitrary bytes, and
//! KaTrain-like queries with fields replaced by arbitrary JSON, never panic; a refused
//! line gets a JSON error naming the query's id when it has a string one; an accepted
//! query's turns can be rebuilt.

use proptest::prelude::*;
use serde_json::{Value, json};
use tengen_analysis::line::{Line, LineReader};
use tengen_analysis::{Defaults, Perspective, Request, Severity, parse_line};

const DEFAULTS: Defaults = Defaults {
    max_visits: 10,
    perspective: Perspective::Black,
};

fn check(text: &[u8]) {
    let id = serde_json::from_slice::<Value>(text)
        .ok()
        .and_then(|v| v.get("id").and_then(Value::as_str).map(String::from));
    match parse_line(text, &DEFAULTS) {
        Err(n) => {
            assert_eq!(n.severity, Severity::Error);
            let v: Value = serde_json::from_str(&n.to_json()).expect("an error is JSON");
            assert!(v.is_object());
            if n.id.is_some() {
                assert_eq!(n.id, id);
            }
        }
        Ok(Request::Analyze(q)) => {
            assert_eq!(Some(&q.id), id.as_ref());
            for &(turn, _) in &q.turns {
                q.position
                    .game_at(turn)
                    .expect("an accepted record replays");
            }
        }
        Ok(_) => {}
    }
}

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (-1e6f64..1e6).prop_map(|x| json!(x)),
        "[A-Za-z0-9(), -]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(("[a-z]{1,6}", inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn katrain_query() -> Value {
    json!({
        "id": "k", "rules": "japanese", "priority": 1001, "analyzeTurns": [3], "maxVisits": 500,
        "komi": 6.5, "boardXSize": 19, "boardYSize": 19, "includeOwnership": true,
        "includeMovesOwnership": true, "includePolicy": true, "initialStones": [],
        "initialPlayer": "B", "moves": [["B", "Q16"], ["W", "D4"], ["B", "Q3"]],
        "overrideSettings": {"reportAnalysisWinratesAs": "BLACK", "wideRootNoise": 0.04, "maxTime": 8.0},
        "reportDuringSearchEvery": 1
    })
}

const FIELDS: &[&str] = &[
    "id",
    "rules",
    "priority",
    "analyzeTurns",
    "maxVisits",
    "komi",
    "boardXSize",
    "boardYSize",
    "includeOwnership",
    "includePolicy",
    "initialStones",
    "initialPlayer",
    "moves",
    "overrideSettings",
    "reportDuringSearchEvery",
    "avoidMoves",
    "allowMoves",
    "priorities",
    "action",
    "terminateId",
    "turnNumbers",
    "whiteHandicapBonus",
    "analysisPVLen",
];

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..512)) {
        let mut lines = LineReader::new(&data[..], 64);
        while let Ok(Some(line)) = lines.next_line() {
            if let Line::Text(text) = line {
                check(&text);
            }
        }
    }

    #[test]
    fn katrain_queries_with_any_field_replaced_never_panic(
        changes in prop::collection::vec((0..FIELDS.len(), any_json()), 1..4)
    ) {
        let mut q = katrain_query();
        for (field, value) in changes {
            q[FIELDS[field]] = value;
        }
        check(q.to_string().as_bytes());
    }
}
