//! Bad input: each line gets a clear error naming its query's id (or none), nothing
//! crashes, and the other queries are still answered.

use serde_json::{Value, json};

use super::{Analysis, QUICK, query};

/// The error or warning lines of `out`, as (id, field, message).
fn notices<'a>(out: &'a [Value], key: &str) -> Vec<(Option<&'a str>, Option<&'a str>, &'a str)> {
    out.iter()
        .filter_map(|v| {
            let message = v.get(key)?.as_str()?;
            Some((v["id"].as_str(), v["field"].as_str(), message))
        })
        .collect()
}

#[test]
fn every_bad_line_gets_an_error_and_the_good_ones_their_analysis() {
    let mut a = Analysis::start(QUICK);
    a.send_raw(b"{\"id\": \"broken\", \"moves\": [");
    a.send_raw(b"[\"not\", \"an\", \"object\"]");
    a.send(&query("illegal", 9, &["E5", "E5"], json!({})));
    a.send(&query("huge", 30, &[], json!({})));
    a.send(&query("oblong", 19, &[], json!({"boardYSize": 13})));
    a.send(&query("typo", 9, &["E5"], json!({"maxVisit": 10})));
    a.send(&query(
        "suicide",
        9,
        &["A2", "E5", "B1", "A1"],
        json!({"rules": "japanese"}),
    ));
    a.send(&query("good", 9, &["E5"], json!({})));
    let out = a.until(60, |v| v["id"] == "good" && v.get("moveInfos").is_some());
    let errors = notices(&out, "error");
    let by_id = |id: Option<&str>| errors.iter().find(|e| e.0 == id).copied();
    let (_, field, message) = by_id(None).expect("the malformed line's error");
    assert_eq!(field, None);
    assert!(
        message.contains("could not parse input line as json request"),
        "{message}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.0.is_none() && e.2.contains("not an object")),
        "{errors:?}"
    );
    for (id, field, words) in [
        ("illegal", "moves", "Illegal move 1: E5"),
        ("huge", "boardXSize", "Must provide an integer from 2 to 25"),
        ("oblong", "boardYSize", "square boards only"),
        ("suicide", "moves", "Illegal move 3: A1"),
    ] {
        let (_, f, m) = by_id(Some(id)).unwrap_or_else(|| panic!("no error for {id}: {out:?}"));
        assert_eq!(f, Some(field), "{id}");
        assert!(m.contains(words), "{id}: {m}");
    }
    let warnings = notices(&out, "warning");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].0, Some("typo"));
    assert_eq!(warnings[0].1, Some("maxVisit"));
    // The warned query is answered too.
    let typo = out
        .iter()
        .any(|v| v["id"] == "typo" && v.get("moveInfos").is_some());
    let more = if typo {
        Vec::new()
    } else {
        a.until(60, |v| v["id"] == "typo")
    };
    assert!(typo || more.last().is_some_and(|v| v.get("moveInfos").is_some()));
    let (_, ok, _) = a.finish(30);
    assert!(ok);
}

#[test]
fn a_hundred_megabyte_line_is_refused_by_its_id_without_holding_it() {
    let mut a = Analysis::start(QUICK);
    let mut line =
        br#"{"id":"big","moves":[],"rules":"chinese","boardXSize":9,"boardYSize":9,"pad":""#
            .to_vec();
    line.resize(line.len() + (100 << 20), b'x');
    line.extend_from_slice(b"\"}");
    a.send_raw(&line);
    drop(line);
    a.send(&query("after", 9, &[], json!({})));
    let out = a.until(120, |v| v["id"] == "after");
    let big = &out[0];
    assert_eq!(big["id"], "big", "{big}");
    assert!(
        big["error"].as_str().unwrap().contains("longer than"),
        "{big}"
    );
    assert!(out.last().unwrap().get("moveInfos").is_some());
    let rss = resident_mib(a.pid());
    assert!(rss < 200, "{rss} MiB resident after a 100 MB line");
}

#[test]
fn ten_thousand_queries_in_flight_are_queued_and_all_answered() {
    let mut a = Analysis::start(&["--threads", "2", "--memory", "64", "--quiet"]);
    // Each would search for hours: they wait in the queue until terminate_all.
    for i in 0..10_000 {
        a.send(&query(
            &format!("q{i}"),
            19,
            &["Q16", "D4"],
            json!({"maxVisits": 1_000_000_000}),
        ));
    }
    // Lines are read in order and an action is answered as it is read: once the
    // version comes back, every query before it is queued.
    a.send(&json!({"id": "read", "action": "query_version"}));
    let queued = a.until(120, |v| v["id"] == "read");
    assert_eq!(queued.len(), 1, "{:?}", &queued[..queued.len().min(3)]);
    let rss = resident_mib(a.pid());
    assert!(rss < 400, "{rss} MiB resident with 10 000 queries open");
    a.send(&json!({"id": "stop", "action": "terminate_all"}));
    let mut answered = std::collections::HashSet::new();
    let out = a.until(120, |v| {
        if v["isDuringSearch"] == json!(false) {
            answered.insert(v["id"].as_str().unwrap_or_default().to_string());
        }
        answered.len() == 10_000
    });
    assert!(
        out.iter().all(|v| v.get("error").is_none()),
        "no query refused"
    );
    let (rest, ok, _) = a.finish(60);
    assert!(ok);
    assert!(rest.iter().all(|v| v["id"] == "stop"), "{rest:?}");
}

/// The resident memory of a process, in MiB (Linux), 0 where it cannot be read.
fn resident_mib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb / 1024)
}
