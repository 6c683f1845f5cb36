"""Did two runs of a match play the same games?

Compares, game by game, the moves and the result of the SGF records in two
`tengen match` output directories (for example the same fixed-seed match played once
on a quiet machine and once under load). Prints each game as identical or with the
first move where the runs part; exits 1 if any game differs or is missing.

    python3 crates/arena/scripts/same_games.py DIR_A DIR_B
"""
import glob
import os
import re
import sys

MOVE = re.compile(r";([BW])\[([a-z]*)\]")
RESULT = re.compile(r"RE\[([^\]]*)\]")


def record(path):
    """The moves (colour, SGF point) and the result of one SGF record."""
    with open(path) as f:
        text = f.read()
    result = RESULT.search(text)
    return MOVE.findall(text), result.group(1) if result else "?"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a_dir, b_dir = sys.argv[1], sys.argv[2]
    names = sorted(os.path.basename(p) for p in glob.glob(os.path.join(a_dir, "*.sgf")))
    if not names:
        sys.exit(f"no SGF records in {a_dir}")
    differ = 0
    for name in names:
        other = os.path.join(b_dir, name)
        if not os.path.exists(other):
            print(f"{name}: missing in {b_dir}")
            differ += 1
            continue
        (a_moves, a_result), (b_moves, b_result) = record(os.path.join(a_dir, name)), record(other)
        if a_moves == b_moves and a_result == b_result:
            print(f"{name}: identical, {len(a_moves)} moves, {a_result}")
            continue
        differ += 1
        first = next((i for i, (x, y) in enumerate(zip(a_moves, b_moves)) if x != y),
                     min(len(a_moves), len(b_moves)))
        print(f"{name}: differ from move {first + 1} "
              f"({len(a_moves)} moves {a_result} against {len(b_moves)} moves {b_result})")
    print(f"{len(names) - differ} of {len(names)} games identical")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
