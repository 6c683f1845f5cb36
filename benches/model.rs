//! The move model's cost per position (criterion): every legal candidate of a 19×19
//! position rated by the shipped model (features, patterns, table look-ups), what a
//! tree expansion pays under `--model-prior` (the prior's `prior::model::apply`). Positions: the
//! board after one move (open space everywhere) and `BenchPosition::midgame19`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tengen_board::{Board, BoardSize, Color, Move};
use tengen_engine::ModelKnowledge;
use tengen_engine::bench::BenchPosition;
use tengen_knowledge::move_model::features::History;

/// The log strengths of every legal move of `c` on `board`, summed (so nothing is
/// optimised away), and how many there were.
fn rate_all(k: &ModelKnowledge, board: &Board, c: Color, history: &History) -> (f32, usize) {
    let mut sum = 0.0;
    let mut n = 0;
    for &p in board.empty_points() {
        if board.check(c, p).is_ok() {
            sum += k.log_strength(board, c, Move::Play(p), history);
            n += 1;
        }
    }
    (sum, n)
}

fn model(c: &mut Criterion) {
    let k = ModelKnowledge::shipped();
    let size = BoardSize::new(19).expect("size");
    let mut opening = Board::new(size);
    let centre = size.parse_point("K10").expect("K10");
    opening.play_unchecked(Color::Black, Move::Play(centre));
    let mid = BenchPosition::midgame19();
    let positions = [
        ("one-move", opening, Color::White, Some(centre)),
        ("midgame19", mid.board, mid.to_move, mid.last),
    ];
    for (name, board, to_move, last) in positions {
        let history = History {
            last: last.map(Move::Play),
            before: None,
        };
        let (sum, n) = rate_all(&k, &board, to_move, &history);
        assert!(n > 100 && sum.is_finite(), "{n} candidates, sum {sum}");
        c.bench_function(&format!("model/rate-all/19x19/{name}"), |b| {
            b.iter(|| rate_all(&k, black_box(&board), to_move, &history))
        });
    }
}

criterion_group!(benches, model);
criterion_main!(benches);
