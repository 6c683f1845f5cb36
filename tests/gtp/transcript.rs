//! GTP transcript tests in the GNU Go regression format (`tests/data/gtp/*.tst`).
//!
//! A file is sent to the engine as it is, in one pipelined batch (so comment and blank
//! lines exercise the engine's preprocessing). A numbered command (`12 play b D4`) is a
//! test; the next `#? [expected]` line says what its answer must be:
//!
//! - `[text]`: the success answer after `=12 ` is exactly `text` (runs of white space,
//!   new lines included, compare as one space);
//! - `[text.*]`, `[.*text]`, `[.*text.*]`: the answer starts with, ends with or
//!   contains `text`;
//! - `[(a|b|c)]`: the answer is one of the alternatives;
//! - `[?text]` (also with `.*` or alternatives): a failure answer `?12 text`; any
//!   expectation without `?` requires a success answer, as gogui-regress does;
//! - a `*` after the closing bracket marks a known failure: reported, not fatal.
//!
//! Unnumbered commands are sent too and their answers are not checked.

use std::collections::HashMap;
use std::path::Path;

/// One numbered command and what its answer must be.
#[derive(Clone, Debug)]
pub struct Case {
    /// Line of the command in the file (1-based).
    pub line: usize,
    /// The command's id.
    pub id: String,
    /// The command as written.
    pub command: String,
    /// The pattern between the brackets.
    pub expected: String,
    /// Marked with a trailing `*`.
    pub known_failure: bool,
}

/// Reads the numbered commands and their expectations.
pub fn parse_cases(text: &str) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    let mut pending: Option<(usize, String, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if let Some(rest) = line.strip_prefix("#?") {
            let (n, id, command) = pending
                .take()
                .ok_or_else(|| format!("line {}: #? without a numbered command", i + 1))?;
            let rest = rest.trim();
            let known_failure = rest.ends_with('*');
            let rest = rest.trim_end_matches('*').trim_end();
            let expected = rest
                .strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .ok_or_else(|| format!("line {}: expected `#? [pattern]`", i + 1))?;
            cases.push(Case {
                line: n,
                id,
                command,
                expected: expected.to_string(),
                known_failure,
            });
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or("");
        if first.bytes().all(|b| b.is_ascii_digit()) {
            let command = line.split('#').next().unwrap_or("").trim().to_string();
            pending = Some((i + 1, first.to_string(), command));
        } else {
            pending = None;
        }
    }
    Ok(cases)
}

/// The answers in an engine's output, by id: success flag and text (lines joined by
/// `\n`, the space after the id removed).
pub fn parse_answers(output: &str) -> Result<HashMap<String, (bool, String)>, String> {
    let mut answers = HashMap::new();
    let mut lines = output.split('\n').peekable();
    while let Some(line) = lines.next() {
        if line.is_empty() {
            continue;
        }
        let ok = match line.as_bytes()[0] {
            b'=' => true,
            b'?' => false,
            _ => return Err(format!("line outside an answer: {line:?}")),
        };
        let head = &line[1..];
        let id_len = head.bytes().take_while(u8::is_ascii_digit).count();
        let id = head[..id_len].to_string();
        let mut text = head[id_len..]
            .strip_prefix(' ')
            .unwrap_or(&head[id_len..])
            .to_string();
        let mut ended = false;
        for more in lines.by_ref() {
            if more.is_empty() {
                ended = true;
                break;
            }
            text.push('\n');
            text.push_str(more);
        }
        if !ended {
            return Err(format!("answer not ended by an empty line: {line:?}"));
        }
        if !id.is_empty() && answers.insert(id.clone(), (ok, text)).is_some() {
            return Err(format!("two answers with id {id}"));
        }
    }
    Ok(answers)
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether an answer matches a pattern (see the module doc).
pub fn matches(pattern: &str, ok: bool, text: &str) -> bool {
    let (want_ok, pattern) = match pattern.strip_prefix('?') {
        Some(p) => (false, p),
        None => (true, pattern),
    };
    if ok != want_ok {
        return false;
    }
    let text = squash(text);
    let one = |p: &str| {
        let (any_start, p) = p.strip_prefix(".*").map_or((false, p), |r| (true, r));
        let (any_end, p) = p.strip_suffix(".*").map_or((false, p), |r| (true, r));
        let p = squash(p);
        match (any_start, any_end) {
            (true, true) => text.contains(&p),
            (true, false) => text.ends_with(&p),
            (false, true) => text.starts_with(&p),
            (false, false) => text == p,
        }
    };
    match pattern.strip_prefix('(').and_then(|p| p.strip_suffix(')')) {
        Some(alts) if alts.contains('|') => alts.split('|').any(one),
        _ => one(pattern),
    }
}

/// The file's text with relative `loadsgf`/`printsgf` paths made absolute against
/// `dir` (for engines whose working directory is not the file's folder).
pub fn with_paths_under(text: &str, dir: &Path) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
        let file = words
            .iter()
            .position(|w| w == "loadsgf" || w == "printsgf")
            .map(|pos| pos + 1)
            .filter(|&i| {
                words.get(i).is_some_and(|p| {
                    !p.is_empty() && !p.starts_with('#') && Path::new(p.as_str()).is_relative()
                })
            });
        if let Some(i) = file {
            words[i] = dir.join(words[i].as_str()).display().to_string();
        }
        out.push_str(&words.join(" "));
        out.push('\n');
    }
    out
}

/// Checks an engine's whole output against a transcript: `Ok(report)` lists the
/// passes and known failures, `Err` every unexpected result.
pub fn check(name: &str, text: &str, output: &str) -> Result<String, String> {
    let cases = parse_cases(text).map_err(|e| format!("{name}: {e}"))?;
    let answers = parse_answers(output).map_err(|e| format!("{name}: {e}\n{output}"))?;
    let mut errors = Vec::new();
    let mut report = Vec::new();
    for case in &cases {
        let (ok, got) = match answers.get(&case.id) {
            Some((ok, got)) => (*ok, got.as_str()),
            None => {
                errors.push(format!(
                    "{name}:{} `{}`: no answer",
                    case.line, case.command
                ));
                continue;
            }
        };
        let pass = matches(&case.expected, ok, got);
        let mark = if ok { "=" } else { "?" };
        let shown = format!("{mark}{}", got.replace('\n', "\\n"));
        match (pass, case.known_failure) {
            (true, false) => report.push(format!("pass {}", case.id)),
            (false, true) => report.push(format!("known failure {}: {shown}", case.id)),
            (true, true) => errors.push(format!(
                "{name}:{} `{}`: unexpected pass (remove the `*`)",
                case.line, case.command
            )),
            (false, false) => errors.push(format!(
                "{name}:{} `{}`: expected [{}], got {shown}",
                case.line, case.command, case.expected
            )),
        }
    }
    if cases.is_empty() {
        errors.push(format!("{name}: no numbered test"));
    }
    if errors.is_empty() {
        Ok(format!(
            "{name}: {} cases: {}",
            cases.len(),
            report.join(", ")
        ))
    } else {
        Err(errors.join("\n"))
    }
}
