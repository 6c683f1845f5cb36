//! Unit tests of the board: captures and ko, and random games checked against the
//! recomputed invariants.

use super::*;
use crate::diagram::parse_diagram;

#[test]
fn capture_and_ko() {
    let mut b = parse_diagram(
        ". X O .
         X O . O
         . X O .
         . . . .",
    )
    .unwrap();
    let size = b.size();
    let p = |s: &str| size.parse_point(s).unwrap();
    // Black captures at C3 and takes a ko.
    let info = b.try_play(Color::Black, Move::Play(p("C3"))).unwrap();
    assert_eq!(info.captured, 1);
    assert_eq!(b.ko(), Some((p("B3"), Color::White)));
    assert_eq!(
        b.try_play(Color::White, Move::Play(p("B3"))),
        Err(IllegalMove::Ko)
    );
    b.check_invariants().unwrap();
    b.play_unchecked(Color::White, Move::Pass);
    assert_eq!(b.ko(), None);
}

#[test]
fn random_games_keep_every_invariant() {
    let mut seed = 0x1234_5678_u64;
    let mut rand = move |k: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % k
    };
    for n in [2u32, 3, 4, 5, 7, 9, 13, 19] {
        let size = BoardSize::new(n).unwrap();
        for game in 0..3 {
            let mut b = Board::new(size);
            let mut c = Color::Black;
            for _ in 0..size.area() * 3 {
                let legal: Vec<Point> = size.points().filter(|&p| b.check(c, p).is_ok()).collect();
                let m = if legal.is_empty() || rand(50) == 0 {
                    Move::Pass
                } else {
                    Move::Play(legal[rand(legal.len())])
                };
                let expect = b.hash_after(c, m);
                b.play_unchecked(c, m);
                assert_eq!(b.hash(), expect, "hash_after on {n}x{n}, game {game}");
                if let Err(e) = b.check_invariants() {
                    panic!("{e} on {n}x{n} game {game}\n{b:?}");
                }
                c = c.opponent();
            }
        }
    }
}
