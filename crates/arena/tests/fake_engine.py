#!/usr/bin/env python3
"""A small, deliberately breakable GTP engine for the arena's tests.

It keeps a real board (captures, suicide and positional superko are checked), plays
random legal moves that do not fill its own eyes, and passes when nothing is left or
when the opponent passed after move --pass-after. Misbehaviour is chosen on the command
line; "move N" is the game's move number (1-based) of the move being generated:

  --illegal-at N   answer an occupied point at move N
  --hang-at N      never answer genmove at move N
  --exit-at N      exit (status 3) when asked for move N
  --close-at N     close stdout at move N but keep running
  --resign-at N    resign at move N
  --junk           answer every genmove with garbage
  --noise          write junk lines on stdout before answers and a lot on stderr
  --slow SECS      sleep this long before every genmove answer
  --no-protocol    never answer protocol_version (nor anything else)
  --max-size N     refuse board sizes above N
  --dead-all       final_status_list dead lists every opponent stone (disagrees)
  --no-cleanup     do not list kgs-genmove_cleanup
  --no-status      do not list final_status_list
  --name NAME      the answer to `name`
  --seed S         random seed
  --kata-time      also list kata-time_settings (KataGo's time settings)
  --clock-log FILE append every time settings and time_left line to FILE
  --rules-log FILE append every kgs-rules line to FILE
  --rules NAMES    accept only these kgs-rules names (comma-separated), as KGS's
                   engines take only KGS's names
  --no-kgs-rules   do not list kgs-rules
"""

import argparse
import os
import random
import sys
import time

COLS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def parse_args():
    p = argparse.ArgumentParser()
    for flag in ("--illegal-at", "--hang-at", "--exit-at", "--close-at", "--resign-at",
                 "--max-size", "--pass-after"):
        p.add_argument(flag, type=int, default=None)
    p.add_argument("--slow", type=float, default=0.0)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--name", default="Fake")
    p.add_argument("--clock-log", default=None)
    p.add_argument("--rules-log", default=None)
    p.add_argument("--rules", default=None)
    for flag in ("--junk", "--noise", "--no-protocol", "--dead-all", "--no-cleanup",
                 "--no-status", "--kata-time", "--no-kgs-rules"):
        p.add_argument(flag, action="store_true")
    return p.parse_args()


class Board:
    def __init__(self, n):
        self.n = n
        self.stones = {}  # (x, y) -> 'b' | 'w'
        self.history = {self.key()}
        self.moves = 0
        self.last_pass = False

    def key(self):
        return frozenset(self.stones.items())

    def neighbours(self, p):
        x, y = p
        for q in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if 0 <= q[0] < self.n and 0 <= q[1] < self.n:
                yield q

    def group(self, stones, p):
        c = stones[p]
        seen, todo, libs = {p}, [p], False
        while todo:
            q = todo.pop()
            for r in self.neighbours(q):
                s = stones.get(r)
                if s is None:
                    libs = True
                elif s == c and r not in seen:
                    seen.add(r)
                    todo.append(r)
        return seen, libs

    def after(self, c, p):
        """The stones after c plays p, or None if illegal."""
        if p in self.stones:
            return None
        stones = dict(self.stones)
        stones[p] = c
        other = "w" if c == "b" else "b"
        for q in self.neighbours(p):
            if stones.get(q) == other:
                g, libs = self.group(stones, q)
                if not libs:
                    for s in g:
                        del stones[s]
        _, libs = self.group(stones, p)
        if not libs:
            return None
        if frozenset(stones.items()) in self.history:
            return None
        return stones

    def play(self, c, p):
        self.moves += 1
        if p is None:
            self.last_pass = True
            return True
        stones = self.after(c, p)
        if stones is None:
            return False
        self.stones = stones
        self.history.add(self.key())
        self.last_pass = False
        return True

    def is_own_eye(self, c, p):
        return all(self.stones.get(q) == c for q in self.neighbours(p))

    def candidates(self, c, rng):
        empties = [(x, y) for x in range(self.n) for y in range(self.n)
                   if (x, y) not in self.stones and not self.is_own_eye(c, (x, y))]
        rng.shuffle(empties)
        for p in empties:
            if self.after(c, p) is not None:
                return p
        return None


def vertex(p):
    if p is None:
        return "pass"
    return "%s%d" % (COLS[p[0]], p[1] + 1)


def parse_vertex(s, n):
    s = s.strip().upper()
    if s == "PASS":
        return None
    x = COLS.index(s[0])
    y = int(s[1:]) - 1
    if not (0 <= x < n and 0 <= y < n):
        raise ValueError(s)
    return (x, y)


def colour(s):
    return "b" if s.lower() in ("b", "black") else "w"


def main():
    args = parse_args()
    rng = random.Random(args.seed if args.seed is not None else os.getpid())
    board = Board(9)
    out = sys.stdout
    commands = ["protocol_version", "name", "version", "list_commands", "known_command",
                "boardsize", "clear_board", "komi", "play", "genmove", "quit",
                "time_settings", "time_left", "kgs-time_settings", "set_free_handicap"]
    if not args.no_kgs_rules:
        commands.append("kgs-rules")
    if not args.no_status:
        commands.append("final_status_list")
    if not args.no_cleanup:
        commands.append("kgs-genmove_cleanup")
    if args.kata_time:
        commands.append("kata-time_settings")

    def answer(cid, text, ok=True):
        if args.noise:
            out.write("noise: not a response\n")
            sys.stderr.write("x" * 2000 + "\n")
        out.write("%s%s %s\n\n" % ("=" if ok else "?", cid, text))
        out.flush()

    for line in sys.stdin:
        line = line.split("#")[0].strip()
        if not line:
            continue
        words = line.split()
        cid = ""
        if words[0].isdigit():
            cid = words.pop(0)
        if not words:
            continue
        cmd, rest = words[0], words[1:]
        if args.no_protocol:
            continue
        if args.clock_log and cmd.endswith("time_settings") or args.clock_log and cmd == "time_left":
            with open(args.clock_log, "a") as log:
                log.write(" ".join(words) + "\n")
        if cmd == "protocol_version":
            answer(cid, "2")
        elif cmd == "name":
            answer(cid, args.name)
        elif cmd == "version":
            answer(cid, "1.0")
        elif cmd == "list_commands":
            answer(cid, "\n".join(commands))
        elif cmd == "known_command":
            answer(cid, "true" if rest and rest[0] in commands else "false")
        elif cmd == "boardsize":
            n = int(rest[0])
            if args.max_size is not None and n > args.max_size:
                answer(cid, "unacceptable size", ok=False)
            else:
                board = Board(n)
                answer(cid, "")
        elif cmd == "clear_board":
            board = Board(board.n)
            answer(cid, "")
        elif cmd == "play":
            try:
                p = parse_vertex(rest[1], board.n)
            except (ValueError, IndexError):
                answer(cid, "syntax error", ok=False)
                continue
            if board.play(colour(rest[0]), p):
                answer(cid, "")
            else:
                answer(cid, "illegal move", ok=False)
        elif cmd in ("genmove", "kgs-genmove_cleanup"):
            c = colour(rest[0])
            number = board.moves + 1
            if args.slow:
                time.sleep(args.slow)
            if args.hang_at is not None and number >= args.hang_at:
                time.sleep(3600)
            if args.exit_at is not None and number >= args.exit_at:
                sys.stderr.write("fake engine: exiting on purpose\n")
                sys.stderr.flush()
                os._exit(3)
            if args.close_at is not None and number >= args.close_at:
                out.close()
                os.close(1)
                time.sleep(3600)
            if args.junk:
                answer(cid, "xyzzy plugh")
                continue
            if args.resign_at is not None and number >= args.resign_at:
                answer(cid, "resign")
                continue
            if args.illegal_at is not None and number >= args.illegal_at and board.stones:
                answer(cid, vertex(next(iter(board.stones))))
                continue
            if (board.last_pass and args.pass_after is not None
                    and number > args.pass_after and cmd == "genmove"):
                p = None
            else:
                p = board.candidates(c, rng)
            board.play(c, p)
            answer(cid, vertex(p))
        elif cmd == "set_free_handicap":
            for v in rest:
                p = parse_vertex(v, board.n)
                board.stones[p] = "b"
            board.history = {board.key()}
            answer(cid, "")
        elif cmd == "final_status_list":
            if rest and rest[0] == "dead" and args.dead_all:
                answer(cid, " ".join(vertex(p) for p in board.stones))
            else:
                answer(cid, "")
        elif cmd == "kgs-rules" and cmd in commands:
            if args.rules_log:
                with open(args.rules_log, "a") as log:
                    log.write(" ".join(words) + "\n")
            if args.rules is not None and (not rest or rest[0] not in args.rules.split(",")):
                answer(cid, "unknown rules", ok=False)
            else:
                answer(cid, "")
        elif cmd == "quit":
            answer(cid, "")
            return
        elif cmd in commands:
            answer(cid, "")
        else:
            answer(cid, "unknown command", ok=False)


if __name__ == "__main__":
    main()
