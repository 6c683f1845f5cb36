//! Integration tests of the board core, ripgrep style: one binary, one module a topic.

// Helpers and the slow, obviously correct reference board the other modules trust.
mod support;

// Exhaustive counts of legal move sequences on tiny boards, reference vs Game.
mod perft;
// Rules fixtures as data (tests/data/rules): captures, ko, superko, suicide, scoring.
mod rules;
// Seeded random games on every size, fast board vs reference after every move; proptest.
mod differential;
// Life-and-death fixtures (tests/data/life): static proofs and the engine's judgement.
mod life;
// Clean-up play out to the end (tests/data/cleanup) against a scripted opponent.
mod cleanup;
// SGF records (tests/data/sgf): reading, round trips, broken files refused.
mod sgf;
// `tengen learn` through the real binary: repeatable fits, clear errors, --move-table.
mod learn;
// The policy-network trainer: export the fixture games, train a few steps, the loss falls.
mod policy_trainer;
// The GTP front end through the real binary: transcripts, Sabaki, engine vs engine.
mod gtp;
// `tengen review` through the real binary: annotations, resume, Sabaki, GNU Go, the graph.
mod review;
// `tengen diagnose` through the real binary: a group that dies found, a GTP referee, bad input.
mod diagnose;
// KataGo's JSON analysis protocol through the real binary: queries, bad input, the
// documented shape, KaTrain's engine class, throughput against GTP.
mod analysis;
// `tengen match --report` through the real binary: a match against GNU Go, rendered by Chromium.
mod match_report;
// The documents' summaries: this version, commits that exist, commands that parse.
mod docs;
