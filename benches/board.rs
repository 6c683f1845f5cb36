//! Board core benches (criterion): play with captures, legality checks, Game play and
//! undo, a light random game to the end on 9×9 and 19×19, and the fixed-word
//! `Bitboard` against a `bitvec` bit array on the set operations the board uses, and
//! the static life layer on 19×19 end and middle-game positions.
//!
//! Each bench checks its result before it is timed, so it never times a broken function.
//! Run: `cargo bench --bench board -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use bitvec::prelude::*;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::SmallRng;
use rand::{Rng, RngCore, SeedableRng};
use tengen_board::{
    Bitboard, Board, BoardSize, Color, Game, KoRule, MAX_SLOTS, Move, Point, Rules, StaticLife,
};

/// A number in `0..k` from 32 random bits (Lemire's multiply; the bias is below 2⁻²²).
#[inline]
fn below(rng: &mut SmallRng, k: usize) -> usize {
    ((u64::from(rng.next_u32()) * k as u64) >> 32) as usize
}

/// A light playout: uniformly random legal moves that do not fill the mover's own eye,
/// until both pass (or 3×area moves). Returns the number of moves, passes included.
#[inline]
fn light_game(board: &mut Board, rng: &mut SmallRng, mut record: Option<&mut Vec<Move>>) -> u32 {
    let limit = 3 * board.size().area() as u32;
    let mut c = Color::Black;
    let mut passes = 0;
    let mut moves = 0;
    while passes < 2 && moves < limit {
        let pick = board.pick_empty(
            |k| below(rng, k),
            |b, p| !b.is_eye(c, p) && b.check(c, p).is_ok(),
        );
        let m = match pick {
            Some(p) => {
                passes = 0;
                Move::Play(p)
            }
            None => {
                passes += 1;
                Move::Pass
            }
        };
        board.play_unchecked(c, m);
        if let Some(r) = record.as_deref_mut() {
            r.push(m);
        }
        moves += 1;
        c = c.opponent();
    }
    moves
}

/// Plays a light game from the empty board, checks it (every move legal by `Game` under
/// simple ko, the end position finished, invariants hold, the same seed gives the same
/// game) and returns its length.
fn checked_light_game(size: BoardSize, seed: u64) -> u32 {
    let mut board = Board::new(size);
    let mut moves = Vec::new();
    let n = light_game(
        &mut board,
        &mut SmallRng::seed_from_u64(seed),
        Some(&mut moves),
    );
    board
        .check_invariants()
        .expect("invariants after a light game");
    let mut again = Board::new(size);
    assert_eq!(
        light_game(&mut again, &mut SmallRng::seed_from_u64(seed), None),
        n
    );
    assert_eq!(again.hash(), board.hash(), "a seed gives one game");
    let mut rules = Rules::chinese();
    rules.ko = KoRule::Simple;
    let mut game = Game::new(size, rules);
    let mut c = Color::Black;
    for m in &moves {
        game.play(c, *m).expect("every playout move is legal");
        c = c.opponent();
    }
    assert!(
        game.board() == &board,
        "Game and Board end in the same position"
    );
    if n < 3 * size.area() as u32 {
        for &p in board.empty_points() {
            for c in Color::ALL {
                assert!(
                    board.is_eye(c, p) || board.check(c, p).is_err(),
                    "open point"
                );
            }
        }
    }
    assert!(
        n as usize > size.area() / 2,
        "{n} moves is too short a game"
    );
    n
}

/// This thread's time on a CPU so far, in nanoseconds (Linux `schedstat`), if known.
/// On a shared machine it leaves out the time other processes held the CPU.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("light_game");
    for n in [9u32, 19] {
        let size = BoardSize::new(n).unwrap();
        let lengths: Vec<u32> = (0..50).map(|s| checked_light_game(size, s)).collect();
        let mean = f64::from(lengths.iter().sum::<u32>()) / lengths.len() as f64;
        eprintln!("light game {n}x{n}: {mean:.1} moves on average (50 seeds)");
        let empty = Board::new(size);
        let mut board = empty.clone();
        let mut rng = SmallRng::seed_from_u64(1);
        // CPU time per game besides criterion's wall clock, for loaded machines.
        let games = if n == 9 { 100_000 } else { 20_000 };
        let (wall, cpu) = (std::time::Instant::now(), thread_cpu_ns());
        let mut moves = 0u64;
        for _ in 0..games {
            board.copy_from(&empty);
            moves += u64::from(light_game(&mut board, &mut rng, None));
        }
        let wall = wall.elapsed().as_secs_f64() * 1e9;
        if let (Some(a), Some(b)) = (cpu, thread_cpu_ns()) {
            let cpu = (b - a) as f64;
            eprintln!(
                "light game {n}x{n}: {:.2} us CPU ({:.2} us wall) a game, {:.1} ns CPU a move, \
                 over {games} games",
                cpu / f64::from(games) / 1e3,
                wall / f64::from(games) / 1e3,
                cpu / moves as f64
            );
        }
        group.throughput(Throughput::Elements(mean.round() as u64));
        group.bench_function(BenchmarkId::from_parameter(format!("{n}x{n}")), |b| {
            b.iter(|| {
                board.copy_from(&empty);
                black_box(light_game(&mut board, &mut rng, None))
            })
        });
    }
    group.finish();
}

/// A 9×9 move sequence full of captures (from a light game), replayed from the empty board.
fn play_with_captures(c: &mut Criterion) {
    let size = BoardSize::new(9).unwrap();
    // The light game with the most captures among a few seeds.
    let (moves, captured) = (0..20)
        .map(|seed| {
            let mut board = Board::new(size);
            let mut moves = Vec::new();
            light_game(
                &mut board,
                &mut SmallRng::seed_from_u64(seed),
                Some(&mut moves),
            );
            let p = board.prisoners();
            (moves, p.black + p.white)
        })
        .max_by_key(|(_, k)| *k)
        .unwrap();
    let replay = |board: &mut Board| {
        let mut c = Color::Black;
        let mut taken = 0u32;
        for &m in &moves {
            taken += u32::from(board.play_unchecked(c, m).captured);
            c = c.opponent();
        }
        taken
    };
    let empty = Board::new(size);
    let mut board = empty.clone();
    assert_eq!(replay(&mut board), captured);
    board.check_invariants().unwrap();
    assert!(captured > 20, "only {captured} captures");
    let mut group = c.benchmark_group("play");
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function(
        format!("9x9 {} moves, {captured} captured", moves.len()),
        |b| {
            b.iter(|| {
                board.copy_from(&empty);
                black_box(replay(&mut board))
            })
        },
    );
    group.finish();
}

/// A 19×19 middle-game position: 120 light-game moves from the empty board.
fn midgame19() -> (Board, Vec<Move>) {
    let size = BoardSize::new(19).unwrap();
    let mut board = Board::new(size);
    let mut rng = SmallRng::seed_from_u64(42);
    let mut moves = Vec::new();
    let mut c = Color::Black;
    for _ in 0..120 {
        let p = board
            .pick_empty(
                |k| below(&mut rng, k),
                |b, p| !b.is_eye(c, p) && b.check(c, p).is_ok(),
            )
            .expect("room on the board");
        board.play_unchecked(c, Move::Play(p));
        moves.push(Move::Play(p));
        c = c.opponent();
    }
    (board, moves)
}

fn legality(c: &mut Criterion) {
    let (board, moves) = midgame19();
    let size = board.size();
    let points: Vec<Point> = size.points().collect();
    let legal_board = |b: &Board| {
        let mut k = 0u32;
        for &p in &points {
            k += u32::from(b.check(Color::Black, p).is_ok());
            k += u32::from(b.check(Color::White, p).is_ok());
        }
        k
    };
    // The same count by a slow recount: play each move on a copy.
    let slow = points
        .iter()
        .flat_map(|&p| Color::ALL.map(|c| (c, p)))
        .filter(|&(c, p)| {
            let mut b = board.clone();
            b.is_empty_point(p) && b.ko() != Some((p, c)) && {
                let info = b.play_unchecked(c, Move::Play(p));
                info.suicided == 0 && b.color_at(p) == Some(c)
            }
        })
        .count() as u32;
    assert_eq!(legal_board(&board), slow);
    let mut game = Game::new(size, Rules::chinese());
    let mut col = Color::Black;
    for &m in &moves {
        game.play(col, m).unwrap();
        col = col.opponent();
    }
    let legal_game = |g: &Game| {
        let mut k = 0u32;
        for &p in &points {
            k += u32::from(g.is_legal(Color::Black, Move::Play(p)));
            k += u32::from(g.is_legal(Color::White, Move::Play(p)));
        }
        k
    };
    assert_eq!(
        legal_game(&game),
        slow,
        "no superko conflict in this position"
    );
    let mut group = c.benchmark_group("legality");
    group.throughput(Throughput::Elements(2 * points.len() as u64));
    group.bench_function(
        "Board::check 19x19 midgame, every point both colours",
        |b| b.iter(|| black_box(legal_board(black_box(&board)))),
    );
    group.bench_function(
        "Game::is_legal (superko) 19x19 midgame, every point both colours",
        |b| b.iter(|| black_box(legal_game(black_box(&game)))),
    );
    group.finish();
}

fn play_and_undo(c: &mut Criterion) {
    let (board, moves) = midgame19();
    let size = board.size();
    let mut game = Game::new(size, Rules::chinese());
    let run = |g: &mut Game| {
        let mut col = Color::Black;
        for &m in &moves {
            g.play(col, m).unwrap();
            col = col.opponent();
        }
        let h = g.board().hash();
        while g.undo().is_some() {}
        h
    };
    assert_eq!(run(&mut game), board.hash());
    assert!(game.board() == &Board::new(size) && game.move_count() == 0);
    let mut group = c.benchmark_group("game");
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("Game::play then Game::undo, 120 moves on 19x19", |b| {
        b.iter(|| black_box(run(&mut game)))
    });
    group.finish();
}

/// The same set as `Bitboard`, backed by a `bitvec` bit array.
type BvSet = BitArr!(for MAX_SLOTS, in u64, Lsb0);

/// `Bitboard::dilate` written with bitvec: the set, its shifts by 1 and by the stride,
/// masked.
fn bv_dilate(set: &BvSet, stride: usize, mask: &BvSet) -> BvSet {
    let mut out = *set;
    for by in [1, stride] {
        let mut up = *set;
        up.shift_end(by);
        out |= up;
        let mut down = *set;
        down.shift_start(by);
        out |= down;
    }
    out &= mask;
    out
}

/// Flood fill from `seed` within `mask` to the fixed point, with each representation.
fn fill_bitboard(seed: &Bitboard, stride: usize, mask: &Bitboard) -> Bitboard {
    let mut r = *seed;
    loop {
        let grown = r.dilate(stride, mask).or(&r);
        if grown == r {
            return r;
        }
        r = grown;
    }
}

fn fill_bitvec(seed: &BvSet, stride: usize, mask: &BvSet) -> BvSet {
    let mut r = *seed;
    loop {
        let grown = bv_dilate(&r, stride, mask) | r;
        if grown == r {
            return r;
        }
        r = grown;
    }
}

fn bitsets(c: &mut Criterion) {
    let size = BoardSize::new(19).unwrap();
    let stride = size.stride();
    let mut rng = SmallRng::seed_from_u64(9);
    let points: Vec<Point> = (0..200)
        .map(|_| {
            size.point(rng.random_range(0..19), rng.random_range(0..19))
                .unwrap()
        })
        .collect();
    let probes: Vec<Point> = (0..361)
        .map(|i| size.point(i % 19, i / 19).unwrap())
        .collect();
    let mut on_board_bb = Bitboard::EMPTY;
    let mut on_board_bv = BvSet::ZERO;
    for &p in &probes {
        on_board_bb.insert(p);
        on_board_bv.set(p.index(), true);
    }
    // Same contents, same answers.
    let mut bb = Bitboard::EMPTY;
    let mut bv = BvSet::ZERO;
    for &p in &points {
        bb.insert(p);
        bv.set(p.index(), true);
    }
    assert_eq!(bb.count() as usize, bv.count_ones());
    for &p in &probes {
        assert_eq!(bb.contains(p), bv[p.index()]);
    }
    let d_bb = bb.dilate(stride, &on_board_bb);
    let d_bv = bv_dilate(&bv, stride, &on_board_bv);
    assert_eq!(
        d_bb.iter().map(Point::index).collect::<Vec<_>>(),
        d_bv.iter_ones().collect::<Vec<_>>()
    );
    // Open area: the board minus a random wall; flood from one corner.
    let wall: Vec<Point> = points.iter().copied().step_by(2).collect();
    let mut open_bb = on_board_bb;
    let mut open_bv = on_board_bv;
    for &p in &wall {
        open_bb.remove(p);
        open_bv.set(p.index(), false);
    }
    let start = open_bb.first().expect("an open point");
    let mut seed_bb = Bitboard::EMPTY;
    let mut seed_bv = BvSet::ZERO;
    seed_bb.insert(start);
    seed_bv.set(start.index(), true);
    let f_bb = fill_bitboard(&seed_bb, stride, &open_bb);
    let f_bv = fill_bitvec(&seed_bv, stride, &open_bv);
    assert_eq!(f_bb.count() as usize, f_bv.count_ones());
    assert!(
        f_bb.count() > 50,
        "the fill reaches {} points",
        f_bb.count()
    );

    let mut group = c.benchmark_group("bitset");
    group.bench_function("Bitboard insert 200", |b| {
        b.iter(|| {
            let mut s = Bitboard::EMPTY;
            for &p in black_box(&points) {
                s.insert(p);
            }
            s
        })
    });
    group.bench_function("bitvec insert 200", |b| {
        b.iter(|| {
            let mut s = BvSet::ZERO;
            for &p in black_box(&points) {
                s.set(p.index(), true);
            }
            s
        })
    });
    group.bench_function("Bitboard contains 361", |b| {
        b.iter(|| {
            probes
                .iter()
                .filter(|&&p| black_box(&bb).contains(p))
                .count()
        })
    });
    group.bench_function("bitvec contains 361", |b| {
        b.iter(|| {
            probes
                .iter()
                .filter(|&&p| black_box(&bv)[p.index()])
                .count()
        })
    });
    group.bench_function("Bitboard count", |b| b.iter(|| black_box(&bb).count()));
    group.bench_function("bitvec count", |b| b.iter(|| black_box(&bv).count_ones()));
    group.bench_function("Bitboard dilate", |b| {
        b.iter(|| black_box(&bb).dilate(stride, &on_board_bb))
    });
    group.bench_function("bitvec dilate", |b| {
        b.iter(|| bv_dilate(black_box(&bv), stride, &on_board_bv))
    });
    group.bench_function("Bitboard flood fill", |b| {
        b.iter(|| fill_bitboard(black_box(&seed_bb), stride, &open_bb))
    });
    group.bench_function("bitvec flood fill", |b| {
        b.iter(|| fill_bitvec(black_box(&seed_bv), stride, &open_bv))
    });
    group.finish();
}

/// The static life layer (`StaticLife::of`: Benson for both colours, safe territory,
/// seki) on end positions: a light game played out on 19×19 (every group has its
/// one-point eyes, so nearly every stone is pass-alive) and the 19×19 middle game.
fn static_life(c: &mut Criterion) {
    let mut group = c.benchmark_group("static_life");
    let size = BoardSize::new(19).unwrap();
    let mut rng = SmallRng::seed_from_u64(19);
    let mut end = Board::new(size);
    light_game(&mut end, &mut rng, None);
    let life = StaticLife::of(&end);
    assert!(
        life.pass_alive.black.count() + life.pass_alive.white.count() > 200,
        "a played-out board is mostly pass-alive"
    );
    group.bench_function("19x19 end of a light game", |b| {
        b.iter(|| StaticLife::of(black_box(&end)))
    });
    let (mid, _) = midgame19();
    group.bench_function("19x19 middle game", |b| {
        b.iter(|| StaticLife::of(black_box(&mid)))
    });
    // A seki between large groups (tests/data/life/seki.txt), proven by the local
    // search for both colours.
    let seki = tengen_board::parse_diagram(
        ". O X . O X . X .
         O O X . O X X X X
         . O X X O X . . .
         O O X X O X . . .
         . O X X O X . . .
         O O X X O X . . .
         . O O O X X . . .
         O O . O X . . . .
         . O . O X . . . .",
    )
    .unwrap();
    assert!(
        StaticLife::of(&seki).seki.iter().any(|s| s.proven),
        "the seki is proven"
    );
    group.bench_function("9x9 seki between large groups", |b| {
        b.iter(|| StaticLife::of(black_box(&seki)))
    });
    group.finish();
}

criterion_group!(
    benches,
    random_games,
    play_with_captures,
    legality,
    play_and_undo,
    bitsets,
    static_life
);
criterion_main!(benches);
