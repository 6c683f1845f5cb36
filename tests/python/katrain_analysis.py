"""KaTrain's own engine class (katrain.core.engine.KataGoEngine) driving `tengen analysis`.

Headless: KaTrain's engine needs kivy importable (for its platform check), not a window.
Kivy's logger takes over sys.stderr, so this script reports on stdout.
The stub below stands in for the KaTrain application object: it collects the log lines
the engine writes and opens no popup.

Usage: katrain_analysis.py TENGEN MODE [MOVES] [VISITS]
  MODE custom: KaTrain's "custom command" setting (altcommand), `TENGEN analysis --threads 2`.
  MODE katago: KaTrain's "KataGo executable" setting pointed at TENGEN, which KaTrain runs
               as `TENGEN analysis -model FILE -config FILE -override-config ...`.
Plays a legal 19x19 game of MOVES moves (200) and asks for an analysis of every turn with
maxVisits VISITS (500), as KaTrain does for a loaded game; exits 0 when every turn got a
complete analysis and the engine logged no error.
"""

import os
import random
import sys
import tempfile
import time

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))

from katrain.core.constants import OUTPUT_ERROR  # noqa: E402
from katrain.core.engine import KataGoEngine  # noqa: E402
from katrain.core.game_node import GameNode  # noqa: E402
from pysgf import Move  # noqa: E402

SIZE = 19
COLUMNS = "ABCDEFGHJKLMNOPQRST"


class Application:
    """What KataGoEngine asks of the KaTrain app: log(), and a call for popups."""

    def __init__(self):
        self.errors = []
        self.lines = 0

    def log(self, message, level):
        self.lines += 1
        if level == OUTPUT_ERROR:
            self.errors.append(str(message))
            print("KaTrain error:", message, flush=True)

    def __call__(self, *args):
        self.errors.append(f"popup {args}")


def neighbours(p):
    x, y = p
    for q in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
        if 0 <= q[0] < SIZE and 0 <= q[1] < SIZE:
            yield q


def group(board, p):
    colour, seen, todo, libs = board[p], {p}, [p], set()
    while todo:
        for q in neighbours(todo.pop()):
            if q not in board:
                libs.add(q)
            elif board[q] == colour and q not in seen:
                seen.add(q)
                todo.append(q)
    return seen, libs


def play(board, colour, p):
    """The board after `colour` plays `p`, or None if illegal (suicide)."""
    board = dict(board)
    board[p] = colour
    for q in neighbours(p):
        if q in board and board[q] != colour:
            stones, libs = group(board, q)
            if not libs:
                for s in stones:
                    del board[s]
    if not group(board, p)[1]:
        return None
    return board


def legal_game(moves, seed=7):
    """A random legal game (no suicide, no repeated position, no filling own eyes)."""
    rng = random.Random(seed)
    board, seen, out, colour = {}, {frozenset()}, [], "B"
    while len(out) < moves:
        empty = [(x, y) for x in range(SIZE) for y in range(SIZE) if (x, y) not in board]
        rng.shuffle(empty)
        for p in empty:
            if all(board.get(q) == colour for q in neighbours(p)):
                continue  # an eye of our own
            after = play(board, colour, p)
            if after is None or frozenset(after.items()) in seen:
                continue
            board = after
            seen.add(frozenset(board.items()))
            out.append((colour, f"{COLUMNS[p[0]]}{p[1] + 1}"))
            break
        else:
            out.append((colour, "pass"))
        colour = "W" if colour == "B" else "B"
    return out


def main():
    tengen, mode = sys.argv[1], sys.argv[2]
    moves = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    visits = int(sys.argv[4]) if len(sys.argv) > 4 else 500
    config = {
        "max_visits": visits,
        "fast_visits": 25,
        "max_time": 600.0,
        "wide_root_noise": 0.04,
        "_enable_ownership": True,
        "allow_recovery": False,
    }
    scratch = tempfile.mkdtemp(prefix="katrain-")
    if mode == "custom":
        config.update(backend="custom", altcommand=f'"{tengen}" analysis --threads 2', model="", config="")
    elif mode == "katago":
        # KaTrain checks that the model and config files exist; Tengen ignores them.
        model = os.path.join(scratch, "kata1-model.bin.gz")
        cfg = os.path.join(scratch, "analysis_config.cfg")
        for path in (model, cfg):
            with open(path, "w") as f:
                f.write("not read by tengen\n")
        config.update(backend="local", katago=tengen, model=model, config=cfg, altcommand="")
    else:
        sys.exit(f"unknown mode {mode!r} (custom or katago)")

    app = Application()
    engine = KataGoEngine(app, config)
    if engine.katago_process is None:
        sys.exit(f"KaTrain did not start the engine: {app.errors}")
    print("KaTrain started:", engine.command, flush=True)

    root = GameNode(properties={"SZ": SIZE, "KM": 6.5, "RU": "japanese"})
    nodes, node = [root], root
    for colour, gtp in legal_game(moves):
        node = node.play(Move.from_gtp(gtp, player=colour))
        nodes.append(node)

    start = time.time()
    for n in nodes:
        n.analyze(engine, visits=visits)
    deadline = start + 3600
    while not engine.is_idle():
        if time.time() > deadline:
            sys.exit(f"timed out with {engine.queries_remaining()} queries open")
        if not engine.check_alive():
            sys.exit("the engine died")
        time.sleep(0.1)
    took = time.time() - start

    incomplete = [i for i, n in enumerate(nodes) if not n.analysis_complete]
    short = [(i, n.root_visits) for i, n in enumerate(nodes) if n.root_visits != visits]
    no_policy = [i for i, n in enumerate(nodes) if not n.policy or len(n.policy) != SIZE * SIZE + 1]
    no_ownership = [i for i, n in enumerate(nodes) if not n.ownership or len(n.ownership) != SIZE * SIZE]
    # KaTrain's own reading of the results: each turn's candidates and the points lost.
    no_candidates = [i for i, n in enumerate(nodes) if not n.candidate_moves]
    engine.shutdown(finish=True)
    print(
        f"{mode}: {len(nodes)} turns, {len(nodes) - len(incomplete)} complete, "
        f"{visits} visits each, {took:.1f} s, {app.lines} log lines, {len(app.errors)} errors",
        flush=True,
    )
    problems = {
        "incomplete turns": incomplete,
        "turns without maxVisits visits": short,
        "turns without a policy": no_policy,
        "turns without ownership": no_ownership,
        "turns without candidate moves": no_candidates,
        "errors logged by KaTrain": app.errors,
    }
    failed = {k: v for k, v in problems.items() if v}
    if failed:
        sys.exit(f"FAILED: {failed}")
    print(f"OK: KaTrain got a complete analysis of all {len(nodes)} turns")


if __name__ == "__main__":
    main()
