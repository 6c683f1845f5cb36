//! The documents' summaries stay true to the build: BENCHMARKS.md and STRENGTH.md
//! open with `## Summary: VERSION`, and README.md's figures are headed the same way,
//! for the version this package has (what `tengen --version` prints); every commit
//! a summary names is in the repository's history; every `tengen …` command in a
//! summary's code blocks parses, and so does every Tengen engine a match there runs.
//! The long test runs the summary's `tengen bench` command as written. ARCHITECTURE.md
//! and README.md name only paths that exist, and ARCHITECTURE.md's dependency table
//! is the one `cargo metadata` reads.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::process::succeeded;

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The section of `doc` whose heading starts with `heading` (up to the next `## `).
fn section(doc: &str, heading: &str) -> Result<String, String> {
    let text = std::fs::read_to_string(root().join(doc)).map_err(|e| format!("{doc}: {e}"))?;
    let start = text
        .lines()
        .position(|l| l.starts_with(heading))
        .ok_or_else(|| format!("{doc}: no section headed {heading:?}"))?;
    let body: Vec<&str> = text
        .lines()
        .skip(start)
        .enumerate()
        .take_while(|&(i, l)| i == 0 || !l.starts_with("## "))
        .map(|(_, l)| l)
        .collect();
    Ok(body.join("\n"))
}

/// The version a heading `## Title: VERSION` names.
fn heading_version(section: &str) -> &str {
    let first = section.lines().next().unwrap_or("");
    first.rsplit(": ").next().unwrap_or("").trim()
}

/// The commits a summary names as `VERSION at HASH`.
fn commits(section: &str) -> Vec<String> {
    let marker = format!("{VERSION} at ");
    section
        .match_indices(&marker)
        .map(|(i, m)| {
            section[i + m.len()..]
                .chars()
                .take_while(char::is_ascii_hexdigit)
                .collect::<String>()
        })
        .collect()
}

/// The `tengen …` command lines of a section's fenced code blocks, split as a shell
/// splits them (a line ending in `\` continues).
fn commands(section: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut in_block = false;
    let mut pending = String::new();
    for line in section.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if !in_block {
            continue;
        }
        let line = line.trim();
        if let Some(start) = line.strip_suffix('\\') {
            pending.push_str(start);
            pending.push(' ');
            continue;
        }
        pending.push_str(line);
        let full = std::mem::take(&mut pending);
        if full.starts_with("tengen ") || full == "tengen" {
            out.push(shell_words::split(&full).unwrap_or_else(|e| panic!("{full}: {e}")));
        }
    }
    out
}

/// Whether `tengen ARGS` parses: clap reads the words in order and refuses an unknown
/// flag or a bad value before it reaches the `--help` appended last, which then
/// prints the help and succeeds without running anything. `{seed}` (a match's
/// placeholder) reads as a seed.
fn parses(args: &[String]) -> Result<(), String> {
    let args: Vec<String> = args.iter().map(|a| a.replace("{seed}", "1")).collect();
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(&args)
        .arg("--help")
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// `git ARGS` in `dir`: its success and output, or `None` without git.
fn git(dir: &Path, args: &[&str]) -> Option<(bool, String)> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    Some((
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).trim().to_string(),
    ))
}

const SUMMARIES: [(&str, &str); 3] = [
    ("BENCHMARKS.md", "## Summary: "),
    ("STRENGTH.md", "## Summary: "),
    ("README.md", "## Figures: "),
];

#[test]
fn every_summary_is_for_this_version() {
    for (doc, heading) in SUMMARIES {
        let s = section(doc, heading).unwrap();
        assert_eq!(
            heading_version(&s),
            VERSION,
            "{doc}: {}",
            s.lines().next().unwrap()
        );
        assert!(
            !commits(&s).is_empty(),
            "{doc}: the summary names no build as `{VERSION} at COMMIT`"
        );
    }
}

#[test]
fn every_commit_a_summary_names_is_in_the_history() {
    let dir = root();
    // A source archive, or a shallow clone, does not hold the history to look in.
    match git(&dir, &["rev-parse", "--is-shallow-repository"]) {
        Some((true, shallow)) if shallow == "false" => {}
        other => {
            eprintln!("no full git history here ({other:?}): the commits cannot be checked");
            return;
        }
    }
    for (doc, heading) in SUMMARIES {
        for hash in commits(&section(doc, heading).unwrap()) {
            assert!(
                hash.len() >= 7,
                "{doc}: `{VERSION} at {hash}` is not a commit"
            );
            let object = format!("{hash}^{{commit}}");
            assert_eq!(
                git(&dir, &["cat-file", "-e", &object]).map(|(ok, _)| ok),
                Some(true),
                "{doc}: {hash} is not a commit of this repository"
            );
        }
    }
}

#[test]
fn every_summary_command_parses() {
    let mut checked = 0;
    for (doc, heading) in SUMMARIES {
        for words in commands(&section(doc, heading).unwrap()) {
            let line = words.join(" ");
            if let Err(e) = parses(&words[1..]) {
                panic!("{doc}: `{line}` does not parse: {e}");
            }
            // The engines a match runs: Tengen's own command lines parse too.
            for pair in words
                .windows(2)
                .filter(|p| p[0] == "-e" || p[0] == "--engine")
            {
                let engine = shell_words::split(&pair[1]).unwrap();
                if engine.first().map(String::as_str) == Some("tengen") {
                    if let Err(e) = parses(&engine[1..]) {
                        panic!(
                            "{doc}: the engine `{}` of `{line}` does not parse: {e}",
                            pair[1]
                        );
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 0, "the summaries name no `tengen` command");
}

#[test]
#[ignore = "long (30 s): cargo test -- --include-ignored"]
fn the_benchmark_summary_command_runs_as_written() {
    let s = section("BENCHMARKS.md", "## Summary: ").unwrap();
    let bench: Vec<Vec<String>> = commands(&s)
        .into_iter()
        .filter(|w| w.get(1).map(String::as_str) == Some("bench"))
        .collect();
    assert!(
        !bench.is_empty(),
        "BENCHMARKS.md's summary has no `tengen bench` command"
    );
    for words in bench {
        let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(&words[1..])
            .output()
            .expect("tengen runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}: {}",
            words.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.lines().filter(|l| !l.trim().is_empty()).count() >= 3,
            "{}: {stdout}",
            words.join(" ")
        );
    }
}

/// The engine settings' table as gtp/README.md shows it, made from the engine's one
/// table (`tengen_engine::settings::SETTINGS`).
fn settings_table() -> String {
    let mut out = String::from(
        "| setting | flag | value | default | what it does |\n|---|---|---|---|---|\n",
    );
    for s in tengen_engine::settings::SETTINGS {
        let flag = match s.kind {
            tengen_engine::settings::Kind::Switch => format!("`--{0}`, `--no-{0}`", s.flag),
            _ => format!("`--{} {}`", s.flag, s.value_name),
        };
        out.push_str(&format!(
            "| `{}` | {flag} | {} | {} | {} |\n",
            s.name,
            s.range_text(),
            s.default_text(),
            s.help.replace('|', "\\|")
        ));
    }
    out
}

/// The engine settings are listed where the documents list them from the one table
/// the command line and GTP read: gtp/README.md's table between its `settings` marks
/// is the table's (run with `TENGEN_WRITE_DOCS=1` to rewrite it), README.md's list
/// names them in order, and the README's synopsis has every flag.
#[test]
fn the_documents_list_the_settings_table() {
    let path = root().join("gtp/README.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let (begin, end) = ("<!-- settings: begin -->\n", "<!-- settings: end -->");
    let start = text
        .find(begin)
        .expect("gtp/README.md has a settings begin mark")
        + begin.len();
    let stop = text
        .find(end)
        .expect("gtp/README.md has a settings end mark");
    let want = settings_table();
    if text[start..stop] != want && std::env::var_os("TENGEN_WRITE_DOCS").is_some() {
        let updated = format!("{}{want}{}", &text[..start], &text[stop..]);
        std::fs::write(&path, updated).unwrap();
    } else {
        assert_eq!(
            text[start..stop],
            want,
            "gtp/README.md's settings table (TENGEN_WRITE_DOCS=1 cargo test the_documents_list_the_settings_table rewrites it)"
        );
    }
    let names: Vec<&str> = tengen_engine::settings::SETTINGS
        .iter()
        .map(|s| s.name)
        .collect();
    let list = format!("`{}`", names.join(" "));
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.contains(&list),
        "README.md lists the settings as {list}"
    );
    let synopsis = section("README.md", "## Command line").unwrap();
    for s in tengen_engine::settings::SETTINGS {
        assert!(
            synopsis.contains(&format!("--{}", s.flag)),
            "README.md's command line has --{}",
            s.flag
        );
    }
}

/// The documents whose paths [`every_path_the_living_documents_name_exists`] checks: the
/// map of the code and the README, which describe the code as it is (BENCHMARKS.md and
/// STRENGTH.md are records of earlier builds, whose files may have moved since).
const LIVING_DOCUMENTS: [&str; 2] = ["ARCHITECTURE.md", "README.md"];

/// The backticked paths of `text`: words with a `/` between two names, made of the
/// characters of a path, not absolute, not a placeholder (`OUT/…`, a first part in
/// capitals) and not under `target/` (made by the build or `.ci/install`).
fn backticked_paths(text: &str) -> Vec<&str> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(|t| t.trim_end_matches('/'))
        .filter(|t| t.contains('/') && !t.starts_with(['/', '.', '-']))
        .filter(|t| {
            t.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.-/".contains(c))
        })
        .filter(|t| {
            let first = t.split('/').next().unwrap_or("");
            first != "target" && !first.chars().all(|c| c.is_ascii_uppercase())
        })
        .collect()
}

#[test]
fn every_path_the_living_documents_name_exists() {
    let root = root();
    // A path names a file from the repository's root, or inside a crate's sources (the
    // code map names `search/net.rs` under the engine's heading).
    let mut bases = vec![root.clone()];
    for dir in ["engine/src", "gtp/src", "crates/cli"] {
        bases.push(root.join(dir));
    }
    for entry in std::fs::read_dir(root.join("crates")).unwrap() {
        bases.push(entry.unwrap().path().join("src"));
    }
    let mut checked = 0;
    for doc in LIVING_DOCUMENTS {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        for (number, line) in text.lines().enumerate() {
            for path in backticked_paths(line) {
                assert!(
                    bases.iter().any(|b| b.join(path).exists()),
                    "{doc}:{}: `{path}` does not exist",
                    number + 1
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "only {checked} paths found");
}

#[test]
fn backticked_paths_are_read_as_paths() {
    assert_eq!(
        backticked_paths("`engine/src/lib.rs`, `search/`, `-o OUT`, `OUT/log.jsonl`, `a b/c`"),
        vec!["engine/src/lib.rs"]
    );
    assert!(backticked_paths("`/usr/games/gnugo` `target/katrain-venv` `1/2`").contains(&"1/2"));
}

/// The crates of ours each workspace package depends on outside its tests, as
/// ARCHITECTURE.md's table between its `dependencies` marks lists them.
fn documented_dependencies() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let start = text
        .find("<!-- dependencies -->")
        .expect("ARCHITECTURE.md has a dependencies begin mark");
    let end = text
        .find("<!-- /dependencies -->")
        .expect("ARCHITECTURE.md has a dependencies end mark");
    let mut out: Vec<(String, Vec<String>)> = text[start..end]
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let names = |cell: &str| -> Vec<String> {
                cell.split(',')
                    .map(|n| n.trim().trim_matches('`').to_string())
                    .filter(|n| !n.is_empty())
                    .collect()
            };
            let mut deps = names(cells[2]);
            deps.sort();
            (names(cells[1]).remove(0), deps)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn the_dependency_table_is_what_cargo_reads() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    succeeded(&out);
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let packages = meta["packages"].as_array().unwrap();
    let ours: Vec<&str> = packages
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    let mut read: Vec<(String, Vec<String>)> = packages
        .iter()
        .map(|p| {
            let mut deps: Vec<String> = p["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["kind"].is_null())
                .map(|d| d["name"].as_str().unwrap())
                .filter(|n| ours.contains(n))
                .map(String::from)
                .collect();
            deps.sort();
            deps.dedup();
            (p["name"].as_str().unwrap().to_string(), deps)
        })
        .collect();
    read.sort();
    assert_eq!(documented_dependencies(), read);
}
