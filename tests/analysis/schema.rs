//! The responses against KataGo's documented shape (its `docs/Analysis_Engine.md`):
//! every field's type and range, the keys of errors and warnings, and the relations the
//! document states (`order` from 0, `pv` starting with `move`, `policy` adding up to 1
//! with -1 for illegal moves, arrays of one value a point).

use serde_json::{Map, Value, json};

use super::{Analysis, QUICK, query};

type Check = Result<(), String>;

fn require<'a>(o: &'a Map<String, Value>, key: &str) -> Result<&'a Value, String> {
    o.get(key).ok_or_else(|| format!("missing {key}"))
}

fn unit(v: &Value, what: &str) -> Check {
    match v.as_f64() {
        Some(x) if (0.0..=1.0).contains(&x) => Ok(()),
        _ => Err(format!("{what} is not a number in [0, 1]: {v}")),
    }
}

fn number(v: &Value, what: &str) -> Check {
    v.as_f64()
        .map(|_| ())
        .ok_or_else(|| format!("{what} is not a number: {v}"))
}

/// A utility, in [-1, 1] (KataGo's may reach further with its score utility; Tengen
/// has none).
fn utility(v: &Value, what: &str) -> Check {
    match v.as_f64() {
        Some(x) if (-1.0..=1.0).contains(&x) => Ok(()),
        _ => Err(format!("{what} is not a number in [-1, 1]: {v}")),
    }
}

/// A position hash: hex digits.
fn hash(v: &Value, what: &str) -> Check {
    match v.as_str() {
        Some(h) if !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()) => Ok(()),
        _ => Err(format!("{what} is not a hex string: {v}")),
    }
}

/// A standard deviation: a number, never negative.
fn spread(v: &Value, what: &str) -> Check {
    match v.as_f64() {
        Some(x) if x >= 0.0 => Ok(()),
        _ => Err(format!("{what} is not a number at least 0: {v}")),
    }
}

fn count(v: &Value, what: &str) -> Result<u64, String> {
    v.as_u64()
        .ok_or_else(|| format!("{what} is not a count: {v}"))
}

fn vertex(v: &Value, area: usize) -> Check {
    let n = (area as f64).sqrt() as usize;
    let s = v
        .as_str()
        .ok_or_else(|| format!("move is not a string: {v}"))?;
    let size = tengen_board::BoardSize::new(n as u32).map_err(|e| e.to_string())?;
    size.parse_move(s)
        .map(|_| ())
        .map_err(|_| format!("not a vertex of {n}x{n}: {s}"))
}

/// One value a point, each in [lo, 1].
fn grid(v: &Value, area: usize, lo: f64, what: &str) -> Check {
    let a = v
        .as_array()
        .ok_or_else(|| format!("{what} is not an array"))?;
    if a.len() != area {
        return Err(format!("{what} has {} values, not {area}", a.len()));
    }
    for x in a {
        match x.as_f64() {
            Some(x) if (lo..=1.0).contains(&x) => {}
            _ => return Err(format!("{what} holds {x}, outside [{lo}, 1]")),
        }
    }
    Ok(())
}

/// Neither KataGo's network value fields (Tengen has no value network: they would be
/// made up) nor `scoreMean` (KataGo 1.17's analysis engine no longer sends it).
fn no_value_network(o: &Map<String, Value>, what: &str) -> Check {
    for key in [
        "rawWinrate",
        "rawLead",
        "rawScoreSelfplay",
        "rawScoreSelfplayStdev",
        "scoreMean",
    ] {
        if o.contains_key(key) {
            return Err(format!("{what} sends {key}"));
        }
    }
    Ok(())
}

/// The win rate and the score estimates of a moveInfo or the rootInfo (`at` before the
/// keys' names in an error: `""` or `"rootInfo."`).
fn estimates(o: &Map<String, Value>, at: &str) -> Check {
    unit(require(o, "winrate")?, &format!("{at}winrate"))?;
    number(require(o, "scoreLead")?, &format!("{at}scoreLead"))?;
    number(require(o, "scoreSelfplay")?, &format!("{at}scoreSelfplay"))?;
    spread(require(o, "scoreStdev")?, &format!("{at}scoreStdev"))
}

/// An analysis response of a board of `area` points.
pub fn check_analysis(v: &Value, area: usize) -> Check {
    let o = v.as_object().ok_or("not an object")?;
    require(o, "id")?.as_str().ok_or("id is not a string")?;
    count(require(o, "turnNumber")?, "turnNumber")?;
    require(o, "isDuringSearch")?
        .as_bool()
        .ok_or("isDuringSearch is not a boolean")?;
    if o.get("noResults") == Some(&json!(true)) {
        return Ok(());
    }
    let infos = require(o, "moveInfos")?
        .as_array()
        .ok_or("moveInfos is not an array")?;
    for (i, m) in infos.iter().enumerate() {
        let m = m.as_object().ok_or("a moveInfo is not an object")?;
        vertex(require(m, "move")?, area)?;
        let visits = count(require(m, "visits")?, "visits")?;
        // KataGo 1.17's: in Tengen's tree a position has one path, so a move's edge
        // visits are its visits.
        if count(require(m, "edgeVisits")?, "edgeVisits")? != visits {
            return Err(format!(
                "edgeVisits {} is not visits {visits}",
                m["edgeVisits"]
            ));
        }
        for key in ["weight", "edgeWeight"] {
            spread(require(m, key)?, key)?;
        }
        number(require(m, "playSelectionValue")?, "playSelectionValue")?;
        estimates(m, "")?;
        no_value_network(m, "a moveInfo")?;
        unit(require(m, "prior")?, "prior")?;
        number(require(m, "lcb")?, "lcb")?;
        for key in ["utility", "utilityLcb"] {
            if let Some(u) = m.get(key) {
                utility(u, key)?;
            }
        }
        if count(require(m, "order")?, "order")? != i as u64 {
            return Err(format!("order {} at position {i}", m["order"]));
        }
        let pv = require(m, "pv")?.as_array().ok_or("pv is not an array")?;
        if pv.first().is_some_and(|first| first != &m["move"]) {
            return Err(format!("pv {pv:?} does not start with {}", m["move"]));
        }
        for p in pv {
            vertex(p, area)?;
        }
        if let Some(visits) = m.get("pvVisits") {
            let visits = visits.as_array().ok_or("pvVisits is not an array")?;
            if visits.len() != pv.len() || visits.iter().any(|x| x.as_u64().is_none()) {
                return Err(format!("pvVisits {visits:?} does not match pv {pv:?}"));
            }
        }
        if let Some(own) = m.get("ownership") {
            grid(own, area, -1.0, "a move's ownership")?;
        }
    }
    let root = require(o, "rootInfo")?
        .as_object()
        .ok_or("rootInfo is not an object")?;
    estimates(root, "rootInfo.")?;
    count(require(root, "visits")?, "rootInfo.visits")?;
    spread(require(root, "weight")?, "rootInfo.weight")?;
    no_value_network(root, "rootInfo")?;
    if let Some(u) = root.get("utility") {
        utility(u, "rootInfo.utility")?;
    }
    for key in ["thisHash", "symHash"] {
        if let Some(h) = root.get(key) {
            hash(h, key)?;
        }
    }
    if let Some(own) = o.get("ownership") {
        grid(own, area, -1.0, "ownership")?;
    }
    if let Some(stdev) = o.get("ownershipStdev") {
        grid(stdev, area, 0.0, "ownershipStdev")?;
    }
    if let Some(policy) = o.get("policy") {
        let p = policy.as_array().ok_or("policy is not an array")?;
        if p.len() != area + 1 {
            return Err(format!("policy has {} values, not {}", p.len(), area + 1));
        }
        let mut sum = 0.0;
        for x in p {
            match x.as_f64() {
                Some(-1.0) => {}
                Some(x) if x > 0.0 && x <= 1.0 => sum += x,
                _ => return Err(format!("policy holds {x}")),
            }
        }
        if (sum - 1.0).abs() > 1e-6 {
            return Err(format!("policy adds up to {sum}"));
        }
    }
    Ok(())
}

/// An error or warning: exactly KataGo's keys.
pub fn check_notice(v: &Value) -> Check {
    let o = v.as_object().ok_or("not an object")?;
    let kind = if o.contains_key("error") {
        "error"
    } else {
        "warning"
    };
    o.get(kind)
        .and_then(Value::as_str)
        .ok_or(format!("{kind} is not a string"))?;
    for key in o.keys() {
        if ![kind, "field", "id"].contains(&key.as_str()) {
            return Err(format!("unexpected key {key} in {v}"));
        }
    }
    if kind == "warning" && !(o.contains_key("field") && o.contains_key("id")) {
        return Err(format!("a warning without field and id: {v}"));
    }
    if o.contains_key("field") != o.contains_key("id") {
        return Err(format!("field and id go together: {v}"));
    }
    Ok(())
}

#[test]
fn responses_have_katagos_documented_shape() {
    let mut a = Analysis::start(QUICK);
    let all = json!({
        "includeOwnership": true, "includeOwnershipStdev": true, "includeMovesOwnership": true,
        "includeMovesOwnershipStdev": true, "includePolicy": true, "includePVVisits": true,
        "analyzeTurns": [0, 1, 2], "reportDuringSearchEvery": 0.05, "maxVisits": 400,
        "unknownField": 1
    });
    a.send(&query("nine", 9, &["E5", "pass"], all.clone()));
    a.send(&query(
        "nineteen",
        19,
        &["Q16", "D4", "Q4"],
        json!({"includePolicy": true}),
    ));
    a.send(&query("bad", 9, &["E5", "E5"], json!({})));
    a.send_raw(b"{oops");
    let out = a.finals(4, 120);
    let (rest, ok, _) = a.finish(60);
    assert!(ok);
    let mut analyses = 0;
    let mut notices = 0;
    for v in out.iter().chain(&rest) {
        let area = if v["id"] == "nineteen" { 361 } else { 81 };
        let result = if v.get("error").is_some() || v.get("warning").is_some() {
            notices += 1;
            check_notice(v)
        } else {
            analyses += 1;
            check_analysis(v, area)
        };
        if let Err(e) = result {
            panic!("{e}\nin {v}");
        }
    }
    assert!(analyses >= 4, "{analyses} analyses");
    assert_eq!(
        notices, 3,
        "unknownField's warning, bad's and oops's errors"
    );
}

#[test]
fn the_checker_refuses_what_katago_would_not_send() {
    let good = json!({"id": "x", "turnNumber": 0, "isDuringSearch": false,
        "moveInfos": [{"move": "E5", "visits": 3, "edgeVisits": 3, "weight": 3.0,
                        "edgeWeight": 3.0, "playSelectionValue": 3.0, "winrate": 0.5,
                        "scoreLead": 1.0, "scoreSelfplay": 1.0, "scoreStdev": 4.5,
                        "prior": 0.2, "lcb": 0.4, "order": 0, "pv": ["E5"]}],
        "rootInfo": {"winrate": 0.5, "scoreLead": 1.0, "scoreSelfplay": 1.0,
                     "scoreStdev": 4.5, "visits": 3, "weight": 3.0}});
    assert_eq!(check_analysis(&good, 81), Ok(()));
    let broken = |path: &[&str], value: Value| {
        let mut v = good.clone();
        let mut at = &mut v;
        for p in &path[..path.len() - 1] {
            at = match p.parse::<usize>() {
                Ok(i) => &mut at[i],
                Err(_) => &mut at[*p],
            };
        }
        at[path[path.len() - 1]] = value;
        check_analysis(&v, 81)
    };
    assert!(broken(&["moveInfos", "0", "winrate"], json!(1.5)).is_err());
    assert!(broken(&["moveInfos", "0", "move"], json!("Z9")).is_err());
    assert!(broken(&["moveInfos", "0", "order"], json!(1)).is_err());
    assert!(broken(&["moveInfos", "0", "pv"], json!(["D4"])).is_err());
    assert!(broken(&["rootInfo", "visits"], json!(-1)).is_err());
    assert!(broken(&["moveInfos", "0", "scoreStdev"], json!(-0.5)).is_err());
    assert!(broken(&["rootInfo", "scoreStdev"], json!("wide")).is_err());
    assert!(broken(&["moveInfos", "0", "edgeVisits"], json!(2)).is_err());
    assert!(broken(&["moveInfos", "0", "weight"], json!(-1.0)).is_err());
    assert!(broken(&["moveInfos", "0", "rawWinrate"], json!(0.5)).is_err());
    assert!(broken(&["rootInfo", "rawLead"], json!(0.0)).is_err());
    assert!(broken(&["rootInfo", "scoreMean"], json!(1.0)).is_err());
    assert!(broken(&["policy"], json!([0.5])).is_err());
    assert!(broken(&["ownership"], json!(vec![2.0; 81])).is_err());
    assert!(check_notice(&json!({"error": "x", "id": "a"})).is_err());
    assert!(check_notice(&json!({"warning": "x"})).is_err());
    assert!(check_notice(&json!({"error": "x", "extra": 1})).is_err());
    assert_eq!(check_notice(&json!({"error": "x"})), Ok(()));
}
