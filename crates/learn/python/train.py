"""Trains Tengen's policy network on shards from `tengen learn export`.

    target/policy-venv/bin/python crates/learn/python/train.py \
        --train /data/shards/train --held-out /data/shards/held-out --out /data/run1 \
        --layers 6 --filters 64 --steps 20000

Each step draws a batch of training positions at random (from a generator seeded by
--seed and the step, so a resumed run draws what an unbroken one would), applies one of
the 8 symmetries of the board to each, and takes an Adam step on the cross-entropy of
the move played. Every --eval-every steps it scores a fixed, evenly spread sample of the
held-out positions (loss, top-1, top-5, top-1 by phase), prints a line, appends it to
OUT/log.jsonl, and writes OUT/checkpoint.npz (parameters, optimizer state, step) and
OUT/weights.safetensors (weights.py documents the format). Started again with the same
--out, it resumes from the checkpoint (only --lr may differ: a lower rate settles a
run); --steps is the total to reach. --device cuda runs
the same on a GPU.

--heads trains the value, score and ownership heads (net.py) beside the policy, on the
game labels of version 2 shards: the value on games with a result decided on the board
or by resignation (not time, forfeit or unknown), the score on counted games, the
ownership on judged games; --value-weight, --score-weight and --ownership-weight weigh
their losses against the policy's. The held-out log then adds each head's figures by
the move's number (1-39, 40-99, 100-159, 160+): outcome accuracy and Brier score, the
score's mean absolute error, and the ownership's agreement in sign with the label on
points the label gives to one side (|label| > 0.5).

--init WEIGHTS starts a new --out from a weights file of the same net (its layers,
filters, planes and board side) instead of random parameters: the steps and positions
its metadata records count as done, so with its --seed and --batch the run draws the
batches an unbroken run would have drawn next; Adam's moments start afresh (the file
does not hold them), so a lower --lr suits it.
"""

import argparse
import json
import os
import sys
import time


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--train", nargs="+", required=True, help="training shards: files, directories or globs")
    p.add_argument("--held-out", nargs="+", required=True, help="held-out shards (never trained on)")
    p.add_argument("--out", required=True, help="directory of the checkpoint, log and weights")
    p.add_argument("--layers", type=int, default=6)
    p.add_argument("--filters", type=int, default=64)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--steps", type=int, default=1000, help="total steps to reach (a resumed run counts its earlier ones)")
    p.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate")
    p.add_argument("--eval-every", type=int, default=200)
    p.add_argument("--eval-positions", type=int, default=4096)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    p.add_argument("--no-augment", action="store_true", help="train without the symmetries")
    p.add_argument("--init", help="weights file to start a new run from (its steps and positions count as done)")
    p.add_argument("--heads", action="store_true", help="train the value, score and ownership heads too")
    p.add_argument("--value-weight", type=float, default=1.0)
    p.add_argument("--score-weight", type=float, default=0.5)
    p.add_argument("--ownership-weight", type=float, default=1.0)
    a = p.parse_args(argv)
    for name in ["layers", "filters", "batch", "steps", "eval_every", "eval_positions"]:
        if getattr(a, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if not a.lr > 0:
        p.error("--lr must be positive")
    for name in ["value_weight", "score_weight", "ownership_weight"]:
        if not getattr(a, name) >= 0:
            p.error(f"--{name.replace('_', '-')} must be at least 0")
    return a


def main(argv):
    args = parse_args(argv)
    # The platform is chosen before JAX starts.
    os.environ["JAX_PLATFORMS"] = args.device
    import jax
    import jax.numpy as jnp
    import numpy as np
    import optax

    import net
    import shards
    import weights

    try:
        train = shards.ShardSet(shards.expand(args.train))
        held = shards.ShardSet(shards.expand(args.held_out))
    except (shards.ShardError, OSError) as e:
        sys.exit(f"train.py: {e}")
    if (held.side, held.planes) != (train.side, train.planes):
        sys.exit("train.py: the held-out shards' board side or planes differ from the training shards'")
    if args.heads and any(s.version < 2 for s in train.shards + held.shards):
        old = next(s.path for s in train.shards + held.shards if s.version < 2)
        sys.exit(f"train.py: --heads needs version 2 shards with game labels; {old} is version 1: export it again")
    train_files = {os.path.realpath(s.path) for s in train.shards}
    if any(os.path.realpath(s.path) in train_files for s in held.shards):
        sys.exit("train.py: a held-out shard is also a training shard")
    os.makedirs(args.out, exist_ok=True)
    config = {"layers": args.layers, "filters": args.filters, "side": train.side,
              "planes": train.planes, "lr": args.lr, "batch": args.batch, "seed": args.seed,
              "augment": not args.no_augment}
    if args.heads:
        # Part of the run's identity (an older checkpoint without heads has no such key).
        config.update({"heads": True, "value_weight": args.value_weight,
                       "score_weight": args.score_weight, "ownership_weight": args.ownership_weight})

    optimizer = optax.adam(args.lr)
    params = net.init(jax.random.PRNGKey(args.seed), train.planes + 1, args.layers, args.filters, args.heads)
    # init_seen: the positions a warm start's file had seen (not this run's work).
    step, seen, seconds, init_seen = 0, 0, 0.0, 0
    ckpt = os.path.join(args.out, "checkpoint.npz")
    if args.init:
        # Part of the run's identity: its resumes must name the same file.
        config["init"] = os.path.realpath(args.init)
    if args.init and not os.path.exists(ckpt):
        try:
            params, step, seen = warm_start(args.init, params, jnp,
                                            f"layers {args.layers}, filters {args.filters}, input planes {train.planes + 1}")
        except Exception as e:  # a missing, foreign or corrupt file: one clear line, no trace
            sys.exit(f"train.py: --init {args.init}: {e}")
        init_seen = seen
        print(f"started from {args.init} at step {step} ({seen} positions seen)", flush=True)
    opt_state = optimizer.init(params)
    if os.path.exists(ckpt):
        saved = np.load(ckpt, allow_pickle=False)
        old = json.loads(str(saved["config"]))
        # The learning rate may change between runs (a schedule by hand: lower --lr to
        # settle a run); everything else must match.
        same = {k: v for k, v in old.items() if k != "lr"} == {k: v for k, v in config.items() if k != "lr"}
        if not same:
            sys.exit(f"train.py: {ckpt} was made with {old}, not {config}: choose another --out")
        leaves, tree = jax.tree_util.tree_flatten((params, opt_state))
        loaded = [jnp.asarray(saved[f"leaf{i}"]) for i in range(len(leaves))]
        params, opt_state = jax.tree_util.tree_unflatten(tree, loaded)
        step, seen, seconds = int(saved["step"]), int(saved["seen"]), float(saved["seconds"])
        init_seen = int(saved["init_seen"]) if "init_seen" in saved.files else 0
        print(f"resumed from {ckpt} at step {step} ({seen} positions seen)", flush=True)

    weights_by_head = jnp.asarray([args.value_weight, args.score_weight, args.ownership_weight])

    @jax.jit
    def train_step(params, opt_state, planes, played, labels):
        def loss_fn(p):
            x = net.inputs(planes)
            h = net.trunk(p, x)
            policy = net.loss_and_ranks(p, x, played, h)[0]
            if labels is None:
                return policy, jnp.zeros(3)
            heads = jnp.stack(net.judgement_losses(p, h, *labels))
            return policy + (weights_by_head * heads).sum(), heads
        (loss, heads), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss, heads

    def head_targets(o, symmetries=None):
        """The heads' targets and masks (net.judgement_losses' order) from `outcomes`."""
        value = o["value"]
        ending = o["ending"]
        value_mask = np.isfinite(value) & (ending != 3) & (ending != 4)
        score_mask = ((ending == 1) | (ending == 5)) & np.isfinite(o["margin"])
        own = o["ownership"]
        if symmetries is not None:
            own = shards.augment_points(own, symmetries, tables)
        own_mask = np.abs(own).sum(axis=(1, 2)) > 0
        return tuple(jnp.asarray(a) for a in (
            np.nan_to_num(value).astype(np.float32), value_mask.astype(np.float32),
            np.nan_to_num(o["margin"]).astype(np.float32), score_mask.astype(np.float32),
            own.astype(np.float32), own_mask.astype(np.float32)))

    @jax.jit
    def judge_batch(params, planes):
        x = net.inputs(planes)
        vlogit, score, own = net.judgement(params, net.trunk(params, x))
        return jax.nn.sigmoid(vlogit), score, own

    @jax.jit
    def eval_batch(params, planes, played):
        _, losses, better = net.loss_and_ranks(params, net.inputs(planes), played)
        return losses, better

    tables = shards.symmetry_tables(train.side)
    eval_idx = np.unique(np.linspace(0, held.positions - 1, min(args.eval_positions, held.positions)).astype(np.int64))

    def evaluate():
        losses, better, phases = [], [], []
        for i in range(0, len(eval_idx), 512):
            planes, played, phase = held.batch(eval_idx[i:i + 512])
            l, b = eval_batch(params, jnp.asarray(planes), jnp.asarray(played))
            losses.append(np.asarray(l))
            better.append(np.asarray(b))
            phases.append(phase)
        losses, better, phases = map(np.concatenate, (losses, better, phases))
        by_phase = {name: round(100 * float((better[phases == k] == 0).mean()), 2)
                    for k, name in enumerate(["1-30", "31-100", "101+"]) if (phases == k).any()}
        row = {"held_out_loss": round(float(losses.mean()), 4),
               "top1": round(100 * float((better == 0).mean()), 2),
               "top5": round(100 * float((better < 5).mean()), 2),
               "top1_by_phase": by_phase, "held_out_positions": int(len(better))}
        if args.heads:
            row.update(evaluate_heads())
        return row

    def evaluate_heads():
        """Each head on the held-out sample, overall and by the move's number."""
        wins, scores, owns, outs = [], [], [], []
        for i in range(0, len(eval_idx), 512):
            idx = eval_idx[i:i + 512]
            planes, _, _ = held.batch(idx)
            p, score, own = judge_batch(params, jnp.asarray(planes))
            wins.append(np.asarray(p))
            scores.append(np.asarray(score))
            owns.append(np.asarray(own))
            outs.append(held.outcomes(idx))
        p, score, own = map(np.concatenate, (wins, scores, owns))
        o = {k: np.concatenate([x[k] for x in outs]) for k in outs[0]}
        decided = np.isin(o["value"], [0.0, 1.0]) & np.isin(o["ending"], [1, 2])
        counted = np.isin(o["ending"], [1, 5]) & np.isfinite(o["margin"])
        sure = np.abs(o["ownership"]) > 0.5
        agree = (np.sign(own) == np.sign(o["ownership"])) & sure
        buckets = {"1-39": (1, 39), "40-99": (40, 99), "100-159": (100, 159), "160+": (160, 1 << 16)}

        def figures(sel):
            d = decided & sel
            c = counted & sel
            s = sure[sel].sum()
            return {"positions": int(d.sum()),
                    "accuracy": round(100 * float(((p[d] > 0.5) == (o["value"][d] > 0.5)).mean()), 2) if d.any() else None,
                    "brier": round(float(((p[d] - o["value"][d]) ** 2).mean()), 4) if d.any() else None,
                    "score_mae": round(float(np.abs(score[c] - o["margin"][c]).mean()), 2) if c.any() else None,
                    "ownership_agreement": round(100 * float(agree[sel].sum() / s), 2) if s else None}
        everything = np.ones(len(p), bool)
        by_number = {name: figures((o["number"] >= lo) & (o["number"] <= hi)) for name, (lo, hi) in buckets.items()}
        return {"heads": figures(everything), "heads_by_move": by_number}

    def save():
        # The weights first, then the checkpoint: a checkpoint at the last step always has
        # its weights beside it (each file is replaced whole).
        leaves, _ = jax.tree_util.tree_flatten((params, opt_state))
        weights.save(os.path.join(args.out, "weights.safetensors"), params, {
            "board_size": train.side, "input_planes": train.planes + 1,
            "input": f"the {train.planes} planes of crates/knowledge/src/planes.rs in order, then a plane of ones",
            "legal_plane": net.LEGAL_PLANE, "layers": args.layers, "filters": args.filters,
            "first_kernel": 5, "kernel": 3, "activation": "relu", "padding": "same, zeros",
            "output": "side*side point logits (y * side + x, row 0 at the bottom), then the pass logit",
            **({"heads": "value, score, ownership (from the mover's view)", "value_hidden": net.VALUE_HIDDEN,
                "score_scale": net.SCORE_SCALE,
                "ownership_labels": "judged at " + ", ".join(sorted({str(s.ownership_playouts) for s in train.shards}))
                                    + " playouts a game (tengen learn export --ownership-playouts)"}
               if args.heads else {}),
            "steps": step, "positions_seen": seen, "batch": args.batch, "seed": args.seed,
            "train_shards": " ".join(s.path for s in train.shards),
            "held_out_shards": " ".join(s.path for s in held.shards),
            "command": " ".join(["train.py"] + list(argv)),
            **({"init": f"{args.init} (steps and positions seen before this run counted above)"} if args.init else {})})
        tmp = ckpt + ".tmp.npz"
        np.savez(tmp, config=json.dumps(config), step=step, seen=seen, seconds=seconds, init_seen=init_seen,
                 **{f"leaf{i}": np.asarray(x) for i, x in enumerate(leaves)})
        os.replace(tmp, ckpt)

    log = open(os.path.join(args.out, "log.jsonl"), "a")
    print(f"training positions {train.positions}, held-out {held.positions} (scoring {len(eval_idx)}); "
          f"net {args.layers}x{args.filters}; device {jax.devices()[0]}", flush=True)
    running, running_heads, count = 0.0, np.zeros(3), 0
    last = time.time()
    while step < args.steps:
        rng = np.random.default_rng([args.seed, step])
        idx = rng.integers(0, train.positions, args.batch)
        planes, played, _ = train.batch(idx)
        symmetries = None
        if not args.no_augment:
            symmetries = rng.integers(0, 8, args.batch)
            planes, played = shards.augment(planes, played, symmetries, tables)
        labels = head_targets(train.outcomes(idx), symmetries) if args.heads else None
        params, opt_state, loss, heads = train_step(params, opt_state, jnp.asarray(planes),
                                                    jnp.asarray(played), labels)
        step += 1
        seen += args.batch
        running += float(loss)
        running_heads += np.asarray(heads)
        count += 1
        if step % args.eval_every == 0 or step == args.steps:
            now = time.time()
            seconds += now - last
            row = {"step": step, "positions_seen": seen, "lr": args.lr, "train_loss": round(running / count, 4)}
            if args.heads:
                row["train_head_losses"] = {k: round(float(v / count), 4)
                                            for k, v in zip(["value", "score", "ownership"], running_heads)}
            row.update(evaluate())
            row["seconds"] = round(seconds, 1)
            # This run's own positions: a warm start's earlier ones took no time here.
            row["positions_per_second"] = round((seen - init_seen) / max(seconds, 1e-9), 1)
            print(json.dumps(row), flush=True)
            log.write(json.dumps(row) + "\n")
            log.flush()
            save()
            running, running_heads, count = 0.0, np.zeros(3), 0
            last = time.time()
    return 0


def warm_start(path, fresh, jnp, asked):
    """The parameters of the weights file `path`, checked against the freshly made
    `fresh` (same tensors, same shapes; `asked` describes that net), and the steps and
    positions its metadata records."""
    import jax
    import weights

    import net
    import numpy as np

    meta = weights.metadata(path)
    loaded = weights.load(path)
    if net.has_heads(fresh) and not net.has_heads(loaded):
        # A policy network warm-starts a net with heads: its trunk and policy, fresh heads.
        loaded.update({k: jax.tree_util.tree_map(np.asarray, fresh[k]) for k in ("value", "ownership")})
    want, tree = jax.tree_util.tree_flatten(fresh)
    got, got_tree = jax.tree_util.tree_flatten(loaded)
    if got_tree != tree or any(g.shape != w.shape for g, w in zip(got, want)):
        raise ValueError(f"its net (layers {meta.get('layers')}, filters {meta.get('filters')}, "
                         f"input planes {meta.get('input_planes')}) is not the one asked for ({asked})")
    params = jax.tree_util.tree_unflatten(tree, [jnp.asarray(g, dtype=jnp.float32) for g in got])
    return params, int(meta["steps"]), int(meta["positions_seen"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
