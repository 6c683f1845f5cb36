//! Exhaustive counts of legal move sequences on tiny boards ("perft", as chess engines
//! call it): every sequence of `depth` moves, colours alternating from Black, passes
//! included as moves (two passes do not end the count), under each ko rule.
//!
//! The counts are made twice, by the reference board of `support` and by
//! `tengen_board::Game`, and both must equal the numbers stored in
//! `tests/data/perft.txt`. Those were generated once with the reference board; the
//! 2×2 ones for depths 1 to 3 were checked by hand (see the file's comments).

use tengen_board::{BoardSize, Color, Game, KoRule, Move, Rules};

use crate::support::{RefGame, RefRules};

/// The rule sets counted, by the names the data file uses.
fn rules(name: &str) -> Rules {
    let mut r = Rules::chinese();
    match name {
        "simple" => r.ko = KoRule::Simple,
        "positional" => r.ko = KoRule::Positional,
        "situational" => r.ko = KoRule::Situational,
        "tromp-taylor" => r = Rules::tromp_taylor(),
        _ => panic!("unknown rule set {name} in perft.txt"),
    }
    r
}

const RULES: [&str; 4] = ["simple", "positional", "situational", "tromp-taylor"];

/// Sequences of each length 1..=depth, by the reference: `counts[d - 1]`.
fn ref_counts(n: usize, r: &Rules, depth: usize) -> Vec<u64> {
    fn walk(g: &mut RefGame, c: Color, left: usize, counts: &mut [u64]) {
        let level = counts.len() - left;
        let n2 = g.board.n * g.board.n;
        for mv in (0..n2).map(Some).chain([None]) {
            if left == 1 {
                counts[level] += u64::from(g.legal(c, mv));
            } else if g.play(c, mv).is_ok() {
                counts[level] += 1;
                walk(g, c.opponent(), left - 1, counts);
                assert!(g.undo());
            }
        }
    }
    let mut g = RefGame::empty(n, RefRules::of(r));
    let mut counts = vec![0; depth];
    walk(&mut g, Color::Black, depth, &mut counts);
    counts
}

/// The same by `tengen_board::Game`.
fn game_counts(n: usize, r: &Rules, depth: usize) -> Vec<u64> {
    fn walk(g: &mut Game, moves: &[Move], c: Color, left: usize, counts: &mut [u64]) {
        let level = counts.len() - left;
        for &m in moves {
            if left == 1 {
                counts[level] += u64::from(g.is_legal(c, m));
            } else if g.play(c, m).is_ok() {
                counts[level] += 1;
                walk(g, moves, c.opponent(), left - 1, counts);
                assert!(g.undo().is_some());
            }
        }
    }
    let size = BoardSize::new(n as u32).unwrap();
    let moves: Vec<Move> = size.points().map(Move::Play).chain([Move::Pass]).collect();
    let mut g = Game::new(size, *r);
    let mut counts = vec![0; depth];
    walk(&mut g, &moves, Color::Black, depth, &mut counts);
    counts
}

/// The stored counts for one size: (rules, depth, count) lines of `perft.txt`.
fn stored(n: usize) -> Vec<(String, usize, u64)> {
    let text = include_str!("data/perft.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 4, "perft.txt line {l:?}: size rules depth count");
            let size: usize = f[0].parse().expect("size");
            (size == n).then(|| {
                (
                    f[1].to_string(),
                    f[2].parse().expect("depth"),
                    f[3].parse().expect("count"),
                )
            })
        })
        .collect()
}

fn check_size(n: usize, depth: usize) {
    let want = stored(n);
    let mut table = String::new();
    let mut mismatch = Vec::new();
    for name in RULES {
        let r = rules(name);
        let by_ref = ref_counts(n, &r, depth);
        let by_game = game_counts(n, &r, depth);
        for d in 1..=depth {
            table.push_str(&format!("{n} {name} {d} {}\n", by_ref[d - 1]));
            if by_ref[d - 1] != by_game[d - 1] {
                mismatch.push(format!(
                    "{n}x{n} {name} depth {d}: reference {} but Game {}",
                    by_ref[d - 1],
                    by_game[d - 1]
                ));
            }
            match want.iter().find(|(w, wd, _)| w == name && *wd == d) {
                Some((_, _, count)) if *count == by_ref[d - 1] => {}
                Some((_, _, count)) => mismatch.push(format!(
                    "{n}x{n} {name} depth {d}: stored {count} but counted {}",
                    by_ref[d - 1]
                )),
                None => mismatch.push(format!("{n}x{n} {name} depth {d}: not stored")),
            }
        }
    }
    assert!(
        want.len() == RULES.len() * depth,
        "perft.txt holds {} lines for {n}x{n}, expected {}\n{table}",
        want.len(),
        RULES.len() * depth
    );
    assert!(
        mismatch.is_empty(),
        "{}\ncounted:\n{table}",
        mismatch.join("\n")
    );
}

#[test]
fn two_by_two_to_depth_13() {
    check_size(2, 13);
}

#[test]
fn three_by_three_to_depth_7() {
    check_size(3, 7);
}

#[test]
fn four_by_four_to_depth_5() {
    check_size(4, 5);
}

#[test]
fn the_ko_rules_disagree_somewhere() {
    // The stored table would be useless for superko if the rules never differed.
    let at = |name: &str| {
        stored(2)
            .into_iter()
            .find(|(r, d, _)| r == name && *d == 13)
            .map(|(_, _, c)| c)
    };
    let (s, p, t) = (at("simple"), at("positional"), at("situational"));
    assert!(
        s.is_some() && s != p && p != t && s != t,
        "{s:?} {p:?} {t:?}"
    );
}
