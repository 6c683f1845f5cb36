//! Scanning SGF text before it is parsed: bounds on what the parser would build.

/// The deepest line of nodes in the text (a conservative count: every `;` outside a
/// property value opens a node).
pub(super) fn tree_depth(text: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let mut opened: Vec<usize> = Vec::new();
    let (mut in_value, mut escaped) = (false, false);
    for b in text.bytes() {
        if in_value {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b']' {
                in_value = false;
            }
            continue;
        }
        match b {
            b'[' => in_value = true,
            b'(' => opened.push(depth),
            b')' => depth = opened.pop().unwrap_or(depth),
            b';' => {
                depth += 1;
                max = max.max(depth);
            }
            _ => {}
        }
    }
    max
}
