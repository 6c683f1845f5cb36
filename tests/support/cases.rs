//! The fixtures' case files (`tests/data/life`, `cleanup`, `tromp-taylor`): `case
//! NAME` starts a case, `#` starts a comment, and every other line is a statement of
//! the case before it, in the words of each format (the format is in each file's
//! header). The engine's tests include this file too.

use std::path::PathBuf;

/// The cases of `text`: `new(NAME)` for each `case NAME` line, then
/// `statement(case, words, line)` for each other line; an error is told with its line
/// number.
pub fn read_cases<C>(
    text: &str,
    new: impl Fn(&str) -> C,
    mut statement: impl FnMut(&mut C, &[&str], &str) -> Result<(), String>,
) -> Result<Vec<C>, String> {
    let mut cases = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if words[0] == "case" {
            cases.push(new(&words[1..].join(" ")));
            continue;
        }
        let case = cases
            .last_mut()
            .ok_or_else(|| format!("line {}: statement before `case`", n + 1))?;
        statement(case, &words, line).map_err(|e| format!("line {}: {e}", n + 1))?;
    }
    Ok(cases)
}

/// Whether `line` is a row of a board diagram: `X`, `O`, `.`, `+` and spaces.
pub fn is_diagram_row(line: &str) -> bool {
    line.chars().all(|c| "XO.+ ".contains(c))
}

/// Reads every file with `parse` (a file that does not parse fails the test) and
/// checks every case with `check`: how many cases there were, and each failure as
/// `FILE / CASE: what`.
pub fn check_cases<C>(
    files: &[PathBuf],
    parse: fn(&str) -> Result<Vec<C>, String>,
    name: fn(&C) -> &str,
    mut check: impl FnMut(&C) -> Vec<String>,
) -> (usize, Vec<String>) {
    let mut count = 0;
    let mut failures = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let cases = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let file_name = file.file_name().unwrap().to_string_lossy();
        for case in &cases {
            count += 1;
            for e in check(case) {
                failures.push(format!("{file_name} / {}: {e}", name(case)));
            }
        }
    }
    (count, failures)
}
