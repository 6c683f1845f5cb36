//! Real matches between engine processes: a small Python GTP engine
//! (`tests/fake_engine.py`) that can be told to misbehave, and GNU Go. Without GNU Go
//! the tests that need it are skipped with a note, and under CI (the `CI` variable) they
//! fail instead: see `tests/support/programs.rs` at the root.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tengen_arena::journal::{self, Entry};
use tengen_arena::summary::Summary;
use tengen_arena::{ArenaError, MatchConfig, RuleSet, merge, run_match};
use tengen_board::GameResult;
use tengen_board::sgf::parse_sgf;

mod common;
use common::programs::{self, GNU_GO, available};
use common::{config, example_binary, fake};

/// A match's output directory (not yet created) inside a temporary directory that is
/// removed, with everything the match wrote, when the test ends.
struct OutDir {
    _scratch: tempfile::TempDir,
    path: PathBuf,
}

impl std::ops::Deref for OutDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for OutDir {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

fn out_dir(name: &str) -> OutDir {
    let scratch = tempfile::Builder::new()
        .prefix(&format!("tengen-arena-{name}-"))
        .tempdir()
        .unwrap();
    let path = scratch.path().join("out");
    OutDir {
        _scratch: scratch,
        path,
    }
}

/// A match of `games` quick games between `engines` as `tweak` sets it up, written to a
/// fresh output directory named after `name`: the directory and the match's summary.
fn played(
    name: &str,
    engines: &[String],
    games: u32,
    tweak: impl FnOnce(&mut MatchConfig),
) -> (OutDir, Summary) {
    let out = out_dir(name);
    let mut cfg = config(engines, games, &out);
    tweak(&mut cfg);
    let s = run_match(&cfg).unwrap();
    (out, s)
}

fn entries(out: &Path) -> Vec<Entry> {
    journal::read(&out.join("journal.jsonl")).unwrap().entries
}

/// Every SGF parses, replays to the recorded number of moves, names the players and
/// the result, and a game scored by counting has the score the board gives.
fn check_records(out: &Path) {
    for e in entries(out) {
        let text = fs::read_to_string(out.join(&e.sgf)).unwrap();
        let rec = parse_sgf(&text).unwrap_or_else(|err| panic!("{}: {err}", e.sgf));
        assert_eq!(rec.game.move_count() as u32, e.moves, "{}", e.sgf);
        assert_eq!(rec.info.result.as_deref(), Some(e.result.as_str()));
        assert_eq!(rec.info.black.as_deref(), Some(e.black.as_str()));
        assert_eq!(rec.info.white.as_deref(), Some(e.white.as_str()));
        let result: GameResult = e.result.parse().unwrap();
        assert_eq!(
            result.winner().map(|c| c.letter().to_string()),
            e.winner,
            "{e:?}"
        );
        match e.method.as_deref() {
            Some("tromp-taylor") | Some("cleanup") => {
                assert_eq!(rec.game.tromp_taylor_score().result(), result, "{e:?}");
            }
            _ => {}
        }
    }
}

#[test]
fn a_normal_match_records_every_game() {
    let out = out_dir("normal");
    let engines = [fake("--seed 1 --name Alpha"), fake("--seed 2 --name Beta")];
    let s = run_match(&config(&engines, 6, &out)).unwrap();
    assert_eq!(s.games, 6);
    assert_eq!(s.planned, Some(6));
    let es = entries(&out);
    assert_eq!(es.len(), 6);
    let mut games: Vec<u32> = es.iter().map(|e| e.game).collect();
    games.sort();
    assert_eq!(games, [1, 2, 3, 4, 5, 6]);
    for e in &es {
        assert_eq!(e.reason, "score", "{e:?}");
        assert_eq!(e.method.as_deref(), Some("agreement"), "{e:?}");
        let (black, white) = if e.game % 2 == 1 {
            ("Alpha 1.0", "Beta 1.0")
        } else {
            ("Beta 1.0", "Alpha 1.0")
        };
        assert_eq!((e.black.as_str(), e.white.as_str()), (black, white));
        assert!(e.black_moves > 0 && e.white_moves > 0);
    }
    // Both engines report no dead stones: the agreed count is the Tromp-Taylor count.
    for e in &es {
        let rec = parse_sgf(&fs::read_to_string(out.join(&e.sgf)).unwrap()).unwrap();
        let score = rec.game.tromp_taylor_score();
        assert_eq!(score.result().to_string(), e.result, "{e:?}");
    }
    check_records(&out);
    let text = s.to_string();
    assert!(text.contains("Alpha 1.0 vs Beta 1.0"), "{text}");
    assert!(
        fs::read_to_string(out.join("match.json"))
            .unwrap()
            .contains("Alpha")
    );
}

/// Runs `bad` against a well-behaved engine for two games (one with each colour) and
/// checks that both are losses for `bad` with `reason`, and that the match went on.
fn misbehaviour(
    name: &str,
    bad: &str,
    reason: &str,
    result_kind: &str,
    tweak: fn(&mut MatchConfig),
) {
    let engines = [fake(bad), fake("--seed 7 --name Good")];
    let (out, s) = played(name, &engines, 2, tweak);
    let es = entries(&out);
    assert_eq!(es.len(), 2, "{name}: {s}");
    for e in &es {
        let good_colour = if e.black == "Good 1.0" { "B" } else { "W" };
        assert_eq!(e.winner.as_deref(), Some(good_colour), "{name}: {e:?}");
        assert_eq!(e.reason, reason, "{name}: {e:?}");
        assert!(e.result.ends_with(result_kind), "{name}: {e:?}");
        assert!(!e.detail.is_empty(), "{name}: {e:?}");
    }
    check_records(&out);
    assert_eq!(s.engines[1].total.wins, 2, "{s}");
}

fn no_tweak(_: &mut MatchConfig) {}

#[test]
fn an_illegal_move_loses() {
    misbehaviour(
        "illegal",
        "--illegal-at 5 --name Bad",
        "illegal",
        "+F",
        no_tweak,
    );
    let out = out_dir("illegal-detail");
    let engines = [fake("--illegal-at 3 --name Bad"), fake("--name Good")];
    run_match(&config(&engines, 1, &out)).unwrap();
    let e = &entries(&out)[0];
    assert!(e.detail.contains("occupied"), "{e:?}");
}

#[test]
#[ignore = "long: cargo test -- --include-ignored"]
fn a_hang_loses_by_timeout() {
    misbehaviour("hang", "--hang-at 4 --name Bad", "timeout", "+F", |c| {
        c.move_timeout = Duration::from_millis(1500);
    });
}

#[test]
fn a_crash_loses() {
    misbehaviour("crash", "--exit-at 4 --name Bad", "crash", "+F", no_tweak);
    let out = out_dir("crash-detail");
    run_match(&config(
        &[fake("--exit-at 3 --name Bad"), fake("--name Good")],
        1,
        &out,
    ))
    .unwrap();
    let e = &entries(&out)[0];
    assert!(
        e.detail.contains("exiting on purpose"),
        "stderr tail kept: {e:?}"
    );
}

#[test]
fn a_closed_pipe_loses() {
    misbehaviour(
        "closed",
        "--close-at 4 --name Bad",
        "closed",
        "+F",
        no_tweak,
    );
}

#[test]
fn junk_answers_lose() {
    misbehaviour("junk", "--junk --name Bad", "protocol", "+F", no_tweak);
}

#[test]
fn resignation_is_recorded() {
    misbehaviour(
        "resign",
        "--resign-at 4 --name Bad",
        "resign",
        "+R",
        no_tweak,
    );
}

#[test]
fn fischer_is_told_in_katago_s_words_or_as_sudden_death() {
    // An engine that knows kata-time_settings hears Fischer and reads its clock to the
    // millisecond (a 0.5 s increment matters); one that does not hears sudden death
    // and whole seconds before every move.
    let out = out_dir("fischer");
    let logs = tempfile::tempdir().unwrap();
    let (kata, plain) = (logs.path().join("kata.log"), logs.path().join("plain.log"));
    let engines = [
        fake(&format!(
            "--name K --kata-time --clock-log {}",
            kata.display()
        )),
        fake(&format!("--name P --clock-log {}", plain.display())),
    ];
    let mut cfg = config(&engines, 1, &out);
    cfg.time = Some("30+0.5f".parse().unwrap());
    let s = run_match(&cfg).unwrap();
    assert_eq!(entries(&out).len(), 1, "{s}");
    let kata = std::fs::read_to_string(kata).unwrap();
    let plain = std::fs::read_to_string(plain).unwrap();
    // `time_left C SECONDS 0` lines: the seconds as written.
    let seconds = |log: &str| -> Vec<String> {
        log.lines()
            .filter(|l| !l.ends_with("time_settings") && !l.contains("time_settings "))
            .map(|l| {
                let w: Vec<&str> = l.split(' ').collect();
                assert!(
                    w.len() == 4 && w[0] == "time_left" && w[3] == "0",
                    "{l} in {log}"
                );
                w[2].to_string()
            })
            .collect()
    };
    assert!(
        kata.starts_with("kata-time_settings fischer 30 0.5\n"),
        "{kata}"
    );
    let fractions = seconds(&kata);
    assert!(!fractions.is_empty(), "{kata}");
    for t in &fractions {
        let (whole, ms) = t.split_once('.').unwrap_or_else(|| panic!("{t} in {kata}"));
        assert!(
            whole.parse::<u32>().is_ok() && ms.len() == 3,
            "{t} in {kata}"
        );
    }
    assert!(
        plain.starts_with("kgs-time_settings absolute 30\n"),
        "{plain}"
    );
    for t in seconds(&plain) {
        assert!(t.parse::<u32>().is_ok(), "{t} in {plain}");
    }
}

#[test]
#[ignore = "long: cargo test -- --include-ignored"]
fn overrunning_the_clock_loses_on_time() {
    misbehaviour("time", "--slow 0.4 --name Bad", "time", "+T", |c| {
        c.time = Some("1".parse().unwrap());
    });
    // Byo-yomi: 1 s main, 2 periods of 1 s; a move of 2.2 s spends the main time and
    // one period, the next loses the last period.
    misbehaviour("byoyomi", "--slow 2.2 --name Bad", "time", "+T", |c| {
        c.time = Some("1+2x1".parse().unwrap());
    });
    // Times GTP cannot tell engines (whole seconds) are refused before any game.
    let mut cfg = config(
        &[fake("--name A"), fake("--name B")],
        1,
        &out_dir("subsecond"),
    );
    cfg.time = Some("0.5+2x0.3".parse().unwrap());
    let err = run_match(&cfg).unwrap_err().to_string();
    assert!(err.contains("under a second"), "{err}");
}

#[test]
fn noise_on_stdout_and_stderr_is_harmless() {
    let engines = [fake("--noise --name Noisy"), fake("--name Quiet")];
    let (out, _) = played("noise", &engines, 2, |c| c.engine_logs = true);
    for e in entries(&out) {
        assert_eq!(e.reason, "score", "{e:?}");
    }
    let log = fs::read_to_string(out.join("logs/game-0001-black.log")).unwrap();
    assert!(log.len() > 10_000);
}

#[test]
fn disagreement_goes_to_cleanup_or_tromp_taylor() {
    let out = out_dir("cleanup");
    let engines = [fake("--dead-all --name Greedy"), fake("--name Fair")];
    run_match(&config(&engines, 2, &out)).unwrap();
    for e in entries(&out) {
        assert_eq!(e.method.as_deref(), Some("cleanup"), "{e:?}");
    }
    check_records(&out);

    let out = out_dir("tromp");
    let engines = [
        fake("--dead-all --no-cleanup --name Greedy"),
        fake("--name Fair"),
    ];
    run_match(&config(&engines, 2, &out)).unwrap();
    for e in entries(&out) {
        assert_eq!(e.method.as_deref(), Some("tromp-taylor"), "{e:?}");
    }
    check_records(&out);
}

#[test]
fn max_moves_voids_the_game() {
    let engines = [fake("--name A"), fake("--name B")];
    let (out, s) = played("maxmoves", &engines, 2, |c| c.max_moves = Some(4));
    for e in entries(&out) {
        assert_eq!(
            (e.reason.as_str(), e.result.as_str(), e.moves),
            ("max-moves", "Void", 4)
        );
        assert_eq!(e.winner, None);
    }
    assert_eq!(s.voids, 2);
    check_records(&out);
}

#[test]
fn bad_input_is_a_clear_error_and_leaves_no_journal() {
    let good = fake("--name Good");
    let cases: Vec<(&str, Vec<String>, &str)> = vec![
        (
            "missing",
            vec!["/no/such/engine --gtp".into(), good.clone()],
            "/no/such/engine",
        ),
        (
            "silent",
            vec![fake("--no-protocol"), good.clone()],
            "protocol_version",
        ),
        (
            "size",
            vec![fake("--max-size 4"), good.clone()],
            "board size 5",
        ),
    ];
    for (name, engines, needle) in cases {
        let out = out_dir(&format!("bad-{name}"));
        let mut cfg = config(&engines, 2, &out);
        // Only the silent engine must time out; the others get the time a fake
        // engine in Python may need to start on a loaded machine.
        cfg.startup_timeout = Duration::from_secs(if name == "silent" { 2 } else { 30 });
        let err = run_match(&cfg).unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, ArenaError::Engine { .. }), "{name}: {text}");
        assert!(text.contains(needle), "{name}: {text}");
        assert!(!out.join("journal.jsonl").exists(), "{name}");
    }
    let out = out_dir("bad-openings");
    let mut cfg = config(&[good.clone(), good.clone()], 2, &out);
    cfg.openings = Some(out.join("nowhere.txt"));
    let text = run_match(&cfg).unwrap_err().to_string();
    assert!(text.contains("nowhere.txt"), "{text}");
    assert!(!out.join("journal.jsonl").exists());

    let out = out_dir("bad-config");
    let mut cfg = config(std::slice::from_ref(&good), 2, &out);
    assert!(run_match(&cfg).is_err());
    cfg.engines.push(good.clone().into());
    cfg.size = 30;
    assert!(run_match(&cfg).unwrap_err().to_string().contains("size"));
}

#[test]
fn an_existing_journal_needs_resume() {
    let out = out_dir("exists");
    let engines = [fake("--name A"), fake("--name B")];
    run_match(&config(&engines, 2, &out)).unwrap();
    let before = fs::read(out.join("journal.jsonl")).unwrap();
    let err = run_match(&config(&engines, 4, &out)).unwrap_err();
    assert!(err.to_string().contains("--resume"), "{err}");
    assert_eq!(fs::read(out.join("journal.jsonl")).unwrap(), before);
    // Resuming with other settings is refused too.
    let mut other = config(&engines, 4, &out);
    other.resume = true;
    other.komi = 7.5;
    assert!(run_match(&other).unwrap_err().to_string().contains("komi"));
    // Resuming the same match plays nothing more.
    let mut cfg = config(&engines, 2, &out);
    cfg.resume = true;
    let s = run_match(&cfg).unwrap();
    assert_eq!(s.games, 2);
    assert_eq!(fs::read(out.join("journal.jsonl")).unwrap(), before);
    // Resuming with more games extends the match: the first lines stay as they were.
    let mut cfg = config(&engines, 4, &out);
    cfg.resume = true;
    let s = run_match(&cfg).unwrap();
    assert_eq!(s.games, 4);
    let after = fs::read(out.join("journal.jsonl")).unwrap();
    assert_eq!(&after[..before.len()], &before[..]);
}

#[test]
#[ignore = "long: cargo test -- --include-ignored"]
fn resume_after_a_kill_leaves_exactly_n_results() {
    let Some(bin) = example_binary() else {
        eprintln!("skipped: the arena_match example is not built");
        return;
    };
    let out = out_dir("kill");
    let n = 8;
    let engines = [fake("--slow 0.02 --name A"), fake("--slow 0.02 --name B")];
    let mut child = Command::new(&bin)
        .args(["--out", out.to_str().unwrap(), "--games", &n.to_string()])
        .args(["--size", "5", "--komi", "0.5", "--parallel", "2"])
        .args(["-e", &engines[0], "-e", &engines[1]])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let journal_path = out.join("journal.jsonl");
    let start = Instant::now();
    loop {
        let done = journal::read(&journal_path).map_or(0, |c| c.entries.len());
        if done >= 2 || start.elapsed() > Duration::from_secs(120) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let after_kill = entries(&out).len();
    assert!(after_kill >= 2 && after_kill < n as usize, "{after_kill}");
    // A write torn by the kill.
    let mut text = fs::read(&journal_path).unwrap();
    text.extend_from_slice(br#"{"game":99,"black":"A 1.0","whi"#);
    fs::write(&journal_path, text).unwrap();

    let mut cfg = config(&engines, n, &out);
    cfg.resume = true;
    let s = run_match(&cfg).unwrap();
    assert_eq!(s.games, n);
    let es = entries(&out);
    let mut games: Vec<u32> = es.iter().map(|e| e.game).collect();
    games.sort();
    assert_eq!(games, (1..=n).collect::<Vec<_>>());
    let raw = fs::read_to_string(&journal_path).unwrap();
    assert_eq!(
        raw.lines().count(),
        n as usize,
        "no torn or doubled line remains"
    );
    check_records(&out);
}

#[test]
#[ignore = "long: cargo test -- --include-ignored"]
fn shards_merge_into_one_summary() {
    let engines = [fake("--name A"), fake("--name B")];
    let scratch: Vec<OutDir> = (1..=3).map(|i| out_dir(&format!("shard{i}"))).collect();
    let dirs: Vec<PathBuf> = scratch.iter().map(|d| d.to_path_buf()).collect();
    for (i, d) in dirs.iter().enumerate() {
        let mut cfg = config(&engines, 7, d);
        cfg.shard = Some(format!("{}/3", i + 1).parse().unwrap());
        let s = run_match(&cfg).unwrap();
        assert_eq!(s.planned, Some(if i == 0 { 3 } else { 2 }));
    }
    let s = merge(&dirs).unwrap();
    assert_eq!(s.games, 7);
    assert_eq!(s.planned, Some(7));
    assert_eq!(s.duplicates, 0);
    let wins: u32 = s.engines.iter().map(|e| e.total.wins).sum();
    assert_eq!(wins + s.draws + s.voids, 7);
    // The same shard twice counts once.
    let twice = merge(&[dirs[0].clone(), dirs[0].clone()]).unwrap();
    assert_eq!((twice.games, twice.duplicates), (3, 3));
    // Another match cannot be merged in.
    let other = out_dir("shard-other");
    let mut cfg = config(&engines, 1, &other);
    cfg.komi = 6.5;
    run_match(&cfg).unwrap();
    let err = merge(&[dirs[0].clone(), other.to_path_buf()]).unwrap_err();
    assert!(err.to_string().contains("komi"), "{err}");
}

/// A journal line for game `game` that Black won with `result`.
fn journal_line(game: u32, result: &str, black_time: f64) -> String {
    format!(
        r#"{{"game":{game},"black":"A","white":"B","winner":"B","result":"{result}","reason":"score","moves":30,"sgf":"game-{game:04}.sgf","black_time":{black_time},"white_time":1.0,"black_moves":15,"white_moves":15}}"#
    )
}

#[test]
fn merge_refuses_two_runs_with_different_results_for_one_game() {
    let (a, b) = (out_dir("merge-run-a"), out_dir("merge-run-b"));
    for d in [&a, &b] {
        fs::create_dir_all(d).unwrap();
    }
    let same = journal_line(2, "B+R", 3.0);
    fs::write(
        a.join("journal.jsonl"),
        format!("{}\n{same}\n", journal_line(1, "B+3.5", 2.0)),
    )
    .unwrap();
    fs::write(
        b.join("journal.jsonl"),
        format!("{}\n{same}\n", journal_line(1, "B+7.5", 2.5)),
    )
    .unwrap();
    let err = merge(&[a.to_path_buf(), b.to_path_buf()]).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("game 1") && msg.contains("B+3.5") && msg.contains("B+7.5"),
        "{msg}"
    );
    // The same results from a copied journal merge once, with a note.
    fs::copy(a.join("journal.jsonl"), b.join("journal.jsonl")).unwrap();
    let s = merge(&[a.to_path_buf(), b.to_path_buf()]).unwrap();
    assert_eq!((s.games, s.duplicates), (2, 2));
}

#[test]
fn openings_are_played_from_both_sides() {
    let out = out_dir("openings");
    fs::create_dir_all(&out).unwrap();
    let list = out.join("openings.txt");
    fs::write(out.join("o.sgf"), "(;FF[4]GM[1]SZ[5];B[aa];W[ee])").unwrap();
    fs::write(&list, "# two openings\nC3 B2\no.sgf\n").unwrap();
    let mut cfg = config(&[fake("--name A"), fake("--name B")], 4, &out.join("m"));
    cfg.openings = Some(list);
    run_match(&cfg).unwrap();
    let es = entries(&out.join("m"));
    assert_eq!(es.len(), 4);
    for e in &es {
        let rec = parse_sgf(&fs::read_to_string(out.join("m").join(&e.sgf)).unwrap()).unwrap();
        let first: Vec<String> = rec
            .game
            .moves()
            .take(2)
            .map(|(_, m)| rec.game.size().move_vertex(m).to_string())
            .collect();
        let want = if e.game <= 2 {
            ["C3", "B2"]
        } else {
            ["A5", "E1"]
        };
        assert_eq!(first, want, "{e:?}");
        assert_eq!(e.opening, Some(((e.game - 1) / 2) as usize));
    }
    let mut bad = config(&[fake(""), fake("")], 2, &out.join("bad"));
    fs::write(out.join("bad.txt"), "C3 C3\n").unwrap();
    bad.openings = Some(out.join("bad.txt"));
    let text = run_match(&bad).unwrap_err().to_string();
    assert!(
        text.contains("bad.txt") && text.contains("line 1"),
        "{text}"
    );
}

#[test]
fn round_robin_and_japanese_rules() {
    let engines = [fake("--name A"), fake("--name B"), fake("--name C")];
    let (out, s) = played("rr", &engines, 2, |c| {
        c.rules = RuleSet::Japanese;
        c.handicap = 0;
    });
    assert_eq!(s.games, 6);
    assert_eq!(s.pairs.len(), 3);
    for e in &s.engines {
        assert_eq!(e.total.games(), 4, "{s}");
    }
    let sgf = fs::read_to_string(out.join("game-0001.sgf")).unwrap();
    assert!(sgf.contains("RU[Japanese]"), "{sgf}");
}

/// Every rule set `tengen gtp --rules` takes is one a match takes: the engines are told
/// it by its name, the referee plays and scores by it, and the records and match.json
/// name it.
#[test]
fn every_rule_set_reaches_the_engines_the_referee_and_the_records() {
    let logs = tempfile::tempdir().unwrap();
    for (name, rule_set, ru) in [
        ("chinese", RuleSet::Chinese, "Chinese"),
        ("japanese", RuleSet::Japanese, "Japanese"),
        ("korean", RuleSet::Korean, "Japanese"),
        ("aga", RuleSet::Aga, "AGA"),
        ("tromp-taylor", RuleSet::TrompTaylor, "Tromp-Taylor"),
        ("new_zealand", RuleSet::NewZealand, "NZ"),
        ("cgos", RuleSet::Cgos, "CGOS"),
    ] {
        assert_eq!(name.parse::<RuleSet>().ok(), Some(rule_set));
        assert_eq!(rule_set.to_string(), name);
        let log = logs.path().join(format!("{name}.log"));
        let engines = [
            fake(&format!("--name A --rules-log {}", log.display())),
            fake("--name B"),
        ];
        let (out, s) = played(name, &engines, 2, |c| c.rules = rule_set);
        assert_eq!(s.games, 2, "{name}: {s}");
        let told = fs::read_to_string(&log).unwrap();
        assert!(
            !told.is_empty() && told.lines().all(|l| l == format!("kgs-rules {name}")),
            "{name}: {told}"
        );
        let sgf = fs::read_to_string(out.join("game-0001.sgf")).unwrap();
        assert!(sgf.contains(&format!("RU[{ru}]")), "{name}: {sgf}");
        let info = fs::read_to_string(out.join("match.json")).unwrap();
        assert!(info.contains(&format!("\"rules\": \"{name}\"")), "{info}");
    }
    // The other spellings `tengen gtp --rules` reads.
    for (alias, rule_set) in [
        ("tromp_taylor", RuleSet::TrompTaylor),
        ("NZ", RuleSet::NewZealand),
        ("new-zealand", RuleSet::NewZealand),
    ] {
        assert_eq!(alias.parse::<RuleSet>().ok(), Some(rule_set), "{alias}");
    }
    let unknown = "weird".parse::<RuleSet>().unwrap_err().to_string();
    assert_eq!(
        unknown,
        "unknown rules \"weird\" (expected chinese, japanese, korean, aga, tromp-taylor, \
         new_zealand or cgos)"
    );
}

#[test]
fn sprt_stops_the_match_early() {
    let engines = [fake("--name Strong"), fake("--resign-at 1 --name Weak")];
    let (_out, s) = played("sprt", &engines, 200, |c| {
        c.sprt = Some("0,200,0.05,0.05".parse().unwrap());
    });
    assert!(s.stopped_by_sprt, "{s}");
    assert!(s.games < 40, "{s}");
    assert_eq!(s.engines[0].total.wins, s.games);
    assert!(s.to_string().contains("H1 accepted"), "{s}");
}

#[test]
fn handicap_games() {
    let engines = [fake("--name A"), fake("--name B")];
    let (out, _) = played("handicap", &engines, 2, |c| {
        c.size = 9;
        c.handicap = 2;
    });
    let es = entries(&out);
    assert_eq!(es.len(), 2);
    for e in &es {
        assert_eq!(e.reason, "score", "{e:?}");
    }
    let rec = parse_sgf(&fs::read_to_string(out.join("game-0001.sgf")).unwrap()).unwrap();
    assert_eq!(rec.game.handicap(), 2);
    check_records(&out);
}

/// GNU Go's command line (`TENGEN_GNUGO`, default `/usr/games/gnugo`), for the tests
/// that have checked it is [`available`].
fn gnugo() -> String {
    let path = programs::gnugo();
    format!("{} --mode gtp --chinese-rules --level 1", path.display())
}

/// A match with GNU Go in it: on a `size`×`size` board, komi 7.5 and 30 s a move.
fn against_gnugo(cfg: &mut MatchConfig, size: u32) {
    cfg.size = size;
    cfg.komi = 7.5;
    cfg.move_timeout = Duration::from_secs(30);
}

#[test]
fn gnugo_against_the_fake_engine() {
    if !available(&[GNU_GO]) {
        return;
    }
    let engines = [gnugo(), fake("--pass-after 30 --name Random")];
    let (out, s) = played("gnugo", &engines, 2, |c| against_gnugo(c, 9));
    assert_eq!(s.games, 2);
    for e in entries(&out) {
        assert_eq!(
            e.winner.as_deref(),
            Some(if e.black.starts_with("GNU Go") {
                "B"
            } else {
                "W"
            }),
            "{e:?}"
        );
    }
    check_records(&out);
}

#[test]
fn gnugo_against_itself_agrees_on_dead_stones() {
    if !available(&[GNU_GO]) {
        return;
    }
    let engines = [gnugo(), gnugo()];
    let (out, s) = played("gnugo-self", &engines, 1, |c| against_gnugo(c, 7));
    assert_eq!(s.engines[1].label, "GNU Go 3.8 #2");
    let e = &entries(&out)[0];
    assert!(matches!(e.reason.as_str(), "score" | "resign"), "{e:?}");
    check_records(&out);
}

/// Each game's moves, read back from its SGF, by game number.
fn games_moves(out: &Path) -> Vec<(u32, String)> {
    let mut games: Vec<(u32, String)> = entries(out)
        .iter()
        .map(|e| {
            let text = fs::read_to_string(out.join(&e.sgf)).unwrap();
            let rec = parse_sgf(&text).unwrap();
            let moves = rec
                .game
                .moves()
                .map(|m| format!("{m:?}"))
                .collect::<Vec<_>>()
                .join(" ");
            (e.game, moves)
        })
        .collect();
    games.sort();
    games
}

#[test]
#[ignore = "long: cargo test -- --include-ignored"]
fn a_match_seed_replays_every_game_and_each_game_has_its_own() {
    let engines = [
        fake("--name A --seed {seed}"),
        fake("--name B --seed {seed}"),
    ];
    let run = |name: &str, seed: u64| {
        let out = out_dir(name);
        let mut cfg = config(&engines, 4, &out);
        cfg.seed = seed;
        run_match(&cfg).unwrap();
        games_moves(&out)
    };
    let first = run("seed-a", 7);
    assert_eq!(first.len(), 4);
    assert_eq!(
        first,
        run("seed-b", 7),
        "the same seed plays the same games"
    );
    let moves: HashSet<&String> = first.iter().map(|(_, m)| m).collect();
    assert_eq!(moves.len(), 4, "every game has its own seed");
    assert_ne!(first, run("seed-c", 8), "another seed plays other games");
}
