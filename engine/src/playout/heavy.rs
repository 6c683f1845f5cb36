//! The heavy playout policy: local answers to the last move before random play.
//!
//! In order, each with its probability from [`HeavyParams`]:
//! 0. nakade (when `HeavyParams::nakade` is set): after the last move captured three
//!    to five stones that leave a dead eye shape, play its vital point;
//! 1. capture: take a group in atari next to the last move (the last stone's own
//!    group included);
//! 2. escape: save an own group the last move put in atari, by extending when that
//!    gains liberties or by capturing a neighbour in atari;
//! 3. two liberties: after the last move, extend an own group next to it that has two
//!    liberties to three or more, or atari the last move's group of two liberties when
//!    it cannot escape (see [`two_liberty_answers`]);
//! 4. reply: the learned last good reply to the last move (see [`Replies`]), when it
//!    is legal, fills no own eye and is no self-atari;
//! 5. pattern: play a 3×3 shape on one of the last move's eight neighbours; or, when
//!    `HeavyParams::local_model` is set, a neighbour drawn by the move model's local
//!    strengths against the rest of the board (see [`super::local`]), the rest
//!    meaning the random step;
//! 6. random: first, when `HeavyParams::fill_board` is set, a few random tries for a
//!    point in open space (all eight neighbours empty); then as the light policy, but
//!    refusing self-atari of groups of
//!    `self_atari_min` stones or more (unless, when `HeavyParams::nakade` is set, it
//!    plays a nakade that kills: see [`nakade_kills`]).
//!
//! [`HeavyParams`]: crate::config::HeavyParams

use tengen_board::{Board, Color, Move, Point};

use super::{Policy, Replies, Rng, below, chance};
use crate::config::HeavyParams;
use tengen_knowledge::shape::shape_code;
use tengen_knowledge::tactics::{escape_works, nakade_kills, nakade_vital_point};

/// At most this many candidates are gathered per heuristic.
const MAX_CANDIDATES: usize = 16;

/// A fixed-capacity candidate list (no heap inside a playout).
struct Candidates {
    points: [Point; MAX_CANDIDATES],
    len: usize,
}

impl Candidates {
    fn new() -> Candidates {
        Candidates {
            points: [Point::from_index(0); MAX_CANDIDATES],
            len: 0,
        }
    }

    fn push(&mut self, p: Point) {
        if self.len < MAX_CANDIDATES && !self.points[..self.len].contains(&p) {
            self.points[self.len] = p;
            self.len += 1;
        }
    }

    fn pick(&self, rng: &mut Rng) -> Option<Point> {
        (self.len > 0).then(|| self.points[below(rng, self.len)])
    }
}

pub(super) fn choose(
    policy: &Policy,
    board: &mut Board,
    c: Color,
    last: Option<Point>,
    captured: u16,
    rng: &mut Rng,
    replies: Option<&Replies>,
) -> Move {
    let params = &policy.params;
    if let Some(last) = last {
        if params.nakade && (3..=5).contains(&captured) {
            if let Some(p) = nakade_vital_point(board, c, last) {
                return Move::Play(p);
            }
        }
        let mut captures = Candidates::new();
        let mut escapes = Candidates::new();
        atari_answers(board, c, last, &mut captures, &mut escapes);
        if chance(rng, params.capture) {
            if let Some(p) = captures.pick(rng) {
                return Move::Play(p);
            }
        }
        if chance(rng, params.escape) {
            if let Some(p) = escapes.pick(rng) {
                return Move::Play(p);
            }
        }
        if chance(rng, params.two_liberties) {
            let mut tactics = Candidates::new();
            two_liberty_answers(board, c, last, &mut tactics);
            if let Some(p) = tactics.pick(rng) {
                return Move::Play(p);
            }
        }
        if let Some(p) = replies.and_then(|r| r.get(c, last)) {
            if chance(rng, params.reply)
                && board.is_empty_point(p)
                && !board.is_eye(c, p)
                && board.check(c, p).is_ok()
                && board.self_atari_size(c, p).is_none()
            {
                return Move::Play(p);
            }
        }
        if chance(rng, params.pattern) {
            // The policy built the local model when its `local_model` was set.
            if let Some(elsewhere) = params.local_model {
                let local = policy.knowledge.local_model();
                let allowed =
                    |b: &Board, q| b.check(c, q).is_ok() && b.self_atari_size(c, q).is_none();
                match super::local::draw(local, board, c, last, elsewhere as f32, rng, allowed) {
                    Some(p) => return Move::Play(p),
                    None => return random_move(params, board, c, rng),
                }
            }
            let knowledge = &*policy.knowledge;
            let good_shape = |board: &Board, q| match params.shape_threshold {
                Some(t) => f64::from(knowledge.shapes().log_gamma(shape_code(board, c, q))) >= t,
                None => knowledge.patterns().matches(board.pattern3(q)),
            };
            let mut picks = Candidates::new();
            for q in board
                .size()
                .neighbours(last)
                .into_iter()
                .chain(board.size().diagonals(last))
            {
                if board.is_empty_point(q)
                    && good_shape(board, q)
                    && board.check(c, q).is_ok()
                    && board.self_atari_size(c, q).is_none()
                {
                    picks.push(q);
                }
            }
            if let Some(p) = picks.pick(rng) {
                return Move::Play(p);
            }
        }
    }
    random_move(params, board, c, rng)
}

/// The `pattern3` code of a point whose eight neighbours are all empty.
const OPEN_SPACE: u16 = 0xAAAA;

/// The random step: first up to `HeavyParams::fill_board` random empty points, the
/// first in open space taken (always legal: four empty liberties, no capture, no
/// eye); then a uniformly random legal move that fills no own eye and is no refused
/// self-atari ([`self_atari_allowed`]), or a pass.
#[inline]
fn random_move(params: &HeavyParams, board: &mut Board, c: Color, rng: &mut Rng) -> Move {
    let empties = board.empty_points();
    if !empties.is_empty() {
        for _ in 0..params.fill_board {
            let p = empties[below(rng, empties.len())];
            if board.pattern3(p) == OPEN_SPACE {
                return Move::Play(p);
            }
        }
    }
    board
        .pick_empty(
            |k| below(rng, k),
            |b, p| !b.is_eye(c, p) && b.check(c, p).is_ok() && self_atari_allowed(params, b, c, p),
        )
        .map_or(Move::Pass, Move::Play)
}

/// Whether the random step may play the legal point `p` for `c` as far as
/// self-atari goes: not into a self-atari of `self_atari_min` stones or more, unless
/// `nakade` is on and it is a nakade that kills ([`nakade_kills`]).
#[inline]
pub(crate) fn self_atari_allowed(params: &HeavyParams, board: &Board, c: Color, p: Point) -> bool {
    board
        .self_atari_size(c, p)
        .is_none_or(|n| n < params.self_atari_min || (params.nakade && nakade_kills(board, c, p)))
}

/// Gathers the answers to a last move that left groups with two liberties: for an own
/// group next to it, a liberty that extends it to three or more; for the last move's
/// own group, an atari (no self-atari) it cannot escape by extending.
fn two_liberty_answers(board: &Board, c: Color, last: Point, out: &mut Candidates) {
    let size = board.size();
    let them = c.opponent();
    for q in size.neighbours(last) {
        if board.color_at(q) == Some(c) && board.liberties(q) == 2 {
            for lib in board.liberty_set(q).iter() {
                let extends = !board.is_eye(c, lib)
                    && board.check(c, lib).is_ok()
                    && board.liberties_after(c, lib, 3) >= 3;
                if extends {
                    out.push(lib);
                }
            }
        }
    }
    if board.color_at(last) == Some(them) && board.liberties(last) == 2 {
        for lib in board.liberty_set(last).iter() {
            if board.check(c, lib).is_err() || board.self_atari_size(c, lib).is_some() {
                continue;
            }
            let mut b = board.clone();
            b.play_unchecked(c, Move::Play(lib));
            match b.atari_liberty(last) {
                Some(run) if !escape_works(&b, them, run) => out.push(lib),
                _ => {}
            }
        }
    }
}

/// Gathers the capturing moves near `last` and the moves that save an own group it put
/// in atari. Only legal moves are gathered.
fn atari_answers(
    board: &Board,
    c: Color,
    last: Point,
    captures: &mut Candidates,
    escapes: &mut Candidates,
) {
    let size = board.size();
    let them = c.opponent();
    // The last stone's own group, and enemy groups around it, in atari.
    let consider_capture = |q: Point, captures: &mut Candidates| {
        if board.color_at(q) == Some(them) {
            if let Some(lib) = board.atari_liberty(q) {
                if board.check(c, lib).is_ok() {
                    captures.push(lib);
                }
            }
        }
    };
    consider_capture(last, captures);
    for q in size.neighbours(last) {
        match board.color_at(q) {
            Some(col) if col == c => {
                let Some(lib) = board.atari_liberty(q) else {
                    continue;
                };
                // Extend, if that gains liberties and does not run into a ladder.
                if escape_works(board, c, lib) {
                    escapes.push(lib);
                }
                // Or capture an enemy group touching it that is in atari itself.
                for s in board.group_stones(q) {
                    for n in size.neighbours(s) {
                        if board.color_at(n) == Some(them) {
                            if let Some(l) = board.atari_liberty(n) {
                                if board.check(c, l).is_ok() {
                                    escapes.push(l);
                                }
                            }
                        }
                    }
                }
            }
            Some(_) => consider_capture(q, captures),
            None => {}
        }
    }
    for q in size.diagonals(last) {
        consider_capture(q, captures);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{PolicyKind, Rng};
    use super::*;
    use crate::config::HeavyParams;
    use rand::SeedableRng;
    use tengen_board::parse_diagram;

    /// Every heuristic off: the random phase alone.
    fn random_only() -> HeavyParams {
        HeavyParams {
            capture: 0.0,
            escape: 0.0,
            pattern: 0.0,
            reply: 0.0,
            two_liberties: 0.0,
            shape_threshold: None,
            local_model: None,
            fill_board: 0,
            self_atari_min: 2,
            nakade: false,
        }
    }

    fn always() -> Policy {
        Policy::new(
            PolicyKind::Heavy,
            HeavyParams {
                capture: 1.0,
                escape: 1.0,
                pattern: 1.0,
                reply: 1.0,
                two_liberties: 1.0,
                shape_threshold: None,
                local_model: None,
                fill_board: 0,
                self_atari_min: 2,
                nakade: false,
            },
        )
    }

    /// With every heuristic on, Black's answer to White's `last` on the board of
    /// `diagram` is `answer`, 20 times out of 20.
    fn assert_always_answers(diagram: &str, last: &str, answer: &str) {
        let mut b = parse_diagram(diagram).unwrap();
        let s = b.size();
        let (last, answer) = (s.parse_point(last).unwrap(), s.parse_point(answer).unwrap());
        let policy = always();
        let mut rng = Rng::seed_from_u64(3);
        for _ in 0..20 {
            let m = choose(&policy, &mut b, Color::Black, Some(last), 0, &mut rng, None);
            assert_eq!(m, Move::Play(answer));
        }
    }

    #[test]
    fn the_local_draw_plays_next_to_the_last_move_or_at_random() {
        // White's last move E5 on an otherwise empty 9×9 board: no capture, escape
        // or reply applies, so the pattern step decides.
        let size = tengen_board::BoardSize::new(9).unwrap();
        let mut b = Board::new(size);
        let last = size.parse_point("E5").unwrap();
        b.play_unchecked(Color::White, Move::Play(last));
        let near = |m: Move| match m {
            Move::Play(p) => {
                let ((x, y), (lx, ly)) = (size.coords(p), size.coords(last));
                x.abs_diff(lx) <= 1 && y.abs_diff(ly) <= 1
            }
            Move::Pass => false,
        };
        let count_near = |local_model| {
            let params = HeavyParams {
                pattern: 1.0,
                local_model,
                ..random_only()
            };
            let policy = Policy::new(PolicyKind::Heavy, params);
            let mut rng = Rng::seed_from_u64(5);
            (0..400)
                .filter(|_| {
                    near(choose(
                        &policy,
                        &mut b.clone(),
                        Color::Black,
                        Some(last),
                        0,
                        &mut rng,
                        None,
                    ))
                })
                .count()
        };
        // Without the rest of the board every move is local; with the table's own
        // weight for it some are not; the random step alone is local 8 times in 80.
        assert_eq!(count_near(Some(0.0)), 400);
        let weighed = count_near(Some(1.0));
        assert!((100..400).contains(&weighed), "{weighed} of 400 local");
        assert!(count_near(None) < 100);
    }

    #[test]
    fn filling_the_board_plays_in_open_space() {
        // Stones on the 9×9 board's centre row leave open space on rows 2, 3, 7 and
        // 8 only (28 of the 72 empty points); with many tries every random move is
        // there, with none the uniform choice leaves it often.
        let mut b = parse_diagram(
            ". . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             X X X X O O O O O
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        )
        .unwrap();
        let open = |m: Move, b: &Board| match m {
            Move::Play(p) => b.pattern3(p) == OPEN_SPACE,
            Move::Pass => false,
        };
        let count_open = |fill_board, b: &mut Board| {
            let policy = Policy::new(
                PolicyKind::Heavy,
                HeavyParams {
                    fill_board,
                    ..random_only()
                },
            );
            let mut rng = Rng::seed_from_u64(6);
            (0..300)
                .filter(|_| {
                    let m = choose(&policy, b, Color::Black, None, 0, &mut rng, None);
                    open(m, b)
                })
                .count()
        };
        assert_eq!(count_open(50, &mut b), 300);
        assert!(count_open(0, &mut b) < 250);
    }

    #[test]
    fn captures_the_last_stone_in_atari() {
        let diagram = ". . . . .
                       . . X . .
                       . X O X .
                       . . . . .
                       . . . . .";
        assert_always_answers(diagram, "C3", "C2");
    }

    #[test]
    fn escapes_an_atari_by_extending() {
        // White's last move D3 put black C3 in atari (liberty C2 only... and after
        // extending to C2 Black has B2, C1, D2).
        let diagram = ". . . . .
                       . . O . .
                       . O X O .
                       . . . . .
                       . . . . .";
        assert_always_answers(diagram, "D3", "C2");
    }

    #[test]
    fn answers_with_the_learned_reply() {
        let mut b = parse_diagram(
            ". . . . . . .
             . . . . . . .
             . . . . . . .
             . . . X . . .
             . . . . . . .
             . . . . . . .
             . . . . . . .",
        )
        .unwrap();
        let s = b.size();
        let last = s.parse_point("D4").unwrap();
        let answer = s.parse_point("F2").unwrap();
        let mut replies = Replies::default();
        replies.start(Color::White, Some(last));
        replies.record(Move::Play(answer));
        replies.learn(Color::White);
        let policy = always();
        let mut rng = Rng::seed_from_u64(9);
        let mut answer_to = |b: &mut Board| {
            choose(
                &policy,
                b,
                Color::White,
                Some(last),
                0,
                &mut rng,
                Some(&replies),
            )
        };
        for _ in 0..20 {
            assert_eq!(answer_to(&mut b), Move::Play(answer));
        }
        // An occupied reply point is skipped.
        b.play_unchecked(Color::Black, Move::Play(answer));
        let m = answer_to(&mut b);
        assert_ne!(m, Move::Play(answer));
    }

    /// Black, answering White's `last` on `diagram` with the two-liberty tactics alone,
    /// always plays `expected`.
    fn two_liberty_answer_is(diagram: &str, last: &str, expected: &str) {
        let mut b = parse_diagram(diagram).unwrap();
        let s = b.size();
        let last = s.parse_point(last).unwrap();
        let params = HeavyParams {
            two_liberties: 1.0,
            ..random_only()
        };
        let policy = Policy::new(PolicyKind::Heavy, params);
        let mut rng = Rng::seed_from_u64(4);
        for _ in 0..20 {
            let m = choose(&policy, &mut b, Color::Black, Some(last), 0, &mut rng, None);
            assert_eq!(m, Move::Play(s.parse_point(expected).unwrap()));
        }
    }

    #[test]
    fn ataris_a_two_liberty_stone_only_where_it_cannot_escape() {
        // White's last move C2 has the liberties B2 and C1. Black B2 chases it along
        // the first line to capture; Black C1 lets it out through B2.
        two_liberty_answer_is(
            ". . . . .
             . . . . .
             . . X . .
             . . O X .
             . . . . .",
            "C2",
            "B2",
        );
    }

    #[test]
    fn extends_an_own_group_left_with_two_liberties() {
        // White's last move D2 left Black's C3–C2 with the liberties D3 and C1. D3
        // makes three liberties; C1 only two (B1 is White's).
        two_liberty_answer_is(
            ". . . . .
             . . O . .
             . O X . .
             . O X O .
             . O . . .",
            "D2",
            "D3",
        );
    }

    #[test]
    fn random_phase_refuses_big_self_atari() {
        // Black's only moves: B1 would put A1-A2... (2 stones) in atari: refused,
        // so Black must play elsewhere or pass; the light policy would allow it.
        let b0 = parse_diagram(
            "O O O
             X . O
             X . O",
        )
        .unwrap();
        let s = b0.size();
        let mut rng = Rng::seed_from_u64(5);
        let policy = Policy::new(PolicyKind::Heavy, random_only());
        let bad = [s.parse_point("B1").unwrap(), s.parse_point("B2").unwrap()];
        for _ in 0..50 {
            let mut b = b0.clone();
            let m = choose(&policy, &mut b, Color::Black, None, 0, &mut rng, None);
            if let Move::Play(p) = m {
                assert!(!bad.contains(&p) || b.self_atari_size(Color::Black, p).is_none());
            }
        }
    }
}
