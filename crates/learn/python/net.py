"""The policy network in JAX: a plain convolutional net over the shard planes and a
plane of ones, with a 1x1 head giving one logit a point and a pass logit from the
mean of the last layer's features.

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


def init(key, in_planes, layers, filters):
    """Parameters of a net of `layers` conv layers of `filters` filters."""
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
    return params


def _conv(x, w):
    return jax.lax.conv_general_dilated(x, w, (1, 1), "SAME",
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))


def inputs(planes):
    """Shard planes (n, planes, side, side) as the net's NHWC input with a plane of ones."""
    x = jnp.transpose(planes, (0, 2, 3, 1))
    ones = jnp.ones(x.shape[:3] + (1,), x.dtype)
    return jnp.concatenate([x, ones], axis=3)


def logits(params, x):
    """Masked logits (n, side*side + 1): points as y * side + x, then the pass."""
    h = x
    for layer in params["convs"]:
        h = jax.nn.relu(_conv(h, layer["w"]) + layer["b"])
    n = x.shape[0]
    board = (_conv(h, params["head"]["w"])[..., 0] + params["head"]["b"][0]).reshape(n, -1)
    passing = h.mean(axis=(1, 2)) @ params["pass"]["w"] + params["pass"]["b"]
    out = jnp.concatenate([board, passing], axis=1)
    legal = jnp.concatenate([x[..., LEGAL_PLANE].reshape(n, -1), jnp.ones((n, 1), x.dtype)], axis=1)
    return jnp.where(legal > 0, out, -1e9)


def loss_and_ranks(params, x, played):
    """Mean cross-entropy, and for each position how many moves the net rates above the
    one played (0: its first choice)."""
    z = logits(params, x)
    logp = jax.nn.log_softmax(z)
    mine = jnp.take_along_axis(logp, played[:, None], axis=1)[:, 0]
    better = (logp > mine[:, None]).sum(axis=1)
    return -mine.mean(), -mine, better
