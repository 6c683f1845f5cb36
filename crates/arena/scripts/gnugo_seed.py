"""Does GNU Go's random seed change its moves?

Replays the SGF records of `tengen match` games against GNU Go into a fresh GNU Go
(level 10, Chinese rules) started with `--seed SEED`, or with no seed at all for
`clock` (GNU Go then seeds itself from the time). At each of GNU Go's turns it asks
`genmove` and compares the answer with the recorded move, then goes on with the
recorded game. Prints the moves that differ and the share that agree.

    python3 crates/arena/scripts/gnugo_seed.py SEED|clock GNUGO SGF...

Games without handicap or setup stones only.
"""
import re
import subprocess
import sys

MOVE = re.compile(r";([BW])\[([a-z]*)\]")
SIZE = re.compile(r"SZ\[(\d+)\]")
KOMI = re.compile(r"KM\[([^\]]*)\]")
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


class Gtp:
    """A GTP engine on pipes, one command at a time."""

    def __init__(self, args):
        self.p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(self, cmd):
        self.p.stdin.write(cmd + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"the engine closed its output after {cmd!r}")
            if line.strip() == "" and lines:
                break
            if line.strip():
                lines.append(line.strip())
        answer = " ".join(lines)
        if not answer.startswith("="):
            sys.exit(f"{cmd!r} failed: {answer}")
        return answer[1:].strip()

    def quit(self):
        self.send("quit")
        self.p.wait()


def vertex(point, size):
    """An SGF point as a GTP vertex."""
    if point == "" or (point == "tt" and size <= 19):
        return "PASS"
    return f"{COLUMNS[ord(point[0]) - 97]}{size - (ord(point[1]) - 97)}"


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    seed, gnugo, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    args = [gnugo, "--mode", "gtp", "--chinese-rules", "--level", "10"]
    if seed != "clock":
        args += ["--seed", seed]
    asked = agreed = 0
    for path in paths:
        with open(path) as f:
            text = f.read()
        ours = "B" if "PB[GNU Go" in text else "W"
        size = int(SIZE.search(text).group(1)) if SIZE.search(text) else 19
        komi = KOMI.search(text).group(1) if KOMI.search(text) else "7.5"
        engine = Gtp(args)
        for cmd in (f"boardsize {size}", "clear_board", f"komi {komi}"):
            engine.send(cmd)
        differ = []
        for i, (colour, point) in enumerate(MOVE.findall(text)):
            recorded = vertex(point, size)
            if colour == ours:
                asked += 1
                got = engine.send(f"genmove {colour}").upper()
                if got == recorded:
                    agreed += 1
                    continue
                differ.append(f"{i + 1} {got} for {recorded}")
                if got != "RESIGN":
                    engine.send("undo")
            engine.send(f"play {colour} {recorded}")
        engine.quit()
        print(f"{path}: {', '.join(differ) if differ else 'every move the same'}")
    print(f"seed {seed}: {agreed} of {asked} GNU Go moves as recorded")


if __name__ == "__main__":
    main()
