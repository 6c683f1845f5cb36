//! The policy network: a convolutional network trained on strong players' moves
//! (`crates/learn/python`, `tengen learn export`), evaluated here in pure Rust.
//!
//! [`PolicyNet::load`] reads a weights file (safetensors, the layout of
//! `crates/learn/python/weights.py`) and checks it whole: a file that is not one, or
//! holds another format, other input planes, a misshapen tensor or a NaN, is a
//! [`PolicyNetError`] naming the file, never a panic; so is an output that overflows
//! (finite weights too large: [`PolicyNetError::NonFiniteOutput`]). A loaded net is immutable and
//! shared by every thread; each thread keeps its own [`NetScratch`].
//!
//! [`PolicyNet::evaluate`] builds the position's planes with the same
//! [`PlaneEncoder`] as the export of the training positions, runs the net (the
//! trainer's `net.py`: a 5×5 convolution, then 3×3 ones, ReLU, zero padding, over the
//! planes and a plane of ones; a 1×1 head gives one logit a point and the board mean
//! of the last layer the pass logit) and gives the softmax over the legal points and
//! the pass ([`PolicyOutput`]). A net is trained on one board size
//! ([`PolicyNet::side`]) but, every layer being a convolution and the pass logit a
//! board mean, it evaluates a board of any size as it is: the plane of ones marks
//! the edges wherever they are. How well a 19×19 net reads 13×13 is a measurement,
//! not a given (STRENGTH.md); the engine's search decides where to use it
//! ([`PolicyNetFile::serves`]).
//!
//! A setting names a network as a [`NetChoice`]; loaded, it is a [`PolicyNetFile`] (`file.rs`): the network,
//! the file it came from, the cache of its ratings by position and its counters; a
//! rating is a [`NetPolicy`] (`probabilities.rs`), one position's probabilities by
//! point slot.

mod conv;
mod error;
mod file;
mod probabilities;
mod weights;

use std::path::Path;

use tengen_board::{Board, BoardSize, Color, Move, Point};

pub use error::PolicyNetError;
pub use file::{CACHE_POSITIONS, NetChoice, NetStats, PolicyNetFile, SHIPPED_NET};
pub use probabilities::NetPolicy;

use self::conv::Buffers;
use self::weights::Weights;
use crate::move_model::features::History;
use crate::planes::{LEGAL, PLANE_COUNT, PlaneEncoder, plane_bytes};

/// A loaded policy network (see the module's documentation).
#[derive(Debug)]
pub struct PolicyNet {
    weights: Weights,
    encoder: PlaneEncoder,
    origin: String,
}

/// One thread's buffers for [`PolicyNet::evaluate`]: the planes, the activations
/// and the logits, sized once for a net and reused.
#[derive(Clone, Debug, Default)]
pub struct NetScratch {
    planes: Vec<u8>,
    buffers: Buffers,
    logits: Vec<f32>,
}

impl NetScratch {
    /// Buffers sized for `net` on its own board size (a scratch made for another net
    /// or size is resized on use).
    pub fn new(net: &PolicyNet) -> NetScratch {
        let mut s = NetScratch::default();
        s.fit(net, net.side());
        s
    }

    fn fit(&mut self, net: &PolicyNet, side: usize) {
        self.planes.resize(PLANE_COUNT * plane_bytes(side), 0);
        self.fit_forward(net, side);
    }

    /// Sizes the logits and the activations only (the planes may be lent out).
    fn fit_forward(&mut self, net: &PolicyNet, side: usize) {
        self.logits.resize(side * side + 1, 0.0);
        self.buffers.fit(&net.weights, side);
    }
}

/// The network's move probabilities for one position: the softmax of its logits over
/// the legal points and the pass; an illegal point has probability 0.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyOutput {
    size: BoardSize,
    /// Point `y * side + x`, then the pass.
    probabilities: Vec<f32>,
    /// Whether each point is a legal move (the planes' legal-move plane).
    legal: Vec<bool>,
    /// The heads' judgement of the position, where the network has them.
    judgement: Option<NetJudgement>,
}

/// A network's judgement of a position (the value, score and ownership heads of a
/// version 2 weights file), from the view of the side to move. The heads learned from
/// game records' results and Tengen's judgement of their final positions: the value
/// and the score are those of the records' rules and komi (the shipped data: Korean
/// territory counting, komi 6.5), which the network does not read as an input.
#[derive(Clone, Debug, PartialEq)]
pub struct NetJudgement {
    /// The probability that the side to move wins.
    pub win: f32,
    /// The side to move's expected final margin, in points.
    pub score: f32,
    /// Each point's ownership, +1 the mover's, −1 the opponent's, point `y * side + x`
    /// (row 0 at the bottom).
    pub ownership: Vec<f32>,
}

impl PolicyOutput {
    /// The probability of a move at `p` (0 for an illegal point, or one off the board).
    pub fn point(&self, p: Point) -> f32 {
        let (x, y) = self.size.coords(p);
        let side = self.size.get();
        if x >= side || y >= side {
            return 0.0;
        }
        self.probabilities[y * side + x]
    }

    /// The probability of a pass.
    pub fn pass(&self) -> f32 {
        self.probabilities[self.size.area()]
    }

    /// The probability of `mv`.
    pub fn of(&self, mv: Move) -> f32 {
        match mv {
            Move::Play(p) => self.point(p),
            Move::Pass => self.pass(),
        }
    }

    /// Whether `mv` is a legal move in the position (the planes' legal-move plane;
    /// the pass always is), whatever its probability: a legal move's probability can
    /// underflow to 0.
    pub fn is_legal(&self, mv: Move) -> bool {
        match mv {
            Move::Pass => true,
            Move::Play(p) => {
                let (x, y) = self.size.coords(p);
                let side = self.size.get();
                x < side && y < side && self.legal[y * side + x]
            }
        }
    }

    /// The heads' judgement of the position, where the network has heads.
    pub fn judgement(&self) -> Option<&NetJudgement> {
        self.judgement.as_ref()
    }

    /// The `n` most probable legal moves (the pass among them), most probable first;
    /// ties in the order of the points (A1, B1, …), the pass last.
    pub fn top(&self, n: usize) -> Vec<(Move, f32)> {
        let side = self.size.get();
        let mut moves: Vec<(Move, f32)> = (0..self.size.area())
            .filter(|&i| self.legal[i])
            .filter_map(|i| {
                let p = self.size.point(i % side, i / side)?;
                Some((Move::Play(p), self.probabilities[i]))
            })
            .chain([(Move::Pass, self.pass())])
            .collect();
        moves.sort_by(|a, b| b.1.total_cmp(&a.1));
        moves.truncate(n);
        moves
    }
}

impl PolicyNet {
    /// Reads and checks the weights file at `path`.
    pub fn load(path: &Path) -> Result<PolicyNet, PolicyNetError> {
        let origin = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| PolicyNetError::Unreadable {
            origin: origin.clone(),
            reason: e.to_string(),
        })?;
        PolicyNet::from_bytes(&bytes, &origin)
    }

    /// Reads and checks a weights file's `bytes`; `origin` names them in errors and in
    /// [`describe`](PolicyNet::describe).
    pub fn from_bytes(bytes: &[u8], origin: &str) -> Result<PolicyNet, PolicyNetError> {
        Ok(PolicyNet {
            weights: weights::read(bytes, origin)?,
            encoder: PlaneEncoder::new(),
            origin: origin.to_string(),
        })
    }

    /// The side of the boards the network was trained on.
    pub fn side(&self) -> usize {
        self.weights.side
    }

    /// Whether the network has the value, score and ownership heads (a version 2
    /// file): its outputs then carry a [`NetJudgement`].
    pub fn has_heads(&self) -> bool {
        self.weights.heads.is_some()
    }

    /// One line: the layers, filters, kernels, heads, board size, positions trained
    /// and file.
    pub fn describe(&self) -> String {
        let w = &self.weights;
        let filters = w.convs.first().map_or(0, |c| c.filters);
        let kernels: Vec<String> = w.convs.iter().map(|c| c.kernel.to_string()).collect();
        let seen = match w.positions_seen {
            Some(n) => format!("{n} positions trained"),
            None => "positions trained not recorded".to_string(),
        };
        let heads = if w.heads.is_some() {
            ", value, score and ownership heads"
        } else {
            ""
        };
        format!(
            "policy network {} layers × {filters} filters (kernels {}){heads}, {side}×{side}, {seen}, from {}",
            w.convs.len(),
            kernels.join(" "),
            self.origin,
            side = w.side,
        )
    }

    /// The move probabilities of `board` with `mover` to play after `history` (the
    /// two previous moves, as the export records them), on a board of any size, or
    /// [`PolicyNetError::NonFiniteOutput`] when the network's output overflows; the
    /// probabilities answered are finite and sum to 1.
    pub fn evaluate(
        &self,
        board: &Board,
        mover: Color,
        history: &History,
        scratch: &mut NetScratch,
    ) -> Result<PolicyOutput, PolicyNetError> {
        let side = board.size().get();
        scratch.fit(self, side);
        let mut planes = std::mem::take(&mut scratch.planes);
        self.encoder.encode(board, mover, history, &mut planes);
        let out = self.output_of_planes(board.size(), &planes, scratch);
        scratch.planes = planes;
        out.ok_or_else(|| PolicyNetError::NonFiniteOutput {
            origin: self.origin.clone(),
        })
    }

    /// The masked logits of a position of the net's own side given as its bit-packed
    /// planes (the export's layout: [`PLANE_COUNT`] planes of [`plane_bytes`]`(side)`
    /// bytes), `side² + 1` values (point `y * side + x`, then the pass; an illegal
    /// point gets -1e9, as in the trainer), or `None` when `planes` is not that long.
    pub fn logits_of_planes<'s>(
        &self,
        planes: &[u8],
        scratch: &'s mut NetScratch,
    ) -> Option<&'s [f32]> {
        self.logits_of_sized_planes(self.side(), planes, scratch)
    }

    /// [`logits_of_planes`](PolicyNet::logits_of_planes) for planes of a board of
    /// `side`.
    fn logits_of_sized_planes<'s>(
        &self,
        side: usize,
        planes: &[u8],
        scratch: &'s mut NetScratch,
    ) -> Option<&'s [f32]> {
        let stride = plane_bytes(side);
        if planes.len() != PLANE_COUNT * stride {
            return None;
        }
        scratch.fit_forward(self, side);
        let n = side * side;
        let input = &mut scratch.buffers.input;
        for (k, plane) in planes.chunks_exact(stride).enumerate() {
            for (i, v) in input[k * n..(k + 1) * n].iter_mut().enumerate() {
                *v = f32::from((plane[i / 8] >> (i % 8)) & 1);
            }
        }
        input[PLANE_COUNT * n..(PLANE_COUNT + 1) * n].fill(1.0);
        scratch
            .buffers
            .forward(&self.weights, side, &mut scratch.logits);
        let legal = &planes[LEGAL * stride..(LEGAL + 1) * stride];
        for (i, l) in scratch.logits[..n].iter_mut().enumerate() {
            if (legal[i / 8] >> (i % 8)) & 1 == 0 {
                *l = -1e9;
            }
        }
        Some(&scratch.logits)
    }

    /// The probabilities of a position given as its planes (of a board of `size`), or
    /// `None` when a logit of a legal move or of the pass is not finite (weights so
    /// large that the activations overflow).
    fn output_of_planes(
        &self,
        size: BoardSize,
        planes: &[u8],
        scratch: &mut NetScratch,
    ) -> Option<PolicyOutput> {
        let n = size.area();
        let stride = plane_bytes(size.get());
        let legal: Vec<bool> = (0..n)
            .map(|i| (planes[LEGAL * stride + i / 8] >> (i % 8)) & 1 == 1)
            .collect();
        let logits = self
            .logits_of_sized_planes(size.get(), planes, scratch)
            .expect("planes encoded for the board's side");
        let counted = |i: usize| i == n || legal[i];
        if (0..=n).any(|i| counted(i) && !logits[i].is_finite()) {
            return None;
        }
        let max = logits
            .iter()
            .enumerate()
            .filter(|&(i, _)| counted(i))
            .map(|(_, &l)| l)
            .fold(f32::NEG_INFINITY, f32::max);
        let mut probabilities: Vec<f32> = logits
            .iter()
            .enumerate()
            .map(|(i, &l)| if counted(i) { (l - max).exp() } else { 0.0 })
            .collect();
        let total: f32 = probabilities.iter().sum();
        for p in &mut probabilities {
            *p /= total;
        }
        let judgement = match &self.weights.heads {
            Some(heads) => {
                let mut ownership = vec![0.0; n];
                let (logit, score) = scratch.buffers.judge(heads, size.get(), &mut ownership);
                if !logit.is_finite()
                    || !score.is_finite()
                    || ownership.iter().any(|o| !o.is_finite())
                {
                    return None;
                }
                Some(NetJudgement {
                    win: 1.0 / (1.0 + (-logit).exp()),
                    score,
                    ownership,
                })
            }
            None => None,
        };
        Some(PolicyOutput {
            size,
            probabilities,
            legal,
            judgement,
        })
    }
}

#[cfg(test)]
mod tests;
