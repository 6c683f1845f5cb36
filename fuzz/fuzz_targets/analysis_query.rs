//! Any bytes, read as query lines the way `tengen analysis` reads them (the bounded
//! line reader, a small bound so overlong lines are exercised), each line parsed and
//! checked as a query. No input may panic; every refused line gives an error that is a
//! JSON object naming its id when it has one; every accepted query's turns can be
//! rebuilt (the searchers rely on it) and its warnings are JSON objects too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_analysis::line::{Line, LineReader, id_in};
use tengen_analysis::{Defaults, Perspective, Request, Severity, parse_line};

const DEFAULTS: Defaults = Defaults {
    max_visits: 10,
    perspective: Perspective::Black,
};

fn is_object(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| v.is_object())
}

fuzz_target!(|data: &[u8]| {
    let mut lines = LineReader::new(data, 4096);
    while let Ok(Some(line)) = lines.next_line() {
        let text = match line {
            Line::TooLong { start, len } => {
                assert!(len > 4096 && start.len() <= 64 * 1024);
                let _ = id_in(&start);
                continue;
            }
            Line::Text(text) => text,
        };
        match parse_line(&text, &DEFAULTS) {
            Err(notice) => {
                assert_eq!(notice.severity, Severity::Error);
                assert!(is_object(&notice.to_json()), "{notice:?}");
            }
            Ok(Request::Analyze(query)) => {
                assert!(!query.turns.is_empty());
                for &(turn, _) in &query.turns {
                    assert!(turn < query.position.turns());
                    query
                        .position
                        .game_at(turn)
                        .expect("an accepted record replays");
                }
                for w in &query.warnings {
                    assert_eq!(w.severity, Severity::Warning);
                    assert!(is_object(&w.to_json()));
                }
            }
            Ok(_) => {}
        }
    }
});
