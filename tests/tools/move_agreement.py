#!/usr/bin/env python3
"""How often a GTP engine plays the move a strong player chose: one position from each
of the first `--positions` games of an SGF collection (games of other sizes, or too
short, are passed over), at a move number spread over the game by a fixed rule; the
engine gets the record up to that move by `loadsgf` and answers `genmove` for the side
to move. Prints the agreement with its 95% Wilson interval, and by phase (moves 1-30,
31-100, 101+).

    python3 tests/tools/move_agreement.py --records ../shared/data/tygem-9d/tygem-9d-2011-03.sgf \\
        --positions 200 --engine "target/release/tengen --playouts 1000 --threads 1 --seed 1"

Only the Python standard library. The same records and engine give the same positions;
the engine's answers are as repeatable as the engine (Tengen at a fixed playout count
and one thread is).
"""

import argparse
import math
import os
import re
import sys
import tempfile

from gtp_pipe import Gtp

COLUMNS = "ABCDEFGHJKLMNOPQRST"


def games(text):
    """Each game of an SGF collection as its own text (a top-level `(;`... `)`)."""
    depth, start, i = 0, None, 0
    while i < len(text):
        ch = text[i]
        if ch == "[":
            # A property value may hold parentheses: skip it whole.
            i += 1
            while i < len(text) and text[i] != "]":
                i += 2 if text[i] == "\\" else 1
        elif ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                yield text[start:i + 1]
        i += 1


def strip_values(text):
    """The game's text with property values emptied of brackets' contents that
    could confuse the move pattern (comments)."""
    return re.sub(r"C\[(?:\\.|[^\]\\])*\]", "C[]", text)


def agreement(engine, text, positions, board_size):
    """Asks `engine` for the move of one position of each of the first `positions`
    games of `board_size` in `text`: the hits, the positions asked, and both by phase
    (`{phase: [hits, positions]}`)."""
    hits, total = 0, 0
    by_phase = {"1-30": [0, 0], "31-100": [0, 0], "101+": [0, 0]}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "game.sgf")
        for game in games(text):
            if total >= positions:
                break
            size = re.search(r"SZ\[(\d+)\]", game)
            if not size or int(size.group(1)) != board_size:
                continue
            moves = re.findall(r";\s*([BW])\[([a-s]{0,2})\]", strip_values(game))
            if len(moves) < 40:
                continue
            # Move number k (1-based) to predict: spread over the game by the game's
            # index, between move 10 and the game's last move.
            k = 10 + (total * 53) % (len(moves) - 10)
            colour, coord = moves[k - 1]
            if coord in ("", "tt"):
                continue
            x, y = ord(coord[0]) - ord("a"), ord(coord[1]) - ord("a")
            played = f"{COLUMNS[x]}{board_size - y}"
            with open(path, "w", encoding="utf-8") as f:
                f.write(game)
            engine.ask(f"loadsgf {path} {k}")
            answer = engine.ask(f"genmove {colour}")
            hit = answer.upper() == played
            hits += hit
            total += 1
            phase = "1-30" if k <= 30 else "31-100" if k <= 100 else "101+"
            by_phase[phase][0] += hit
            by_phase[phase][1] += 1
    return hits, total, by_phase


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--records", required=True, help="an SGF file holding many games")
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--engine", required=True, help="the engine's command line")
    p.add_argument("--size", type=int, default=19)
    a = p.parse_args(argv)
    text = open(a.records, encoding="utf-8", errors="replace").read()
    engine = Gtp(a.engine)
    try:
        hits, total, by_phase = agreement(engine, text, a.positions, a.size)
    except RuntimeError as e:
        sys.exit(f"move_agreement: {e}")
    finally:
        engine.close()
    if total == 0:
        sys.exit("move_agreement: no position of that size in the records")
    z = 1.959964
    phat = hits / total
    centre = (phat + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(phat * (1 - phat) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    print(f"agreement {hits} of {total}: {100 * phat:.1f}% [{100 * (centre - half):.1f}, "
          f"{100 * (centre + half):.1f}]")
    print("by phase: " + ", ".join(f"{k} {h}/{n}" for k, (h, n) in by_phase.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
