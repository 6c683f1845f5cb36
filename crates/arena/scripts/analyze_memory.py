#!/usr/bin/env python3
"""Long kata-analyze on 19x19 with a memory budget, for BENCHMARKS.md (the tree's byte budget).

Usage: analyze_memory.py TENGEN MINUTES MEMORY_MIB [extra tengen gtp flags]

Starts `TENGEN gtp --threads 2 --quiet --memory MEMORY_MIB`, plays Q16 and D4, runs
`kata-analyze b 100`, and once a minute prints the sum of the moves' visits, the best
move's PV length and the engine's RSS and peak RSS (VmRSS, VmHWM from /proc)."""
import subprocess, sys, time, threading, re
binary, minutes, mem = sys.argv[1], float(sys.argv[2]), sys.argv[3]
extra = sys.argv[4:]
p = subprocess.Popen([binary, "gtp", "--threads", "2", "--quiet", "--memory", mem] + extra,
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
last = [None]
def reader():
    for line in p.stdout:
        if line.startswith("info"):
            last[0] = line
threading.Thread(target=reader, daemon=True).start()
p.stdin.write("boardsize 19\nclear_board\nplay b Q16\nplay w D4\nkata-analyze b 100\n"); p.stdin.flush()
def status():
    d = {}
    for l in open(f"/proc/{p.pid}/status"):
        k, v = l.split(":", 1)
        d[k] = v.strip()
    return d
start = time.time()
cpu0 = None
for m in range(1, int(minutes) + 1):
    time.sleep(max(0, start + 60 * m - time.time()))
    line = last[0] or ""
    infos = line.split("info ")[1:]
    visits = sum(int(re.search(r"visits (\d+)", i).group(1)) for i in infos)
    best = infos[0] if infos else ""
    pv = best.split(" pv ")[1].split() if " pv " in best else []
    st = status()
    print(f"minute {m}: root visits {visits}, best {best.split()[1] if best else '-'}, pv length {len(pv)}, RSS {st['VmRSS']}, peak {st['VmHWM']}", flush=True)
p.stdin.write("\nquit\n"); p.stdin.flush()
p.wait(timeout=60)
