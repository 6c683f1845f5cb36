//! A playout allocates nothing: measured with a counting global allocator.

use rand::SeedableRng;
use tengen_board::{Color, LightBoard19, LightBoardAny};
use tengen_engine::bench::BenchPosition;
use tengen_engine::playout::light_playout;
use tengen_engine::{Amaf, HeavyParams, Keyword, Policy, PolicyKind, Replies, Rng};

#[test]
fn playouts_make_no_heap_allocation() {
    let positions = [
        BenchPosition::empty(tengen_board::BoardSize::new(9).unwrap()),
        BenchPosition::empty(tengen_board::BoardSize::new(19).unwrap()),
        BenchPosition::midgame19(),
    ];
    // The heavy policy twice: with the local draw of the move model and without.
    let kinds = [
        (PolicyKind::Light, None),
        (PolicyKind::Heavy, None),
        (PolicyKind::Heavy, Some(1.0)),
    ];
    for (kind, local_model) in kinds {
        // Learned replies and two-liberty tactics on, so they are measured too.
        let params = HeavyParams {
            reply: 1.0,
            two_liberties: 1.0,
            local_model,
            ..HeavyParams::default()
        };
        let policy = Policy::new(kind, params);
        for pos in &positions {
            let mut rng = Rng::seed_from_u64(3);
            let mut board = pos.board.clone();
            let mut amaf = Amaf::default();
            let mut replies = Replies::default();
            let mut moves = 0;
            let info = allocation_counter::measure(|| {
                for _ in 0..30 {
                    board.copy_from(&pos.board);
                    amaf.clear();
                    let out = policy.run(
                        &mut board,
                        pos.to_move,
                        pos.last,
                        7.5,
                        &mut rng,
                        &mut amaf,
                        Some(&mut replies),
                    );
                    moves += out.moves;
                }
            });
            assert!(moves > 30 * 50, "the playouts ran ({moves} moves)");
            assert_eq!(
                info.count_total,
                0,
                "{} playouts on {} allocated {} times",
                kind.name(),
                pos.name,
                info.count_total
            );
        }
    }
    // The light board's playouts, on the board compiled for 19×19 and on the one for
    // any size.
    for pos in &positions {
        let mut rng = Rng::seed_from_u64(4);
        let mut amaf = Amaf::default();
        let any = LightBoardAny::from_board(&pos.board).unwrap();
        let mut board = any.clone();
        let fixed =
            (pos.board.size().get() == 19).then(|| LightBoard19::from_board(&pos.board).unwrap());
        let mut fixed_board = fixed.clone();
        let mut moves = 0;
        let info = allocation_counter::measure(|| {
            for _ in 0..30 {
                board.copy_from(&any);
                amaf.clear();
                moves += light_playout(&mut board, pos.to_move, 7.5, &mut rng, &mut amaf).moves;
                if let (Some(start), Some(b)) = (&fixed, &mut fixed_board) {
                    b.copy_from(start);
                    amaf.clear();
                    moves += light_playout(b, pos.to_move, 7.5, &mut rng, &mut amaf).moves;
                }
            }
        });
        assert!(moves > 30 * 50, "the playouts ran ({moves} moves)");
        assert_eq!(
            info.count_total, 0,
            "light-board playouts on {} allocated",
            pos.name
        );
    }
    // The counter itself works: a vector allocates.
    let info = allocation_counter::measure(|| {
        let v: Vec<Color> = vec![Color::Black; 10];
        std::hint::black_box(v);
    });
    assert!(info.count_total > 0);
}
