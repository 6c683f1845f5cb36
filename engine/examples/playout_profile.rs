//! A fixed-seed playout loop for instruction-count profiling (valgrind callgrind).
//!
//! `cargo build --release -p tengen-engine --example playout_profile`, then
//! `valgrind --tool=callgrind ./target/release/examples/playout_profile light 9 2000`.
//!
//! Arguments: policy (`light`, `light-exact` or `heavy`), board size, number of
//! playouts (defaults: light, 9, 2000). The loop is the one `tengen bench` times (copy
//! an empty board, clear the AMAF map, run, score): `light` on the `LightBoard`,
//! `light-exact` the same playouts through `Policy::run` on the exact `Board`. It
//! prints the average length and a checksum of every outcome (moves, score, the
//! Zobrist hash of the final stones, AMAF map), so two builds, or `light` and
//! `light-exact`, can be shown to play exactly the same playouts.

use rand::SeedableRng;
use tengen_board::{Board, BoardSize, Color, Hash, LightBoard, stone_key};
use tengen_engine::playout::light_playout;
use tengen_engine::{Amaf, HeavyParams, Policy, PolicyKind, Rng};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("light", String::as_str);
    let on_light_board = name == "light";
    let kind: PolicyKind = name
        .trim_end_matches("-exact")
        .parse()
        .expect("policy: light, light-exact or heavy");
    let size =
        BoardSize::new(args.get(1).map_or(9, |s| s.parse().expect("size"))).expect("board size");
    let n: u64 = args.get(2).map_or(2000, |s| s.parse().expect("playouts"));

    let policy = Policy::new(kind, HeavyParams::default());
    let empty = Board::new(size);
    let mut board = empty.clone();
    let light_empty = LightBoard::from_board(&empty);
    let mut light = light_empty.clone();
    let mut rng = Rng::seed_from_u64(0x7465_6E67_656E);
    let mut amaf = Amaf::default();
    let mut moves = 0u64;
    let mut check = 0xcbf2_9ce4_8422_2325_u64;
    let mut mix = |x: u64| check = (check ^ x).wrapping_mul(0x0100_0000_01b3);
    for _ in 0..n {
        amaf.clear();
        let (out, hash) = if on_light_board {
            light.copy_from(&light_empty);
            let out = light_playout(&mut light, Color::Black, 7.5, &mut rng, &mut amaf);
            let mut h = Hash::default();
            for c in Color::ALL {
                for p in light.stones(c).iter() {
                    h ^= stone_key(c, p);
                }
            }
            (out, h)
        } else {
            board.copy_from(&empty);
            let out = policy.run(
                &mut board,
                Color::Black,
                None,
                7.5,
                &mut rng,
                &mut amaf,
                None,
            );
            (out, board.hash())
        };
        moves += u64::from(out.moves);
        mix(u64::from(out.moves));
        mix(out.score.to_bits());
        mix(hash.0);
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
        "{name} {size}x{size}: {n} playouts, {:.2} moves a playout, checksum {check:016x}",
        moves as f64 / n as f64
    );
}
