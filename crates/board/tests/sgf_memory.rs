//! What reading SGF costs in memory: bounded by the main line that is loaded, not by
//! the collection or the variations around it. One test in its own binary, measured
//! by the process's peak resident set (Linux's `VmHWM`, reset through `clear_refs`).

#![cfg(target_os = "linux")]

use tengen_board::sgf::parse_sgf;

/// The peak resident set of this process in bytes.
fn peak_rss() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    let kb: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb << 10
}

/// How far the peak resident set rises above the current one while `f` runs.
fn peak_rise(f: impl FnOnce()) -> usize {
    std::fs::write("/proc/self/clear_refs", "5").unwrap();
    let before = peak_rss();
    f();
    peak_rss().saturating_sub(before)
}

#[test]
fn a_load_costs_about_its_main_line_not_the_collection() {
    let moves: String = (0..200u8)
        .map(|i| {
            let (x, y) = (b'a' + i % 19, b'a' + i / 19);
            format!(
                ";{}[{}{}]",
                ["B", "W"][usize::from(i % 2)],
                x as char,
                y as char
            )
        })
        .collect();
    let game = format!("(;FF[4]GM[1]SZ[19]PB[a]PW[b]{moves})\n");
    // A collection of 8 MiB, one game tree of as many variations, and one node of as
    // many values (refused, but not after building them).
    let collection = game.repeat((8 << 20) / game.len());
    let variations = format!("(;SZ[19](;B[aa]){})", "(;B[bb]C[x])".repeat((8 << 20) / 12));
    let values = format!("(;SZ[19]TR{})", "[aa]".repeat((8 << 20) / 4));
    for (what, text, loads) in [
        ("collection", &collection, true),
        ("variations", &variations, true),
        ("values", &values, false),
    ] {
        let rise = peak_rise(|| assert_eq!(parse_sgf(text).is_ok(), loads, "{what}"));
        // The text is resident already; a load may copy it about once more.
        assert!(
            rise < 2 * text.len(),
            "{what}: the peak rose by {rise} bytes for {} bytes of text",
            text.len()
        );
    }
}
