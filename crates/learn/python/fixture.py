"""Writes the fixture of the Rust inference test (crates/knowledge/src/policy_net):
a small random network in the trainer's weights format and a few positions of an
exported shard with the logits net.py gives them.

    target/policy-venv/bin/python crates/learn/python/fixture.py \
        --shard /data/policy/held-out/held-out-2011-03.tgp --out crates/knowledge/tests/data/policy-net

Writes OUT/net.safetensors (weights.py's layout) and OUT/positions.safetensors:
`planes` (positions, planes * plane bytes) uint8, the shard's bit-packed planes, and
`logits` (positions, side*side + 1) float32, net.py's masked logits. The network's
biases are drawn at random too, so that the test sees them. With --heads the network
has the value, score and ownership heads (weights format version 2) and the positions
file adds `value` (positions,) the value logits, `score` (positions,) the scores in
points and `ownership` (positions, side*side), net.judgement's outputs:

    target/policy-venv/bin/python crates/learn/python/fixture.py --heads \
        --shard /data/policy/held-out/held-out-2011-03.tgp --out crates/knowledge/tests/data/policy-net-heads
"""

import argparse
import os
import sys


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shard", required=True, help="an exported shard to take positions from")
    p.add_argument("--out", required=True, help="directory of the two fixture files")
    p.add_argument("--positions", type=int, default=6)
    p.add_argument("--layers", type=int, default=3)
    p.add_argument("--filters", type=int, default=8)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--heads", action="store_true", help="a network with the value, score and ownership heads")
    args = p.parse_args(argv)
    os.environ["JAX_PLATFORMS"] = "cpu"
    import jax
    import numpy as np
    from safetensors.numpy import save_file

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import net
    import shards
    import weights

    shard = shards.Shard(args.shard)
    key = jax.random.PRNGKey(args.seed)
    params = net.init(key, shard.planes + 1, args.layers, args.filters, args.heads)
    rng = np.random.default_rng(args.seed)
    for layer in params["convs"]:
        layer["b"] = rng.normal(0, 0.1, layer["b"].shape).astype(np.float32)
    for part in ("head", "pass"):
        params[part]["b"] = rng.normal(0, 0.5, params[part]["b"].shape).astype(np.float32)
    if args.heads:
        for key_ in ("b1", "b2"):
            params["value"][key_] = rng.normal(0, 0.5, params["value"][key_].shape).astype(np.float32)
        params["ownership"]["b"] = rng.normal(0, 0.5, (1,)).astype(np.float32)
    os.makedirs(args.out, exist_ok=True)
    weights.save(os.path.join(args.out, "net.safetensors"), params, {
        "board_size": shard.side, "input_planes": shard.planes + 1,
        "input": f"the {shard.planes} planes of crates/knowledge/src/planes.rs in order, then a plane of ones",
        "legal_plane": net.LEGAL_PLANE, "layers": args.layers, "filters": args.filters,
        "first_kernel": 5, "kernel": 3, "activation": "relu", "padding": "same, zeros",
        "steps": 0, "positions_seen": 0, "seed": args.seed,
        **({"score_scale": net.SCORE_SCALE, "value_hidden": net.VALUE_HIDDEN} if args.heads else {}),
        "command": " ".join(["fixture.py"] + list(argv))})
    # Evenly spread positions, away from the very first moves.
    indices = np.linspace(shard.positions // 10, shard.positions - 1, args.positions).astype(np.int64)
    planes, _, _ = shard.batch(indices)
    x = net.inputs(planes)
    logits = np.asarray(net.logits(params, x), dtype=np.float32)
    packed = np.asarray(shard.records[indices])[:, : shard.planes * shard.plane_bytes]
    outputs = {"planes": np.ascontiguousarray(packed), "logits": logits}
    if args.heads:
        value, score, own = net.judgement(params, net.trunk(params, x))
        outputs.update({"value": np.asarray(value, np.float32), "score": np.asarray(score, np.float32),
                        "ownership": np.asarray(own, np.float32).reshape(len(indices), -1)})
    save_file(outputs,
              os.path.join(args.out, "positions.safetensors"),
              metadata={"shard": os.path.basename(args.shard), "indices": " ".join(map(str, indices))})
    print(f"{args.out}: a {args.layers}x{args.filters} net and {len(indices)} positions of {args.shard}")


if __name__ == "__main__":
    main(sys.argv[1:])
