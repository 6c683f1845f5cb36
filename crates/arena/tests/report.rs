//! The match report written by real matches between small Python GTP engines
//! (`tests/fake_engine.py`): a round robin's crosstable and ratings, links that reach
//! every game's SGF, merged shards, old journals, a resumed match, and bad paths and
//! journals of other matches refused with nothing written.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use tengen_arena::{merge_report, run_match};

mod common;
use common::{config, example_binary, fake};

/// The `href`s of a page, in order.
fn links(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].to_string())
        .collect()
}

/// A whole page that runs no script, fetches nothing and shows no NaN.
fn check_page(html: &str) {
    assert!(html.starts_with("<!DOCTYPE html>"), "{}", &html[..80]);
    assert!(html.trim_end().ends_with("</html>"));
    for bad in ["<script", "NaN", "http://", "https://", "src="] {
        // The SVG namespace is a name, not a fetch.
        let count = html.matches(bad).count()
            - html.matches("xmlns=\"http://www.w3.org/2000/svg\"").count()
                * usize::from(bad == "http://");
        assert_eq!(count, 0, "{bad} in the page");
    }
}

/// Every game link resolves, from the report's directory, to a record that exists.
fn check_links(html: &str, report_dir: &Path, games: usize) {
    let sgf: Vec<String> = links(html)
        .into_iter()
        .filter(|l| l.ends_with(".sgf"))
        .collect();
    assert_eq!(sgf.len(), games, "{sgf:?}");
    for l in &sgf {
        assert!(!l.starts_with('/'), "{l} is not relative");
        let path = report_dir.join(l.replace("%20", " "));
        assert!(path.is_file(), "{l} -> {}", path.display());
    }
}

#[test]
fn a_round_robin_report_has_the_crosstable_ratings_and_every_game() {
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("rr out");
    let report = scratch.path().join("report.html");
    let engines = [
        fake("--name A --seed 1"),
        fake("--name B --seed 2"),
        fake("--name C --resign-at 3"),
    ];
    let mut cfg = config(&engines, 4, &out);
    cfg.report = Some(report.clone());
    let s = run_match(&cfg).unwrap();
    assert_eq!(s.games, 12);
    let html = fs::read_to_string(&report).unwrap();
    check_page(&html);
    check_links(&html, scratch.path(), 12);
    for part in [
        "round robin of 3 engines",
        "Crosstable",
        "Ratings",
        "the mean rating is anchored at 0",
        "Results by colour",
        "Time a move",
        "Game length",
        "No SPRT was asked for",
        "rr%20out/game-0001.sgf",
        "C 1.0",
    ] {
        assert!(html.contains(part), "{part} missing");
    }
    // C resigns every game: it lost all of them, so the ratings needed the prior.
    assert!(
        html.contains("won or lost every game"),
        "no note on the prior"
    );
    // Nothing half-written is left beside it.
    let names: Vec<String> = fs::read_dir(scratch.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
}

#[test]
fn a_resumed_match_reports_every_game_of_its_journal() {
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("out");
    fs::create_dir_all(&out).unwrap();
    let report = out.join("report.html");
    let engines = [fake("--name A"), fake("--name B")];
    let mut cfg = config(&engines, 2, &out);
    cfg.report = Some(report.clone());
    cfg.sprt = Some("0,10,0.05,0.05".parse().unwrap());
    run_match(&cfg).unwrap();
    check_links(&fs::read_to_string(&report).unwrap(), &out, 2);
    cfg.games = 4;
    cfg.resume = true;
    run_match(&cfg).unwrap();
    let html = fs::read_to_string(&report).unwrap();
    check_page(&html);
    check_links(&html, &out, 4);
    assert!(html.contains("4 of 4 games played"));
    assert!(html.contains("SPRT log-likelihood ratio"), "no SPRT plot");
}

/// The game numbers a report links a record of.
fn reported_games(html: &str) -> Vec<u32> {
    links(html)
        .iter()
        .filter_map(|l| l.strip_suffix(".sgf")?.rsplit("game-").next()?.parse().ok())
        .collect()
}

#[test]
fn a_killed_match_leaves_the_report_of_its_journal_and_the_resume_completes_it() {
    let Some(bin) = example_binary() else {
        eprintln!("skipped: the arena_match example is not built");
        return;
    };
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("out");
    let report = scratch.path().join("report.html");
    let n = 4;
    let engines = [fake("--slow 0.02 --name A"), fake("--slow 0.02 --name B")];
    let mut child = std::process::Command::new(&bin)
        .args(["--out", out.to_str().unwrap(), "--games", &n.to_string()])
        .args(["--size", "5", "--komi", "0.5", "--parallel", "1"])
        .args(["--report", report.to_str().unwrap()])
        .args(["-e", &engines[0], "-e", &engines[1]])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !report.exists() && start.elapsed() < Duration::from_secs(60) {
        if let Some(status) = child.try_wait().unwrap() {
            panic!(
                "arena_match ended ({status}) before its first game: an old build? (cargo build --examples)"
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let journal = tengen_arena::journal::read(&out.join("journal.jsonl")).unwrap();
    let played: Vec<u32> = journal.entries.iter().map(|e| e.game).collect();
    assert!(
        !played.is_empty() && played.len() < n as usize,
        "{played:?}"
    );
    // The report written after the first game: only games of the journal, and whole.
    let html = fs::read_to_string(&report).unwrap();
    check_page(&html);
    let shown = reported_games(&html);
    assert!(
        !shown.is_empty() && shown.iter().all(|g| played.contains(g)),
        "{shown:?} {played:?}"
    );
    let mut cfg = config(&engines, n, &out);
    cfg.resume = true;
    cfg.report = Some(report.clone());
    run_match(&cfg).unwrap();
    let html = fs::read_to_string(&report).unwrap();
    assert_eq!(reported_games(&html), (1..=n).collect::<Vec<_>>());
}

#[test]
fn a_bad_report_path_is_refused_before_any_game() {
    let scratch = tempfile::tempdir().unwrap();
    let new = scratch.path().join("new");
    let out = new.join("out");
    let engines = [fake("--name A"), fake("--name B")];
    for (report, problem) in [
        (out.join("journal.jsonl"), ".html file"),
        (scratch.path().join("missing/r.html"), "does not exist"),
        (scratch.path().to_path_buf(), ".html file"),
    ] {
        let mut cfg = config(&engines, 2, &out);
        cfg.report = Some(report);
        let err = run_match(&cfg).unwrap_err().to_string();
        assert!(err.contains(problem), "{err}");
        // Nothing is left behind: not even the directories made for the match.
        assert!(!new.exists(), "{err}: {} left behind", new.display());
    }
    // An output directory that was there stays, as it was.
    fs::create_dir_all(&out).unwrap();
    let mut cfg = config(&engines, 2, &out);
    cfg.report = Some(scratch.path().join("missing/r.html"));
    assert!(run_match(&cfg).is_err());
    assert!(out.is_dir());
    assert_eq!(fs::read_dir(&out).unwrap().count(), 0);
}

#[test]
fn shards_merge_into_one_report_and_another_match_is_refused() {
    let scratch = tempfile::tempdir().unwrap();
    let engines = [fake("--name A --seed 3"), fake("--name B --seed 4")];
    let dirs: Vec<PathBuf> = (1..=2)
        .map(|i| scratch.path().join(format!("shard{i}")))
        .collect();
    for (i, d) in dirs.iter().enumerate() {
        let mut cfg = config(&engines, 4, d);
        cfg.shard = Some(format!("{}/2", i + 1).parse().unwrap());
        run_match(&cfg).unwrap();
    }
    let report = scratch.path().join("merged.html");
    let s = merge_report(&dirs, None, &report).unwrap();
    assert_eq!(s.games, 4);
    let html = fs::read_to_string(&report).unwrap();
    check_page(&html);
    check_links(&html, scratch.path(), 4);
    assert!(html.contains("shard1/game-0001.sgf") && html.contains("shard2/game-0002.sgf"));
    // The same engines with another seed: another match, refused, nothing written.
    let other = scratch.path().join("other");
    let mut cfg = config(&engines, 2, &other);
    cfg.seed = 9;
    cfg.shard = Some("2/2".parse().unwrap());
    run_match(&cfg).unwrap();
    let refused = scratch.path().join("refused.html");
    let err = merge_report(&[dirs[0].clone(), other], None, &refused)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("another match") && err.contains("seed 0 vs 9"),
        "{err}"
    );
    assert!(!refused.exists());
}

#[test]
fn an_old_journal_without_move_times_or_settings_still_reports() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("old");
    fs::create_dir_all(&dir).unwrap();
    let line = |game: u32, winner: &str| {
        format!(
            r#"{{"game":{game},"black":"A","white":"B","winner":"{winner}","result":"{winner}+R","reason":"resign","moves":30,"sgf":"game-{game:04}.sgf","black_time":2.0,"white_time":1.0,"black_moves":15,"white_moves":15}}"#
        )
    };
    fs::write(
        dir.join("journal.jsonl"),
        format!("{}\n{}\n", line(1, "B"), line(2, "W")),
    )
    .unwrap();
    let report = scratch.path().join("old.html");
    merge_report(std::slice::from_ref(&dir), None, &report).unwrap();
    let html = fs::read_to_string(&report).unwrap();
    check_page(&html);
    assert!(html.contains("Each move's time: not recorded"), "no note");
    assert!(
        html.contains("hold no match.json"),
        "no note on the settings"
    );
    // The records are not there: named, not linked.
    assert!(html.contains("(missing)"));
    check_links(&html, scratch.path(), 0);
}

/// The example match of the README (crates/arena/doc/m1) keeps only its journal and
/// records: its report is made from them alone, every game linked.
#[test]
fn the_documented_match_makes_its_report_from_its_journal() {
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("doc/m1");
    let scratch = tempfile::tempdir().unwrap();
    let report = scratch.path().join("report.html");
    let focus = "Tengen 1000".parse().unwrap();
    let s = merge_report(&[doc], Some(&focus), &report).unwrap();
    assert_eq!(s.games, 12);
    let html = fs::read_to_string(&report).unwrap();
    check_page(&html);
    check_links(&html, scratch.path(), 12);
    for engine in ["GNU Go level 1", "Tengen 200", "Tengen 1000"] {
        assert!(html.contains(engine), "{engine}");
    }
}
