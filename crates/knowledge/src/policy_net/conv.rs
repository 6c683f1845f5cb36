//! The network's forward pass on one position: each convolution as an im2col copy
//! and one matrix product (faer's, one thread, its kernels chosen for the CPU at run
//! time: BENCHMARKS.md has the comparison that chose it), then the 1×1 head and the
//! pass logit.
//!
//! Activations are held channel by channel, `channels × side²` row-major, point
//! `y * side + x` as in the planes; padding is zeros, as the trainer's "same".

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};

use super::weights::{Conv, Heads, Weights};

/// Writes the im2col matrix of `input` (`channels × side²`) for a `kernel`×`kernel`
/// window into `cols`: row `(c * kernel + dy) * kernel + dx`, column `y * side + x`,
/// holds the input at `(y + dy - r, x + dx - r)` (`r = kernel / 2`), 0 off the board.
fn im2col(input: &[f32], channels: usize, side: usize, kernel: usize, cols: &mut [f32]) {
    let n = side * side;
    let r = kernel / 2;
    for c in 0..channels {
        let plane = &input[c * n..(c + 1) * n];
        for dy in 0..kernel {
            for dx in 0..kernel {
                let row = &mut cols[((c * kernel + dy) * kernel + dx) * n..][..n];
                // Columns x whose source x + dx - r lies on the board.
                let x0 = r.saturating_sub(dx);
                let x1 = (side + r).saturating_sub(dx).min(side);
                for y in 0..side {
                    let out = &mut row[y * side..(y + 1) * side];
                    let sy = (y + dy).wrapping_sub(r);
                    if sy >= side || x0 >= x1 {
                        out.fill(0.0);
                        continue;
                    }
                    out[..x0].fill(0.0);
                    out[x1..].fill(0.0);
                    let sx0 = x0 + dx - r;
                    out[x0..x1].copy_from_slice(&plane[sy * side + sx0..][..x1 - x0]);
                }
            }
        }
    }
}

/// One convolution with its bias and ReLU: `input` (`conv.inputs × side²`) to `out`
/// (`conv.filters × side²`), `cols` the im2col buffer.
fn conv_relu(conv: &Conv, side: usize, input: &[f32], cols: &mut [f32], out: &mut [f32]) {
    let n = side * side;
    let k = conv.inputs * conv.kernel * conv.kernel;
    im2col(input, conv.inputs, side, conv.kernel, &mut cols[..k * n]);
    let out = &mut out[..conv.filters * n];
    for (row, &b) in out.chunks_exact_mut(n).zip(&conv.bias) {
        row.fill(b);
    }
    // The shapes are the buffers' lengths by construction (the weights' checked on loading).
    let w = MatRef::from_row_major_slice(&conv.weight, conv.filters, k);
    let x = MatRef::from_row_major_slice(&cols[..k * n], k, n);
    let y = MatMut::from_row_major_slice_mut(out, conv.filters, n);
    matmul(y, Accum::Add, w, x, 1.0, Par::Seq);
    for v in out.iter_mut() {
        *v = v.max(0.0);
    }
}

/// The buffers of one forward pass.
#[derive(Clone, Debug, Default)]
pub(super) struct Buffers {
    /// The input planes as floats, the plane of ones last.
    pub input: Vec<f32>,
    cols: Vec<f32>,
    a: Vec<f32>,
    b: Vec<f32>,
    /// The value head's convolution, its pooled features and its hidden layer.
    value: Vec<f32>,
    pooled: Vec<f32>,
    hidden: Vec<f32>,
}

impl Buffers {
    /// Sizes the buffers for `w` on a board of `side`; a no-op when they already fit.
    pub fn fit(&mut self, w: &Weights, side: usize) {
        let n = side * side;
        let inputs = w.convs.first().map_or(0, |c| c.inputs);
        let cols = w
            .convs
            .iter()
            .map(|c| c.inputs * c.kernel * c.kernel)
            .max()
            .unwrap_or(0);
        let filters = w.convs.first().map_or(0, |c| c.filters);
        for (buf, len) in [
            (&mut self.input, inputs * n),
            (&mut self.cols, cols * n),
            (&mut self.a, filters * n),
            (&mut self.b, filters * n),
        ] {
            if buf.len() != len {
                buf.resize(len, 0.0);
            }
        }
    }

    /// The unmasked logits of the position in `self.input`, on a board of `side`, into
    /// `logits` (`side² + 1`: the points, then the pass). The buffers must
    /// [`fit`](Buffers::fit) `w` and `side`. Every layer is a convolution and the pass
    /// logit reads the board's mean, so any side works: a net trained on 19×19 reads
    /// a 13×13 board as it reads a 19×19 one, edges included (the plane of ones).
    pub fn forward(&mut self, w: &Weights, side: usize, logits: &mut [f32]) {
        let n = side * side;
        let mut from_input = true;
        for conv in &w.convs {
            let (src, dst) = if from_input {
                (&self.input[..], &mut self.a)
            } else {
                // Alternate a and b: the previous output is the next input.
                std::mem::swap(&mut self.a, &mut self.b);
                (&self.b[..], &mut self.a)
            };
            conv_relu(conv, side, src, &mut self.cols, dst);
            from_input = false;
        }
        let last = &self.a[..];
        let points = &mut logits[..n];
        points.fill(w.head_bias);
        let mut pass = w.pass_bias;
        for ((plane, &h), &p) in last.chunks_exact(n).zip(&w.head).zip(&w.pass) {
            for (l, &v) in points.iter_mut().zip(plane) {
                *l += h * v;
            }
            pass += p * plane.iter().sum::<f32>() / n as f32;
        }
        logits[n] = pass;
    }

    /// The heads' outputs for the position of the last [`forward`](Buffers::forward)
    /// (its last layer is still in the buffers), on a board of `side`: the value logit
    /// (the mover wins) and the score in points (the mover's margin), and each point's
    /// ownership from the mover's view, in [-1, 1], into `ownership` (`side²`).
    pub fn judge(&mut self, heads: &Heads, side: usize, ownership: &mut [f32]) -> (f32, f32) {
        let n = side * side;
        let filters = heads.ownership.len();
        let last = &self.a[..filters * n];
        let channels = heads.channels;
        self.value.resize(channels * n, 0.0);
        self.pooled.resize(2 * channels, 0.0);
        self.hidden.resize(heads.hidden, 0.0);
        let ownership = &mut ownership[..n];
        ownership.fill(heads.ownership_bias);
        for (plane, &w) in last.chunks_exact(n).zip(&heads.ownership) {
            for (o, &v) in ownership.iter_mut().zip(plane) {
                *o += w * v;
            }
        }
        for o in ownership.iter_mut() {
            *o = o.tanh();
        }
        // The value convolution (1×1, then ReLU): the `channels × filters` weights times
        // the `filters × n` last layer.
        for (row, &b) in self.value.chunks_exact_mut(n).zip(&heads.conv_bias) {
            row.fill(b);
        }
        let w = MatRef::from_row_major_slice(&heads.conv, channels, filters);
        let x = MatRef::from_row_major_slice(last, filters, n);
        let y = MatMut::from_row_major_slice_mut(&mut self.value, channels, n);
        matmul(y, Accum::Add, w, x, 1.0, Par::Seq);
        for (c, plane) in self.value.chunks_exact_mut(n).enumerate() {
            let mut sum = 0.0;
            let mut max = 0.0f32;
            for v in plane.iter_mut() {
                *v = v.max(0.0);
                sum += *v;
                max = max.max(*v);
            }
            self.pooled[c] = sum / n as f32;
            self.pooled[channels + c] = max;
        }
        for (h, (row, &b)) in self
            .hidden
            .iter_mut()
            .zip(heads.fc1.chunks_exact(2 * channels).zip(&heads.fc1_bias))
        {
            let sum: f32 = row.iter().zip(&self.pooled).map(|(w, x)| w * x).sum();
            *h = (sum + b).max(0.0);
        }
        let mut out = heads.fc2_bias;
        for (o, row) in out.iter_mut().zip(heads.fc2.chunks_exact(heads.hidden)) {
            *o += row
                .iter()
                .zip(&self.hidden)
                .map(|(w, x)| w * x)
                .sum::<f32>();
        }
        (out[0], out[1] * heads.score_scale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The convolution written out as its definition.
    fn direct(input: &[f32], channels: usize, side: usize, kernel: usize, w: &[f32]) -> Vec<f32> {
        let r = kernel as i64 / 2;
        let n = side * side;
        let s = side as i64;
        let mut out = vec![0.0; n];
        for y in 0..s {
            for x in 0..s {
                let mut sum = 0.0;
                for c in 0..channels {
                    for dy in 0..kernel as i64 {
                        for dx in 0..kernel as i64 {
                            let (sy, sx) = (y + dy - r, x + dx - r);
                            if (0..s).contains(&sy) && (0..s).contains(&sx) {
                                let wi = (c * kernel + dy as usize) * kernel + dx as usize;
                                sum += w[wi] * input[c * n + (sy * s + sx) as usize];
                            }
                        }
                    }
                }
                out[(y * s + x) as usize] = sum;
            }
        }
        out
    }

    #[test]
    fn im2col_and_a_product_is_the_convolution() {
        for (side, kernel, channels) in [(5, 3, 2), (4, 5, 3), (7, 5, 1), (2, 3, 2)] {
            let n = side * side;
            let input: Vec<f32> = (0..channels * n)
                .map(|i| ((i * 7919) % 13) as f32 - 6.0)
                .collect();
            let weight: Vec<f32> = (0..channels * kernel * kernel)
                .map(|i| ((i * 104_729) % 11) as f32 / 5.0 - 1.0)
                .collect();
            let conv = Conv {
                filters: 1,
                inputs: channels,
                kernel,
                weight: weight.clone(),
                bias: vec![0.5],
            };
            let mut cols = vec![f32::NAN; channels * kernel * kernel * n];
            let mut out = vec![f32::NAN; n];
            conv_relu(&conv, side, &input, &mut cols, &mut out);
            let want = direct(&input, channels, side, kernel, &weight);
            for (got, want) in out.iter().zip(&want) {
                assert!((got - (want + 0.5).max(0.0)).abs() < 1e-4, "{got} {want}");
            }
        }
    }
}
