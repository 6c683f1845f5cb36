//! Playouts: finish a game from a position with a fast policy and count it.
//!
//! A playout plays on a [`Board`] (simple ko only, no superko) until both sides pass,
//! then scores by area in the Tromp-Taylor way (at that point every empty region is a
//! single eye or a dame point, so a point counts for the colour that alone borders it).
//! Nothing here allocates: the caller owns the board copy, the RNG and the AMAF map.

mod heavy;
mod light;
mod local;
mod reply;

use std::sync::Arc;

use rand::RngCore;
use tengen_board::{Bitboard, Board, Color, MAX_SLOTS, Move, Point};

use crate::config::HeavyParams;
pub use crate::config::{PolicyKind, UnknownPolicy};
pub(crate) use heavy::self_atari_allowed;
pub use light::{light_board_move, light_playout};
pub use reply::Replies;
use tengen_knowledge::Knowledge;

/// The RNG of every random choice in the engine.
pub type Rng = rand::rngs::SmallRng;

/// A number in `0..k` from one 32-bit draw (Lemire's multiply-shift; the bias is far
/// below what a playout can notice).
#[inline]
pub fn below(rng: &mut Rng, k: usize) -> usize {
    ((u64::from(rng.next_u32()) * k as u64) >> 32) as usize
}

/// Whether an event of probability `p` happens.
#[inline]
pub fn chance(rng: &mut Rng, p: f64) -> bool {
    p >= 1.0 || (p > 0.0 && f64::from(rng.next_u32()) < p * 4_294_967_296.0)
}

/// For each point, which colour played there first (from some moment on): what
/// AMAF/RAVE needs. A fixed array; clearing it is a memset.
#[derive(Clone)]
pub struct Amaf {
    first: [u8; MAX_SLOTS],
}

impl std::fmt::Debug for Amaf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.first.iter().filter(|&&c| c != 0).count();
        write!(f, "Amaf({n} points)")
    }
}

impl Default for Amaf {
    fn default() -> Amaf {
        Amaf {
            first: [0; MAX_SLOTS],
        }
    }
}

impl Amaf {
    /// Forgets every point.
    #[inline]
    pub fn clear(&mut self) {
        self.first.fill(0);
    }

    /// Records `c` on `p` unless another colour came first.
    #[inline]
    pub fn record(&mut self, c: Color, p: Point) {
        let slot = &mut self.first[p.index()];
        // No branch (whether the point was played before is random): the slot keeps
        // its colour (1 or 2) or takes `c`'s, by a shift the compiler cannot turn into
        // a conditional store.
        let old = *slot;
        *slot = old | ((c as u8 + 1) >> (2 * u8::from(old != 0)));
    }

    /// Records `c` on `p`, replacing any later record (tree moves, walked upwards).
    #[inline]
    pub fn overwrite(&mut self, c: Color, p: Point) {
        self.first[p.index()] = c as u8 + 1;
    }

    /// The colour that played `p` first.
    #[inline]
    pub fn first(&self, p: Point) -> Option<Color> {
        match self.first[p.index()] {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }
}

/// What a finished playout's area count is compared with: White's komi, and
/// whether the game counts territory.
///
/// Under territory counting (Japanese and Korean rules) a side's score is its
/// territory plus its prisoners. A side's area is its territory plus its stones on the
/// board, and those are the stones it placed (handicap stones included) less the
/// ones the other side took. So Black's area lead minus Black's territory lead is
/// exactly the stones Black placed minus the stones White placed, which
/// [`Komi::territory`] takes off the area count. In an even game it is 0 or 1, as the
/// moves alternate (passes aside), so the area count against the same komi would
/// favour Black by half a point on average.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Komi {
    /// The points White's count receives (handicap compensation included where the
    /// rules give it).
    pub points: f64,
    /// Whether the count is territory (the stones each side placed come off its area).
    pub territory: bool,
}

impl Komi {
    /// An area count against `points`.
    pub const fn area(points: f64) -> Komi {
        Komi {
            points,
            territory: false,
        }
    }

    /// A territory count against `points`.
    pub const fn territory(points: f64) -> Komi {
        Komi {
            points,
            territory: true,
        }
    }

    /// What Black's area lead on the finished `board` is compared with: the komi, and
    /// under territory counting the stones Black placed less the stones White placed
    /// (each side's stones on the board plus those the other side took).
    #[inline]
    pub fn against(&self, board: &Board) -> f64 {
        if !self.territory {
            return self.points;
        }
        let taken = board.prisoners();
        let placed = |c: Color| f64::from(board.stones(c).count()) + f64::from(taken[c.opponent()]);
        self.points + placed(Color::Black) - placed(Color::White)
    }
}

impl From<f64> for Komi {
    /// An area count: what every caller that names only a komi means.
    fn from(points: f64) -> Komi {
        Komi::area(points)
    }
}

/// How a playout ended.
#[derive(Clone, Copy, Debug)]
pub struct Outcome {
    /// Black's area minus White's, komi included: positive when Black wins.
    pub score: f64,
    /// Moves played in the playout (passes included).
    pub moves: u32,
    /// Points that ended Black's (stones and eyes).
    pub black_area: Bitboard,
    /// Points that ended White's.
    pub white_area: Bitboard,
    /// Who the playout counts as won ([`Outcome::winner`]).
    won_by: Color,
}

impl Outcome {
    /// The side the playout counts as won: the side ahead. A drawn playout (a score
    /// of exactly 0, which only a whole-number komi allows) goes to White as
    /// [`score_areas`] counts it, and to either side by a fair coin once
    /// [`Outcome::settle_draw`] has seen it (every playout of [`Policy::run`] and
    /// [`light_playout`]): a draw is worth half a win to each side on average, so
    /// neither colour's search sees its draws as losses.
    #[inline]
    pub fn winner(&self) -> Color {
        self.won_by
    }

    /// Gives a drawn playout to Black or White by a coin drawn from `rng`; any
    /// other outcome, and the RNG, are left as they are (a half-point komi never
    /// draws, so its playouts do not change).
    #[inline]
    pub fn settle_draw(&mut self, rng: &mut Rng) {
        if self.score == 0.0 {
            self.won_by = if rng.next_u32() & 1 == 0 {
                Color::Black
            } else {
                Color::White
            };
        }
    }
}

/// A playout policy: its kind and probabilities, and the engine's [`Knowledge`]
/// (lent read-only, shared by every thread and every policy built from this one).
#[derive(Clone, Debug)]
pub struct Policy {
    kind: PolicyKind,
    params: HeavyParams,
    knowledge: Arc<Knowledge>,
}

impl Policy {
    /// A policy over the shipped tables (built here; [`Policy::with_knowledge`] shares
    /// tables already built).
    pub fn new(kind: PolicyKind, params: HeavyParams) -> Policy {
        Policy::with_knowledge(kind, params, Arc::new(Knowledge::shipped()))
    }

    /// A policy that reads `knowledge`. When `params.local_model` is set, the local
    /// model is built here (once for the knowledge), not in the first playout.
    pub fn with_knowledge(
        kind: PolicyKind,
        params: HeavyParams,
        knowledge: Arc<Knowledge>,
    ) -> Policy {
        if params.local_model.is_some() {
            knowledge.local_model();
        }
        Policy {
            kind,
            params,
            knowledge,
        }
    }

    /// A policy of another kind or with other probabilities over the same knowledge.
    pub fn with_params(&self, kind: PolicyKind, params: HeavyParams) -> Policy {
        Policy::with_knowledge(kind, params, Arc::clone(&self.knowledge))
    }

    /// Which policy this is.
    pub fn kind(&self) -> PolicyKind {
        self.kind
    }

    /// The heavy playout's probabilities.
    pub fn params(&self) -> &HeavyParams {
        &self.params
    }

    /// The tables the playouts read.
    pub fn knowledge(&self) -> &Arc<Knowledge> {
        &self.knowledge
    }

    /// Chooses the next move for `c`; `last` is the previous move and `captured` the
    /// stones it captured. The heavy policy may answer it with a learned reply from
    /// `replies`.
    #[inline]
    pub fn choose(
        &self,
        board: &mut Board,
        c: Color,
        last: Option<Point>,
        captured: u16,
        rng: &mut Rng,
        replies: Option<&Replies>,
    ) -> Move {
        match self.kind {
            PolicyKind::Light => light_move(board, c, rng),
            PolicyKind::Heavy => heavy::choose(self, board, c, last, captured, rng, replies),
        }
    }

    /// Plays from `board` with `to_move` to play until both sides pass (or a move cap
    /// of three times the board area, which only superko-free cycles reach), records
    /// first plays in `amaf`, and scores by area against `komi` (a [`Komi`], or a
    /// plain number for an area count). `last` is the move before the playout starts,
    /// if any. With `replies`, the playout also answers with the learned replies and
    /// teaches them its result (LGRF-1).
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &self,
        board: &mut Board,
        to_move: Color,
        last: Option<Point>,
        komi: impl Into<Komi>,
        rng: &mut Rng,
        amaf: &mut Amaf,
        mut replies: Option<&mut Replies>,
    ) -> Outcome {
        let komi = komi.into();
        if let Some(r) = replies.as_deref_mut() {
            r.start(to_move, last);
        }
        let cap = 3 * board.size().area() as u32;
        let mut c = to_move;
        let mut last = last;
        let mut captured = 0;
        let mut passes = 0;
        let mut moves = 0;
        while passes < 2 && moves < cap {
            let m = self.choose(board, c, last, captured, rng, replies.as_deref());
            captured = board.play_unchecked(c, m).captured;
            if let Some(r) = replies.as_deref_mut() {
                r.record(m);
            }
            match m {
                Move::Play(p) => {
                    amaf.record(c, p);
                    passes = 0;
                    last = Some(p);
                }
                Move::Pass => {
                    passes += 1;
                    last = None;
                }
            }
            moves += 1;
            c = c.opponent();
        }
        let mut out = score_finished(board, komi.against(board), moves);
        out.settle_draw(rng);
        if let Some(r) = replies {
            r.learn(out.winner());
        }
        out
    }
}

/// A uniformly random legal move for `c` that does not fill its own eye, or a pass.
#[inline]
pub fn light_move(board: &mut Board, c: Color, rng: &mut Rng) -> Move {
    board
        .pick_empty(
            |k| below(rng, k),
            |b, p| !b.is_eye(c, p) && b.check(c, p).is_ok(),
        )
        .map_or(Move::Pass, Move::Play)
}

/// Area score of a finished playout: stones, plus empty points next to one colour only.
#[inline]
pub fn score_finished(board: &Board, komi: f64, moves: u32) -> Outcome {
    score_areas(
        board.on_board(),
        board.stones(Color::Black),
        board.stones(Color::White),
        board.size().stride(),
        komi,
        moves,
    )
}

/// The area score of a finished position given as its stones: each colour's stones
/// plus the empty points next to that colour only (Tromp-Taylor, as every region of a
/// finished playout is an eye or dame).
#[inline]
pub fn score_areas(
    on: &Bitboard,
    black: &Bitboard,
    white: &Bitboard,
    stride: usize,
    komi: f64,
    moves: u32,
) -> Outcome {
    let empty = on.and_not(black).and_not(white);
    let near = |s: &Bitboard| {
        s.shift_up(1)
            .or(&s.shift_down(1))
            .or(&s.shift_up(stride))
            .or(&s.shift_down(stride))
    };
    let near_black = near(black);
    let near_white = near(white);
    let black_area = black.or(&empty.and(&near_black).and_not(&near_white));
    let white_area = white.or(&empty.and(&near_white).and_not(&near_black));
    let score = f64::from(black_area.count()) - f64::from(white_area.count()) - komi;
    Outcome {
        score,
        moves,
        black_area,
        white_area,
        won_by: winner_by_sign(score),
    }
}

/// The side ahead by `score` (Black's points minus White's, komi included); White
/// on a draw, until [`Outcome::settle_draw`] tosses for it.
#[inline]
fn winner_by_sign(score: f64) -> Color {
    if score > 0.0 {
        Color::Black
    } else {
        Color::White
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use tengen_board::BoardSize;

    #[test]
    fn the_local_model_is_built_only_for_a_policy_that_draws_and_then_shared() {
        let off = Policy::new(PolicyKind::Heavy, HeavyParams::default());
        assert!(!off.knowledge().has_local_model());
        let on_params = HeavyParams {
            local_model: Some(0.3),
            ..HeavyParams::default()
        };
        let on = off.with_params(PolicyKind::Heavy, on_params.clone());
        assert!(Arc::ptr_eq(off.knowledge(), on.knowledge()));
        assert!(
            on.knowledge().has_local_model(),
            "built for a policy that draws"
        );
        assert!(
            Policy::new(PolicyKind::Heavy, on_params)
                .knowledge()
                .has_local_model()
        );
    }

    #[test]
    fn light_playouts_end_sanely_and_never_fill_own_eyes() {
        let policy = Policy::new(PolicyKind::Light, HeavyParams::default());
        let size = BoardSize::new(9).unwrap();
        let empty = Board::new(size);
        let mut rng = Rng::seed_from_u64(1);
        let mut amaf = Amaf::default();
        let mut total_moves = 0;
        let mut black_wins = 0;
        let n = 400;
        for _ in 0..n {
            let mut b = empty.clone();
            amaf.clear();
            let out = policy.run(&mut b, Color::Black, None, 7.5, &mut rng, &mut amaf, None);
            b.check_invariants().unwrap();
            total_moves += out.moves;
            if out.winner() == Color::Black {
                black_wins += 1;
            }
            // Finished: every empty point is an eye of one side or a point nobody may
            // play, so the two areas plus dame cover the board.
            for p in b.empty_points().to_vec() {
                for c in Color::ALL {
                    assert!(b.is_eye(c, p) || b.check(c, p).is_err(), "{p:?} open");
                }
            }
            let counted = out.black_area.count() + out.white_area.count();
            assert!((70..=81).contains(&counted), "{counted}");
        }
        let avg = f64::from(total_moves) / f64::from(n);
        assert!((100.0..135.0).contains(&avg), "average playout {avg} moves");
        assert!(black_wins > n / 5 && black_wins < n * 4 / 5, "{black_wins}");
    }

    #[test]
    fn same_seed_same_playout() {
        for kind in [PolicyKind::Light, PolicyKind::Heavy] {
            let policy = Policy::new(kind, HeavyParams::default());
            let empty = Board::new(BoardSize::new(9).unwrap());
            let run = |seed| {
                let mut b = empty.clone();
                let mut rng = Rng::seed_from_u64(seed);
                let mut amaf = Amaf::default();
                let o = policy.run(&mut b, Color::Black, None, 7.5, &mut rng, &mut amaf, None);
                (o.moves, o.score, b.hash())
            };
            assert_eq!(run(7), run(7));
            assert_ne!(run(7), run(8));
        }
    }

    /// A finished 4×4 position: Black 7 stones and 2 eyes (9 points), White 5 stones
    /// and 2 eyes (7 points).
    fn finished_4x4() -> Board {
        tengen_board::parse_diagram(
            ". X O .
             X X O O
             X . X O
             X X O .",
        )
        .unwrap()
    }

    #[test]
    fn scores_a_finished_position() {
        let b = finished_4x4();
        let out = score_finished(&b, 0.5, 0);
        // Black: 7 stones + A4 + B2 = 9; White: 5 stones + D4 + D1 = 7.
        assert_eq!(out.black_area.count(), 9);
        assert_eq!(out.white_area.count(), 7);
        assert_eq!(out.score, 1.5);
    }

    #[test]
    fn a_territory_count_takes_the_stones_each_side_placed_off_its_area() {
        // The finished 4×4 position as setup stones: Black placed 7, White 5, and
        // each side's territory (eyes plus prisoners) is 2 points.
        let b = finished_4x4();
        assert_eq!(Komi::area(0.5).against(&b), 0.5);
        assert_eq!(Komi::from(0.5), Komi::area(0.5));
        assert_eq!(Komi::territory(0.5).against(&b), 2.5);
        let out = score_finished(&b, Komi::territory(0.5).against(&b), 0);
        assert_eq!((out.score, out.winner()), (-0.5, Color::White));
        // The same position reached by Black taking a white stone on A4: Black has
        // placed 7 and White 6, and Black's territory is its two eyes and the
        // prisoner, a point more than White's.
        let mut b = tengen_board::parse_diagram(
            "O X O .
             . X O O
             X . X O
             X X O .",
        )
        .unwrap();
        let a3 = b.size().parse_move("A3").unwrap();
        assert_eq!(b.play_unchecked(Color::Black, a3).captured, 1);
        let finished = finished_4x4();
        for c in [Color::Black, Color::White] {
            assert_eq!(b.stones(c), finished.stones(c));
        }
        let komi = Komi::territory(0.5);
        assert_eq!(komi.against(&b), 1.5);
        let out = score_finished(&b, komi.against(&b), 0);
        assert_eq!((out.score, out.winner()), (0.5, Color::Black));
    }

    #[test]
    fn a_drawn_playout_goes_to_either_side_by_a_fair_coin() {
        let b = finished_4x4();
        // Black 9 points, White 7: komi 2 draws.
        let drawn = score_finished(&b, 2.0, 0);
        assert_eq!(drawn.score, 0.0);
        assert_eq!(drawn.winner(), Color::White, "before the toss");
        let tosses = 400;
        let black = (0..tosses)
            .filter(|&seed| {
                let mut out = drawn;
                out.settle_draw(&mut Rng::seed_from_u64(seed));
                out.winner() == Color::Black
            })
            .count();
        assert!((150..=250).contains(&black), "{black} of {tosses} to Black");
        // A decided playout keeps its winner and leaves the RNG alone.
        for (komi, winner) in [(1.5, Color::Black), (2.5, Color::White)] {
            let mut out = score_finished(&b, komi, 0);
            let mut rng = Rng::seed_from_u64(3);
            out.settle_draw(&mut rng);
            assert_eq!(out.winner(), winner);
            assert_eq!(rng.next_u32(), Rng::seed_from_u64(3).next_u32());
        }
    }

    #[test]
    fn playouts_at_a_whole_number_komi_give_their_draws_to_both_sides() {
        let policy = Policy::new(PolicyKind::Heavy, HeavyParams::default());
        let empty = Board::new(BoardSize::new(9).unwrap());
        let mut rng = Rng::seed_from_u64(5);
        let mut amaf = Amaf::default();
        let mut drawn = [0u32; 2];
        for _ in 0..1500 {
            let mut b = empty.clone();
            amaf.clear();
            let out = policy.run(&mut b, Color::Black, None, 7.0, &mut rng, &mut amaf, None);
            if out.score == 0.0 {
                drawn[out.winner() as usize] += 1;
            } else {
                assert_eq!(out.winner() == Color::Black, out.score > 0.0);
            }
        }
        // About 2% of 9×9 playouts end on exactly 7 points.
        assert!(
            drawn.iter().all(|&d| d >= 5),
            "draws won by Black, White: {drawn:?}"
        );
    }
}
