#!/usr/bin/env python3
"""Compares dead-stone lists on finished games: for every SGF record in the given
match directories whose game ended by two passes, asks each engine command for
`final_status_list dead` after `loadsgf`, and prints how often each engine agrees
with the first one (the reference, e.g. GNU Go), with the games that differ.

    python3 tests/tools/dead_agreement.py --dir m1 \
        --engine "/usr/games/gnugo --mode gtp --chinese-rules" \
        --engine "target/release/tengen --quiet"

Only the Python standard library; each engine is started once and fed every record.
"""

import argparse
import glob
import os
import re
import sys

from gtp_pipe import Gtp


def ended_by_passes(sgf):
    """Whether the record's last two moves are passes (B[] / W[] or B[tt])."""
    moves = re.findall(r";\s*([BW])\[([a-z]{0,2})\]", sgf)
    if len(moves) < 2:
        return False
    size = int((re.search(r"SZ\[(\d+)\]", sgf) or [None, "19"])[1])
    def is_pass(v):
        return v == "" or (v == "tt" and size <= 19)
    return is_pass(moves[-1][1]) and is_pass(moves[-2][1])


def dead_set(engine, path):
    ok, _ = engine.answer(f"loadsgf {path}")
    if not ok:
        return None
    ok, text = engine.answer("final_status_list dead")
    if not ok:
        return None
    return frozenset(text.upper().split())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", action="append", required=True, help="match output directory")
    ap.add_argument("--engine", action="append", required=True, help="engine command; the first is the reference")
    args = ap.parse_args()
    records = sorted(
        p for d in args.dir for p in glob.glob(os.path.join(d, "*.sgf"))
    )
    finished = [p for p in records if ended_by_passes(open(p, encoding="utf-8", errors="replace").read())]
    engines = [Gtp(c, show_stderr=False) for c in args.engine]
    agree = [0] * len(engines)
    differ = [[] for _ in engines]
    for path in finished:
        sets = [dead_set(e, os.path.abspath(path)) for e in engines]
        for i, s in enumerate(sets):
            if s is not None and s == sets[0]:
                agree[i] += 1
            else:
                differ[i].append((path, sets[0], s))
    for e in engines:
        e.close()
    print(f"{len(finished)} of {len(records)} records ended by two passes")
    for i, command in enumerate(args.engine[1:], start=1):
        n = len(finished)
        share = 100.0 * agree[i] / n if n else 0.0
        print(f"{command}: agrees with the reference in {agree[i]} of {n} ({share:.1f}%)")
        for path, ref, got in differ[i]:
            only_ref = sorted((ref or frozenset()) - (got or frozenset()))
            only_got = sorted((got or frozenset()) - (ref or frozenset()))
            print(f"  {os.path.basename(path)}: reference only {' '.join(only_ref) or '-'}; this engine only {' '.join(only_got) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
