//! Queries and their answers: every turn asked for, the optional fields, actions,
//! reports during the search, terminate, maxTime, and KataGo's command-line flags.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{Analysis, QUICK, binary, query};
use crate::support::process::run_with_input;

const OPENING: &[&str] = &["E5", "C3", "G7", "C7", "G3"];

#[test]
fn every_turn_asked_for_is_answered_once_with_its_visits() {
    let mut a = Analysis::start(QUICK);
    a.send(&query(
        "game",
        9,
        OPENING,
        json!({"analyzeTurns": [0, 1, 2, 3, 4, 5], "maxVisits": 40}),
    ));
    let out = a.finals(6, 60);
    let mut turns: Vec<u64> = out
        .iter()
        .map(|v| v["turnNumber"].as_u64().unwrap())
        .collect();
    turns.sort_unstable();
    assert_eq!(turns, vec![0, 1, 2, 3, 4, 5]);
    for v in &out {
        assert_eq!(v["id"], "game");
        assert_eq!(v["rootInfo"]["visits"], 40, "{v}");
        let visits: u64 = v["moveInfos"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["visits"].as_u64().unwrap())
            .sum();
        assert_eq!(visits, 40);
        // The side to move: Black at even turns, White at odd ones.
        let turn = v["turnNumber"].as_u64().unwrap();
        let player = if turn % 2 == 0 { "B" } else { "W" };
        assert_eq!(v["rootInfo"]["currentPlayer"], player);
    }
    let (rest, ok, _) = a.finish(30);
    assert!(rest.is_empty(), "{rest:?}");
    assert!(ok);
}

#[test]
fn optional_fields_come_when_asked() {
    let mut a = Analysis::start(QUICK);
    a.send(&query(
        "full",
        9,
        OPENING,
        json!({
            "includeOwnership": true, "includeOwnershipStdev": true,
            "includeMovesOwnership": true, "includeMovesOwnershipStdev": true,
            "includePolicy": true, "includePVVisits": true, "analysisPVLen": 3
        }),
    ));
    let v = a.next(60);
    assert_eq!(v["ownership"].as_array().unwrap().len(), 81, "{v}");
    assert_eq!(v["ownershipStdev"].as_array().unwrap().len(), 81);
    assert_eq!(v["policy"].as_array().unwrap().len(), 82);
    let best = &v["moveInfos"][0];
    assert_eq!(best["ownership"].as_array().unwrap().len(), 81, "{best}");
    assert_eq!(best["ownershipStdev"].as_array().unwrap().len(), 81);
    let pv = best["pv"].as_array().unwrap();
    assert!(!pv.is_empty() && pv.len() <= 3);
    assert_eq!(best["pvVisits"].as_array().unwrap().len(), pv.len());
    assert_eq!(best["pvVisits"][0], best["visits"]);
    // Without the flags, none of them.
    a.send(&query("bare", 9, OPENING, json!({})));
    let v = a.next(60);
    for key in ["ownership", "ownershipStdev", "policy"] {
        assert!(v.get(key).is_none(), "{key} in {v}");
    }
    assert!(v["moveInfos"][0].get("pvVisits").is_none());
}

#[test]
fn win_rates_are_blacks_unless_the_query_says_otherwise() {
    // White to move after Black's first stone: the same search reported from both sides.
    let mut a = Analysis::start(&["--threads", "1", "--seed", "5", "--quiet"]);
    a.send(&query("black", 9, &["E5"], json!({"maxVisits": 60})));
    let black = a.next(60);
    a.send(&query(
        "white",
        9,
        &["E5"],
        json!({"maxVisits": 60, "overrideSettings": {"reportAnalysisWinratesAs": "SIDETOMOVE"}}),
    ));
    let white = a.next(60);
    let rate = |v: &Value| v["rootInfo"]["winrate"].as_f64().unwrap();
    let lead = |v: &Value| v["rootInfo"]["scoreLead"].as_f64().unwrap();
    assert!(
        (rate(&black) + rate(&white) - 1.0).abs() < 1e-9,
        "{black} {white}"
    );
    assert!((lead(&black) + lead(&white)).abs() < 1e-9);
    // The spread of the final score is the same from either side; the playouts of a
    // board this open end far apart, through each move as from the root.
    let stdev = |v: &Value| v["rootInfo"]["scoreStdev"].as_f64().unwrap();
    assert_eq!(stdev(&black), stdev(&white));
    assert!(stdev(&black) > 0.0, "{black}");
    let best = &black["moveInfos"][0];
    assert_eq!(best["scoreStdev"], white["moveInfos"][0]["scoreStdev"]);
    assert!(best["scoreStdev"].as_f64().unwrap() > 0.0, "{black}");
}

/// `rootInfo` names the position: symmetric copies share `symHash`, not `thisHash`;
/// the utilities are the win/loss values of the win rates reported.
#[test]
fn root_hashes_name_the_position_and_utility_follows_the_win_rate() {
    let mut a = Analysis::start(QUICK);
    let mut roots = Vec::new();
    for (id, moves) in [
        ("a", ["C3", "E5"]),
        ("turned", ["G7", "E5"]),
        ("other", ["C3", "E6"]),
    ] {
        a.send(&query(id, 9, &moves, json!({"maxVisits": 20})));
        let v = a.next(60);
        assert_eq!(v["id"], id);
        let root = &v["rootInfo"];
        let rate = root["winrate"].as_f64().unwrap();
        assert!(
            (root["utility"].as_f64().unwrap() - (2.0 * rate - 1.0)).abs() < 1e-9,
            "{v}"
        );
        let best = &v["moveInfos"][0];
        let best_rate = best["winrate"].as_f64().unwrap();
        assert!((best["utility"].as_f64().unwrap() - (2.0 * best_rate - 1.0)).abs() < 1e-9);
        roots.push((root["thisHash"].clone(), root["symHash"].clone()));
    }
    assert!(
        roots.iter().all(|(t, s)| t.is_string() && s.is_string()),
        "{roots:?}"
    );
    assert_ne!(roots[0].0, roots[1].0);
    assert_eq!(roots[0].1, roots[1].1);
    assert_ne!(roots[0].1, roots[2].1);
    let (_, ok, _) = a.finish(30);
    assert!(ok);
}

#[test]
fn actions_are_echoed() {
    let mut a = Analysis::start(QUICK);
    a.send(&json!({"id": "v", "action": "query_version"}));
    let v = a.next(10);
    assert_eq!(v["id"], "v");
    assert_eq!(v["action"], "query_version");
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
    assert!(v["git_hash"].is_string());
    a.send(&json!({"id": "c", "action": "clear_cache"}));
    assert_eq!(a.next(10), json!({"id": "c", "action": "clear_cache"}));
}

#[test]
fn terminate_stops_running_and_queued_turns_with_one_final_answer_each() {
    let mut a = Analysis::start(&["--threads", "1", "--quiet"]);
    a.send(&query(
        "long",
        9,
        OPENING,
        json!({"analyzeTurns": [1, 2, 3], "maxVisits": 100_000_000,
               "reportDuringSearchEvery": 0.05}),
    ));
    // One turn is searching once it reports; the other two wait behind it (one search
    // at a time).
    let first = a.until(30, |v| v["isDuringSearch"] == json!(true));
    let running = first.last().unwrap()["turnNumber"].clone();
    let start = Instant::now();
    a.send(&json!({"id": "t", "action": "terminate", "terminateId": "long"}));
    let is_final = |v: &Value| v["id"] == "long" && v["isDuringSearch"] == json!(false);
    let out = a.until(30, |v| v["id"] == "t");
    let left = 3 - out.iter().filter(|v| is_final(v)).count();
    let finals = if left > 0 {
        a.finals(left, 30)
    } else {
        Vec::new()
    };
    let everything: Vec<&Value> = first.iter().chain(&out).chain(&finals).collect();
    let all: Vec<&Value> = everything.iter().copied().filter(|v| is_final(v)).collect();
    assert_eq!(all.len(), 3, "{everything:?}");
    assert!(start.elapsed() < Duration::from_secs(20));
    // The running turn answers what it found; the queued ones had no search.
    let searched: Vec<&&Value> = all
        .iter()
        .filter(|v| v.get("moveInfos").is_some())
        .collect();
    let empty = all.iter().filter(|v| v["noResults"] == json!(true)).count();
    assert_eq!((searched.len(), empty), (1, 2), "{all:?}");
    assert_eq!(searched[0]["turnNumber"], running, "{all:?}");
    // Only the running turn reported during the search.
    assert!(
        everything
            .iter()
            .filter(|v| v["isDuringSearch"] == json!(true))
            .all(|v| v["turnNumber"] == running),
        "{everything:?}"
    );
}

#[test]
fn reports_during_the_search_come_before_the_final_answer() {
    let mut a = Analysis::start(QUICK);
    a.send(&query(
        "live",
        9,
        OPENING,
        json!({"maxVisits": 100_000_000, "reportDuringSearchEvery": 0.1,
               "overrideSettings": {"maxTime": 0.8}}),
    ));
    let start = Instant::now();
    let out = a.finals(1, 30);
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "maxTime bounds the search"
    );
    let during = out
        .iter()
        .filter(|v| v["isDuringSearch"] == json!(true))
        .count();
    assert!(during >= 2, "{} reports during the search", during);
    let visits: Vec<u64> = out
        .iter()
        .map(|v| v["rootInfo"]["visits"].as_u64().unwrap())
        .collect();
    assert!(visits.windows(2).all(|w| w[0] <= w[1]), "{visits:?}");
}

#[test]
fn stdin_closed_mid_search_finishes_what_is_open_then_exits() {
    let mut a = Analysis::start(QUICK);
    for id in ["a", "b", "c"] {
        a.send(&query(id, 9, OPENING, json!({"maxVisits": 2000})));
    }
    let (out, ok, _) = a.finish(60);
    let mut ids: Vec<&str> = out.iter().map(|v| v["id"].as_str().unwrap()).collect();
    ids.sort_unstable();
    assert_eq!(ids, vec!["a", "b", "c"]);
    assert!(out.iter().all(|v| v["rootInfo"]["visits"] == 2000));
    assert!(ok);
    // Told not to wait, it stops what is open and answers it at once.
    let mut a = Analysis::start(&["--threads", "1", "--quiet", "-quit-without-waiting"]);
    for id in ["x", "y"] {
        a.send(&query(
            id,
            9,
            OPENING,
            json!({"maxVisits": 100_000_000, "reportDuringSearchEvery": 0.05}),
        ));
    }
    // Stdin closes while a search runs: after its first report.
    let reported = a.until(30, |v| v["isDuringSearch"] == json!(true));
    let (rest, ok, _) = a.finish(20);
    let out: Vec<&Value> = reported.iter().chain(&rest).collect();
    let mut finals: Vec<&str> = out
        .iter()
        .filter(|v| v["isDuringSearch"] == json!(false))
        .map(|v| v["id"].as_str().unwrap())
        .collect();
    finals.sort_unstable();
    assert_eq!(finals, vec!["x", "y"], "{out:?}");
    assert!(ok);
}

#[test]
fn katagos_flags_are_accepted_with_a_note_and_unknown_ones_refused() {
    let mut a = Analysis::start(&[
        "--threads",
        "1",
        "-model",
        "kata.bin.gz",
        "-config",
        "analysis.cfg",
        "-override-config",
        "homeDataDir=/tmp",
    ]);
    a.send(&query("k", 9, OPENING, json!({})));
    assert_eq!(a.next(60)["id"], "k");
    let (_, ok, stderr) = a.finish(30);
    assert!(ok);
    assert!(
        stderr.contains("ignoring KataGo's -model kata.bin.gz, -config analysis.cfg"),
        "{stderr}"
    );
    let out = std::process::Command::new(binary())
        .args(["analysis", "-bogus", "1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("unexpected argument \"-bogus\""),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

/// The closing note on stderr counts in words that agree with their numbers.
#[test]
fn the_closing_note_says_one_turn_in_the_singular() {
    let mut a = Analysis::start(&["--threads", "1", "--seed", "5"]);
    a.send(&query("one", 9, OPENING, json!({"maxVisits": 20})));
    assert_eq!(a.next(60)["id"], "one");
    let (_, ok, stderr) = a.finish(30);
    assert!(ok);
    assert!(
        stderr.contains("tengen analysis: 1 turn analysed, ") && stderr.contains(", 0 errors"),
        "{stderr}"
    );
}

/// What `tengen analysis --help` prints.
fn help() -> String {
    let help = std::process::Command::new(binary())
        .args(["analysis", "--help"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&help.stdout).into_owned()
}

/// The help says which boards the policy network rates: its own size and every size
/// from the engine's net_min_size up (13×13 by default), not 19×19 alone.
#[test]
fn the_help_names_the_boards_the_network_rates() {
    let help = help().replace(char::is_whitespace, " ");
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let get = run_with_input(
        std::process::Command::new(binary()).args(["gtp", "--quiet"]),
        "1 tengen-get net_min_size\nquit\n",
    );
    let answer = String::from_utf8_lossy(&get.stdout);
    let n: u32 = answer
        .trim()
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().last())
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("{answer}"));
    assert!(
        help.contains(&format!("It rates {n}x{n} and larger boards")),
        "{help}"
    );
    assert!(!help.contains("but 19x19"), "{help}");
}

#[test]
fn the_help_examples_run_as_written() {
    let help = help();
    let examples: Vec<&str> = help
        .split_once("Examples:")
        .expect("tengen analysis --help has examples")
        .1
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("tengen ") || l.starts_with("echo "))
        .collect();
    assert_eq!(examples.len(), 2, "{help}");
    let dir = binary().parent().unwrap().to_path_buf();
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for example in examples {
        let out = std::process::Command::new("bash")
            .args(["-euo", "pipefail", "-c", example])
            .env("PATH", &path)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{example}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            assert!(v.get("error").is_none(), "{example}: {line}");
        }
    }
}

/// The index of a vertex in KataGo's `policy` layout: row by row from the top left.
fn policy_index(vertex: &str, size: usize) -> usize {
    let letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    let x = letters.find(&vertex[..1]).expect("a column letter");
    let y: usize = vertex[1..].parse().expect("a row number");
    (size - y) * size + x
}

#[test]
fn a_moves_prior_is_the_policy_its_search_followed() {
    // The empty 19×19 board, the shipped network: each listed move's prior is its
    // share of the network's policy (the candidates are every legal move here, so the
    // share is includePolicy's value), far from flat.
    let mut a = Analysis::start(&["--threads", "1", "--seed", "5", "--quiet"]);
    a.send(&query(
        "empty",
        19,
        &[],
        json!({"maxVisits": 100, "includePolicy": true}),
    ));
    let v = a.next(120);
    let policy = v["policy"].as_array().unwrap();
    let mut infos: Vec<&Value> = v["moveInfos"].as_array().unwrap().iter().collect();
    assert!(infos.len() >= 3, "{v}");
    infos.sort_by(|x, y| {
        y["prior"]
            .as_f64()
            .unwrap()
            .total_cmp(&x["prior"].as_f64().unwrap())
    });
    for m in &infos[..3] {
        let mv = m["move"].as_str().unwrap();
        let prior = m["prior"].as_f64().unwrap();
        let wanted = policy[policy_index(mv, 19)].as_f64().unwrap();
        assert!(
            (prior - wanted).abs() < 0.002,
            "{mv}: prior {prior}, policy {wanted}"
        );
    }
    let top = infos[0]["prior"].as_f64().unwrap();
    assert!(top > 0.05, "a flat prior: {top}");
    let (_, ok, _) = a.finish(30);
    assert!(ok);
}

#[test]
fn one_playout_claims_no_certain_win() {
    // A short search leaves moves with one or two playouts: their values lean to the
    // root's, never a win rate of 0 or 1 nor a lone playout's score.
    let mut a = Analysis::start(&["--threads", "1", "--seed", "5", "--quiet"]);
    a.send(&query("short", 19, &[], json!({"maxVisits": 60})));
    let v = a.next(120);
    let root = &v["rootInfo"];
    let (root_rate, root_lead) = (
        root["winrate"].as_f64().unwrap(),
        root["scoreLead"].as_f64().unwrap(),
    );
    let few: Vec<&Value> = v["moveInfos"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["visits"].as_u64().unwrap() <= 2)
        .collect();
    assert!(!few.is_empty(), "no move with one or two playouts: {v}");
    for m in few {
        let rate = m["winrate"].as_f64().unwrap();
        // At most two playouts against two pseudo-playouts at the root's rate.
        assert!(
            (rate - root_rate).abs() <= 0.5 * (1.0 - root_rate.min(1.0 - root_rate)) + 1e-9,
            "{m}"
        );
        assert!(rate > 0.1 && rate < 0.9, "{m}");
        assert!(m["scoreStdev"].as_f64().unwrap() > 0.0, "{m}");
        let lead = m["scoreLead"].as_f64().unwrap();
        assert!((lead - root_lead).abs() < 120.0, "{m}");
    }
}

#[test]
fn the_lead_favours_the_side_the_win_rate_favours() {
    // Settled 5×5 boards (tests/data/rules/scoring.txt's: Black's area 15 points,
    // White's 10) at several komis, and the empty 19×19 board: the side the count puts
    // ahead is the side the win rate favours, and the lead says the same.
    let mut a = Analysis::start(&["--threads", "1", "--seed", "5", "--quiet"]);
    let mut stones = Vec::new();
    for row in 1..=5 {
        stones.push(json!(["B", format!("C{row}")]));
        stones.push(json!(["W", format!("D{row}")]));
    }
    let komis = [0.5, 3.5, 6.5, 9.5];
    for komi in komis {
        let mut q = query(&format!("komi {komi}"), 5, &[], json!({"maxVisits": 300}));
        q["initialStones"] = json!(stones);
        q["komi"] = json!(komi);
        a.send(&q);
    }
    a.send(&query("empty", 19, &[], json!({"maxVisits": 500})));
    let out = a.finals(komis.len() + 1, 240);
    for v in out.iter().filter(|v| v["isDuringSearch"] == json!(false)) {
        let root = &v["rootInfo"];
        let rate = root["winrate"].as_f64().unwrap();
        let lead = root["scoreLead"].as_f64().unwrap();
        assert_eq!(lead > 0.0, rate > 0.5, "{root}");
        let id = v["id"].as_str().unwrap();
        if let Some(komi) = id.strip_prefix("komi ") {
            // Black's count is 15 - 10 - komi.
            let black_ahead = komi.parse::<f64>().unwrap() < 5.0;
            assert_eq!(rate > 0.5, black_ahead, "{id}: {root}");
        } else {
            // Even by KataGo (about half a point for White at komi 7.5). Tengen's
            // lead is the median of random playouts' scores, which spread by some 75
            // points: at 500 visits it moves by about 3 points from seed to seed
            // (seeds 1 to 20: mean -1.0, standard deviation 3.2, none beyond 6.5;
            // this seed's is 5.5).
            assert!(lead.abs() < 10.0, "the empty board: {root}");
        }
    }
}
