"""Training speed of the policy network in JAX against the same net in PyTorch, on
this machine's CPU: positions a second (and a CPU-second, less swayed by other work on
a shared machine) of Adam steps on random 19x19 inputs, after one step to compile.

    python bench.py --framework jax   --layers 6 --filters 64 --batch 128 --seconds 60
    python bench.py --framework torch --layers 6 --filters 64 --batch 128 --seconds 60

JAX is what requirements.txt installs; PyTorch is measured from a venv of its own
(`pip install torch numpy`) and is not needed by the trainer.
"""

import argparse
import os
import time

import numpy as np


def bench_jax(a, x, y):
    os.environ["JAX_PLATFORMS"] = "cpu"
    import jax
    import jax.numpy as jnp
    import optax

    import net

    params = net.init(jax.random.PRNGKey(0), x.shape[1] + 1, a.layers, a.filters)
    opt = optax.adam(1e-3)
    state = opt.init(params)

    @jax.jit
    def step(params, state, planes, played):
        loss, g = jax.value_and_grad(lambda p: net.loss_and_ranks(p, net.inputs(planes), played)[0])(params)
        u, state = opt.update(g, state, params)
        return optax.apply_updates(params, u), state, loss

    xs, ys = jnp.asarray(x), jnp.asarray(y)
    params, state, loss = step(params, state, xs, ys)
    loss.block_until_ready()
    n, start, cpu = 0, time.time(), time.process_time()
    while time.time() - start < a.seconds:
        params, state, loss = step(params, state, xs, ys)
        loss.block_until_ready()
        n += 1
    return n, time.time() - start, time.process_time() - cpu, jax.__version__


def bench_torch(a, x, y):
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self, cin):
            super().__init__()
            layers = []
            for i in range(a.layers):
                k = 5 if i == 0 else 3
                layers += [nn.Conv2d(cin, a.filters, k, padding=k // 2), nn.ReLU()]
                cin = a.filters
            self.body = nn.Sequential(*layers)
            self.head = nn.Conv2d(a.filters, 1, 1)
            self.passing = nn.Linear(a.filters, 1)

        def forward(self, x):
            h = self.body(x)
            board = self.head(h).flatten(1)
            out = torch.cat([board, self.passing(h.mean(dim=(2, 3)))], dim=1)
            legal = torch.cat([x[:, 12].flatten(1), torch.ones(x.shape[0], 1)], dim=1)
            return out.masked_fill(legal == 0, -1e9)

    torch.manual_seed(0)
    xs = torch.from_numpy(np.concatenate([x, np.ones_like(x[:, :1])], axis=1))
    ys = torch.from_numpy(y.astype(np.int64))
    model = Net(xs.shape[1])
    opt = torch.optim.Adam(model.parameters(), 1e-3)
    lossf = nn.CrossEntropyLoss()

    def step():
        opt.zero_grad()
        loss = lossf(model(xs), ys)
        loss.backward()
        opt.step()
        return loss.item()

    step()
    n, start, cpu = 0, time.time(), time.process_time()
    while time.time() - start < a.seconds:
        step()
        n += 1
    return n, time.time() - start, time.process_time() - cpu, f"{torch.__version__} ({torch.get_num_threads()} threads)"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--framework", choices=["jax", "torch"], required=True)
    p.add_argument("--layers", type=int, default=6)
    p.add_argument("--filters", type=int, default=64)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--seconds", type=float, default=60)
    a = p.parse_args()
    rng = np.random.default_rng(0)
    x = (rng.random((a.batch, 18, 19, 19)) < 0.3).astype(np.float32)
    y = rng.integers(0, 361, a.batch).astype(np.int32)
    n, secs, cpu, version = (bench_jax if a.framework == "jax" else bench_torch)(a, x, y)
    print(f"{a.framework} {version}: {a.layers}x{a.filters}, batch {a.batch}: {n} steps in {secs:.1f} s "
          f"({cpu:.1f} CPU-seconds): {n * a.batch / secs:.0f} positions a second, "
          f"{n * a.batch / cpu:.0f} a CPU-second")


if __name__ == "__main__":
    main()
