//! Scoring a move model on game records: how often the move played is the model's
//! first choice, in its first five and first ten, the mean log-probability of the
//! move played, by phase of the game, and the time a position costs (the groups the
//! model leaves out are not computed, so that time is the model's own cost). The
//! policy network is scored the same way ([`Evaluation::add_game_net`]), so that the
//! two compare on the same positions.

use std::time::Instant;

use tengen_board::{Board, Color, Game, Move};
use tengen_knowledge::move_model::MoveScorer;
use tengen_knowledge::move_model::features::{History, RawFeatures, candidates};
use tengen_knowledge::move_model::pattern::PatternHasher;
use tengen_knowledge::{NetScratch, PolicyNet, PolicyNetError};

/// Replays `game` from its start, calling `visit(board, mover, move, history,
/// number)` before each move (`number` 1-based); stops at a move the board refuses
/// and returns false then.
pub fn replay(game: &Game, mut visit: impl FnMut(&Board, Color, Move, &History, usize)) -> bool {
    let mut board = game.start_board().clone();
    let mut history = History::default();
    for (i, (c, m)) in game.moves().enumerate() {
        visit(&board, c, m, &history, i + 1);
        if board.try_play(c, m).is_err() {
            return false;
        }
        history = History {
            last: Some(m),
            before: history.last,
        };
    }
    true
}

/// The phases reported: moves 1–30, 31–100, 101 on.
pub const PHASES: [&str; 3] = ["1-30", "31-100", "101+"];

/// The phase (an index into [`PHASES`]) of the move numbered `number` (from 1).
pub fn phase(number: usize) -> usize {
    match number {
        0..=30 => 0,
        31..=100 => 1,
        _ => 2,
    }
}

/// Totals for a set of positions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Positions scored.
    pub positions: u64,
    /// Positions whose move played was the model's first choice, in its first five,
    /// in its first ten (ties count against the model).
    pub top: [u64; 3],
    /// Sum of the log-probabilities of the moves played.
    pub log_likelihood: f64,
    /// Wall-clock seconds spent listing and rating candidates.
    pub seconds: f64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.positions += other.positions;
        for k in 0..3 {
            self.top[k] += other.top[k];
        }
        self.log_likelihood += other.log_likelihood;
        self.seconds += other.seconds;
    }

    /// Percent of positions with the move played in the first 1, 5, 10.
    pub fn percent(&self, k: usize) -> f64 {
        100.0 * self.top[k] as f64 / self.positions.max(1) as f64
    }

    /// Mean log-likelihood per position.
    pub fn mean_log_likelihood(&self) -> f64 {
        self.log_likelihood / self.positions.max(1) as f64
    }

    /// Microseconds per position.
    pub fn micros(&self) -> f64 {
        1e6 * self.seconds / self.positions.max(1) as f64
    }
}

/// An evaluation in progress.
#[derive(Debug, Default)]
pub struct Evaluation {
    hasher: PatternHasher,
    cands: Vec<RawFeatures>,
    scores: Vec<f32>,
    /// Per phase.
    pub phases: [Tally; 3],
    /// Games scored.
    pub games: u64,
    /// Moves skipped: the move played is not among the candidates (a superko or
    /// suicide the records allow).
    pub skipped: u64,
    /// Games not scored by the policy network: their board is of another size than
    /// the one the network was trained on.
    pub other_size: u64,
}

/// How the played move, `scores[played]`, ranks among the candidates' log-strengths
/// `scores`: the number of other candidates scored at least as high (ties count
/// against it), and its log-probability under the softmax of the scores.
pub fn rank_of_played(scores: &[f32], played: usize) -> (usize, f64) {
    let mine = scores[played];
    let better = scores
        .iter()
        .enumerate()
        .filter(|&(i, &s)| i != played && s >= mine)
        .count();
    let max = scores.iter().copied().fold(f32::MIN, f32::max);
    let total: f64 = scores.iter().map(|&s| f64::from(s - max).exp()).sum();
    (better, f64::from(mine - max) - total.ln())
}

impl Evaluation {
    /// Nothing scored yet.
    pub fn new() -> Evaluation {
        Evaluation::default()
    }

    /// All phases together.
    pub fn total(&self) -> Tally {
        let mut t = Tally::default();
        for p in &self.phases {
            t.add(p);
        }
        t
    }

    /// Scores every move of `game` with `model`; false if the replay stopped early.
    pub fn add_game(&mut self, game: &Game, model: &impl MoveScorer) -> bool {
        let Evaluation {
            hasher,
            cands,
            scores,
            phases,
            skipped,
            ..
        } = self;
        let ok = replay(game, |board, c, m, history, number| {
            let start = Instant::now();
            candidates(board, hasher, c, history, model.left_out(), cands);
            scores.clear();
            scores.extend(cands.iter().map(|f| model.log_strength(f)));
            let elapsed = start.elapsed().as_secs_f64();
            let Some(played) = cands.iter().position(|f| f.mv == m) else {
                *skipped += 1;
                return;
            };
            let (better, log_p) = rank_of_played(scores, played);
            let t = &mut phases[phase(number)];
            t.positions += 1;
            for (k, n) in [1, 5, 10].into_iter().enumerate() {
                t.top[k] += u64::from(better < n);
            }
            t.log_likelihood += log_p;
            t.seconds += elapsed;
        });
        self.games += 1;
        ok
    }

    /// Scores every move of `game` with the policy network `net` (the time counted is
    /// the whole evaluation: planes, network, softmax); false if the replay stopped
    /// early. A game on a board of another size than the network's is counted in
    /// [`other_size`](Evaluation::other_size), not scored, and answered with
    /// [`PolicyNetError::BoardSize`]; an output the network cannot give (it
    /// overflows) is that error.
    pub fn add_game_net(
        &mut self,
        game: &Game,
        net: &PolicyNet,
        scratch: &mut NetScratch,
    ) -> Result<bool, PolicyNetError> {
        let side = game.start_board().size().get();
        if side != net.side() {
            self.other_size += 1;
            return Err(PolicyNetError::BoardSize {
                net: net.side(),
                board: side,
            });
        }
        let Evaluation {
            phases, skipped, ..
        } = self;
        let mut failure = None;
        let ok = replay(game, |board, c, m, history, number| {
            if failure.is_some() {
                return;
            }
            let start = Instant::now();
            let out = match net.evaluate(board, c, history, scratch) {
                Ok(out) => out,
                Err(e) => {
                    failure = Some(e);
                    return;
                }
            };
            let elapsed = start.elapsed().as_secs_f64();
            if !out.is_legal(m) {
                // Not a legal move to the network (a superko or suicide the records allow).
                *skipped += 1;
                return;
            }
            // A legal move's probability may underflow to 0: it is scored, clamped.
            let mine = out.of(m);
            // Ties count against the network, as against the move model.
            let better = out
                .top(usize::MAX)
                .iter()
                .filter(|&&(mv, p)| mv != m && p >= mine)
                .count();
            let t = &mut phases[phase(number)];
            t.positions += 1;
            for (k, n) in [1, 5, 10].into_iter().enumerate() {
                t.top[k] += u64::from(better < n);
            }
            t.log_likelihood += f64::from(mine.max(f32::MIN_POSITIVE)).ln();
            t.seconds += elapsed;
        });
        if let Some(e) = failure {
            return Err(e);
        }
        self.games += 1;
        Ok(ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use safetensors::{Dtype, SafeTensors, tensor::TensorView};
    use std::cell::Cell;
    use tengen_board::sgf::parse_sgf;
    use tengen_knowledge::move_model::features::NO_SHAPE;
    use tengen_knowledge::move_model::left_out::LeftOut;
    use tengen_knowledge::move_model::pattern::PATTERNS;
    use tengen_knowledge::shape::ShapeWeights;

    /// Rates a candidate by its distance to the last move only: the closer the better.
    struct Near;
    impl MoveScorer for Near {
        fn log_strength(&self, f: &RawFeatures) -> f32 {
            match f.tactical[5] {
                0 => 0.0,
                d => 20.0 - f32::from(d),
            }
        }
    }

    /// Leaves out what it is told to, and counts the candidates that came with a
    /// left-out shape or pattern computed anyway.
    struct Checking {
        left_out: LeftOut,
        computed: Cell<usize>,
    }
    impl MoveScorer for Checking {
        fn log_strength(&self, f: &RawFeatures) -> f32 {
            if f.mv != Move::Pass && (f.shape != NO_SHAPE || f.patterns != [0; PATTERNS]) {
                self.computed.set(self.computed.get() + 1);
            }
            0.0
        }
        fn left_out(&self) -> LeftOut {
            self.left_out
        }
    }

    #[test]
    fn the_groups_a_model_leaves_out_are_not_computed() {
        let game = parse_sgf("(;SZ[5];B[cc];W[cd];B[bd];W[be];B[ae])")
            .unwrap()
            .game;
        let run = |left_out| {
            let scorer = Checking {
                left_out,
                computed: Cell::new(0),
            };
            let mut e = Evaluation::new();
            assert!(e.add_game(&game, &scorer));
            assert_eq!(e.total().positions, 5);
            scorer.computed.get()
        };
        assert!(run(LeftOut::NOTHING) > 50);
        assert_eq!(run(LeftOut::parse_list("shape,large-patterns").unwrap()), 0);
    }

    /// The engine's fixture network: 3 random layers for 19×19.
    const NET: &[u8] =
        include_bytes!("../../../crates/knowledge/tests/data/policy-net/net.safetensors");

    /// A 19×19 opening of seven moves.
    const OPENING: &str = "(;SZ[19];B[pd];W[dp];B[pq];W[dd];B[fq];W[cn];B[qk])";

    /// [`OPENING`] scored by `net`, replayed to its end.
    fn opening_scored_by(net: &PolicyNet, scratch: &mut NetScratch) -> Evaluation {
        let game = parse_sgf(OPENING).unwrap().game;
        let mut e = Evaluation::new();
        assert!(e.add_game_net(&game, net, scratch).unwrap());
        e
    }

    #[test]
    fn the_policy_network_is_scored_like_a_model() {
        let net = PolicyNet::from_bytes(NET, "fixture net").unwrap();
        let mut scratch = NetScratch::new(&net);
        let mut e = opening_scored_by(&net, &mut scratch);
        let t = e.total();
        assert_eq!((t.positions, e.skipped, e.games), (7, 0, 1));
        assert!(t.top[0] <= t.top[1] && t.top[1] <= t.top[2]);
        // A random net spreads its probability: each move gets far less than 1.
        assert!(t.mean_log_likelihood() < -1.0, "{t:?}");
        assert!(t.seconds > 0.0);
        let nine = parse_sgf("(;SZ[9];B[ee])").unwrap().game;
        let err = e.add_game_net(&nine, &net, &mut scratch).unwrap_err();
        assert_eq!(err, PolicyNetError::BoardSize { net: 19, board: 9 });
        assert_eq!((e.games, e.other_size), (1, 1));
    }

    /// The fixture net with its head's weights multiplied by `factor`.
    fn steep_net(factor: f32) -> PolicyNet {
        let st = SafeTensors::deserialize(NET).unwrap();
        let (_, meta) = SafeTensors::read_metadata(NET).unwrap();
        let tensors: Vec<(String, Vec<usize>, Vec<u8>)> = st
            .tensors()
            .into_iter()
            .map(|(name, v)| {
                let scale = if name == "head.weight" { factor } else { 1.0 };
                let data = v
                    .data()
                    .chunks_exact(4)
                    .flat_map(|b| {
                        (f32::from_le_bytes([b[0], b[1], b[2], b[3]]) * scale).to_le_bytes()
                    })
                    .collect();
                (name, v.shape().to_vec(), data)
            })
            .collect();
        let views: Vec<(String, TensorView<'_>)> = tensors
            .iter()
            .map(|(name, shape, data)| {
                let view = TensorView::new(Dtype::F32, shape.clone(), data).unwrap();
                (name.clone(), view)
            })
            .collect();
        let bytes = safetensors::serialize(views, meta.metadata().clone()).unwrap();
        PolicyNet::from_bytes(&bytes, "steep net").unwrap()
    }

    #[test]
    fn a_legal_move_whose_probability_underflows_is_scored_not_skipped() {
        // Head weights ten thousand times larger spread the logits over thousands:
        // most legal moves' probabilities underflow to 0.
        let net = steep_net(1e4);
        let mut scratch = NetScratch::new(&net);
        let e = opening_scored_by(&net, &mut scratch);
        let t = e.total();
        assert_eq!((t.positions, e.skipped), (7, 0), "{t:?}");
        // The underflowed moves are scored at the clamp, far below any real one.
        assert!(t.log_likelihood < -80.0, "{t:?}");
        assert!(t.log_likelihood.is_finite(), "{t:?}");
    }

    #[test]
    fn agreement_is_counted_by_phase() {
        // Every move after the first is next to the one before (distance 2), and on a
        // 5×5 board several points are: ties count against the model.
        let game = parse_sgf("(;SZ[5];B[cc];W[cd];B[bd];W[be];B[ae])")
            .unwrap()
            .game;
        let mut e = Evaluation::new();
        assert!(e.add_game(&game, &Near));
        let t = e.total();
        assert_eq!((t.positions, e.phases[0].positions), (5, 5));
        // Moves 2..=5 are next to the move before: each is among the model's first
        // five (a point has at most four neighbours), the first move is not.
        assert_eq!(t.top[1], 4, "{t:?}");
        assert!(t.top[0] <= t.top[1] && t.top[1] <= t.top[2]);
        assert!(t.mean_log_likelihood() < 0.0);
        // A model that knows nothing is uniform: log-likelihood -ln(candidates).
        let mut u = Evaluation::new();
        u.add_game(&game, &ShapeWeights::empty());
        let first = u.phases[0];
        assert_eq!(first.top[0], 0, "every move ties with the rest");
        let uniform: f64 = [26.0f64, 25.0, 24.0, 23.0, 22.0]
            .iter()
            .map(|n| -n.ln())
            .sum();
        assert!(
            (first.log_likelihood - uniform).abs() < 1e-3,
            "{}",
            first.log_likelihood
        );
    }
}
