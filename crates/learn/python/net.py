"""The network in JAX: a plain convolutional trunk over the shard planes and a plane
of ones, with a 1x1 head giving one policy logit a point and a pass logit from the
mean of the trunk's last layer; optionally (`heads`) the judgement of the position
from the same trunk:

- value and score: a 1x1 convolution of the last layer to VALUE_CHANNELS channels with
  ReLU (features of each point of its own, as KataGo's value head has), their board
  mean and board max (2 * VALUE_CHANNELS numbers), a hidden layer of VALUE_HIDDEN ReLU
  units and two outputs, the logit that the side to move wins and its final margin in
  units of SCORE_SCALE points (the mover's points minus the opponent's). (Pooling the
  policy's last layer directly gave the value nothing to learn from: a logistic fit on
  those pooled features of held-out positions was right 52% of the time.)
- ownership: a 1x1 convolution and tanh, one value a point in [-1, 1], +1 the
  mover's.

Layer 0 is a 5x5 convolution, the others 3x3, all with `filters` outputs, zero
padding ("same") and ReLU. Kernels are held HWIO for XLA and written OIHW
(`weights.py`).
"""

import jax
import jax.numpy as jnp
import numpy as np

# The legal-move plane (crates/knowledge/src/planes.rs): points where it is 0 get no
# probability.
LEGAL_PLANE = 12

# Channels of the value head's 1x1 convolution, and its hidden units.
VALUE_CHANNELS = 32
VALUE_HIDDEN = 32

# The score output's unit, in points.
SCORE_SCALE = 20.0


def init(key, in_planes, layers, filters, heads=False):
    """Parameters of a net of `layers` conv layers of `filters` filters, with the value,
    score and ownership heads if `heads`."""
    params = {"convs": []}
    cin = in_planes
    for i in range(layers):
        k = 5 if i == 0 else 3
        key, sub = jax.random.split(key)
        std = np.sqrt(2.0 / (k * k * cin))
        w = jax.random.normal(sub, (k, k, cin, filters), jnp.float32) * std
        params["convs"].append({"w": w, "b": jnp.zeros((filters,), jnp.float32)})
        cin = filters
    key, a, b = jax.random.split(key, 3)
    params["head"] = {"w": jax.random.normal(a, (1, 1, filters, 1), jnp.float32) * np.sqrt(1.0 / filters),
                      "b": jnp.zeros((1,), jnp.float32)}
    params["pass"] = {"w": jax.random.normal(b, (filters, 1), jnp.float32) * np.sqrt(1.0 / filters),
                      "b": jnp.zeros((1,), jnp.float32)}
    if heads:
        params.update(init_heads(key, filters))
    return params


def init_heads(key, filters):
    """Fresh parameters of the value, score and ownership heads over `filters` trunk
    features (a warm start from a policy-only file adds these)."""
    a, b, c, d = jax.random.split(jax.random.fold_in(key, 7), 4)
    return {
        "value": {"conv_w": jax.random.normal(d, (1, 1, filters, VALUE_CHANNELS), jnp.float32) * np.sqrt(2.0 / filters),
                  "conv_b": jnp.zeros((VALUE_CHANNELS,), jnp.float32),
                  "w1": jax.random.normal(a, (2 * VALUE_CHANNELS, VALUE_HIDDEN), jnp.float32) * np.sqrt(2.0 / (2 * VALUE_CHANNELS)),
                  "b1": jnp.zeros((VALUE_HIDDEN,), jnp.float32),
                  "w2": jax.random.normal(b, (VALUE_HIDDEN, 2), jnp.float32) * np.sqrt(1.0 / VALUE_HIDDEN),
                  "b2": jnp.zeros((2,), jnp.float32)},
        "ownership": {"w": jax.random.normal(c, (1, 1, filters, 1), jnp.float32) * np.sqrt(1.0 / filters),
                      "b": jnp.zeros((1,), jnp.float32)},
    }


def has_heads(params):
    """Whether `params` carry the value, score and ownership heads."""
    return "value" in params


def _conv(x, w):
    return jax.lax.conv_general_dilated(x, w, (1, 1), "SAME",
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))


def inputs(planes):
    """Shard planes (n, planes, side, side) as the net's NHWC input with a plane of ones."""
    x = jnp.transpose(planes, (0, 2, 3, 1))
    ones = jnp.ones(x.shape[:3] + (1,), x.dtype)
    return jnp.concatenate([x, ones], axis=3)


def trunk(params, x):
    """The last layer's features (n, side, side, filters)."""
    h = x
    for layer in params["convs"]:
        h = jax.nn.relu(_conv(h, layer["w"]) + layer["b"])
    return h


def logits(params, x, h=None):
    """Masked logits (n, side*side + 1): points as y * side + x, then the pass. `h`, the
    trunk's features of `x` where already computed."""
    if h is None:
        h = trunk(params, x)
    n = x.shape[0]
    board = (_conv(h, params["head"]["w"])[..., 0] + params["head"]["b"][0]).reshape(n, -1)
    passing = h.mean(axis=(1, 2)) @ params["pass"]["w"] + params["pass"]["b"]
    out = jnp.concatenate([board, passing], axis=1)
    legal = jnp.concatenate([x[..., LEGAL_PLANE].reshape(n, -1), jnp.ones((n, 1), x.dtype)], axis=1)
    return jnp.where(legal > 0, out, -1e9)


def judgement(params, h):
    """The heads' outputs from the trunk's features `h`: the value logit (n,), the
    score (n,) in points and the ownership (n, side, side), all from the mover's view."""
    v = params["value"]
    g = jax.nn.relu(_conv(h, v["conv_w"]) + v["conv_b"])
    pooled = jnp.concatenate([g.mean(axis=(1, 2)), g.max(axis=(1, 2))], axis=1)
    hidden = jax.nn.relu(pooled @ v["w1"] + v["b1"])
    out = hidden @ v["w2"] + v["b2"]
    own = jnp.tanh(_conv(h, params["ownership"]["w"])[..., 0] + params["ownership"]["b"][0])
    return out[:, 0], out[:, 1] * SCORE_SCALE, own


def loss_and_ranks(params, x, played, h=None):
    """Mean cross-entropy, and for each position how many moves the net rates above the
    one played (0: its first choice). `h` as in `logits`."""
    z = logits(params, x, h)
    logp = jax.nn.log_softmax(z)
    mine = jnp.take_along_axis(logp, played[:, None], axis=1)[:, 0]
    better = (logp > mine[:, None]).sum(axis=1)
    return -mine.mean(), -mine, better


def judgement_losses(params, h, value, value_mask, margin, score_mask, ownership, ownership_mask):
    """The heads' losses, each a mean over the positions its mask admits (0 where none):
    the value's cross-entropy against `value` (1 the mover won, 0 lost, 0.5 a draw),
    the score's Huber loss in units of SCORE_SCALE points against `margin`, and the
    ownership's mean squared error over the points against `ownership` (n, side,
    side)."""
    vlogit, score, own = judgement(params, h)
    def masked(losses, mask):
        return (losses * mask).sum() / jnp.maximum(mask.sum(), 1.0)
    value_loss = masked(bce(vlogit, value), value_mask)
    err = (score - margin) / SCORE_SCALE
    huber = jnp.where(jnp.abs(err) < 1.0, 0.5 * err * err, jnp.abs(err) - 0.5)
    score_loss = masked(huber, score_mask)
    own_loss = masked(((own - ownership) ** 2).mean(axis=(1, 2)), ownership_mask)
    return value_loss, score_loss, own_loss


def bce(logit, target):
    """Binary cross-entropy of a logit against a target probability."""
    return jnp.maximum(logit, 0) - logit * target + jnp.log1p(jnp.exp(-jnp.abs(logit)))
