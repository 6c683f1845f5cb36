//! Single playouts per board size and policy (criterion). Each bench first checks that
//! a playout from its position ends in a legal finished game with a sane length.
//! `playout/light/...` is the light policy through `Policy::run` on the exact board;
//! `playout/light-board/...` the same playouts on the light board (`LightBoard9`,
//! `13`, `19`), what `tengen bench --policy light` times.

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use std::hint::black_box;
use tengen_board::{Board, BoardSize, Color, LightBoard};
use tengen_engine::bench::BenchPosition;
use tengen_engine::playout::light_playout;
use tengen_engine::{Amaf, HeavyParams, Keyword, Outcome, Policy, PolicyKind, Rng};

/// The komi every bench's playouts are scored with.
const KOMI: f64 = 7.5;

/// A playout of `policy` from `pos` on `board` (which holds `pos`'s position), as the
/// benches both check and time it.
fn playout(
    pos: &BenchPosition,
    policy: &Policy,
    board: &mut Board,
    rng: &mut Rng,
    amaf: &mut Amaf,
) -> Outcome {
    policy.run(board, pos.to_move, pos.last, KOMI, rng, amaf, None)
}

/// Runs one playout and checks the end position: the board's invariants hold, the
/// length is within sane bounds and, for the light policy, no open point is left for
/// either side (every empty point is an own eye or illegal). The heavy policy may end
/// with a point open that it refuses to play (a self-atari), so it gets no such check.
fn checked_playout(pos: &BenchPosition, kind: PolicyKind, policy: &Policy, rng: &mut Rng) {
    let mut board = pos.board.clone();
    let mut amaf = Amaf::default();
    let out = playout(pos, policy, &mut board, rng, &mut amaf);
    board
        .check_invariants()
        .expect("board invariants after a playout");
    let area = board.size().area() as u32;
    assert!(out.moves > 0 && out.moves < 3 * area, "{} moves", out.moves);
    if kind != PolicyKind::Light {
        return;
    }
    for &p in board.empty_points() {
        for c in Color::ALL {
            assert!(
                board.is_eye(c, p) || board.check(c, p).is_err(),
                "playout ended with an open point"
            );
        }
    }
}

fn playouts(c: &mut Criterion) {
    let positions = [
        BenchPosition::empty(BoardSize::new(9).expect("size")),
        BenchPosition::empty(BoardSize::new(13).expect("size")),
        BenchPosition::empty(BoardSize::new(19).expect("size")),
        BenchPosition::midgame19(),
    ];
    for kind in [PolicyKind::Light, PolicyKind::Heavy] {
        let policy = Policy::new(kind, HeavyParams::default());
        for pos in &positions {
            let mut rng = Rng::seed_from_u64(7);
            for _ in 0..20 {
                checked_playout(pos, kind, &policy, &mut rng);
            }
            let name = format!(
                "playout/{}/{}x{}/{}",
                kind.name(),
                pos.board.size(),
                pos.board.size(),
                pos.name
            );
            let mut board = pos.board.clone();
            let mut amaf = Amaf::default();
            c.bench_function(&name, |b| {
                b.iter(|| {
                    board.copy_from(&pos.board);
                    amaf.clear();
                    black_box(playout(pos, &policy, &mut board, &mut rng, &mut amaf))
                })
            });
        }
    }
}

/// The light-board playout bench for one position on `LightBoard<CAP, STRIDE>`, after a
/// check that its playouts are those of `Policy::run` on the exact board.
fn light_board_bench<const CAP: usize, const STRIDE: usize>(
    c: &mut Criterion,
    pos: &BenchPosition,
) {
    let start = LightBoard::<CAP, STRIDE>::from_board(&pos.board).expect("the type takes the size");
    let policy = Policy::new(PolicyKind::Light, HeavyParams::default());
    let (mut rl, mut re) = (Rng::seed_from_u64(11), Rng::seed_from_u64(11));
    let mut amaf = Amaf::default();
    for _ in 0..20 {
        let mut light = start.clone();
        let mut exact = pos.board.clone();
        let ol = light_playout(&mut light, pos.to_move, KOMI, &mut rl, &mut amaf);
        let oe = playout(pos, &policy, &mut exact, &mut re, &mut amaf);
        assert_eq!(
            (ol.moves, ol.score),
            (oe.moves, oe.score),
            "light board differs"
        );
    }
    let size = pos.board.size();
    let name = format!("playout/light-board/{size}x{size}/{}", pos.name);
    let mut board = start.clone();
    let mut rng = Rng::seed_from_u64(7);
    c.bench_function(&name, |b| {
        b.iter(|| {
            board.copy_from(&start);
            amaf.clear();
            black_box(light_playout(
                &mut board,
                pos.to_move,
                KOMI,
                &mut rng,
                &mut amaf,
            ))
        })
    });
}

fn light_board_playouts(c: &mut Criterion) {
    light_board_bench::<128, 10>(c, &BenchPosition::empty(BoardSize::new(9).expect("size")));
    light_board_bench::<256, 14>(c, &BenchPosition::empty(BoardSize::new(13).expect("size")));
    light_board_bench::<512, 20>(c, &BenchPosition::empty(BoardSize::new(19).expect("size")));
    light_board_bench::<512, 20>(c, &BenchPosition::midgame19());
}

criterion_group!(benches, light_board_playouts, playouts);
criterion_main!(benches);
