//! Any bytes, split into lines, fed to a GTP session: the line cleanup, the id and
//! command parser, the typed argument decoders and every command's handler. No input
//! may panic, and every line that is not empty after cleanup gets exactly one answer.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use tengen_board::BoardSize;
use tengen_engine::{Config, Engine, Knowledge};
use tengen_gtp::{Session, SessionOptions};

/// The engine's tables, built once for the whole run: the engine only reads them, so
/// every input still starts from a fresh session, and building them (most of a
/// session's start-up) is not repeated for each input.
static KNOWLEDGE: OnceLock<Arc<Knowledge>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let config = Config {
        threads: 1,
        playouts: Some(16),
        ..Config::default()
    };
    let knowledge = KNOWLEDGE.get_or_init(|| Arc::new(Knowledge::shipped()));
    let mut session = Session::with_engine(
        Engine::with_knowledge(config, Arc::clone(knowledge)),
        SessionOptions {
            quiet: true,
            // Small boards keep end-of-game scoring (a few thousand playouts) quick;
            // `boardsize` still reaches every size.
            size: BoardSize::new(9).expect("9 is a board size"),
            ..SessionOptions::default()
        },
    );
    session.set_log(Box::new(std::io::sink()));
    for line in data.split(|&b| b == b'\n') {
        let clean = tengen_gtp::protocol::clean_line(line);
        // `printsgf FILE` writes a file: never let the fuzzer choose paths.
        if tengen_gtp::protocol::parse_request(&clean)
            .is_some_and(|r| r.name == "printsgf" && !r.args.is_empty())
        {
            continue;
        }
        let mut out = Vec::new();
        let more = session
            .handle_line(line, &mut out)
            .expect("writing to memory");
        let answers = out.windows(2).filter(|w| w == b"\n\n").count();
        assert_eq!(
            answers,
            usize::from(!clean.is_empty()),
            "{line:?} -> {out:?}"
        );
        if !more {
            break;
        }
    }
});
