#!/usr/bin/env python3
"""Move times of a `tengen match` as the referee saw them: for each engine of the
match directories, the moves it generated, the mean, median, 99th percentile and
largest time a move, how many moves took longer than `--period`, and its losses on
time. With `--engine-logs` kept, also the lag: the referee's time for each of
Tengen's moves minus the time Tengen's own summary line reports for it (the pipes
and the scheduling the engine cannot see).

    python3 tests/tools/move_times.py --dir m1 --period 1

Only the Python standard library.
"""

import argparse
import glob
import json
import os
import re
import statistics


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def sgf_moves(text):
    """(colour, seconds) of every timed move, in order."""
    return [
        (c, float(t))
        for c, t in re.findall(r";([BW])\[[a-z]*\]C\[([0-9.]+) s\]", text)
    ]


def prop(text, name):
    m = re.search(name + r"\[([^\]]*)\]", text)
    return m.group(1) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", action="append", required=True, help="a match directory")
    ap.add_argument("--period", type=float, help="seconds a move may take")
    args = ap.parse_args()
    times = {}
    losses = {}
    lags = []
    for d in args.dir:
        entries = [json.loads(l) for l in open(os.path.join(d, "journal.jsonl")) if l.strip()]
        for e in entries:
            if e["reason"] == "time":
                loser = e["white"] if e["winner"] == "B" else e["black"]
                losses[loser] = losses.get(loser, 0) + 1
            text = open(os.path.join(d, e["sgf"])).read()
            names = {"B": prop(text, "PB"), "W": prop(text, "PW")}
            moves = sgf_moves(text)
            for c, t in moves:
                times.setdefault(names[c], []).append(t)
            for c, side in (("B", "black"), ("W", "white")):
                log = os.path.join(d, "logs", "game-%04d-%s.log" % (e["game"], side))
                if not os.path.exists(log):
                    continue
                own = [float(x) for x in re.findall(r"^tengen: [BW] \S+ in ([0-9.]+) s", open(log).read(), re.M)]
                if not own:
                    continue
                theirs = [t for cc, t in moves if cc == c]
                lags += [a - b for a, b in zip(theirs, own)]
    for name, ts in sorted(times.items()):
        over = sum(t > args.period for t in ts) if args.period else 0
        print(
            "%-14s %5d moves  mean %.3f s  median %.3f s  p99 %.3f s  max %.3f s  over the period %d  time losses %d"
            % (name, len(ts), statistics.mean(ts), statistics.median(ts), quantile(ts, 0.99), max(ts), over, losses.get(name, 0))
        )
    if lags:
        print(
            "lag (referee's time - Tengen's own, %d moves): median %.4f s  p99 %.4f s  max %.4f s"
            % (len(lags), statistics.median(lags), quantile(lags, 0.99), max(lags))
        )


if __name__ == "__main__":
    main()
