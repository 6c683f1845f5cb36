//! A fixed-seed playout loop for instruction-count profiling (valgrind callgrind).
//!
//! `cargo build --release -p tengen-engine --example playout_profile`, then
//! `valgrind --tool=callgrind ./target/release/examples/playout_profile light 9 2000`.
//!
//! Arguments: policy (`light`, `light-exact` or `heavy`), board size, number of
//! playouts (defaults: light, 9, 2000). The loop is the one `tengen bench` times (copy
//! an empty board, clear the AMAF map, run, score): `light` on the light board compiled
//! for the size (`LightBoard9`, `13`, `19`, else `LightBoardAny`), `light-exact` the
//! same playouts through `Policy::run` on the exact `Board`. It prints the average
//! length and a checksum of every outcome (moves, score, the Zobrist hash of the final
//! stones, AMAF map), so two builds, or `light` and `light-exact`, can be shown to play
//! exactly the same playouts.

use rand::SeedableRng;
use tengen_board::{
    Board, BoardSize, Color, Hash, LightBoard, LightBoard9, LightBoard13, LightBoard19,
    LightBoardAny, stone_key,
};
use tengen_engine::playout::light_playout;
use tengen_engine::{Amaf, HeavyParams, Outcome, Policy, PolicyKind, Rng};

/// The running checksum of the outcomes.
struct Check {
    size: BoardSize,
    moves: u64,
    sum: u64,
}

impl Check {
    fn mix(&mut self, x: u64) {
        self.sum = (self.sum ^ x).wrapping_mul(0x0100_0000_01b3);
    }

    fn add(&mut self, out: &Outcome, hash: Hash, amaf: &Amaf) {
        self.moves += u64::from(out.moves);
        self.mix(u64::from(out.moves));
        self.mix(out.score.to_bits());
        self.mix(hash.0);
        let mut am = 0u64;
        for p in self.size.points() {
            if let Some(c) = amaf.first(p) {
                am = am
                    .wrapping_mul(31)
                    .wrapping_add(p.index() as u64 * 2 + c as u64);
            }
        }
        self.mix(am);
    }
}

/// The loop `tengen bench` times, `n` times from `empty`: copy it onto the board
/// (`copy`), clear the AMAF map, play a playout (`playout`, which returns its outcome
/// and the Zobrist hash of the final stones), and add the outcome to `check`.
fn playout_loop<B: Clone>(
    empty: &B,
    n: u64,
    check: &mut Check,
    copy: impl Fn(&mut B, &B),
    mut playout: impl FnMut(&mut B, &mut Rng, &mut Amaf) -> (Outcome, Hash),
) {
    let mut board = empty.clone();
    let mut rng = Rng::seed_from_u64(0x7465_6E67_656E);
    let mut amaf = Amaf::default();
    for _ in 0..n {
        copy(&mut board, empty);
        amaf.clear();
        let (out, hash) = playout(&mut board, &mut rng, &mut amaf);
        check.add(&out, hash, &amaf);
    }
}

/// `n` light playouts on the light board of type `LightBoard<CAP, STRIDE>`.
fn light_loop<const CAP: usize, const STRIDE: usize>(n: u64, check: &mut Check) {
    let empty = LightBoard::<CAP, STRIDE>::new(check.size).expect("the type takes this size");
    playout_loop(
        &empty,
        n,
        check,
        LightBoard::copy_from,
        |board, rng, amaf| {
            let out = light_playout(board, Color::Black, 7.5, rng, amaf);
            let mut hash = Hash::default();
            for c in Color::ALL {
                for p in board.stones(c).iter() {
                    hash ^= stone_key(c, p);
                }
            }
            (out, hash)
        },
    );
}

/// `n` playouts of `kind` through `Policy::run` on the exact board.
fn exact_loop(kind: PolicyKind, n: u64, check: &mut Check) {
    let policy = Policy::new(kind, HeavyParams::default());
    let empty = Board::new(check.size);
    playout_loop(&empty, n, check, Board::copy_from, |board, rng, amaf| {
        let out = policy.run(board, Color::Black, None, 7.5, rng, amaf, None);
        (out, board.hash())
    });
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("light", String::as_str);
    let kind: PolicyKind = name
        .trim_end_matches("-exact")
        .parse()
        .expect("policy: light, light-exact or heavy");
    let size =
        BoardSize::new(args.get(1).map_or(9, |s| s.parse().expect("size"))).expect("board size");
    let n: u64 = args.get(2).map_or(2000, |s| s.parse().expect("playouts"));
    let mut check = Check {
        size,
        moves: 0,
        sum: 0xcbf2_9ce4_8422_2325,
    };
    if name == "light" {
        match size.get() {
            9 => light_loop::<128, 10>(n, &mut check),
            13 => light_loop::<256, 14>(n, &mut check),
            19 => light_loop::<512, 20>(n, &mut check),
            _ => light_loop::<1024, 0>(n, &mut check),
        }
    } else {
        exact_loop(kind, n, &mut check);
    }
    // The type aliases name the same boards as the const parameters above.
    let _: Option<(LightBoard9, LightBoard13, LightBoard19, LightBoardAny)> = None;
    println!(
        "{name} {size}x{size}: {n} playouts, {:.2} moves a playout, checksum {:016x}",
        check.moves as f64 / n as f64,
        check.sum
    );
}
