"""Would Tengen's resign rule have given up games it went on to win?

Reads a `tengen match` journal from a match Tengen played with `--resign-threshold 0`,
searches again every position Tengen faced in the games it won (`reg_genmove`, one
thread, a fixed seed), and applies the rule: a win rate under THRESHOLD for STREAK
searches in a row, after the first quarter of the board's points in moves. Prints the
games where it would have fired.

    python3 crates/arena/scripts/resign_audit.py MATCH_DIR TENGEN [THRESHOLD] [STREAK] [PLAYOUTS]

Games without handicap only (Black moves first). One search per move: a 9x9 match of
100 games at 5 000 playouts takes about 7 minutes on one core.
"""
import json
import re
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    match_dir, tengen = sys.argv[1], sys.argv[2]
    threshold = float(sys.argv[3]) if len(sys.argv) > 3 else 0.1
    streak_needed = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    playouts = sys.argv[5] if len(sys.argv) > 5 else "5000"
    with open(f"{match_dir}/journal.jsonl") as f:
        games = [json.loads(line) for line in f if '"winner"' in line]
    fired = checked = 0
    for g in games:
        us = "B" if g["black"].startswith("Tengen") else "W"
        if g["winner"] != us:
            continue
        checked += 1
        size = int(re.search(r"SZ\[(\d+)\]", open(f"{match_dir}/{g['sgf']}").read()).group(1))
        first = 1 if us == "B" else 2
        script = "".join(
            f"loadsgf {match_dir}/{g['sgf']} {k}\nreg_genmove {us}\n"
            for k in range(first, g["moves"] + 1, 2)
        )
        out = subprocess.run(
            [tengen, "--playouts", playouts, "--threads", "1", "--seed", "1"],
            input=script + "quit\n", capture_output=True, text=True, check=True,
        )
        wins = [float(x) / 100 for x in re.findall(r"win ([0-9.]+)%", out.stderr)]
        streak = 0
        for i, w in enumerate(wins):
            move = first + 2 * i
            streak = streak + 1 if w < threshold else 0
            if streak >= streak_needed and move > size * size // 4:
                fired += 1
                print(f"game {g['game']} ({us}) won {g['result']}, would resign at move {move}")
                break
    print(f"{fired} of {checked} won games would have been resigned")


if __name__ == "__main__":
    main()
