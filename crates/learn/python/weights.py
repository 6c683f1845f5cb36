"""The trained network's weights as a safetensors file, for a Rust loader.

Tensors (float32, little-endian, row-major):
  conv{i}.weight  (filters, in, k, k), OIHW; k = 5 for conv0, 3 after; in = planes + 1
  conv{i}.bias    (filters,)
  head.weight     (1, filters, 1, 1)   1x1 conv: one logit a point
  head.bias       (1,)
  pass.weight     (1, filters)         the pass logit from the board mean of the last layer
  pass.bias       (1,)
and, in version 2 (a net with the value, score and ownership heads, net.py):
  value.conv.weight (channels, filters, 1, 1)  1x1 conv of the last layer, then ReLU
  value.conv.bias   (channels,)
  value.fc1.weight  (hidden, 2 * channels) over the board mean, then the board max, of
                                           the value convolution; ReLU
  value.fc1.bias    (hidden,)
  value.fc2.weight  (2, hidden)            the value logit (the mover wins), then the
                                           score in units of `score_scale` points
  value.fc2.bias    (2,)
  ownership.weight  (1, filters, 1, 1)     1x1 conv, then tanh: +1 the mover's point
  ownership.bias    (1,)
A version 1 file is a policy network alone. The metadata (string to string) names the
format and version, the board size, the input planes and their order, the layers and
filters, and how the weights were made.
"""

import os

import numpy as np
from safetensors import safe_open
from safetensors.numpy import load_file, save_file

FORMAT = "tengen-policy"
FORMAT_VERSION = "1"
# The version of a file with the value, score and ownership heads.
FORMAT_VERSION_HEADS = "2"


def save(path, params, metadata):
    """Writes `params` (net.py's layout) to `path` with `metadata`."""
    tensors = {}
    for i, layer in enumerate(params["convs"]):
        tensors[f"conv{i}.weight"] = np.ascontiguousarray(np.transpose(np.asarray(layer["w"]), (3, 2, 0, 1)))
        tensors[f"conv{i}.bias"] = np.asarray(layer["b"])
    tensors["head.weight"] = np.ascontiguousarray(np.transpose(np.asarray(params["head"]["w"]), (3, 2, 0, 1)))
    tensors["head.bias"] = np.asarray(params["head"]["b"])
    tensors["pass.weight"] = np.ascontiguousarray(np.asarray(params["pass"]["w"]).T)
    tensors["pass.bias"] = np.asarray(params["pass"]["b"])
    version = FORMAT_VERSION
    if "value" in params:
        v = params["value"]
        tensors["value.conv.weight"] = np.ascontiguousarray(np.transpose(np.asarray(v["conv_w"]), (3, 2, 0, 1)))
        tensors["value.conv.bias"] = np.asarray(v["conv_b"])
        tensors["value.fc1.weight"] = np.ascontiguousarray(np.asarray(v["w1"]).T)
        tensors["value.fc1.bias"] = np.asarray(v["b1"])
        tensors["value.fc2.weight"] = np.ascontiguousarray(np.asarray(v["w2"]).T)
        tensors["value.fc2.bias"] = np.asarray(v["b2"])
        o = params["ownership"]
        tensors["ownership.weight"] = np.ascontiguousarray(np.transpose(np.asarray(o["w"]), (3, 2, 0, 1)))
        tensors["ownership.bias"] = np.asarray(o["b"])
        version = FORMAT_VERSION_HEADS
    meta = {"format": FORMAT, "format_version": version}
    meta.update({k: str(v) for k, v in metadata.items()})
    # Whole or not at all: a kill mid-write leaves the previous weights, never half a file.
    tmp = path + ".tmp"
    save_file({k: v.astype(np.float32) for k, v in tensors.items()}, tmp, metadata=meta)
    os.replace(tmp, path)


def load(path):
    """The tensors of a weights file, back in net.py's layout."""
    t = load_file(path)
    layers = sum(1 for k in t if k.startswith("conv") and k.endswith(".weight"))
    params = {"convs": []}
    for i in range(layers):
        params["convs"].append({"w": np.transpose(t[f"conv{i}.weight"], (2, 3, 1, 0)),
                                "b": t[f"conv{i}.bias"]})
    params["head"] = {"w": np.transpose(t["head.weight"], (2, 3, 1, 0)), "b": t["head.bias"]}
    params["pass"] = {"w": t["pass.weight"].T, "b": t["pass.bias"]}
    if "value.fc1.weight" in t:
        params["value"] = {"conv_w": np.transpose(t["value.conv.weight"], (2, 3, 1, 0)),
                           "conv_b": t["value.conv.bias"],
                           "w1": t["value.fc1.weight"].T, "b1": t["value.fc1.bias"],
                           "w2": t["value.fc2.weight"].T, "b2": t["value.fc2.bias"]}
        params["ownership"] = {"w": np.transpose(t["ownership.weight"], (2, 3, 1, 0)),
                               "b": t["ownership.bias"]}
    return params


def metadata(path):
    """The metadata of a weights file (string to string); a file of another format is
    a ValueError."""
    with safe_open(path, framework="np") as f:
        meta = f.metadata() or {}
    if meta.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} weights file (format {meta.get('format')!r})")
    return meta
