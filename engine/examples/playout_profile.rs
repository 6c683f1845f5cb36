//! A fixed-seed playout loop for instruction-count profiling (valgrind callgrind).
//!
//! `cargo build --release -p tengen-engine --example playout_profile`, then
//! `valgrind --tool=callgrind ./target/release/examples/playout_profile light 9 2000`.
//!
//! Arguments: policy (`light` or `heavy`), board size, number of playouts (defaults:
//! light, 9, 2000). The loop is the one `tengen bench` times (copy an empty board,
//! clear the AMAF map, run, score); it prints the average length and a checksum of
//! every outcome (moves, score, final hash, AMAF map), so two builds can be shown to
//! play exactly the same playouts.

use rand::SeedableRng;
use tengen_board::{Board, BoardSize, Color};
use tengen_engine::{Amaf, HeavyParams, Policy, PolicyKind, Rng};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind: PolicyKind = args
        .first()
        .map_or(Ok(PolicyKind::Light), |s| s.parse())
        .expect("policy: light or heavy");
    let size =
        BoardSize::new(args.get(1).map_or(9, |s| s.parse().expect("size"))).expect("board size");
    let n: u64 = args.get(2).map_or(2000, |s| s.parse().expect("playouts"));

    let policy = Policy::new(kind, HeavyParams::default());
    let empty = Board::new(size);
    let mut board = empty.clone();
    let mut rng = Rng::seed_from_u64(0x7465_6E67_656E);
    let mut amaf = Amaf::default();
    let mut moves = 0u64;
    let mut check = 0xcbf2_9ce4_8422_2325_u64;
    let mut mix = |x: u64| check = (check ^ x).wrapping_mul(0x0100_0000_01b3);
    for _ in 0..n {
        board.copy_from(&empty);
        amaf.clear();
        let out = policy.run(
            &mut board,
            Color::Black,
            None,
            7.5,
            &mut rng,
            &mut amaf,
            None,
        );
        moves += u64::from(out.moves);
        mix(u64::from(out.moves));
        mix(out.score.to_bits());
        mix(board.hash().0);
        let mut am = 0u64;
        for p in size.points() {
            if let Some(c) = amaf.first(p) {
                am = am
                    .wrapping_mul(31)
                    .wrapping_add(p.index() as u64 * 2 + c as u64);
            }
        }
        mix(am);
    }
    println!(
        "{} {size}x{size}: {n} playouts, {:.2} moves a playout, checksum {check:016x}",
        kind.name(),
        moves as f64 / n as f64
    );
}
