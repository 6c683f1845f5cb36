//! Small tactical readers shared by the heavy playouts, the priors and the shape
//! learner: ladders, nakade and the stones a move captures.

use tengen_board::{Board, Color, Move, Point};

/// Most positions a ladder read visits before giving up (and calling it no capture).
const LADDER_NODES: u32 = 64;

/// Whether `c` extending its group in atari at the group's last liberty `lib` escapes:
/// the group ends with three or more liberties, or with two and the opponent cannot
/// capture it in a ladder. `board` is left unchanged.
pub fn escape_works(board: &Board, c: Color, lib: Point) -> bool {
    if board.check(c, lib).is_err() {
        return false;
    }
    match board.liberties_after(c, lib, 3) {
        0 | 1 => false,
        2 => {
            let mut b = board.clone();
            b.play_unchecked(c, Move::Play(lib));
            let mut budget = LADDER_NODES;
            !read(Held::Owned(&mut b), lib, c.opponent(), &mut budget)
        }
        _ => true,
    }
}

/// Whether `attacker`, to move, captures the two-liberty group on `group` by ataris
/// the defender can only answer by extending (capturing an attacker stone in atari
/// next to the group counts as escaping). Each atari considered costs one unit of
/// `budget`; a read that runs out calls it no capture.
pub fn ladder_captures(board: &Board, group: Point, attacker: Color, budget: &mut u32) -> bool {
    read(Held::Shared(board), group, attacker, budget)
}

/// The board a ladder read looks at: the caller's, copied before a move is played,
/// or one the read may play on because its caller needs it no more.
enum Held<'a> {
    Shared(&'a Board),
    Owned(&'a mut Board),
}

impl Held<'_> {
    fn board(&self) -> &Board {
        match self {
            Held::Shared(b) => b,
            Held::Owned(b) => b,
        }
    }
}

/// Where one of the attacker's two ataris leads, judged on the board before it.
#[derive(Clone, Copy)]
enum Atari {
    /// Illegal, or the defender escapes at once: the atari stone or another attacker
    /// group next to the defender can be taken, or extending gives three liberties.
    Fails,
    /// The defender's extension is illegal or leaves it one liberty.
    Captures,
    /// The defender extends at `run` to two liberties: the ladder goes on.
    ReadOn { run: Point },
    /// The atari takes stones, which may free liberties: judged on a board it is
    /// played on.
    TakesStones,
}

/// The ladder read. Both ataris are judged on the board as it is (no copy); a board
/// is copied only to read on past an atari while the board before it is still
/// needed: when it is the caller's, or when the other atari must be read on too.
/// A long ladder therefore plays on one board.
fn read(mut held: Held<'_>, group: Point, attacker: Color, budget: &mut u32) -> bool {
    let board = held.board();
    if board.liberties(group) != 2 {
        return board.liberties(group) < 2;
    }
    let set = board.liberty_set(group);
    let mut it = set.iter();
    let (Some(first), Some(second)) = (it.next(), it.next()) else {
        return false;
    };
    let ataris = [
        (first, judge_atari(board, group, attacker, first, second)),
        (second, judge_atari(board, group, attacker, second, first)),
    ];
    let defender = attacker.opponent();
    for (k, &(atari, judged)) in ataris.iter().enumerate() {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let run = match judged {
            Atari::Fails => continue,
            Atari::Captures => return true,
            Atari::ReadOn { run } => run,
            Atari::TakesStones => {
                let mut b = held.board().clone();
                b.play_unchecked(attacker, Move::Play(atari));
                match after_atari(&b, group, atari, defender) {
                    Atari::Fails | Atari::TakesStones => continue,
                    Atari::Captures => return true,
                    Atari::ReadOn { run } => {
                        b.play_unchecked(defender, Move::Play(run));
                        if read(Held::Owned(&mut b), group, attacker, budget) {
                            return true;
                        }
                        continue;
                    }
                }
            }
        };
        let needed_later = ataris[k + 1..]
            .iter()
            .any(|(_, a)| matches!(a, Atari::ReadOn { .. } | Atari::TakesStones));
        let captured = match &mut held {
            Held::Owned(b) if !needed_later => {
                b.play_unchecked(attacker, Move::Play(atari));
                b.play_unchecked(defender, Move::Play(run));
                read(Held::Owned(b), group, attacker, budget)
            }
            _ => {
                let mut b = held.board().clone();
                b.play_unchecked(attacker, Move::Play(atari));
                b.play_unchecked(defender, Move::Play(run));
                read(Held::Owned(&mut b), group, attacker, budget)
            }
        };
        if captured {
            return true;
        }
        // Played on in place only when no atari after this one reads the board.
    }
    false
}

/// Where the attacker's atari at `atari` on the two-liberty group on `group` leads,
/// `other` being the group's other liberty, judged without playing it. Exact when
/// the atari takes no stones: the group is then left `other` alone; the attacker
/// groups it joins become the atari stone's; the other attacker groups keep their
/// liberties; and the defender's extension at `other` finds the liberties it would
/// find now, less `atari`.
fn judge_atari(board: &Board, group: Point, attacker: Color, atari: Point, other: Point) -> Atari {
    if board.check(attacker, atari).is_err() {
        return Atari::Fails;
    }
    if stones_captured(board, attacker, atari) > 0 {
        return Atari::TakesStones;
    }
    if board.liberties_after(attacker, atari, 2) < 2 || attacker_in_atari(board, group, atari) {
        return Atari::Fails;
    }
    // `atari` is a liberty of the group `other` joins, so it is among those counted.
    match board.liberties_after(attacker.opponent(), other, 4) - 1 {
        0 | 1 => Atari::Captures,
        2 => Atari::ReadOn { run: other },
        _ => Atari::Fails,
    }
}

/// Where the attacker's atari, already played on `board` at `atari`, leads: the
/// same judgement as [`judge_atari`] (never [`Atari::TakesStones`]) by the board.
fn after_atari(board: &Board, group: Point, atari: Point, defender: Color) -> Atari {
    if board.liberties(group) != 1 {
        return Atari::Fails; // the atari captured something and freed liberties
    }
    // The attacker's stone in atari can be taken: no ladder.
    if board.liberties(atari) == 1 || counter_capture(board, group) {
        return Atari::Fails;
    }
    let Some(run) = board.atari_liberty(group) else {
        return Atari::Fails;
    };
    if board.check(defender, run).is_err() {
        return Atari::Captures;
    }
    match board.liberties_after(defender, run, 3) {
        0 | 1 => Atari::Captures,
        2 => Atari::ReadOn { run },
        _ => Atari::Fails,
    }
}

/// Whether an attacker group next to the defender's group on `group` is in atari,
/// leaving out those an attacker stone on the empty point `atari` would join (the
/// atari stone's own liberties are judged apart).
fn attacker_in_atari(board: &Board, group: Point, atari: Point) -> bool {
    let Some(defender) = board.color_at(group) else {
        return false;
    };
    let attacker = defender.opponent();
    let size = board.size();
    let mut joined = [None; 4];
    for (k, n) in size.neighbours(atari).into_iter().enumerate() {
        if board.color_at(n) == Some(attacker) {
            joined[k] = board.group(n);
        }
    }
    board.group_stones(group).any(|s| {
        size.neighbours(s).into_iter().any(|n| {
            board.color_at(n) == Some(attacker)
                && board.liberties(n) == 1
                && !joined.contains(&board.group(n))
        })
    })
}

/// How many stones `c` playing the empty point `p` captures: the opponent groups in
/// atari next to it, each counted once however many sides of `p` it touches.
pub fn stones_captured(board: &Board, c: Color, p: Point) -> u32 {
    let mut seen = [None; 4];
    let mut captured = 0;
    for (i, n) in board.size().neighbours(p).into_iter().enumerate() {
        if board.color_at(n) == Some(c.opponent()) && board.liberties(n) == 1 {
            let group = board.group(n);
            if !seen[..i].contains(&group) {
                captured += board.group_size(n);
            }
            seen[i] = group;
        }
    }
    captured
}

/// Most points of an eye space that can be a dead shape (and most stones of a
/// self-atari group whose capture can leave one).
const NAKADE_MAX: usize = 5;

/// Whether `c` playing the empty point `p` is a nakade that kills now.
/// A nakade builds a group whose capture would leave the captor a dead eye shape
/// (see [`dead_shape`]). Played as a self-atari inside an opponent's eye space it can
/// kill the group around it, which a playout that refuses every self-atari would call
/// alive. It kills now when its last liberty is also the last liberty of every
/// opponent group touching it, and the capture on that point joins no other group
/// and no other empty point. The captor then has only the dead shape's space (no eye
/// elsewhere: that would be another liberty) and ends with one eye. When it keeps
/// another liberty (an eye), taking the stones gives it a second eye: in a seki of
/// one eye each the throw-in loses the stones and the seki. The heavy playouts (the
/// search's and the settling ones) play only this kind of throw-in; one played while
/// the captor still has outside liberties waits until they are filled.
pub fn nakade_kills(board: &Board, c: Color, p: Point) -> bool {
    let Some((stones, n)) = nakade_group(board, c, p) else {
        return false;
    };
    let size = board.size();
    let stones = &stones[..n];
    // The new group's liberties: there must be exactly one.
    let mut last = None;
    for &s in stones {
        for q in size.neighbours(s) {
            if q != p && board.is_empty_point(q) && last != Some(q) {
                if last.is_some() {
                    return false;
                }
                last = Some(q);
            }
        }
    }
    let Some(last) = last else {
        return false;
    };
    let touches = |root: Point, at: Point| {
        size.neighbours(at)
            .into_iter()
            .any(|q| board.group(q) == Some(root))
    };
    // An opponent group left with `last` as its only liberty after the move.
    let short = |q: Point| {
        board.color_at(q) == Some(c.opponent())
            && board.group(q).is_some_and(|root| {
                board.liberties(root) - u32::from(touches(root, p)) == 1 && touches(root, last)
            })
    };
    let mut surrounded = false;
    for &s in stones {
        for q in size.neighbours(s) {
            if board.color_at(q) == Some(c.opponent()) {
                if !short(q) {
                    return false;
                }
                surrounded = true;
            }
        }
    }
    // The capturing stone on `last` joins only those groups.
    surrounded
        && size
            .neighbours(last)
            .into_iter()
            .all(|q| board.is_border(q) || stones.contains(&q) || short(q))
}

/// The stones of the group `c` would have after playing the empty point `p` (`p`
/// first) and their number, if they are two to [`NAKADE_MAX`] and make a dead shape.
fn nakade_group(board: &Board, c: Color, p: Point) -> Option<([Point; NAKADE_MAX], usize)> {
    let size = board.size();
    let mut stones = [p; NAKADE_MAX];
    let mut n = 1;
    for q in size.neighbours(p) {
        if board.color_at(q) != Some(c) || stones[..n].contains(&q) {
            continue;
        }
        for s in board.group_stones(q) {
            if n == NAKADE_MAX {
                return None;
            }
            stones[n] = s;
            n += 1;
        }
    }
    (n >= 2 && dead_shape(board, &stones[..n]).is_some()).then_some((stones, n))
}

/// If the points of an eye space make a dead shape (one that a single stone on its
/// vital point reduces to one eye), the vital point: two points (no vital point
/// needed: `Some(None)`), three in any shape (the middle), the pyramid four (the
/// stone touching the other three), the square four (`Some(None)`: it is one eye
/// whatever is played), the crossed five (the centre) and the bulky five (the square's
/// stone touching the fifth). `None` for a shape that can make two eyes.
pub fn dead_shape(board: &Board, points: &[Point]) -> Option<Option<Point>> {
    let size = board.size();
    let degree = |s: Point| {
        size.neighbours(s)
            .into_iter()
            .filter(|t| points.contains(t))
            .count()
    };
    let mut best = (0, None);
    let mut ends = 0; // twice the number of adjacent pairs
    for &s in points {
        let d = degree(s);
        ends += d;
        if d > best.0 {
            best = (d, Some(s));
        }
    }
    match (points.len(), best.0, ends) {
        (1 | 2, _, _) => Some(None),
        (3, _, _) => Some(best.1),
        (4, 3, _) => Some(best.1),
        (4, _, 8) => Some(None),
        (5, 4, _) => Some(best.1),
        // Five edges among five points: a square with one more point, whose
        // neighbour in the square is the only point of degree 3.
        (5, 3, 10) => Some(best.1),
        _ => None,
    }
}

/// After the opponent's last move at `last` captured stones, the vital point of the
/// dead eye shape their capture left, if it left one and `c` may play there: the
/// nakade's follow-up that kills.
pub fn nakade_vital_point(board: &Board, c: Color, last: Point) -> Option<Point> {
    let size = board.size();
    for q in size.neighbours(last) {
        if !board.is_empty_point(q) {
            continue;
        }
        // The empty region through q, enclosed by the captor's stones.
        let mut region = [q; NAKADE_MAX + 1];
        let (mut n, mut k) = (1, 0);
        let mut enclosed = true;
        while k < n && enclosed {
            for t in size.neighbours(region[k]) {
                if board.color_at(t) == Some(c) {
                    enclosed = false;
                } else if board.is_empty_point(t) && !region[..n].contains(&t) {
                    if n > NAKADE_MAX {
                        enclosed = false;
                        break;
                    }
                    region[n] = t;
                    n += 1;
                }
            }
            k += 1;
        }
        if !enclosed || !(3..=NAKADE_MAX).contains(&n) {
            continue;
        }
        if let Some(Some(v)) = dead_shape(board, &region[..n]) {
            if board.check(c, v).is_ok() {
                return Some(v);
            }
        }
    }
    None
}

/// Whether some attacker group touching the group on `group` is in atari.
fn counter_capture(board: &Board, group: Point) -> bool {
    let Some(defender) = board.color_at(group) else {
        return false;
    };
    let size = board.size();
    board.group_stones(group).any(|s| {
        size.neighbours(s)
            .into_iter()
            .any(|n| board.color_at(n) == Some(defender.opponent()) && board.liberties(n) == 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng as _, SeedableRng};
    use tengen_board::parse_diagram;

    /// Whether `c` playing `p` builds a dead shape to be captured, killing or not.
    fn is_nakade(board: &Board, c: Color, p: Point) -> bool {
        nakade_group(board, c, p).is_some()
    }

    #[test]
    fn captured_stones_match_the_board() {
        // White's C4–C5–D5 touches D4 twice and has only D4: three stones, not six.
        let b = parse_diagram(
            ". . X X . .
             . X O O X .
             . X O . . .
             . . X . . .
             . . . . . .
             . . . . . .",
        )
        .unwrap();
        let d4 = b.size().parse_point("D4").unwrap();
        assert_eq!(stones_captured(&b, Color::Black, d4), 3);
        // Every legal point of random 9×9 games captures what playing it captures.
        let size = tengen_board::BoardSize::new(9).unwrap();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        for _ in 0..20 {
            let mut board = Board::new(size);
            let mut c = Color::Black;
            for _ in 0..120 {
                for &p in board.empty_points() {
                    if board.check(c, p).is_ok() {
                        let mut after = board.clone();
                        let info = after.play_unchecked(c, Move::Play(p));
                        assert_eq!(stones_captured(&board, c, p), u32::from(info.captured));
                    }
                }
                let picked = board.pick_empty(
                    |k| rng.random_range(0..k),
                    |b, p| b.check(c, p).is_ok() && !b.is_eye(c, p),
                );
                let m = picked.map_or(Move::Pass, Move::Play);
                board.play_unchecked(c, m);
                c = c.opponent();
            }
        }
    }

    #[test]
    fn nakade_shapes_are_recognised() {
        // The corner of a game lost to GNU Go (engine/tests/endgame.rs has all of it):
        // White's group and Black's A1–B1–B2 share the liberties C1 and C2, which looks
        // like a seki. Black C1 throws in a pyramid four; White must take it and Black
        // kills with B1, the vital point.
        let b = parse_diagram(
            ". . . . .
             X X X X X
             O O O O X
             O X . O X
             X X . O O",
        )
        .unwrap();
        let s = b.size();
        let p = |v: &str| s.parse_point(v).unwrap();
        assert_eq!(b.self_atari_size(Color::Black, p("C1")), Some(4));
        assert!(is_nakade(&b, Color::Black, p("C1")), "pyramid four");
        // C2 makes a zigzag four, which lives once captured.
        assert_eq!(b.self_atari_size(Color::Black, p("C2")), Some(4));
        assert!(!is_nakade(&b, Color::Black, p("C2")), "zigzag four");
        // The kill played out: White takes the four, Black answers on the vital point.
        let mut after = b.clone();
        after.play_unchecked(Color::Black, Move::Play(p("C1")));
        let info = after.play_unchecked(Color::White, Move::Play(p("C2")));
        assert_eq!(info.captured, 4);
        assert_eq!(
            nakade_vital_point(&after, Color::Black, p("C2")),
            Some(p("B1"))
        );
        // White's only liberties are C1 and C2: the throw-in kills now.
        assert!(nakade_kills(&b, Color::Black, p("C1")));
        assert!(!nakade_kills(&b, Color::Black, p("C2")), "zigzag four");
        // Empty points that touch Black's stones are no eye of White's.
        assert_eq!(nakade_vital_point(&b, Color::Black, p("C5")), None);
        // (stones, move, nakade) on an empty 5×5 board, only the shape counting.
        let shapes = [
            ("A1 B1", "C1", true),           // three in a row
            ("A1 B1 C1", "D1", false),       // four in a row
            ("A1 A2 B2", "B1", true),        // the square four
            ("A1 B1 C1", "B2", true),        // the pyramid four
            ("D4", "B2", false),             // one stone: a plain throw-in
            ("C4 B3 D3 C2", "C3", true),     // the crossed five
            ("A1 B1 A2 C1", "B2", true),     // the bulky five
            ("A1 B1 C1 A2", "A3", false),    // a bent five
            ("A1 B1 C1 D1 E1", "E2", false), // six stones
        ];
        for (stones, mv, nakade) in shapes {
            let size = tengen_board::BoardSize::new(5).unwrap();
            let mut d = tengen_board::Board::new(size);
            let at = |v: &str| size.parse_point(v).unwrap();
            for v in stones.split(' ') {
                let q = at(v);
                d.play_unchecked(Color::Black, Move::Play(q));
            }
            assert_eq!(
                is_nakade(&d, Color::Black, at(mv)),
                nakade,
                "{stones} + {mv}"
            );
        }
    }

    #[test]
    fn a_throw_in_next_to_an_eye_is_no_kill() {
        // Seki, one eye each: Black's A2–B2–B1 (eye A1) and White's group (eye A5)
        // share C2. Black C2 builds a pyramid four, but White keeps A5 and takes the
        // four on A1, alive with two eyes.
        let b = parse_diagram(
            "O O X . . .
             . O X . . .
             O O X X . .
             O O O O X .
             X X . O X .
             . X O O X .",
        )
        .unwrap();
        let s = b.size();
        let p = |v: &str| s.parse_point(v).unwrap();
        assert!(is_nakade(&b, Color::Black, p("C2")), "the shape is dead");
        assert!(!nakade_kills(&b, Color::Black, p("C2")), "White has A5");
    }

    #[test]
    fn a_capture_that_reaches_more_space_is_no_kill() {
        // Black B1 leaves A1–B1 and White's wall one liberty each, C1. In the first
        // position White's capture on C1 joins only the wall: White's whole space is
        // A1–B1–C1, one eye. In the second, D1 is empty and the capture reaches it too,
        // so the throw-in is no sure kill.
        let kills = parse_diagram(
            ". . . . .
             . . . . .
             X X X X X
             O O O O O
             X . . O O",
        )
        .unwrap();
        let open = parse_diagram(
            ". . . . .
             . . . . .
             X X X X .
             O O O X O
             X . . . O",
        )
        .unwrap();
        for (b, expected) in [(kills, true), (open, false)] {
            let s = b.size();
            let p = |v: &str| s.parse_point(v).unwrap();
            assert!(is_nakade(&b, Color::Black, p("B1")), "two stones are dead");
            assert_eq!(b.liberties(p("A2")), 2);
            assert_eq!(nakade_kills(&b, Color::Black, p("B1")), expected);
        }
    }

    /// The ladder reader as it was first written: a copy of the board for every atari
    /// tried. The reader in use must agree with it on every read, budget included.
    fn reference_ladder(board: &Board, group: Point, attacker: Color, budget: &mut u32) -> bool {
        let defender = attacker.opponent();
        if board.liberties(group) != 2 {
            return board.liberties(group) < 2;
        }
        let set = board.liberty_set(group);
        let mut it = set.iter();
        let libs = [it.next(), it.next()];
        for atari in libs.into_iter().flatten() {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            if board.check(attacker, atari).is_err() {
                continue;
            }
            let mut b = board.clone();
            b.play_unchecked(attacker, Move::Play(atari));
            if b.liberties(group) != 1 || b.liberties(atari) == 1 || counter_capture(&b, group) {
                continue;
            }
            let Some(run) = b.atari_liberty(group) else {
                continue;
            };
            if b.check(defender, run).is_err() {
                return true;
            }
            match b.liberties_after(defender, run, 3) {
                0 | 1 => return true,
                2 => {
                    b.play_unchecked(defender, Move::Play(run));
                    if reference_ladder(&b, group, attacker, budget) {
                        return true;
                    }
                }
                _ => {}
            }
        }
        false
    }

    #[test]
    fn the_ladder_reader_agrees_with_the_copying_reference_on_random_games() {
        // Random games, with a bias to play next to the last move so that groups run
        // short of liberties; every group in atari is asked whether extending escapes,
        // and every two-liberty group whether the opponent ladders it, at budgets from
        // starved to the reader's own.
        let mut rng = rand::rngs::SmallRng::seed_from_u64(29);
        let (mut reads, mut long, mut captured) = (0u32, 0u32, 0u32);
        for (size, games) in [(9, 60), (13, 30), (19, 20)] {
            let size = tengen_board::BoardSize::new(size).unwrap();
            for _ in 0..games {
                let mut board = Board::new(size);
                let mut c = Color::Black;
                let mut last: Option<Point> = None;
                for _ in 0..size.area() {
                    for &p in board.empty_points() {
                        for side in [Color::Black, Color::White] {
                            let near = size.neighbours(p).into_iter().find(|&n| {
                                board.color_at(n) == Some(side.opponent())
                                    && board.liberties(n) == 2
                            });
                            if let Some(group) = near {
                                for start in [3, 11, LADDER_NODES] {
                                    let (mut a, mut b) = (start, start);
                                    let fast = ladder_captures(&board, group, side, &mut a);
                                    let slow = reference_ladder(&board, group, side, &mut b);
                                    assert_eq!(
                                        (fast, a),
                                        (slow, b),
                                        "{board:?} {group:?} {side:?}"
                                    );
                                    reads += 1;
                                    long += u32::from(start - a >= 6);
                                    captured += u32::from(fast);
                                }
                            }
                            let atari = size.neighbours(p).into_iter().any(|n| {
                                board.color_at(n) == Some(side) && board.liberties(n) == 1
                            });
                            if atari && board.check(side, p).is_ok() {
                                let escapes = match board.liberties_after(side, p, 3) {
                                    0 | 1 => false,
                                    2 => {
                                        let mut b = board.clone();
                                        b.play_unchecked(side, Move::Play(p));
                                        let mut budget = LADDER_NODES;
                                        !reference_ladder(&b, p, side.opponent(), &mut budget)
                                    }
                                    _ => true,
                                };
                                assert_eq!(
                                    escape_works(&board, side, p),
                                    escapes,
                                    "{board:?} {p:?}"
                                );
                            }
                        }
                    }
                    let near_last = last.and_then(|l| {
                        let free: Vec<Point> = size
                            .neighbours(l)
                            .into_iter()
                            .chain(size.diagonals(l))
                            .filter(|&q| board.check(c, q).is_ok() && !board.is_eye(c, q))
                            .collect();
                        (!free.is_empty() && rng.random_range(0..3) > 0)
                            .then(|| free[rng.random_range(0..free.len())])
                    });
                    let picked = near_last.or_else(|| {
                        board.pick_empty(
                            |k| rng.random_range(0..k),
                            |b, p| b.check(c, p).is_ok() && !b.is_eye(c, p),
                        )
                    });
                    let m = picked.map_or(Move::Pass, Move::Play);
                    board.play_unchecked(c, m);
                    last = picked;
                    c = c.opponent();
                }
            }
        }
        // The comparison saw real ladders, long ones among them.
        assert!(
            reads > 10_000 && long > 200 && captured > 1_000,
            "{reads} {long} {captured}"
        );
    }

    #[test]
    fn a_ladder_towards_the_edge_captures_and_a_ladder_breaker_saves() {
        // Black B3 is in atari; extending to C3 leaves two liberties and White chases
        // it down to the first line.
        let open = ". . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                    . O O . . . . . .
                    O X . . . . . . .
                    . O . . . . . . .
                    . . . . . . . . .";
        let b = parse_diagram(open).unwrap();
        let s = b.size();
        let p = |v: &str| s.parse_point(v).unwrap();
        assert_eq!(b.liberties(p("B3")), 1);
        assert!(!escape_works(&b, Color::Black, p("C3")), "the ladder works");
        // A black stone on the ladder's path breaks it.
        let mut broken = b.clone();
        broken.play_unchecked(Color::Black, Move::Play(p("D2")));
        assert!(
            escape_works(&broken, Color::Black, p("C3")),
            "the breaker saves it"
        );
        // In open space three liberties: no ladder needed.
        let free = parse_diagram(
            ". . . . .
             . . O . .
             . O X . .
             . . O . .
             . . . . .",
        )
        .unwrap();
        let q = free.size().parse_point("D3").unwrap();
        assert!(escape_works(&free, Color::Black, q));
    }
}
