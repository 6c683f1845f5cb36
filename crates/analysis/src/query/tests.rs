//! Parsing and checking of query lines: every field's errors in KataGo's words, the
//! warnings, and what a good query becomes.

use super::*;
use crate::notice::Severity;
use serde_json::json;

const DEFAULTS: Defaults = Defaults {
    max_visits: 500,
    perspective: Perspective::Black,
};

fn parse(v: Value) -> Result<Request, Notice> {
    parse_line(v.to_string().as_bytes(), &DEFAULTS)
}

fn query(v: Value) -> Query {
    match parse(v) {
        Ok(Request::Analyze(q)) => *q,
        other => panic!("expected a query, got {other:?}"),
    }
}

fn base() -> Value {
    json!({
        "id": "q1", "rules": "japanese", "komi": 6.5, "boardXSize": 19, "boardYSize": 19,
        "moves": [["B", "Q16"], ["W", "D4"]]
    })
}

fn with(mut v: Value, key: &str, value: Value) -> Value {
    v.as_object_mut().unwrap().insert(key.to_string(), value);
    v
}

fn error_of(v: Value) -> Notice {
    let n = parse(v).expect_err("an error");
    assert_eq!(n.severity, Severity::Error);
    n
}

#[test]
fn a_katrain_query_reads_with_its_defaults() {
    let q = query(base());
    assert_eq!(q.id, "q1");
    assert_eq!(q.turns, vec![(2, 0)], "the last turn by default");
    assert_eq!(q.position.turns(), 3);
    assert_eq!(q.options.max_visits, 500);
    assert_eq!(q.options.perspective, Perspective::Black);
    assert!(q.warnings.is_empty(), "{:?}", q.warnings);
    let q = query(with(
        with(base(), "analyzeTurns", json!([2, 0, 2])),
        "priority",
        json!(7),
    ));
    assert_eq!(q.turns, vec![(0, 7), (2, 7)]);
}

#[test]
fn malformed_lines_get_general_errors() {
    for (line, start) in [
        (&b"{\"id\": "[..], "EOF while parsing"),
        (b"not json", "expected ident"),
        (
            b"[1,2]",
            "Request line was valid json but was not an object",
        ),
        (b"{\"id\": 5}", "Request must have a string \"id\" field"),
        (
            b"{\"moves\": []}",
            "Request must have a string \"id\" field",
        ),
        (b"\xff\xfe", "expected value"),
    ] {
        let n = parse_line(line, &DEFAULTS).expect_err("an error");
        assert_eq!((n.id.as_deref(), n.field.as_deref()), (None, None));
        assert!(n.message.contains(start), "{:?}: {}", line, n.message);
    }
    let deep = "[".repeat(100_000);
    let n = parse_line(deep.as_bytes(), &DEFAULTS).expect_err("too deep");
    assert!(n.message.contains("recursion limit"), "{}", n.message);
}

/// Fails the test unless the query `v` is refused with an error that names the query's
/// id and `field` and says `words`.
fn assert_names(v: Value, field: &str, words: &str) {
    let n = error_of(v.clone());
    assert_eq!(n.id.as_deref(), Some("q1"), "{v}");
    assert_eq!(n.field.as_deref(), Some(field), "{v}: {}", n.message);
    assert!(n.message.contains(words), "{v}: {}", n.message);
}

#[test]
fn each_bad_field_is_named_with_the_query_id() {
    // (a field, the bad value it is given, as JSON, and words of the error that names it)
    let cases = [
        ("boardXSize", "30", "Must provide an integer from 2 to 25"),
        ("boardYSize", "13", "square boards only"),
        ("boardXSize", "19.5", "integer"),
        (
            "moves",
            r#"[["B", "Q16"], ["W", "Q16"]]"#,
            "Illegal move 1: Q16",
        ),
        ("moves", r#"[["X", "Q16"]]"#, "Could not parse player: X"),
        (
            "moves",
            r#"[["B", "Z99"]]"#,
            "Could not parse board location: Z99",
        ),
        ("moves", r#"[["B"]]"#, "Must be an array of pairs"),
        ("moves", r#""Q16""#, "Must be an array of pairs"),
        ("initialStones", r#"[["B", "pass"]]"#, "pass"),
        ("initialPlayer", r#""red""#, "Must be \"b\" or \"w\""),
        ("analyzeTurns", "[3]", "Invalid turn number: 3"),
        ("analyzeTurns", "[-1]", "Invalid turn number: -1"),
        ("analyzeTurns", r#""all""#, "array of integers"),
        ("rules", r#""stone_scoring""#, "group tax"),
        ("komi", "6.3", "half-integer"),
        ("komi", "300", "-150.0 to 150.0"),
        ("maxVisits", "0", "from 1 to 2^50"),
        ("includeOwnership", r#""yes""#, "Must be a boolean"),
        ("reportDuringSearchEvery", "0", "seconds"),
        ("priority", "1.5", "between -2^62 and 2^62"),
        ("priorities", "[1]", "analyzeTurns"),
        ("overrideSettings", "[]", "Must be an object"),
        (
            "overrideSettings",
            r#"{"maxTime": "x"}"#,
            "Could not set settings: maxTime",
        ),
        ("whiteHandicapBonus", r#""2""#, "0, N or N-1"),
        (
            "avoidMoves",
            r#"[{"player": "B", "moves": ["D4"]}]"#,
            "subfields",
        ),
        (
            "avoidMoves",
            r#"[{"player": "B", "moves": ["Z0"], "untilDepth": 1}]"#,
            "Could not parse board location",
        ),
        (
            "avoidMoves",
            r#"[{"player": "B", "moves": [], "untilDepth": 0}]"#,
            "positive integer",
        ),
        (
            "allowMoves",
            r#"[{"player": "B", "moves": [], "untilDepth": 1}, {"player": "W", "moves": [], "untilDepth": 1}]"#,
            "only allows one entry",
        ),
    ];
    for (field, value, words) in cases {
        let v = with(base(), field, serde_json::from_str(value).unwrap());
        assert_names(v, field, words);
    }
    // Two fields at fault together: the error names one of them.
    let both = |a, b, value: Value| with(with(base(), a, value.clone()), b, value);
    assert_names(
        both("boardXSize", "boardYSize", json!(30)),
        "boardXSize",
        "2 to 25",
    );
    let moves = both("avoidMoves", "allowMoves", json!([]));
    assert_names(moves, "allowMoves", "Cannot specify both");
    let mut no_rules = base();
    no_rules.as_object_mut().unwrap().remove("rules");
    assert_eq!(error_of(no_rules).field.as_deref(), Some("rules"));
    let mut no_moves = base();
    no_moves.as_object_mut().unwrap().remove("moves");
    assert_eq!(error_of(no_moves).field.as_deref(), Some("moves"));
}

#[test]
fn unknown_fields_and_ignored_settings_are_warnings() {
    let v = with(
        with(base(), "frobnicate", json!(1)),
        "overrideSettings",
        json!({"reportAnalysisWinratesAs": "SIDETOMOVE", "wideRootNoise": 0.04, "maxTime": 2}),
    );
    let v = with(v, "rootPolicyTemperature", json!(1.5));
    let q = query(v);
    let fields: Vec<&str> = q
        .warnings
        .iter()
        .filter_map(|w| w.field.as_deref())
        .collect();
    assert_eq!(
        fields,
        vec!["overrideSettings", "rootPolicyTemperature", "frobnicate"]
    );
    assert!(q.warnings.iter().all(|w| w.severity == Severity::Warning));
    assert!(q.warnings[0].message.contains("wideRootNoise"));
    assert!(
        q.warnings[2]
            .message
            .starts_with("Unexpected or unused field")
    );
    assert_eq!(q.options.perspective, Perspective::SideToMove);
    assert_eq!(q.options.max_time, Some(Duration::from_secs(2)));
}

#[test]
fn optional_fields_are_read() {
    let v = json!({
        "id": "o", "rules": {"ko": "SIMPLE", "scoring": "AREA"}, "boardXSize": 9,
        "boardYSize": 9, "moves": [], "initialStones": [["B", "E5"], ["W", "(2,2)"]],
        "initialPlayer": "W", "maxVisits": 77, "analysisPVLen": 4, "includeOwnership": true,
        "includeOwnershipStdev": true, "includeMovesOwnership": true,
        "includeMovesOwnershipStdev": true, "includePolicy": true, "includePVVisits": true,
        "reportDuringSearchEvery": 0.5, "firstReportDuringSearchAfter": 0.1,
        "analyzeTurns": [0], "priorities": [3],
        "allowMoves": [{"player": "W", "moves": ["C3", "pass"], "untilDepth": 2}]
    });
    let q = query(v);
    let o = &q.options;
    assert_eq!((o.max_visits, o.pv_len), (77, 4));
    assert!(o.ownership && o.ownership_stdev && o.moves_ownership && o.moves_ownership_stdev);
    assert!(o.policy && o.pv_visits);
    assert_eq!(o.report_every, Some(Duration::from_millis(500)));
    assert_eq!(o.first_report, Some(Duration::from_millis(100)));
    assert_eq!(q.turns, vec![(0, 3)]);
    let size = q.position.size();
    assert_eq!(
        o.filter.allow[Color::White.index()],
        Some(vec![size.parse_move("C3").unwrap(), Move::Pass])
    );
    let fields: Vec<&str> = q
        .warnings
        .iter()
        .filter_map(|w| w.field.as_deref())
        .collect();
    assert_eq!(fields, vec!["allowMoves"]);
    assert!(
        q.warnings[0].message.contains("untilDepth"),
        "{}",
        q.warnings[0].message
    );
    let g = q.position.game_at(0).unwrap();
    assert_eq!(g.to_move(), Color::White);
    assert_eq!(
        g.board().color_at(size.parse_point("C7").unwrap()),
        Some(Color::White)
    );
}

#[test]
fn actions_are_read() {
    assert!(matches!(
        parse(json!({"id": "v", "action": "query_version"})),
        Ok(Request::Version(_))
    ));
    assert!(matches!(
        parse(json!({"id": "c", "action": "clear_cache"})),
        Ok(Request::ClearCache(_))
    ));
    let Ok(Request::Terminate { target, turns, .. }) = parse(
        json!({"id": "t", "action": "terminate", "terminateId": "q1", "turnNumbers": [1, 2]}),
    ) else {
        panic!("a terminate");
    };
    assert_eq!((target.as_deref(), turns), (Some("q1"), Some(vec![1, 2])));
    let Ok(Request::Terminate { target: None, .. }) =
        parse(json!({"id": "t", "action": "terminate_all"}))
    else {
        panic!("a terminate_all");
    };
    for (v, field) in [
        (json!({"id": "t", "action": "terminate"}), "terminateId"),
        (
            json!({"id": "t", "action": "terminate", "terminateId": "x", "turnNumbers": "1"}),
            "turnNumbers",
        ),
        (json!({"id": "t", "action": "explode"}), "action"),
        (json!({"id": "t", "action": 3}), "action"),
    ] {
        let n = error_of(v);
        assert_eq!(
            (n.id.as_deref(), n.field.as_deref()),
            (Some("t"), Some(field))
        );
    }
}
