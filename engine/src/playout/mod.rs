//! Playouts: finish a game from a position with a fast policy and count it.
//!
//! A playout plays on a [`Board`] (simple ko only, no superko) until both sides pass,
//! then scores by area in the Tromp-Taylor way (at that point every empty region is a
//! single eye or a dame point, so a point counts for the colour that alone borders it).
//! Nothing here allocates: the caller owns the board copy, the RNG and the AMAF map.

mod heavy;
mod light;
mod local;
mod pattern;
mod reply;

use std::str::FromStr;
use std::sync::Arc;

use rand::RngCore;
use tengen_board::{Bitboard, Board, Color, MAX_SLOTS, Move, Point};

use crate::config::HeavyParams;
use crate::prior::model::ModelKnowledge;
use crate::shape::ShapeWeights;
pub(crate) use heavy::self_atari_allowed;
pub use light::{light_board_move, light_playout};
pub use local::LocalModel;
pub use pattern::PatternTable;
pub use reply::Replies;

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

/// Which playout policy to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyKind {
    /// Uniformly random legal moves that do not fill the mover's own eye.
    Light,
    /// Atari answers, captures, 3×3 patterns near the last move, self-atari avoidance,
    /// then random.
    Heavy,
}

impl PolicyKind {
    /// The name used on the command line and in `tengen bench --json`.
    pub fn name(self) -> &'static str {
        match self {
            PolicyKind::Light => "light",
            PolicyKind::Heavy => "heavy",
        }
    }
}

/// The name is neither `light` nor `heavy`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPolicy(pub String);

impl std::fmt::Display for UnknownPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown playout policy {:?} (expected light or heavy)",
            self.0
        )
    }
}

impl std::error::Error for UnknownPolicy {}

impl FromStr for PolicyKind {
    type Err = UnknownPolicy;
    fn from_str(s: &str) -> Result<PolicyKind, UnknownPolicy> {
        match s.to_ascii_lowercase().as_str() {
            "light" => Ok(PolicyKind::Light),
            "heavy" => Ok(PolicyKind::Heavy),
            _ => Err(UnknownPolicy(s.to_string())),
        }
    }
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
}

impl Outcome {
    /// The winner; a drawn playout counts for White (as komi-7.5 boards never draw).
    #[inline]
    pub fn winner(&self) -> Color {
        if self.score > 0.0 {
            Color::Black
        } else {
            Color::White
        }
    }
}

/// A playout policy with its tables, shared read-only by every thread.
#[derive(Clone, Debug)]
pub struct Policy {
    kind: PolicyKind,
    params: HeavyParams,
    patterns: PatternTable,
    shapes: Arc<ShapeWeights>,
    model: Arc<ModelKnowledge>,
    /// The playouts' local model, built only for a policy whose `local_model` is
    /// set (and always for one).
    local: Option<Arc<LocalModel>>,
}

/// The local model `params` needs: none when its `local_model` is off, else `have`'s
/// or, with none to share, the shipped one.
fn local_model_for(
    params: &HeavyParams,
    have: Option<&Arc<LocalModel>>,
) -> Option<Arc<LocalModel>> {
    params.local_model.map(|_| {
        have.cloned()
            .unwrap_or_else(|| Arc::new(LocalModel::shipped()))
    })
}

impl Policy {
    /// Builds a policy (the pattern and shape tables, the move model and, when
    /// `params.local_model` is set, the playouts' local model are built here, once).
    pub fn new(kind: PolicyKind, params: HeavyParams) -> Policy {
        let local = local_model_for(&params, None);
        Policy {
            kind,
            params,
            patterns: PatternTable::build(),
            shapes: Arc::new(ShapeWeights::shipped()),
            model: Arc::new(ModelKnowledge::shipped()),
            local,
        }
    }

    /// A policy of another kind or with other probabilities that shares this one's
    /// shape table, move model and local model (built if this one has none and
    /// `params` needs it) and copies its 8 KiB pattern table (neither depends on them; the
    /// playouts read the pattern table on every move, so it is kept inline, one
    /// pointer away).
    pub fn with_params(&self, kind: PolicyKind, params: HeavyParams) -> Policy {
        let local = local_model_for(&params, self.local.as_ref());
        Policy {
            kind,
            params,
            patterns: self.patterns.clone(),
            shapes: Arc::clone(&self.shapes),
            model: Arc::clone(&self.model),
            local,
        }
    }

    /// This policy with another move model in place of the shipped one (a table from
    /// `tengen learn fit`, for the tree's prior).
    pub fn with_model(mut self, model: ModelKnowledge) -> Policy {
        self.model = Arc::new(model);
        self
    }

    /// Which policy this is.
    pub fn kind(&self) -> PolicyKind {
        self.kind
    }

    /// The heavy playout's probabilities.
    pub fn params(&self) -> &HeavyParams {
        &self.params
    }

    /// The pattern table (priors use it too).
    pub fn patterns(&self) -> &PatternTable {
        &self.patterns
    }

    /// The learned shape strengths (used by the priors, and by the heavy playout
    /// when `HeavyParams::shape_threshold` is set).
    pub fn shapes(&self) -> &ShapeWeights {
        &self.shapes
    }

    /// The learned move model (used by the priors, `SearchParams::model_prior`).
    pub fn model(&self) -> &ModelKnowledge {
        &self.model
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
    /// first plays in `amaf`, and scores by area with `komi`. `last` is the move
    /// before the playout starts, if any. With `replies`, the playout also answers
    /// with the learned replies and teaches them its result (LGRF-1).
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &self,
        board: &mut Board,
        to_move: Color,
        last: Option<Point>,
        komi: f64,
        rng: &mut Rng,
        amaf: &mut Amaf,
        mut replies: Option<&mut Replies>,
    ) -> Outcome {
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
        let out = score_finished(board, komi, moves);
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
    Outcome {
        score: f64::from(black_area.count()) - f64::from(white_area.count()) - komi,
        moves,
        black_area,
        white_area,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use tengen_board::BoardSize;

    #[test]
    fn the_local_model_is_built_only_when_asked_for_and_then_shared() {
        let off = Policy::new(PolicyKind::Heavy, HeavyParams::default());
        assert!(off.local.is_none());
        let on_params = HeavyParams {
            local_model: Some(0.3),
            ..HeavyParams::default()
        };
        let on = off.with_params(PolicyKind::Heavy, on_params.clone());
        let built = on.local.as_ref().expect("built for a policy that draws");
        let again = on.with_params(PolicyKind::Heavy, on_params.clone());
        assert!(Arc::ptr_eq(built, again.local.as_ref().unwrap()));
        assert!(
            on.with_params(PolicyKind::Heavy, HeavyParams::default())
                .local
                .is_none()
        );
        assert!(Policy::new(PolicyKind::Heavy, on_params).local.is_some());
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

    #[test]
    fn scores_a_finished_position() {
        let b = tengen_board::parse_diagram(
            ". X O .
             X X O O
             X . X O
             X X O .",
        )
        .unwrap();
        let out = score_finished(&b, 0.5, 0);
        // Black: 7 stones + A4 + B2 = 9; White: 5 stones + D4 + D1 = 7.
        assert_eq!(out.black_area.count(), 9);
        assert_eq!(out.white_area.count(), 7);
        assert_eq!(out.score, 1.5);
    }
}
