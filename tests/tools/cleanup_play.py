#!/usr/bin/env python3
"""Plays the clean-up of tests/data/life/bent-four.txt's first board out over GTP:
Black and White are GTP engine commands, each asked `kgs-genmove_cleanup` in turn
(the board set up with `play`), until two passes in a row or 80 moves. Prints the
moves, whether White's corner stone D9 still stands, and Black's
`final_status_list dead`.

    python3 tests/tools/cleanup_play.py --rules chinese \
        --black "target/release/tengen --playouts 1000 --threads 1 --seed 1 --quiet" \
        --white "/usr/games/gnugo --mode gtp --chinese-rules --level 10"

Only the Python standard library. An engine that refuses `kgs-rules` (GNU Go takes
its rules from its command line) keeps its own.
"""

import argparse
import sys

from gtp_pipe import Gtp

BLACK = "B9 E9 A8 E8 E7 E6 A5 B5 C5 D5 E5".split()
WHITE = "D9 B8 C8 D8 B7 C7 D7 A6 B6 C6 D6".split()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--black", required=True, help="the Black engine's command")
    ap.add_argument("--white", required=True, help="the White engine's command")
    ap.add_argument("--rules", choices=["chinese", "japanese"], default="chinese")
    args = ap.parse_args()
    black, white = (Gtp(c, show_stderr=False) for c in (args.black, args.white))
    for e in (black, white):
        e.ask("boardsize 9")
        e.ask("clear_board")
        e.ask("komi 7.5" if args.rules == "chinese" else "komi 6.5")
        try:
            e.ask(f"kgs-rules {args.rules}")
        except RuntimeError:
            pass
        for b, w in zip(BLACK, WHITE):
            e.ask(f"play b {b}")
            e.ask(f"play w {w}")
    moves, passes = [], 0
    for n in range(80):
        color, me, other = ("b", black, white) if n % 2 == 0 else ("w", white, black)
        mv = me.ask(f"kgs-genmove_cleanup {color}")
        moves.append(mv)
        if mv.lower() == "resign":
            break
        other.ask(f"play {color} {mv}")
        passes = passes + 1 if mv.lower() == "pass" else 0
        if passes >= 2:
            break
    d9 = "stands" if "D9" in black.ask("list_stones white").split() else "is taken"
    print(f"{args.rules}: {' '.join(moves)}")
    print(f"{args.rules}: D9 {d9}; dead: {black.ask('final_status_list dead')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
