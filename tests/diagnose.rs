//! `tengen diagnose` through the real binary: a constructed game whose group dies at
//! move 59 is found and classified as such, by Tengen and with Tengen itself as the
//! referee over GTP; a match directory is read through its journal; a game the referee
//! cannot set up, or a referee that breaks, costs the run only the referee's opinion
//! of that game; bad input is a clear error and writes nothing.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::support::process::{succeeded, tengen};
use crate::support::scratch::fresh_dir;

/// White's four stones F7 G7 H7 G8 surrounded from move 45, captured at move 59.
fn group_dies() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/diagnose/group-dies-13.sgf")
}

/// A record in `tests/data/diagnose`.
fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/diagnose")
        .join(name)
}

/// Tengen itself as the referee, at a small search.
fn tengen_referee() -> String {
    format!(
        "{} --playouts 300 --threads 1 --quiet",
        env!("CARGO_BIN_EXE_tengen")
    )
}

/// Quick, repeatable settings.
const FAST: &[&str] = &["--playouts", "3000", "--threads", "1", "--seed", "5"];

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `tengen diagnose` with `args` and the quick settings, its JSON report written to
/// `json`.
fn run_diagnose(args: &[&str], json: &Path) -> Output {
    tengen(&[&["diagnose"], args, FAST, &["--json", s(json)]].concat())
}

/// The arguments that study `studied`'s games in `records` with the GTP engine
/// `referee` beside Tengen, a Markdown report written to `md`.
fn refereed<'a>(records: &[&'a str], referee: &'a str, md: &'a Path) -> Vec<&'a str> {
    let rest = [
        "--engine",
        "studied",
        "--referee-engine",
        referee,
        "--markdown",
        s(md),
    ];
    [records, &rest].concat()
}

/// Runs a diagnosis that must succeed and returns its JSON.
fn diagnose(args: &[&str], json: &Path) -> Value {
    succeeded(&run_diagnose(args, json));
    serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap()
}

#[test]
fn a_group_that_dies_at_move_59_is_classified_as_a_dead_group() {
    let dir = fresh_dir("diagnose", "group");
    let json = dir.path().join("d.json");
    let record = group_dies();
    let v = diagnose(&[s(&record), "--engine", "studied"], &json);
    assert_eq!(v["games"], 1);
    assert_eq!(v["lost"], 1);
    let d = &v["diagnoses"][0];
    assert_eq!(d["color"], "W");
    assert_eq!(d["largest_drop"]["from"], 40);
    assert_eq!(d["largest_drop"]["to"], 60);
    assert_eq!(d["largest_drop"]["phase"], "middle_game");
    assert_eq!(d["kind"]["kind"], "group_died");
    let mut stones: Vec<&str> = d["kind"]["stones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    stones.sort();
    assert_eq!(stones, ["F7", "G7", "G8", "H7"]);
    assert_eq!(d["first_below"]["moves"], 60);
    // The side that won is not studied: nothing lost.
    let v = diagnose(&[s(&record), "--engine", "attacker"], &json);
    assert_eq!(
        (v["games"].as_u64(), v["lost"].as_u64()),
        (Some(1), Some(0))
    );
}

#[test]
fn a_gtp_referee_evaluates_beside_tengen_and_a_match_directory_is_read_by_its_journal() {
    let dir = fresh_dir("diagnose", "referee");
    let m = dir.path().join("m");
    std::fs::create_dir(&m).unwrap();
    std::fs::copy(group_dies(), m.join("game-0001.sgf")).unwrap();
    std::fs::write(
        m.join("journal.jsonl"),
        "{\"game\":1,\"black\":\"attacker\",\"white\":\"studied\",\"winner\":\"B\",\
         \"result\":\"B+R\",\"reason\":\"resign\",\"moves\":70,\"sgf\":\"game-0001.sgf\"}\n",
    )
    .unwrap();
    let md = dir.path().join("d.md");
    let json = dir.path().join("d.json");
    let v = diagnose(&refereed(&[s(&m)], &tengen_referee(), &md), &json);
    let rows = v["diagnoses"][0]["positions"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    // After the capture the referee sees White lost too.
    let after = rows[2]["referee"].as_f64().unwrap();
    assert!(after < 0.35, "{after}");
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.contains("largest drop (referee)"), "{text}");
    assert!(text.contains("**group died**"), "{text}");
}

#[test]
fn bad_input_is_a_clear_error_and_writes_nothing() {
    let dir = fresh_dir("diagnose", "bad");
    let json = dir.path().join("d.json");
    let record = group_dies();
    let cases: [(&[&str], &str); 5] = [
        (
            &[s(&record), "--engine", "nobody"],
            "\"nobody\" is not a player of the record read",
        ),
        (
            &[s(&record), s(&record), "--engine", "nobody"],
            "\"nobody\" is a player of none of the 2 records read",
        ),
        (
            &["/nonexistent.sgf", "--engine", "x"],
            "cannot read /nonexistent.sgf",
        ),
        (
            &[
                s(&record),
                "--engine",
                "studied",
                "--referee-engine",
                "/nonexistent/pachi",
            ],
            "referee engine: /nonexistent/pachi",
        ),
        (
            &[s(&record), "--engine", "studied", "--threshold", "0"],
            "--threshold",
        ),
    ];
    for (args, said) in cases {
        let out = run_diagnose(args, &json);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.contains(said), "{args:?}: {err}");
        assert!(!json.exists(), "{args:?} wrote {}", json.display());
    }
}

#[test]
fn games_the_referee_cannot_set_up_keep_tengens_rows_and_the_run_goes_on() {
    let dir = fresh_dir("diagnose", "setup");
    let md = dir.path().join("d.md");
    let json = dir.path().join("d.json");
    let (plain, white, one) = (
        data("small-loss-9.sgf"),
        data("white-setup-9.sgf"),
        data("one-black-stone-9.sgf"),
    );
    let records = [s(&plain), s(&white), s(&one)];
    let v = diagnose(&refereed(&records, &tengen_referee(), &md), &json);
    assert_eq!(
        (v["games"].as_u64(), v["lost"].as_u64()),
        (Some(3), Some(3))
    );
    let d = v["diagnoses"].as_array().unwrap();
    assert_eq!(d.len(), 3);
    // The first game has both opinions.
    assert!(d[0]["referee_unavailable"].is_null());
    assert!(d[0]["positions"][0]["referee"].is_f64());
    // The other two keep Tengen's rows, without the referee's, and say why.
    for (g, why) in [(&d[1], "white stones"), (&d[2], "a single black stone")] {
        let said = g["referee_unavailable"].as_str().unwrap();
        assert!(said.contains(why), "{said}");
        let rows = g["positions"].as_array().unwrap();
        assert_eq!(rows.len(), 2);
        assert!(
            rows.iter()
                .all(|r| r["referee"].is_null() && r["tengen"].is_f64())
        );
    }
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(
        text.contains(
            "referee unavailable: move 10: referee engine: the record sets up white stones"
        ),
        "{text}"
    );
}

/// A GTP engine that answers the handshake and exits at the first other command.
#[cfg(unix)]
const BREAKS: &str = "while read -r id cmd rest; do
  case \"$cmd\" in
    protocol_version) printf '=%s 2\\n\\n' \"$id\" ;;
    list_commands) printf '=%s lz-genmove_analyze\\n\\n' \"$id\" ;;
    name|version) printf '=%s breaks\\n\\n' \"$id\" ;;
    *) exit 1 ;;
  esac
done
";

#[cfg(unix)]
#[test]
fn a_referee_that_breaks_is_restarted_once_then_given_up_and_the_report_is_written() {
    let dir = fresh_dir("diagnose", "broken");
    let script = dir.path().join("breaks.sh");
    std::fs::write(&script, BREAKS).unwrap();
    let m = dir.path().join("m");
    std::fs::create_dir(&m).unwrap();
    for i in 1..=3 {
        std::fs::copy(data("small-loss-9.sgf"), m.join(format!("game-000{i}.sgf"))).unwrap();
    }
    let md = dir.path().join("d.md");
    let json = dir.path().join("d.json");
    let referee = format!("/bin/sh {}", s(&script));
    let out = run_diagnose(&refereed(&[s(&m)], &referee, &md), &json);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let d = v["diagnoses"].as_array().unwrap();
    assert_eq!(d.len(), 3, "{err}");
    // Broken in the first game, restarted for the second, broken again there and
    // given up for the third, which Tengen alone evaluates.
    assert!(d[0]["referee_unavailable"].is_string());
    assert!(d[1]["referee_unavailable"].is_string());
    assert!(d[2]["referee_unavailable"].is_null());
    assert!(
        d[2]["positions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["referee"].is_null())
    );
    let notes: Vec<&str> = v["referee_notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0].contains("restarted before game-0002.sgf"),
        "{notes:?}"
    );
    assert!(notes[1].contains("broke again"), "{notes:?}");
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(
        text.contains("Referee:") && text.contains("broke again"),
        "{text}"
    );
}
