//! Prior knowledge for new tree nodes, given as virtual playouts (visits, wins).
//!
//! Every candidate starts as an even game of `prior_weight` virtual visits; cheap
//! tactical and shape facts then add virtual wins or losses: captures, atari escapes,
//! self-atari, 3×3 patterns, nearness to the last move, the first line in open space,
//! the empty triangle. Moves that fill the mover's own true eye are never candidates.
//! The learned move model ([`model`]) then adds its own virtual wins and/or orders
//! the candidates for progressive widening, as `SearchParams::model_prior` says;
//! at a position the policy network rated, its probabilities are blended into those
//! shares ([`NetPolicy`], `SearchParams::net_blend`).

pub mod model;

use tengen_board::{Board, Color, Move, Point};

use crate::config::SearchParams;
use tengen_knowledge::Knowledge;
use tengen_knowledge::NetPolicy;
use tengen_knowledge::move_model::features::History;
use tengen_knowledge::shape::shape_code;
use tengen_knowledge::tactics::{escape_works, nakade_kills, stones_captured};

/// A candidate move with its prior virtual visits and wins.
pub type Candidate = (Move, f32, f32);

/// What the prior of a new node reads: the engine's tables, the search's settings and
/// the moves that led to the node.
#[derive(Clone, Copy, Debug)]
pub struct PriorInput<'a> {
    /// The 3×3 patterns, the learned shapes and the move model.
    pub knowledge: &'a Knowledge,
    /// Prior weight and the other search parameters.
    pub params: &'a SearchParams,
    /// Whether a pass is a candidate.
    pub with_pass: bool,
    /// The two moves before the position (the model's distance features).
    pub history: History,
    /// Where the last move was played, if a stone was (the nearness term).
    pub last: Option<Point>,
    /// The policy network's probabilities of the position, where it rated it.
    pub net: Option<&'a NetPolicy>,
}

/// Fills `out` with the moves `c` may consider on `board` and their priors; `legal`
/// is the caller's full legality test (superko included) for points that pass the
/// board's own simple-ko test.
pub fn candidates(
    board: &Board,
    c: Color,
    input: PriorInput<'_>,
    mut legal: impl FnMut(Point) -> bool,
    out: &mut Vec<Candidate>,
) {
    let PriorInput {
        knowledge,
        params,
        with_pass,
        history,
        last,
        net,
    } = input;
    let shape_weight = params.shape_weight as f32;
    out.clear();
    let w = params.prior_weight as f32;
    let size = board.size();
    let opening = board.empty_points().len() * 10 > size.area() * 9;
    for &p in board.empty_points() {
        if board.is_eye(c, p) || board.check(c, p).is_err() || !legal(p) {
            continue;
        }
        let (mut visits, mut wins) = (w, w * 0.5);
        let mut add = |v: f32, r: f32| {
            visits += v;
            wins += v * r;
        };
        let spot = Spot { board, c, p, w };
        add_tactics(spot, params.nakade, &mut add);
        add_shape(spot, shape_weight, knowledge, &mut add);
        add_placement(spot, last, opening, &mut add);
        out.push((Move::Play(p), visits, wins));
    }
    if with_pass {
        let (visits, wins) = pass_prior(params);
        out.push((Move::Pass, visits, wins));
    }
    let at = model::Position {
        board,
        c,
        history: &history,
    };
    model::apply(knowledge.model(), at, params, net, out);
    if let Some(net) = net.filter(|n| opening && n.is_native()) {
        hold_to_the_network(net, params, out);
    }
}

/// On a near-empty board of the size the network was trained on, at a node it rated:
/// each move on the board that it rates
/// below `params.net_floor` gets `params.net_weight` virtual losses
/// (`SearchParams::net_floor`), a margin its playouts must make up before the search
/// prefers it to the network's moves.
fn hold_to_the_network(net: &NetPolicy, params: &SearchParams, out: &mut [Candidate]) {
    let floor = params.net_floor as f32;
    if floor <= 0.0 {
        return;
    }
    let losses = params.net_weight as f32;
    for (mv, visits, _) in out.iter_mut() {
        if matches!(mv, Move::Play(_)) && net.probability(*mv) < floor {
            *visits += losses;
        }
    }
}

/// A candidate whose prior the terms below add to: `c` playing `p` on `board`, the
/// terms in multiples of the prior weight `w`.
#[derive(Clone, Copy)]
struct Spot<'a> {
    board: &'a Board,
    c: Color,
    p: Point,
    w: f32,
}

/// Adds the tactical terms of `c` playing `p` to its prior through `add(visits, win
/// rate)`, in multiples of the prior weight `w`: a capture, an escape from atari (one
/// into a ladder loses), a self-atari (never a throw-in that kills, with `nakade`)
/// and an atari that catches.
fn add_tactics(spot: Spot<'_>, nakade: bool, add: &mut impl FnMut(f32, f32)) {
    let Spot { board, c, p, w } = spot;
    let captures = stones_captured(board, c, p);
    let saves = board
        .size()
        .neighbours(p)
        .into_iter()
        .any(|n| board.color_at(n) == Some(c) && board.liberties(n) == 1);
    if captures > 0 {
        add(w * (1.0 + (captures as f32).min(5.0) / 2.0), 1.0);
    }
    if saves {
        if escape_works(board, c, p) {
            add(w, 1.0);
        } else if captures == 0 {
            // Running out of atari into a ladder (or into no liberties) loses more.
            add(w, 0.0);
        }
    }
    match board.self_atari_size(c, p) {
        Some(n) if n >= 2 && nakade && nakade_kills(board, c, p) => {}
        Some(n) if n >= 2 && captures == 0 => add(w * 2.0, 0.0),
        Some(_) if captures == 0 => add(w * 0.5, 0.0),
        _ => {}
    }
    if captures == 0 {
        let caught = ataris_that_catch(board, c, p);
        if caught > 0 {
            add(w * (1.0 + (caught as f32).min(6.0) / 2.0), 1.0);
        }
    }
}

/// Adds the shape term of `c` playing `p` through `add(visits, win rate)`: the
/// learned strength of its 3×3 shape, in multiples of the prior weight `w` times
/// `shape_weight`, or with no shape weight the weight's worth of wins for a MoGo
/// pattern.
fn add_shape(
    spot: Spot<'_>,
    shape_weight: f32,
    knowledge: &Knowledge,
    add: &mut impl FnMut(f32, f32),
) {
    let Spot { board, c, p, w } = spot;
    if shape_weight > 0.0 {
        // The learned strengths partly repeat the terms around this one (captures,
        // self-atari, the first line); the self-play A/B measured them together.
        let g = knowledge
            .shapes()
            .log_gamma(shape_code(board, c, p))
            .clamp(-3.0, 3.0);
        add(w * shape_weight * g.abs(), if g > 0.0 { 1.0 } else { 0.0 });
    } else if knowledge.patterns().matches(board.pattern3(p)) {
        add(w, 1.0);
    }
}

/// Adds the terms of where `p` lies through `add(visits, win rate)`, in multiples of
/// the prior weight `w`: near the `last` move, on the first line in open space (7×7
/// and up), on the second line in the `opening` (13×13 and up), an empty triangle.
fn add_placement(
    spot: Spot<'_>,
    last: Option<Point>,
    opening: bool,
    add: &mut impl FnMut(f32, f32),
) {
    let Spot { board, c, p, w } = spot;
    let size = board.size();
    if let Some(l) = last {
        let (px, py) = size.coords(p);
        let (lx, ly) = size.coords(l);
        let d = px.abs_diff(lx) + py.abs_diff(ly) + px.abs_diff(lx).max(py.abs_diff(ly));
        if d <= 3 {
            add(w * 0.5, 0.8);
        }
    }
    let (x, y) = size.coords(p);
    let line = x.min(y).min(size.get() - 1 - x).min(size.get() - 1 - y);
    if size.get() >= 7 && line == 0 && no_stones_near(board, p, 2) {
        add(w, 0.0);
    } else if size.get() >= 13 && opening && line == 1 {
        add(w * 0.5, 0.2);
    }
    if empty_triangle(board, c, p) {
        add(w * 0.5, 0.0);
    }
}

/// The prior of a pass: the usual weight, a low win rate.
pub fn pass_prior(params: &SearchParams) -> (f32, f32) {
    let w = params.prior_weight as f32;
    (w, w * 0.15)
}

/// Stones of the opponent that `c` playing `p` puts in an atari they cannot escape
/// (a ladder or a net), when none of `c`'s stones is left in atari to counter-capture.
fn ataris_that_catch(board: &Board, c: Color, p: Point) -> u32 {
    let size = board.size();
    let them = c.opponent();
    let two_libs = size
        .neighbours(p)
        .into_iter()
        .any(|n| board.color_at(n) == Some(them) && board.liberties(n) == 2);
    if !two_libs || board.liberties_after(c, p, 2) < 2 {
        return 0;
    }
    let mut after = board.clone();
    after.play_unchecked(c, Move::Play(p));
    let mut caught = 0;
    let mut counted = tengen_board::Bitboard::EMPTY;
    for n in size.neighbours(p) {
        if after.color_at(n) != Some(them) || counted.contains(n) || after.liberties(n) != 1 {
            continue;
        }
        let stones: Vec<Point> = after.group_stones(n).collect();
        let counter = stones.iter().any(|&s| {
            size.neighbours(s)
                .into_iter()
                .any(|m| after.color_at(m) == Some(c) && after.liberties(m) == 1)
        });
        let Some(lib) = after.atari_liberty(n) else {
            continue;
        };
        if !counter && !escape_works(&after, them, lib) {
            caught += stones.len() as u32;
        }
        for s in stones {
            counted.insert(s);
        }
    }
    caught
}

/// Whether no stone lies within `r` lines of `p` (Chebyshev distance).
fn no_stones_near(board: &Board, p: Point, r: usize) -> bool {
    let size = board.size();
    let (x, y) = size.coords(p);
    let n = size.get();
    for yy in y.saturating_sub(r)..=(y + r).min(n - 1) {
        for xx in x.saturating_sub(r)..=(x + r).min(n - 1) {
            if let Some(q) = size.point(xx, yy) {
                if board.color_at(q).is_some() {
                    return false;
                }
            }
        }
    }
    true
}

/// Whether a stone of `c` on `p` makes an empty triangle: two own stones on adjacent
/// sides of `p` with the point between them empty.
fn empty_triangle(board: &Board, c: Color, p: Point) -> bool {
    let size = board.size();
    // Neighbours S, W, E, N and diagonals SW, SE, NW, NE (see BoardSize).
    let [s, w, e, n] = size.neighbours(p);
    let [sw, se, nw, ne] = size.diagonals(p);
    let own = |q: Point| board.color_at(q) == Some(c);
    let empty = |q: Point| board.is_empty_point(q);
    let count_own = [s, w, e, n].iter().filter(|&&q| own(q)).count();
    count_own == 2
        && ((own(s) && own(w) && empty(sw))
            || (own(s) && own(e) && empty(se))
            || (own(n) && own(w) && empty(nw))
            || (own(n) && own(e) && empty(ne)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_board::parse_diagram;

    /// White C4 is in atari: Black D4 takes it.
    const CAPTURE: &str = ". . . . . . .
                           . . . . . . .
                           . . X O . . .
                           . X O . O . .
                           . . X O . . .
                           . . . . . . .
                           X X . . . . .";

    fn prior_of(list: &[Candidate], board: &Board, v: &str) -> f32 {
        let p = board.size().parse_point(v).unwrap();
        let (_, visits, wins) = list.iter().find(|c| c.0 == Move::Play(p)).unwrap();
        wins / visits
    }

    #[test]
    fn capture_beats_self_atari_and_eyes_are_skipped() {
        let b = parse_diagram(CAPTURE).unwrap();
        let mut out = Vec::new();
        // The tactics alone (the model's own test is below).
        let params = SearchParams {
            model_prior: crate::ModelPrior::Off,
            ..SearchParams::default()
        };
        let knowledge = Knowledge::shipped();
        let k = |with_pass| PriorInput {
            knowledge: &knowledge,
            params: &params,
            with_pass,
            history: History::default(),
            last: None,
            net: None,
        };
        let last = b.size().parse_point("D3").ok();
        let after_d3 = PriorInput { last, ..k(true) };
        candidates(&b, Color::Black, after_d3, |_| true, &mut out);
        // D4 captures C4.
        assert!(prior_of(&out, &b, "D4") > 0.7);
        // An open first-line point is discouraged.
        assert!(prior_of(&out, &b, "G1") < 0.4);
        assert!(out.iter().any(|c| c.0 == Move::Pass));
        // White D4 saves C4 (in atari) by connecting: encouraged.
        candidates(&b, Color::White, k(false), |_| true, &mut out);
        assert!(prior_of(&out, &b, "D4") > 0.6);
        assert!(out.iter().all(|c| c.0 != Move::Pass));
        // Black never fills its own eye: a black-only 1-point eye.
        let e = parse_diagram(
            ". X . . .
             X X . . .
             . . . . .
             . . . . .
             . . . . .",
        )
        .unwrap();
        candidates(&e, Color::Black, k(false), |_| true, &mut out);
        let a5 = e.size().parse_point("A5").unwrap();
        assert!(out.iter().all(|c| c.0 != Move::Play(a5)));
        // The caller's legality test is applied.
        candidates(&e, Color::White, k(false), |p| p != a5, &mut out);
        assert!(out.iter().all(|c| c.0 != Move::Play(a5)));
    }

    #[test]
    fn learned_shapes_steer_the_prior() {
        // White D4 attached to Black D5: the hane C4 is a good shape, the slow step
        // away from the fight, F5 under a lone own stone, a poor one.
        let b = parse_diagram(
            ". . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . X . . .
             . . . X . . . . .
             . . . O . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        )
        .unwrap();
        let knowledge = Knowledge::shipped();
        let mut out = Vec::new();
        let mut prior = |shape_weight: f64, v: &str| {
            let params = SearchParams {
                shape_weight,
                model_prior: crate::ModelPrior::Off,
                ..SearchParams::default()
            };
            let k = PriorInput {
                knowledge: &knowledge,
                params: &params,
                with_pass: false,
                history: History::default(),
                last: None,
                net: None,
            };
            candidates(&b, Color::Black, k, |_| true, &mut out);
            prior_of(&out, &b, v)
        };
        assert!(prior(1.0, "C4") > 0.6, "hane {}", prior(1.0, "C4"));
        assert!(prior(1.0, "F5") < 0.4, "slow step {}", prior(1.0, "F5"));
        // Without the learned shapes the slow step is a plain even prior.
        assert_eq!(prior(0.0, "F5"), 0.5);
    }

    /// The candidates of `c` on `board` after `last`, with the model prior `mode`.
    fn with_model(board: &Board, c: Color, last: &str, mode: crate::ModelPrior) -> Vec<Candidate> {
        let params = SearchParams {
            model_prior: mode,
            ..SearchParams::default()
        };
        let knowledge = Knowledge::shipped();
        let last = board.size().parse_point(last).unwrap();
        let k = PriorInput {
            knowledge: &knowledge,
            params: &params,
            with_pass: true,
            history: History {
                last: Some(Move::Play(last)),
                before: None,
            },
            last: Some(last),
            net: None,
        };
        let mut out = Vec::new();
        candidates(board, c, k, |_| true, &mut out);
        out
    }

    #[test]
    fn the_model_ranks_the_atari_escape_and_the_capture_first() {
        use crate::ModelPrior;
        // White E6 just put Black E5 in atari: E4 runs out to three liberties.
        let escape = parse_diagram(
            ". . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . O . . . .
             . . . O X O . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        )
        .unwrap();
        let e4 = Move::Play(escape.size().parse_point("E4").unwrap());
        let off = with_model(&escape, Color::Black, "E6", ModelPrior::Off);
        let widen = with_model(&escape, Color::Black, "E6", ModelPrior::Widen);
        assert_eq!(widen[0].0, e4, "the strongest move first");
        // Widening only reorders; without the model the order is the board's.
        let order = |list: &[Candidate]| list.iter().map(|c| c.0).collect::<Vec<_>>();
        assert_ne!(order(&off), order(&widen));
        let mut sorted = widen.clone();
        sorted.sort_by_key(|c| format!("{:?}", c.0));
        let mut plain = off.clone();
        plain.sort_by_key(|c| format!("{:?}", c.0));
        assert_eq!(sorted, plain, "the same candidates and priors");
        let wins = with_model(&escape, Color::Black, "E6", ModelPrior::Wins);
        let rate = |c: &Candidate| c.2 / c.1;
        let best = wins
            .iter()
            .max_by(|a, b| rate(a).total_cmp(&rate(b)))
            .unwrap();
        assert_eq!(best.0, e4, "the escape has the best prior");
        let gain = |list: &[Candidate]| list.iter().find(|c| c.0 == e4).unwrap().1;
        assert!(
            gain(&wins) > gain(&off) + 10.0,
            "{} {}",
            gain(&wins),
            gain(&off)
        );
        // White C4 is in atari: Black D4 takes it, the model's first choice.
        let capture = parse_diagram(CAPTURE).unwrap();
        let d4 = Move::Play(capture.size().parse_point("D4").unwrap());
        let widen = with_model(&capture, Color::Black, "D3", ModelPrior::Widen);
        assert_eq!(widen[0].0, d4);
    }

    #[test]
    fn an_atari_that_starts_a_working_ladder_is_rewarded() {
        // White B3 has two liberties, C3 and B2. Black B2 ataris and the ladder along
        // C3, C2, D2… works; Black C3 ataris towards B2, where White gets three.
        let b = parse_diagram(
            ". . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . X X . . . . . .
             X O . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        )
        .unwrap();
        let s = b.size();
        let pt = |v: &str| s.parse_point(v).unwrap();
        assert_eq!(b.liberties(pt("B3")), 2);
        assert_eq!(ataris_that_catch(&b, Color::Black, pt("B2")), 1);
        assert_eq!(ataris_that_catch(&b, Color::Black, pt("C3")), 0);
        assert_eq!(ataris_that_catch(&b, Color::Black, pt("E5")), 0);
    }

    #[test]
    fn empty_triangle_is_recognised() {
        let b = parse_diagram(
            ". . . .
             . X . .
             . . X .
             . . . .",
        )
        .unwrap();
        let at = |c: Color, v: &str| empty_triangle(&b, c, b.size().parse_point(v).unwrap());
        assert!(at(Color::Black, "B2"));
        assert!(!at(Color::Black, "A1"));
        assert!(at(Color::Black, "C3"));
        assert!(!at(Color::White, "C3"));
    }

    #[test]
    fn the_floor_holds_a_near_empty_board_to_the_network_on_its_own_size_only() {
        use tengen_knowledge::NetPolicy;
        let board = Board::new(tengen_board::BoardSize::new(9).unwrap());
        let (e5, a1) = (
            board.size().parse_point("E5").unwrap(),
            board.size().parse_point("A1").unwrap(),
        );
        // The network's probabilities: E5 1/2, A1 below the floor, the rest even.
        let rated = NetPolicy::new(
            board.size(),
            |p| match p {
                p if p == e5 => 0.5,
                p if p == a1 => 1e-5,
                _ => 0.5 / 80.0,
            },
            0.0,
        );
        let params = SearchParams::default();
        let knowledge = Knowledge::shipped();
        let visits = |net: &NetPolicy, v: Point| {
            let input = PriorInput {
                knowledge: &knowledge,
                params: &params,
                with_pass: true,
                history: History::default(),
                last: None,
                net: Some(net),
            };
            let mut out = Vec::new();
            candidates(&board, Color::Black, input, |_| true, &mut out);
            out.iter().find(|c| c.0 == Move::Play(v)).unwrap().1
        };
        let native = rated.clone();
        let other = rated.on_native_size(false);
        let weight = params.net_weight as f32;
        // A1, below the floor, takes the network's weight in losses on its own size.
        assert!((visits(&native, a1) - visits(&other, a1) - weight).abs() < 1e-3);
        // E5, above it, is the same either way.
        assert_eq!(visits(&native, e5), visits(&other, e5));
    }
}
