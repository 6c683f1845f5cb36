//! GTP test files with `#? [expected]` lines, checked by the matching rules of GoGui's
//! `gogui-regress` (`net.sf.gogui.tools.regress.Regress`), in two formats:
//!
//! - `*.tst`, regression files in the GNU Go format that `gogui-regress` runs unchanged:
//!   commands go one at a time, each waiting for its answer, and every test expects a
//!   success answer, since `gogui-regress` counts an error answer as a failure whatever
//!   the pattern says;
//! - `*.transcript`, Tengen's own: the whole file goes to the engine as one pipelined
//!   batch (so raw framing, ids, binary bytes and `quit` can be tested), and it may also
//!   expect a failure answer (`[?pattern]`) or run a stream that stops only when the next
//!   line arrives (`lz-analyze b 10`). Neither fits a `.tst` file: `gogui-regress` would
//!   count the first as a failure and hang on the second.
//!
//! A numbered command (`12 play b D4`, the id followed by a space) is a test, and the next
//! `#? [pattern]` line, if any, says what its answer must be:
//!
//! - the pattern is a regular expression (multi-line, `.` matching new lines) that must
//!   match the whole answer after the id, trimmed: `[C3 E5]`, `[Black wins.*]`,
//!   `[(0|B\+0)]`, `[.*\ncaptures: black 0 white 0, komi 6\.5]`;
//! - an error answer fails, except that in a `.transcript` a pattern starting with `?`
//!   expects one and matches the rest against its text (`[?illegal move: suicide]`);
//! - `!` before the pattern inverts the match; a `*` after the closing bracket marks a
//!   known failure: reported, not fatal, and a pass is an error (remove the `*`).
//!
//! In a `.tst` file a numbered command without a `#?` line must succeed, as under
//! `gogui-regress`, and so must every unnumbered command (`gogui-regress` reports a failed
//! one as an error). In a `.transcript` the answers of unnumbered commands and of numbered
//! ones without `#?` are not checked.
//!
//! `gogui-regress "tengen gtp --playouts 200 --threads 1 --seed 7 --quiet"
//! tests/data/gtp/*.tst` passed every test of the files as they stood at 0.1.0 (212 of
//! 212, checked by hand with GoGui 1.5.4 built from its source); the tests added since
//! have been run by this runner only (GoGui is not in Debian, so CI runs this runner).

// Each test binary that includes this file uses a part of it.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::Path;

use regex::Regex;

/// Which rules a file follows, from its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `*.tst`: `gogui-regress`'s file, one command at a time, success answers only.
    Regress,
    /// `*.transcript`: one pipelined batch; failure answers and streams allowed.
    Transcript,
}

impl Format {
    /// The format of a file name, `None` if it is neither.
    pub fn of(name: &str) -> Option<Format> {
        if name.ends_with(".tst") {
            Some(Format::Regress)
        } else if name.ends_with(".transcript") {
            Some(Format::Transcript)
        } else {
            None
        }
    }
}

/// One numbered command and what its answer must be.
#[derive(Clone, Debug)]
pub struct Case {
    /// Line of the command in the file (1-based).
    pub line: usize,
    /// The command's id.
    pub id: String,
    /// The command as written.
    pub command: String,
    /// The pattern between the brackets, `None` without a `#?` line.
    pub expected: Option<String>,
    /// Marked with a trailing `*`.
    pub known_failure: bool,
}

/// The id of a command line: in a `.tst` file as `gogui-regress` reads it, digits
/// followed by a space and fitting a Java `int`; in a `.transcript` any leading digits,
/// alone on the line too (an id without a command is a case there).
pub fn command_id(line: &str, format: Format) -> Option<&str> {
    let first = match format {
        Format::Regress => line.split_once(' ')?.0,
        Format::Transcript => line.split(' ').next()?,
    };
    let digits = !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit());
    let fits = format == Format::Transcript || first.parse::<i32>().is_ok();
    (digits && fits).then_some(first)
}

/// The command lines of a file, as `gogui-regress` sends them: trimmed, tabs as spaces,
/// comment and blank lines left out. With each, its line number (1-based).
pub fn command_lines(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .map(|(i, raw)| (i + 1, java_trim(raw).replace('\t', " ")))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// Reads the numbered commands and their expectations.
pub fn parse_cases(text: &str, format: Format) -> Result<Vec<Case>, String> {
    let mut cases: Vec<Case> = Vec::new();
    // Whether the last command line was a numbered one still without its `#?`.
    let mut open = false;
    for (i, raw) in text.lines().enumerate() {
        let line = java_trim(raw).replace('\t', " ");
        if let Some(rest) = line.strip_prefix("#?") {
            if !open {
                return Err(format!("line {}: #? without a numbered command", i + 1));
            }
            open = false;
            let rest = rest.trim();
            let (rest, known_failure) = match rest.strip_suffix('*') {
                Some(r) => (r.trim_end(), true),
                None => (rest, false),
            };
            let expected = rest
                .strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .ok_or_else(|| format!("line {}: expected `#? [pattern]`", i + 1))?
                .trim();
            if format == Format::Regress && expected.starts_with('?') {
                return Err(format!(
                    "line {}: a .tst file cannot expect a failure answer (gogui-regress \
                     counts every error answer as a failure): move the case to a \
                     .transcript file",
                    i + 1
                ));
            }
            let case = cases.last_mut().expect("open means a case");
            case.expected = Some(expected.to_string());
            case.known_failure = known_failure;
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        open = false;
        if let Some(id) = command_id(&line, format) {
            let command = line.split('#').next().unwrap_or("").trim().to_string();
            cases.push(Case {
                line: i + 1,
                id: id.to_string(),
                command,
                expected: None,
                known_failure: false,
            });
            open = true;
        }
    }
    Ok(cases)
}

/// Answers by id: success flag and what follows the id.
pub type Answers = HashMap<String, (bool, String)>;

/// The answers in an engine's output, by id: success flag and text (what follows the id,
/// lines joined by `\n`).
pub fn parse_answers(output: &str) -> Result<Answers, String> {
    let mut answers = HashMap::new();
    let mut lines = output.split('\n').peekable();
    while let Some(line) = lines.next() {
        if line.is_empty() {
            continue;
        }
        let (id, ok, text) = parse_answer_head(line)?;
        let mut text = text.to_string();
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
        if !id.is_empty() && answers.insert(id.to_string(), (ok, text)).is_some() {
            return Err(format!("two answers with id {id}"));
        }
    }
    Ok(answers)
}

/// The first line of an answer: its id, success flag and what follows the id.
pub fn parse_answer_head(line: &str) -> Result<(&str, bool, &str), String> {
    let ok = match line.as_bytes().first() {
        Some(b'=') => true,
        Some(b'?') => false,
        _ => return Err(format!("line outside an answer: {line:?}")),
    };
    let head = &line[1..];
    let id_len = head.bytes().take_while(u8::is_ascii_digit).count();
    Ok((&head[..id_len], ok, &head[id_len..]))
}

/// Java's `String.trim`: removes every character up to U+0020 at both ends.
fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

/// The answer as `gogui-regress` compares it: from the first space of the whole answer
/// on, trimmed (so `=5 C3` is `C3`, and `=5\nplay C3` is `C3` too).
pub fn regress_text(after_id: &str) -> &str {
    after_id.find(' ').map_or("", |i| java_trim(&after_id[i..]))
}

/// Whether an answer (`text`: what follows the id) matches a pattern, by `gogui-regress`'s
/// rules (see the module doc); `Err` if the pattern is not a regular expression.
pub fn matches(pattern: &str, format: Format, ok: bool, text: &str) -> Result<bool, String> {
    let (want_ok, pattern) = match pattern.strip_prefix('?') {
        Some(p) if format == Format::Transcript => (false, p),
        _ => (true, pattern),
    };
    if ok != want_ok {
        return Ok(false);
    }
    let (invert, pattern) = match pattern.strip_prefix('!') {
        Some(p) => (true, p),
        None => (false, pattern),
    };
    // Java's `Matcher.matches` with MULTILINE | DOTALL: the whole text.
    let re = Regex::new(&format!(r"(?ms)\A(?:{pattern})\z"))
        .map_err(|e| format!("bad pattern [{pattern}]: {e}"))?;
    Ok(re.is_match(regress_text(text)) != invert)
}

/// The engine flags a `.transcript` asks for on a `# args: FLAG…` line (none in a
/// `.tst` file, which gogui-regress runs against whatever engine it is given):
/// added to the binary's command line, and to the in-process session's options.
pub fn extra_args(text: &str, format: Format) -> Vec<String> {
    if format != Format::Transcript {
        return Vec::new();
    }
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("# args:"))
        .flat_map(|rest| rest.split_whitespace().map(str::to_string))
        .collect()
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

/// Checks an engine's answers against a file: `Ok(report)` lists the passes and known
/// failures, `Err` every unexpected result. `answers` maps ids to (success, text);
/// `unnumbered_errors` lists the failed unnumbered commands (fatal in a `.tst`).
pub fn check_answers(
    name: &str,
    text: &str,
    answers: &Answers,
    unnumbered_errors: &[String],
) -> Result<String, String> {
    let format = Format::of(name).ok_or_else(|| format!("{name}: neither .tst nor .transcript"))?;
    let cases = parse_cases(text, format).map_err(|e| format!("{name}: {e}"))?;
    let mut errors = Vec::new();
    let mut report = Vec::new();
    if format == Format::Regress {
        for e in unnumbered_errors {
            errors.push(format!("{name}: unnumbered command failed: {e}"));
        }
    }
    for case in &cases {
        if case.expected.is_none() && format == Format::Transcript {
            continue;
        }
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
        let pass = match (&case.expected, format) {
            (Some(p), _) => match matches(p, format, ok, got) {
                Ok(pass) => pass,
                Err(e) => {
                    errors.push(format!("{name}:{}: {e}", case.line));
                    continue;
                }
            },
            (None, _) => ok,
        };
        let mark = if ok { "=" } else { "?" };
        let shown = format!("{mark}{}", regress_text(got).replace('\n', "\\n"));
        let expected = case.expected.as_deref().unwrap_or("a success answer");
        match (pass, case.known_failure) {
            (true, false) => report.push(format!("pass {}", case.id)),
            (false, true) => report.push(format!("known failure {}: {shown}", case.id)),
            (true, true) => errors.push(format!(
                "{name}:{} `{}`: unexpected pass (remove the `*`)",
                case.line, case.command
            )),
            (false, false) => errors.push(format!(
                "{name}:{} `{}`: expected [{expected}], got {shown}",
                case.line, case.command
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

/// Checks an engine's whole output for a file sent as one pipelined batch (answers
/// found by id; unnumbered answers are not checked).
pub fn check(name: &str, text: &str, output: &str) -> Result<String, String> {
    let answers = parse_answers(output).map_err(|e| format!("{name}: {e}\n{output}"))?;
    check_answers(name, text, &answers, &[])
}
